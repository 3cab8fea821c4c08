//! Searches run side by side within one thread budget and one table
//! budget: how `serve` and the batch `solve` spread many positions over
//! the cores.
//!
//! Threads. Searches start in the order they come, each when the threads
//! it gets are free, and the threads in use never exceed the budget. A
//! search asking for `n` threads gets `n` (at most the budget), and waits
//! until that many are free. A search asking for the default (0) gets the
//! free threads shared among the searches waiting to start, this one
//! among them, at least one: a lone search gets every core, as it would
//! alone, and a queue of searches gets one thread each. Many small
//! searches each on one thread beat each split over the cores, since a
//! search of a millisecond does not split well and a hundred of them side
//! by side do. A search too small to be worth threads started for it
//! (`is_small`: an estimated 2 ms or less) starts on one thread even
//! alone.
//!
//! Tables. A search on `t` of the budget's `T` threads may use `t / T` of
//! the table budget, and no more than it would size alone
//! ([`Limits::table_bytes`] is the cap on one search's tables): the tables
//! of the searches in flight together stay within the budget, however
//! many searches wait. The table changes how fast a search is, never its
//! answer.
//!
//! Threads lent. A search asking for the default threads in ALPHABETA
//! that starts beside others starts on one thread, and borrows the free
//! threads while no search waits to start (`engine::lending`): the last
//! long search of a batch is not left on one core while the others idle.
//! Each thread comes back once a search waits and the item of the split
//! it took is done. (MINIMAX splits its top plies on a pool's every
//! thread, so its default searches are given threads when they start
//! instead.)
//!
//! Each search runs on a runner thread, a worker of a lending pool of the
//! budget's size (at most [`LENDING_WIDTH`]) that is the runner's own; a
//! search of more than one thread asked for runs on a pool of its own:
//! searches of the same count side by side on one shared pool would queue
//! on its workers.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::Scope;
use std::time::Duration;

use rayon::ThreadPool;

use super::{analyse_inner, Analysis, ApiError, Engine, Limits, Position, SearchMode, MAX_THREADS};
use crate::engine::lending::{self, ThreadBudget};
use crate::engine::pool;

/// The table budget unless one is given: 1 GiB, the largest table one
/// search sizes for itself, so that a lone search runs as it would alone,
/// and within a laptop's memory.
pub const DEFAULT_TABLE_BYTES: usize = 1 << 30;

/// A search thread's stack: deep endgame searches recurse once per empty
/// cell (the pools' workers have as much).
const STACK_BYTES: usize = 64 << 20;

/// The searches [`search_all`] takes from its iterator ahead of those
/// running (at least twice the thread budget): a megabyte of boards. The
/// thread that takes them waits for half of them to start between turns,
/// so a search of a few microseconds costs a small share of a wake.
const READ_AHEAD: usize = 256;

/// The most workers of a runner's lending pool: a search borrows at most
/// one fewer. Every runner has such a pool, so a budget of `T` threads
/// starts up to `T * min(T, LENDING_WIDTH)` workers; without the cap, 256
/// threads would start 65,536.
const LENDING_WIDTH: usize = 16;

/// How often a wait for answers looks at its stop flag.
const POLL: Duration = Duration::from_millis(20);

/// How searches run side by side: the budgets they share, and what each
/// answer holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sharing {
    /// The threads of all searches in flight together; 0 (the default):
    /// one per core. At most [`MAX_THREADS`].
    pub threads: usize,
    /// The transposition table bytes of all searches in flight together
    /// (default: [`DEFAULT_TABLE_BYTES`]).
    pub table_bytes: usize,
    /// Whether each analysis has its principal variation (the default);
    /// without it, as an output file needs only the move, a search ends
    /// sooner and its `pv` is empty.
    pub pv: bool,
}

impl Default for Sharing {
    fn default() -> Sharing {
        Sharing {
            threads: 0,
            table_bytes: DEFAULT_TABLE_BYTES,
            pv: true,
        }
    }
}

impl Sharing {
    /// The thread budget in threads.
    fn thread_budget(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
        .min(MAX_THREADS)
    }
}

