//! The textbook choice at a position whose value is already known: what
//! each step of a principal variation needs.
//!
//! The choice is the first move in canonical order whose value is the
//! maximum. A root search finds it without knowing the maximum, so it must
//! also bound every later move. Along a principal variation the maximum is
//! known: the root search proved the root's value `v`, and the move each
//! side chooses reaches a position whose value is minus its own, one ply
//! shallower, so every position on the line has a known value. With the
//! maximum `v` known, one null-window test per move in canonical order
//! tells "value `>= v`" (then it equals `v`: nothing is above the maximum)
//! from "value `<= v - 1`"; the first move that passes is the choice, and
//! the moves after it need no search at all. On a solve store the tests
//! are mostly answered by the bounds the solve proved.

use super::engine::FastEngine;
use super::window::Window;
use super::worker::{Signals, Worker};
use crate::game::{legal_moves, Board, Move, Player, Twins};

/// How [`known_choice`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    /// The choice, with the nodes its tests took.
    Choice(Move, u64),
    /// No move reaches the value: it was not this position's value.
    Missed,
    /// The deadline fired before the choice was found.
    Aborted,
}

/// The move `p` chooses on `board` searching `plies` deep, given that the
/// position's value for `p` is `value` (see the module docs).
pub(crate) fn known_choice(
    engine: &FastEngine,
    board: &Board,
    p: Player,
    plies: u32,
    value: i64,
    signals: Signals<'_>,
) -> Known {
    let canon = legal_moves(board, p);
    // A Raid that flips nothing reaches the position its Stake reaches, and
    // the Stake comes earlier in canonical order: it can never be first.
    let cands = Twins::new(board, p, &canon).distinct(&canon);
    let mut w = Worker::new(signals);
    let mut b = board.clone();
    for mv in cands {
        let undo = b.make(mv, p);
        let reaches = if plies == 1 || b.is_full() {
            w.nodes += 1;
            b.score(p) >= value
        } else {
            // The child's value for the opponent is at most `-value`
            // exactly when this move's value for `p` is at least `value`.
            let window = Window::new(value - 1, value).negated();
            -engine.search(&mut b, p.other(), plies - 1, window, &mut w) >= value
        };
        b.unmake(undo);
        // A search stopped by the deadline returns garbage.
        if signals.deadline.fired() {
            return Known::Aborted;
        }
        if reaches {
            return Known::Choice(mv, w.nodes);
        }
    }
    Known::Missed
}
