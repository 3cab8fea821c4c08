//! The searches. [`reference`] holds the textbook oracle; [`root`] the fast
//! exact engines behind the tie-break layer (see `README.md` here).

mod alphabeta;
mod compact;
pub mod deadline;
mod frontier;
mod minimax;
mod ordering;
pub mod reference;
pub mod root;
mod split;
pub mod trace;
mod tt;

pub use alphabeta::Eval;
pub(crate) use alphabeta::Searcher;
pub use compact::Compact;
pub use deadline::Deadline;
pub use reference::Decision;
pub use root::{Iterative, RootResult, RootValue};
