//! When a search must stop: a stop flag set from outside, a wall-clock
//! deadline, or a budget of the process's CPU time (what a tournament
//! charges, summed over every thread). The searches poll it themselves, so
//! no timer thread is needed, and every loop that can run long (the
//! alpha-beta nodes and the quiescence search alike) reaches a poll within
//! about 0.2 ms on each thread.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cpu_time::ProcessTime;
use crossbeam_utils::CachePadded;

/// Nodes a thread searches between two looks at the wall clock (cheap: no
/// system call). Nodes differ a hundredfold in cost (a leaf of a small
/// board against a node that generates and orders the moves of a 26x26
/// one), so the count alone would not bound the time between polls.
const TICK_EVERY: u32 = 64;
/// Wall time a thread lets pass between two full polls (the CPU clock is a
/// system call): one thread's CPU time cannot grow faster than this.
const POLL_EVERY: Duration = Duration::from_micros(200);

thread_local! {
    /// Per thread rather than per search call: parallel tasks are often
    /// smaller than the poll interval, and must still reach a poll.
    static TICKS: Cell<u32> = const { Cell::new(0) };
    static NEXT_POLL: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Nodes counted since the last flush without a tick each.
    static UNTICKED: Cell<u64> = const { Cell::new(0) };
}

/// A stop condition shared by every thread of one search. Once it fires it
/// stays fired; the search's results from then on are garbage and are
/// discarded by the callers.
#[derive(Debug, Default)]
pub struct Deadline {
    fired: AtomicBool,
    stop: Option<Arc<AtomicBool>>,
    wall: Option<Instant>,
    /// Limit on the process's CPU time since it started.
    cpu: Option<Duration>,
    /// Nodes ticked so far, counted in steps of [`TICK_EVERY`] per thread:
    /// for a progress display, which reads it from another thread. Padded
    /// to a cache line of its own so the search threads' updates do not
    /// slow down readers of the flag.
    ticked: CachePadded<AtomicU64>,
    /// The deepest iteration completed so far, as the search reports it.
    depth: AtomicU32,
}

impl Deadline {
    /// A deadline that never fires by itself (it can still be [`fire`]d).
    ///
    /// [`fire`]: Deadline::fire
    pub fn none() -> Deadline {
        Deadline::default()
    }

    /// Also fires once `stop` is set. The flag belongs to the caller, who
    /// may share it between searches, so it is only ever read.
    pub fn with_stop(mut self, stop: Option<Arc<AtomicBool>>) -> Deadline {
        self.stop = stop;
        self
    }

    /// Also fires at the wall-clock instant `at`.
    pub fn with_wall(mut self, at: Option<Instant>) -> Deadline {
        self.wall = at;
        self
    }

    /// Also fires once this process has used `budget` more CPU time (all
    /// threads together) than it had used when this is called.
    pub fn with_cpu_budget(mut self, budget: Duration) -> Deadline {
        self.cpu = process_cpu().checked_add(budget);
        self
    }

    /// Fires now.
    pub fn fire(&self) {
        self.fired.store(true, Relaxed);
    }

    /// True once fired. Cheap: for the hot path.
    #[inline]
    pub fn fired(&self) -> bool {
        self.fired.load(Relaxed)
    }

    /// Looks at the clocks and the stop flag now, and fires if any is due.
    pub fn poll(&self) -> bool {
        if self.fired() {
            return true;
        }
        let due = self.stop.as_ref().is_some_and(|s| s.load(Relaxed))
            || self.wall.is_some_and(|w| Instant::now() >= w)
            || self.cpu.is_some_and(|c| process_cpu() >= c);
        if due {
            self.fire();
        }
        due
    }

    /// Counts one node on this thread, and polls if [`POLL_EVERY`] has
    /// passed since this thread last did.
    #[inline]
    pub fn tick(&self) {
        let t = TICKS.with(|t| {
            let v = t.get().wrapping_add(1);
            t.set(v);
            v
        });
        if t.is_multiple_of(TICK_EVERY) {
            self.tick_slow();
        }
    }

    /// Counts `nodes` more on this thread without polling: for solvers of
    /// the last plies, whose nodes are too cheap to tick one by one.
    #[inline]
    pub fn count(&self, nodes: u64) {
        UNTICKED.with(|u| u.set(u.get() + nodes));
    }

    /// About how many nodes have been ticked or counted (short of the
    /// truth by what each thread did since its last [`TICK_EVERY`] ticks).
    pub fn nodes_seen(&self) -> u64 {
        self.ticked.load(Relaxed)
    }

    /// Records that an iteration `depth` deep completed.
    pub fn note_depth(&self, depth: u32) {
        self.depth.fetch_max(depth, Relaxed);
    }

    /// The deepest iteration completed so far (0 before the first).
    pub fn depth_done(&self) -> u32 {
        self.depth.load(Relaxed)
    }

    #[cold]
    fn tick_slow(&self) {
        let counted = UNTICKED.with(|u| u.replace(0));
        self.ticked
            .fetch_add(u64::from(TICK_EVERY) + counted, Relaxed);
        let now = Instant::now();
        let due = NEXT_POLL.with(|next| {
            let due = next.get().is_none_or(|at| now >= at);
            if due {
                next.set(Some(now + POLL_EVERY));
            }
            due
        });
        if due {
            self.poll();
        }
    }

    /// True when only a stop flag or nothing can end the search: there is
    /// no clock to watch.
    pub fn is_untimed(&self) -> bool {
        self.wall.is_none() && self.cpu.is_none()
    }
}

/// CPU time this process has used so far, every thread included.
pub fn process_cpu() -> Duration {
    // `ProcessTime::try_now` fails only where the clock does not exist;
    // then nothing counts as used, and the wall clock still bounds play.
    ProcessTime::try_now().map_or(Duration::ZERO, |t| t.as_duration())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_on_each_condition_and_stays_fired() {
        let d = Deadline::none();
        assert!(!d.poll());
        d.fire();
        assert!(d.fired() && d.poll());

        let stop = Arc::new(AtomicBool::new(false));
        let d = Deadline::none().with_stop(Some(stop.clone()));
        assert!(!d.poll());
        stop.store(true, Relaxed);
        assert!(d.poll());
        stop.store(false, Relaxed);
        assert!(d.fired(), "a fired deadline stays fired");

        let d = Deadline::none().with_wall(Some(Instant::now()));
        assert!(d.poll());

        let d = Deadline::none().with_cpu_budget(Duration::from_millis(5));
        assert!(!d.poll());
        let start = process_cpu();
        while process_cpu() < start + Duration::from_millis(6) {
            std::hint::black_box(0);
        }
        assert!(d.poll());
    }

    #[test]
    fn ticks_reach_a_poll() {
        let d = Deadline::none().with_wall(Some(Instant::now()));
        let start = Instant::now();
        while !d.fired() {
            d.tick();
            assert!(start.elapsed() < POLL_EVERY * 100, "no poll");
        }
    }
}
