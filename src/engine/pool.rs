//! The worker threads of a search.
//!
//! Building a pool costs about a quarter of a millisecond (a thread start
//! per worker), which a caller that searches move after move (a match, the
//! server, the older variant's driver) would pay each time: the pools are
//! built once per thread count and kept for the life of the process.
//! Searches that run at the same time with the same count share its
//! workers.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;
use rayon::ThreadPool;

/// Runs `f` on a pool of `threads` workers (0: one per core), telling it
/// whether it may split work; a single thread runs in place, and so does a
/// call already on a worker of a pool of that many threads (a pool of its
/// own that the caller installed, as `serve` gives each search it runs
/// beside others: the shared pool of that count would make them queue on
/// the same workers).
pub(crate) fn in_pool<T: Send>(threads: usize, f: impl FnOnce(bool) -> T + Send) -> T {
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    if threads == 1 {
        return f(false);
    }
    if rayon::current_thread_index().is_some() && rayon::current_num_threads() == threads {
        return f(true);
    }
    match pool(threads) {
        Some(pool) => pool.install(|| f(true)),
        None => f(false),
    }
}

/// The process's pool of `threads` workers, built on first use; `None` if
/// the threads cannot be started.
fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS.get_or_init(Mutex::default).lock();
    if let Some(pool) = pools.get(&threads) {
        return Some(pool.clone());
    }
    let pool = Arc::new(build(threads)?);
    pools.insert(threads, pool.clone());
    Some(pool)
}

/// A new pool of `threads` workers as the solver builds them; `None` if
/// the threads cannot be started.
pub(crate) fn build(threads: usize) -> Option<ThreadPool> {
    builder(threads).build().ok()
}

/// The builder of a pool of `threads` workers as the solver builds them.
pub(crate) fn builder(threads: usize) -> rayon::ThreadPoolBuilder {
    // Deep endgame searches recurse once per empty cell: give workers room.
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(64 << 20)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::thread::ThreadId;

    use super::*;

    /// The threads of the pool `f` runs on (none when it runs in place).
    fn workers(threads: usize) -> HashSet<ThreadId> {
        in_pool(threads, |parallel| {
            if !parallel {
                return HashSet::new();
            }
            rayon::broadcast(|_| std::thread::current().id())
                .into_iter()
                .collect()
        })
    }

    #[test]
    fn calls_with_the_same_count_share_one_pool() {
        let first = workers(3);
        assert_eq!(first.len(), 3);
        assert_eq!(workers(3), first, "the same workers, not new ones");
        let other = workers(2);
        assert_eq!(other.len(), 2);
        assert!(other.is_disjoint(&first));
        assert!(workers(1).is_empty(), "one thread runs in place");
    }

    #[test]
    fn a_call_on_a_pool_of_its_count_stays_on_it() {
        let own = build(4).unwrap();
        let mine: HashSet<ThreadId> = own
            .broadcast(|_| std::thread::current().id())
            .into_iter()
            .collect();
        assert_eq!(own.install(|| workers(4)), mine, "the caller's own pool");
        assert!(
            own.install(|| workers(5)).is_disjoint(&mine),
            "another count: the shared pool"
        );
    }
}
