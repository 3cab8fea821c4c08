//! `stakeraid serve`: the JSON-lines server on the standard streams.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::Relaxed};

use stakeraid::api::{Sharing, DEFAULT_TABLE_BYTES};
use stakeraid::serve::{serve_with, ServeOptions};

/// Arguments of `stakeraid serve` (its help text is on the subcommand).
#[derive(clap::Args, Debug, Default)]
pub struct ServeArgs {
    /// Accepted for scripts written when the end of input stopped the
    /// searches; every search now runs to its own limits anyway.
    #[arg(long, hide = true)]
    pub finish: bool,
    /// The threads of all searches running at once: 0 (the default) for
    /// one per core. A request's own `threads` is kept within it; a
    /// request without gets every free thread when it is alone, one when
    /// many wait.
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true,
          allow_negative_numbers = true, value_parser = super::parse_threads)]
    pub threads: usize,
    /// The transposition tables of all searches running at once, in MiB
    /// (default: 1024); each search gets the share of its threads, and no
    /// more than it would take alone. Speed only: answers are the same.
    #[arg(long, value_name = "MIB", allow_negative_numbers = true,
          value_parser = super::limits::parse_table_mb)]
    pub table_mb: Option<u32>,
    /// Write each answer as soon as its search ends, not in request order
    /// (match them by `id`).
    #[arg(long)]
    pub unordered: bool,
}

impl ServeArgs {
    /// How the server runs its searches.
    fn options(&self) -> ServeOptions {
        ServeOptions {
            sharing: Sharing {
                threads: self.threads,
                table_bytes: self
                    .table_mb
                    .map_or(DEFAULT_TABLE_BYTES, |mb| (mb as usize) << 20),
                ..Sharing::default()
            },
            unordered: self.unordered,
        }
    }
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
pub fn run_serve(args: &ServeArgs) -> anyhow::Result<()> {
    // The handler only stores to atomics.
    super::io::handle(on_signal);
    let input = std::io::BufReader::new(std::io::stdin());
    serve_with(input, std::io::stdout(), &INTERRUPTED, &args.options())?;
    let signal = SIGNAL.load(Relaxed);
    if signal != 0 {
        // Not through main: the reader thread may still be blocked on
        // standard input, and every answer is already flushed.
        std::process::exit(128 + signal);
    }
    Ok(())
}
