//! One entry point from a [`Problem`] to its answer.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::competition::{self, CompetitionOptions};
use super::exact::{exact_search, ExactSettings, Pv, RootValues};
use super::pool::in_pool;
use crate::game::{Board, Move, Player};
use crate::search::{reference, Deadline, Progress, Threads};
use crate::text::{answer_text, Problem, SearchMode, Task};

/// Which search answers MINIMAX and ALPHABETA problems.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineKind {
    /// The textbook search, as written in the assignment.
    Reference,
    /// The fast exact search (same answers).
    #[default]
    Fast,
}

/// How to search.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Engine for MINIMAX / ALPHABETA.
    pub engine: EngineKind,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Transposition table size in bytes for the fast engine (default:
    /// sized for the search: at most 64 MiB, more for solves deeper than
    /// 19 plies on boards of up to 64 cells, up to 1 GiB).
    pub table_bytes: Option<usize>,
    /// Ends a fast MINIMAX / ALPHABETA search early when it fires: the
    /// answer then comes from the deepest depth completed, and
    /// [`Answer::exact`] is false. The textbook engine and COMPETITION
    /// mode do not use it.
    pub deadline: Option<Arc<Deadline>>,
    /// Where a fast MINIMAX / ALPHABETA search reports its nodes and
    /// depths as it goes, for a caller that watches it.
    pub progress: Option<Arc<Progress>>,
}

/// The answer to a problem.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The chosen move.
    pub best: Move,
    /// Its value from the player's point of view (at the searched depth).
    pub value: i64,
    /// Positions searched.
    pub nodes: u64,
    /// The depth the answer was searched to (0 in COMPETITION mode).
    pub depth: u32,
    /// False when a deadline cut the search short of the asked depth: the
    /// answer is then the one of `depth` plies, not the textbook answer.
    pub exact: bool,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The text of `output.txt`.
    pub text: String,
}

/// Answers `problem`.
pub fn solve(problem: &Problem, options: &SolveOptions) -> Answer {
    let start = Instant::now();
    let (board, player) = (&problem.board, problem.player);
    let mut searched = None;
    let mut exact = true;
    let (best, value, nodes) = match (options.engine, problem.task) {
        (EngineKind::Reference, Task::Exact { mode, depth }) => {
            let search = match mode {
                SearchMode::Minimax => reference::minimax_until,
                SearchMode::AlphaBeta => reference::alphabeta_until,
            };
            let target = depth.min(board.empty_count());
            let (decision, done) = match &options.deadline {
                Some(deadline) if !deadline.is_untimed() => {
                    deepened(board, player, target, deadline, search)
                }
                _ => {
                    let decision = search(board, player, depth, &|| false).expect("never stopped");
                    (decision, target)
                }
            };
            searched = Some(done);
            exact = done == target;
            decided(decision)
        }
        (EngineKind::Fast, Task::Exact { mode, depth }) => {
            // MINIMAX asks for the same move as ALPHABETA; it also proves
            // every root value, as `analyse` reports them for that mode.
            let values = match mode {
                SearchMode::Minimax => RootValues::Every,
                SearchMode::AlphaBeta => RootValues::Chosen,
            };
            let target = depth.min(board.empty_count());
            let run = in_pool(options.threads, |par| {
                let settings = ExactSettings {
                    target,
                    values,
                    pv: Pv::Skip,
                    threads: Threads::pool_if(par),
                    deadline: options.deadline.clone().unwrap_or_default(),
                    progress: options.progress.clone(),
                    table_bytes: options.table_bytes,
                };
                exact_search(board, player, &settings, &|_, _| {})
            });
            searched = Some(run.depth);
            // Only an answer short of the depth asked is not the textbook
            // one.
            exact = run.depth == target;
            (run.best, run.value, run.nodes)
        }
        (_, Task::Competition { seconds }) => {
            let settings = CompetitionOptions {
                threads: options.threads,
                ..CompetitionOptions::default()
            };
            let played = competition::play(board, player, seconds, &settings);
            (played.best, played.value, played.nodes)
        }
    };
    Answer {
        best,
        value,
        nodes,
        depth: searched.unwrap_or(0),
        exact,
        elapsed: start.elapsed(),
        text: answer_text(board, player, best),
    }
}

/// A textbook search cut short by `deadline`: depth after depth, the
/// deepest completed one answering (depth 1 always completes, as it does
/// for the fast engine). Returns that decision, with the nodes of every
/// depth searched, and its depth.
fn deepened(
    board: &Board,
    player: Player,
    target: u32,
    deadline: &Deadline,
    search: fn(&Board, Player, u32, &dyn Fn() -> bool) -> Option<reference::Decision>,
) -> (reference::Decision, u32) {
    let first = search(board, player, 1, &|| false).expect("never stopped");
    let (mut last, mut nodes) = ((first, 1), first.nodes);
    for d in 2..=target {
        match search(board, player, d, &|| deadline.poll()) {
            Some(decision) => {
                nodes += decision.nodes;
                last = (decision, d);
            }
            None => break,
        }
    }
    last.0.nodes = nodes;
    last
}

fn decided(d: reference::Decision) -> (Move, i64, u64) {
    (d.best, d.value, d.nodes)
}
