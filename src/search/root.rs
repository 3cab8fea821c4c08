//! The root of the fast searches and the deterministic tie-break layer:
//! whatever order or thread finishes first, the answer is the first move in
//! canonical order whose value is maximal. See `README.md` beside this file.

use std::cmp::Reverse;

use parking_lot::Mutex;
use rayon::prelude::*;

use std::sync::Arc;

use super::alphabeta::{Eval, Searcher, INF};
use super::compact::Compact;
use super::deadline::Deadline;
use super::minimax;
use crate::game::{legal_moves, Move, Twins};
use crate::game::{Board, Player};

/// What the search proved about one root move's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootValue {
    /// The minimax value.
    Exact(i64),
    /// The minimax value is at most this (the move was proved not to be chosen).
    AtMost(i64),
}

/// The outcome of a root search.
#[derive(Clone, Debug)]
pub struct RootResult {
    /// The chosen move: the first in canonical order with the maximal value.
    pub best: Move,
    /// Its exact minimax value.
    pub value: i64,
    /// Positions searched (for minimax: the textbook tree's count).
    pub nodes: u64,
    /// Every root move in canonical order with what is known of its value.
    pub moves: Vec<(Move, RootValue)>,
}

/// Full-width minimax (MINIMAX mode): every root value exact, textbook node count.
pub fn minimax(board: &Board, p: Player, depth: u32, parallel: bool) -> RootResult {
    let canon = legal_moves(board, p);
    let (values, nodes) = minimax::root_values(board, p, depth, &canon, parallel);
    // Strict `>` while scanning in canonical order: the first maximal move.
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    RootResult {
        best: canon[best],
        value: values[best],
        nodes,
        moves: canon
            .iter()
            .zip(values)
            .map(|(&m, v)| (m, RootValue::Exact(v)))
            .collect(),
    }
}

/// Table size for a search of `depth` plies over `empties` cells. Only
/// nodes with 3 or more plies left are stored, and there are at most
/// `empties^(depth - 3)` of them per root move, far fewer with pruning.
pub fn table_bytes(n: usize, empties: u32, depth: u32) -> usize {
    const MAX: usize = 64 << 20;
    if depth < 4 {
        return 0;
    }
    let slot = 8 * (3 + Board::key_len(n));
    let entries = u64::from(empties)
        .saturating_pow(depth - 3)
        .saturating_mul(4);
    (entries.min((MAX / slot) as u64) as usize) * slot
}

/// Alpha-beta (ALPHABETA mode) by iterative deepening, the root split across
/// threads with the tie-break rule.
pub fn alphabeta(board: &Board, p: Player, depth: u32, parallel: bool) -> RootResult {
    let settings = Iterative {
        depth,
        parallel,
        ..Iterative::default()
    };
    iterate(board, p, &settings, |_, _| true).0
}

/// Settings of an iterative-deepening alpha-beta search.
#[derive(Clone, Debug, Default)]
pub struct Iterative {
    /// Deepest iteration (capped at the number of empty cells, where the
    /// game ends).
    pub depth: u32,
    /// Whether to split work across the current rayon pool.
    pub parallel: bool,
    /// How cut-off positions are valued.
    pub eval: Eval,
    /// Once it fires, the running iteration is abandoned and the last
    /// completed one answers.
    pub deadline: Option<Arc<Deadline>>,
    /// Cap on the transposition table's size in bytes (it is otherwise
    /// sized for a full search of `depth` plies, up to 64 MiB).
    pub table_limit: Option<usize>,
    /// Play rather than answer: search late quiet moves less deeply (see
    /// [`Searcher::with_reductions`]), and when the abort cuts an iteration
    /// short after its first move (the last iteration's best) was searched,
    /// let the best move it proved so far answer, at that depth's value,
    /// instead of the last completed iteration. The result is then not the
    /// textbook answer at any depth, except once the depth reaches the end
    /// of the game.
    pub play: bool,
    /// Runs the general engine even where the compact one applies, so
    /// that tests can hold the two against each other.
    pub general: bool,
    /// A compact engine to search with, where it applies: its table keeps
    /// what earlier searches of positions on the same board proved.
    pub compact: Option<Arc<Compact>>,
    /// Goes from the first iteration straight to the last even under a
    /// clock, for a caller that only wants the deepest answer (the
    /// compact engine does so anyway when there is no clock).
    pub direct: bool,
}