/// Whether a search asking for the default threads is too small to be
/// worth a pool of its own: one whose tree is under 100,000 positions,
/// about 2 ms of search. Alpha-beta's tree is at best about
/// `empties^(plies / 2)` positions (a move a cell, the best one tried
/// first); MINIMAX also proves every other root move's value, up to two
/// moves a cell, each a tree a ply shallower. Starting a pool's threads
/// takes tens of microseconds, and a batch of ten thousand 3x3 positions
/// searched 2 plies deep (6 us each) took 2.3 times as long as a loop
/// with a pool for each search that found the others idle. An ALPHABETA
/// estimate too low costs little: such a search still borrows the free
/// threads.
fn is_small(position: &Position, limits: &Limits) -> bool {
    if limits.threads != 0 {
        return false;
    }
    let empties = f64::from(position.board().empty_count());
    let plies = limits.depth.map_or(empties, f64::from).min(empties);
    let tree = match limits.mode {
        SearchMode::AlphaBeta => empties.powf(plies / 2.0),
        SearchMode::Minimax => 2.0 * empties * empties.powf((plies - 1.0).max(0.0) / 2.0),
    };
    tree < 1e5
}

/// A search waiting to start: its key, position and limits.
type Waiting<K> = (K, Box<Position>, Limits);

/// The searches waiting and the threads free, shared by whoever queues
/// searches and the runner threads that start them.
struct State<K> {
    queue: VecDeque<Waiting<K>>,
    /// Searches running.
    running: usize,
    /// No more searches will be queued: runners end once the queue is
    /// empty.
    closed: bool,
    /// The queue's length at which to wake the one waiting for room.
    room_at: Option<usize>,
    /// Runners waiting for work: a search queued wakes one only if there
    /// is one (a wake is a system call).
    idle_runners: usize,
}

/// A search's threads, given back when it ends, even by a panic.
struct Running<'a, K: Send> {
    runners: &'a Runners<K>,
    threads: usize,
    pool: Option<ThreadPool>,
}

impl<K: Send> Drop for Running<'_, K> {
    fn drop(&mut self) {
        self.runners.done(self.threads, self.pool.take());
    }
}

/// Marks its runners failed if its runner thread panics.
struct FailOnPanic<'a, K: Send>(&'a Runners<K>);

impl<K: Send> Drop for FailOnPanic<'_, K> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut state = self.0.lock();
            self.0.failed.store(true, Relaxed);
            state.closed = true;
            state.queue.clear();
            drop(state);
            self.0.work.notify_all();
            self.0.room.notify_all();
            self.0.idle.notify_all();
        }
    }
}

/// Searches run side by side within a [`Sharing`]: queued with
/// [`Runners::push`] and run by [`Runners::run`]'s threads, one per
/// search running at once. Each runner takes the next search itself when
/// its threads are free, and hands its answer on itself, so that a search
/// of a millisecond costs no thread hand-offs while others wait.
pub(crate) struct Runners<K> {
    /// The thread budget.
    budget: usize,
    /// Its threads, taken by searches and lent to them.
    threads: Arc<ThreadBudget>,
    /// The table budget.
    table_bytes: usize,
    /// Whether the analyses find their principal variation.
    pv: bool,
    state: Mutex<State<K>>,
    /// For the runners: a search queued, threads free, the queue closed.
    work: Condvar,
    /// For the one queuing: room in the queue.
    room: Condvar,
    /// For the one waiting for the end: nothing queued or running.
    idle: Condvar,
    /// A runner panicked (a search or its caller's callback did, under
    /// `panic = "unwind"`): the searches left are dropped and no more are
    /// queued, so that the panic reaches the caller instead of a wait for
    /// runners that are gone.
    failed: AtomicBool,
}

