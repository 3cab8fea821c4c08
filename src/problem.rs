//! A parsed `input.txt`: the position, the player to move and what is asked.

use crate::board::{Board, Player};
use crate::moves::Move;

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

/// The text of `output.txt` for `mv` played on `before`: the move line and
/// the board after it, every line ending in `\n`.
pub fn answer_text(before: &Board, player: Player, mv: Move) -> String {
    let mut after = before.clone();
    after.make(mv, player);
    format!("{mv}\n{}", after.cells_text())
}

/// The text of an `input.txt` for `problem`.
pub fn input_text(problem: &Problem) -> String {
    let board = &problem.board;
    let n = board.n();
    let limit = match problem.mode {
        Mode::Minimax { depth } | Mode::AlphaBeta { depth } => depth.to_string(),
        Mode::Competition { seconds } => seconds.to_string(),
    };
    let mut s = format!(
        "{n}\n{}\n{}\n{limit}\n",
        problem.mode.name(),
        problem.player.symbol()
    );
    for r in 0..n {
        let row: Vec<String> = (0..n).map(|c| board.value(r, c).to_string()).collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s.push_str(&board.cells_text());
    s
}
