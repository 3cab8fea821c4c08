//! One job and the search that answers it: self-contained, so that any
//! process with the library (or the Python package) can run it.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use parking_lot::Mutex;
use serde::{Deserialize, Serialize};

use crate::api::Grid;
use crate::engine::exact::compact_table_bytes;
use crate::engine::pool::in_pool;
use crate::game::{Board, Player};
use crate::search::{Compact, Deadline, FastEngine, Threads, Window};
use crate::store::{Proof, Store, StoreUse};

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
    /// Nodes it may search: past them it stops unanswered, and the driver
    /// tests its children instead, as jobs of their own (a job that runs
    /// long is cut further). None: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub most_nodes: Option<u64>,
    /// Which table it would rather run on: a runner with several (one per
    /// machine) sends it to table `home % tables` when that one has an
    /// idle worker. The tests of one position at other windows, the jobs
    /// below one node [`Settings::home_plies`] down, and a stopped job's
    /// children share a home, and so find that table's entries from the
    /// searches before them.
    ///
    /// [`Settings::home_plies`]: crate::jobs::Settings::home_plies
    #[serde(default)]
    pub home: u64,
    /// Plies of the whole solve the job is part of (0: not known). A
    /// process answers many of a solve's jobs on one kept table, together
    /// the work of the solve, so the table is sized for the solve: sized
    /// for the job alone, a 21-empty solve cut 3 plies down searched 2.2x
    /// the direct solve's nodes on one worker, and 1.5x on the solve's
    /// table (`profiles/2026-11-26-vm/job-table.txt`).
    #[serde(default)]
    pub solve_plies: u32,
    /// Which positions of the job's search come back in
    /// [`JobResult::proofs`], for the driver to hand to the other
    /// processes (see `Settings::share`). None: none come back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<Share>,
    /// Bounds other processes proved, which this process has not been
    /// told yet: its search finds them before it searches their positions.
    /// The runner fills it in from [`Driver::proofs_since`](super::Driver::proofs_since).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<Proof>,
}

/// Which proofs the processes of a cluster hand on to each other: those
/// of positions of at least `plies` plies that took at least `nodes`
/// nodes. Positions of fewer plies are not even looked up: there are too
/// many, and each lookup builds the position's text key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    /// The fewest nodes.
    pub nodes: u64,
    /// The fewest plies.
    pub plies: u32,
}

impl Share {
    /// Proofs of at least `nodes` nodes, of positions of 12 plies or more
    /// (as the solve store keeps them).
    pub fn nodes(nodes: u64) -> Share {
        Share { nodes, plies: 12 }
    }
}

/// What a job proved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobResult {
    /// The job's id.
    pub id: u64,
    /// A fail-soft bound: the value is at least this if it is `>= beta`,
    /// at most this if it is below. None: the job reached its
    /// [`Job::most_nodes`] first.
    pub value: Option<i64>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time, in microseconds.
    pub micros: u64,
    /// Of a job stopped at its budget: what its search had finished of the
    /// children the driver will test in its place, so that those are not
    /// searched again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Proved>,
    /// With [`Job::share`]: what this process's searches proved, of the
    /// positions it names, since this job started (this job's and any
    /// running beside it in the process).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proofs: Vec<Proof>,
}

/// Bounds a stopped job's search proved on one child of its position (the
/// one the driver tests on that cell, see `one_per_cell`), for
/// the child's side to move, one ply fewer: `lo <= value <= hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proved {
    /// The child's cell.
    pub row: usize,
    /// See `row`.
    pub col: usize,
    /// See [`Proved`].
    pub lo: i64,
    /// See [`Proved`].
    pub hi: i64,
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
            most_nodes: None,
            home: 0,
            solve_plies: 0,
            share: None,
            known: Vec::new(),
        }
    }

    fn asked(&self) -> Asked {
        Asked {
            plies: self.plies,
            beta: self.beta,
            most_nodes: self.most_nodes,
            solve_plies: self.solve_plies,
            share: self.share,
        }
    }

    /// The size of the table a process answers it on (see
    /// [`table_bytes`]): a kept table smaller than this is made anew.
    pub(super) fn table_bytes(&self) -> Result<usize, JobError> {
        let (board, _) = self.position()?;
        Ok(table_bytes(&board, self.asked()))
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
    run_job_until(job, threads, None)
}

