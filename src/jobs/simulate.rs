//! What a split solve would take on a cluster, from its jobs' measured
//! durations.
//!
//! The model: the driver runs against a clock of its own, and its work
//! counts in full, since it is sequential. Each of `workers` workers runs
//! one job at a time on one thread; a job handed out goes to an idle
//! worker (see the tables below), is answered for real, here, on that
//! worker's table, and takes on the clock the time it took here plus the
//! cluster's latency (hand-out to start, end to result).
//! A job the driver finds unneeded while it runs is cancelled, as the
//! runners cancel it: its worker is free at once and only the part it ran
//! counts as work. The makespan is then the critical path the driver's
//! order allows on that many workers, and the summed job time the total
//! work, speculative jobs included.
//!
//! Tables: the workers of one process share one, kept from job to job
//! (threads: the local runner, or a cluster node running its jobs in one
//! process); processes each keep their own (a Ray task per CPU). So the
//! workers are cut into groups of `per_table`, each sharing a table. A job
//! goes to the worker idle longest on its home's table
//! ([`Job::home`](super::Job::home)), else to the one idle longest, as the
//! Ray runner sends it.
//! With [`Settings::share`], each table has a store of its own too
//! (a process's, see `Job::known`), and a job takes to its worker what the
//! driver holds of the other tables' proofs when it is handed out, and
//! brings back its own with its result: what a job sees and when is what
//! a runner that hands proofs on with the jobs gives it.
//! Tables are kept up to [`TABLE_BUDGET`] in all, the least recently used
//! dropped beyond it, so the model of many small groups is pessimistic
//! there: a real process would still hold its table.

use std::collections::VecDeque;
use std::time::Instant;

use super::driver::{Driver, Settings, SplitAnswer};
use super::job::{run_job_kept, JobResult, Kept};
use crate::game::{Board, Player};

/// Memory the simulated tables may take together.
pub const TABLE_BUDGET: usize = 4 << 30;

/// The cluster a split solve is simulated on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// Workers, each running one job at a time on one thread.
    pub workers: usize,
    /// Workers sharing one table (threads of one process): 1 where each
    /// worker is a process of its own, `workers` where all are threads of
    /// one; the last group may be smaller.
    pub per_table: usize,
    /// Microseconds a job spends outside its search: from the driver
    /// handing it out to its start, and from its end to the driver holding
    /// its result (a Ray task's overhead).
    pub latency_us: u64,
}

impl Cluster {
    /// `workers` threads of one process sharing a table, with no latency.
    pub fn threads(workers: usize) -> Cluster {
        Cluster {
            workers,
            per_table: workers,
            latency_us: 0,
        }
    }
}

