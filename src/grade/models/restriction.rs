//! Restrictions: a bug that shows in one mode or at one depth parity only
//! (a program with a separate minimax and alpha-beta, one of them wrong).
//! Outside its restriction a restricted bug's program writes the answer.

use std::fmt;

use serde::Serialize;

use crate::text::SearchMode;

/// Where a bug shows, when not everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Restriction {
    /// In MINIMAX mode only.
    Minimax,
    /// In ALPHABETA mode only.
    AlphaBeta,
    /// At odd depths asked only.
    OddDepths,
    /// At even depths asked only.
    EvenDepths,
}

impl Restriction {
    /// Every restriction, in the order a diagnosis tries them.
    pub const ALL: [Restriction; 4] = [
        Restriction::Minimax,
        Restriction::AlphaBeta,
        Restriction::OddDepths,
        Restriction::EvenDepths,
    ];

    /// True when a case asked `mode` to `depth` lies inside.
    pub fn holds(self, mode: SearchMode, depth: u32) -> bool {
        match self {
            Restriction::Minimax => mode == SearchMode::Minimax,
            Restriction::AlphaBeta => mode == SearchMode::AlphaBeta,
            Restriction::OddDepths => !depth.is_multiple_of(2),
            Restriction::EvenDepths => depth.is_multiple_of(2),
        }
    }

    /// The cases inside, as an adjective: `ALPHABETA`, `odd-depth`.
    pub const fn inside(self) -> &'static str {
        match self {
            Restriction::Minimax => "MINIMAX",
            Restriction::AlphaBeta => "ALPHABETA",
            Restriction::OddDepths => "odd-depth",
            Restriction::EvenDepths => "even-depth",
        }
    }

    /// The cases outside, as an adjective.
    pub const fn outside(self) -> &'static str {
        match self {
            Restriction::Minimax => "ALPHABETA",
            Restriction::AlphaBeta => "MINIMAX",
            Restriction::OddDepths => "even-depth",
            Restriction::EvenDepths => "odd-depth",
        }
    }

    /// The restriction in a few words: `in ALPHABETA only`.
    pub const fn describe(self) -> &'static str {
        match self {
            Restriction::Minimax => "in MINIMAX only",
            Restriction::AlphaBeta => "in ALPHABETA only",
            Restriction::OddDepths => "at odd depths only",
            Restriction::EvenDepths => "at even depths only",
        }
    }
}

impl fmt::Display for Restriction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}
