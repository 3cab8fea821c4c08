//! # stakeraid
//!
//! An exact solver for the two-player board game *Stake & Raid*: given a
//! position, it returns the move the textbook minimax / alpha-beta search
//! chooses (the first maximal move in canonical order), fast.
//!
//! ```
//! use stakeraid::{parse_problem, solve, SolveOptions};
//!
//! let input = "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";
//! let problem = parse_problem(input.as_bytes()).unwrap();
//! let answer = solve(&problem, &SolveOptions::default());
//! assert_eq!(answer.best.to_string(), "B3 Stake");
//! assert_eq!(answer.text, "B3 Stake\nX..\n...\n.O.\n");
//! ```
#![deny(missing_docs)]

pub mod bench;
mod board;
mod moves;
mod parse;
mod problem;
pub mod rng;
pub mod search;
mod solve;
mod zobrist;

pub use board::{Board, Player, Square, Undo, MAX_N};
pub use moves::{generate, legal_moves, Move, MoveKind, MoveList, MAX_MOVES};
pub use parse::{parse_problem, ParseError, ParseErrorKind};
pub use problem::{answer_text, input_text, Mode, Problem};
pub use solve::{solve, Answer, EngineKind, SolveOptions};

/// A rayon pool of `threads` workers, as the solver builds one: for tests
/// and benchmarks that drive the engines directly.
#[doc(hidden)]
pub fn rayon_pool_for_tests(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(64 << 20)
        .build()
        .expect("thread pool")
}
