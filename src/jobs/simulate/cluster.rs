//! The cluster a split solve is simulated on: its workers, how they
//! share tables, and the latency of a job.

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

    /// Workers sharing one table, within 1 and the workers.
    pub(super) fn per_table(&self) -> usize {
        self.per_table.clamp(1, self.workers.max(1))
    }

    /// The tables (the machines): groups of `per_table` workers, the last
    /// maybe smaller.
    pub fn tables(&self) -> usize {
        self.workers.max(1).div_ceil(self.per_table())
    }
}
