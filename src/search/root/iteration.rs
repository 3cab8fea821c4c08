//! What both roots share: the loop over the depths and, at each depth, the
//! tie-break layer that searches the root moves (`README.md` beside
//! `root/`, "The tie-break layer"). How a root move's value is found, and
//! which depths are searched, is the caller's.

use std::cmp::Reverse;

use parking_lot::Mutex;

use super::super::deadline::Deadline;
use super::super::engine::Threads;
use super::super::general::INF;
use super::super::split::in_order;
use super::super::worker::{Signals, Worker};
use super::{Iterative, RootResult, RootValue};
use crate::game::{legal_moves, Board, Move, Player, Twins};

/// The position a root search starts from and its moves, the same at
/// every depth.
pub(super) struct Root<'a> {
    pub board: &'a Board,
    pub p: Player,
    /// The legal moves in canonical order.
    pub canon: Vec<Move>,
    twins: Twins,
    /// The legal moves in canonical order, Raids that flip nothing left
    /// out: a smaller index is an earlier move.
    pub cands: Vec<Move>,
    pub empties: u32,
    /// The deepest iteration: the settings' depth, at least 1 and at most
    /// the cells left.
    pub depth: u32,
}

impl Root<'_> {
    /// The root of `board` for `p`, to search `depth` plies deep.
    pub(super) fn new(board: &Board, p: Player, depth: u32) -> Root<'_> {
        let canon = legal_moves(board, p);
        let twins = Twins::new(board, p, &canon);
        let cands = twins.distinct(&canon);
        let empties = board.empty_count();
        Root {
            board,
            p,
            canon,
            twins,
            cands,
            empties,
            depth: depth.clamp(1, empties.max(1)),
        }
    }

    /// The table of a search to the deepest iteration, at most `limit`.
    pub(super) fn table_bytes(&self, limit: Option<usize>) -> usize {
        super::table_bytes(self.board.n(), self.empties, self.depth)
            .min(limit.unwrap_or(usize::MAX))
    }
}

/// How one depth of the root ended.
pub(super) enum Iteration {
    /// Searched to the end: (best value, best candidate index) and nodes.
    Complete((i64, usize), u64),
    /// Aborted: the best of the moves searched to the end, if the first
    /// (the last iteration's best) was one of them.
    Partial(Option<(i64, usize)>),
}

/// Which depths a root search goes through.
pub(super) struct Plan {
    /// The depths, shallowest first.
    pub depths: Vec<u32>,
    /// Whether the deadline may cut depth 1 short too; otherwise depth 1
    /// always completes and gives an answer.
    pub clock_from_depth_one: bool,
}

/// How the loop over the depths ended.
pub(super) struct Deepened {
    /// The last completed iteration and its depth.
    pub done: Option<(RootResult, u32)>,
    /// The best move (and its value) of the iteration the deadline cut
    /// short, if its first move was searched to the end.
    pub partial: Option<(i64, Move)>,
}

/// Searches the depths of `plan` in turn, each by `iteration` (given the
/// depth, the signals to search under and what the last iteration knew of
/// each candidate, which it updates), and calls `on_depth` with each
/// completed one; it returns false to stop there.
pub(super) fn deepen<P>(
    root: &Root<'_>,
    settings: &Iterative<P>,
    plan: &Plan,
    mut iteration: impl FnMut(u32, Signals<'_>, &mut [RootValue]) -> Iteration,
    mut on_depth: impl FnMut(u32, &RootResult) -> bool,
) -> Deepened {
    let never = Deadline::none();
    let progress = settings.progress.clone().unwrap_or_default();
    let mut known = vec![RootValue::Exact(0); root.cands.len()];
    let mut nodes = 1u64;
    let mut done = None;
    for &d in &plan.depths {
        let deadline = match &settings.deadline {
            Some(deadline) if d > 1 || plan.clock_from_depth_one => deadline,
            _ => &never,
        };
        // The search polls the clocks only every so many nodes, and a
        // small iteration may never reach a poll.
        if d > 1 && deadline.poll() {
            break;
        }
        let signals = Signals {
            deadline,
            progress: &progress,
        };
        let ((value, best), n) = match iteration(d, signals, &mut known) {
            Iteration::Complete(best, n) => (best, n),
            Iteration::Partial(partial) => {
                return Deepened {
                    done,
                    partial: partial.map(|(value, i)| (value, root.cands[i])),
                }
            }
        };
        nodes += n;
        let result = RootResult {
            best: root.cands[best],
            value,
            nodes,
            moves: root
                .canon
                .iter()
                .copied()
                .zip(root.twins.spread(&known))
                .collect(),
        };
        progress.note_depth(d);
        let go_on = on_depth(d, &result);
        done = Some((result, d));
        if !go_on {
            break;
        }
    }
    Deepened {
        done,
        partial: None,
    }
}

/// The candidates in the order to search them, as far as the last
/// iteration tells: by what it `known` of each, best first (bounds rank
/// like values), then in canonical order. The order never changes the
/// answer, only how soon the bar is high.
pub(super) fn by_last_iteration(known: &[RootValue]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..known.len()).collect();
    order.sort_by_key(|&i| (Reverse(known[i].bound()), i));
    order
}

