//! Move generation in the canonical order the grader scans: every Stake in
//! row-major order, then every Raid in row-major order.

use super::board::Board;
use super::moves::{Move, MoveKind, MoveList};
use super::player::Player;
use super::Cols;

/// Pushes one move per set bit of `mask`, low column first.
#[inline]
fn push_row(list: &mut MoveList, row: usize, mask: u32, kind: MoveKind) {
    for col in Cols(mask) {
        list.push(Move::new(row, col, kind));
    }
}

/// All legal moves of `p`, in canonical order (Stakes row-major, then Raids
/// row-major, non-flipping Raids included).
pub fn generate(board: &Board, p: Player, list: &mut MoveList) {
    list.clear();
    for r in 0..board.n() {
        push_row(list, r, board.empty_row(r), MoveKind::Stake);
    }
    for r in 0..board.n() {
        push_row(list, r, board.raid_row(p, r), MoveKind::Raid);
    }
}

/// True for a Raid that flips nothing: it leads to the very position the
/// Stake on its cell leads to, and that Stake comes first in canonical order.
#[inline]
fn is_twin(board: &Board, p: Player, mv: Move) -> bool {
    mv.kind() == MoveKind::Raid && board.enemy_near_row(p, mv.row()) & (1 << mv.col()) == 0
}

/// Which moves of a list reach distinct positions. A twin Raid (one that
/// flips nothing) reaches the position of the Stake on its cell, which
/// comes first in canonical order: only the other moves need searching,
/// and the twin takes its Stake's value.
#[derive(Clone, Debug)]
pub(crate) struct Twins {
    /// The indices, in the list, of the moves that are not twins.
    distinct: Vec<usize>,
    /// For each move of the list, the index in `distinct` of the move that
    /// reaches its position: itself, or a twin's Stake.
    source: Vec<usize>,
}

impl Twins {
    /// The twins of `moves`, moves of `p` on `board` in canonical order. A
    /// twin whose Stake is not in the list counts as distinct.
    pub(crate) fn new(board: &Board, p: Player, moves: &[Move]) -> Twins {
        let n = board.n();
        let mut stake_at = vec![None; n * n];
        let mut distinct = Vec::with_capacity(moves.len());
        let source = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let cell = mv.row() * n + mv.col();
                match stake_at[cell] {
                    Some(k) if is_twin(board, p, mv) => k,
                    _ => {
                        if mv.kind() == MoveKind::Stake {
                            stake_at[cell] = Some(distinct.len());
                        }
                        distinct.push(i);
                        distinct.len() - 1
                    }
                }
            })
            .collect();
        Twins { distinct, source }
    }

    /// The entries of `all` (one per move of the list) for the moves that
    /// are not twins, in order.
    pub(crate) fn distinct<T: Copy>(&self, all: &[T]) -> Vec<T> {
        self.distinct.iter().map(|&i| all[i]).collect()
    }

    /// One entry per move of the list from `values`, one per distinct
    /// move (in the order of [`Twins::distinct`]): a twin takes its Stake's.
    pub(crate) fn spread<T: Copy>(&self, values: &[T]) -> Vec<T> {
        self.source.iter().map(|&k| values[k]).collect()
    }
}

/// [`generate`] into a fresh `Vec`.
pub fn legal_moves(board: &Board, p: Player) -> Vec<Move> {
    let mut list = MoveList::new();
    generate(board, p, &mut list);
    list.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twins_take_their_stakes_entry() {
        // X on A1, O on C1: X's Raid on B1 flips C1; on A2 it flips nothing.
        let mut board = Board::new(3, &[1; 9]);
        board.make(Move::new(0, 0, MoveKind::Stake), Player::X);
        board.make(Move::new(0, 2, MoveKind::Stake), Player::O);
        let moves = legal_moves(&board, Player::X);
        let twins = Twins::new(&board, Player::X, &moves);
        let distinct = twins.distinct(&moves);
        let raid = |r, c| Move::new(r, c, MoveKind::Raid);
        assert!(distinct.contains(&raid(0, 1)), "B1's Raid flips C1");
        assert!(!distinct.contains(&raid(1, 0)), "A2's Raid flips nothing");
        assert_eq!(distinct.len(), moves.len() - 1);
        // Each move spreads back to itself or to its Stake.
        let back = twins.spread(&distinct);
        for (mv, got) in moves.iter().zip(back) {
            let stake = Move::new(mv.row(), mv.col(), MoveKind::Stake);
            assert!(got == *mv || (*mv == raid(1, 0) && got == stake), "{mv}");
        }
    }
}
