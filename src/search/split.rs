//! Split points of the Young Brothers Wait searches: where younger brothers
//! run in parallel. A cut-off there stops them, and a stop of any
//! enclosing split point stops them too.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};

use parking_lot::Mutex;
use rayon::prelude::*;

use super::window::Window;
use super::worker::Worker;

pub(crate) struct SplitPoint<'a> {
    stop: AtomicBool,
    parent: Option<&'a SplitPoint<'a>>,
}

impl<'a> SplitPoint<'a> {
    /// A split point below `parent` (the one the searching thread is in).
    pub(crate) fn new(parent: Option<&'a SplitPoint<'a>>) -> SplitPoint<'a> {
        SplitPoint {
            stop: AtomicBool::new(false),
            parent,
        }
    }

    /// Stops every search below this point.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// True once this point or an enclosing one was stopped: the results
    /// of searches below it since are garbage.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Relaxed) || self.parent.is_some_and(|p| p.stopped())
    }
}

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
    items.par_iter().enumerate().for_each(|(i, item)| {
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
    });
    worker.nodes += counted.into_inner();
    best.into_inner()
}
