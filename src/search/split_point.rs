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
}
