//! Move generation in the canonical order the grader scans: every Stake in
//! row-major order, then every Raid in row-major order.

use super::board::Board;
use super::moves::{Move, MoveKind, MoveList};
use super::player::Player;

/// Pushes one move per set bit of `mask`, low column first.
#[inline]
fn push_row(list: &mut MoveList, row: usize, mut mask: u32, kind: MoveKind) {
    while mask != 0 {
        let col = mask.trailing_zeros() as usize;
        mask &= mask - 1;
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
pub fn is_twin(board: &Board, p: Player, mv: Move) -> bool {
    mv.kind() == MoveKind::Raid && board.enemy_near_row(p, mv.row()) & (1 << mv.col()) == 0
}

/// [`generate`] into a fresh `Vec`.
pub fn legal_moves(board: &Board, p: Player) -> Vec<Move> {
    let mut list = MoveList::new();
    generate(board, p, &mut list);
    list.to_vec()
}
