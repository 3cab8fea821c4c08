//! Many positions at once: [`analyse_many`] (one [`Limits`] for all) and
//! [`analyse_each`] (limits of their own) answer a batch in order, the
//! positions spread over the cores.
//!
//! A search of a millisecond does not split well over threads, but a
//! thousand of them split perfectly: with at least as many positions as
//! threads, each position is searched on one thread and as many run side
//! by side as the batch has threads. With fewer positions than threads,
//! the threads are shared out among them, so that a single big position
//! still gets every core. A position whose limits name a thread count
//! gets that many (at most the batch's). The tail of a batch, where
//! fewer positions are left than threads, leaves cores idle for at most
//! the time of one position's search.
//!
//! Memory: at most one search per worker runs at a time, and each one's
//! table is held to its worker's share of [`Batch::table_budget`]
//! ([`Limits::table_bytes`] is a hard cap), so the tables in flight stay
//! within the budget whatever the number of positions. A search whose
//! default table fits its share keeps it, and answers exactly as
//! [`super::analyse`] alone does (node counts included, on one thread).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex};
use rayon::ThreadPool;

use super::limits::check_threads;
use super::{analyse, Analysis, ApiError, Engine, Limits, Position};
use crate::engine::exact::compact_table_bytes;
use crate::engine::pool::{self, with_own_pool};

/// The table memory of a batch's searches in flight together when
/// [`Batch::table_budget`] does not say: 1 GiB, the most that a single
/// deep solve takes by default, so that a batch of one answers as
/// [`super::analyse`] does.
pub const DEFAULT_TABLE_BUDGET: usize = 1 << 30;

/// How a batch shares the machine among its searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// Worker threads of all the searches together; 0 means one per core.
    /// At most [`super::MAX_THREADS`].
    pub threads: usize,
    /// Table memory of the searches in flight together, in bytes
    /// (default [`DEFAULT_TABLE_BUDGET`]).
    pub table_budget: Option<usize>,
}

/// Analyses every position within `limits`, as [`super::analyse`] would,
/// the positions spread over `batch`'s threads; returns one answer per
/// position, in order. An error (a bad limit) is that position's answer;
/// the others are answered all the same.
///
/// `limits.threads` of 0 lets the batch choose each position's threads
/// (one each when there are at least as many positions as threads). Its
/// time limit is each position's own, counted from when its search starts.
///
/// Setting `limits.stop` stops the whole batch promptly, and every position
/// still answers as [`super::analyse`] does under a stop: a running search
/// with its deepest completed depth, a position not yet started with depth
/// 1 (which always completes, in a fraction of a millisecond); both with
/// `stopped` set, and `exact` false unless that depth was the one asked.
pub fn analyse_many(
    positions: &[Position],
    limits: &Limits,
    batch: &Batch,
) -> Vec<Result<Analysis, ApiError>> {
    run(
        positions.len(),
        |i| (&positions[i], limits),
        batch,
        |_, _| {},
    )
}

/// [`analyse_many`] with limits of each position's own (each with its own
/// stop flag, if any).
pub fn analyse_each(
    positions: &[(Position, Limits)],
    batch: &Batch,
) -> Vec<Result<Analysis, ApiError>> {
    analyse_each_with(positions, batch, |_, _| {})
}

/// [`analyse_each`], calling `on_answer` with each position's index and
/// answer as soon as it is ready (from a worker thread, in the order the
/// searches end), for a caller that shows progress or streams answers.
pub fn analyse_each_with(
    positions: &[(Position, Limits)],
    batch: &Batch,
    on_answer: impl Fn(usize, &Result<Analysis, ApiError>) + Sync,
) -> Vec<Result<Analysis, ApiError>> {
    run(
        positions.len(),
        |i| (&positions[i].0, &positions[i].1),
        batch,
        on_answer,
    )
}

