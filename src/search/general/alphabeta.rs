//! Parallel alpha-beta (negamax form, fail-soft) with a transposition table,
//! move ordering and Young Brothers Wait splitting. Values are exact where
//! the window says so; the root tie-break lives in [`crate::search::root`].

use super::frontier::{best_gain, best_gain_with_playout, stake_playout};
use super::ordering::{Dominance, Picker};
use super::table::{Entry, Table};
use crate::game::{Board, Cols, Player};
use crate::game::{Move, MoveKind};
use crate::search::engine::Threads;
use crate::search::split::younger_brothers;
use crate::search::window::{Bound, Window};
use crate::search::worker::Worker;

/// Larger than any game score (at most 676 cells of `i32::MAX`), and safe to negate.
pub(crate) const INF: i64 = i64::MAX;

/// Nodes with fewer plies left than this are not stored: the last ply is
/// cheaper to evaluate than to look up.
const TT_MIN_REMAINING: u32 = 3;
/// Younger brothers are searched in parallel only with this many plies left.
const YBW_MIN_REMAINING: u32 = 4;
/// Room for the packed board of the largest side (2 * 26 * 26 bits).
const KEY_WORDS: usize = Board::key_len(crate::game::MAX_N);

/// How positions at the depth cut-off are valued.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Eval {
    /// The game score: what MINIMAX and ALPHABETA mode define.
    #[default]
    Score,
    /// The score plus the rest of the game played out by Stakes alone
    /// (both sides taking the most valuable empty cell in turn). This
    /// removes the odd/even swing of a bare-score horizon and is exact once
    /// the search sees the end of the game.
    Playout,
    /// [`Eval::Playout`] after a quiescence search: at the cut-off the side
    /// to move may stop with its best Stake (valued by the playout) or make
    /// a Raid that flips something, which the other side answers the same
    /// way, up to a few plies. Raids swing the score by twice the flipped
    /// values, so a horizon that falls in the middle of an exchange of
    /// Raids misjudges the position badly; Stakes only take a cell.
    Quiet,
}

/// Reductions (in play only): moves tried in full before the rest are
/// reduced, and the fewest plies left where they are.
const REDUCE_AFTER: usize = 3;
const REDUCE_MIN_REMAINING: u32 = 3;

/// Plies of flipping Raids searched past the depth under [`Eval::Quiet`].
const QUIET_PLIES: u32 = 4;

/// The two most valuable empty cells: with two plies left, the reply to a
/// move on any cell gains at least the best value left empty after it.
struct ReplyFloor {
    top: i64,
    top_cell: (usize, usize),
    second: i64,
}

impl ReplyFloor {
    fn of(board: &Board) -> ReplyFloor {
        let mut empties = board.empties_by_value();
        let top_cell = empties.next().unwrap_or((usize::MAX, usize::MAX));
        let value =
            |cell: Option<(usize, usize)>| cell.map_or(0, |(r, c)| i64::from(board.value(r, c)));
        ReplyFloor {
            top: value(Some(top_cell).filter(|&(r, _)| r != usize::MAX)),
            top_cell,
            second: value(empties.next()),
        }
    }

    /// The least the reply gains after a move on `(r, c)`.
    fn after(&self, r: usize, c: usize) -> i64 {
        if (r, c) == self.top_cell {
            self.second
        } else {
            self.top
        }
    }
}

/// The state one search shares across its threads.
pub(crate) struct Searcher {
    tt: Table,
    key_len: usize,
    threads: Threads,
    eval: Eval,
    reductions: Reductions,
    dominance: Dominance,
}

/// Whether late quiet moves are first searched one ply shallower (see
/// [`Searcher::with_reductions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reductions {
    Off,
    /// Only in play: values are no longer exact.
    LateStakes,
}

impl Searcher {
    /// A searcher of the game score for boards of side `n`, with a table of
    /// about `tt_bytes`.
    pub(crate) fn new(n: usize, tt_bytes: usize, threads: Threads) -> Searcher {
        let key_len = Board::key_len(n);
        Searcher {
            tt: Table::new(tt_bytes, key_len),
            key_len,
            threads,
            eval: Eval::Score,
            reductions: Reductions::Off,
            dominance: Dominance::OnePerCell,
        }
    }

    /// Values cut-off positions with `eval`.
    pub(crate) fn with_eval(mut self, eval: Eval) -> Searcher {
        self.eval = eval;
        self
    }

