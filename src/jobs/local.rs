//! The jobs of a split solve run one after another in this process: the
//! runner for one machine, resumable through the same store as the
//! cluster's.
//!
//! One job at a time, on all the threads: a job's own parallel search keeps
//! them busy, as the direct solve's does, while jobs side by side would
//! each be tested against the bar the root knew when it started and miss
//! the ones their neighbours were about to set. On a 22-empty 5x5 solve on
//! two threads, two jobs at a time searched 1.5x to 1.9x the direct solve's
//! nodes, one at a time 0.92x (one job on one thread searches exactly the
//! direct solve's nodes on one thread).

use super::driver::{Driver, DriverStats, Settings, SplitAnswer};
use super::job::{release_kept, run_job};
use crate::game::{Board, Player};
use crate::store::StoreError;

/// Solves `board` (`p` to move, `plies` deep) by its jobs, each searched on
/// `threads` threads (0: one per core), calling `on_result` with the
/// driver's progress after each job. Fails only when the store cannot be
/// written; the bounds written before stay in it.
pub fn solve_local(
    board: &Board,
    p: Player,
    plies: u32,
    settings: Settings,
    threads: usize,
    mut on_result: impl FnMut(&DriverStats),
) -> Result<SplitAnswer, StoreError> {
    let mut driver = Driver::new(board, p, plies, settings);
    let outcome = run(&mut driver, threads, &mut on_result);
    release_kept();
    outcome?;
    Ok(driver
        .answer()
        .cloned()
        .expect("the run ends with the answer"))
}

fn run(
    driver: &mut Driver,
    threads: usize,
    on_result: &mut impl FnMut(&DriverStats),
) -> Result<(), StoreError> {
    loop {
        if let Some(e) = driver.store_failure() {
            return Err(e);
        }
        if driver.answer().is_some() {
            return Ok(());
        }
        let Some(job) = driver.take_jobs(1).pop() else {
            // Starting the root's last candidates can settle them.
            assert!(
                driver.answer().is_some(),
                "a driver without an answer has a test waiting on a job"
            );
            return Ok(());
        };
        // The driver made the job from a position it holds, so it always
        // describes one.
        let result = run_job(&job, threads).expect("the driver's jobs are valid");
        driver.finish(&result);
        on_result(&driver.stats());
    }
}