/// The batch of `count` positions, the `i`th with the limits `job(i)`.
fn run<'a>(
    count: usize,
    job: impl Fn(usize) -> (&'a Position, &'a Limits) + Sync,
    batch: &Batch,
    on_answer: impl Fn(usize, &Result<Analysis, ApiError>) + Sync,
) -> Vec<Result<Analysis, ApiError>> {
    if let Err(e) = check_threads(batch.threads) {
        return vec![Err(e); count];
    }
    let total = match batch.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    };
    let workers = total.min(count);
    if workers == 0 {
        return Vec::new();
    }
    let plan = Plan {
        total,
        workers,
        share: batch.table_budget.unwrap_or(DEFAULT_TABLE_BUDGET) / workers,
    };
    let threads = Threads::new(total);
    let next = AtomicUsize::new(0);
    let answers: Vec<Mutex<Option<Result<Analysis, ApiError>>>> =
        (0..count).map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let worker = || {
                // Pools this worker built for its multi-thread searches:
                // never shared, since it runs one search at a time.
                let mut pools: HashMap<usize, Arc<ThreadPool>> = HashMap::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let (position, limits) = job(i);
                    let answer = match limits.check() {
                        Err(e) => {
                            // Its turn passes all the same.
                            drop(threads.take(i, 0));
                            Err(e)
                        }
                        Ok(()) => {
                            let limits = plan.limits(i, position, limits);
                            let _held = threads.take(i, limits.threads);
                            match pool_for(&mut pools, limits.threads) {
                                Some(own) => with_own_pool(&own, || analyse(position, &limits)),
                                None => analyse(position, &limits),
                            }
                        }
                    };
                    on_answer(i, &answer);
                    *answers[i].lock() = Some(answer);
                }
            };
            // A one-thread search runs on the worker itself, recursing once
            // a ply: as deep a stack as the pools' workers have.
            let spawned = std::thread::Builder::new()
                .name("stakeraid batch".into())
                .stack_size(pool::STACK)
                .spawn_scoped(scope, worker);
            if spawned.is_err() {
                // The workers started so far (at least none) answer every
                // position; with none, this thread does.
                if next.load(Ordering::Relaxed) == 0 {
                    worker();
                }
                break;
            }
        }
    });
    answers
        .into_iter()
        .map(|a| a.into_inner().expect("every position was answered"))
        .collect()
}

/// How a batch shares its threads and table memory among its positions.
struct Plan {
    /// Threads of the whole batch.
    total: usize,
    /// Searches side by side at most.
    workers: usize,
    /// Each search's share of the table budget.
    share: usize,
}

impl Plan {
    /// The limits position `i` is searched with: its threads chosen (when
    /// `limits` leave them to the batch) or capped at the batch's, and its
    /// table held to its share.
    fn limits(&self, i: usize, position: &Position, limits: &Limits) -> Limits {
        let threads = match (limits.engine, limits.threads) {
            (Engine::Reference, _) => 1,
            // Shared out: the first `total % workers` positions get one
            // more (with as many positions as threads, one each).
            (Engine::Fast, 0) => {
                self.total / self.workers + usize::from(i < self.total % self.workers)
            }
            (Engine::Fast, t) => t.min(self.total),
        };
        let table_bytes = match (limits.engine, limits.table_bytes) {
            (Engine::Reference, bytes) => bytes,
            (Engine::Fast, Some(bytes)) => Some(bytes.min(self.share)),
            // The default table where it fits (the same search as alone).
            (Engine::Fast, None) => {
                (default_table_bytes(position, limits) > self.share).then_some(self.share)
            }
        };
        Limits {
            threads,
            table_bytes,
            ..limits.clone()
        }
    }
}

/// At least the table the fast engine takes by default for `position`
/// within `limits`: the compact engine's default, which is at least the
/// general engine's.
fn default_table_bytes(position: &Position, limits: &Limits) -> usize {
    let board = position.board();
    let empties = board.empty_count();
    let plies = limits.depth.unwrap_or(empties).min(empties);
    compact_table_bytes(board.n(), empties, plies)
}

/// A pool of `threads` workers of this worker's own, built on first use;
/// `None` for one thread (the search runs in place), or when the threads
/// cannot start (the search then takes the shared pool, as alone).
fn pool_for(
    pools: &mut HashMap<usize, Arc<ThreadPool>>,
    threads: usize,
) -> Option<Arc<ThreadPool>> {
    if threads <= 1 {
        return None;
    }
    if let Some(pool) = pools.get(&threads) {
        return Some(pool.clone());
    }
    let pool = Arc::new(pool::build(threads)?);
    pools.insert(threads, pool.clone());
    Some(pool)
}

/// The batch's threads not taken by a running search, handed out in the
/// order of the positions (so that one asking many is not passed over
/// again and again by ones asking few).
struct Threads {
    state: Mutex<Free>,
    freed: Condvar,
}

struct Free {
    threads: usize,
    /// The position whose turn it is to take its threads.
    turn: usize,
}

impl Threads {
    fn new(total: usize) -> Threads {
        Threads {
            state: Mutex::new(Free {
                threads: total,
                turn: 0,
            }),
            freed: Condvar::new(),
        }
    }

    /// Takes `wanted` threads (at most the total) for position `i` once the
    /// positions before it have taken theirs, until the guard is dropped
    /// (even by a panic, so that the other workers are not left waiting).
    fn take(&self, i: usize, wanted: usize) -> Held<'_> {
        let mut free = self.state.lock();
        while free.turn != i || free.threads < wanted {
            self.freed.wait(&mut free);
        }
        free.threads -= wanted;
        free.turn += 1;
        self.freed.notify_all();
        Held {
            threads: self,
            count: wanted,
        }
    }
}

struct Held<'a> {
    threads: &'a Threads,
    count: usize,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.threads.state.lock().threads += self.count;
        self.threads.freed.notify_all();
    }
}
