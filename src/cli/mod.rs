//! The subcommands of the `stakeraid` binary, one module each.

pub mod analyse;
pub mod bench;
pub mod driver;
pub mod io;
pub mod load;
pub mod matches;
pub mod play;
pub mod position;
pub mod referee;
pub mod serve;
pub mod solve;

use stakeraid::api::MAX_THREADS;

/// Parses `--threads`: 0 for one per core, else at most [`MAX_THREADS`],
/// since each worker reserves a deep stack and ten thousand of them take
/// over a minute to start.
pub fn parse_threads(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("must be an integer from 0 (one per core) to {MAX_THREADS}"))?;
    if n > MAX_THREADS {
        return Err(format!("must be at most {MAX_THREADS}"));
    }
    Ok(n)
}
