//! The searches. Outside the crate they run only through [`crate::api`]
//! (what stays public here are types its settings and results name).
//! `reference.rs` holds the textbook oracle (the answer of
//! [`crate::api::Engine::Reference`]) and `trace.rs` a recording copy of
//! it ([`crate::api::alphabeta_dot`]); `root/` the fast exact engines
//! behind the tie-break layer (see `README.md` here):
//! the root picks one engine for a search, the general one (`general/`,
//! any board) or the compact one (`compact/`, up to 128 cells, or a
//! larger board's region), and both
//! search with a window and one worker per thread, stopped by a
//! [`Deadline`] and reporting to a [`Progress`].

mod choice;
pub(crate) mod compact;
pub mod counters;
mod deadline;
mod engine;
mod general;
mod narrowing;
mod progress;
pub(crate) mod reference;
pub(crate) mod root;
mod split;
mod split_point;
#[cfg(test)]
mod tests;
pub(crate) mod trace;
mod window;
mod worker;

pub(crate) use choice::{known_choice, Known};
pub(crate) use compact::{Compact, TableSaver};
pub(crate) use deadline::process_cpu;
pub use deadline::{Deadline, Pace};
pub(crate) use engine::{FastEngine, Threads};
pub use general::Eval;
pub(crate) use narrowing::{narrowed, Tests};
pub use progress::{Progress, RootProgress};
pub use root::RootValue;
pub use window::Bound;
pub(crate) use window::Window;
pub(crate) use worker::Signals;
