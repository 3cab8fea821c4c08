//! How far and how an analysis searches: mode, depth, time, threads and an
//! optional stop flag.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::ApiError;
use crate::text::{SearchMode, Task};

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

    /// The search an `input.txt` asks for. COMPETITION has no exact
    /// answer and is refused.
    pub fn for_task(task: Task) -> Result<Limits, ApiError> {
        match task {
            Task::Exact { mode, depth } => Ok(Limits::to_depth(mode, depth)),
            Task::Competition { .. } => Err(ApiError::NotExact(task.name())),
        }
    }
}
