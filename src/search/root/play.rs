//! The play root: a move to play under a clock, on the general engine,
//! with cut-off positions valued by an [`Eval`] and late quiet moves
//! searched less deeply (see [`Searcher::with_reductions`]). When the
//! deadline cuts an iteration short after its first move (the last
//! iteration's best) was searched, the best move it proved so far
//! answers, at that depth's value, instead of the last completed
//! iteration. The result is then not the textbook answer at any depth,
//! except once the depth reaches the end of the game.

use super::super::general::{Dominance, Eval, Reductions, Searcher};
use super::super::window::Window;
use super::super::worker::{Signals, Worker};
use super::iteration::{
    by_last_iteration, by_windows, deepen, tie_break, Deepened, Depth, Plan, Root,
};
use super::{Iterative, RootResult, RootValue};
use crate::game::{Board, Move, Player};

/// What only the play root needs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Play {
    /// How positions at the cut-off are valued.
    pub eval: Eval,
}

/// A move to play: searches depth 1, 2, ... up to `settings.depth`,
/// calling `on_depth` with each completed iteration; it returns false to
/// stop there. Returns the last completed iteration (or the better move
/// the next one proved before the deadline) and its depth; where even
/// depth 1 overran the deadline, the best immediate move at depth 0.
pub(crate) fn play(
    board: &Board,
    p: Player,
    settings: &Iterative<Play>,
    on_depth: impl FnMut(u32, &RootResult) -> bool,
) -> (RootResult, u32) {
    let focused = board.focused();
    let root = Root::new(&focused, p, settings.depth);
    let eval = settings.purpose.eval;
    let bytes = root.table_bytes(settings.table_limit);
    let mut searcher = Searcher::new(board.n(), bytes, settings.threads)
        .with_eval(eval)
        .with_reductions(Reductions::LateStakes);
    // On a large board even depth 1 can overrun a small budget: the
    // clock may stop it too, and the best immediate move stands in.
    let plan = Plan {
        depths: (1..=root.depth).collect(),
        clock_from_depth_one: true,
    };
    let iteration = |d: u32, signals: Signals<'_>, known: &mut [RootValue]| {
        searcher.set_dominance(if eval != Eval::Quiet || d >= root.empties {
            Dominance::OnePerCell
        } else {
            Dominance::EveryMove
        });
        let searcher = &searcher;
        let value = |b: &mut Board, _: usize, alpha: i64, w: &mut Worker<'_>| {
            by_windows(alpha, |lo, hi| {
                -searcher.search(b, p.other(), d - 1, Window::new(lo, hi).negated(), w)
            })
        };
        let step = Depth {
            root: &root,
            depth: d,
            order: by_last_iteration(known),
            threads: searcher.threads(),
        };
        tie_break(&step, value, signals, known)
    };
    match deepen(&root, settings, &plan, iteration, on_depth) {
        Deepened {
            done: Some((mut result, depth)),
            partial,
        } => {
            if let Some((value, best)) = partial {
                (result.best, result.value) = (best, value);
            }
            (result, depth)
        }
        Deepened { done: None, .. } => (immediate(board, p, &root.canon), 0),
    }
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
