//! `stakeraid web`: the analysis board on loopback.

use std::io::Write;
use std::time::Duration;

use anyhow::Context;
use stakeraid::api::MAX_THREADS;
use stakeraid::web::{bind_loopback, serve, Caps};

use super::limits::MAX_SECONDS;

/// The most searches at once: more is likely a slip, not a wish, since
/// each holds a thread and a table of its own.
const MAX_SEARCHES: usize = 1024;

/// Arguments of `stakeraid web`.
#[derive(clap::Args, Debug)]
pub struct WebArgs {
    /// Port on 127.0.0.1; 0 takes any free port.
    #[arg(long, default_value_t = 8080, allow_negative_numbers = true)]
    port: u16,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    open: bool,
    /// Searches that may run at once (1 to 1024); one more is refused
    /// until one ends.
    #[arg(long, value_name = "N", default_value_t = 2, allow_negative_numbers = true,
          value_parser = parse_searches)]
    searches: usize,
    /// Worker threads of each search (1 to 256).
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true,
          value_parser = parse_search_threads)]
    search_threads: usize,
    /// Longest wall time of one search, in seconds; a request asking for
    /// more gets this.
    #[arg(long, value_name = "SECONDS", default_value = "60", allow_negative_numbers = true,
          value_parser = parse_max_time)]
    max_time: Duration,
}

/// Parses `--searches`: from 1 to [`MAX_SEARCHES`].
fn parse_searches(s: &str) -> Result<usize, String> {
    one_to(s, MAX_SEARCHES)
}

/// Parses `--search-threads`: from 1 to [`MAX_THREADS`]. Unlike
/// `--threads`, 0 does not mean one per core: every search would take
/// every core, which the bound on searches is there to prevent.
fn parse_search_threads(s: &str) -> Result<usize, String> {
    one_to(s, MAX_THREADS)
}

/// A whole number from 1 to `max`.
fn one_to(s: &str, max: usize) -> Result<usize, String> {
    s.trim()
        .parse()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| format!("must be a whole number from 1 to {max}"))
}

/// Parses `--max-time`: more than 0 (a search with no time answers
/// nothing) and at most [`MAX_SECONDS`].
fn parse_max_time(s: &str) -> Result<Duration, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|&secs| secs > 0.0 && secs <= MAX_SECONDS)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| "must be a number of seconds above 0 and at most 1e9".to_string())
}

/// Serves the board until the process is stopped. The first line on
/// standard output is the address, for scripts that start it on port 0.
pub fn run_web(args: &WebArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Each search runs on a blocking thread: tokio's default bound
        // (512) would queue searches that were given a place.
        .max_blocking_threads(args.searches)
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    let caps = Caps::new(args.max_time, args.search_threads, args.searches);
    runtime.block_on(async {
        let (listener, addr) = bind_loopback(args.port)
            .await
            .with_context(|| format!("listening on 127.0.0.1:{}", args.port))?;
        let url = format!("http://{addr}/");
        let mut out = std::io::stdout().lock();
        writeln!(out, "{url}")?;
        out.flush()?;
        drop(out);
        if args.open {
            // Best effort: a machine without a desktop still serves.
            let _ = std::process::Command::new("xdg-open").arg(&url).spawn();
        }
        serve(listener, caps).await.context("serving")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_out_of_range_say_the_range() {
        assert_eq!(parse_searches("3"), Ok(3));
        assert_eq!(parse_searches("1024"), Ok(1024));
        for bad in ["0", "1025", "-1", "x", ""] {
            assert!(
                parse_searches(bad).unwrap_err().contains("1 to 1024"),
                "{bad}"
            );
        }
        assert_eq!(parse_search_threads("256"), Ok(256));
        for bad in ["0", "257", "-2"] {
            assert!(
                parse_search_threads(bad).unwrap_err().contains("1 to 256"),
                "{bad}"
            );
        }
        assert_eq!(parse_max_time("0.5"), Ok(Duration::from_millis(500)));
        for bad in ["0", "-1", "1e30", "nan", "inf", "x"] {
            assert!(
                parse_max_time(bad).unwrap_err().contains("above 0"),
                "{bad}"
            );
        }
    }
}