/// Searches depth 1, 2, ... up to `settings.depth`, calling `on_depth` with
/// each completed iteration; it returns false to stop there. Returns the
/// last completed iteration and its depth. Depth 1 always completes, except
/// in play, where the best immediate move answers at depth 0 if it did not.
pub fn iterate(
    board: &Board,
    p: Player,
    settings: &Iterative,
    mut on_depth: impl FnMut(u32, &RootResult) -> bool,
) -> (RootResult, u32) {
    let canon = legal_moves(board, p);
    // Candidates keep canonical order, so a smaller index is an earlier move.
    let twins = Twins::new(board, p, &canon);
    let cands = twins.distinct(&canon);
    let empties = board.empty_count();
    let depth = settings.depth.clamp(1, empties.max(1));
    let bytes =
        table_bytes(board.n(), empties, depth).min(settings.table_limit.unwrap_or(usize::MAX));
    let compact = (settings.eval == Eval::Score && !settings.play && !settings.general)
        .then(|| {
            let fresh = || Compact::new(board, bytes).map(Arc::new);
            settings.compact.clone().or_else(fresh)
        })
        .flatten();
    // The compact engine's deeper iterations order the next one's moves
    // worse than none at all (a depth-limited score swings with the
    // parity of the depth), so unless a clock may need a shallower
    // answer, it goes from the first iteration straight to the last.
    let direct = compact.is_some()
        && (settings.direct || settings.deadline.as_ref().is_none_or(|d| d.is_untimed()));
    let mut searcher = match compact {
        Some(compact) => Searcher::compact(compact, board.n(), settings.parallel),
        None => Searcher::new(board.n(), bytes, settings.parallel)
            .with_eval(settings.eval)
            .with_reductions(settings.play),
    };
    let mut known = vec![RootValue::Exact(0); cands.len()];
    let mut nodes = 1u64;
    let mut done: Option<(RootResult, u32)> = None;
    for d in (1..=depth).filter(|&d| !direct || d == 1 || d == depth) {
        // Depth 1 must give an answer, so only later ones stop; in play,
        // where on a large board even depth 1 can overrun a small budget,
        // the best immediate move stands in for it.
        searcher = searcher.with_dominance(settings.eval != Eval::Quiet || d >= empties);
        if let Some(deadline) = &settings.deadline {
            if d > 1 || settings.play {
                searcher = searcher.with_deadline(deadline.clone());
            }
            // The search polls the clocks only every so many nodes, and a
            // small iteration may never reach a poll.
            if d > 1 && deadline.poll() {
                break;
            }
        }
        // Best of the last iteration first; bounds rank like values. A
        // move the table proved best at this depth before goes first of all.
        let proved = searcher.proved_best(board, p, d);
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_by_key(|&i| {
            let v = match known[i] {
                RootValue::Exact(v) | RootValue::AtMost(v) => v,
            };
            (proved != Some(cands[i]), Reverse(v), i)
        });
        let ((value, best), n) =
            match root_iteration(&searcher, board, p, d, &cands, &order, &mut known) {
                Iteration::Complete(best, n) => (best, n),
                Iteration::Partial(Some((value, best))) if settings.play => {
                    if let Some((result, _)) = &mut done {
                        (result.best, result.value) = (cands[best], value);
                    }
                    break;
                }
                Iteration::Partial(_) => break,
            };
        nodes += n;
        let result = RootResult {
            best: cands[best],
            value,
            nodes,
            moves: canon.iter().copied().zip(twins.spread(&known)).collect(),
        };
        let go_on = on_depth(d, &result);
        done = Some((result, d));
        if !go_on {
            break;
        }
    }
    done.unwrap_or_else(|| (immediate(board, p, &canon), 0))
}

