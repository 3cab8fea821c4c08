//! When a search must stop: a stop flag set from outside, a wall-clock
//! deadline, a budget of the process's CPU time (what a tournament
//! charges, summed over every thread), or a budget of nodes (a job of a
//! split solve that has run long enough to be cut further). The searches
//! poll it themselves, so no timer thread is needed, and every loop that
//! can run long (the alpha-beta nodes and the quiescence search alike)
//! reaches a poll within about 0.2 ms on each thread ([`super::worker`]
//! keeps that cadence).
//! How far the search has got is another matter: [`super::Progress`].
//! A search can also be held at counts of nodes until let go ([`Pace`]):
//! a simulated worker keeping to its cluster's clock.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cpu_time::ProcessTime;

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
    /// Limit on the search's nodes, all threads together.
    nodes: Option<u64>,
    pace: Option<Arc<dyn Pace>>,
}

/// Holds a search at counts of nodes until it is let go on, or told to
/// stop. Asked as the nodes are counted (every few dozen on each thread,
/// see [`Deadline::with_nodes`]), so on one thread a search is held at the
/// same node from run to run.
pub trait Pace: Send + Sync {
    /// The nodes the search may count before it must [`Pace::wait`].
    fn allowed(&self) -> u64;

    /// Blocks the search, which has counted `seen` nodes, more than
    /// allowed, until it may go on (true) or must stop (false).
    fn wait(&self, seen: u64) -> bool;
}

impl std::fmt::Debug for dyn Pace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pace(allowed {})", self.allowed())
    }
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

    /// Also fires once the search has counted `most` nodes (as its
    /// [`Progress`](super::Progress) sees them: a few dozen late per thread).
    pub fn with_nodes(mut self, most: Option<u64>) -> Deadline {
        self.nodes = most;
        self
    }

    /// Also holds the search at the counts of nodes `pace` allows, and
    /// fires when it says stop.
    pub fn with_pace(mut self, pace: Option<Arc<dyn Pace>>) -> Deadline {
        self.pace = pace;
        self
    }

    /// Fires if `seen` nodes reach the budget of nodes; waits while they
    /// are past what the pace allows. Cheap: the workers call it each time
    /// they report nodes.
    #[inline]
    pub(crate) fn count(&self, seen: u64) {
        if self.nodes.is_some_and(|most| seen >= most) {
            self.fire();
        }
        if let Some(pace) = &self.pace {
            if seen > pace.allowed() && !pace.wait(seen) {
                self.fire();
            }
        }
    }

    /// True once the stop flag is set: the search was given up from
    /// outside, not stopped at its budget.
    pub fn given_up(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Relaxed))
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

    /// True when only a stop flag or nothing can end the search: there is
    /// no clock to watch.
    pub fn is_untimed(&self) -> bool {
        self.wall.is_none() && self.cpu.is_none()
    }
}

/// CPU time this process has used so far, every thread included.
pub(crate) fn process_cpu() -> Duration {
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

        let d = Deadline::none().with_nodes(Some(100));
        d.count(99);
        assert!(!d.fired());
        d.count(100);
        assert!(d.fired());
    }
}
