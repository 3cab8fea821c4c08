//! The homework's path in one call: a parsed `input.txt` to the text of its
//! `output.txt`. An exact question is an [`analyse`](super::analyse) of its
//! position; a COMPETITION question is the competition player's move.

use std::time::{Duration, Instant};

use super::limits::check_threads;
use super::{analyse_inner, ApiError, Limits, Position, Watch};
use crate::engine::competition::{self, CompetitionOptions};
use crate::game::Move;
use crate::text::{answer_text, Problem, Question};

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

/// Answers `problem` within `limits`. The problem says what is asked: an
/// exact question's mode and depth take the place of `limits.mode` and
/// `limits.depth`, and the rest of `limits` (time, threads, engine,
/// table, stop flag, store) says how its search runs. A COMPETITION
/// question takes only `limits.threads`: its time is the problem's.
pub fn solve(problem: &Problem, limits: &Limits) -> Result<Answer, ApiError> {
    solve_watched(problem, limits, |_| {})
}

/// [`solve`], handing `on_start` the search's [`Watch`] before an exact
/// question's search starts (a COMPETITION move has none).
pub fn solve_watched(
    problem: &Problem,
    limits: &Limits,
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
                ..limits.clone()
            };
            // The output names the move only: no principal variation.
            let a = analyse_inner(&position, &limits, false, on_start, |_| {})?;
            (a.best, a.value, a.nodes, a.depth, a.exact)
        }
        Question::Competition { seconds } => {
            check_threads(limits.threads)?;
            let settings = CompetitionOptions {
                threads: limits.threads,
                stop: limits.stop.clone(),
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
