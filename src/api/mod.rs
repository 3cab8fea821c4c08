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
//! This is the one front door: the command line (`solve` with or without
//! `--json`, `analyse`, `serve`), [`solve`] (the input.txt -> output.txt
//! path, COMPETITION included) and the Python bindings all search through
//! it. With [`Engine::Fast`] the search is the one every exact answer comes
//! from (`engine::exact`), in three steps that a stop flag or the time
//! limit can cut short: iterative-deepening alpha-beta to the depth (the
//! chosen move and its value, some root values as bounds); in MINIMAX
//! mode, an exact value for every bounded root move; the principal
//! variation. [`Engine::Reference`] runs the textbook search instead, for
//! the same answer. [`competition_move`] is the COMPETITION player's move
//! with a wall time of its own rather than a share of a game's CPU time.
//! [`analyse_many`] answers a batch of positions, spread over the cores.

use std::sync::Arc;
use std::time::Instant;

mod analysis;
mod batch;
mod competition;
mod drawing;
mod limits;
mod lines;
mod position;
pub mod serve;
mod sharing;
mod solve;

pub use crate::game::{check_move, Illegal};
pub use crate::search::{Bound, RootProgress};
pub use crate::text::{SearchMode, UnknownMode};
pub(crate) use analysis::move_text;
pub use analysis::{Analysis, RootMove};
pub use batch::{
    analyse_each, analyse_each_interruptible, analyse_each_with, analyse_many, BatchPosition,
};
pub use competition::competition_move;
pub use drawing::{alphabeta_dot, draw};
pub use limits::{Engine, Limits};
pub use position::{Grid, Position, PositionError};
pub use sharing::{search_all, Sharing, DEFAULT_TABLE_BYTES};
pub use solve::{solve, solve_watched, Answer};

use crate::engine::exact::{exact_search, ExactRun, ExactSettings, Pv};
use crate::engine::pool::in_pool;
use crate::game::{Board, Player};
use crate::search::reference;
use crate::search::root::RootValue;
use crate::search::{Deadline, Progress as Counters, Threads};
use crate::text::ParseError;

/// More threads than this are refused ([`ApiError::TooManyThreads`]):
/// each worker reserves a deep stack, and thousands take minutes to start.
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
    /// A depth of 0 leaves nothing to search (worded as `serve`, the
    /// command line and Python refuse any depth out of range).
    #[error("depth must be 1 to {}, got 0", u32::MAX)]
    ZeroDepth,
    /// Neither a depth nor a time limit: the search would never end.
    #[error("give a depth, a time limit or both")]
    NoLimit,
    /// More worker threads than [`MAX_THREADS`].
    #[error("threads must be at most {MAX_THREADS} (0: one per core), not {0}")]
    TooManyThreads(usize),
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

/// The counters of a running analysis, for a display that shows how far
/// it has got between the depths [`Progress`] reports.
#[derive(Clone, Debug)]
pub struct Watch(Arc<Counters>);

impl Watch {
    /// About how many positions have been searched so far.
    pub fn nodes(&self) -> u64 {
        self.0.nodes_seen()
    }

    /// The deepest depth completed so far.
    pub fn depth_done(&self) -> u32 {
        self.0.depth_done()
    }

    /// Where the root of the running depth stands: its moves settled, the
    /// best so far and the bounds on its value.
    pub fn root(&self) -> RootProgress {
        self.0.root()
    }
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
    analyse_watched(position, limits, |_| {}, on_depth)
}

/// [`analyse_with_progress`], handing `on_start` the analysis's [`Watch`]
/// before the search starts.
pub fn analyse_watched(
    position: &Position,
    limits: &Limits,
    on_start: impl FnOnce(Watch),
    on_depth: impl Fn(Progress) + Sync,
) -> Result<Analysis, ApiError> {
    analyse_inner(position, limits, true, on_start, on_depth)
}

/// [`analyse`] without the principal variation, for a caller that needs
/// the move, the values or the node count only (the web board's tree).
#[cfg(feature = "web")]
pub(crate) fn analyse_without_pv(
    position: &Position,
    limits: &Limits,
) -> Result<Analysis, ApiError> {
    analyse_inner(position, limits, false, |_| {}, |_| {})
}

/// The analysis; without `with_pv` its `pv` is empty (for callers that
/// print the move only).
fn analyse_inner(
    position: &Position,
    limits: &Limits,
    with_pv: bool,
    on_start: impl FnOnce(Watch),
    on_depth: impl Fn(Progress) + Sync,
) -> Result<Analysis, ApiError> {
    limits.check()?;
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
    let counters = Arc::new(Counters::default());
    on_start(Watch(counters.clone()));
    let run = match limits.engine {
        Engine::Fast => in_pool(limits.threads, |parallel| {
            let report = |depth, nodes| {
                on_depth(Progress {
                    depth,
                    target,
                    nodes,
                })
            };
            let settings = ExactSettings {
                target,
                mode: limits.mode,
                pv: if with_pv { Pv::Find } else { Pv::Skip },
                threads: Threads::pool_if(parallel),
                deadline: stop.clone(),
                progress: Some(counters.clone()),
                table_bytes: limits.table_bytes,
                store: limits.store.clone(),
            };
            exact_search(board, player, &settings, &report)
        }),
        Engine::Reference => {
            let stoppable = limits.time.is_some() || limits.stop.is_some();
            reference_search(
                board,
                player,
                target,
                limits.mode,
                &stop,
                stoppable,
                with_pv,
            )
        }
    };

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

/// The textbook search itself, on one thread, as the assignment writes it.
/// Unless `stoppable`, it searches `target` plies at once, so its node count
/// is the textbook one. Under a clock or a stop flag it goes depth after depth,
/// the deepest completed one answering (depth 1 always completes, as in
/// the fast engine), and the node count covers every depth searched. The
/// PV is each side's textbook choice at the plies left, its nodes not
/// counted, as the fast engine leaves them out.
fn reference_search(
    board: &Board,
    player: Player,
    target: u32,
    mode: SearchMode,
    stop: &Deadline,
    stoppable: bool,
    with_pv: bool,
) -> ExactRun {
    let search = match mode {
        SearchMode::Minimax => reference::minimax_until,
        SearchMode::AlphaBeta => reference::alphabeta_until,
    };
    let never = || false;
    let (mut found, mut depth) = if stoppable {
        (search(board, player, 1, &never), 1)
    } else {
        (search(board, player, target, &never), target)
    };
    let mut nodes = found.as_ref().map_or(0, |f| f.decision.nodes);
    if stoppable {
        for d in 2..=target {
            match search(board, player, d, &|| stop.poll()) {
                Some(deeper) => {
                    nodes += deeper.decision.nodes;
                    (found, depth) = (Some(deeper), d);
                }
                None => break,
            }
        }
    }
    let found = found.expect("depth 1 is never stopped");
    let cut = depth < target;
    let mut pv = Vec::new();
    if with_pv {
        pv.push(found.decision.best);
    }
    if with_pv && !cut {
        let mut b = board.clone();
        b.make(found.decision.best, player);
        let mut to_move = player.other();
        for left in (1..depth).rev() {
            if b.is_full() {
                break;
            }
            let mv = reference::alphabeta(&b, to_move, left).best;
            pv.push(mv);
            b.make(mv, to_move);
            to_move = to_move.other();
        }
    }
    ExactRun {
        best: found.decision.best,
        value: found.decision.value,
        moves: found.moves,
        pv,
        depth,
        nodes,
        cut,
    }
}