/// [`run_job`], given up as soon as `stop` is set: a job the driver no
/// longer needs (see [`crate::jobs::Driver::unneeded`]). A job given up
/// answers nothing, as one stopped at its budget (its value is `None`),
/// and brings back no children: nobody asks for them.
pub fn run_job_until(
    job: &Job,
    threads: usize,
    stop: Option<Arc<AtomicBool>>,
) -> Result<JobResult, JobError> {
    timed(job, |board, p| {
        in_pool(threads, |parallel| {
            let kept = |bytes, share| kept_on(&mut KEPT.lock(), board, bytes, share);
            let deadline = Deadline::none().with_stop(stop);
            test_on(kept, board, p, job.asked(), &job.known, parallel, deadline)
        })
    })
}

/// `job` answered by `test`, with the wall time it took.
fn timed(job: &Job, test: impl FnOnce(&Board, Player) -> Answered) -> Result<JobResult, JobError> {
    let (board, p) = job.position()?;
    let start = Instant::now();
    let Answered {
        value,
        nodes,
        children,
        proofs,
    } = test(&board, p);
    Ok(JobResult {
        id: job.id,
        value,
        nodes,
        micros: u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
        children,
        proofs,
    })
}

/// What one test found: its bound (None if stopped at its budget), its
/// nodes, and, if stopped, what it had proved of the children.
pub(super) struct Answered {
    pub value: Option<i64>,
    pub nodes: u64,
    pub children: Vec<Proved>,
    pub proofs: Vec<Proof>,
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
    /// With [`Job::share`]: which proofs the compact engine keeps in its
    /// store (of what this process proved and was told).
    share: Option<Share>,
}

static KEPT: Mutex<Option<Kept>> = Mutex::new(None);

/// Lets the kept engine's table go (a runner whose solve is over).
pub(super) fn release_kept() {
    *KEPT.lock() = None;
}

/// One test as a search answers it: is the value of a position searched
/// `plies` deep at least `beta`? See [`Job`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Asked {
    pub plies: u32,
    pub beta: i64,
    pub most_nodes: Option<u64>,
    pub solve_plies: u32,
    pub share: Option<Share>,
}

/// The fail-soft test `asked` of `board` (`p` to move), with its node
/// count: on the process's kept compact engine where the board fits one,
/// else on a table of its own. None where it reached `most_nodes` first.
pub(super) fn test(board: &Board, p: Player, asked: Asked, parallel: bool) -> Answered {
    // The lock is held only to take the engine: jobs side by side in one
    // process search on it together.
    let kept = |bytes, share| kept_on(&mut KEPT.lock(), board, bytes, share);
    test_on(kept, board, p, asked, &[], parallel, Deadline::none())
}

/// [`run_job`] on one thread with `kept` as the process's kept engine, and
/// `deadline` besides the job's budget: a worker of a simulated cluster,
/// each process with a table of its own.
pub(super) fn run_job_kept(
    job: &Job,
    kept: &Mutex<Option<Kept>>,
    deadline: Deadline,
) -> Result<JobResult, JobError> {
    timed(job, |board, p| {
        let kept = |bytes, share| kept_on(&mut kept.lock(), board, bytes, share);
        test_on(kept, board, p, job.asked(), &job.known, false, deadline)
    })
}

