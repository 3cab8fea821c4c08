//! `stakeraid serve`: the JSON-lines server on the standard streams.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::Relaxed};

use stakeraid::serve::serve_until;

/// Arguments of `stakeraid serve` (its help text is on the subcommand).
#[derive(clap::Args, Debug, Default)]
pub struct ServeArgs {
    /// Accepted for scripts written when the end of input stopped the
    /// searches; every search now runs to its own limits anyway.
    #[arg(long, hide = true)]
    pub finish: bool,
}

/// Set by SIGINT or SIGTERM; a signal handler may only touch atomics.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The signal that set [`INTERRUPTED`].
static SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(signal: libc::c_int) {
    SIGNAL.store(signal, Relaxed);
    INTERRUPTED.store(true, Relaxed);
}

/// Serves requests from standard input until it closes and every request
/// is answered. On SIGINT or SIGTERM the pending searches answer as
/// stopped, and the process exits as that signal's number says
/// (128 + signal, as a shell reports it).
pub fn run_serve(_args: &ServeArgs) -> anyhow::Result<()> {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to atomics, which is
        // async-signal-safe.
        unsafe {
            libc::signal(
                signal,
                on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t,
            );
        }
    }
    let input = std::io::BufReader::new(std::io::stdin());
    serve_until(input, std::io::stdout().lock(), &INTERRUPTED)?;
    let signal = SIGNAL.load(Relaxed);
    if signal != 0 {
        // Not through main: the reader thread may still be blocked on
        // standard input, and every answer is already flushed.
        std::process::exit(128 + signal);
    }
    Ok(())
}
