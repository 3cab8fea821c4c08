//! The rules a written position must meet, in one place for every way one
//! is written (`input.txt`, the JSON grid, the older variant's board file):
//! each check says whether a part is acceptable; the reader that calls it
//! says where the part was (a line, or a row and column).

use crate::game::{Board, Player, Square, MAX_N};

/// A board side from 1 to [`MAX_N`].
pub(crate) fn side(n: usize) -> Option<usize> {
    (1..=MAX_N).contains(&n).then_some(n)
}

/// A cell value: any integer from 0 to `i32::MAX`. Negative values are
/// refused because with values of one sign owning more cells is never
/// worse, which exact pruning may rely on.
pub(crate) fn value(v: i64) -> Option<i32> {
    i32::try_from(v).ok().filter(|&v| v >= 0)
}

/// A cell value written as a word.
pub(crate) fn value_word(word: &str) -> Option<i32> {
    word.parse::<i64>().ok().and_then(value)
}

/// A cell: `X`, `O` (either case, as the player line) or `.`.
pub(crate) fn square(ch: char) -> Option<Square> {
    match ch {
        '.' => Some(Square::Empty),
        'X' | 'x' => Some(Square::Piece(Player::X)),
        'O' | 'o' => Some(Square::Piece(Player::O)),
        _ => None,
    }
}

/// A board with a move left to answer with.
pub(crate) fn playable(board: &Board) -> bool {
    !board.is_full()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_are_the_spec_ones() {
        assert_eq!(
            (side(0), side(1), side(26), side(27)),
            (None, Some(1), Some(26), None)
        );
        assert_eq!(value(0), Some(0));
        assert_eq!(value(i64::from(i32::MAX)), Some(i32::MAX));
        assert_eq!((value(-1), value(1 << 31)), (None, None));
        assert_eq!(
            (value_word("12"), value_word("1e3"), value_word("-0")),
            (Some(12), None, Some(0))
        );
        assert_eq!(
            (square('x'), square('o'), Player::from_name("x")),
            (
                Some(Square::Piece(Player::X)),
                Some(Square::Piece(Player::O)),
                Some(Player::X)
            )
        );
        assert_eq!((square('0'), Player::from_name("0")), (None, None));
    }
}
