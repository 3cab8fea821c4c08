//! From a problem to its answer: the exact solve, the COMPETITION player,
//! the thread pool they run on, and the bench position set.

pub mod bench;
pub mod competition;
pub(crate) mod exact;
pub(crate) mod pool;
