//! Bounds on a node's value that need no move made: from the pieces that
//! can no longer change owner, and, in a depth-limited search, from the
//! most the moves still to come can gain. The arguments are here and in
//! `../README.md`; the tests below hold every bound to the textbook
//! search.

use super::geometry::{Geometry, Pos, SetWord};

impl<W: SetWord, const REGION: bool> Geometry<W, REGION> {
    /// The most the side to move can end the game ahead of its current
    /// score. Only a Raid on a neighbouring empty cell turns a piece over
    /// and cells never become empty again, so a piece with no empty
    /// neighbour ([`Geometry::settled`]) keeps its owner to the end; every
    /// other cell may end up either side's. So the side to move gains at
    /// most every empty cell, and every loose piece of the opponent twice
    /// (it leaves one side for the other). This is `T - 2 S_opp` of
    /// `../README.md` less the score, without needing the score.
    #[inline(always)]
    pub(super) fn end_most(&self, pos: Pos<W>) -> i32 {
        let empty = self.empty(pos);
        let loose_opp = pos.opp & self.near(empty);
        self.sum(empty) + 2 * self.sum(loose_opp)
    }

    /// The least the side to move can end the game ahead of its current
    /// score: [`Geometry::end_most`] from the other side.
    #[inline(always)]
    pub(super) fn end_least(&self, pos: Pos<W>) -> i32 {
        let empty = self.empty(pos);
        let loose_own = pos.own & self.near(empty);
        -self.sum(empty) - 2 * self.sum(loose_own)
    }

    /// Bounds `(least, most)` on the value of `pos`, `remaining` plies
    /// deep, for the side to move, whose score is `score`, in a
    /// depth-limited search (a solve has Step 1 of the search alone).
    /// Two bounds, the tighter taken:
    /// - the settled pieces' (`../README.md`), which holds at any depth: a
    ///   cell left empty at the cut-off counts 0, inside its range;
    /// - the moves': the value is the score plus the mover's gains less the
    ///   other side's; every gain is at least 0 (values are never
    ///   negative, and a Raid turns over only enemy pieces), and a move on
    ///   cell `i` gains at most `i`'s value and twice its neighbours'. The
    ///   mover makes `ceil(remaining / 2)` of the moves, each on a
    ///   different cell empty now, so it gains at most the sum of that
    ///   many largest such maxima over the empty cells
    ///   ([`Geometry::reach`]); the other side makes `floor(remaining / 2)`.
    ///   And a side can always Stake on the most valuable empty cell: a
    ///   bound on the mover's value may fix the other side's play (the
    ///   minimum over its replies is at most the value of any one of
    ///   them), and with that play its `j`-th move, made after `2j - 1`
    ///   cells were filled, gains at least the `2j`-th largest value empty
    ///   now; likewise the mover's own `j`-th move gains at least the
    ///   `2j - 1`-th, which raises the lower bound
    ///   ([`Geometry::alternate_values`]).
    ///
    /// To the end of the game the moves' bound is loose (a 20-empty 5x5
    /// solve: 0.5% fewer nodes) and not worth its cost; on 8x8 depth 12 it
    /// leaves 0.38x the nodes (0.56x without the Stakes' floor), where the
    /// settled pieces' alone cut nothing.
    #[inline(always)]
    pub(super) fn limited_bounds(&self, pos: Pos<W>, score: i32, remaining: u32) -> (i32, i32) {
        let empty = self.empty(pos);
        let (odd, even) = self.alternate_values(empty, remaining);
        // In an i64: the moves' bound may pass an i32 (see `reach`); the
        // settled pieces' bound, within the total of the score, caps it.
        let least =
            i64::from(self.end_least(pos)).max(i64::from(odd) - self.reach(empty, remaining / 2));
        let most = i64::from(self.end_most(pos))
            .min(self.reach(empty, remaining.div_ceil(2)) - i64::from(even));
        (score + least as i32, score + most as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::random::{random_board_from, Rng};
    use crate::game::Player;
    use crate::search::reference;

    /// Every bound holds the textbook value, on small boards near their
    /// end (where many pieces are settled), at every depth; and each kind
    /// of bound is tight enough to cut somewhere, so that the test can
    /// tell a bound that never cuts from one that is right.
    #[test]
    fn bounds_hold_the_textbook_value() {
        let mut rng = Rng::new(71);
        let (mut tight_end, mut tight_reach) = (0, 0);
        for round in 0..1500 {
            let n = 2 + round % 4;
            let max = [1, 5, 99][round % 3];
            let fill = [0.5, 0.7, 0.85][round / 3 % 3];
            let board = random_board_from(&mut rng, n, 0, max, fill);
            let empties = board.empty_count();
            if empties == 0 || empties > 6 {
                continue;
            }
            let g = Geometry::<u64>::of(&board).unwrap();
            let p = if round % 2 == 0 { Player::X } else { Player::O };
            let pos = g.pos(&board, p);
            let score = board.score(p) as i32;
            for remaining in 1..=empties {
                let value = reference::alphabeta(&board, p, remaining).value as i32;
                let (least, most) = g.limited_bounds(pos, score, remaining);
                assert!(
                    least <= value && value <= most,
                    "{remaining} plies, {p:?} {board:?}"
                );
                if remaining == empties {
                    let (least, most) = (score + g.end_least(pos), score + g.end_most(pos));
                    assert!(least <= value && value <= most, "{p:?} {board:?}");
                    tight_end += usize::from(least == value || most == value);
                } else {
                    tight_reach += usize::from(least == value || most == value);
                }
            }
        }
        assert!(
            tight_end > 20 && tight_reach > 20,
            "{tight_end} {tight_reach}"
        );
    }
}
