//! `StopToken`: a flag that stops searches from another thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use pyo3::prelude::*;

/// A flag that stops the searches it is passed to (`stop=`), from any
/// thread. Setting it stops every search that holds it, now and later,
/// until `reset()`.
#[pyclass(name = "StopToken", module = "stakeraid", frozen)]
pub struct StopToken(pub(crate) Arc<AtomicBool>);

#[pymethods]
impl StopToken {
    #[new]
    fn new() -> Self {
        StopToken(Arc::new(AtomicBool::new(false)))
    }

    /// Asks every search holding this token to stop; each returns promptly
    /// with its deepest completed depth.
    fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Clears the flag, so that the token can serve a new search.
    fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// True once `stop()` was called (and not reset).
    #[getter]
    fn stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn __repr__(&self) -> String {
        format!(
            "StopToken(stopped={})",
            if self.stopped() { "True" } else { "False" }
        )
    }
}
