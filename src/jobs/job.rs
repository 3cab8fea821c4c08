//! One job and the search that answers it: self-contained, so that any
//! process with the library (or the Python package) can run it.

use std::sync::Arc;
use std::time::Instant;

use parking_lot::Mutex;
use serde::{Deserialize, Serialize};

use crate::api::Grid;
use crate::engine::exact::compact_table_bytes;
use crate::engine::pool::in_pool;
use crate::game::{Board, Player};
use crate::search::{Compact, FastEngine, Threads, Window};

/// One null-window test: is the value of the position, searched `plies`
/// deep, at least `beta`?
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// The driver's name for it: results are matched back by it.
    pub id: u64,
    /// The position, in the JSON's one wire form (`values`, `cells` and
    /// `player` beside the other fields).
    #[serde(flatten)]
    pub grid: Grid,
    /// Plies to search: the empty cells, in a solve to the end.
    pub plies: u32,
    /// The test's threshold.
    pub beta: i64,
}

/// What a job proved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobResult {
    /// The job's id.
    pub id: u64,
    /// A fail-soft bound: the value is at least this if it is `>= beta`,
    /// at most this if it is below.
    pub value: i64,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time, in microseconds.
    pub micros: u64,
}

/// A job that cannot be run: it does not describe a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("job {id}: {why}")]
pub struct JobError {
    /// The job's id.
    pub id: u64,
    /// What is wrong.
    pub why: JobFault,
}

/// What is wrong with a job.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JobFault {
    /// Its board, values or player are refused as any written position's.
    #[error(transparent)]
    Position(#[from] crate::api::PositionError),
    /// It asks for no plies, or more than the empty cells.
    #[error("plies {plies} out of 1..={empty}")]
    Plies {
        /// The plies asked for.
        plies: u32,
        /// The empty cells.
        empty: u32,
    },
}

impl Job {
    /// The job testing `board` (`p` to move, `plies` deep) at `beta`.
    pub(crate) fn new(id: u64, board: &Board, p: Player, plies: u32, beta: i64) -> Job {
        Job {
            id,
            grid: Grid::of(board, p),
            plies,
            beta,
        }
    }

    /// The position, checked.
    pub fn position(&self) -> Result<(Board, Player), JobError> {
        let bad = |why: JobFault| JobError { id: self.id, why };
        // The same checks as every other written position.
        let (board, player) = self.grid.check().map_err(|e| bad(e.into()))?;
        if self.plies == 0 || self.plies > board.empty_count() {
            return Err(bad(JobFault::Plies {
                plies: self.plies,
                empty: board.empty_count(),
            }));
        }
        Ok((board, player))
    }
}

/// Answers `job` with the fast exact engine on `threads` threads (0: one
/// per core), on the process's kept table (see [`test`]).
pub fn run_job(job: &Job, threads: usize) -> Result<JobResult, JobError> {
    timed(job, |board, p| {
        in_pool(threads, |parallel| {
            test(board, p, job.plies, job.beta, parallel)
        })
    })
}

/// `job` answered by `test`, with the wall time it took.
fn timed(
    job: &Job,
    test: impl FnOnce(&Board, Player) -> (i64, u64),
) -> Result<JobResult, JobError> {
    let (board, p) = job.position()?;
    let start = Instant::now();
    let (value, nodes) = test(&board, p);
    Ok(JobResult {
        id: job.id,
        value,
        nodes,
        micros: u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
    })
}

/// The compact engine a process (or a simulated worker) answered its last
/// job with, and the board values it was built for: jobs of one solve
/// share a board, and what one job's search left in the table
/// (transpositions, the same positions tested at other windows) serves the
/// next and the jobs running beside it, as in one parallel search (the
/// table is built to be shared by threads).
pub(super) struct Kept {
    values: Vec<i32>,
    bytes: usize,
    compact: Arc<Compact>,
}

impl Kept {
    /// The table's size.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }
}

static KEPT: Mutex<Option<Kept>> = Mutex::new(None);

/// Lets the kept engine's table go (a runner whose solve is over).
pub(super) fn release_kept() {
    *KEPT.lock() = None;
}

/// The fail-soft test of `board` (`p` to move, `plies` deep) at `beta`,
/// with its node count: on the process's kept compact engine where the
/// board fits one, else on a table of its own.
pub(super) fn test(board: &Board, p: Player, plies: u32, beta: i64, parallel: bool) -> (i64, u64) {
    // The lock is held only to take the engine: jobs side by side in one
    // process search on it together.
    test_on(
        |bytes| kept_on(&mut KEPT.lock(), board, bytes),
        board,
        p,
        plies,
        beta,
        parallel,
    )
}

/// [`run_job`] on one thread with `kept` as the process's kept engine: a
/// worker of a simulated cluster, each with a table of its own.
pub(super) fn run_job_kept(job: &Job, kept: &mut Option<Kept>) -> Result<JobResult, JobError> {
    timed(job, |board, p| {
        let kept = |bytes| kept_on(kept, board, bytes);
        test_on(kept, board, p, job.plies, job.beta, false)
    })
}

fn test_on(
    kept: impl FnOnce(usize) -> Option<Arc<Compact>>,
    board: &Board,
    p: Player,
    plies: u32,
    beta: i64,
    parallel: bool,
) -> (i64, u64) {
    // The table of a direct solve one ply deeper: the jobs of one solve
    // share it as the root's moves share the direct solve's (on a 22-empty
    // 5x5 solve cut at the root, half that cost 1.2x the nodes). A small
    // test would spend more time on a large table's memory than on its
    // search: about 4x more positions are stored per ply.
    let small = 1usize << (plies + 10).min(40);
    let bytes = compact_table_bytes(board.n(), board.empty_count(), plies + 1).min(small);
    let threads = Threads::pool_if(parallel);
    let window = Window::new(beta - 1, beta);
    let engine = match kept(bytes) {
        Some(compact) => FastEngine::Compact(compact, threads),
        None => FastEngine::exact_for(board, bytes, threads),
    };
    engine.search_once(board, p, plies, window)
}

/// The kept engine, made anew where `kept` was built for other values or
/// a smaller table; `None` where the board fits no compact engine.
fn kept_on(kept: &mut Option<Kept>, board: &Board, bytes: usize) -> Option<Arc<Compact>> {
    let n = board.n();
    let values: Vec<i32> = (0..n * n).map(|i| board.value(i / n, i % n)).collect();
    if kept
        .as_ref()
        .is_none_or(|k| k.values != values || k.bytes < bytes)
    {
        *kept = Compact::new(board, bytes).map(|c| Kept {
            values,
            bytes,
            compact: Arc::new(c),
        });
    }
    kept.as_ref().map(|k| k.compact.clone())
}
