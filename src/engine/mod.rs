//! From a problem to its answer: the exact solve, the COMPETITION player,
//! and the thread pool they run on.

pub mod competition;
pub(crate) mod exact;
pub(crate) mod pool;
