//! The rules: players, moves, the board with its incremental score and
//! hash, and move generation in canonical order. Nothing here depends on
//! anything above it.

mod bits;
mod board;
mod legal;
mod movegen;
mod moves;
mod player;
pub mod random;
mod zobrist;

/// The columns of a row mask, lowest first: [`Bits`] over a `u32` row.
pub(crate) use bits::Bits as Cols;
pub(crate) use bits::{Bits, Word};
pub use board::{Board, Undo};
pub use legal::{check_move, Illegal};
pub(crate) use movegen::Twins;
pub use movegen::{generate, legal_moves};
pub use moves::{Move, MoveKind, MoveList, MoveParseError, MAX_MOVES};
pub use player::{Player, Square, UnknownPlayer, MAX_N};
