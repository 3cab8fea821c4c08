//! The last ply in bulk: with one ply left, every child is a leaf whose
//! score is the current score plus the mover's gain, so the node's value and
//! its textbook child count follow from one pass over the empty cells,
//! without making a single move.

use crate::game::{Board, Cols, Player};

/// For `p` to move with one ply left: the largest gain over all moves (0 on
/// a full board) and the number of legal moves (Stakes plus Raids, the
/// non-flipping Raids included, as the textbook tree counts them).
#[inline]
pub(crate) fn best_gain(board: &Board, p: Player) -> (i64, u64) {
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
        for c in Cols(raid & board.enemy_near_row(p, r)) {
            best = best.max(board.raid_gain(p, r, c));
        }
    }
    (best, moves)
}

/// What the player to move can expect from the empty cells if the rest of
/// the game were played by Stakes alone: both sides take the most valuable
/// empty cell in turn (optimal play when no Raid can flip anything), so the
/// mover gains the 1st, 3rd, ... values and loses the 2nd, 4th, ...
pub(crate) fn stake_playout(board: &Board) -> i64 {
    // Branch-free: this runs at every leaf, and whether a cell is empty is
    // unpredictable. `empty` and `negate` are masks (0 or -1).
    let mut sum = 0;
    let mut negate = 0i64;
    for (r, c) in board.cells_by_value() {
        let empty = -i64::from((board.empty_row(r) >> c) & 1);
        let v = i64::from(board.value(r, c));
        sum += ((v ^ negate) - negate) & empty;
        negate ^= empty;
    }
    sum
}

/// With one ply left and [`stake_playout`] valuing what follows: the best,
/// over `p`'s moves, of the move's gain less the opponent's playout of the
/// cells left, computed for every move in one pass.
///
/// Sort the empty values `e_0 >= e_1 >= ...`, with signs `s_j = +1, -1,
/// +1, ...`, signed sum `S` and prefix `F_i` (the signed sum before `i`).
/// Taking `e_i` leaves the opponent `F_i - G_i` (`G_i` the signed sum after
/// `i`: every later cell moves up one place and changes sign), so the move
/// is worth `S - 2 F_i` for even `i` and `S - 2 F_i + 2 e_i` for odd `i`:
/// never more than `S`, which taking the top cell gives. A Raid on cell `i`
/// adds its flips (`raid_gain - e_i`) to that.
pub(crate) fn best_gain_with_playout(board: &Board, p: Player) -> i64 {
    let mut targets = [0u32; crate::game::MAX_N];
    for (r, t) in targets.iter_mut().enumerate().take(board.n()) {
        *t = board.flipping_row(p, r);
    }
    let mut prefix = 0;
    let mut sign = 1;
    let mut extra = 0;
    for (r, c) in board.empties_by_value() {
        let v = i64::from(board.value(r, c));
        if targets[r] & (1 << c) != 0 {
            let odd = if sign < 0 { 2 * v } else { 0 };
            extra = extra.max(board.raid_gain(p, r, c) - v - 2 * prefix + odd);
        }
        prefix += sign * v;
        sign = -sign;
    }
    prefix + extra
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::legal_moves;
    use crate::game::random::{random_board, Rng};
    use crate::game::Board;

    /// The one-pass formula equals making each move and playing out the rest.
    #[test]
    fn playout_gain_matches_making_every_move() {
        let mut rng = Rng::new(12);
        for round in 0..1000 {
            let n = 1 + round % 12;
            let fill = rng.range(0, 100) as f64 / 100.0;
            let mut board = random_board(&mut rng, n, 50, fill);
            for p in [Player::X, Player::O] {
                let before = board.score(p);
                let best = legal_moves(&board, p)
                    .into_iter()
                    .map(|mv| {
                        let undo = board.make(mv, p);
                        let v = board.score(p) - before - stake_playout(&board);
                        board.unmake(undo);
                        v
                    })
                    .max()
                    .unwrap();
                assert_eq!(best_gain_with_playout(&board, p), best, "{board:?}");
            }
        }
    }

    #[test]
    fn playout_alternates_sorted_values() {
        let board = Board::new(2, &[5, 9, 1, 7]);
        // 9 - 7 + 5 - 1
        assert_eq!(stake_playout(&board), 6);
    }

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
