//! The jobs of a split solve run on threads of this process: the runner
//! for one machine, resumable through the same store as the cluster's.

use std::sync::mpsc;

use parking_lot::Mutex;

use super::driver::{Driver, DriverStats, Settings, SplitAnswer};
use super::job::{release_kept, run_job, JobResult};
use crate::game::{Board, Player};
use crate::store::StoreError;

/// Solves `board` (`p` to move, `plies` deep) by jobs on `workers` threads
/// (at least one), which search on one shared pool of as many threads (a
/// job alone gets them all), calling `on_result` with the
/// driver's progress after each job. Fails only when the store cannot be
/// written; the bounds written before stay in it.
pub fn solve_local(
    board: &Board,
    p: Player,
    plies: u32,
    settings: Settings,
    workers: usize,
    on_result: impl FnMut(&DriverStats),
) -> Result<SplitAnswer, StoreError> {
    let mut driver = Driver::new(board, p, plies, settings);
    let outcome = run(&mut driver, workers.max(1), on_result);
    release_kept();
    outcome?;
    Ok(driver
        .answer()
        .cloned()
        .expect("the run ends with the answer"))
}

fn run(
    driver: &mut Driver,
    workers: usize,
    mut on_result: impl FnMut(&DriverStats),
) -> Result<(), StoreError> {
    let (job_tx, job_rx) = mpsc::channel();
    let job_rx = Mutex::new(job_rx);
    let (result_tx, result_rx) = mpsc::channel::<JobResult>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let result_tx = result_tx.clone();
            let job_rx = &job_rx;
            scope.spawn(move || loop {
                let job = job_rx.lock().recv();
                let Ok(job) = job else { break };
                // The jobs search on one pool of `workers` threads: a job
                // alone (the root's first move is tested one job at a
                // time) gets them all, jobs side by side share them.
                // The driver made the job from a position it holds, so it
                // always describes one.
                let result = run_job(&job, workers).expect("the driver's jobs are valid");
                if result_tx.send(result).is_err() {
                    break;
                }
            });
        }
        let mut in_flight = 0;
        let outcome = loop {
            if let Some(e) = driver.store_failure() {
                break Err(e);
            }
            if driver.answer().is_some() {
                break Ok(());
            }
            for job in driver.take_jobs(workers.saturating_sub(in_flight)) {
                in_flight += 1;
                job_tx.send(job).expect("the workers outlive the loop");
            }
            if in_flight == 0 {
                unreachable!("a driver without an answer has a test waiting on a job");
            }
            let result = result_rx.recv().expect("a worker holds a sender");
            in_flight -= 1;
            driver.finish(&result);
            on_result(&driver.stats());
        };
        // Jobs still running are no longer needed: the workers end after
        // them.
        drop(job_tx);
        outcome
    })
}