    /// With [`Reductions::LateStakes`], late Stakes in a serial node are
    /// first searched one ply shallower, and fully only if they turn out
    /// better than alpha: more depth for the same time in play, but values
    /// are no longer exact, so never in MINIMAX or ALPHABETA mode. Lines
    /// that reach the end of the game are never reduced, so an endgame
    /// solve stays exact.
    pub(crate) fn with_reductions(mut self, reductions: Reductions) -> Searcher {
        self.reductions = reductions;
        self
    }

    /// With [`Dominance::OnePerCell`] (the default), a node searches one
    /// child per empty cell: the Raid where it flips something, else the
    /// Stake. Exact whenever the value at the cut-off is monotone in
    /// ownership, as the game score and the playout are; the quiescence
    /// search is not (a Raid flips only what the other side owns), so it
    /// is off for [`Eval::Quiet`] unless the search reaches the end of the
    /// game. The argument is in `README.md`.
    pub(crate) fn set_dominance(&mut self, dominance: Dominance) {
        self.dominance = dominance;
    }

    /// How the search spreads over threads.
    pub(crate) fn threads(&self) -> Threads {
        self.threads
    }

    /// Negamax value of `board` for `p` to move, `remaining` plies deep,
    /// within `window`: exact inside it, a bound outside it. Returns
    /// garbage (to be discarded) once `w` is stopped.
    pub(crate) fn search(
        &self,
        board: &mut Board,
        p: Player,
        remaining: u32,
        window: Window<i64>,
        w: &mut Worker<'_>,
    ) -> i64 {
        let Window { mut alpha, beta } = window;
        // Step 1. Leaves and the last ply, which needs no move made.
        w.visit();
        if remaining == 0 {
            return match self.eval {
                Eval::Score => board.score(p),
                Eval::Playout | Eval::Quiet => board.score(p) + stake_playout(board),
            };
        }
        if remaining == 1 && self.eval == Eval::Quiet {
            if w.stopped() {
                return 0;
            }
            return self.quiesce(board, p, window, QUIET_PLIES, w);
        }
        if remaining == 1 {
            return board.score(p)
                + match self.eval {
                    Eval::Score => best_gain(board, p).0,
                    Eval::Playout | Eval::Quiet => best_gain_with_playout(board, p),
                };
        }
        if w.stopped() {
            return 0;
        }

        // Step 2. Transposition table: a bound at exactly this depth may end
        // the node; any entry's move is tried first.
        let mut key_buf = [0u64; KEY_WORDS];
        let key = &mut key_buf[..self.key_len];
        let use_tt = remaining >= TT_MIN_REMAINING;
        let mut tt_move = None;
        if use_tt {
            board.key_words(key);
            if let Some(e) = self.tt.probe(board.hash(), key) {
                tt_move = e.best;
                if e.remaining == remaining && e.bound.cuts(e.value, window) {
                    return e.value;
                }
            }
        }

        // Step 3. Moves, best-looking first.
        let mut picker = Picker::new(board, p, tt_move, self.dominance);
        if picker.left() == 0 {
            return board.score(p);
        }

        // Step 4. The eldest brother alone, then the rest: in parallel when
        // the subtree is big enough, else one by one.
        let mut best = -INF;
        let mut best_move = None;
        let mut eldest = true;
        let score = board.score(p);
        let reductions = self.reductions == Reductions::LateStakes;
        let reply_floor = (remaining == 2 && self.eval == Eval::Score && !reductions)
            .then(|| ReplyFloor::of(board));
        let mut tried = 0;
        let reduce =
            reductions && remaining >= REDUCE_MIN_REMAINING && remaining < board.empty_count();
        loop {
            if !eldest
                && self.threads == Threads::Pool
                && remaining >= YBW_MIN_REMAINING
                && picker.left() > 1
            {
                let rest = picker.rest(board);
                let found = younger_brothers(&rest, Window::new(alpha, beta), w, |&mv, a, w| {
                    let mut child = board.clone();
                    child.make(mv, p);
                    self.younger(&mut child, p, remaining, Window::new(a, beta), w)
                });
                if let Some((v, i)) = found.filter(|&(v, _)| v > best) {
                    (best, best_move) = (v, Some(rest[i]));
                }
                break;
            }
            let Some(mv) = picker.next(board) else { break };
            if let Some(floor) = &reply_floor {
                // Two plies left: the reply gains at least the best value
                // left empty, so a move that cannot beat the best so far
                // even then is not made (it cannot raise the maximum).
                let (r, c) = (mv.row(), mv.col());
                let gain = match mv.kind() {
                    MoveKind::Stake => i64::from(board.value(r, c)),
                    MoveKind::Raid => board.raid_gain(p, r, c),
                };
                if best > -INF && score + gain - floor.after(r, c) <= best {
                    // The moves still to come gain no more (the table's
                    // move aside, they come by gain), so once even the
                    // smaller floor cannot save this one, none is left.
                    if Some(mv) != tt_move && score + gain - floor.second <= best {
                        break;
                    }
                    continue;
                }
            }
            tried += 1;
            let undo = board.make(mv, p);
            let mut v = alpha + 1;
            if reduce && tried > REDUCE_AFTER && mv.kind() == MoveKind::Stake && alpha > -INF {
                let null = Window::null_above(alpha).negated();
                v = -self.search(board, p.other(), remaining - 2, null, w);
            }
            if v > alpha {
                let window = Window::new(alpha, beta);
                v = if eldest {
                    self.eldest(board, p, remaining, window, w)
                } else {
                    self.younger(board, p, remaining, window, w)
                };
            }
            board.unmake(undo);
            eldest = false;
            if w.stopped() {
                return 0;
            }
            if v > best {
                (best, best_move) = (v, Some(mv));
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }

        // Step 5. Store what was proved (nothing if the search was stopped).
        if w.stopped() {
            return 0;
        }
        if use_tt {
            let entry = Entry {
                remaining,
                bound: Bound::of(best, window),
                value: best,
                best: best_move,
            };
            self.tt.store(board.hash(), key, entry);
        }
        best
    }

    /// `p`'s best over its Stakes (valued by the playout) and its flipping
    /// Raids, each Raid answered by the other side's quiescence, `plies`
    /// deep; at the last ply every move is valued by the playout.
    fn quiesce(
        &self,
        board: &mut Board,
        p: Player,
        window: Window<i64>,
        plies: u32,
        w: &mut Worker<'_>,
    ) -> i64 {
        let Window { mut alpha, beta } = window;
        w.visit();
        if plies == 0 {
            return board.score(p) + best_gain_with_playout(board, p);
        }
        if board.is_full() {
            return board.score(p);
        }
        // Cheap bounds first: the playout is worth at least nothing to the
        // side to move, and no line is worth more than its best single gain
        // (the other side's answer is worth at least nothing to it).
        let score = board.score(p);
        if score >= beta {
            return score;
        }
        let most = score + best_gain(board, p).0;
        if most <= alpha {
            return most;
        }
        let mut best = score + stake_playout(board);
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        for r in 0..board.n() {
            for c in Cols(board.flipping_row(p, r)) {
                let undo = board.make(Move::new(r, c, MoveKind::Raid), p);
                let child = Window::new(alpha, beta).negated();
                let v = -self.quiesce(board, p.other(), child, plies - 1, w);
                board.unmake(undo);
                // On a large board one quiescence search can take seconds:
                // give up at once (the callers discard what it returns).
                if w.aborted() {
                    return best;
                }
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                    alpha = alpha.max(v);
                }
            }
        }
        best
    }

    /// The value (for `p`) of the eldest child position `board`, which `p`
    /// just moved into: the full window.
    #[inline]
    fn eldest(
        &self,
        board: &mut Board,
        p: Player,
        remaining: u32,
        window: Window<i64>,
        w: &mut Worker<'_>,
    ) -> i64 {
        -self.search(board, p.other(), remaining - 1, window.negated(), w)
    }

    /// The value (for `p`) of a younger child position `board`, which `p`
    /// just moved into. Principal variation search: it is first tested
    /// with a null window above alpha and searched again only when it
    /// turns out better.
    #[inline]
    fn younger(
        &self,
        board: &mut Board,
        p: Player,
        remaining: u32,
        window: Window<i64>,
        w: &mut Worker<'_>,
    ) -> i64 {
        if window.alpha == -INF || window.is_null() {
            return self.eldest(board, p, remaining, window, w);
        }
        let q = p.other();
        let null = Window::null_above(window.alpha).negated();
        let v = -self.search(board, q, remaining - 1, null, w);
        if v > window.alpha && v < window.beta && !w.stopped() {
            return -self.search(board, q, remaining - 1, window.negated(), w);
        }
        v
    }
}
