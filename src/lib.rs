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
//!
//! ## For other tools: [`api::analyse`]
//!
//! The whole result of a search, as a serde type: the chosen move and its
//! value, every root move's value (exact, or an upper bound where
//! alpha-beta proved the move is not chosen), the principal variation,
//! nodes and time. Errors are typed ([`api::ApiError`]); nothing panics.
//!
//! ```
//! use stakeraid::api::{analyse, Analysis, Grid, Limits, Position, SearchMode};
//!
//! let grid: Grid = serde_json::from_str(
//!     r#"{"values": [[1, 8, 23], [5, 42, 12], [26, 30, 9]],
//!         "cells": ["X..", "...", "..."], "player": "O"}"#,
//! )?;
//! let position = Position::from_grid(&grid)?;
//! let analysis = analyse(&position, &Limits::to_depth(SearchMode::AlphaBeta, 2))?;
//! assert_eq!(analysis.best.to_string(), "B3 Stake");
//! assert!(analysis.exact);
//! let json = serde_json::to_string(&analysis)?;
//! assert_eq!(serde_json::from_str::<Analysis>(&json)?, analysis);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`serve`] answers JSON requests line by line (the `stakeraid serve`
//! command), and [`legacy`] reads and writes the older Drop / Blitz variant.
#![deny(missing_docs)]

pub mod api;
pub mod arena;
pub mod bench;
mod board;
pub mod competition;
pub mod legacy;
mod moves;
mod parse;
mod problem;
pub mod referee;
pub mod rng;
pub mod search;
pub mod serve;
mod solve;
mod zobrist;

pub use board::{Board, Player, Square, Undo, MAX_N};
pub use moves::{generate, legal_moves, Move, MoveKind, MoveList, MAX_MOVES};
pub use parse::{parse_problem, ParseError, ParseErrorKind};
pub use problem::{answer_text, input_text, Mode, Problem};
pub use rng::{random_board, Rng};
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