/// The first move in canonical order with the best score one ply on,
/// nothing proved about the others.
pub fn immediate(board: &Board, p: Player, canon: &[Move]) -> RootResult {
    let mut b = board.clone();
    let mut best: Option<(i64, Move)> = None;
    for &mv in canon {
        let undo = b.make(mv, p);
        let s = b.score(p);
        b.unmake(undo);
        if best.is_none_or(|(v, _)| s > v) {
            best = Some((s, mv));
        }
    }
    let (value, best) = best.expect("a board that is not full has a move");
    RootResult {
        best,
        value,
        nodes: 1 + canon.len() as u64,
        moves: canon
            .iter()
            .map(|&m| (m, RootValue::AtMost(value)))
            .collect(),
    }
}

/// How one depth of the root ended.
enum Iteration {
    /// Searched to the end: (best value, best candidate index) and nodes.
    Complete((i64, usize), u64),
    /// Aborted: the best of the moves searched to the end, if the first
    /// (the last iteration's best) was one of them.
    Partial(Option<(i64, usize)>),
}

/// One depth of the root.
fn root_iteration(
    searcher: &Searcher,
    board: &Board,
    p: Player,
    depth: u32,
    cands: &[Move],
    order: &[usize],
    known: &mut [RootValue],
) -> Iteration {
    let child = |b: &mut Board, i: usize, alpha: i64, nodes: &mut u64| {
        let undo = b.make(cands[i], p);
        // A null window first: most moves only need to be shown no better.
        let mut v = -INF;
        if alpha > -INF {
            v = -searcher.search(b, p.other(), depth - 1, -alpha - 1, -alpha, None, nodes);
        }
        if v > alpha || alpha == -INF {
            v = -searcher.search(b, p.other(), depth - 1, -INF, -alpha, None, nodes);
        }
        b.unmake(undo);
        v
    };
    // The first move in search order gets the full window: its value is exact.
    let mut nodes = 0;
    let first = order[0];
    let v = child(&mut board.clone(), first, -INF, &mut nodes);
    // A search stopped by the abort returns garbage; one that returned
    // before the flag was set is sound (the flag is only ever set).
    let first_valid = !searcher.aborted();
    known[first] = RootValue::Exact(v);
    let best = Mutex::new((v, first));
    let results = Mutex::new(Vec::with_capacity(order.len()));
    // Every other move must beat the best so far: by `>=` if it comes before
    // it in canonical order, by `>` if after. With integer values, `>= b` is
    // `> b - 1`, so each needs only a null-bounded window above one alpha.
    let run = |i: usize, b: &mut Board| {
        // Once stopped, what is left would only be searched to be discarded.
        if searcher.aborted() {
            return;
        }
        let (bv, bi) = *best.lock();
        let alpha = if i < bi { bv - 1 } else { bv };
        let mut n = 0;
        let v = child(b, i, alpha, &mut n);
        let valid = !searcher.aborted();
        let proved = if v > alpha {
            RootValue::Exact(v)
        } else {
            RootValue::AtMost(v)
        };
        if v > alpha {
            let mut cur = best.lock();
            if v > cur.0 || (v == cur.0 && i < cur.1) {
                *cur = (v, i);
            }
        }
        results.lock().push((i, proved, n, valid));
    };
    if searcher.parallel() {
        order[1..]
            .par_iter()
            .for_each(|&i| run(i, &mut board.clone()));
    } else {
        let mut b = board.clone();
        order[1..].iter().for_each(|&i| run(i, &mut b));
    }
    let results = results.into_inner();
    if searcher.aborted() {
        if !first_valid {
            return Iteration::Partial(None);
        }
        let mut partial = (v, first);
        for &(i, proved, _, valid) in &results {
            if let (true, RootValue::Exact(v)) = (valid, proved) {
                if v > partial.0 || (v == partial.0 && i < partial.1) {
                    partial = (v, i);
                }
            }
        }
        return Iteration::Partial(Some(partial));
    }
    for (i, proved, n, _) in results {
        known[i] = proved;
        nodes += n;
    }
    Iteration::Complete(best.into_inner(), nodes)
}
