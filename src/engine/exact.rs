//! The one exact search behind every entry point that answers MINIMAX or
//! ALPHABETA: `solve`, the library's `analyse`, `serve` and the command
//! line all take their move, value and node count from [`exact_search`].

use std::sync::Arc;

use crate::game::{Board, Move, Player, Twins};
use crate::search::root::{self, Exact, Iterative, RootResult, RootValue};
use crate::search::{known_choice, Known};
use crate::search::{Compact, Deadline, FastEngine, Progress, Signals, TableSaver, Threads};
use crate::store::StoreUse;
use crate::text::SearchMode;

/// What the three steps found.
pub(crate) struct ExactRun {
    pub best: Move,
    pub value: i64,
    pub moves: Vec<(Move, RootValue)>,
    pub pv: Vec<Move>,
    pub depth: u32,
    pub nodes: u64,
    /// Some step was cut short by `abort`.
    pub cut: bool,
}

/// Whether an exact search also finds the principal variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pv {
    Skip,
    Find,
}

/// What [`exact_search`] searches for, and with what.
#[derive(Clone, Debug)]
pub(crate) struct ExactSettings {
    /// Plies to search.
    pub target: u32,
    /// Which root values to prove: MINIMAX every move's, ALPHABETA the
    /// chosen move's (the others may be bounds).
    pub mode: SearchMode,
    pub pv: Pv,
    pub threads: Threads,
    /// Cuts any step short when it fires.
    pub deadline: Arc<Deadline>,
    /// Where the nodes searched and the depths completed are reported.
    pub progress: Option<Arc<Progress>>,
    /// The table's size (default: sized for the search).
    pub table_bytes: Option<usize>,
    /// A solve store the compact engine reads first and adds to.
    pub store: Option<StoreUse>,
}

/// The textbook answer to `settings.target` plies on `board` for `p`, in
/// three steps that the deadline can each cut short: iterative-deepening
/// alpha-beta to the depth (the chosen move and its value, other root
/// values as bounds); in MINIMAX mode, an exact value for every
/// bounded root move; with [`Pv::Find`], the principal variation (its
/// nodes not counted). Each depth the first step completes is noted in
/// the progress (which also counts the nodes as they are searched) and
/// reported to `on_depth` with the nodes so far, for progress displays.
pub(crate) fn exact_search(
    board: &Board,
    p: Player,
    settings: &ExactSettings,
    on_depth: &(dyn Fn(u32, u64) + Sync),
) -> ExactRun {
    let target = settings.target;
    let stop = &settings.deadline;
    // Every step searches positions of this board, so where the compact
    // engine applies they share one: later steps find much of what they
    // need in its table.
    let empties = board.empty_count();
    let plies = target.min(empties);
    let compact_bytes = settings
        .table_bytes
        .unwrap_or_else(|| compact_table_bytes(board.n(), empties, plies));
    let compact = Compact::new(board, compact_bytes).map(|c| {
        Arc::new(match &settings.store {
            Some(store) => c.with_store(store.clone()),
            None => c,
        })
    });
    // With a store, the table outlives a kill too, mostly.
    let saver = compact.clone().and_then(TableSaver::start);
    let deepening = |depth: u32| Iterative {
        depth,
        threads: settings.threads,
        purpose: Exact {
            compact: compact.clone(),
            direct: false,
        },
        deadline: Some(stop.clone()),
        progress: settings.progress.clone(),
        table_limit: settings.table_bytes,
    };

    // Step 1. The move and its value: iterative deepening, where an abort
    // leaves the last completed depth (depth 1 always completes).
    let (result, depth) = root::exact(board, p, &deepening(target), |d, r| {
        on_depth(d, r.nodes);
        true
    });
    let mut nodes = result.nodes;
    let mut cut = depth < target;
    let mut moves = result.moves;

    // Step 2. MINIMAX mode: the exact value of each move the root search
    // only bounded. A Raid that flips nothing reaches the position its
    // Stake reaches, and that Stake comes earlier, so it copies its value.
    if settings.mode == SearchMode::Minimax {
        let canon: Vec<Move> = moves.iter().map(|&(mv, _)| mv).collect();
        let twins = Twins::new(board, p, &canon);
        let mut distinct = twins.distinct(&moves);
        for entry in distinct.iter_mut() {
            if let (mv, RootValue::AtMost(_)) = *entry {
                let Some((v, n)) = child_value(board, p, mv, depth, &deepening) else {
                    cut = true;
                    break;
                };
                nodes += n;
                entry.1 = RootValue::Exact(v);
            }
        }
        moves = canon
            .into_iter()
            .zip(twins.spread(&distinct).into_iter().map(|(_, v)| v))
            .collect();
    }

    // Step 3. The principal variation: each side's own choice at the depth
    // left, which ends on a position scored at the root's value. Every
    // position on it has a known value (minus the one before it), so each
    // choice takes null-window tests in canonical order (`search/choice.rs`)
    // rather than a search of its own; only where that fails, which a
    // sound engine never makes it, does a full search choose.
    // Its nodes are not counted: they are not needed for the answer, and
    // with them the count would depend on whether it was asked for.
    let mut pv = vec![result.best];
    if settings.pv == Pv::Find && depth > 1 {
        let engine = match &compact {
            Some(compact) => FastEngine::Compact(compact.clone(), settings.threads),
            None => {
                let bytes = root::table_bytes(board.n(), empties, plies);
                let bytes = bytes.min(settings.table_bytes.unwrap_or(usize::MAX));
                FastEngine::exact_for(board, bytes, settings.threads)
            }
        };
        let progress = settings.progress.clone().unwrap_or_default();
        let signals = Signals {
            deadline: stop,
            progress: &progress,
        };
        let mut b = board.clone();
        b.make(result.best, p);
        let mut to_move = p.other();
        let mut value = -result.value;
        for left in (1..depth).rev() {
            if b.is_full() {
                break;
            }
            let mv = match known_choice(&engine, &b, to_move, left, value, signals) {
                Known::Choice(mv, _) => mv,
                Known::Aborted => {
                    cut = true;
                    break;
                }
                Known::Missed => match choice(&b, to_move, left, &deepening) {
                    Some((mv, _)) => mv,
                    None => {
                        cut = true;
                        break;
                    }
                },
            };
            pv.push(mv);
            b.make(mv, to_move);
            to_move = to_move.other();
            value = -value;
        }
    }

    if let Some(saver) = saver {
        saver.finish();
    }
    ExactRun {
        best: result.best,
        value: result.value,
        moves,
        pv,
        depth,
        nodes,
        cut,
    }
}

