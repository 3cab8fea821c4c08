//! The root of the fast searches and the deterministic tie-break layer:
//! whatever order or thread finishes first, the answer is the first move in
//! canonical order whose value is maximal. See `README.md` beside this file.

use std::cmp::Reverse;

use parking_lot::Mutex;
use rayon::prelude::*;

use std::sync::Arc;

use super::compact::Compact;
use super::deadline::Deadline;
use super::engine::{Engine, Threads};
use super::general::{minimax, Dominance, Eval, Reductions, Searcher, INF};
use super::narrowing::{exact_by_tests, Tests};
use super::progress::Progress;
use super::window::Window;
use super::worker::{Signals, Worker};
use crate::game::{legal_moves, Move, Twins};
use crate::game::{Board, Player};

/// A root move whose value must be exact, at this depth or deeper on the
/// compact engine, gets it from null-window tests rather than one wide
/// window (see `README.md`, "Exact values by tests").
const TESTS_MIN: u32 = 12;
/// A direct search this deep or deeper first orders the root by one this
/// many plies shallower (the same parity), on a table of its own: the
/// shallow search costs next to nothing beside the deep one, and it mostly
/// picks the deep search's best move, which the deep one then searches
/// first.
const ORDER_SHORT: u32 = 12;
/// The ordering search's table.
const ORDER_TABLE: usize = 4 << 20;

/// What the search proved about one root move's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootValue {
    /// The minimax value.
    Exact(i64),
    /// The minimax value is at most this (the move was proved not to be chosen).
    AtMost(i64),
}

impl RootValue {
    /// The value, or the bound on it.
    pub fn bound(self) -> i64 {
        match self {
            RootValue::Exact(v) | RootValue::AtMost(v) => v,
        }
    }
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
pub(crate) fn table_bytes(n: usize, empties: u32, depth: u32) -> usize {
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
        threads: Threads::pool_if(parallel),
        ..Iterative::default()
    };
    iterate(board, p, &settings, |_, _| true).0
}

/// Settings of an iterative-deepening alpha-beta search.
#[derive(Clone, Debug, Default)]
pub(crate) struct Iterative {
    /// Deepest iteration (capped at the number of empty cells, where the
    /// game ends).
    pub depth: u32,
    /// Whether to split work across the current rayon pool.
    pub threads: Threads,
    /// The exact answer, or a move to play.
    pub goal: Goal,
    /// Once it fires, the running iteration is abandoned and the last
    /// completed one answers.
    pub deadline: Option<Arc<Deadline>>,
    /// Where the nodes searched and the depths completed are reported as
    /// the search goes.
    pub progress: Option<Arc<Progress>>,
    /// Cap on the transposition table's size in bytes (it is otherwise
    /// sized for a full search of `depth` plies, up to 64 MiB).
    pub table_limit: Option<usize>,
}

/// What a search is for: the engine and the iterations follow from it.
#[derive(Clone, Debug)]
pub(crate) enum Goal {
    /// The textbook answer under the game score.
    Answer { engine: Pick, deepening: Deepening },
    /// A move to play, with cut-off positions valued by the [`Eval`]. Late
    /// quiet moves are searched less deeply (see
    /// [`Searcher::with_reductions`]), and when the abort cuts an
    /// iteration short after its first move (the last iteration's best)
    /// was searched, the best move it proved so far answers, at that
    /// depth's value, instead of the last completed iteration. The result
    /// is then not the textbook answer at any depth, except once the depth
    /// reaches the end of the game.
    Play(Eval),
}

impl Default for Goal {
    fn default() -> Goal {
        Goal::Answer {
            engine: Pick::Fastest,
            deepening: Deepening::UnlessTimed,
        }
    }
}

/// The engine of an exact answer.
#[derive(Clone, Debug)]
pub(crate) enum Pick {
    /// The compact engine where it applies, else the general one.
    Fastest,
    /// This compact engine, whose table keeps what earlier searches of
    /// positions on the same board proved (built for this board).
    Compact(Arc<Compact>),
    /// The general engine even where the compact one applies, so that
    /// tests can hold the two against each other.
    #[cfg(test)]
    General,
}

/// Which depths the compact engine searches: its deeper iterations order
/// the next one's moves worse than none at all (a depth-limited score
/// swings with the parity of the depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Deepening {
    /// From the first iteration straight to the last, unless a clock may
    /// need a shallower answer.
    UnlessTimed,
    /// From the first iteration straight to the last even under a clock,
    /// for a caller that only wants the deepest answer.
    Direct,
}

