//! Move ordering for the alpha-beta search: the table's move first, then by
//! immediate gain. Most nodes end after one or two moves (a cut-off), so
//! the first few are picked by selection and the rest sorted only when a
//! node goes on past them.

use crate::game::{Board, Cols, Player};
use crate::game::{Move, MoveKind};

/// Which children a node searches (see `Searcher::set_dominance`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dominance {
    /// Every legal move.
    EveryMove,
    /// One child per empty cell: the Raid where it flips something, else
    /// the Stake.
    OnePerCell,
}

/// Moves picked by selection before the remainder is sorted.
const LAZY_PICKS: usize = 3;

/// Hands out a node's moves best-looking first.
pub(crate) struct Picker {
    /// Sort keys: rank in the high bits, the packed move in the low 16.
    keys: Vec<u64>,
    next: usize,
    sorted: bool,
}

impl Picker {
    /// Stakes and flipping Raids of `p`. A Raid that flips nothing is left
    /// out: it leads to the same position as the Stake on its cell, so it
    /// cannot change the node's value. With [`Dominance::OnePerCell`], a Stake is left out
    /// where the Raid on its cell flips something: that Raid's value is at
    /// least the Stake's (see `README.md`), so one child per empty cell
    /// gives the node's value.
    pub(crate) fn new(
        board: &Board,
        p: Player,
        first: Option<Move>,
        dominance: Dominance,
    ) -> Picker {
        let one_per_cell = dominance == Dominance::OnePerCell;
        let mut keys = Vec::with_capacity(64);
        for r in 0..board.n() {
            let flipping = board.flipping_row(p, r);
            for c in Cols(board.empty_row(r)) {
                let flips = flipping & (1 << c) != 0;
                if !(flips && one_per_cell) {
                    let stake = Move::new(r, c, MoveKind::Stake);
                    keys.push(sort_key(i64::from(board.value(r, c)), stake, first));
                }
                if flips {
                    let raid = Move::new(r, c, MoveKind::Raid);
                    keys.push(sort_key(board.raid_gain(p, r, c), raid, first));
                }
            }
        }
        Picker {
            keys,
            next: 0,
            sorted: false,
        }
    }

    /// Moves not handed out yet.
    #[inline]
    pub(crate) fn left(&self) -> usize {
        self.keys.len() - self.next
    }

    /// The best-looking move not handed out yet.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<Move> {
        if self.next >= self.keys.len() {
            return None;
        }
        if !self.sorted {
            if self.next < LAZY_PICKS {
                let rest = &mut self.keys[self.next..];
                let (best, _) = rest
                    .iter()
                    .enumerate()
                    .max_by_key(|&(_, k)| *k)
                    .expect("not empty");
                rest.swap(0, best);
            } else {
                self.sort_rest();
            }
        }
        self.next += 1;
        Some(Move::from_bits(self.keys[self.next - 1] as u16))
    }

    /// Every move not handed out yet, best-looking first.
    pub(crate) fn rest(&mut self) -> Vec<Move> {
        self.sort_rest();
        let moves = self.keys[self.next..]
            .iter()
            .map(|&k| Move::from_bits(k as u16))
            .collect();
        self.next = self.keys.len();
        moves
    }

    fn sort_rest(&mut self) {
        if !self.sorted {
            self.keys[self.next..].sort_unstable_by(|a, b| b.cmp(a));
            self.sorted = true;
        }
    }
}

#[inline]
fn sort_key(gain: i64, mv: Move, first: Option<Move>) -> u64 {
    // Gains are below 2^35 (five cells of at most 2^31), so 2^47 outranks all.
    let rank = if first == Some(mv) {
        1 << 47
    } else {
        gain as u64
    };
    (rank << 16) | u64::from(mv.bits())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::random::{random_board, Rng};

    /// Whatever mix of picks and `rest`, the moves come out sorted, each once.
    #[test]
    fn hands_out_every_move_once_in_order() {
        let mut rng = Rng::new(3);
        for round in 0..300 {
            let board = random_board(&mut rng, 1 + round % 12, 50, 0.5);
            let all = Picker::new(&board, Player::X, None, Dominance::EveryMove).rest();
            let first = all.get(round % all.len().max(1)).copied();
            let mut want = Picker::new(&board, Player::X, first, Dominance::EveryMove).rest();
            if let Some(f) = first {
                assert_eq!(want[0], f);
            }
            let mut picker = Picker::new(&board, Player::X, first, Dominance::EveryMove);
            let mut got = Vec::new();
            for _ in 0..round % 6 {
                got.extend(picker.next());
            }
            got.extend(picker.rest());
            assert_eq!(got.len(), want.len());
            assert_eq!(got, std::mem::take(&mut want));
        }
    }
}
