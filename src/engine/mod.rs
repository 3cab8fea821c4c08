//! From a problem to its answer: the exact solve, the COMPETITION player,
//! the thread pools they run on, and the threads lent among searches side
//! by side.

pub mod competition;
pub(crate) mod exact;
pub(crate) mod lending;
pub(crate) mod pool;
