//! `StopToken`: a flag that stops searches from another thread.
//!
//! Each search has a stop flag of its own, which Ctrl-C also sets (see
//! [`crate::interrupt`]); setting it must not set the user's token, which
//! may serve other searches. So a token holds the flags of the searches
//! it was passed to and sets them all when stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use pyo3::prelude::*;

/// A flag that stops the searches it is passed to (`stop=`), from any
/// thread. Setting it stops every search that holds it, now and later,
/// until `reset()`.
#[pyclass(name = "StopToken", module = "stakeraid", frozen)]
pub struct StopToken(Mutex<State>);

#[derive(Default)]
struct State {
    stopped: bool,
    /// The stop flags of the searches running with this token.
    searches: Vec<Arc<AtomicBool>>,
}

#[pymethods]
impl StopToken {
    #[new]
    fn new() -> Self {
        StopToken(Mutex::default())
    }

    /// Asks every search holding this token to stop; each returns promptly
    /// with its deepest completed depth.
    fn stop(&self) {
        let mut state = self.state();
        state.stopped = true;
        for halt in &state.searches {
            halt.store(true, Ordering::Relaxed);
        }
    }

    /// Clears the flag, so that the token can serve a new search.
    fn reset(&self) {
        self.state().stopped = false;
    }

    /// True once `stop()` was called (and not reset).
    #[getter]
    fn stopped(&self) -> bool {
        self.state().stopped
    }

    fn __repr__(&self) -> String {
        format!(
            "StopToken(stopped={})",
            if self.stopped() { "True" } else { "False" }
        )
    }
}

impl StopToken {
    fn state(&self) -> MutexGuard<'_, State> {
        // The lock is never held across code that can panic.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Makes this token stop the search whose flag is `halt` until the
    /// returned guard is dropped; sets `halt` now if the token is stopped.
    pub(crate) fn hold(&self, halt: &Arc<AtomicBool>) -> Held<'_> {
        let mut state = self.state();
        if state.stopped {
            halt.store(true, Ordering::Relaxed);
        }
        state.searches.push(halt.clone());
        Held {
            token: self,
            halt: halt.clone(),
        }
    }
}

/// A search's hold on a token: while it lives, stopping the token stops
/// the search.
pub(crate) struct Held<'a> {
    token: &'a StopToken,
    halt: Arc<AtomicBool>,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.token
            .state()
            .searches
            .retain(|h| !Arc::ptr_eq(h, &self.halt));
    }
}
