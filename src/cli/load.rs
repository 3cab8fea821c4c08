//! Reading a position in either file format, and the command-line word
//! for the format that `solve` and `analyse` share.

use std::path::Path;

use anyhow::Context;
use clap::ValueEnum;
use stakeraid::{legacy, parse_problem, Board, Move, Player, Question};

use super::io::read_input;

/// The input file's format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `input.txt`: size, mode, player, depth, values, cells.
    #[default]
    InputTxt,
    /// The older variant's 5x5 board of tab-separated `value,owner` pairs
    /// (owner 1 moves); answers are printed as `drop,C,2` / `blitz,C,2`.
    DropBlitz,
}

impl Format {
    /// A move as this format's answers write it.
    pub fn move_text(self, mv: Move) -> String {
        match self {
            Format::InputTxt => mv.to_string(),
            Format::DropBlitz => legacy::move_text(mv),
        }
    }
}

/// A position read from a file, with the mode the file names (only an
/// `input.txt` names one).
pub struct Loaded {
    /// The board.
    pub board: Board,
    /// The player to move.
    pub player: Player,
    /// What the file asks.
    pub question: Option<Question>,
}

/// Reads `path` (`-`: standard input) in `format`.
pub fn load(path: &Path, format: Format) -> anyhow::Result<Loaded> {
    let bytes = read_input(path)?;
    let name = || path.display().to_string();
    Ok(match format {
        Format::InputTxt => {
            let problem = parse_problem(&bytes).with_context(name)?;
            Loaded {
                board: problem.board,
                player: problem.player,
                question: Some(problem.question),
            }
        }
        Format::DropBlitz => {
            let board = legacy::parse_board(&bytes).with_context(name)?;
            Loaded {
                board,
                player: legacy::TO_MOVE,
                question: None,
            }
        }
    })
}
