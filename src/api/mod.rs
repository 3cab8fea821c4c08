//! The exact-answer entry point for other tools: [`analyse`] takes a
//! [`Position`] and [`Limits`] and returns an [`Analysis`] (serde, so it
//! is also the JSON of `stakeraid solve --json` and `stakeraid serve`).
//!
//! ```
//! use stakeraid::api::{analyse, Bound, Limits, Position, SearchMode};
//! use stakeraid::parse_problem;
//!
//! let input = "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";
//! let position = Position::from_problem(&parse_problem(input.as_bytes())?)?;
//! let analysis = analyse(&position, &Limits::to_depth(SearchMode::Minimax, 2))?;
//! assert_eq!(analysis.best.to_string(), "B3 Stake");
//! assert_eq!(analysis.output_text(), "B3 Stake\nX..\n...\n.O.\n");
//! assert!(analysis.exact && analysis.moves.iter().all(|m| m.bound == Bound::Exact));
//! assert_eq!(analysis.pv.len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The search is the one every exact answer comes from
//! (`engine::exact`), in three steps that a stop flag or the time limit can
//! cut short: iterative-deepening alpha-beta to the depth (the chosen move
//! and its value, some root values as bounds); in MINIMAX mode, an exact
//! value for every bounded root move; the principal variation.

use std::sync::Arc;
use std::time::Instant;

mod analysis;
mod drawing;
mod legal;
mod limits;
mod lines;
mod position;
pub mod serve;

pub use crate::search::Bound;
pub use analysis::{Analysis, RootMove};
pub use drawing::draw;
pub use legal::{check_move, MoveError};
pub use limits::{Limits, SearchMode};
pub use position::{Grid, Position, PositionError};

use crate::engine::exact::{exact_search, ExactSettings, Pv, RootValues};
use crate::engine::pool::in_pool;
use crate::search::root::RootValue;
use crate::search::{Deadline, Threads};
use crate::text::ParseError;

/// More threads than this are not started, whatever [`Limits::threads`]
/// asks: each worker reserves a deep stack.
pub const MAX_THREADS: usize = 256;

/// Why an analysis could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The `input.txt` text is malformed.
    #[error(transparent)]
    Input(#[from] ParseError),
    /// The position is malformed or has no move.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A depth of 0 leaves nothing to search.
    #[error("depth must be at least 1")]
    ZeroDepth,
    /// Neither a depth nor a time limit: the search would never end.
    #[error("give a depth, a time limit or both")]
    NoLimit,
    /// The mode (named) has no exact answer.
    #[error("{0} mode has no exact answer (expected MINIMAX or ALPHABETA)")]
    NotExact(&'static str),
}

/// Analyses `position` within `limits`.
///
/// With a depth and no stop, the answer is exact: `best` and `value` are
/// what the textbook search gives, and so are the root values marked
/// [`Bound::Exact`]. When the time runs out or the stop flag is set, the
/// deepest completed iteration answers, with `exact` false if that is not
/// the depth asked for.
pub fn analyse(position: &Position, limits: &Limits) -> Result<Analysis, ApiError> {
    analyse_with_progress(position, limits, |_| {})
}

/// How far a running analysis has got: reported each time its iterative
/// deepening completes a depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The depth just completed.
    pub depth: u32,
    /// The depth the analysis goes to (capped at the empty cells).
    pub target: u32,
    /// Positions searched so far.
    pub nodes: u64,
}

/// [`analyse`], calling `on_depth` (from a worker thread) each time the
/// search completes a depth, so that a long analysis can show how far it
/// has got. The deeper steps of MINIMAX mode and the principal variation
/// come after the last report.
pub fn analyse_with_progress(
    position: &Position,
    limits: &Limits,
    on_depth: impl Fn(Progress) + Sync,
) -> Result<Analysis, ApiError> {
    if limits.depth == Some(0) {
        return Err(ApiError::ZeroDepth);
    }
    if limits.depth.is_none() && limits.time.is_none() {
        return Err(ApiError::NoLimit);
    }
    let start = Instant::now();
    let (board, player) = (position.board(), position.player());
    // Beyond the last empty cell there is nothing left to search.
    let empties = board.empty_count();
    let target = limits.depth.unwrap_or(empties).min(empties);
    // A budget too long to add to the clock is no budget.
    let deadline = limits.time.and_then(|t| start.checked_add(t));

    let stop = Deadline::none()
        .with_wall(deadline)
        .with_stop(limits.stop.clone());
    let stop = Arc::new(stop);
    let values = match limits.mode {
        SearchMode::Minimax => RootValues::Every,
        SearchMode::AlphaBeta => RootValues::Chosen,
    };
    let run = in_pool(limits.threads.min(MAX_THREADS), |parallel| {
        let report = |depth, nodes| {
            on_depth(Progress {
                depth,
                target,
                nodes,
            })
        };
        let settings = ExactSettings {
            target,
            values,
            pv: Pv::Find,
            threads: Threads::pool_if(parallel),
            deadline: stop.clone(),
            progress: None,
            table_bytes: None,
        };
        exact_search(board, player, &settings, &report)
    });

    let mut after = board.clone();
    after.make(run.best, player);
    Ok(Analysis {
        player,
        mode: limits.mode,
        best: run.best,
        value: run.value,
        board: after.cells_text().lines().map(String::from).collect(),
        moves: run
            .moves
            .into_iter()
            .map(|(mv, v)| match v {
                RootValue::Exact(value) => RootMove {
                    mv,
                    value,
                    bound: Bound::Exact,
                },
                RootValue::AtMost(value) => RootMove {
                    mv,
                    value,
                    bound: Bound::Upper,
                },
            })
            .collect(),
        pv: run.pv,
        depth: run.depth,
        requested_depth: target,
        exact: run.depth == target,
        stopped: run.cut,
        nodes: run.nodes,
        time_us: u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
    })
}
