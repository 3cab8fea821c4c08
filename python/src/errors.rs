//! Library errors and bad arguments as Python exceptions.

use std::fmt::Display;

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;
use pyo3::PyResult;

use stakeraid::api::MAX_THREADS;

/// A `ValueError` carrying the library's message.
pub(crate) fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A thread count from Python: 0 (one per core) up to the cap the command
/// line also sets.
pub(crate) fn thread_count(threads: i64) -> PyResult<usize> {
    match usize::try_from(threads) {
        Ok(t) if t <= MAX_THREADS => Ok(t),
        _ => Err(value_error(format!(
            "threads must be 0 (one per core) to {MAX_THREADS}, got {threads}"
        ))),
    }
}
