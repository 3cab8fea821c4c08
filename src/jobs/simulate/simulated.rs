//! What a simulation gives: the answer, the simulated wall time, the work
//! and where it went.

use super::Cluster;
use crate::jobs::SplitAnswer;

/// One simulated split solve.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// (see [`Settings::job_nodes`](crate::jobs::Settings::job_nodes)).
    pub stopped: u64,
    /// Of the job time, what the cancelled jobs ran before they were.
    pub cancelled_us: u64,
    /// Of the job time, what the stopped jobs ran: lost but for what their
    /// tables keep.
    pub stopped_us: u64,
    /// Nodes of the jobs whose results came back and of the driver's own
    /// searches: what the driver counts, as a real runner's does.
    pub nodes: u64,
    /// Nodes searched in all: `nodes`, and what the jobs taken off their
    /// workers (cancelled, or still running at the answer) searched before
    /// they were, the share of their nodes that the part of their time
    /// they ran is. The work a cluster pays for; on many workers the
    /// cancelled jobs' part is a large share of it.
    pub searched: u64,
    /// Nodes searched here to simulate it: the driver's, and every job's
    /// to its end, a cancelled one's too on the measured clock (where many
    /// jobs are cancelled, far more than `searched`: 1.9x on 64 workers
    /// for 21 and 22 empty cells), about as far as it ran when paced (the
    /// module docs).
    pub here: u64,
    /// Proofs handed to the workers with their jobs (see
    /// `Settings::share`), counted once per worker's table told.
    pub handed: u64,
    /// Jobs run on a table other than their home's (see `Job::home`), for
    /// want of an idle worker there.
    pub away: u64,
}
