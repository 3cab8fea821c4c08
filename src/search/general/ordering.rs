//! Move ordering for the alpha-beta search: the table's move first, then by
//! immediate gain. Most nodes end after one or two moves (a cut-off), and a
//! wide board has hundreds of moves, so a node does not build its list: the
//! Stakes come from the board's cells in order of value (kept once for the
//! whole game), the flipping Raids, usually few, are gathered and sorted,
//! and the two sequences are merged as moves are asked for.

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

/// Hands out a node's moves best-looking first: the table's move, then by
/// gain, ties by the packed move, larger first.
///
/// The board must be the node's own at every call (the search unmakes each
/// move before asking for the next): the Stakes are read off it lazily.
pub(crate) struct Picker {
    player: Player,
    one_per_cell: bool,
    /// The table's move, when it is one of the node's moves.
    first: Option<Move>,
    first_pending: bool,
    /// Sort keys of the flipping Raids, best last (popped).
    raids: Vec<u64>,
    /// Where the next Stake is looked for in the board's cells by value.
    stake_cursor: usize,
    /// The key of the next Stake, once found (`None`: look it up).
    stake_key: Option<u64>,
    left: usize,
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
        let mut raids = Vec::new();
        let mut left = 0;
        for r in 0..board.n() {
            let empty = board.empty_row(r);
            if empty == 0 {
                continue;
            }
            let flipping = board.flipping_row(p, r);
            left += empty.count_ones() as usize;
            if !one_per_cell {
                left += flipping.count_ones() as usize;
            }
            for c in Cols(flipping) {
                let raid = Move::new(r, c, MoveKind::Raid);
                raids.push(sort_key(board.raid_gain(p, r, c), raid));
            }
        }
        raids.sort_unstable();
        let mut picker = Picker {
            player: p,
            one_per_cell,
            first: None,
            first_pending: false,
            raids,
            stake_cursor: 0,
            stake_key: None,
            left,
        };
        picker.first = first.filter(|&mv| picker.offers(board, mv));
        picker.first_pending = picker.first.is_some();
        picker
    }

    /// Whether `mv` is one of the node's moves.
    fn offers(&self, board: &Board, mv: Move) -> bool {
        let (r, c) = (mv.row(), mv.col());
        if r >= board.n() || c >= board.n() || board.empty_row(r) & (1 << c) == 0 {
            return false;
        }
        let flips = board.flipping_row(self.player, r) & (1 << c) != 0;
        match mv.kind() {
            MoveKind::Stake => !(flips && self.one_per_cell),
            MoveKind::Raid => flips,
        }
    }

    /// Moves not handed out yet.
    #[inline]
    pub(crate) fn left(&self) -> usize {
        self.left
    }

    /// The best-looking move not handed out yet.
    #[inline]
    pub(crate) fn next(&mut self, board: &Board) -> Option<Move> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if self.first_pending {
            self.first_pending = false;
            return self.first;
        }
        loop {
            let stake = self.peek_stake(board);
            let raid = self.raids.last().copied();
            let key = if stake > raid {
                self.stake_key = None;
                self.stake_cursor += 1;
                stake
            } else {
                self.raids.pop();
                raid
            };
            let mv = Move::from_bits(key.expect("a move is left") as u16);
            // The table's move was handed out first.
            if Some(mv) != self.first {
                return Some(mv);
            }
        }
    }

    /// Every move not handed out yet, best-looking first.
    pub(crate) fn rest(&mut self, board: &Board) -> Vec<Move> {
        let mut moves = Vec::with_capacity(self.left);
        while let Some(mv) = self.next(board) {
            moves.push(mv);
        }
        moves
    }

    /// The key of the best Stake not handed out yet, moving the cursor to it.
    #[inline]
    fn peek_stake(&mut self, board: &Board) -> Option<u64> {
        if self.stake_key.is_none() {
            while let Some((r, c)) = board.cell_by_value(self.stake_cursor) {
                let stake = Move::new(r, c, MoveKind::Stake);
                if self.offers(board, stake) {
                    self.stake_key = Some(sort_key(i64::from(board.value(r, c)), stake));
                    break;
                }
                self.stake_cursor += 1;
            }
        }
        self.stake_key
    }
}

#[inline]
fn sort_key(gain: i64, mv: Move) -> u64 {
    // Gains are below 2^35 (five cells of at most 2^31), so the key fits.
    ((gain as u64) << 16) | u64::from(mv.bits())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::legal_moves;
    use crate::game::random::{random_board_from, Rng};

    /// The order the picker promises, built the plain way: every move of
    /// the node, the table's move first, the rest by key, largest first.
    fn sorted_moves(board: &Board, p: Player, first: Option<Move>, d: Dominance) -> Vec<Move> {
        let mut board = board.clone();
        let before = board.score(p);
        // (key, move, whether it flips something), made one by one.
        let made: Vec<(u64, Move, bool)> = legal_moves(&board, p)
            .into_iter()
            .map(|mv| {
                let undo = board.make(mv, p);
                let gain = board.score(p) - before;
                board.unmake(undo);
                (sort_key(gain, mv), mv, undo.flipped() != [0; 3])
            })
            .collect();
        let raid_flips = |cell: Move| {
            made.iter().any(|&(_, mv, flips)| {
                flips
                    && mv.kind() == MoveKind::Raid
                    && (mv.row(), mv.col()) == (cell.row(), cell.col())
            })
        };
        let mut keyed: Vec<(u64, Move)> = made
            .iter()
            .filter(|&&(_, mv, flips)| match mv.kind() {
                MoveKind::Raid => flips,
                MoveKind::Stake => !(d == Dominance::OnePerCell && raid_flips(mv)),
            })
            .map(|&(key, mv, _)| (key, mv))
            .collect();
        keyed.sort_unstable_by_key(|k| std::cmp::Reverse(k.0));
        let mut out: Vec<Move> = keyed.into_iter().map(|(_, mv)| mv).collect();
        if let Some(f) = first.filter(|f| out.contains(f)) {
            out.retain(|&mv| mv != f);
            out.insert(0, f);
        }
        out
    }

    /// Whatever mix of picks and `rest`, the moves come out in the promised
    /// order, each once, and `left` counts what is still to come.
    #[test]
    fn hands_out_every_move_once_in_order() {
        let mut rng = Rng::new(3);
        for round in 0..600 {
            let max = [1, 3, 50][round % 3];
            let fill = rng.range(0, 100) as f64 / 100.0;
            let board = random_board_from(&mut rng, 1 + round % 12, 0, max, fill);
            for p in [Player::X, Player::O] {
                for d in [Dominance::EveryMove, Dominance::OnePerCell] {
                    let all = sorted_moves(&board, p, None, d);
                    // Sometimes a move of the node, sometimes one it lacks.
                    let first = match round % 4 {
                        0 => None,
                        1 => Some(Move::new(0, 0, MoveKind::Raid)),
                        _ => all.get(round % all.len().max(1)).copied(),
                    };
                    let want = sorted_moves(&board, p, first, d);
                    let mut picker = Picker::new(&board, p, first, d);
                    assert_eq!(picker.left(), want.len());
                    let mut got = Vec::new();
                    for _ in 0..round % 6 {
                        got.extend(picker.next(&board));
                        assert_eq!(picker.left(), want.len() - got.len());
                    }
                    got.extend(picker.rest(&board));
                    assert_eq!(picker.left(), 0);
                    assert_eq!(got, want, "{board:?} {p:?} {d:?} first {first:?}");
                }
            }
        }
    }
}
