//! Library errors and bad arguments as Python exceptions.

use std::fmt::Display;

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;
use pyo3::PyResult;

/// A `ValueError` carrying the library's message.
pub(crate) fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A thread count from Python: 0 (one per core) or more.
pub(crate) fn thread_count(threads: i64) -> PyResult<usize> {
    usize::try_from(threads).map_err(|_| {
        value_error(format!(
            "threads must be 0 (one per core) or more, got {threads}"
        ))
    })
}
