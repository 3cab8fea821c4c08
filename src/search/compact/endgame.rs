//! The last plies of the compact search, one function per number of
//! plies left, written out: no table and no bounds, which cost more than
//! these nodes do (the settled pieces' bound at four plies left saved 6%
//! of a 21-empty solve's nodes and cost more time than that: see
//! `bounds.rs`). `last_two` serves depth-limited searches; `end_two` to
//! `end_five` a search that goes to the end of the game, where every
//! node's plies left are its empty cells. Each gives the
//! minimax value by definition; only the unrolling is new (the argument
//! for each shortcut is in `../README.md`). Like every end solver they
//! count the positions they move into, not their own: the caller has
//! counted that.

use super::geometry::{Cells, Pos, SetWord};
use super::midgame::Run;
use crate::search::window::Window;
use crate::search::worker::Worker;

impl<W: SetWord, const REGION: bool> Run<'_, W, REGION> {
    /// The last two plies: each move's gain less the best reply's. A move
    /// is worth at most its own gain (a reply never gains less than 0), so
    /// moves that cannot beat the best so far are not played out.
    #[inline]
    pub(super) fn last_two(&self, pos: Pos<W>, score: i32, beta: i32, w: &mut Worker<'_>) -> i32 {
        let g = self.g;
        let mut best = i32::MIN;
        for cell in g.empty(pos) {
            let flips = g.flips(pos, cell);
            let gain = g.gain(cell, flips);
            if score + gain <= best {
                continue;
            }
            w.nodes += 1;
            let v = score + gain - g.best_gain(g.play(pos, cell, flips));
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The last two moves of the game, on the two empty cells left: what
    /// the side to move gains over the other side, the better of the two
    /// orders. Like every end solver it counts the positions it moves
    /// into (here both), not its own: the caller has counted that.
    #[inline(always)]
    pub(super) fn end_two(&self, pos: Pos<W>, w: &mut Worker<'_>) -> i32 {
        let g = self.g;
        let empty = g.empty(pos);
        let a = empty.first();
        let b = empty.without_first().first();
        w.nodes += 2;
        let (fa, fb) = (g.flips(pos, a), g.flips(pos, b));
        let after_a = g.gain(a, fa) - g.gain_on(g.play(pos, a, fa), b);
        let after_b = g.gain(b, fb) - g.gain_on(g.play(pos, b, fb), a);
        after_a.max(after_b)
    }

    /// The last three moves of the game: the net gain of the side to move,
    /// fail-soft below `beta` (relative to the score, like the result; the
    /// replies are solved exactly, so alpha would not save anything).
    /// Moves come by gain; the first to reach beta ends it.
    #[inline(always)]
    pub(super) fn end_three(&self, pos: Pos<W>, beta: i32, w: &mut Worker<'_>) -> i32 {
        let g = self.g;
        let mut best = i32::MIN;
        for (cell, flips, gain) in self.by_gain::<3>(pos) {
            w.nodes += 1;
            let v = gain - self.end_two(g.play(pos, cell, flips), w);
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The last four moves of the game: the net gain of the side to move,
    /// fail-soft within `(alpha, beta)` (relative to the score, like the
    /// result). A move is worth its gain less the reply's net gain, so the
    /// reply's search may stop once that gain leaves the move at alpha or
    /// below.
    #[inline(always)]
    pub(super) fn end_four(&self, pos: Pos<W>, window: Window<i32>, w: &mut Worker<'_>) -> i32 {
        let g = self.g;
        let Window { mut alpha, beta } = window;
        let mut best = i32::MIN;
        for (cell, flips, gain) in self.by_gain::<4>(pos) {
            w.nodes += 1;
            let v = gain - self.end_three(g.play(pos, cell, flips), gain - alpha, w);
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        best
    }

    /// The last five moves of the game, as [`Run::end_four`] does four.
    #[inline(always)]
    pub(super) fn end_five(&self, pos: Pos<W>, window: Window<i32>, w: &mut Worker<'_>) -> i32 {
        let g = self.g;
        let Window { mut alpha, beta } = window;
        let mut best = i32::MIN;
        for (cell, flips, gain) in self.by_gain::<5>(pos) {
            w.nodes += 1;
            let reply = Window::new(gain - beta, gain - alpha);
            let v = gain - self.end_four(g.play(pos, cell, flips), reply, w);
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        best
    }

    /// The moves of a position with exactly `K` empty cells, as (cell,
    /// what it turns over, gain), largest gain first, equal gains in cell
    /// order.
    #[inline(always)]
    pub(super) fn by_gain<const K: usize>(&self, pos: Pos<W>) -> [(usize, Cells<W>, i32); K] {
        let g = self.g;
        let mut moves = [(0usize, Cells::NONE, 0i32); K];
        for (slot, cell) in moves.iter_mut().zip(g.empty(pos)) {
            let flips = g.flips(pos, cell);
            *slot = (cell, flips, g.gain(cell, flips));
        }
        for i in 1..K {
            let mut j = i;
            while j > 0 && moves[j - 1].2 < moves[j].2 {
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
        moves
    }
}
