//! # stakeraid
//!
//! An exact solver for the two-player board game *Stake & Raid*: given a
//! position, it returns the move the textbook minimax / alpha-beta search
//! chooses (the first maximal move in canonical order), fast.
//!
//! ```
//! use stakeraid::{parse_problem, solve, Limits};
//!
//! let input = "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";
//! let problem = parse_problem(input.as_bytes())?;
//! let answer = solve(&problem, &Limits::default())?;
//! assert_eq!(answer.best.to_string(), "B3 Stake");
//! assert_eq!(answer.text, "B3 Stake\nX..\n...\n.O.\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`solve`] is the homework's path through [`api`], the one front door:
//! an exact question is an [`api::analyse`] of the position (with the fast or
//! the textbook [`Engine`]), a COMPETITION question the competition player's
//! move.
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
//! What an input asks is a [`Question`]: an exact search to a depth in one
//! [`SearchMode`] (MINIMAX or ALPHABETA, the same enum the JSON and the
//! command line use), or a COMPETITION move with CPU seconds left.
//!
//! ```
//! use stakeraid::{parse_problem, Move, MoveParseError, SearchMode, Question};
//!
//! let input = "3\nALPHABETA\nX\n4\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";
//! let problem = parse_problem(input.as_bytes())?;
//! assert_eq!(problem.question, Question::Exact { mode: SearchMode::AlphaBeta, depth: 4 });
//! assert_eq!("B3 Blitz".parse::<Move>(), Err(MoveParseError::Kind("Blitz".into())));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`serve`] answers JSON requests line by line (the `stakeraid serve`
//! command), [`legacy`] reads and writes the older Drop / Blitz variant, and
//! [`grade`] grades a homework program the way the course's script does
//! (the `stakeraid grade` command), with the reason for every miss.
#![deny(missing_docs)]
#![deny(unreachable_pub)]

pub mod api;
pub mod bench;
pub mod class;
mod engine;
mod game;
pub mod grade;
pub mod jobs;
pub mod legacy;
pub mod mapped;
mod play;
pub mod sandbox;
pub mod scratch;
pub mod search;
pub mod store;
pub mod temp_file;
mod text;
#[cfg(feature = "web")]
pub mod web;

pub use api::serve;
pub use api::{solve, Answer, Engine, Limits};
pub use engine::competition;
pub use game::random as rng;
pub use game::random::{random_board, Rng};
pub use game::{
    generate, legal_moves, Board, Move, MoveKind, MoveList, MoveParseError, Player, Square, Undo,
    UnknownPlayer, MAX_MOVES, MAX_N,
};
pub use play::game::{check_move, Game, Illegal, LastMove};
pub use play::mover::{Chosen, Mover, Turn};
pub use play::table::{play_out, Played, Table};
pub use play::{arena, referee};
pub use text::{
    answer_text, input_text, parse_problem, ParseError, ParseErrorKind, Problem, Question,
    SearchMode, UnknownMode,
};