/// Searches depth 1, 2, ... up to `settings.depth`, calling `on_depth` with
/// each completed iteration; it returns false to stop there. Returns the
/// last completed iteration and its depth. Depth 1 always completes, except
/// in play, where the best immediate move answers at depth 0 if it did not.
pub(crate) fn iterate(
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
    let threads = settings.threads;
    let general = || Searcher::new(board.n(), bytes, threads);
    let (mut engine, play, eval) = match &settings.goal {
        Goal::Play(eval) => {
            let searcher = general()
                .with_eval(*eval)
                .with_reductions(Reductions::LateStakes);
            (Engine::General(searcher), true, *eval)
        }
        Goal::Answer { engine, .. } => {
            let compact = match engine {
                Pick::Fastest => Compact::new(board, bytes).map(Arc::new),
                Pick::Compact(compact) => Some(compact.clone()),
                #[cfg(test)]
                Pick::General => None,
            };
            let engine = match compact {
                Some(compact) => Engine::Compact(compact, threads),
                None => Engine::General(general()),
            };
            (engine, false, Eval::Score)
        }
    };
    // The compact engine's deeper iterations order the next one's moves
    // worse than none at all (a depth-limited score swings with the
    // parity of the depth), so unless a clock may need a shallower
    // answer, it goes from the first iteration straight to the last.
    let untimed = settings.deadline.as_ref().is_none_or(|d| d.is_untimed());
    let direct = engine.is_compact()
        && match settings.goal {
            Goal::Answer { deepening, .. } => deepening == Deepening::Direct || untimed,
            Goal::Play(_) => false,
        };
    // The ordering search keeps its shallow entries out of the deep
    // search's table: their best moves, tried first, would steer the deep
    // search by a score of the wrong depth.
    let mut ordering = (direct && depth >= TESTS_MIN.max(ORDER_SHORT + 3))
        .then(|| Compact::new(board, ORDER_TABLE))
        .flatten()
        .map(|c| (depth - ORDER_SHORT, Engine::Compact(Arc::new(c), threads)));
    let order_depth = ordering.as_ref().map(|o| o.0);
    let never = Deadline::none();
    let progress = settings.progress.clone().unwrap_or_default();
    let mut known = vec![RootValue::Exact(0); cands.len()];
    let mut nodes = 1u64;
    let mut done: Option<(RootResult, u32)> = None;
    let plan: Vec<u32> = (1..=depth)
        .filter(|&d| !direct || d == 1 || d == depth || Some(d) == order_depth)
        .collect();
    for d in plan {
        // Depth 1 must give an answer, so only later ones stop; in play,
        // where on a large board even depth 1 can overrun a small budget,
        // the best immediate move stands in for it.
        let deadline = match &settings.deadline {
            Some(deadline) if d > 1 || play => deadline,
            _ => &never,
        };
        let signals = Signals {
            deadline,
            progress: &progress,
        };
        if let Engine::General(searcher) = &mut engine {
            searcher.set_dominance(if eval != Eval::Quiet || d >= empties {
                Dominance::OnePerCell
            } else {
                Dominance::EveryMove
            });
        }
        let shallow = ordering.take_if(|o| o.0 == d).map(|(_, e)| e);
        // The search polls the clocks only every so many nodes, and a
        // small iteration may never reach a poll.
        if d > 1
            && settings
                .deadline
                .as_ref()
                .is_some_and(|deadline| deadline.poll())
        {
            break;
        }
        let active = shallow.as_ref().unwrap_or(&engine);
        // A move the table proved best at this depth before goes first.
        let proved = engine.proved_best(board, p, d);
        let root = Root {
            board,
            p,
            depth: d,
            cands: &cands,
        };
        let ((value, best), n) = match root_iteration(active, &root, proved, signals, &mut known) {
            Iteration::Complete(best, n) => (best, n),
            Iteration::Partial(Some((value, best))) if play => {
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
        progress.note_depth(d);
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
pub(crate) fn immediate(board: &Board, p: Player, canon: &[Move]) -> RootResult {
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

/// The position of one root iteration and its candidate moves.
struct Root<'a> {
    board: &'a Board,
    p: Player,
    depth: u32,
    /// The legal moves in canonical order, Raids that flip nothing left out.
    cands: &'a [Move],
}

/// One depth of the root: the move `proved` best at this depth before
/// first, then the others by what the last iteration `known` of them.
fn root_iteration(
    engine: &Engine,
    root: &Root<'_>,
    proved: Option<Move>,
    signals: Signals<'_>,
    known: &mut [RootValue],
) -> Iteration {
    let Root {
        board,
        p,
        depth,
        cands,
    } = *root;
    let aborted = || signals.deadline.fired();
    let by_tests = engine.is_compact() && depth >= TESTS_MIN;
    let edge = board.total();
    // The highest lower bound a store holds first (an earlier run's best
    // move: on the finished empty 5x5 board's store the others then need
    // no search, where testing them against a lower bar first re-searched
    // 49 G nodes); then the best of the last iteration; bounds rank like
    // values. The order never changes the answer (README.md beside this
    // file), only how soon the bar is high.
    let floor = |i: usize| {
        let mut b = board.clone();
        b.make(cands[i], p);
        by_tests
            .then(|| engine.known(&b, p.other(), depth - 1))
            .flatten()
            .map_or(-edge, |(_, hi)| -hi)
    };
    let floors: Vec<i64> = (0..cands.len()).map(floor).collect();
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by_key(|&i| {
        (
            Reverse(floors[i]),
            proved != Some(cands[i]),
            Reverse(known[i].bound()),
            i,
        )
    });
    // What the last iteration knew of each move: where the tests start.
    let guesses: Vec<i64> = known.iter().map(|k| k.bound()).collect();
    let child = |b: &mut Board, i: usize, alpha: i64, w: &mut Worker<'_>| {
        let undo = b.make(cands[i], p);
        // What a killed solve's finished tests proved of this move (the
        // store keeps them): the tests go on from there.
        let (klo, khi) = by_tests
            .then(|| engine.known(b, p.other(), depth - 1))
            .flatten()
            .map_or((-edge, edge), |(lo, hi)| (-hi, -lo));
        let mut window = |lo: i64, hi: i64, w: &mut Worker<'_>| {
            -engine.search(b, p.other(), depth - 1, Window::new(lo, hi).negated(), w)
        };
        // A null window first: most moves only need to be shown no better.
        let mut v = -INF;
        if alpha > -INF {
            v = window(alpha, alpha + 1, w);
        }
        if by_tests && alpha == -INF {
            let test = |beta: i64| {
                let t = window(beta - 1, beta, w);
                signals.progress.first_tested(beta, t);
                t
            };
            let tests = Tests::new(-edge, edge, guesses[i]).knowing(klo, khi);
            if tests.next().is_none() {
                engine.note_store_answer();
            }
            v = exact_by_tests(tests, test, aborted);
        } else if by_tests && v > alpha {
            let tests = Tests::new(v, edge, v + 1).knowing(klo, khi);
            if tests.next().is_none() {
                engine.note_store_answer();
            }
            v = exact_by_tests(tests, |beta| window(beta - 1, beta, w), aborted);
        } else if v > alpha || alpha == -INF {
            v = window(alpha, INF, w);
        }
        b.unmake(undo);
        v
    };
    // The first move in search order gets the full window: its value is exact.
    let mut w = Worker::new(signals);
    let first = order[0];
    signals
        .progress
        .start_root(depth, cands.len(), cands[first], edge);
    let v = child(&mut board.clone(), first, -INF, &mut w);
    signals.progress.root_settled(cands[first], v);
    let mut nodes = w.nodes;
    // A search stopped by the abort returns garbage; one that returned
    // before the flag was set is sound (the flag is only ever set).
    let first_valid = !aborted();
    known[first] = RootValue::Exact(v);
    let best = Mutex::new((v, first));
    let results = Mutex::new(Vec::with_capacity(order.len()));
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
        let n = w.nodes;
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
            signals.progress.root_settled(cands[bi], bv);
        }
        results.lock().push((i, proved, n, valid));
    };
    if engine.threads() == Threads::Pool {
        order[1..]
            .par_iter()
            .for_each(|&i| run(i, &mut board.clone()));
    } else {
        let mut b = board.clone();
        order[1..].iter().for_each(|&i| run(i, &mut b));
    }
    let results = results.into_inner();
    if aborted() {
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
