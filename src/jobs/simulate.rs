//! What a split solve would take on many workers, from its jobs' measured
//! durations: the driver runs against a clock of its own, each job is
//! answered for real (one at a time, on this thread) and takes on that
//! clock the time it took here, and the driver's own work counts in full,
//! since it is sequential. The makespan on `workers` workers is then the
//! critical path the driver's order allows with that many, and the summed
//! job time is the total work, speculative jobs included.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use super::driver::{Driver, Settings, SplitAnswer};
use super::job::{release_kept, run_job, JobResult};
use crate::game::{Board, Player};

/// One simulated split solve.
#[derive(Clone, Debug)]
pub struct Simulated {
    /// The answer (the direct solve's).
    pub answer: SplitAnswer,
    /// Workers simulated.
    pub workers: usize,
    /// Simulated wall time in microseconds: jobs on the workers, and the
    /// driver's own work between them.
    pub makespan_us: u64,
    /// Summed job time in microseconds.
    pub work_us: u64,
    /// Of it, the driver's own work (shallow ordering searches, tests too
    /// small to hand out).
    pub driver_us: u64,
    /// Jobs run.
    pub jobs: u64,
    /// Nodes searched in all.
    pub nodes: u64,
}

/// Simulates the split solve of `board` (`p` to move, `plies` deep) on
/// `workers` workers.
pub fn simulate(
    board: &Board,
    p: Player,
    plies: u32,
    settings: Settings,
    workers: usize,
) -> Simulated {
    let workers = workers.max(1);
    let timed = Instant::now();
    let mut driver = Driver::new(board, p, plies, settings);
    let mut clock = timed.elapsed().as_micros() as u64;
    let mut driver_us = clock;
    let mut work_us = 0;
    let mut jobs = 0;
    // Jobs running: the clock when each is done, its id, and where its
    // result is in `results`.
    let mut running: BinaryHeap<Reverse<(u64, u64, usize)>> = BinaryHeap::new();
    let mut results: Vec<JobResult> = Vec::new();
    while driver.answer().is_none() {
        for job in driver.take_jobs(workers - running.len()) {
            let result = run_job(&job, 1).expect("the driver's jobs are valid");
            work_us += result.micros;
            jobs += 1;
            running.push(Reverse((clock + result.micros, job.id, results.len())));
            results.push(result);
        }
        if driver.answer().is_some() {
            break;
        }
        let Reverse((done, _, at)) = running
            .pop()
            .expect("a driver without an answer waits on a job");
        clock = clock.max(done);
        let timed = Instant::now();
        driver.finish(&results[at]);
        let spent = timed.elapsed().as_micros() as u64;
        clock += spent;
        driver_us += spent;
    }
    release_kept();
    Simulated {
        answer: driver
            .answer()
            .cloned()
            .expect("the loop ends with the answer"),
        workers,
        makespan_us: clock,
        work_us,
        driver_us,
        jobs,
        nodes: driver.stats().nodes,
    }
}
