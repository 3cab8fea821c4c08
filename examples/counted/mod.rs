//! What the counting examples share: each `input.txt` named on the command
//! line, searched on one thread (a MINIMAX or ALPHABETA input to its depth,
//! any other to the end of the game), and a table of the search's counts
//! by plies left, deepest first.

use stakeraid::api::{analyse, Limits, Position};
use stakeraid::search::counters::{self, DepthCounts};
use stakeraid::{parse_problem, Question, SearchMode};

/// Prints, for each input, its answer and a row of `row`'s counts under
/// `heads` for each number of plies left. Exits 2 with a usage line naming
/// `example` when no input is named.
pub fn each_input(
    example: &str,
    heads: &[&str],
    row: impl Fn(&DepthCounts) -> Vec<u64>,
) -> Result<(), Box<dyn std::error::Error>> {
    let inputs: Vec<String> = std::env::args().skip(1).collect();
    if inputs.is_empty() {
        eprintln!("usage: {example} INPUT...");
        std::process::exit(2);
    }
    let line = |cells: Vec<String>| {
        let cells: Vec<String> = cells.iter().map(|c| format!("{c:>12}")).collect();
        println!("    {}", cells.join(" "));
    };
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
        line(heads.iter().map(|h| h.to_string()).collect());
        for d in by_depth.iter().rev() {
            line(row(d).iter().map(u64::to_string).collect());
        }
    }
    Ok(())
}
