//! How far and how an analysis searches: mode, depth, time, threads and an
//! optional stop flag.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::ApiError;
use crate::text::Mode;

/// Which root values an analysis proves. Both modes choose the same move
/// with the same value (the textbook answer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SearchMode {
    /// Every root move's value exact, as full-width minimax gives them.
    #[serde(rename = "MINIMAX", alias = "minimax")]
    Minimax,
    /// The chosen move's value exact; moves proved not to be chosen may
    /// carry only an upper bound, as alpha-beta leaves them.
    #[default]
    #[serde(rename = "ALPHABETA", alias = "alphabeta")]
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

/// The limits of one analysis. At least one of `depth` and `time` is needed.
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
    /// Setting this flag (from any thread) stops the analysis as the time
    /// limit does. The analysis only reads it.
    pub stop: Option<Arc<AtomicBool>>,
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

    /// The search an `input.txt` mode asks for. COMPETITION has no exact
    /// answer and is refused.
    pub fn for_mode(mode: Mode) -> Result<Limits, ApiError> {
        match mode {
            Mode::Minimax { depth } => Ok(Limits::to_depth(SearchMode::Minimax, depth)),
            Mode::AlphaBeta { depth } => Ok(Limits::to_depth(SearchMode::AlphaBeta, depth)),
            Mode::Competition { .. } => Err(ApiError::NotExact(mode.name())),
        }
    }
}
