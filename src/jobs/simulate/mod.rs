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
//! counts as work; so do the jobs still running when the answer is known.
//! The makespan is then the critical path the driver's order allows on
//! that many workers, and the summed job time the total work, speculative
//! jobs included.
//!
//! Tables: the workers of one process share one, kept from job to job
//! (threads: the local runner, or a cluster node running its jobs in one
//! process); processes each keep their own (a Ray task per CPU). So the
//! workers are cut into groups of `per_table`, each sharing a table. The
//! driver picks the jobs for the tables with idle workers
//! ([`Driver::take_jobs_for`](super::Driver::take_jobs_for): a job on its
//! home's table where it can, see [`Job::home`](super::Job::home)), each
//! to the worker idle longest there, as the per-node Ray runner asks for
//! them.
//! With [`Settings::share`], each table has a store of its own too
//! (a process's, see `Job::known`), and a job takes to its worker what the
//! driver holds of the other tables' proofs when it is handed out, and
//! brings back its own with its result: what a job sees and when is what
//! a runner that hands proofs on with the jobs gives it.
//! Tables are kept up to [`Simulator::tables_bytes`] in all, the least
//! recently used dropped beyond it, so the model of many small groups is
//! pessimistic there: a real process would still hold its table.
//!
//! On the measured clock a table answers its jobs one after another, each
//! to its end, in the order they were handed out: a job sees all that the
//! ones before it stored, even those that on the cluster still run beside
//! it, and a cancelled job leaves its whole search. On a table shared by
//! many workers that is far too kind: 16 real threads on one table
//! searched twice the nodes it predicted
//! (`profiles/2026-11-27-vm/simulator-check-shared-table.txt`). On the
//! nodes clock the jobs are paced instead (the `paced` module): each is
//! searched here only as far as the clock has gone, the jobs of a table
//! taking turns on it, and a cancelled job stops where the cluster stops
//! it, so that it costs here, and leaves in its table, what it searched
//! there.
//!
//! Here, with [`Simulator::cores`] above one, jobs of different tables are
//! answered side by side, each table's in the order they were handed out.
//! The clock needs a job's result only when it reaches the job's end, and
//! no job ends before its start plus the latency (plus, on the measured
//! clock, the time it has been answered for so far). So the clock moves on
//! to the next known end as soon as every job still being answered is sure
//! to end later: the events come in the order one core takes them, and
//! each table sees the same jobs in the same order. On the measured clock
//! the jobs are then timed while another runs beside them (two one-thread
//! solves side by side run about 4% slower each on a 2-core machine); on
//! the nodes clock ([`JobClock::Nodes`]) a simulation is the same on any
//! number of cores, and from run to run.

mod cluster;
mod events;
mod paced;
mod simulated;
mod simulation;
mod simulator;
mod tables;

pub use cluster::Cluster;
pub use simulated::Simulated;
pub use simulator::{JobClock, Simulator, TABLE_BUDGET};

use super::driver::Settings;
use crate::game::{Board, Player};

/// Simulates the split solve of `board` (`p` to move, `plies` deep) on
/// `cluster`, on one core, on the measured clock.
pub fn simulate(
    board: &Board,
    p: Player,
    plies: u32,
    settings: Settings,
    cluster: Cluster,
) -> Simulated {
    Simulator::default().simulate(board, p, plies, settings, cluster)
}
