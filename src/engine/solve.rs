//! One entry point from a [`Problem`] to its answer.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::competition::{self, CompetitionOptions};
use super::exact::exact_search;
use super::pool::in_pool;
use crate::game::Move;
use crate::search::{reference, Deadline};
use crate::text::{answer_text, Mode, Problem};

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
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveOptions {
    /// Engine for MINIMAX / ALPHABETA.
    pub engine: EngineKind,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
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
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The text of `output.txt`.
    pub text: String,
}

/// Answers `problem`.
pub fn solve(problem: &Problem, options: &SolveOptions) -> Answer {
    let start = Instant::now();
    let (board, player) = (&problem.board, problem.player);
    let (best, value, nodes) = match (options.engine, problem.mode) {
        (EngineKind::Reference, Mode::Minimax { depth }) => {
            decided(reference::minimax(board, player, depth))
        }
        (EngineKind::Reference, Mode::AlphaBeta { depth }) => {
            decided(reference::alphabeta(board, player, depth))
        }
        (EngineKind::Fast, Mode::Minimax { depth } | Mode::AlphaBeta { depth }) => {
            // MINIMAX asks for the same move as ALPHABETA; it also proves
            // every root value, as `analyse` reports them for that mode.
            let all_exact = matches!(problem.mode, Mode::Minimax { .. });
            let target = depth.min(board.empty_count());
            let stop = Arc::new(Deadline::none());
            let run = in_pool(options.threads, |par| {
                exact_search(board, player, target, all_exact, par, &stop, &|_, _| {})
            });
            (run.best, run.value, run.nodes)
        }
        (_, Mode::Competition { seconds }) => {
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
        elapsed: start.elapsed(),
        text: answer_text(board, player, best),
    }
}

fn decided(d: reference::Decision) -> (Move, i64, u64) {
    (d.best, d.value, d.nodes)
}
