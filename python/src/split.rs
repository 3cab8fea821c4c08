//! Split solves for runners written in Python (`stakeraid.cluster`): the
//! library's job driver and the search that answers one job. Jobs and
//! results cross as JSON text, which pickles and travels to other
//! machines as it is.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use stakeraid::api::{self, Grid};
use stakeraid::jobs::{max_split, run_job_until, Driver, Hint, Job, JobResult, Settings, Share};
use stakeraid::search::RootValue;
use stakeraid::store::{Store, StoreError};
use stakeraid::{check_move, Move};

use crate::errors::value_error;
use crate::interrupt::interruptible;
use crate::stop::StopToken;

fn store_error(e: StoreError) -> PyErr {
    match e {
        StoreError::Io { .. } => PyOSError::new_err(e.to_string()),
        e => value_error(e),
    }
}

/// A split solve in progress: the top of the game tree as null-window
/// tests waiting on jobs. `take_jobs(n)` hands out up to `n` jobs (JSON
/// text for `run_job`), `finish(result)` takes one back, in any order and
/// from any machine, and `answer` is set once every root move is settled
/// (`take_jobs` itself may settle the last ones: check `answer` after it).
/// `grid` is `(values, cells, player)` as `Position` takes them. With
/// `store`, every proven bound is written to that file as it is
/// proved, and a new `SplitSolve` on the same file resumes. `hint`,
/// `(move, value)` from an earlier solve, has that move tested first at
/// that value: the answer is the same whatever the hint, and a right one
/// leaves the least to prove.
#[pyclass(name = "SplitSolve", module = "stakeraid")]
pub(crate) struct PySplitSolve {
    driver: Driver,
    store: Option<Arc<Store>>,
}

/// How the driver cuts the tree, beyond the split itself: the keyword
/// arguments `inline_plies`, `order_plies`, `speculate`, `job_nodes`,
/// `ahead`, `spare`, `share_nodes` and `home_plies` (see
/// `stakeraid::jobs::Settings`).
struct Cut {
    inline_plies: u32,
    order_plies: u32,
    speculate: bool,
    job_nodes: Option<u64>,
    ahead: bool,
    spare: bool,
    share_nodes: Option<u64>,
    home_plies: u32,
}

impl Cut {
    fn of(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Cut> {
        let defaults = Settings::default();
        let mut cut = Cut {
            inline_plies: defaults.inline_plies,
            order_plies: defaults.order_plies,
            speculate: defaults.speculate,
            job_nodes: defaults.job_nodes,
            ahead: defaults.ahead,
            spare: defaults.spare,
            share_nodes: defaults.share.map(|s| s.nodes),
            home_plies: defaults.home_plies,
        };
        for (key, value) in kwargs.into_iter().flatten() {
            match key.extract::<String>()?.as_str() {
                "inline_plies" => cut.inline_plies = value.extract()?,
                "order_plies" => cut.order_plies = value.extract()?,
                "speculate" => cut.speculate = value.extract()?,
                "job_nodes" => cut.job_nodes = value.extract()?,
                "ahead" => cut.ahead = value.extract()?,
                "spare" => cut.spare = value.extract()?,
                "share_nodes" => cut.share_nodes = value.extract()?,
                "home_plies" => cut.home_plies = value.extract()?,
                other => {
                    return Err(PyTypeError::new_err(format!(
                        "SplitSolve() got an unexpected keyword argument '{other}'"
                    )))
                }
            }
        }
        if cut.job_nodes == Some(0) {
            return Err(value_error("job_nodes must be at least 1"));
        }
        Ok(cut)
    }
}

#[pymethods]
impl PySplitSolve {
    #[new]
    #[pyo3(signature = (grid, depth = None, split = 3, store = None, hint = None, **cut))]
    fn new(
        py: Python<'_>,
        grid: (Vec<Vec<i64>>, Vec<String>, String),
        depth: Option<u32>,
        split: u32,
        store: Option<PathBuf>,
        hint: Option<(String, i64)>,
        cut: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let cut = Cut::of(cut)?;
        let (values, cells, player) = grid;
        let grid = Grid {
            values,
            cells,
            player,
        };
        let position = api::Position::from_grid(&grid).map_err(value_error)?;
        let board = position.board();
        let plies = depth.unwrap_or(u32::MAX);
        let most = max_split(board, plies);
        if split == 0 || split > most {
            return Err(value_error(format!(
                "split must be 1 to {most} for a solve {} plies deep",
                plies.min(board.empty_count())
            )));
        }
        let hint = match hint {
            Some((text, value)) => {
                let best: Move = text
                    .parse()
                    .map_err(|e| value_error(format!("hint: {e}")))?;
                check_move(board, position.player(), best)
                    .map_err(|e| value_error(format!("hint: {best}: {e}")))?;
                Some(Hint { best, value })
            }
            None => None,
        };
        let store = match store {
            Some(path) => Some(Arc::new(Store::open(&path, board).map_err(store_error)?)),
            None => None,
        };
        let settings = Settings {
            split,
            inline_plies: cut.inline_plies,
            order_plies: cut.order_plies,
            store: store.clone(),
            speculate: cut.speculate,
            hint,
            job_nodes: cut.job_nodes,
            ahead: cut.ahead,
            spare: cut.spare,
            share: cut.share_nodes.map(Share::nodes),
            home_plies: cut.home_plies,
            ..Settings::default()
        };
        // Its top plies are searched here, for their moves' order: the
        // interpreter released meanwhile.
        let player = position.player();
        let driver = py.detach(|| Driver::new(board, player, plies, settings));
        Ok(PySplitSolve { driver, store })
    }

