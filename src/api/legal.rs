//! Whether a move may be played, and if not, why.

use crate::game::{Board, Move, MoveKind, Player, Square};

/// Why a move cannot be played on a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The board is full: the game is over.
    #[error("the board is full: there is no legal move")]
    Full,
    /// The target cell lies outside the board.
    #[error("{cell} is off the {n}x{n} board")]
    OffBoard {
        /// The target, e.g. `"F1"`.
        cell: String,
        /// The board side.
        n: usize,
    },
    /// The target cell already holds a piece.
    #[error("{mv} is not legal: {cell} is taken", cell = .mv.cell_name())]
    Taken {
        /// The move.
        mv: Move,
    },
    /// A Raid whose target has no piece of the mover next to it.
    #[error(
        "{mv} is not legal: a Raid needs a piece of {} next to {}",
        .player.symbol(),
        .mv.cell_name()
    )]
    NoNeighbour {
        /// The move.
        mv: Move,
        /// The player moving.
        player: Player,
    },
}

/// Checks that `player` may play `mv` on `board`: the board has an empty
/// cell, the target is on it and empty, and a Raid's target is next to one
/// of `player`'s pieces.
pub fn check_move(board: &Board, player: Player, mv: Move) -> Result<(), MoveError> {
    let n = board.n();
    if board.is_full() {
        return Err(MoveError::Full);
    }
    if mv.row() >= n || mv.col() >= n {
        return Err(MoveError::OffBoard {
            cell: mv.cell_name(),
            n,
        });
    }
    if board.square(mv.row(), mv.col()) != Square::Empty {
        return Err(MoveError::Taken { mv });
    }
    if mv.kind() == MoveKind::Raid && board.raid_row(player, mv.row()) & (1 << mv.col()) == 0 {
        return Err(MoveError::NoNeighbour { mv, player });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::legal_moves;

    #[test]
    fn legal_exactly_when_listed() {
        let mut board = Board::new(3, &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        board.set(0, 0, Square::Piece(Player::X));
        board.set(1, 1, Square::Piece(Player::O));
        for player in [Player::X, Player::O] {
            let legal = legal_moves(&board, player);
            for r in 0..4 {
                for c in 0..4 {
                    for kind in [MoveKind::Stake, MoveKind::Raid] {
                        let mv = Move::new(r, c, kind);
                        assert_eq!(check_move(&board, player, mv).is_ok(), legal.contains(&mv));
                    }
                }
            }
        }
        let raid = Move::new(2, 2, MoveKind::Raid);
        assert_eq!(
            check_move(&board, Player::X, raid).unwrap_err().to_string(),
            "C3 Raid is not legal: a Raid needs a piece of X next to C3"
        );
        assert_eq!(
            check_move(&board, Player::X, Move::new(1, 1, MoveKind::Stake))
                .unwrap_err()
                .to_string(),
            "B2 Stake is not legal: B2 is taken"
        );
        assert_eq!(
            check_move(&board, Player::X, Move::new(0, 3, MoveKind::Stake))
                .unwrap_err()
                .to_string(),
            "D1 is off the 3x3 board"
        );
    }
}
