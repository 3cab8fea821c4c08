//! What the jobs being answered here tell the simulation, and when each
//! one's answering began and ended. Apart from the simulation so that the
//! gates (`paced`) and the tables can name them without depending on it.

use std::sync::OnceLock;
use std::time::Instant;

use crate::jobs::job::{JobError, JobResult};

/// When a job's answering began and ended here: a job that has begun and
/// not ended is sure to take at least the time since it began.
#[derive(Default)]
pub(super) struct Here {
    pub(super) began: OnceLock<Instant>,
    pub(super) ended: OnceLock<Instant>,
}

/// What a job being answered here tells the simulation.
pub(super) enum Event {
    /// It is held at its gate (paced).
    Held {
        slot: usize,
    },
    Answered(Answered),
}

/// A job answered here.
pub(super) struct Answered {
    pub(super) slot: usize,
    pub(super) id: u64,
    /// Err: the job's thread panicked, with this payload.
    pub(super) result: std::thread::Result<Result<JobResult, JobError>>,
    pub(super) micros: u64,
}
