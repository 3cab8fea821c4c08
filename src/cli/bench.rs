//! `stakeraid bench`: the signature run.

use std::fmt::Write as _;

/// Searches the signature set and prints its node count.
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
    let secs = time.as_secs_f64();
    let _ = writeln!(
        text,
        "{nodes} nodes {secs:.3}s {:.1} Mnodes/s",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    super::io::print(&text)
}
