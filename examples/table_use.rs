//! What the exact search's table does, by plies left: for each
//! `input.txt`, searched on one thread (a MINIMAX or ALPHABETA input to its
//! depth, any other to the end of the game), the nodes the search counted
//! there, how many looked themselves up in the table, found an entry, and
//! were ended by it; the children looked up before any is searched
//! (enhanced transposition cut-offs) and the nodes those ended; and the
//! results stored.
//!
//!   cargo run --release --features counters --example table_use -- INPUT...
//!
//! Without the `counters` feature the table is empty. The last plies of a
//! solve are written out and not counted as nodes (see `bound_cuts.rs`).

use stakeraid::api::{analyse, Limits, Position};
use stakeraid::search::counters;
use stakeraid::{parse_problem, Question, SearchMode};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let inputs: Vec<String> = std::env::args().skip(1).collect();
    if inputs.is_empty() {
        eprintln!("usage: table_use INPUT...");
        std::process::exit(2);
    }
    for path in &inputs {
        let problem = parse_problem(&std::fs::read(path)?[..])?;
        let depth = match problem.question {
            Question::Exact { depth, .. } => depth,
            _ => problem.board.empty_count(),
        };
        let position = Position::from_problem(&problem)?;
        let mut limits = Limits::to_depth(SearchMode::AlphaBeta, depth);
        limits.threads = 1;
        counters::take();
        let answer = analyse(&position, &limits)?;
        let by_depth = counters::take();
        println!(
            "{path}: depth {depth}, {} {}, {} nodes",
            answer.best, answer.value, answer.nodes
        );
        let heads = [
            "remaining",
            "nodes",
            "probes",
            "hits",
            "hit_cuts",
            "child_probes",
            "child_cuts",
            "stores",
        ];
        println!("    {}", heads.map(|h| format!("{h:>12}")).join(" "));
        for d in by_depth.iter().rev() {
            let row = [
                u64::from(d.remaining),
                d.nodes,
                d.probes,
                d.hits,
                d.hit_cuts,
                d.child_probes,
                d.child_cuts,
                d.stores,
            ];
            println!("    {}", row.map(|v| format!("{v:>12}")).join(" "));
        }
    }
    Ok(())
}
