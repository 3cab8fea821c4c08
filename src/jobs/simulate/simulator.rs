//! How a simulation runs here: the cores it answers jobs on, the clock
//! a job's time is read on, and the memory its tables may take.

/// Memory the simulated tables may take together by default.
pub const TABLE_BUDGET: usize = 4 << 30;

/// How a simulation runs here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simulator {
    /// Jobs answered at once, each on a thread of its own (see the module
    /// docs).
    pub cores: usize,
    /// How long a job takes on the cluster's clock.
    pub clock: JobClock,
    /// Memory the workers' tables may take together here: beyond it the
    /// least recently used are dropped (the module docs).
    pub tables_bytes: usize,
    /// On the nodes clock, how far the horizon moves at most at a time, in
    /// microseconds: a job is searched here at most this much past the
    /// point where it is cancelled, and the jobs of a table take turns of
    /// this much. Each move holds and lets go every job under way (tens
    /// of microseconds each here), so it is also what pacing costs.
    pub stretch_us: u64,
}

impl Default for Simulator {
    /// One core, measured time, [`TABLE_BUDGET`], stretches of a
    /// millisecond.
    fn default() -> Simulator {
        Simulator {
            cores: 1,
            clock: JobClock::Measured,
            tables_bytes: TABLE_BUDGET,
            stretch_us: 1000,
        }
    }
}

/// How long a job, or the driver's own work, takes on the simulated clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobClock {
    /// The wall time it took here, each job answered to its end (optimistic
    /// on shared tables: see the module docs).
    Measured,
    /// Its nodes at this pace a microsecond, rounded up: the same whatever
    /// else the machine runs, so the same simulation from run to run and
    /// on any number of cores. Blind to what a node costs: a deep node's
    /// table probe and a last ply's count alike. The jobs are paced.
    Nodes {
        /// Nodes a microsecond, at least one.
        per_us: u64,
    },
}

impl JobClock {
    /// Nodes a microsecond, on the nodes clock: its jobs are paced.
    pub(super) fn pace(self) -> Option<u64> {
        match self {
            JobClock::Measured => None,
            JobClock::Nodes { per_us } => Some(per_us.max(1)),
        }
    }

    /// What work that took `micros` here and searched `nodes` takes.
    pub(super) fn took(self, micros: u64, nodes: u64) -> u64 {
        match self {
            JobClock::Measured => micros,
            JobClock::Nodes { per_us } => nodes.div_ceil(per_us.max(1)),
        }
    }
}
