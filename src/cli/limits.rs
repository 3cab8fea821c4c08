//! The command line's numbers: threads, seconds and the table size, each
//! refused with one line that says the accepted range. Their arguments
//! take negative numbers as values (`--time -1`), so that the range is
//! what the user reads, not a hint to pass `-1` as the input file.

use std::time::Duration;

use stakeraid::api::MAX_THREADS;

/// The longest time limit taken: beyond it a deadline is no deadline, and a
/// larger number is more likely a slip than a wish.
pub const MAX_SECONDS: f64 = 1e9;

/// The largest table asked for: 1 TiB, whatever the machine.
const MAX_TABLE_MB: u64 = 1 << 20;

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

/// Parses a time limit in seconds: a number from 0 to [`MAX_SECONDS`].
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let range = "a number of seconds from 0 to 1e9 (about 31 years)";
    let secs: f64 = s.trim().parse().map_err(|_| format!("must be {range}"))?;
    if !(0.0..=MAX_SECONDS).contains(&secs) {
        return Err(format!("must be {range}"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Parses `--table-mb`: a whole number of MiB from 1 to what the machine
/// has available (and never more than 1 TiB), so that a typo does not
/// hand the process to the out-of-memory killer.
pub fn parse_table_mb(s: &str) -> Result<u32, String> {
    let mb: u64 = s
        .trim()
        .parse()
        .ok()
        .filter(|&mb| mb >= 1)
        .ok_or_else(|| format!("must be a whole number of MiB from 1 to {MAX_TABLE_MB}"))?;
    if mb > MAX_TABLE_MB {
        return Err(format!("must be at most {MAX_TABLE_MB} (1 TiB)"));
    }
    if let Some(available) = available_mb() {
        if mb > available {
            return Err(format!(
                "{mb} MiB is more than this machine has available ({available} MiB)"
            ));
        }
    }
    u32::try_from(mb).map_err(|_| format!("must be at most {MAX_TABLE_MB} (1 TiB)"))
}

/// The memory the machine can give a new allocation now, in MiB: Linux's
/// `MemAvailable`, else the physical memory; `None` if neither is known.
fn available_mb() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let available_kb = meminfo.as_deref().and_then(|text| {
        text.lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    });
    available_kb.map(|kb| kb >> 10).or_else(physical_mb)
}

/// The physical memory in MiB, from `sysconf`.
fn physical_mb() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads system constants.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let (pages, size) = (u64::try_from(pages).ok()?, u64::try_from(size).ok()?);
        Some(pages.saturating_mul(size) >> 20)
    }
    #[cfg(not(unix))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_out_of_range_say_the_range() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_seconds("0"), Ok(Duration::ZERO));
        for bad in ["-1", "1e30", "nan", "inf", "x"] {
            assert!(
                parse_seconds(bad).unwrap_err().contains("from 0 to 1e9"),
                "{bad}"
            );
        }
        assert!(parse_threads("-1").unwrap_err().contains("from 0"));
        assert!(parse_table_mb("-5").unwrap_err().contains("from 1"));
        assert!(parse_table_mb("0").unwrap_err().contains("from 1"));
        assert!(parse_table_mb("1048577").unwrap_err().contains("at most"));
        assert_eq!(parse_table_mb("1"), Ok(1));
    }
}
