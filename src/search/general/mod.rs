//! The engines over the full [`crate::game::Board`], for boards of any
//! size: full-width minimax (MINIMAX mode's textbook node count), and
//! alpha-beta with its table and move ordering, under any evaluation and
//! in play. The last ply of both is valued in bulk ([`frontier`]).

mod alphabeta;
mod frontier;
pub(crate) mod minimax;
mod ordering;
mod table;

pub use alphabeta::Eval;
pub(crate) use alphabeta::{Reductions, Searcher, INF};
pub(crate) use ordering::Dominance;