/// One simulated split solve.
#[derive(Clone, Debug)]
pub struct Simulated {
    /// The answer (the direct solve's).
    pub answer: SplitAnswer,
    /// The cluster simulated.
    pub cluster: Cluster,
    /// Simulated wall time in microseconds: jobs on the workers, and the
    /// driver's own work between them.
    pub makespan_us: u64,
    /// Summed job time in microseconds (latency not included).
    pub work_us: u64,
    /// Of it, the driver's own work (shallow ordering searches, tests too
    /// small to hand out).
    pub driver_us: u64,
    /// Jobs run.
    pub jobs: u64,
    /// Of them, the ones cancelled before they ended.
    pub cancelled: u64,
    /// Of them, the ones that reached their budget of nodes and were split
    /// (see [`Settings::job_nodes`]).
    pub stopped: u64,
    /// Of the job time, what the cancelled jobs ran before they were.
    pub cancelled_us: u64,
    /// Of the job time, what the stopped jobs ran: lost but for what their
    /// tables keep.
    pub stopped_us: u64,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Proofs handed to the workers with their jobs (see
    /// `Settings::share`), counted once per worker's table told.
    pub handed: u64,
}

/// A job on a worker: when it was handed out and when it ends on the
/// clock, and what it returns.
struct Running {
    start: u64,
    end: u64,
    worker: usize,
    result: JobResult,
}

/// Simulates the split solve of `board` (`p` to move, `plies` deep) on
/// `cluster`.
pub fn simulate(
    board: &Board,
    p: Player,
    plies: u32,
    settings: Settings,
    cluster: Cluster,
) -> Simulated {
    let workers = cluster.workers.max(1);
    let sharing = settings.share.is_some();
    let timed = Instant::now();
    let mut driver = Driver::new(board, p, plies, settings);
    let mut clock = timed.elapsed().as_micros() as u64;
    let mut driver_us = clock;
    let (mut work_us, mut jobs, mut cancelled) = (0, 0, 0);
    let (mut cancelled_us, mut stopped_us, mut handed) = (0, 0, 0);
    let mut tables = Tables::new(workers, cluster.per_table.clamp(1, workers));
    let mut idle: VecDeque<usize> = (0..workers).collect();
    let mut running: Vec<Running> = Vec::new();
    while driver.answer().is_none() {
        for mut job in driver.take_jobs(idle.len()) {
            let worker = tables.take_idle(&mut idle, job.home);
            if sharing {
                // What the driver holds now reaches the worker with the
                // job, as a runner hands it on.
                let timed = Instant::now();
                let told = tables.told(worker);
                (job.known, *told) = driver.proofs_since(*told);
                handed += job.known.len() as u64;
                let spent = timed.elapsed().as_micros() as u64;
                clock += spent;
                driver_us += spent;
            }
            let result =
                run_job_kept(&job, tables.of(worker)).expect("the driver's jobs are valid");
            tables.used(worker);
            work_us += result.micros;
            jobs += 1;
            running.push(Running {
                end: clock + cluster.latency_us + result.micros,
                start: clock,
                worker,
                result,
            });
        }
        if driver.answer().is_some() {
            break;
        }
        // The next job to end (the earlier id first on a tie).
        let at = (0..running.len())
            .min_by_key(|&i| (running[i].end, running[i].result.id))
            .expect("a driver without an answer waits on a job");
        let done = running.swap_remove(at);
        clock = clock.max(done.end);
        idle.push_back(done.worker);
        if done.result.value.is_none() {
            stopped_us += done.result.micros;
        }
        let timed = Instant::now();
        driver.finish(&done.result);
        let unneeded = driver.unneeded();
        let spent = timed.elapsed().as_micros() as u64;
        clock += spent;
        driver_us += spent;
        // Cancelled: the worker is free now, and only what ran was work.
        running.retain(|r| {
            if !unneeded.contains(&r.result.id) {
                return true;
            }
            let ran = clock
                .saturating_sub(r.start + cluster.latency_us)
                .min(r.result.micros);
            work_us -= r.result.micros - ran;
            cancelled_us += ran;
            idle.push_back(r.worker);
            cancelled += 1;
            false
        });
    }
    Simulated {
        answer: driver
            .answer()
            .cloned()
            .expect("the loop ends with the answer"),
        cluster: Cluster { workers, ..cluster },
        makespan_us: clock,
        work_us,
        driver_us,
        jobs,
        cancelled,
        stopped: driver.stats().stopped,
        cancelled_us,
        stopped_us,
        nodes: driver.stats().nodes,
        handed,
    }
}

/// The workers' tables, one per group of `per_table`, within
/// [`TABLE_BUDGET`].
struct Tables {
    per_table: usize,
    kept: Vec<Option<Kept>>,
    /// How much of the driver's proofs each table has been told (see
    /// `Settings::share`).
    told: Vec<usize>,
    /// When each worker's table was last used (jobs handed out before).
    last: Vec<u64>,
    uses: u64,
}

impl Tables {
    fn new(workers: usize, per_table: usize) -> Tables {
        let slots = workers.div_ceil(per_table);
        Tables {
            per_table,
            kept: (0..slots).map(|_| None).collect(),
            told: vec![0; slots],
            last: vec![0; slots],
            uses: 0,
        }
    }

    /// The idle worker to run a job with home `home`: the one idle longest
    /// on the table of its home, else the one idle longest.
    fn take_idle(&self, idle: &mut VecDeque<usize>, home: u64) -> usize {
        let slot = (home % self.kept.len() as u64) as usize;
        let at = idle.iter().position(|&w| self.slot(w) == slot).unwrap_or(0);
        idle.remove(at).expect("as many jobs as idle workers")
    }

    fn slot(&self, worker: usize) -> usize {
        worker / self.per_table
    }

    fn told(&mut self, worker: usize) -> &mut usize {
        let slot = self.slot(worker);
        &mut self.told[slot]
    }

    fn of(&mut self, worker: usize) -> &mut Option<Kept> {
        let slot = self.slot(worker);
        &mut self.kept[slot]
    }

    /// Notes that `worker`'s table was just used, and drops the least
    /// recently used others while all of them take more than the budget.
    fn used(&mut self, worker: usize) {
        let slot = self.slot(worker);
        self.uses += 1;
        self.last[slot] = self.uses;
        let bytes = |kept: &[Option<Kept>]| kept.iter().flatten().map(Kept::bytes).sum::<usize>();
        while bytes(&self.kept) > TABLE_BUDGET {
            let oldest = (0..self.kept.len())
                .filter(|&i| i != slot && self.kept[i].is_some())
                .min_by_key(|&i| self.last[i]);
            match oldest {
                Some(i) => {
                    // Its store goes with it: tell it everything again.
                    self.kept[i] = None;
                    self.told[i] = 0;
                }
                None => break,
            }
        }
    }
}
