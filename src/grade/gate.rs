//! A fixed number of program runs at once, shared by every program graded
//! side by side (a class): each run waits for a slot, and a freed slot goes
//! to the waiting run of the lowest rank (the student earliest in the
//! class), so that the students ahead finish first and the others fill the
//! cores whenever those ahead have no run ready (while they are diagnosed,
//! or while one failure is shrunk a run at a time).
//!
//! The time a run waits for its slot is counted per thread ([`waited`]),
//! so that the shrinker's wall-clock budget counts only its own runs: a
//! student shrinks as far in a class as graded alone.

use std::cell::Cell;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The slots shared by the runs of several programs.
pub struct RunGate {
    state: Mutex<State>,
    turn: Condvar,
}

struct State {
    /// Slots free now.
    free: usize,
    /// The runs waiting, by rank then arrival.
    waiting: BTreeSet<(usize, u64)>,
    /// The next arrival's number.
    arrivals: u64,
}

thread_local! {
    /// How long this thread's runs have waited for a slot in all.
    static WAITED: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// The time this thread's runs have waited for a slot so far: the
/// difference of two readings is the wait between them.
pub(super) fn waited() -> Duration {
    WAITED.with(Cell::get)
}

impl RunGate {
    /// A gate of `slots` runs at once (at least one).
    pub fn new(slots: usize) -> Arc<RunGate> {
        Arc::new(RunGate {
            state: Mutex::new(State {
                free: slots.max(1),
                waiting: BTreeSet::new(),
                arrivals: 0,
            }),
            turn: Condvar::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a slot for a run of rank `rank` (lower goes first); the
    /// slot is freed when the [`Slot`] is dropped.
    pub fn enter(&self, rank: usize) -> Slot<'_> {
        let start = Instant::now();
        let mut state = self.lock();
        let me = (rank, state.arrivals);
        state.arrivals += 1;
        state.waiting.insert(me);
        while !(state.free > 0 && state.waiting.first() == Some(&me)) {
            state = self.turn.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.waiting.remove(&me);
        state.free -= 1;
        let more = state.free > 0 && !state.waiting.is_empty();
        drop(state);
        if more {
            // The next in line may take the slot left.
            self.turn.notify_all();
        }
        WAITED.with(|w| w.set(w.get() + start.elapsed()));
        Slot { gate: self }
    }
}

impl fmt::Debug for RunGate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunGate")
            .field("free", &self.lock().free)
            .finish()
    }
}

/// A run's slot, freed when dropped.
pub struct Slot<'a> {
    gate: &'a RunGate,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.gate.lock().free += 1;
        self.gate.turn.notify_all();
    }
}

/// A program's place at a shared gate: the gate and its rank.
#[derive(Clone)]
pub struct GatePlace {
    /// The gate.
    pub gate: Arc<RunGate>,
    /// Lower ranks go first.
    pub rank: usize,
}

impl GatePlace {
    /// Waits for a slot at this place.
    pub fn enter(&self) -> Slot<'_> {
        self.gate.enter(self.rank)
    }
}

impl PartialEq for GatePlace {
    fn eq(&self, other: &GatePlace) -> bool {
        Arc::ptr_eq(&self.gate, &other.gate) && self.rank == other.rank
    }
}

impl Eq for GatePlace {}

impl fmt::Debug for GatePlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GatePlace(rank {})", self.rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn no_more_runs_than_slots_and_the_lowest_rank_first() {
        let gate = RunGate::new(2);
        let inside = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for rank in 0..8 {
                let (gate, inside, most) = (&gate, &inside, &most);
                s.spawn(move || {
                    for _ in 0..20 {
                        let _slot = gate.enter(rank);
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_micros(200));
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 2);

        // One slot, taken: the waiters enter by rank, not by arrival.
        let gate = RunGate::new(1);
        let order = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            let held = gate.enter(0);
            for rank in [5, 3, 9, 1] {
                let (gate, order) = (&gate, &order);
                s.spawn(move || {
                    let _slot = gate.enter(rank);
                    order.lock().unwrap().push(rank);
                });
            }
            while gate.lock().waiting.len() < 4 {
                std::thread::sleep(Duration::from_millis(1));
            }
            drop(held);
        });
        assert_eq!(order.into_inner().unwrap(), [1, 3, 5, 9]);
    }

    #[test]
    fn the_wait_is_counted_on_the_waiting_thread() {
        let gate = RunGate::new(1);
        let held = gate.enter(0);
        let before = waited();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                let start = waited();
                drop(gate.enter(1));
                waited() - start
            });
            std::thread::sleep(Duration::from_millis(50));
            drop(held);
            assert!(waiter.join().unwrap() >= Duration::from_millis(40));
        });
        assert!(waited() - before < Duration::from_millis(40));
    }
}