    /// Up to `max` jobs to run now, as JSON text.
    fn take_jobs(&mut self, max: usize) -> PyResult<Vec<String>> {
        self.driver
            .take_jobs(max)
            .iter()
            .map(|job| serde_json::to_string(job).map_err(value_error))
            .collect()
    }

    /// Jobs to run now on a runner with several tables (one per node),
    /// `idle[t]` free on table `t`, each as (table, JSON text): a job goes
    /// to its home's table (`home % len(idle)`) where that has room.
    fn take_jobs_for(&mut self, idle: Vec<usize>) -> PyResult<Vec<(usize, String)>> {
        self.driver
            .take_jobs_for(&idle)
            .iter()
            .map(|(t, job)| Ok((*t, serde_json::to_string(job).map_err(value_error)?)))
            .collect()
    }

    /// `job` (JSON text) with the proofs the driver gained since the
    /// `since`-th added to it, for a process told everything before that
    /// (`share_nodes`), and where to start for that process next time.
    fn hand_on(&self, job: &str, since: usize) -> PyResult<(String, usize)> {
        let mut job: Job = serde_json::from_str(job).map_err(value_error)?;
        let (known, next) = self.driver.proofs_since(since);
        job.known = known;
        Ok((serde_json::to_string(&job).map_err(value_error)?, next))
    }

    /// Takes one job's result (the JSON text `run_job` returned). A result
    /// given twice is ignored. Raises if the store cannot be written.
    fn finish(&mut self, result: &str) -> PyResult<()> {
        let result: JobResult = serde_json::from_str(result).map_err(value_error)?;
        self.driver.finish(&result);
        match self.driver.store_failure() {
            Some(e) => Err(store_error(e)),
            None => Ok(()),
        }
    }

    /// Seals the store for a driver about to end before its answer (on
    /// Ctrl-C): its log folded into the file, none left beside it, no
    /// write after. Returns how many positions it keeps, or `None` without
    /// a store. Raises `OSError` if it cannot be sealed; the next solve
    /// then replays its log.
    fn seal(&self) -> PyResult<Option<u64>> {
        self.store
            .as_ref()
            .map(|store| store.seal().map_err(store_error))
            .transpose()
    }

    /// Ids of jobs handed out that are no longer needed (a runner may
    /// cancel them).
    fn unneeded(&self) -> Vec<u64> {
        self.driver.unneeded()
    }

    /// `None` until solved, then a dict: `best` (as in `output.txt`),
    /// `value`, and `moves`, every legal root move in canonical order as
    /// `(move, value, bound)` with bound `"exact"` or `"upper"`.
    #[getter]
    fn answer<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(answer) = self.driver.answer() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("best", answer.best.to_string())?;
        d.set_item("value", answer.value)?;
        let moves: Vec<(String, i64, &str)> = answer
            .moves
            .iter()
            .map(|&(mv, v)| match v {
                RootValue::Exact(v) => (mv.to_string(), v, "exact"),
                RootValue::AtMost(v) => (mv.to_string(), v, "upper"),
            })
            .collect();
        d.set_item("moves", moves)?;
        Ok(Some(d))
    }

    /// Jobs done, running and queued, nodes, tests the store settled, root
    /// moves settled and in all; with a store, its counts too.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.driver.stats();
        let d = PyDict::new(py);
        d.set_item("done", s.done)?;
        d.set_item("running", s.running)?;
        d.set_item("queued", s.queued)?;
        d.set_item("nodes", s.nodes)?;
        d.set_item("from_store", s.from_store)?;
        d.set_item("root_done", s.root_done)?;
        d.set_item("root_moves", s.root_moves)?;
        d.set_item("stopped", s.stopped)?;
        d.set_item("proofs", s.proofs)?;
        if let Some(store) = &self.store {
            let st = store.stats();
            d.set_item("store_positions", st.positions)?;
            d.set_item("store_loaded", st.loaded)?;
            d.set_item("store_written", st.written)?;
        }
        Ok(d)
    }
}

/// Answers one job (JSON text from `SplitSolve.take_jobs`) with the exact
/// engine on `threads` threads, the interpreter released, and returns the
/// result as JSON text for `SplitSolve.finish`. With `stop`, stopping that
/// token gives the job up: a job the driver no longer needs.
#[pyfunction]
#[pyo3(signature = (job, threads = 1, stop = None))]
pub(crate) fn run_job(
    py: Python<'_>,
    job: &str,
    threads: usize,
    stop: Option<&StopToken>,
) -> PyResult<String> {
    let job: Job = serde_json::from_str(job).map_err(value_error)?;
    let threads = threads.min(api::MAX_THREADS);
    let halt = Arc::new(AtomicBool::new(false));
    let _held = stop.map(|token| token.hold(&halt));
    let result = interruptible(py, &halt, || {
        run_job_until(&job, threads, Some(halt.clone()))
    })?
    .map_err(value_error)?;
    serde_json::to_string(&result).map_err(value_error)
}

/// The `home_plies` for a cluster of `machines` (see
/// `stakeraid::jobs::Settings::home_plies_for`).
#[pyfunction]
pub(crate) fn home_plies_for(machines: usize) -> u32 {
    Settings::home_plies_for(machines)
}
