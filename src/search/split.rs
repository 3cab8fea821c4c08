//! The younger brothers of a Young Brothers Wait search, run in parallel
//! below a new split point (`split_point`), and the hand-out in order that
//! the root's moves share with them.

use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering::Relaxed};

use parking_lot::Mutex;
use rayon::prelude::*;

use super::split_point::SplitPoint;
use super::window::Window;
use super::worker::Worker;
use crate::engine::lending::{self, Lender};

/// Searches the younger brothers `items` in parallel below a new split
/// point under `worker`'s, each with the best alpha known when it starts;
/// the first to reach the window's beta stops the others. `search` gives
/// an item's value within `(alpha, beta)`, counting its nodes in the
/// worker it is given. Returns the best value with its item's index
/// (`None` if every search was stopped), and adds the nodes to `worker`.
pub(crate) fn younger_brothers<T: Sync>(
    items: &[T],
    window: Window<i64>,
    worker: &mut Worker<'_>,
    search: impl Fn(&T, i64, &mut Worker<'_>) -> i64 + Sync,
) -> Option<(i64, usize)> {
    let Window { alpha, beta } = window;
    let signals = worker.signals();
    let split = SplitPoint::new(worker.split());
    let shared_alpha = AtomicI64::new(alpha);
    let best: Mutex<Option<(i64, usize)>> = Mutex::new(None);
    let counted = AtomicU64::new(0);
    in_order(
        items,
        || (),
        |_, i, item| {
            if split.stopped() {
                return;
            }
            let a = shared_alpha.load(Relaxed);
            if a >= beta {
                return;
            }
            let mut w = Worker::below(signals, &split);
            let v = search(item, a, &mut w);
            counted.fetch_add(w.nodes, Relaxed);
            // A stopped search's value is garbage; a cut-off that stopped it
            // has already recorded a value >= beta.
            if split.stopped() {
                return;
            }
            let mut b = best.lock();
            if b.is_none_or(|(bv, _)| v > bv) {
                *b = Some((v, i));
            }
            shared_alpha.fetch_max(v, Relaxed);
            if v >= beta {
                split.stop();
            }
        },
    );
    worker.nodes += counted.into_inner();
    // A stop from above, seen by a brother or not, reaches the flag the
    // caller reads (`SplitPoint::catch_up`).
    split.catch_up();
    best.into_inner()
}

/// Calls `f` on every item of `items` on the current rayon pool, handing
/// them out in their order: each thread that joins takes the next item
/// not yet taken, and passes `f` a state of its own, made by `init` when
/// it takes its first item (a copy of the board, say, made once a thread
/// rather than once an item).
///
/// Why not `par_iter`: it cuts the list in halves, so a second thread
/// starts halfway down it, on a move the ordering ranks among the worst.
/// Where a later brother cuts off, the moves after it are wasted work, and
/// a thread halfway down wastes the most. Taken in order, two threads
/// search the two best-ranked moves left, as one thread would search them
/// next. On the 21-empty 5x5 solve at 2 threads this cut the extra nodes
/// over one thread from 13% to 3.5%; `profiles/2026-11-25-vm/threads.txt`.
///
/// On a lending pool (`engine::lending`) the other takers are threads
/// borrowed from the budget: before each item it takes, the calling thread
/// asks for one more taker, and each gives its thread back when no item is
/// left, or a search waits to start and its item is done.
pub(crate) fn in_order<T: Sync, S>(
    items: &[T],
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize, &T) + Sync,
) {
    let next = AtomicUsize::new(0);
    if let Some(lender) = lending::current() {
        return borrowing_in_order(items, &init, &f, &next, &lender);
    }
    let takers = rayon::current_num_threads().min(items.len());
    (0..takers)
        .into_par_iter()
        .for_each(|_| take_while(items, &next, &init, &f, || true));
}

/// One taker of [`in_order`]: the next item not yet taken, while `more()`
/// says so and items are left, each with this taker's state.
fn take_while<T, S>(
    items: &[T],
    next: &AtomicUsize,
    init: &impl Fn() -> S,
    f: &impl Fn(&mut S, usize, &T),
    more: impl Fn() -> bool,
) {
    let mut state = None;
    while more() {
        let i = next.fetch_add(1, Relaxed);
        let Some(item) = items.get(i) else { break };
        f(state.get_or_insert_with(init), i, item);
    }
}

/// [`in_order`] with takers borrowed through `lender` as they are to be
/// had.
fn borrowing_in_order<T: Sync, S>(
    items: &[T],
    init: &(impl Fn() -> S + Sync),
    f: &(impl Fn(&mut S, usize, &T) + Sync),
    next: &AtomicUsize,
    lender: &Lender,
) {
    rayon::scope(|scope| {
        let mut state = None;
        loop {
            let i = next.fetch_add(1, Relaxed);
            let Some(item) = items.get(i) else { break };
            if i + 1 < items.len() {
                if let Some(lent) = lender.borrow() {
                    scope.spawn(move |_| {
                        take_while(items, next, init, f, || !lender.recalled());
                        drop(lent);
                    });
                }
            }
            f(state.get_or_insert_with(init), i, item);
        }
    });
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::Arc;
    use std::thread::ThreadId;
    use std::time::Duration;

    use parking_lot::Mutex;

    use super::*;
    use crate::engine::lending::{lending_pool, ThreadBudget};

    /// The threads that took `items` items, each a millisecond's work.
    fn takers(pool: &rayon::ThreadPool, items: usize) -> HashSet<ThreadId> {
        let seen = Mutex::new(HashSet::new());
        let taken = AtomicUsize::new(0);
        pool.install(|| {
            in_order(
                &vec![(); items],
                || (),
                |_, _, _| {
                    seen.lock().insert(std::thread::current().id());
                    taken.fetch_add(1, Relaxed);
                    std::thread::sleep(Duration::from_millis(1));
                },
            )
        });
        assert_eq!(taken.into_inner(), items, "each item once");
        seen.into_inner()
    }

    #[test]
    fn a_lending_pool_takes_helpers_only_while_threads_are_lent() {
        let budget = Arc::new(ThreadBudget::new(3));
        let pool = lending_pool(3, &budget).unwrap();
        assert!(budget.take(1));
        assert_eq!(takers(&pool, 40).len(), 1, "not lending: one thread");
        budget.set_lending(true);
        assert_eq!(takers(&pool, 40).len(), 3, "two threads lent");
        assert_eq!((budget.free(), budget.lent()), (2, 0), "and given back");
        assert!(budget.take(2));
        assert_eq!(takers(&pool, 40).len(), 1, "none free: one thread");
    }
}
