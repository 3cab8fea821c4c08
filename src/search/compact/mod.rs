//! The exact search for boards of at most 128 cells (up to 11x11), and for
//! larger boards on the region where their game is still open, built like
//! an endgame solver: a position is two sets of cells (one word each up to
//! 64 cells, two up to 128) seen from the side to move, one child per empty cell (by dominance), the last five plies of
//! a solve written out, bounds from settled pieces, and a lock-free table
//! of verified entries. It answers exactly what [`super::general`] answers
//! under the game score; the argument for each shortcut is in `../README.md`.

mod bounds;
mod cells;
mod durable;
mod endgame;
mod geometry;
mod midgame;
mod select;
mod table;

pub(crate) use durable::TableSaver;
pub(crate) use select::Compact;

/// How many cells `board`'s region has (see `geometry.rs`).
#[cfg(test)]
pub(crate) fn region_size(board: &crate::game::Board) -> usize {
    geometry::region_of(board).len()
}
