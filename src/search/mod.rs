//! The searches. [`reference`] holds the textbook oracle; [`root`] the fast
//! exact engines behind the tie-break layer (see `README.md` here).

mod compact;
mod deadline;
mod engine;
mod general;
mod progress;
pub mod reference;
pub mod root;
mod split;
#[cfg(test)]
mod tests;
pub mod trace;
mod window;
mod worker;

pub(crate) use compact::Compact;
pub(crate) use deadline::process_cpu;
pub use deadline::Deadline;
pub(crate) use engine::Threads;
pub use general::Eval;
pub use progress::Progress;
pub use reference::Decision;
pub use root::{RootResult, RootValue};
pub use window::Bound;
