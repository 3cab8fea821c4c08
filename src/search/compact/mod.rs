//! The exact search for boards of at most 64 cells (up to 8x8), built like
//! an endgame solver: a position is two `u64` sets seen from the side to
//! move, one child per empty cell (by dominance), the last five plies of
//! a solve written out, bounds from settled pieces, and a lock-free table
//! of verified entries. It answers exactly what [`super::general`] answers
//! under the game score; the argument for each shortcut is in `../README.md`.

mod bounds;
mod cells;
mod durable;
mod endgame;
mod geometry;
mod midgame;
mod table;

pub(crate) use durable::TableSaver;
pub(crate) use midgame::Compact;
