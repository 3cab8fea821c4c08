//! A parsed `input.txt`: the position, the player to move and what is asked.

use serde::{Deserialize, Serialize};

use crate::game::{Board, Player};

/// Minimax or alpha-beta: which root values a search proves. Both choose
/// the same move with the same value (the textbook answer). The one name
/// of the choice in `input.txt`, the JSON, the command line and the bench.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
pub enum SearchMode {
    /// Every root move's value exact, as full-width minimax gives them.
    #[serde(rename = "MINIMAX", alias = "minimax")]
    #[value(name = "minimax", alias = "MINIMAX")]
    Minimax,
    /// The chosen move's value exact; moves proved not to be chosen may
    /// carry only an upper bound, as alpha-beta leaves them.
    #[default]
    #[serde(rename = "ALPHABETA", alias = "alphabeta")]
    #[value(name = "alphabeta", alias = "ALPHABETA")]
    AlphaBeta,
}

impl SearchMode {
    /// `"MINIMAX"` or `"ALPHABETA"`, as in `input.txt` and the JSON.
    pub const fn name(self) -> &'static str {
        match self {
            SearchMode::Minimax => "MINIMAX",
            SearchMode::AlphaBeta => "ALPHABETA",
        }
    }
}

/// A name that is neither `MINIMAX` nor `ALPHABETA`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown mode {0:?} (expected MINIMAX or ALPHABETA)")]
pub struct UnknownMode(pub String);

impl std::str::FromStr for SearchMode {
    type Err = UnknownMode;

    /// `MINIMAX` or `ALPHABETA`, in any case.
    fn from_str(text: &str) -> Result<SearchMode, UnknownMode> {
        if text.eq_ignore_ascii_case("MINIMAX") {
            Ok(SearchMode::Minimax)
        } else if text.eq_ignore_ascii_case("ALPHABETA") {
            Ok(SearchMode::AlphaBeta)
        } else {
            Err(UnknownMode(text.to_owned()))
        }
    }
}

impl std::fmt::Display for SearchMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What an input asks of its position, with its limit: the question a
/// [`crate::solve`] answers. Not a second search mode: an exact question
/// carries its [`SearchMode`], and a competition move is no search to a
/// depth at all but a clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Question {
    /// The textbook answer of a search to `depth` plies (MINIMAX or
    /// ALPHABETA in `input.txt`).
    Exact {
        /// Which root values to prove.
        mode: SearchMode,
        /// Cut-off depth (the root is depth 0).
        depth: u32,
    },
    /// Play well with `seconds` of CPU time left for the rest of the game
    /// (COMPETITION): no search has an exact answer to give.
    Competition {
        /// CPU seconds left for all of this player's remaining moves.
        seconds: f64,
    },
}

impl Question {
    /// The mode's name as written in `input.txt`.
    pub const fn name(self) -> &'static str {
        match self {
            Question::Exact { mode, .. } => mode.name(),
            Question::Competition { .. } => "COMPETITION",
        }
    }

    /// The cut-off depth of an exact search.
    pub const fn depth(self) -> Option<u32> {
        match self {
            Question::Exact { depth, .. } => Some(depth),
            Question::Competition { .. } => None,
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
    /// What is asked of the position.
    pub question: Question,
}

#[cfg(test)]
mod tests {
    use super::SearchMode;
    use crate::game::Player;

    /// Modes and players read back what they print, in either case, and
    /// nothing else.
    #[test]
    fn names_read_back() {
        for mode in [SearchMode::Minimax, SearchMode::AlphaBeta] {
            let name = mode.to_string();
            assert_eq!(name.parse::<SearchMode>(), Ok(mode));
            assert_eq!(name.to_lowercase().parse::<SearchMode>(), Ok(mode));
        }
        for p in [Player::X, Player::O] {
            let name = p.to_string();
            assert_eq!(name.parse::<Player>(), Ok(p));
            assert_eq!(name.to_lowercase().parse::<Player>(), Ok(p));
        }
        for bad in ["", "COMPETITION", "MINMAX", " minimax"] {
            assert!(bad.parse::<SearchMode>().is_err(), "{bad:?}");
        }
        for bad in ["", "Z", "XO", "x "] {
            assert!(bad.parse::<Player>().is_err(), "{bad:?}");
        }
    }
}
