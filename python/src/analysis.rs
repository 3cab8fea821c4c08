//! `analyse` and what it returns: `Analysis` and its `RootMove`s.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use pyo3::prelude::*;

use stakeraid::api::{self, Limits, SearchMode};

use crate::errors::{depth as checked_depth, thread_count, value_error};
use crate::interrupt::interruptible;
use crate::moves::PyMove;
use crate::position::{player_name, PyPosition};
use crate::stop::StopToken;

/// One root move with what the search proved about its value.
#[pyclass(name = "RootMove", module = "stakeraid", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyRootMove(api::RootMove);

#[pymethods]
impl PyRootMove {
    /// The move.
    #[getter]
    fn r#move(&self) -> PyMove {
        PyMove(self.0.mv)
    }

    /// Its value for the player to move, or an upper bound of it.
    #[getter]
    fn value(&self) -> i64 {
        self.0.value
    }

    /// `"exact"`, or `"upper"` where the search only proved the value is at
    /// most `value` (the move is not chosen).
    #[getter]
    fn bound(&self) -> &'static str {
        match self.0.bound {
            api::Bound::Exact => "exact",
            api::Bound::Upper => "upper",
            api::Bound::Lower => "lower",
        }
    }

    fn __repr__(&self) -> String {
        let op = match self.0.bound {
            api::Bound::Exact => "",
            api::Bound::Upper => "<=",
            api::Bound::Lower => ">=",
        };
        format!("RootMove({} {op}{})", self.0.mv, self.0.value)
    }
}

/// The result of `analyse`: the JSON object of `to_json()` as attributes,
/// `best` and `pv` as `Move`s (each `==` to its text, `a.best == "C3
/// Raid"`) and `moves` as `RootMove`s. Every value is the game score from
/// `player`'s point of view at the depth searched. Two are equal when every
/// field is, node count and time included.
#[pyclass(name = "Analysis", module = "stakeraid", frozen, eq)]
#[derive(PartialEq)]
pub struct PyAnalysis(pub(crate) api::Analysis);

#[pymethods]
impl PyAnalysis {
    /// The player to move, `"X"` or `"O"`.
    #[getter]
    fn player(&self) -> String {
        player_name(self.0.player)
    }

    /// `"MINIMAX"` or `"ALPHABETA"`.
    #[getter]
    fn mode(&self) -> &'static str {
        self.0.mode.name()
    }

    /// The chosen move: the first in canonical order whose value is maximal
    /// (`==` to its text, as every `Move` is).
    #[getter]
    fn best(&self) -> PyMove {
        PyMove(self.0.best)
    }

    /// The chosen move's value (exact at `depth`).
    #[getter]
    fn value(&self) -> i64 {
        self.0.value
    }

    /// The board after `best`, one string per row.
    #[getter]
    fn board(&self) -> Vec<String> {
        self.0.board.clone()
    }

    /// Every legal root move in canonical order with its value and bound.
    #[getter]
    fn moves(&self) -> Vec<PyRootMove> {
        self.0.moves.iter().copied().map(PyRootMove).collect()
    }

    /// The principal variation, `best` first.
    #[getter]
    fn pv(&self) -> Vec<PyMove> {
        self.0.pv.iter().copied().map(PyMove).collect()
    }

    /// The depth the answer comes from.
    #[getter]
    fn depth(&self) -> u32 {
        self.0.depth
    }

    /// The depth asked for, capped at the number of empty cells.
    #[getter]
    fn requested_depth(&self) -> u32 {
        self.0.requested_depth
    }

    /// True when `best` and `value` are the exact answer at `requested_depth`.
    #[getter]
    fn exact(&self) -> bool {
        self.0.exact
    }

    /// True when a stop or the time limit cut some work short.
    #[getter]
    fn stopped(&self) -> bool {
        self.0.stopped
    }

    /// Positions searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }

    /// Wall time of the search in microseconds.
    #[getter]
    fn time_us(&self) -> u64 {
        self.0.time_us
    }

    /// The text of `output.txt`: the move line, then the board after it.
    fn output_text(&self) -> String {
        self.0.output_text()
    }

    /// The root moves best first (by value, exact before bounds, then
    /// canonical order); the chosen move is first.
    fn ranked(&self) -> Vec<PyRootMove> {
        self.0.ranked().into_iter().map(PyRootMove).collect()
    }

    /// The analysis as the JSON object of `stakeraid solve --json`.
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.0).map_err(value_error)
    }

    /// The analysis a `to_json()` text describes (`ValueError` if it
    /// describes none).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        serde_json::from_str(text)
            .map(PyAnalysis)
            .map_err(value_error)
    }

    /// Pickles as its JSON (for `multiprocessing` and Ray).
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, (String,))> {
        let from_json = slf.get_type().getattr("from_json")?.unbind();
        Ok((from_json, (slf.get().to_json()?,)))
    }

    fn __repr__(&self) -> String {
        format!(
            "Analysis(best={}, value={}, depth={}, exact={}, nodes={})",
            self.0.best,
            self.0.value,
            self.0.depth,
            if self.0.exact { "True" } else { "False" },
            self.0.nodes
        )
    }
}

