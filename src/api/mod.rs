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
//! The search runs in three steps, all of which a stop flag or the time
//! limit can cut short: iterative-deepening alpha-beta to the depth (the
//! chosen move and its value, some root values as bounds); in MINIMAX mode,
//! an exact value for every bounded root move; the principal variation.

use std::sync::Arc;
use std::time::Instant;

mod analysis;
mod limits;
mod position;
pub mod serve;

pub use analysis::{Analysis, Bound, RootMove};
pub use limits::{Limits, SearchMode};
pub use position::{Grid, Position, PositionError};

use crate::engine::pool::in_pool;
use crate::game::{is_twin, Move, MoveKind};
use crate::game::{Board, Player};
use crate::search::root::{self, Iterative, RootResult, RootValue};
use crate::search::Deadline;
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
    let run = in_pool(limits.threads.min(MAX_THREADS), |parallel| {
        search(board, player, target, limits.mode, parallel, &stop)
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

/// What the three steps found.
struct Run {
    best: Move,
    value: i64,
    moves: Vec<(Move, RootValue)>,
    pv: Vec<Move>,
    depth: u32,
    nodes: u64,
    /// Some step was cut short by `abort`.
    cut: bool,
}

fn search(
    board: &Board,
    p: Player,
    target: u32,
    mode: SearchMode,
    parallel: bool,
    stop: &Arc<Deadline>,
) -> Run {
    let deepening = |depth: u32| Iterative {
        depth,
        parallel,
        deadline: Some(stop.clone()),
        ..Iterative::default()
    };

    // Step 1. The move and its value: iterative deepening, where an abort
    // leaves the last completed depth (depth 1 always completes).
    let (result, depth) = root::iterate(board, p, &deepening(target), |_, _| true);
    let mut nodes = result.nodes;
    let mut cut = depth < target;
    let mut moves = result.moves;

    // Step 2. MINIMAX mode: the exact value of each move the root search
    // only bounded. A Raid that flips nothing reaches the position its
    // Stake reaches, and that Stake comes earlier, so it copies its value.
    if mode == SearchMode::Minimax {
        let mut of_cell = vec![None; board.n() * board.n()];
        for entry in moves.iter_mut() {
            let (mv, known) = *entry;
            let cell = mv.row() * board.n() + mv.col();
            let twin = is_twin(board, p, mv);
            let value = match (known, twin.then(|| of_cell[cell]).flatten()) {
                (RootValue::Exact(v), _) | (_, Some(v)) => Some(v),
                (RootValue::AtMost(_), None) => {
                    child_value(board, p, mv, depth, &deepening).map(|(v, n)| {
                        nodes += n;
                        v
                    })
                }
            };
            let Some(v) = value else {
                cut = true;
                break;
            };
            entry.1 = RootValue::Exact(v);
            if mv.kind() == MoveKind::Stake {
                of_cell[cell] = Some(v);
            }
        }
    }

    // Step 3. The principal variation: each side's own choice at the depth
    // left, which ends on a position scored at the root's value.
    let mut pv = vec![result.best];
    let mut b = board.clone();
    b.make(result.best, p);
    let mut to_move = p.other();
    for left in (1..depth).rev() {
        if b.is_full() {
            break;
        }
        let Some((mv, n)) = choice(&b, to_move, left, &deepening) else {
            cut = true;
            break;
        };
        nodes += n;
        pv.push(mv);
        b.make(mv, to_move);
        to_move = to_move.other();
    }

    Run {
        best: result.best,
        value: result.value,
        moves,
        pv,
        depth,
        nodes,
        cut,
    }
}

/// The exact value for `p` of playing `mv` and searching `depth` plies in
/// all, with its node count; `None` if aborted first.
fn child_value(
    board: &Board,
    p: Player,
    mv: Move,
    depth: u32,
    deepening: &dyn Fn(u32) -> Iterative,
) -> Option<(i64, u64)> {
    let mut b = board.clone();
    b.make(mv, p);
    if depth == 1 || b.is_full() {
        return Some((b.score(p), 1));
    }
    // The game is zero-sum: the child's value for `p` is minus its value
    // for the opponent, who moves there with one ply less to go.
    exact(&b, p.other(), depth - 1, deepening).map(|r| (-r.value, r.nodes))
}

/// The move `p` chooses on `board` searching `depth` plies, with the nodes
/// it took; `None` if aborted first.
fn choice(
    board: &Board,
    p: Player,
    depth: u32,
    deepening: &dyn Fn(u32) -> Iterative,
) -> Option<(Move, u64)> {
    exact(board, p, depth, deepening).map(|r| (r.best, r.nodes))
}

/// A complete search of `depth` plies; `None` if aborted first.
fn exact(
    board: &Board,
    p: Player,
    depth: u32,
    deepening: &dyn Fn(u32) -> Iterative,
) -> Option<RootResult> {
    let settings = deepening(depth);
    // Depth 1 completes even when aborted, so only deeper searches are
    // skipped once the flag is up: no table is built for nothing.
    if depth > 1 && settings.deadline.as_ref().is_some_and(|d| d.poll()) {
        return None;
    }
    let (r, got) = root::iterate(board, p, &settings, |_, _| true);
    (got == depth.min(board.empty_count())).then_some(r)
}
