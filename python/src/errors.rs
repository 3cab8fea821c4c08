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

/// A depth from Python: 1 to `u32::MAX` plies, refused in the words of
/// `serve` and of the command line. The one check of a depth that
/// `analyse`, `analyse_many` and `Position.to_input` take.
pub(crate) fn depth(depth: Option<i64>) -> PyResult<Option<u32>> {
    depth
        .map(|d| {
            u32::try_from(d)
                .ok()
                .filter(|&d| d >= 1)
                .ok_or_else(|| value_error(format!("depth must be 1 to {}, got {d}", u32::MAX)))
        })
        .transpose()
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