impl<K: Send> Runners<K> {
    pub(crate) fn new(sharing: &Sharing) -> Runners<K> {
        let budget = sharing.thread_budget();
        Runners {
            budget,
            threads: Arc::new(ThreadBudget::new(budget)),
            table_bytes: sharing.table_bytes,
            pv: sharing.pv,
            state: Mutex::new(State {
                queue: VecDeque::new(),
                running: 0,
                closed: false,
                room_at: None,
                idle_runners: 0,
            }),
            failed: AtomicBool::new(false),
            work: Condvar::new(),
            room: Condvar::new(),
            idle: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<K>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'a>(
        on: &Condvar,
        state: MutexGuard<'a, State<K>>,
        timeout: Duration,
    ) -> MutexGuard<'a, State<K>> {
        on.wait_timeout(state, timeout)
            .unwrap_or_else(PoisonError::into_inner)
            .0
    }

    /// Starts the runner threads on `scope`, at most `at_most` (one per
    /// search there will be, where that is known), and returns how many
    /// started:
    /// each starts searches, calling `on_start` with a search's limits just
    /// before it starts, and `deliver` with its key and answer when it
    /// ends. They end when the queue is closed and empty.
    pub(crate) fn run<'scope, 'env>(
        &'scope self,
        scope: &'scope Scope<'scope, 'env>,
        on_start: &'scope (dyn Fn(&Limits) + Sync),
        deliver: &'scope (dyn Fn(K, Result<Analysis, ApiError>) + Sync),
        at_most: usize,
    ) -> usize {
        // Fewer than the budget (no more threads to be had): fewer
        // searches at once; none at all is the caller's to handle.
        (0..self.budget.min(at_most))
            .take_while(|_| {
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        // Without a lending pool (one thread, or no more
                        // threads to be had) its searches borrow none.
                        let width = self.budget.min(LENDING_WIDTH);
                        let lending = (width > 1)
                            .then(|| lending::lending_pool(width, &self.threads))
                            .flatten();
                        match lending {
                            Some(pool) => pool.install(|| self.runner(on_start, deliver)),
                            None => self.runner(on_start, deliver),
                        }
                    })
                    .is_ok()
            })
            .count()
    }

    /// One runner: the next search whose threads are free, until the queue
    /// is closed and empty.
    fn runner(
        &self,
        on_start: &(dyn Fn(&Limits) + Sync),
        deliver: &(dyn Fn(K, Result<Analysis, ApiError>) + Sync),
    ) {
        let _failing = FailOnPanic(self);
        while let Some(((key, position, limits), threads, pool)) = self.next() {
            on_start(&limits);
            let running = Running {
                runners: self,
                threads,
                pool,
            };
            let pv = self.pv;
            let analyse = || analyse_inner(&position, &limits, pv, |_| {}, |_| {});
            let answer = match &running.pool {
                Some(pool) => pool.install(analyse),
                None => analyse(),
            };
            // The threads first: the next search need not wait for the
            // answer to be written.
            drop(running);
            deliver(key, answer);
            drop(limits);
        }
    }

    /// Whether a runner panicked (the field of this name says why it
    /// matters).
    pub(crate) fn failed(&self) -> bool {
        self.failed.load(Relaxed)
    }

    /// The next search to start, its threads taken, with its pool; `None`
    /// once the queue is closed and empty.
    fn next(&self) -> Option<(Waiting<K>, usize, Option<ThreadPool>)> {
        let mut state = self.lock();
        loop {
            if let Some((_, position, limits)) = state.queue.front() {
                // Alone, it gets every thread from the start: a search
                // split over a pool's threads from its root is quicker than
                // one that borrows them at its splits (8% on a 20-empty
                // 5x5 solve). But a small one stays on one thread, alone
                // or not: the threads of a pool of its own would take
                // longer to start than it takes to search.
                let small = is_small(position, limits);
                let alone = state.queue.len() == 1 && self.threads.free() == self.budget;
                let borrows = (small || !alone) && self.borrows(limits);
                let threads = if borrows || small {
                    1
                } else {
                    self.threads_for(limits, state.queue.len(), self.threads.free())
                };
                if self.threads.take(threads) {
                    let (key, position, mut limits) = state.queue.pop_front()?;
                    state.running += 1;
                    self.threads.set_lending(state.queue.is_empty());
                    let pool = (threads > 1).then(|| pool::build(threads)).flatten();
                    if state.room_at.is_some_and(|at| state.queue.len() <= at) {
                        state.room_at = None;
                        self.room.notify_one();
                    }
                    // Another runner may start the next one.
                    let more = self.threads.free() > 0
                        && !state.queue.is_empty()
                        && state.idle_runners > 0;
                    drop(state);
                    if more {
                        self.work.notify_one();
                    }
                    self.share(&position, &mut limits, threads, pool.is_some());
                    if borrows {
                        // Split over the lending pool it runs on.
                        limits.threads = rayon::current_num_threads();
                    }
                    return Some(((key, position, limits), threads, pool));
                }
            } else if state.closed {
                return None;
            }
            // Threads lent come back without a wake: while a search waits
            // for them, look again soon.
            let wait = if !state.queue.is_empty() && self.threads.lent() > 0 {
                Duration::from_millis(1)
            } else {
                Duration::from_secs(1)
            };
            state.idle_runners += 1;
            state = Self::wait(&self.work, state, wait);
            state.idle_runners -= 1;
        }
    }

    /// Sets a search's threads and table share.
    fn share(&self, position: &Position, limits: &mut Limits, threads: usize, pooled: bool) {
        if limits.engine == Engine::Fast {
            let share = self.table_bytes / self.budget * threads;
            let own = limits
                .table_bytes
                .unwrap_or_else(|| limits.default_table_bytes(position));
            limits.table_bytes = Some(share.min(own));
        }
        // Without a pool of its own (no threads to be had) it runs on one.
        limits.threads = if pooled { threads } else { 1 };
    }

    /// Takes back a finished search's threads, and ends its pool.
    fn done(&self, threads: usize, pool: Option<ThreadPool>) {
        let mut state = self.lock();
        self.threads.put(threads);
        state.running -= 1;
        // Not kept for the next search: a table freed on one of its
        // workers would be what the allocator hands the next search's
        // workers, to be zeroed again by hand (seconds for 1 GiB), where a
        // fresh thread gets fresh pages, zero already.
        drop(pool);
        let idle = state.running == 0 && state.queue.is_empty();
        drop(state);
        // This runner itself looks for its next search: others only when
        // more than its one thread came free.
        if threads > 1 {
            self.work.notify_all();
        }
        if idle {
            self.idle.notify_all();
        }
    }

    /// Whether a search within `limits` starts on one thread and borrows
    /// the free ones (see the module's text): one asking for the default
    /// threads, of the fast engine, not in MINIMAX, run by a runner on a
    /// lending pool.
    fn borrows(&self, limits: &Limits) -> bool {
        limits.threads == 0
            && limits.engine == Engine::Fast
            && limits.mode != SearchMode::Minimax
            && lending::current().is_some()
    }

    /// The threads a search within `limits` gets if it starts now, with
    /// `waiting` searches waiting to start (itself among them) and `free`
    /// threads free.
    fn threads_for(&self, limits: &Limits, waiting: usize, free: usize) -> usize {
        // The textbook search runs on one thread whatever it is given.
        let asked = match limits.engine {
            Engine::Reference => 1,
            Engine::Fast => limits.threads,
        };
        match asked {
            0 => (free / waiting.max(1)).clamp(1, self.budget),
            n => n.min(self.budget),
        }
    }

    /// Queues a search.
    pub(crate) fn push(&self, key: K, position: Box<Position>, limits: Limits) {
        let mut state = self.lock();
        if self.failed() {
            return;
        }
        state.queue.push_back((key, position, limits));
        self.threads.set_lending(false);
        let idle = state.idle_runners > 0;
        drop(state);
        if idle {
            self.work.notify_one();
        }
    }

    /// Waits, at most `timeout`, while `room` or more searches are queued,
    /// and then until half of them have started (one wake for many
    /// searches of a millisecond); returns how many are queued.
    pub(crate) fn wait_for_room(&self, room: usize, timeout: Duration) -> usize {
        let mut state = self.lock();
        if state.queue.len() >= room {
            state.room_at = Some(room / 2);
            state = Self::wait(&self.room, state, timeout);
        }
        state.queue.len()
    }

    /// No more searches will be queued.
    pub(crate) fn close(&self) {
        let mut state = self.lock();
        state.closed = true;
        let idle = state.running == 0 && state.queue.is_empty();
        drop(state);
        self.work.notify_all();
        if idle {
            self.idle.notify_all();
        }
    }

    /// Drops the searches not started (nothing can use their answers).
    pub(crate) fn drop_queued(&self) {
        let mut state = self.lock();
        state.queue.clear();
        self.threads.set_lending(true);
        let idle = state.running == 0;
        drop(state);
        // Runners waiting for threads for a search now dropped look again
        // (and end, once the queue is closed).
        self.work.notify_all();
        if idle {
            self.idle.notify_all();
        }
    }

    /// Waits, at most `timeout`, until no search is queued or running;
    /// returns whether none is.
    pub(crate) fn wait_idle(&self, timeout: Duration) -> bool {
        let idle = |s: &State<K>| s.queue.is_empty() && s.running == 0;
        let mut state = self.lock();
        if !idle(&state) {
            state = Self::wait(&self.idle, state, timeout);
        }
        idle(&state)
    }
}

