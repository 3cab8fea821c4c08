//! The last ply in bulk: with one ply left, every child is a leaf whose
//! score is the current score plus the mover's gain, so the node's value and
//! its textbook child count follow from one pass over the empty cells,
//! without making a single move.

use crate::board::{Board, Player};

/// For `p` to move with one ply left: the largest gain over all moves (0 on
/// a full board) and the number of legal moves (Stakes plus Raids, the
/// non-flipping Raids included, as the textbook tree counts them).
#[inline]
pub fn best_gain(board: &Board, p: Player) -> (i64, u64) {
    // A Raid gains at least what the Stake on its cell gains, so the best
    // move is the best Stake or one of the Raids that flip something.
    let mut best = i64::from(board.best_empty_value());
    let mut moves = 0u64;
    for r in 0..board.n() {
        let empty = board.empty_row(r);
        if empty == 0 {
            continue;
        }
        let raid = board.raid_row(p, r);
        moves += u64::from(empty.count_ones() + raid.count_ones());
        let mut flipping = raid & board.enemy_near_row(p, r);
        while flipping != 0 {
            let c = flipping.trailing_zeros() as usize;
            flipping &= flipping - 1;
            best = best.max(board.raid_gain(p, r, c));
        }
    }
    (best, moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::legal_moves;
    use crate::rng::{random_board, Rng};

    #[test]
    fn matches_making_every_move() {
        let mut rng = Rng::new(11);
        for round in 0..2000 {
            let n = 1 + round % 26;
            let fill = rng.range(0, 100) as f64 / 100.0;
            let mut board = random_board(&mut rng, n, 1000, fill);
            for p in [Player::X, Player::O] {
                let moves = legal_moves(&board, p);
                let before = board.score(p);
                let gains = moves.iter().map(|&mv| {
                    let undo = board.make(mv, p);
                    let g = board.score(p) - before;
                    board.unmake(undo);
                    g
                });
                let best = gains.max().unwrap();
                assert_eq!(best_gain(&board, p), (best, moves.len() as u64));
            }
        }
    }
}
