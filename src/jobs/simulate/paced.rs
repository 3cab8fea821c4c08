//! Jobs kept to the cluster's clock. On the nodes clock a job's time is
//! its nodes, so how far a job has got on the cluster at any moment is a
//! count of nodes. Here a job is searched only as far as the simulated
//! clock has gone (the horizon), and held there until the clock moves on
//! or the driver cancels it; a cancelled job is then searched here about
//! as far as the cluster searched it, and leaves in its table what it had
//! searched by then, not its whole search.
//!
//! The horizon moves a stretch of the clock at a time
//! ([`Simulator::stretch_us`](super::Simulator::stretch_us)), or less where
//! a job ends sooner. The jobs of one table take turns on it, a stretch
//! each, in the order they were handed out, as the threads of a process
//! share its table (their entries reach each other within a stretch, not
//! at once).
//! Each job is held at a count of nodes its own search reports (see
//! [`Pace`]), and the horizon moves only when every job is held or done:
//! so a table sees the same searches in the same order on any number of
//! cores, and from run to run.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};

use parking_lot::{Condvar, Mutex};

use super::events::Event;
use crate::jobs::Job;
use crate::search::{Deadline, Pace};

/// A paced job: until its search starts, the job; then the gate it is held
/// at; and the nodes it may search so far.
pub(super) struct Paced {
    pub job: Option<Job>,
    pub gate: Option<Arc<Gate>>,
    pub allowed: u64,
}

/// Where a job's search is held, and how the simulation lets it go on.
pub(super) struct Gate {
    slot: usize,
    allowed: AtomicU64,
    stop: Arc<AtomicBool>,
    /// The nodes the search had counted when it was held, while it is.
    held: Mutex<Option<u64>>,
    moved: Condvar,
    events: mpsc::Sender<Event>,
}

impl Gate {
    /// The gate of a job on table `slot` that may search `allowed` nodes
    /// before it is held; it tells `events` when it is.
    pub(super) fn new(slot: usize, allowed: u64, events: mpsc::Sender<Event>) -> Arc<Gate> {
        Arc::new(Gate {
            slot,
            allowed: AtomicU64::new(allowed),
            stop: Arc::default(),
            held: Mutex::new(None),
            moved: Condvar::new(),
            events,
        })
    }

    /// What the job's search stops on besides its budget: this gate.
    pub(super) fn deadline(self: &Arc<Gate>) -> Deadline {
        Deadline::none()
            .with_stop(Some(self.stop.clone()))
            .with_pace(Some(self.clone()))
    }

    /// Lets the held search go on to `allowed` nodes: true if it goes on
    /// (and will tell again when it is held, or end), false if it had
    /// already counted more and stays held.
    pub(super) fn go(&self, allowed: u64) -> bool {
        self.allowed.store(allowed, Ordering::Release);
        let mut held = self.held.lock();
        match *held {
            Some(seen) if seen <= allowed => {
                *held = None;
                self.moved.notify_one();
                true
            }
            Some(_) => false,
            None => unreachable!("a job is let go only once it is held"),
        }
    }

    /// Stops the search: it unwinds, answers nothing, and ends.
    pub(super) fn cancel(&self) {
        let mut held = self.held.lock();
        self.stop.store(true, Ordering::Release);
        *held = None;
        self.moved.notify_one();
    }
}

impl Pace for Gate {
    fn allowed(&self) -> u64 {
        self.allowed.load(Ordering::Acquire)
    }

    fn wait(&self, seen: u64) -> bool {
        let mut held = self.held.lock();
        if self.stop.load(Ordering::Acquire) {
            return false;
        }
        *held = Some(seen);
        // The receiver goes only with the simulation's panic.
        let _ = self.events.send(Event::Held { slot: self.slot });
        while held.is_some() {
            self.moved.wait(&mut held);
        }
        !self.stop.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::random::{random_board, Rng};
    use crate::game::Player;
    use crate::jobs::job::run_job_kept;

    /// The most nodes a search counts past a report before the next: a
    /// tick's 64 visits, each with a solve of the last five plies (at most
    /// 5 + 5*4 + 5*4*3 + 5*4*3*2 + 5*4*3*2 = 325 nodes).
    const SLACK: u64 = 64 * 326;
    /// How far the search is let go on.
    const STEP: u64 = 100_000;

    /// The nodes the search was held at, told by `events`.
    fn held_at(gate: &Gate, events: &mpsc::Receiver<Event>) -> u64 {
        let Ok(Event::Held { slot: 3 }) = events.recv_timeout(std::time::Duration::from_secs(60))
        else {
            panic!("the search was not held");
        };
        gate.held.lock().expect("held")
    }

    /// A search is held just past the nodes its gate allows, goes on when
    /// let go, stays held when let go to fewer nodes than it has counted,
    /// and stops when cancelled, having searched no further: unheld, the
    /// same job searches far more.
    #[test]
    fn a_gate_holds_a_search_at_its_nodes_and_stops_it() {
        let board = random_board(&mut Rng::new(5), 5, 99, 1.0 - 15.0 / 25.0);
        let job = Job::new(1, &board, Player::X, board.empty_count(), 0);
        let whole = run_job_kept(&job, &Default::default(), Deadline::none()).unwrap();
        assert!(whole.nodes > 4 * STEP, "{} nodes", whole.nodes);

        let (tx, events) = mpsc::channel();
        let gate = Gate::new(3, 1000, tx);
        // A failed check must not leave the search held for ever.
        struct Cancel<'a>(&'a Gate);
        impl Drop for Cancel<'_> {
            fn drop(&mut self) {
                self.0.cancel();
            }
        }
        std::thread::scope(|scope| {
            let _cancel = Cancel(&gate);
            let search = scope.spawn(|| run_job_kept(&job, &Default::default(), gate.deadline()));
            let first = held_at(&gate, &events);
            assert!(first > 1000 && first <= 1000 + SLACK, "held at {first}");
            assert!(!gate.go(first - 1), "let go short of where it is held");
            assert!(gate.go(first + STEP));
            let second = held_at(&gate, &events);
            assert!(
                second > first + STEP && second <= first + STEP + SLACK,
                "held at {second}"
            );
            gate.cancel();
            let stopped = search.join().unwrap().unwrap();
            assert_eq!(stopped.value, None);
            assert!(
                stopped.nodes >= second && stopped.nodes <= second + SLACK,
                "{} nodes searched",
                stopped.nodes
            );
        });
    }
}
