//! A parsed `input.txt`: the position, the player to move and what is asked.

use crate::game::{Board, Player};

/// What the input asks for, with its limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// Textbook minimax to `depth` plies.
    Minimax {
        /// Cut-off depth (the root is depth 0).
        depth: u32,
    },
    /// Textbook alpha-beta to `depth` plies (same answer as minimax).
    AlphaBeta {
        /// Cut-off depth (the root is depth 0).
        depth: u32,
    },
    /// Play well with `seconds` of CPU time left for the rest of the game.
    Competition {
        /// CPU seconds left for all of this player's remaining moves.
        seconds: f64,
    },
}

impl Mode {
    /// The mode's name as written in `input.txt`.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Minimax { .. } => "MINIMAX",
            Mode::AlphaBeta { .. } => "ALPHABETA",
            Mode::Competition { .. } => "COMPETITION",
        }
    }

    /// The cut-off depth of MINIMAX and ALPHABETA.
    pub const fn depth(self) -> Option<u32> {
        match self {
            Mode::Minimax { depth } | Mode::AlphaBeta { depth } => Some(depth),
            Mode::Competition { .. } => None,
        }
    }
}

/// One position to answer.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The position (it has at least one empty cell).
    pub board: Board,
    /// The player to move, whose point of view the score takes (`YOUPLAY`).
    pub player: Player,
    /// What is asked.
    pub mode: Mode,
}
