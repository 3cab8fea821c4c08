//! How far and how a search goes: mode, depth, time, threads, engine,
//! table, an optional stop flag and store. One value for [`super::analyse`]
//! and [`super::solve`] alike, checked in one place ([`Limits::check`]).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::{ApiError, Position, MAX_THREADS};
use crate::engine::exact::compact_table_bytes;
use crate::store::StoreUse;
use crate::text::{Question, SearchMode};

/// Which search proves the answer. Both give the same move, value and
/// root values; the fast one in a fraction of the nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Engine {
    /// The textbook search, as the assignment writes it: the oracle the
    /// fast engine is tested against. One thread, no table.
    Reference,
    /// The fast exact search.
    #[default]
    Fast,
}

/// The limits of one search. At least one of `depth` and `time` is needed
/// for an analysis; [`super::solve`] takes the mode and depth from its
/// problem instead.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Which root values to prove.
    pub mode: SearchMode,
    /// Cut-off depth in plies (the root is depth 0), at least 1. Without
    /// it, the search deepens until the time runs out or the game ends.
    pub depth: Option<u32>,
    /// Wall-time budget for the whole analysis. When it runs out, the
    /// deepest completed iteration answers (depth 1 always completes, so
    /// the answer can come a little late on a huge board).
    pub time: Option<Duration>,
    /// Worker threads; 0 means one per core. At most
    /// [`super::MAX_THREADS`].
    pub threads: usize,
    /// Which search runs.
    pub engine: Engine,
    /// Transposition table size in bytes for the fast engine (default:
    /// sized for the search: at most 64 MiB, more for solves deeper than
    /// 19 plies on boards of up to 64 cells, up to 1 GiB).
    pub table_bytes: Option<usize>,
    /// Setting this flag (from any thread) stops the analysis as the time
    /// limit does. The analysis only reads it.
    pub stop: Option<Arc<AtomicBool>>,
    /// A solve store: bounds proved by earlier runs answer without a
    /// search, and what this one proves is added as it goes (see
    /// [`crate::store`]).
    pub store: Option<StoreUse>,
}

impl Limits {
    /// An exact search to `depth` plies in `mode`, one thread per core.
    pub fn to_depth(mode: SearchMode, depth: u32) -> Limits {
        Limits {
            mode,
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Refuses limits no search can keep: a depth of 0 (nothing to
    /// search), neither a depth nor a time (a search that never ends),
    /// more than [`MAX_THREADS`] threads. The one check of them:
    /// [`super::analyse`] makes it before it searches, and `serve` when it
    /// reads a request, to refuse it at once rather than when its turn
    /// comes.
    pub(crate) fn check(&self) -> Result<(), ApiError> {
        if self.depth == Some(0) {
            return Err(ApiError::ZeroDepth);
        }
        if self.depth.is_none() && self.time.is_none() {
            return Err(ApiError::NoLimit);
        }
        check_threads(self.threads)
    }

    /// The table the fast engine sizes for this search of `position` when
    /// `table_bytes` is `None`: what a share of a table budget is capped
    /// at, so that a small search beside others allocates no more than it
    /// would alone.
    pub(crate) fn default_table_bytes(&self, position: &Position) -> usize {
        let board = position.board();
        let empties = board.empty_count();
        let plies = self.depth.unwrap_or(empties).min(empties);
        compact_table_bytes(board.n(), empties, plies)
    }

    /// The search an `input.txt` asks for. COMPETITION has no exact
    /// answer and is refused.
    pub fn for_question(question: Question) -> Result<Limits, ApiError> {
        match question {
            Question::Exact { mode, depth } => Ok(Limits::to_depth(mode, depth)),
            Question::Competition { .. } => Err(ApiError::NotExact(question.name())),
        }
    }
}

/// Refuses more than [`MAX_THREADS`] worker threads, for an exact search
/// ([`Limits::check`]) and a competition move ([`super::solve`],
/// [`super::competition_move`]) alike.
pub(crate) fn check_threads(threads: usize) -> Result<(), ApiError> {
    if threads > MAX_THREADS {
        return Err(ApiError::TooManyThreads(threads));
    }
    Ok(())
}
