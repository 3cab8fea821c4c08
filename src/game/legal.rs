//! Whether a move may be played, and if not, why: what a person at the
//! board, a refereed program and a library caller are each told.

use super::board::Board;
use super::moves::{Move, MoveKind};
use super::player::{Player, Square};

/// Why a move cannot be played: the reasons a person or a program is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// Every cell is taken: the game is over.
    #[error("the board is full: there is no legal move")]
    Full,
    /// The cell is past the board's last row or column.
    #[error("{} is off the {n}x{n} board", .mv.cell_name())]
    OffBoard {
        /// The move.
        mv: Move,
        /// The board's side.
        n: usize,
    },
    /// The cell holds a piece already.
    #[error("{} is taken", .mv.cell_name())]
    Taken {
        /// The move.
        mv: Move,
    },
    /// A Raid on a cell with none of the mover's pieces beside it.
    #[error("no {} piece next to {}", .player.symbol(), .mv.cell_name())]
    NoPieceNext {
        /// The move.
        mv: Move,
        /// The side that tried it.
        player: Player,
    },
}

/// Whether `player` may play `mv` on `board`, and if not, why.
pub fn check_move(board: &Board, player: Player, mv: Move) -> Result<(), Illegal> {
    let n = board.n();
    if board.is_full() {
        return Err(Illegal::Full);
    }
    if mv.row() >= n || mv.col() >= n {
        return Err(Illegal::OffBoard { mv, n });
    }
    if board.square(mv.row(), mv.col()) != Square::Empty {
        return Err(Illegal::Taken { mv });
    }
    if mv.kind() == MoveKind::Raid && board.raid_row(player, mv.row()) & (1 << mv.col()) == 0 {
        return Err(Illegal::NoPieceNext { mv, player });
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
            "no X piece next to C3"
        );
        assert_eq!(
            check_move(&board, Player::X, Move::new(1, 1, MoveKind::Stake))
                .unwrap_err()
                .to_string(),
            "B2 is taken"
        );
        assert_eq!(
            check_move(&board, Player::X, Move::new(0, 3, MoveKind::Stake))
                .unwrap_err()
                .to_string(),
            "D1 is off the 3x3 board"
        );
    }
}
