//! One entry point from a [`Problem`] to its answer.

use std::time::{Duration, Instant};

use crate::moves::Move;
use crate::problem::{answer_text, Mode, Problem};
use crate::search::reference;

/// Which search answers MINIMAX and ALPHABETA problems.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineKind {
    /// The textbook search, as written in the assignment.
    Reference,
    /// The fast exact search (same answers).
    #[default]
    Fast,
}

/// How to search.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveOptions {
    /// Engine for MINIMAX / ALPHABETA.
    pub engine: EngineKind,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
}

/// The answer to a problem.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The chosen move.
    pub best: Move,
    /// Its value from the player's point of view (at the searched depth).
    pub value: i64,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The text of `output.txt`.
    pub text: String,
}

/// Answers `problem`.
pub fn solve(problem: &Problem, options: &SolveOptions) -> Answer {
    let start = Instant::now();
    let (board, player) = (&problem.board, problem.player);
    let d = match problem.mode {
        Mode::Minimax { depth } => reference::minimax(board, player, depth),
        Mode::AlphaBeta { depth } => reference::alphabeta(board, player, depth),
        Mode::Competition { .. } => reference::alphabeta(board, player, 2),
    };
    let _ = options;
    Answer {
        best: d.best,
        value: d.value,
        nodes: d.nodes,
        elapsed: start.elapsed(),
        text: answer_text(board, player, d.best),
    }
}