/// Answers every search of `searches`, each a key, a position and its
/// limits, side by side within `sharing`, calling `on_answer` with each
/// key and answer as each search finishes (from the thread that ran it,
/// one call at a time).
///
/// Searches start in the order they come, a few taken from `searches`
/// ahead of those running (16, or twice the thread budget): the positions
/// waiting stay few, and an iterator that reads them from files reads as
/// the searches go. A search with no stop flag of its own gets one; once
/// `stop` is set, no further search starts, and every running one is
/// stopped through its flag (each still answers, with the deepest depth
/// it completed).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use stakeraid::api::{search_all, Limits, Position, SearchMode, Sharing};
/// use stakeraid::parse_problem;
///
/// let input = "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";
/// let position = Position::from_problem(&parse_problem(input.as_bytes())?)?;
/// let searches = (1..=3).map(|depth| {
///     (depth, position.clone(), Limits::to_depth(SearchMode::Minimax, depth))
/// });
/// let mut answers = Vec::new();
/// search_all(searches, &Sharing::default(), &AtomicBool::new(false), |depth, answer| {
///     answers.push((depth, answer.map(|a| a.best.to_string())))
/// });
/// answers.sort_by_key(|(depth, _)| *depth);
/// assert_eq!(answers[1], (2, Ok("B3 Stake".to_string())));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn search_all<K, I>(
    searches: I,
    sharing: &Sharing,
    stop: &AtomicBool,
    on_answer: impl FnMut(K, Result<Analysis, ApiError>) + Send,
) where
    K: Send,
    I: IntoIterator<Item = (K, Position, Limits)>,
{
    // Each search is queued under a number, with which its stop flag is
    // kept until it is answered, for `stop` to set.
    let runners: Runners<(u64, K)> = Runners::new(sharing);
    let flags: Mutex<HashMap<u64, Arc<AtomicBool>>> = Mutex::default();
    let on_answer = Mutex::new(on_answer);
    let deliver = |(number, key): (u64, K), answer: Result<Analysis, ApiError>| {
        flags
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&number);
        (on_answer.lock().unwrap_or_else(PoisonError::into_inner))(key, answer)
    };
    let on_start = |limits: &Limits| {
        if stop.load(Relaxed) {
            if let Some(flag) = &limits.stop {
                flag.store(true, Relaxed);
            }
        }
    };
    std::thread::scope(|scope| {
        let mut searches = searches.into_iter();
        // A runner and its lending pool are threads started: a batch of
        // three positions needs three runners, not one per core.
        let at_most = searches.size_hint().1.unwrap_or(usize::MAX).max(1);
        if runners.run(scope, &on_start, &deliver, at_most) == 0 {
            // Not one thread to be had: one search after another, here.
            runners.close();
            while !stop.load(Relaxed) {
                let Some((key, position, limits)) = searches.next() else {
                    break;
                };
                runners.push((0, key), Box::new(position), limits);
                runners.runner(&on_start, &deliver);
            }
            return;
        }
        let room = READ_AHEAD.max(2 * runners.budget);
        for number in 0.. {
            if stop.load(Relaxed) || runners.failed() {
                break;
            }
            if runners.wait_for_room(room, POLL) >= room {
                continue;
            }
            let Some((key, position, mut limits)) = searches.next() else {
                break;
            };
            let flag = limits.stop.get_or_insert_with(Arc::default).clone();
            flags
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(number, flag);
            runners.push((number, key), Box::new(position), limits);
        }
        runners.close();
        while !runners.wait_idle(POLL) {
            // After a panic too: the searches still running would keep it
            // from the caller for as long as they take.
            if stop.load(Relaxed) || runners.failed() {
                runners.drop_queued();
                let flags = flags.lock().unwrap_or_else(PoisonError::into_inner);
                for flag in flags.values() {
                    flag.store(true, Relaxed);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_default_search_gets_every_thread_and_a_queue_one_each() {
        let runners = Runners::<()>::new(&Sharing {
            threads: 4,
            ..Sharing::default()
        });
        let asking = |threads| Limits {
            threads,
            ..Limits::default()
        };
        let threads_for = |limits, waiting| runners.threads_for(&limits, waiting, 4);
        assert_eq!(threads_for(asking(0), 1), 4);
        assert_eq!(threads_for(asking(0), 2), 2);
        assert_eq!(threads_for(asking(0), 9), 1);
        assert_eq!(threads_for(asking(3), 9), 3, "a count asked is kept");
        assert_eq!(threads_for(asking(7), 1), 4, "at most the budget");
        let textbook = Limits {
            engine: Engine::Reference,
            ..asking(0)
        };
        assert_eq!(threads_for(textbook, 1), 1);
        assert_eq!(runners.threads_for(&asking(0), 1, 1), 1, "what is free");
    }

    /// A runner's callback panics: the panic reaches the caller at once,
    /// where the queue used to wait for ever for runners that were gone;
    /// and the search running beside it, a solve of hours, is stopped.
    #[test]
    fn a_panic_in_a_runner_reaches_the_caller() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let small = Position::new(crate::Board::new(3, &[1; 9]), crate::Player::X).unwrap();
            let big = Position::new(crate::Board::new(6, &[5; 36]), crate::Player::X).unwrap();
            let limits = |depth| Limits {
                threads: 1,
                ..Limits::to_depth(SearchMode::AlphaBeta, depth)
            };
            let searches = std::iter::once((0, big, limits(36)))
                .chain((1..1000).map(|i| (i, small.clone(), limits(1))));
            let sharing = Sharing {
                threads: 2,
                ..Sharing::default()
            };
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                search_all(searches, &sharing, &AtomicBool::new(false), |key, _| {
                    assert_eq!(key, 0, "an answer refused")
                })
            }));
            done.send(outcome.is_err()).unwrap();
        });
        let panicked = finished.recv_timeout(Duration::from_secs(30));
        assert_eq!(panicked, Ok(true), "the batch ends, with the panic");
    }

    #[test]
    fn a_search_of_a_few_plies_or_cells_is_small() {
        let empty = |n: usize| {
            let board = crate::Board::new(n, &vec![1; n * n]);
            Position::new(board, crate::Player::X).unwrap()
        };
        let to = |depth| Limits::to_depth(SearchMode::AlphaBeta, depth);
        assert!(is_small(&empty(3), &to(9)), "3x3 to the end");
        assert!(is_small(&empty(8), &to(5)), "8x8, 5 plies");
        assert!(!is_small(&empty(8), &to(7)), "8x8, 7 plies");
        let minimax = |depth| Limits::to_depth(SearchMode::Minimax, depth);
        assert!(is_small(&empty(3), &minimax(2)), "3x3 MINIMAX, 2 plies");
        assert!(!is_small(&empty(8), &minimax(5)), "every root value proved");
        assert!(!is_small(&empty(5), &to(25)), "5x5 to the end");
        let timed = Limits {
            time: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        assert!(!is_small(&empty(5), &timed), "to the end unless stopped");
        let asked = Limits {
            threads: 2,
            ..to(1)
        };
        assert!(!is_small(&empty(2), &asked), "threads asked for are given");
    }
}
