//! The searches. [`mod@reference`] holds the textbook oracle; [`root`] the
//! fast exact engines behind the tie-break layer (see `README.md` here):
//! the root picks one engine for a search, the general one (`general/`,
//! any board) or the compact one (`compact/`, up to 64 cells), and both
//! search with a window and one worker per thread, stopped by a
//! [`Deadline`] and reporting to a [`Progress`].

mod compact;
mod deadline;
mod engine;
mod general;
mod narrowing;
mod progress;
pub mod reference;
pub mod root;
mod split;
mod split_point;
#[cfg(test)]
mod tests;
pub mod trace;
mod window;
mod worker;

pub(crate) use compact::{Compact, TableSaver};
pub(crate) use deadline::process_cpu;
pub use deadline::Deadline;
pub(crate) use engine::{FastEngine, Threads};
pub use general::Eval;
pub(crate) use narrowing::Tests;
pub use progress::{Progress, RootProgress};
pub use reference::Decision;
pub use root::{RootResult, RootValue};
pub use window::Bound;
pub(crate) use window::Window;
