//! The worker threads of a search.
//!
//! Building a pool costs about a quarter of a millisecond (a thread start
//! per worker), which a caller that searches move after move (a match, the
//! server, the older variant's driver) would pay each time: the pools are
//! built once per thread count and kept for the life of the process.
//! Searches that run at the same time with the same count share its
//! workers, unless their caller gave them workers of their own
//! ([`with_own_pool`]: a batch of searches side by side, each with its
//! share of the cores).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;
use rayon::ThreadPool;

/// Runs `f` on a pool of `threads` workers (0: one per core), telling it
/// whether it may split work; a single thread runs in place.
pub(crate) fn in_pool<T: Send>(threads: usize, f: impl FnOnce(bool) -> T + Send) -> T {
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    if threads == 1 {
        return f(false);
    }
    let own = OWN.with(|own| own.borrow().clone());
    if let Some(own) = own.filter(|p| p.current_num_threads() == threads) {
        return own.install(|| f(true));
    }
    match pool(threads) {
        Some(pool) => pool.install(|| f(true)),
        None => f(false),
    }
}

thread_local! {
    /// The pool that searches started on this thread run on, if its
    /// caller gave them one ([`with_own_pool`]).
    static OWN: RefCell<Option<Arc<ThreadPool>>> = const { RefCell::new(None) };
}

/// Runs `f`, in which searches of as many threads as `pool` has run on
/// `pool` rather than on the process's shared pool of that size. Two
/// searches of four threads side by side on the shared pool would share
/// its four workers; each with a pool of its own, they have eight.
pub(crate) fn with_own_pool<T>(pool: &Arc<ThreadPool>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<ThreadPool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            OWN.with(|own| *own.borrow_mut() = before);
        }
    }
    let _restore = Restore(OWN.with(|own| own.borrow_mut().replace(pool.clone())));
    f()
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

/// The stack of a search thread: deep endgame searches recurse once per
/// empty cell.
pub(crate) const STACK: usize = 64 << 20;

/// A new pool of `threads` workers as the solver builds them; `None` if
/// the threads cannot be started.
pub(crate) fn build(threads: usize) -> Option<ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(STACK)
        .build()
        .ok()
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
    fn a_search_given_its_own_pool_runs_there() {
        let own = Arc::new(build(3).unwrap());
        let ids: HashSet<ThreadId> = own
            .broadcast(|_| std::thread::current().id())
            .into_iter()
            .collect();
        let inside = with_own_pool(&own, || workers(3));
        assert_eq!(inside, ids, "the own pool's workers");
        assert!(inside.is_disjoint(&workers(3)), "not the shared pool's");
        assert_eq!(with_own_pool(&own, || workers(2)).len(), 2);
        assert_ne!(workers(3), ids, "the shared pool again once `f` returns");
    }
}
