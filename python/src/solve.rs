//! The answers the command line gives: `output.txt` for an `input.txt`, and
//! the competition engine's move.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pyo3::prelude::*;

use stakeraid::competition::{self, CompetitionOptions};
use stakeraid::{parse_problem, solve, Limits};

use crate::errors::{thread_count, value_error};
use crate::interrupt::interruptible;
use crate::moves::PyMove;
use crate::position::PyPosition;

/// The text of `output.txt` for the text of an `input.txt`, byte for byte
/// what the `stakeraid` command writes (COMPETITION inputs included).
/// Raises `ValueError` naming the line and the reason on a bad input.
/// Ctrl-C stops a MINIMAX or ALPHABETA search and raises
/// `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (input_text, threads = 0))]
pub(crate) fn solve_text(py: Python<'_>, input_text: &str, threads: i64) -> PyResult<String> {
    let problem = parse_problem(input_text.as_bytes()).map_err(value_error)?;
    let halt = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        threads: thread_count(threads)?,
        stop: Some(halt.clone()),
        ..Limits::default()
    };
    interruptible(py, &halt, || solve(&problem, &limits))?
        .map(|answer| answer.text)
        .map_err(value_error)
}

/// The competition engine's move for the player to move, with
/// `seconds_left` CPU seconds for all of that player's remaining moves
/// (it spends a share of them on this move, never all).
#[pyfunction]
#[pyo3(signature = (position, seconds_left, threads = 0))]
pub(crate) fn competition_move(
    py: Python<'_>,
    position: &PyPosition,
    seconds_left: f64,
    threads: i64,
) -> PyResult<PyMove> {
    if !(seconds_left.is_finite() && seconds_left >= 0.0) {
        return Err(value_error(format!(
            "seconds_left must be a finite number >= 0, got {seconds_left}"
        )));
    }
    let position = position.api_position()?;
    // The engine runs inside this process: no start-up per move to set aside.
    let halt = Arc::new(AtomicBool::new(false));
    let options = CompetitionOptions {
        threads: thread_count(threads)?,
        overhead: competition::IN_PROCESS_OVERHEAD,
        stop: Some(halt.clone()),
        ..CompetitionOptions::default()
    };
    let played = interruptible(py, &halt, || {
        competition::play(position.board(), position.player(), seconds_left, &options)
    })?;
    Ok(PyMove(played.best))
}
