//! `analyse_batch`, the work of Python's `analyse_many`: a batch of
//! positions, spread over the cores, answered in order; and `BatchError`,
//! which carries the answers of a batch where some position failed.

use std::borrow::Cow;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use stakeraid::api::{self, ApiError, Limits, Sharing};
use stakeraid::{parse_problem, Question};

use crate::analysis::{search_mode, time_limit, PyAnalysis};
use crate::errors::{depth as checked_depth, thread_count, value_error};
use crate::interrupt::interruptible;
use crate::position::PyPosition;
use crate::stop::StopToken;

pyo3::create_exception!(
    stakeraid,
    BatchError,
    PyValueError,
    "Some positions of an `analyse_many` batch failed. `results` holds one \
     entry per position, in order: its `Analysis`, or the `ValueError` that \
     position raised; `failed` the indices of the failed ones."
);

/// How each position of a batch is searched, as `analyse_many`'s `mode`,
/// `depth` and `time` ask: a `Position` in `mode` to `depth` plies and/or
/// for `time` seconds (with neither, to the end of the game); the text of
/// an `input.txt` in its own mode to its own depth, `time` applying to it
/// too.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct EachSearch {
    mode: String,
    depth: Option<i64>,
    time: Option<f64>,
}

impl EachSearch {
    /// The limits of a `Position`'s search, stopped by `halt`.
    fn limits(&self, halt: &Arc<AtomicBool>) -> PyResult<Limits> {
        let depth = match checked_depth(self.depth)? {
            // Neither a depth nor a time: the exact solve to the end.
            None if self.time.is_none() => Some(u32::MAX),
            depth => depth,
        };
        Ok(Limits {
            mode: search_mode(&self.mode)?,
            depth,
            time: time_limit(self.time)?,
            stop: Some(halt.clone()),
            ..Limits::default()
        })
    }
}

/// What a batch may take of the machine, as `analyse_many`'s `threads`
/// (0: one per core) and `table_budget` (the bytes the tables of the
/// searches in flight take together; default 1 GiB) give it.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct Budget {
    threads: i64,
    table_budget: Option<i64>,
}

impl Budget {
    fn sharing(&self) -> PyResult<Sharing> {
        let table_bytes = match self.table_budget {
            None => api::DEFAULT_TABLE_BYTES,
            Some(b) => usize::try_from(b).ok().filter(|&b| b > 0).ok_or_else(|| {
                value_error(format!(
                    "table_budget must be a number of bytes > 0, got {b}"
                ))
            })?,
        };
        Ok(Sharing {
            threads: thread_count(self.threads)?,
            table_bytes,
            ..Sharing::default()
        })
    }
}

/// `stakeraid.analyse_many`'s work, its arguments grouped as it passes
/// them: one `Analysis` per position, in order, each searched as `search`
/// says, the batch within `budget` (the interpreter released while it
/// runs). `stop`, a `StopToken`, stops the whole batch, every position
/// still answered (a position not yet started at depth 1); Ctrl-C stops it
/// and raises `KeyboardInterrupt`. A failed position costs the others
/// nothing: `errors="raise"` raises a `BatchError` carrying every answer
/// once all are done, `"return"` puts its `ValueError` in the list. Bad
/// arguments raise `ValueError` before any search.
#[pyfunction]
pub(crate) fn analyse_batch(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    search: EachSearch,
    budget: Budget,
    stop: Option<&StopToken>,
    errors: &str,
) -> PyResult<Py<PyAny>> {
    let raise = match errors {
        "raise" => true,
        "return" => false,
        _ => {
            return Err(value_error(format!(
                "errors must be \"raise\" or \"return\", got {errors:?}"
            )))
        }
    };
    let batch = budget.sharing()?;
    let halt = Arc::new(AtomicBool::new(false));
    let limits = search.limits(&halt)?;

    // What each entry asks, or why it cannot be asked: the texts are read
    // once the GIL is released, side by side: on a batch of small
    // positions, reading is a share of the work worth spreading.
    let mut entries = Vec::new();
    for (i, entry) in positions.try_iter()?.enumerate() {
        // A million entries take seconds to take in: Ctrl-C meanwhile.
        if i % 4096 == 4095 {
            py.check_signals()?;
        }
        entries.push(Entry::of(&entry?, &limits));
    }
    let _held = stop.map(|token| token.hold(&halt));
    // Ctrl-C gives the batch up (its answers are not returned): the
    // positions not started are dropped, not each searched a ply deep.
    let interrupted = AtomicBool::new(false);
    let (asked, mut answers, jobs) = interruptible(py, &interrupted, || {
        let mut jobs = Vec::new();
        let asked: Vec<PyResult<usize>> = read_all(entries, &limits, batch.threads)
            .into_iter()
            .map(|read| {
                read.map(|job| {
                    jobs.push(job);
                    jobs.len() - 1
                })
            })
            .collect();
        let answers = api::analyse_each_interruptible(&jobs, &batch, &interrupted);
        // Given back to be dropped here, the interpreter held: they hold
        // the caller's positions.
        (asked, answers, jobs)
    })?;
    drop(jobs);
    let results = PyList::empty(py);
    let mut failed = Vec::new();
    for (i, asked) in asked.into_iter().enumerate() {
        let answer = asked.and_then(|j| {
            // Not interrupted: every position answered, once.
            let answer = answers[j].take().expect("each answer is taken once");
            answer.map_err(value_error)
        });
        match answer {
            Ok(analysis) => results.append(Py::new(py, PyAnalysis(analysis))?)?,
            Err(e) => {
                failed.push(i);
                results.append(e.into_value(py))?;
            }
        }
    }
    if raise && !failed.is_empty() {
        let first = results.get_item(failed[0])?;
        let message = format!(
            "{} of {} positions failed; the first, position {}: {}",
            failed.len(),
            results.len(),
            failed[0],
            first.str()?
        );
        let error = BatchError::new_err(message);
        let value = error.value(py);
        value.setattr("results", results)?;
        value.setattr("failed", failed)?;
        return Err(error);
    }
    Ok(results.into_any().unbind())
}

