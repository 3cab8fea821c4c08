//! One thread's part of a search: the signals it shares with the others
//! and the outside world, the split point it works under, and its node
//! count. Every recursive search takes one `&mut Worker` in place of a
//! list of loose arguments.

use std::cell::Cell;
use std::time::{Duration, Instant};

use super::deadline::Deadline;
use super::progress::Progress;
use super::split_point::SplitPoint;

/// Nodes a thread searches between two looks at the wall clock (cheap: no
/// system call). Nodes differ a hundredfold in cost (a leaf of a small
/// board against a node that generates and orders the moves of a 26x26
/// one), so the count alone would not bound the time between polls.
const TICK_EVERY: u32 = 64;
/// Wall time a thread lets pass between two full polls (the CPU clock is a
/// system call): one thread's CPU time cannot grow faster than this.
const POLL_EVERY: Duration = Duration::from_micros(200);

thread_local! {
    /// Per thread rather than per worker: parallel tasks are often smaller
    /// than the poll interval, and must still reach a poll. A worker takes
    /// the count when it is made and leaves it when it goes, not at every
    /// node: in the Python module, a shared library, every access to a
    /// thread-local is a call.
    static TICKS: Cell<u32> = const { Cell::new(0) };
    static NEXT_POLL: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Nodes counted since the last report without a tick each.
    static UNTICKED: Cell<u64> = const { Cell::new(0) };
}

/// What every thread of one search shares: when to stop, and where to
/// report how far it has got.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Signals<'a> {
    pub deadline: &'a Deadline,
    pub progress: &'a Progress,
}

/// One thread's state in a search.
pub(crate) struct Worker<'a> {
    signals: Signals<'a>,
    /// The innermost split point this worker searches below, if any.
    split: Option<&'a SplitPoint<'a>>,
    /// Positions searched, as `--stats` counts them.
    pub nodes: u64,
    /// This thread's nodes since its last tick (see [`TICKS`]).
    ticks: u32,
    /// Nodes counted without a visit each, not yet reported.
    unticked: u64,
}

impl<'a> Worker<'a> {
    /// A worker at the root, with no nodes yet.
    pub(crate) fn new(signals: Signals<'a>) -> Worker<'a> {
        Worker {
            signals,
            split: None,
            nodes: 0,
            ticks: TICKS.get(),
            unticked: 0,
        }
    }

    /// A worker for a younger brother searched below `split`.
    pub(crate) fn below<'b>(signals: Signals<'b>, split: &'b SplitPoint<'b>) -> Worker<'b> {
        Worker {
            signals,
            split: Some(split),
            nodes: 0,
            ticks: TICKS.get(),
            unticked: 0,
        }
    }

    pub(crate) fn signals(&self) -> Signals<'a> {
        self.signals
    }

    pub(crate) fn split(&self) -> Option<&'a SplitPoint<'a>> {
        self.split
    }

    /// Counts a node, and every [`TICK_EVERY`] nodes on this thread
    /// reports them and polls the deadline if [`POLL_EVERY`] has passed.
    #[inline]
    pub(crate) fn visit(&mut self) {
        self.nodes += 1;
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(TICK_EVERY) {
            tick_slow(self.signals, std::mem::take(&mut self.unticked));
            if let Some(s) = self.split {
                s.catch_up();
            }
        }
    }

    /// Reports `nodes` already counted without a visit each (the solvers
    /// of the last plies, whose nodes are too cheap to tick one by one)
    /// with the next report.
    #[inline]
    pub(crate) fn report_later(&mut self, nodes: u64) {
        self.unticked += nodes;
    }

    /// True once the deadline has fired: results since are garbage.
    #[inline]
    pub(crate) fn aborted(&self) -> bool {
        self.signals.deadline.fired()
    }

    /// True once the deadline has fired or the split point this worker
    /// searches below is flagged: results since are garbage, to be
    /// discarded. A stop of an enclosing point reaches the flag at the
    /// worker's next tick (see [`SplitPoint::catch_up`]).
    #[inline]
    pub(crate) fn stopped(&self) -> bool {
        self.aborted() || self.split.is_some_and(|s| s.flagged())
    }
}

impl Drop for Worker<'_> {
    /// Leaves the thread's count to the next worker on it. A worker made
    /// on this thread while this one lived (a stolen task) left its own,
    /// which this overwrites: only a poll comes a little later.
    fn drop(&mut self) {
        TICKS.set(self.ticks);
        UNTICKED.set(UNTICKED.get() + self.unticked);
    }
}

#[cold]
fn tick_slow(signals: Signals<'_>, unticked: u64) {
    let counted = unticked + UNTICKED.replace(0);
    signals.progress.add(u64::from(TICK_EVERY) + counted);
    signals.deadline.count(signals.progress.nodes_seen());
    let now = Instant::now();
    let due = NEXT_POLL.with(|next| {
        let due = next.get().is_none_or(|at| now >= at);
        if due {
            next.set(Some(now + POLL_EVERY));
        }
        due
    });
    if due {
        signals.deadline.poll();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_reach_a_poll() {
        let d = Deadline::none().with_wall(Some(Instant::now()));
        let progress = Progress::default();
        let mut w = Worker::new(Signals {
            deadline: &d,
            progress: &progress,
        });
        let start = Instant::now();
        while !d.fired() {
            w.visit();
            assert!(start.elapsed() < POLL_EVERY * 100, "no poll");
        }
    }
}