/// The compact engine's default table: as the general engine's (at most
/// 64 MiB) up to 19 plies, then twice as large for each ply more, up to
/// 1 GiB. Past 19 plies a solve takes seconds to minutes, and a 64 MiB
/// table is overwritten so often that it loses most of what it proved
/// (5x5 with 21 empty cells, 2 threads: 60 s with 64 MiB, 36 s with 1 GiB).
pub(crate) fn compact_table_bytes(n: usize, empties: u32, plies: u32) -> usize {
    let general = root::table_bytes(n, empties, plies);
    match plies.checked_sub(19) {
        Some(more) if more > 0 => (64 << 20) << more.min(4),
        _ => general,
    }
}

/// The exact value for `p` of playing `mv` and searching `depth` plies in
/// all, with its node count; `None` if aborted first.
fn child_value(
    board: &Board,
    p: Player,
    mv: Move,
    depth: u32,
    deepening: &dyn Fn(u32) -> Iterative<Exact>,
) -> Option<(i64, u64)> {
    let mut b = board.clone();
    b.make(mv, p);
    if depth == 1 || b.is_full() {
        return Some((b.score(p), 1));
    }
    // The game is zero-sum: the child's value for `p` is minus its value
    // for the opponent, who moves there with one ply less to go.
    exact(&b, p.other(), depth - 1, deepening).map(|r| (-r.value, r.nodes))
}

/// The move `p` chooses on `board` searching `depth` plies, with the nodes
/// it took; `None` if aborted first.
fn choice(
    board: &Board,
    p: Player,
    depth: u32,
    deepening: &dyn Fn(u32) -> Iterative<Exact>,
) -> Option<(Move, u64)> {
    exact(board, p, depth, deepening).map(|r| (r.best, r.nodes))
}

/// A complete search of `depth` plies; `None` if aborted first.
fn exact(
    board: &Board,
    p: Player,
    depth: u32,
    deepening: &dyn Fn(u32) -> Iterative<Exact>,
) -> Option<RootResult> {
    let settings = deepening(depth);
    // Depth 1 completes even when aborted, so only deeper searches are
    // skipped once the flag is up: no table is built for nothing.
    if depth > 1 && settings.deadline.as_ref().is_some_and(|d| d.poll()) {
        return None;
    }
    let (r, got) = root::exact(board, p, &settings, |_, _| true);
    (got == depth.min(board.empty_count())).then_some(r)
}