/// An entry of a batch as the GIL-holding pass leaves it: a `Position`
/// with the batch's limits, or an `input.txt` text, read later with its
/// own mode and depth.
enum Entry {
    Asked(Py<PyPosition>, Limits),
    Text(String),
}

impl Entry {
    fn of(entry: &Bound<'_, PyAny>, limits: &Limits) -> PyResult<Entry> {
        if let Ok(position) = entry.extract::<Py<PyPosition>>() {
            // Refused now if it has no move (the copy made to ask is
            // dropped at once); copied again only when its search is
            // queued.
            position.get().api_position()?;
            return Ok(Entry::Asked(position, limits.clone()));
        }
        match entry.extract::<String>() {
            Ok(text) => Ok(Entry::Text(text)),
            Err(_) => Err(value_error(format!(
                "expected a Position or the text of an input.txt, got {}",
                entry.get_type().name()?
            ))),
        }
    }
}

type Job = (Queued, Limits);

/// A position of the batch as its search will get it: a `Position` of
/// the caller's, read without the interpreter (it is frozen) and copied
/// only when its search is queued, or one read from a text, boxed. A board
/// is 4 KiB, and a batch may hold a million.
enum Queued {
    Held(Py<PyPosition>),
    Read(Box<api::Position>),
}

impl api::BatchPosition for Queued {
    fn position(&self) -> Cow<'_, api::Position> {
        match self {
            Queued::Held(position) => Cow::Owned(
                position
                    .get()
                    .api_position()
                    .expect("a position with no move is refused when taken in"),
            ),
            Queued::Read(position) => Cow::Borrowed(position),
        }
    }
}

/// Every entry's job, the texts read on `threads` threads (0: one per
/// core).
fn read_all(entries: Vec<PyResult<Entry>>, limits: &Limits, threads: usize) -> Vec<PyResult<Job>> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    // A thread start costs more than reading a few texts.
    let threads = threads.min(entries.len() / 64).max(1);
    let chunk = entries.len().div_ceil(threads).max(1);
    let mut entries = entries.into_iter();
    let chunks: Vec<Vec<PyResult<Entry>>> = std::iter::from_fn(|| {
        let part: Vec<_> = entries.by_ref().take(chunk).collect();
        (!part.is_empty()).then_some(part)
    })
    .collect();
    let read = |part: Vec<PyResult<Entry>>| -> Vec<PyResult<Job>> {
        part.into_iter()
            .map(|entry| match entry? {
                Entry::Asked(position, limits) => Ok((Queued::Held(position), limits)),
                Entry::Text(text) => job(&text, limits),
            })
            .collect()
    };
    // Each part waits in a slot for its thread, and is read here instead
    // where no thread can be started.
    let slots: Vec<Mutex<Option<Vec<PyResult<Entry>>>>> = chunks
        .into_iter()
        .map(|part| Mutex::new(Some(part)))
        .collect();
    let take = |slot: &Mutex<Option<Vec<PyResult<Entry>>>>| {
        let part = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        read(part.unwrap_or_default())
    };
    std::thread::scope(|scope| {
        let parts: Vec<_> = slots
            .iter()
            .map(|slot| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, || take(slot))
                    .map_err(|_| take(slot))
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|part| match part {
                Ok(thread) => thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(read_here) => read_here,
            })
            .collect()
    })
}

/// The position and limits an input.txt's text asks for.
fn job(text: &str, limits: &Limits) -> PyResult<Job> {
    let problem = parse_problem(text.as_bytes()).map_err(value_error)?;
    let position = api::Position::from_problem(&problem).map_err(value_error)?;
    let limits = match problem.question {
        Question::Exact { mode, depth } => Limits {
            mode,
            depth: Some(depth),
            ..limits.clone()
        },
        Question::Competition { .. } => {
            return Err(value_error(ApiError::NotExact(problem.question.name())))
        }
    };
    Ok((Queued::Read(Box::new(position)), limits))
}