/// A root move's value by windows alone, `window(lo, hi)` searching the
/// position after it: the first move searched (`alpha` = -INF) gets the
/// whole window, so its value is exact; any other a null window above
/// `alpha` first, since most moves only need to be shown no better, and
/// the rest of the way up only if it fails high.
pub(super) fn by_windows(alpha: i64, mut window: impl FnMut(i64, i64) -> i64) -> i64 {
    let mut v = -INF;
    if alpha > -INF {
        v = window(alpha, alpha + 1);
    }
    if v > alpha || alpha == -INF {
        v = window(alpha, INF);
    }
    v
}

/// One depth of the root: the tie-break layer.
pub(super) struct Depth<'a> {
    pub root: &'a Root<'a>,
    pub depth: u32,
    /// Candidate indices in the order to search them.
    pub order: Vec<usize>,
    pub threads: Threads,
}

/// What one root move's search left: its index, what it proved, its
/// nodes, and whether it ended before the deadline fired.
type Searched = (usize, RootValue, u64, bool);

/// Searches every candidate at `step.depth`, the first in `step.order`
/// alone and the others in parallel on a pool, and keeps what each
/// proved in `known`. `value(b, i, alpha, w)` is candidate `i`'s value
/// where `b` is the position after it and the move must beat `alpha`:
/// exact above `alpha`, at most `alpha` otherwise.
pub(super) fn tie_break(
    step: &Depth<'_>,
    value: impl Fn(&mut Board, usize, i64, &mut Worker<'_>) -> i64 + Sync,
    signals: Signals<'_>,
    known: &mut [RootValue],
) -> Iteration {
    let Root {
        board, p, cands, ..
    } = step.root;
    let aborted = || signals.deadline.fired();
    let child = |b: &mut Board, i: usize, alpha: i64, w: &mut Worker<'_>| {
        let undo = b.make(cands[i], *p);
        let v = value(b, i, alpha, w);
        b.unmake(undo);
        v
    };
    // The first move in search order gets the full window: its value is exact.
    let mut w = Worker::new(signals);
    let first = step.order[0];
    signals
        .progress
        .start_root(step.depth, cands.len(), cands[first], board.total());
    let v = child(&mut (*board).clone(), first, -INF, &mut w);
    signals.progress.root_settled(cands[first], first, v);
    // A search stopped by the abort returns garbage; one that returned
    // before the flag was set is sound (the flag is only ever set).
    let first_valid = !aborted();
    known[first] = RootValue::Exact(v);
    let best = Mutex::new((v, first));
    let results = Mutex::new(Vec::with_capacity(step.order.len()));
    // Every other move must beat the best so far: by `>=` if it comes before
    // it in canonical order, by `>` if after. With integer values, `>= b` is
    // `> b - 1`, so each needs only a null-bounded window above one alpha.
    let run = |i: usize, b: &mut Board| {
        // Once stopped, what is left would only be searched to be discarded.
        if aborted() {
            return;
        }
        let (bv, bi) = *best.lock();
        let alpha = if i < bi { bv - 1 } else { bv };
        let mut w = Worker::new(signals);
        let v = child(b, i, alpha, &mut w);
        let valid = !aborted();
        let proved = if v > alpha {
            RootValue::Exact(v)
        } else {
            RootValue::AtMost(v)
        };
        let (bv, bi) = {
            let mut cur = best.lock();
            if v > alpha && (v > cur.0 || (v == cur.0 && i < cur.1)) {
                *cur = (v, i);
            }
            *cur
        };
        if valid {
            signals.progress.root_settled(cands[bi], bi, bv);
        }
        results.lock().push((i, proved, w.nodes, valid));
    };
    let rest = &step.order[1..];
    if step.threads == Threads::Pool {
        in_order(rest, || (*board).clone(), |b, _, &i| run(i, b));
    } else {
        let mut b = (*board).clone();
        rest.iter().for_each(|&i| run(i, &mut b));
    }
    let results = results.into_inner();
    if aborted() {
        return Iteration::Partial(first_valid.then(|| best_proved((v, first), &results)));
    }
    let mut nodes = w.nodes;
    for (i, proved, n, _) in results {
        known[i] = proved;
        nodes += n;
    }
    Iteration::Complete(best.into_inner(), nodes)
}

/// The best of `first` (the first move's value and index) and the moves
/// of `results` proved exact before the deadline fired: the first in
/// canonical order among those with the highest value.
fn best_proved(first: (i64, usize), results: &[Searched]) -> (i64, usize) {
    let mut best = first;
    for &(i, proved, _, valid) in results {
        if let (true, RootValue::Exact(v)) = (valid, proved) {
            if v > best.0 || (v == best.0 && i < best.1) {
                best = (v, i);
            }
        }
    }
    best
}
