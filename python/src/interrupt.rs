//! Searches that Ctrl-C stops.
//!
//! Python runs its signal handlers (the one that raises `KeyboardInterrupt`
//! among them) only on its main thread and only between bytecodes, so a
//! search running on the calling thread would hold Ctrl-C back until it
//! ended by itself. Instead the search runs on a thread of its own, and the
//! calling thread, the interpreter released, wakes every [`SIGNAL_POLL`] to
//! let the handlers run; when one raises, the search is stopped through
//! its stop flag and the exception goes on up.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How long a Ctrl-C may wait for the handlers to run.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// The search thread's stack: the library's pool workers get as much, and a
/// one-thread search runs in place on this thread, recursing once a ply.
const SEARCH_STACK: usize = 64 << 20;

/// Runs `search` on a thread of its own, the interpreter released, and
/// returns what it returns. If a signal handler raises meanwhile (Ctrl-C),
/// sets `halt`, which `search` must watch, waits for it to return and
/// raises that exception instead. A panic in `search` goes on up as one.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    halt: &AtomicBool,
    search: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (done, mut finished) = mpsc::sync_channel(1);
        let worker = std::thread::Builder::new()
            .name("stakeraid search".into())
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, move || {
                // The receiver is gone only if the caller already raised.
                let _ = done.send(search());
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a search thread: {e}")))?;
        loop {
            // The receiver goes into the released section and comes back:
            // it may be sent to another thread, but not shared with one.
            let (got, back) = py.detach(move || (finished.recv_timeout(SIGNAL_POLL), finished));
            finished = back;
            match got {
                Ok(value) => return Ok(value),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(raised) = py.check_signals() {
                        halt.store(true, Ordering::Relaxed);
                        // Stopped searches return within a poll of their
                        // flag: a fraction of a millisecond.
                        let _ = py.detach(move || worker.join());
                        return Err(raised);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // The search panicked before it could send.
                    match worker.join() {
                        Err(panic) => std::panic::resume_unwind(panic),
                        Ok(()) => unreachable!("a search that returns sends its result"),
                    }
                }
            }
        }
    })
}
