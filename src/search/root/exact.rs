//! The exact root: the textbook answer under the game score, at any
//! thread count. It picks the engine (the compact one where it applies),
//! goes straight to the last depth where it can, orders a deep search by a
//! shallower one, and proves deep root values by null-window tests
//! (`README.md` beside `root/`, "Exact values by tests" and "The ordering
//! search").

use std::cmp::Reverse;
use std::sync::Arc;

use super::super::compact::Compact;
use super::super::engine::{FastEngine, Threads};
#[cfg(test)]
use super::super::general::Searcher;
use super::super::general::{minimax, INF};
use super::super::narrowing::{exact_by_tests, Tests};
use super::super::window::Window;
use super::super::worker::{Signals, Worker};
use super::iteration::{
    by_last_iteration, by_windows, deepen, tie_break, Depth, Iteration, Plan, Root,
};
use super::{Iterative, RootResult, RootValue};
use crate::game::{legal_moves, Board, Move, Player};

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

/// What only the exact root needs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Exact {
    /// The compact engine to search with, whose table keeps what earlier
    /// searches of positions on the same board proved (built for this
    /// board); without one, the search builds its own where it applies.
    pub compact: Option<Arc<Compact>>,
    /// On the compact engine, go from the first iteration straight to the
    /// last even under a clock, for a caller that only wants the deepest
    /// answer; otherwise only where no clock may need a shallower one.
    /// Its deeper iterations order the next one's moves worse than none
    /// at all (a depth-limited score swings with the parity of the depth).
    pub direct: bool,
}

/// Full-width minimax (MINIMAX mode): every root value exact, textbook node count.
pub(crate) fn minimax(board: &Board, p: Player, depth: u32, parallel: bool) -> RootResult {
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

/// Alpha-beta (ALPHABETA mode) by iterative deepening, the root split across
/// threads with the tie-break rule.
pub(crate) fn alphabeta(board: &Board, p: Player, depth: u32, parallel: bool) -> RootResult {
    let settings = Iterative {
        depth,
        threads: Threads::pool_if(parallel),
        ..Iterative::default()
    };
    exact(board, p, &settings, |_, _| true).0
}

/// The textbook answer by iterative deepening: searches depth 1, 2, ...
/// up to `settings.depth` (or only some of them, on the compact engine),
/// calling `on_depth` with each completed iteration; it returns false to
/// stop there. Returns the last completed iteration and its depth. Depth 1
/// always completes.
pub(crate) fn exact(
    board: &Board,
    p: Player,
    settings: &Iterative<Exact>,
    on_depth: impl FnMut(u32, &RootResult) -> bool,
) -> (RootResult, u32) {
    let focused = board.focused();
    let root = Root::new(&focused, p, settings.depth);
    let threads = settings.threads;
    let engine = match &settings.purpose.compact {
        Some(compact) => FastEngine::Compact(compact.clone(), threads),
        None => FastEngine::exact_for(board, root.table_bytes(settings.table_limit), threads),
    };
    exact_on(&root, settings, engine, on_depth)
}

/// [`exact`] on the general engine even where the compact one applies, so
/// that tests can hold the two against each other.
#[cfg(test)]
pub(crate) fn exact_on_general(
    board: &Board,
    p: Player,
    settings: &Iterative<Exact>,
) -> RootResult {
    let focused = board.focused();
    let root = Root::new(&focused, p, settings.depth);
    let bytes = root.table_bytes(settings.table_limit);
    let engine = FastEngine::General(Searcher::new(board.n(), bytes, settings.threads));
    exact_on(&root, settings, engine, |_, _| true).0
}

/// [`exact`] with `engine`.
fn exact_on(
    root: &Root<'_>,
    settings: &Iterative<Exact>,
    engine: FastEngine,
    on_depth: impl FnMut(u32, &RootResult) -> bool,
) -> (RootResult, u32) {
    let depth = root.depth;
    // The compact engine's deeper iterations order the next one's moves
    // worse than none at all, so unless a clock may need a shallower
    // answer it goes from the first iteration straight to the last.
    let untimed = settings.deadline.as_ref().is_none_or(|d| d.is_untimed());
    let direct = engine.is_compact() && (settings.purpose.direct || untimed);
    // The ordering search keeps its shallow entries out of the deep
    // search's table: their best moves, tried first, would steer the deep
    // search by a score of the wrong depth.
    let mut ordering = (direct && depth >= TESTS_MIN.max(ORDER_SHORT + 3))
        .then(|| Compact::new(root.board, ORDER_TABLE))
        .flatten()
        .map(|c| {
            let engine = FastEngine::Compact(Arc::new(c), settings.threads);
            (depth - ORDER_SHORT, engine)
        });
    let order_depth = ordering.as_ref().map(|o| o.0);
    let plan = Plan {
        depths: (1..=depth)
            .filter(|&d| !direct || d == 1 || d == depth || Some(d) == order_depth)
            .collect(),
        clock_from_depth_one: false,
    };
    let iteration = |d: u32, signals: Signals<'_>, known: &mut [RootValue]| {
        let shallow = ordering.take_if(|o| o.0 == d).map(|(_, e)| e);
        // A move the table proved best at this depth before goes first.
        let proved = engine.proved_best(root.board, root.p, d);
        let active = shallow.as_ref().unwrap_or(&engine);
        exact_iteration(root, active, d, proved, signals, known)
    };
    deepen(root, settings, &plan, iteration, on_depth)
        .done
        .expect("depth 1 is never cut short")
}

