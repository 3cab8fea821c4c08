//! Where the exact search's bounds without a move end nodes: for each
//! `input.txt`, searched on one thread (a MINIMAX or ALPHABETA input to its
//! depth, any other to the end of the game), by plies left: the nodes
//! the search counted there, the nodes a move's cut-off ended, and the
//! nodes a bound ended without a move (of those, by a child's settled
//! pieces), as `compact/bounds.rs` argues them.
//!
//!   cargo run --release --features counters --example bound_cuts -- INPUT...
//!
//! Without the `counters` feature the table is empty. The last plies of a
//! solve are written out and not counted as nodes, so with four plies left
//! in a solve only the bound's cut-offs show.

use stakeraid::api::{analyse, Limits, Position};
use stakeraid::search::counters;
use stakeraid::{parse_problem, Question, SearchMode};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let inputs: Vec<String> = std::env::args().skip(1).collect();
    if inputs.is_empty() {
        eprintln!("usage: bound_cuts INPUT...");
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
        println!(
            "    {:>9} {:>13} {:>13} {:>13}",
            "remaining", "nodes", "move_cuts", "bound_cuts"
        );
        for d in by_depth.iter().rev() {
            println!(
                "    {:>9} {:>13} {:>13} {:>13}",
                d.remaining, d.nodes, d.cuts, d.bound_cuts
            );
        }
    }
    Ok(())
}
