//! `stakeraid bench`: the signature run.

use std::fmt::Write as _;

/// Searches the signature set and prints its node count, with the time
/// said for what it is.
pub fn run_bench(verbose: bool) -> anyhow::Result<()> {
    let (nodes, time, runs) = stakeraid::bench::signature();
    let mut text = String::new();
    if verbose {
        for (w, r) in &runs {
            let _ = writeln!(
                text,
                "{:<12} {:>12} nodes {:>9.3}s  {}",
                w.name,
                r.nodes,
                r.elapsed.as_secs_f64(),
                r.best
            );
        }
    }
    // The searches are tiny (under a millisecond in all); the rest is each
    // solve starting (its table zeroed, its thread), so no rate is given.
    let _ = writeln!(
        text,
        "{nodes} nodes, the bench signature ({} solves on one thread, {:.3} s wall time, mostly starting each solve: not a speed, which scripts/bench.sh measures)",
        runs.len(),
        time.as_secs_f64()
    );
    super::io::print(&text)
}