pub(crate) fn search_mode(mode: &str) -> PyResult<SearchMode> {
    if mode.eq_ignore_ascii_case("COMPETITION") {
        return Err(value_error(api::ApiError::NotExact("COMPETITION")));
    }
    mode.parse().map_err(value_error)
}

/// Analyses `position`: the move the textbook search chooses, its value,
/// every root move's value and the principal variation.
///
/// `mode` is `"ALPHABETA"` (moves proved not chosen may carry only an
/// upper bound) or `"MINIMAX"` (every root value exact); both choose the
/// same move. Give `depth` (plies, at least 1), `time` (wall seconds) or
/// both. `threads=0` uses one per core. `stop`, a `StopToken`, stops the
/// search from another thread; Ctrl-C stops it and raises
/// `KeyboardInterrupt`. The interpreter is released while it runs.
#[pyfunction]
#[pyo3(signature = (position, mode = "ALPHABETA", depth = None, time = None, threads = 0, stop = None))]
pub(crate) fn analyse(
    py: Python<'_>,
    position: &PyPosition,
    mode: &str,
    depth: Option<i64>,
    time: Option<f64>,
    threads: i64,
    stop: Option<&StopToken>,
) -> PyResult<PyAnalysis> {
    let depth = checked_depth(depth)?;
    let time = time_limit(time)?;
    let halt = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        mode: search_mode(mode)?,
        depth,
        time,
        threads: thread_count(threads)?,
        stop: Some(halt.clone()),
        ..Limits::default()
    };
    let position = position.api_position()?;
    let _held = stop.map(|token| token.hold(&halt));
    let empties = position.board().empty_count();
    let analysis = if tree_size(empties, depth.unwrap_or(empties)) <= IN_PLACE_NODES {
        py.detach(|| api::analyse(&position, &limits))
    } else {
        interruptible(py, &halt, || api::analyse(&position, &limits))?
    };
    analysis.map(PyAnalysis).map_err(value_error)
}

/// A time limit from Python: seconds, at least 0.
pub(crate) fn time_limit(time: Option<f64>) -> PyResult<Option<Duration>> {
    match time {
        None => Ok(None),
        Some(t) if t.is_nan() || t < 0.0 => Err(value_error(format!(
            "time must be a number of seconds >= 0, got {t}"
        ))),
        // Too long for a Duration is as good as no limit.
        Some(t) => Ok(Some(
            Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX),
        )),
    }
}

/// Searches of at most this many positions end in well under a millisecond,
/// sooner than a thread of their own starts: they run on the calling
/// thread, where Ctrl-C has to wait for them.
const IN_PLACE_NODES: u64 = 10_000;

/// The positions of the whole tree `depth` plies deep from a board with
/// `empties` empty cells, counting every cell as both a Stake and a Raid:
/// at least as many as any search of it visits.
fn tree_size(empties: u32, depth: u32) -> u64 {
    let mut width = 1u64;
    let mut total = 1u64;
    for left in (empties.saturating_sub(depth) + 1..=empties).rev() {
        width = width.saturating_mul(2 * u64::from(left));
        total = total.saturating_add(width);
    }
    total
}
