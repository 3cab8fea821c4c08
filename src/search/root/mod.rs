//! The root of the fast searches and the deterministic tie-break layer:
//! whatever order or thread finishes first, the answer is the first move in
//! canonical order whose value is maximal. See `README.md` beside `root/`.
//!
//! Two roots share one loop over the depths (`iteration.rs`): the exact
//! root (`exact.rs`: the textbook answer, with its engine choice, its
//! direct deepening, the ordering search and exact values by tests) and
//! the play root (`play.rs`: a move to play under a clock, with an
//! evaluation, reductions and the best move of a cut-short iteration).
//! Which one runs is the type of the search's settings,
//! `Iterative<Exact>` or `Iterative<Play>`, so a caller cannot ask for
//! a mixture of the two.

use std::sync::Arc;

use super::deadline::Deadline;
use super::engine::Threads;
use super::progress::Progress;
use crate::game::{Board, Move};

mod exact;
mod iteration;
mod play;

#[cfg(test)]
pub(crate) use exact::exact_on_general;
pub(crate) use exact::{alphabeta, minimax};
pub(crate) use exact::{exact, Exact};
pub(crate) use play::{immediate, play, Play};

/// What the search proved about one root move's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootValue {
    /// The minimax value.
    Exact(i64),
    /// The minimax value is at most this (the move was proved not to be chosen).
    AtMost(i64),
}

impl RootValue {
    /// The value, or the bound on it.
    pub fn bound(self) -> i64 {
        match self {
            RootValue::Exact(v) | RootValue::AtMost(v) => v,
        }
    }
}

/// The outcome of a root search.
#[derive(Clone, Debug)]
pub(crate) struct RootResult {
    /// The chosen move: the first in canonical order with the maximal value.
    pub best: Move,
    /// Its exact minimax value.
    pub value: i64,
    /// Positions searched (for minimax: the textbook tree's count).
    pub nodes: u64,
    /// Every root move in canonical order with what is known of its value.
    pub moves: Vec<(Move, RootValue)>,
}

/// Table size for a search of `depth` plies over `empties` cells. Only
/// nodes with 3 or more plies left are stored, and there are at most
/// `empties^(depth - 3)` of them per root move, far fewer with pruning.
pub(crate) fn table_bytes(n: usize, empties: u32, depth: u32) -> usize {
    const MAX: usize = 64 << 20;
    if depth < 4 {
        return 0;
    }
    let slot = 8 * (3 + Board::key_len(n));
    let entries = u64::from(empties)
        .saturating_pow(depth - 3)
        .saturating_mul(4);
    (entries.min((MAX / slot) as u64) as usize) * slot
}

/// Settings of an iterative-deepening search, whichever root runs it:
/// `purpose` is [`Exact`] for the textbook answer, [`Play`] for a move to
/// play.
#[derive(Clone, Debug, Default)]
pub(crate) struct Iterative<P> {
    /// Deepest iteration (capped at the number of empty cells, where the
    /// game ends).
    pub depth: u32,
    /// Whether to split work across the current rayon pool.
    pub threads: Threads,
    /// What only the exact root or only the play root needs.
    pub purpose: P,
    /// Once it fires, the running iteration is abandoned and the last
    /// completed one answers.
    pub deadline: Option<Arc<Deadline>>,
    /// Where the nodes searched and the depths completed are reported as
    /// the search goes.
    pub progress: Option<Arc<Progress>>,
    /// Cap on the transposition table's size in bytes (it is otherwise
    /// sized for a full search of `depth` plies, up to 64 MiB).
    pub table_limit: Option<usize>,
}
