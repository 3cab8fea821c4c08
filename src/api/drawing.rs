//! The board drawn for a person to read, and the textbook search's tree
//! drawn for Graphviz.

use std::fmt::Write;

use super::{ApiError, Position};
use crate::game::{Board, Player, Square};
use crate::search::trace::trace_alphabeta;

/// The textbook alpha-beta search of `position`, `depth` plies deep, as a
/// Graphviz DOT graph (`stakeraid analyse --dot`): every position it
/// visits with its window and value, the principal variation marked, and
/// the moves each cut-off left unsearched. The drawing grows with the
/// tree, so keep `depth` small.
pub fn alphabeta_dot(position: &Position, depth: u32) -> Result<String, ApiError> {
    // A position always has a move, so only a depth of 0 leaves nothing.
    trace_alphabeta(position.board(), position.player(), depth)
        .map(|trace| trace.to_dot())
        .ok_or(ApiError::ZeroDepth)
}

/// `board` with column letters above, row numbers to the left, each cell
/// as its owner's mark (`X`, `O` or `.`) followed by its value, and a last
/// line saying who is to move (`player`, unless the game is over) and the
/// score for X. No final newline.
///
/// ```text
///      A    B    C
///   1  X 1  . 8  .23
///   2  . 5  .42  .12
///   3  .26  .30  . 9
/// O to move, score for X +1
/// ```
pub fn draw(board: &Board, player: Player) -> String {
    let n = board.n();
    let width = (0..n * n)
        .map(|i| board.value(i / n, i % n).to_string().len())
        .max()
        .unwrap_or(1);
    // Each cell is its owner's mark followed by its value; the column
    // letter stands above the mark.
    let mut s = String::from("   ");
    for c in 0..n {
        let _ = write!(s, "  {}{:width$}", (b'A' + c as u8) as char, "");
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    for r in 0..n {
        let _ = write!(s, "{:>3}", r + 1);
        for c in 0..n {
            let mark = match board.square(r, c) {
                Square::Empty => '.',
                Square::Piece(p) => p.symbol(),
            };
            let _ = write!(s, "  {mark}{:>width$}", board.value(r, c));
        }
        s.push('\n');
    }
    let score = board.score(Player::X);
    if board.is_full() {
        let _ = write!(s, "game over, score for X {score:+}");
    } else {
        let _ = write!(s, "{} to move, score for X {score:+}", player.symbol());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_owners_values_and_the_turn() {
        let mut board = Board::new(3, &[1, 8, 23, 5, 42, 12, 26, 30, 9]);
        board.set(0, 0, Square::Piece(Player::X));
        assert_eq!(
            draw(&board, Player::O),
            "     A    B    C\n  1  X 1  . 8  .23\n  2  . 5  .42  .12\n  3  .26  .30  . 9\n\
             O to move, score for X +1"
        );
        let mut full = Board::new(1, &[7]);
        full.set(0, 0, Square::Piece(Player::O));
        assert_eq!(
            draw(&full, Player::X),
            "     A\n  1  O7\ngame over, score for X -7"
        );
    }
}
