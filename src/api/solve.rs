//! The homework's path in one call: a parsed `input.txt` to the text of its
//! `output.txt`. An exact question is an [`analyse`](super::analyse) of its
//! position; a COMPETITION question is the competition player's move.

use crate::store::StoreUse;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{analyse_inner, ApiError, Engine, Limits, Position, Watch};
use crate::engine::competition::{self, CompetitionOptions};
use crate::game::Move;
use crate::text::{answer_text, Problem, Question};

/// How to answer a problem.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Which search answers an exact question.
    pub engine: Engine,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Transposition table size in bytes for the fast engine (default:
    /// sized for the search).
    pub table_bytes: Option<usize>,
    /// Wall-time limit of an exact question: when it runs out, the deepest
    /// depth completed answers, and [`Answer::exact`] is false.
    pub time: Option<Duration>,
    /// Setting this flag (from any thread) stops an exact question's search as
    /// the time limit does.
    pub stop: Option<Arc<AtomicBool>>,
    /// A solve store the fast engine reads first and adds to.
    pub store: Option<StoreUse>,
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
    /// False when the time limit or the stop flag cut the search short of
    /// the asked depth: the answer is then the one of `depth` plies, not
    /// the textbook answer.
    pub exact: bool,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The text of `output.txt`.
    pub text: String,
}

/// Answers `problem`.
pub fn solve(problem: &Problem, options: &SolveOptions) -> Result<Answer, ApiError> {
    solve_watched(problem, options, |_| {})
}

/// [`solve`], handing `on_start` the search's [`Watch`] before an exact
/// question's search starts (a COMPETITION move has none).
pub fn solve_watched(
    problem: &Problem,
    options: &SolveOptions,
    on_start: impl FnOnce(Watch),
) -> Result<Answer, ApiError> {
    let start = Instant::now();
    let position = Position::from_problem(problem)?;
    let (board, player) = (position.board(), position.player());
    let (best, value, nodes, depth, exact) = match problem.question {
        Question::Exact { mode, depth } => {
            let limits = Limits {
                mode,
                depth: Some(depth),
                time: options.time,
                threads: options.threads,
                engine: options.engine,
                table_bytes: options.table_bytes,
                stop: options.stop.clone(),
                store: options.store.clone(),
            };
            // The output names the move only: no principal variation.
            let a = analyse_inner(&position, &limits, false, on_start, |_| {})?;
            (a.best, a.value, a.nodes, a.depth, a.exact)
        }
        Question::Competition { seconds } => {
            if options.threads > super::MAX_THREADS {
                return Err(ApiError::TooManyThreads(options.threads));
            }
            let settings = CompetitionOptions {
                threads: options.threads,
                ..CompetitionOptions::default()
            };
            let played = competition::play(board, player, seconds, &settings);
            (played.best, played.value, played.nodes, 0, true)
        }
    };
    Ok(Answer {
        best,
        value,
        nodes,
        depth,
        exact,
        elapsed: start.elapsed(),
        text: answer_text(board, player, best),
    })
}