/// One depth of the exact root: the move `proved` best at this depth
/// before first, then the others by what the last iteration `known` of
/// them; from [`TESTS_MIN`] plies on the compact engine, a value that
/// must be exact comes from null-window tests.
fn exact_iteration(
    root: &Root<'_>,
    engine: &FastEngine,
    depth: u32,
    proved: Option<Move>,
    signals: Signals<'_>,
    known: &mut [RootValue],
) -> Iteration {
    let Root {
        board, p, cands, ..
    } = root;
    let by_tests = engine.is_compact() && depth >= TESTS_MIN;
    let edge = board.total();
    // Bounds on the value after candidate `i` that the solve store holds,
    // from the mover's side.
    let stored = |b: &Board| {
        by_tests
            .then(|| engine.known(b, p.other(), depth - 1))
            .flatten()
            .map(|(lo, hi)| (-hi, -lo))
    };
    // The highest lower bound a store holds first (an earlier run's best
    // move: on the finished empty 5x5 board's store the others then need
    // no search, where testing them against a lower bar first re-searched
    // 49 G nodes); then the move proved best before; then the order of
    // the last iteration.
    let floors: Vec<i64> = if by_tests {
        let mut b = (*board).clone();
        cands
            .iter()
            .map(|&mv| {
                let undo = b.make(mv, *p);
                let floor = stored(&b).map_or(-edge, |(lo, _)| lo);
                b.unmake(undo);
                floor
            })
            .collect()
    } else {
        // No store to ask: copying the board for each move here and in
        // the parallel root was 4% of a batch of small searches (`perf`).
        vec![-edge; cands.len()]
    };
    let mut order = by_last_iteration(known);
    order.sort_by_key(|&i| (Reverse(floors[i]), proved != Some(cands[i])));
    // What the last iteration knew of each move: where the tests start.
    let guesses: Vec<i64> = known.iter().map(|k| k.bound()).collect();
    let aborted = || signals.deadline.fired();
    let value = |b: &mut Board, i: usize, alpha: i64, w: &mut Worker<'_>| {
        // What a killed solve's finished tests proved of this move (the
        // store keeps them): the tests go on from there.
        let (klo, khi) = stored(b).unwrap_or((-edge, edge));
        let mut window = |lo: i64, hi: i64, w: &mut Worker<'_>| {
            -engine.search(b, p.other(), depth - 1, Window::new(lo, hi).negated(), w)
        };
        if !by_tests {
            return by_windows(alpha, |lo, hi| window(lo, hi, w));
        }
        let (tests, first) = if alpha == -INF {
            (Tests::new(-edge, edge, guesses[i]), true)
        } else {
            // A null window first: most moves only need to be shown no better.
            let v = window(alpha, alpha + 1, w);
            if v <= alpha {
                return v;
            }
            (Tests::new(v, edge, v + 1), false)
        };
        let tests = tests.knowing(klo, khi);
        if tests.next().is_none() {
            engine.note_store_answer();
        }
        let test = |beta: i64| {
            let t = window(beta - 1, beta, w);
            if first {
                signals.progress.first_tested(beta, t);
            }
            t
        };
        exact_by_tests(tests, test, aborted)
    };
    // Root moves whose values come from tests are searched one at a time,
    // each by all the threads: a tree of 12 plies or more splits enough on
    // its own, and moves taken side by side are tested against a best
    // value that one of them is about to raise. On the 22-empty 5x5 solve
    // at 2 threads, taking them side by side (in order) searched 4.90 G
    // nodes, one at a time 3.68 G (one thread: 3.28 G);
    // `profiles/2026-11-25-vm/threads.txt`.
    let step = Depth {
        root,
        depth,
        order,
        threads: if by_tests {
            Threads::One
        } else {
            engine.threads()
        },
    };
    tie_break(&step, value, signals, known)
}
