//! A split point of the Young Brothers Wait searches: where younger
//! brothers run in parallel. A cut-off there stops them, and a stop of any
//! enclosing split point stops them too. Apart from `split`, which runs
//! the brothers, so that a worker can name the point it searches below.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// See the module docs.
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

    /// This point's own flag: set once it was stopped, or once
    /// [`SplitPoint::catch_up`] found an enclosing one stopped. The search
    /// reads it at every node, where walking up the enclosing points
    /// (ten deep and more) cost a measurable share of a node.
    pub(crate) fn flagged(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// If a point on the way up is flagged, flags every point below it
    /// down to this one, so that each of them reads as stopped on its own
    /// flag. A flag is only ever set, and a flagged point is stopped, so
    /// every flag this sets is true of its point.
    ///
    /// Why a late flag is sound: a search returns garbage only after it
    /// read its own worker's flag set, and then every caller up to that
    /// worker's split point reads the same flag. The split's brothers
    /// catch up before they return (`younger_brothers`), so the worker
    /// that made the split, one point up, reads its flag set too, unless
    /// the split ended in its own cut-off, whose value is sound. A search
    /// that has not yet caught up searches on, soundly, until its next
    /// tick.
    pub(crate) fn catch_up(&self) {
        let mut above = Some(self);
        while let Some(p) = above {
            if p.flagged() {
                let mut q = self;
                while !std::ptr::eq(q, p) {
                    q.stop();
                    q = q.parent.expect("p encloses q");
                }
                return;
            }
            above = p.parent;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_from_above_reaches_each_flag_below_it_and_no_other() {
        let top = SplitPoint::new(None);
        let mid = SplitPoint::new(Some(&top));
        let low = SplitPoint::new(Some(&mid));
        low.catch_up();
        assert!(!top.flagged() && !mid.flagged() && !low.flagged());

        mid.stop();
        assert!(low.stopped() && !low.flagged());
        low.catch_up();
        assert!(low.flagged() && mid.flagged());
        assert!(!top.flagged() && !top.stopped());

        let other = SplitPoint::new(Some(&top));
        let deep = SplitPoint::new(Some(&other));
        top.stop();
        deep.catch_up();
        assert!(deep.flagged() && other.flagged());
    }
}
