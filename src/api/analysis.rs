//! What an analysis returns: the chosen move, every root move's value, the
//! principal variation and the cost, as one serde type whose JSON field
//! names are a stable interface (documented in `docs/library.md`).

use std::cmp::Reverse;

use serde::{Deserialize, Serialize};

use crate::game::Move;
use crate::game::Player;
use crate::search::Bound;
use crate::text::SearchMode;

/// The result of [`crate::api::analyse`].
///
/// Moves are written as in `output.txt` (`"C3 Raid"`), players as `"X"` /
/// `"O"`, and every value is the game score from [`Analysis::player`]'s
/// point of view at the depth searched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    /// The player to move.
    #[serde(with = "player_text")]
    pub player: Player,
    /// How the root values were searched.
    pub mode: SearchMode,
    /// The chosen move: the first in canonical order whose value is maximal.
    #[serde(with = "move_text")]
    pub best: Move,
    /// Its value (always exact at [`Analysis::depth`]).
    pub value: i64,
    /// The board after the chosen move, one string of `X`, `O` and `.` per
    /// row: with `best`, the text of `output.txt`.
    pub board: Vec<String>,
    /// Every legal root move in canonical order (Stakes row-major, then
    /// Raids row-major) with what the search proved about its value.
    pub moves: Vec<RootMove>,
    /// The principal variation: `best`, then each side's choice at the
    /// remaining depth, until the depth or the game ends. Shorter only when
    /// the search was stopped.
    #[serde(with = "move_texts")]
    pub pv: Vec<Move>,
    /// The depth the answer comes from.
    pub depth: u32,
    /// The depth asked for, capped at the number of empty cells (the game
    /// ends there); with only a time limit, that number.
    pub requested_depth: u32,
    /// True when `best` and `value` are the exact answer at
    /// `requested_depth`: what `output.txt` would say.
    pub exact: bool,
    /// True when a stop request or the time limit cut some work short: a
    /// deeper iteration, the exact values of MINIMAX mode, or the PV.
    pub stopped: bool,
    /// Positions searched, the PV's searches included.
    pub nodes: u64,
    /// Wall time, in microseconds.
    pub time_us: u64,
}

/// One root move and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RootMove {
    /// The move.
    #[serde(rename = "move", with = "move_text")]
    pub mv: Move,
    /// Its value, or an upper bound of it (see `bound`).
    pub value: i64,
    /// Whether `value` is the move's value or only an upper bound.
    pub bound: Bound,
}

impl Analysis {
    /// The text of `output.txt`: the move line, then the board after it.
    pub fn output_text(&self) -> String {
        crate::text::output_text(self.best, self.board.iter().map(String::as_str))
    }

    /// The root moves best first: by value (a bound ranks as its value),
    /// then exact values before bounds, then canonical order. The chosen
    /// move is always first.
    pub fn ranked(&self) -> Vec<RootMove> {
        let mut ranked: Vec<(usize, RootMove)> = self.moves.iter().copied().enumerate().collect();
        ranked.sort_by_key(|&(i, m)| (Reverse(m.value), m.bound == Bound::Upper, i));
        ranked.into_iter().map(|(_, m)| m).collect()
    }
}

/// A move as its `output.txt` text, `"C3 Raid"`.
pub(crate) mod move_text {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::game::Move;

    pub(crate) fn serialize<S: Serializer>(mv: &Move, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(mv)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

/// A list of moves as their texts.
mod move_texts {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::game::Move;

    pub(super) fn serialize<S: Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(moves.iter().map(Move::to_string))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Move>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|s| s.parse().map_err(D::Error::custom))
            .collect()
    }
}

/// A player as `"X"` or `"O"`.
mod player_text {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::game::Player;

    pub(super) fn serialize<S: Serializer>(p: &Player, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(p.symbol())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Player, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}