fn test_on(
    kept: impl FnOnce(usize, Option<Share>) -> Option<Arc<Compact>>,
    board: &Board,
    p: Player,
    asked: Asked,
    known: &[Proof],
    parallel: bool,
    deadline: Deadline,
) -> Answered {
    let Asked {
        plies,
        beta,
        most_nodes,
        share,
        ..
    } = asked;
    let bytes = table_bytes(board, asked);
    let threads = Threads::pool_if(parallel);
    let window = Window::new(beta - 1, beta);
    let (engine, store) = match kept(bytes, share) {
        Some(compact) => {
            let store = compact.store().cloned();
            (FastEngine::Compact(compact, threads), store)
        }
        None => (FastEngine::exact_for(board, bytes, threads), None),
    };
    // What others proved, learned before the search so that it finds it;
    // what this process proves from here on goes back with the result.
    let told = store.map(|store| {
        for proof in known {
            store.learn(proof);
        }
        let since = store.changes();
        (store, since)
    });
    let deadline = deadline.with_nodes(most_nodes);
    let (value, nodes) = engine.search_once(board, p, plies, window, &deadline);
    let given_up = deadline.given_up();
    let children = match value {
        Some(_) => Vec::new(),
        None if given_up => Vec::new(),
        None => proved_children(&engine, board, p, plies),
    };
    let proofs = told.map_or_else(Vec::new, |(store, since)| store.proofs_since(since).0);
    Answered {
        value,
        nodes,
        children,
        proofs,
    }
}

/// The table for `asked`: the direct solve's of the whole solve it is part
/// of (one ply up where that is not known), since the jobs of one solve
/// share it as the root's moves share the direct solve's (on a 22-empty
/// 5x5 solve cut at the root, half that cost 1.2x the nodes). A small
/// solve would spend more time on a large table's memory than on its
/// search: about 4x more positions are stored per ply.
fn table_bytes(board: &Board, asked: Asked) -> usize {
    // Each ply fills one cell, so the solve's root had `up` more empty.
    let up = asked.solve_plies.saturating_sub(asked.plies).max(1);
    let plies = asked.plies + up;
    let small = 1usize << (plies + 10).min(40);
    compact_table_bytes(board.n(), board.empty_count() + up, plies).min(small)
}

/// What `engine`'s table holds, from finished searches, of the children
/// of `board` the driver tests in a stopped job's place. A table entry is
/// a bound a finished search proved (nothing is stored once a search is
/// stopped), at the same plies: what the driver's store holds.
fn proved_children(engine: &FastEngine, board: &Board, p: Player, plies: u32) -> Vec<Proved> {
    super::one_per_cell(board, p)
        .into_iter()
        .filter_map(|mv| {
            let mut child = board.clone();
            child.make(mv, p);
            let (lo, hi) = engine.table_bounds(&child, p.other(), plies - 1)?;
            Some(Proved {
                row: mv.row(),
                col: mv.col(),
                lo,
                hi,
            })
        })
        .collect()
}

/// The kept engine, made anew where `kept` was built for other values, a
/// smaller table, another sharing or a region that `board` leaves; `None` where the board fits no
/// compact engine. With `share`, the engine keeps the proofs it names in
/// a store of the process's own, in memory.
fn kept_on(
    kept: &mut Option<Kept>,
    board: &Board,
    bytes: usize,
    share: Option<Share>,
) -> Option<Arc<Compact>> {
    let n = board.n();
    let values: Vec<i32> = (0..n * n).map(|i| board.value(i / n, i % n)).collect();
    if kept.as_ref().is_none_or(|k| {
        k.values != values || k.bytes < bytes || k.share != share || !k.compact.covers(board)
    }) {
        *kept = Compact::new(board, bytes).map(|c| {
            let c = match share {
                Some(share) => c.with_store(StoreUse {
                    min_plies: share.plies,
                    min_nodes: share.nodes,
                    ..StoreUse::new(Arc::new(Store::in_memory(board)))
                }),
                None => c,
            };
            Kept {
                values,
                bytes,
                compact: Arc::new(c),
                share,
            }
        });
    }
    kept.as_ref().map(|k| k.compact.clone())
}
