//! Parallel alpha-beta (negamax form, fail-soft) with a transposition table,
//! move ordering and Young Brothers Wait splitting. Values are exact where
//! the window says so; the root tie-break lives in [`super::root`].

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};

use parking_lot::Mutex;
use rayon::prelude::*;

use super::frontier::best_gain;
use super::tt::{Bound, Entry, Table};
use crate::board::{Board, Player};
use crate::moves::{Move, MoveKind};

/// Larger than any game score (at most 676 cells of `i32::MAX`), and safe to negate.
pub const INF: i64 = i64::MAX;

/// Nodes with fewer plies left than this are not stored: the last ply is
/// cheaper to evaluate than to look up.
const TT_MIN_REMAINING: u32 = 3;
/// Younger brothers are searched in parallel only with this many plies left.
const YBW_MIN_REMAINING: u32 = 4;
/// Room for the packed board of the largest side (2 * 26 * 26 bits).
const KEY_WORDS: usize = Board::key_len(crate::board::MAX_N);

/// A place where younger brothers run in parallel: a cut-off there stops
/// them, and a stop of any enclosing split point stops them too.
pub struct SplitPoint<'a> {
    stop: AtomicBool,
    parent: Option<&'a SplitPoint<'a>>,
}

impl SplitPoint<'_> {
    fn stopped(&self) -> bool {
        self.stop.load(Relaxed) || self.parent.is_some_and(|p| p.stopped())
    }
}

fn stopped(sp: Option<&SplitPoint<'_>>) -> bool {
    sp.is_some_and(|s| s.stopped())
}

/// The state one search shares across its threads.
pub struct Searcher {
    tt: Table,
    key_len: usize,
    parallel: bool,
}

impl Searcher {
    /// A searcher for boards of side `n`, with a table of about `tt_bytes`.
    pub fn new(n: usize, tt_bytes: usize, parallel: bool) -> Searcher {
        let key_len = Board::key_len(n);
        Searcher {
            tt: Table::new(tt_bytes, key_len),
            key_len,
            parallel,
        }
    }

    /// Whether younger brothers may be searched in parallel.
    pub fn parallel(&self) -> bool {
        self.parallel
    }

    /// Negamax value of `board` for `p` to move, `remaining` plies deep,
    /// within `(alpha, beta)`: exact inside the window, a bound outside it.
    /// Returns garbage (to be discarded) once `sp` is stopped.
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &self,
        board: &mut Board,
        p: Player,
        remaining: u32,
        mut alpha: i64,
        beta: i64,
        sp: Option<&SplitPoint<'_>>,
        nodes: &mut u64,
    ) -> i64 {
        // Step 1. Leaves and the last ply, which needs no move made.
        *nodes += 1;
        if remaining == 0 {
            return board.score(p);
        }
        if remaining == 1 {
            return board.score(p) + best_gain(board, p).0;
        }
        if stopped(sp) {
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
                if e.remaining == remaining {
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.value >= beta,
                        Bound::Upper => e.value <= alpha,
                    };
                    if cut {
                        return e.value;
                    }
                }
            }
        }

        // Step 3. Moves, best-looking first.
        let moves = ordered_moves(board, p, tt_move);
        if moves.is_empty() {
            return board.score(p);
        }

        // Step 4. The eldest brother alone, then the rest: in parallel when
        // the subtree is big enough, else one by one.
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = moves[0];
        for (i, &mv) in moves.iter().enumerate() {
            if i > 0 && self.parallel && remaining >= YBW_MIN_REMAINING && moves.len() - i > 1 {
                let (v, m) =
                    self.younger_brothers(board, p, remaining, alpha, beta, &moves[i..], sp, nodes);
                if v > best {
                    (best, best_move) = (v, m);
                }
                break;
            }
            let undo = board.make(mv, p);
            let v = -self.search(board, p.other(), remaining - 1, -beta, -alpha, sp, nodes);
            board.unmake(undo);
            if stopped(sp) {
                return 0;
            }
            if v > best {
                (best, best_move) = (v, mv);
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }

        // Step 5. Store what was proved (nothing if the search was stopped).
        if stopped(sp) {
            return 0;
        }
        if use_tt {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let entry = Entry {
                remaining,
                bound,
                value: best,
                best: Some(best_move),
            };
            self.tt.store(board.hash(), key, entry);
        }
        best
    }

    /// Searches `moves` in parallel with a shared alpha; the first to reach
    /// `beta` stops the others. Returns the best value and its move (the
    /// value is `-INF` if every search was stopped).
    #[allow(clippy::too_many_arguments)]
    fn younger_brothers(
        &self,
        board: &Board,
        p: Player,
        remaining: u32,
        alpha: i64,
        beta: i64,
        moves: &[Move],
        sp: Option<&SplitPoint<'_>>,
        nodes: &mut u64,
    ) -> (i64, Move) {
        let split = SplitPoint {
            stop: AtomicBool::new(false),
            parent: sp,
        };
        let shared_alpha = AtomicI64::new(alpha);
        let best = Mutex::new((-INF, moves[0]));
        let counted = AtomicU64::new(0);
        moves.par_iter().for_each(|&mv| {
            if split.stopped() {
                return;
            }
            let a = shared_alpha.load(Relaxed);
            if a >= beta {
                return;
            }
            let mut child = board.clone();
            let mut n = 0;
            child.make(mv, p);
            let v = -self.search(
                &mut child,
                p.other(),
                remaining - 1,
                -beta,
                -a,
                Some(&split),
                &mut n,
            );
            counted.fetch_add(n, Relaxed);
            // A stopped search's value is garbage; a cut-off that stopped it
            // has already recorded a value >= beta.
            if split.stopped() {
                return;
            }
            let mut b = best.lock();
            if v > b.0 {
                *b = (v, mv);
            }
            shared_alpha.fetch_max(v, Relaxed);
            if v >= beta {
                split.stop.store(true, Relaxed);
            }
        });
        *nodes += counted.into_inner();
        best.into_inner()
    }
}

/// Stakes and flipping Raids, the table's move first, then by immediate gain.
/// A Raid that flips nothing is left out: it leads to the same position as
/// the Stake on its cell, so it cannot change the node's value.
fn ordered_moves(board: &Board, p: Player, first: Option<Move>) -> Vec<Move> {
    // Sort keys: gain in the high bits, the move in the low 16.
    let mut keyed: Vec<u64> = Vec::with_capacity(64);
    for r in 0..board.n() {
        let mut empty = board.empty_row(r);
        let flipping = board.raid_row(p, r) & board.enemy_near_row(p, r);
        while empty != 0 {
            let c = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let stake = Move::new(r, c, MoveKind::Stake);
            keyed.push(sort_key(i64::from(board.value(r, c)), stake, first));
            if flipping & (1 << c) != 0 {
                let raid = Move::new(r, c, MoveKind::Raid);
                keyed.push(sort_key(board.raid_gain(p, r, c), raid, first));
            }
        }
    }
    keyed.sort_unstable_by(|a, b| b.cmp(a));
    keyed
        .into_iter()
        .map(|k| Move::from_bits(k as u16))
        .collect()
}

#[inline]
fn sort_key(gain: i64, mv: Move, first: Option<Move>) -> u64 {
    let rank = if first == Some(mv) {
        1 << 47
    } else {
        gain as u64
    };
    (rank << 16) | u64::from(mv.bits())
}
