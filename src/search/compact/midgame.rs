//! Fail-soft negamax alpha-beta over compact positions from the root down
//! to the last plies ([`super::endgame`] takes over there): bounds from
//! settled pieces, the table, enhanced transposition cut-offs, move
//! ordering, principal variation search and Young Brothers Wait splitting.

use std::mem::MaybeUninit;
use std::sync::Arc;

use super::durable::{Durable, Frame};
use super::geometry::{Cells, Geometry, Pos, SetWord};
use super::table::{Hit, Table};
use crate::game::{Board, Move, Player};
use crate::search::counters;
use crate::search::engine::Threads;
use crate::search::split::younger_brothers;
use crate::search::window::{Bound, Window};
use crate::search::worker::Worker;
use crate::store::{Store, StoreUse};

/// Nodes with fewer plies left are not stored: they are cheaper to search
/// than to look up.
const TABLE_MIN: u32 = 5;
/// At most this many table entries are saved beside a store: 24 MiB, the
/// deepest 3% of a 1 GiB table, written in a fraction of a second.
const TABLE_KEPT: usize = 1 << 20;
/// Children are probed in the table before any is searched (enhanced
/// transposition cut-offs) from this many plies left.
const ETC_MIN: u32 = 7;
/// Children are ordered by their gain net of the best reply from this many
/// plies left, and by their bare gain below: nearer the leaves the
/// lookahead costs more than the better order saves (measured on 5x5 full
/// solves and 8x8 depth 11: 10 to 30% faster than from 4 plies).
const LOOKAHEAD_MIN: u32 = 8;
/// Younger brothers are searched in parallel only with this many plies
/// left and this many empty cells: below that a subtree costs a few
/// microseconds, of the order of handing it to another thread. Plies alone
/// do not say it: a node of a solve has as many children as plies left,
/// one of a shallow search of a wide board several times more. At 2
/// threads the 21-empty solve searched 75.6 M nodes/s splitting from 10
/// empty cells, 77.7 from 12 and 78.0 from 14 (one thread: 40.8), while
/// 8x8 depth 12 took 8% longer splitting from 11 plies than from 7;
/// `profiles/2026-11-25-vm/threads.txt`.
const YBW_MIN: u32 = 7;
/// See [`YBW_MIN`].
const YBW_EMPTIES: u32 = 12;

/// The search's state that lives across iterations: the geometry and the
/// table, for sets of cells in `W`.
pub(crate) struct Engine<W: SetWord, const REGION: bool> {
    g: Geometry<W, REGION>,
    table: Table,
    durable: Option<Durable>,
}

impl<W: SetWord, const REGION: bool> std::fmt::Debug for Engine<W, REGION> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (n, size) = (self.g.n(), self.g.size());
        let shape = if self.g.is_region() { "region of " } else { "" };
        let mib = self.table.bytes() >> 20;
        write!(
            f,
            "Compact({shape}{size} cells of {n}x{n}, {mib} MiB table)"
        )
    }
}

/// One child: the cell moved on, what it turns over, and the mover's gain.
#[derive(Clone, Copy)]
struct Child<W: SetWord> {
    cell: usize,
    flips: Cells<W>,
    gain: i32,
    key: i32,
}

impl<W: SetWord, const REGION: bool> Engine<W, REGION> {
    /// The search on `g` with a table of about `table_bytes`.
    pub(crate) fn new(g: Geometry<W, REGION>, table_bytes: usize) -> Engine<W, REGION> {
        let table = Table::new(table_bytes, g.size());
        Engine {
            g,
            table,
            durable: None,
        }
    }

    /// Whether a search of `board` can run here (see [`Geometry::covers`]).
    pub(crate) fn covers(&self, board: &Board) -> bool {
        self.g.covers(board)
    }

    /// Also keeps the proofs of its top positions in a solve store (see
    /// [`Durable`]), and answers from it what earlier runs proved; its
    /// table starts with what the last solve saved beside the store.
    pub(crate) fn with_store(mut self, store: StoreUse) -> Engine<W, REGION> {
        let g = &self.g;
        let entries = store.store.take_table();
        if self.fits_table_file() {
            for entry in entries {
                self.table.restore(entry, |pos: Pos<W>, hit: Hit| {
                    let empty = g.empty(pos);
                    // The two sets are disjoint, on the board, and the entry
                    // searched no more plies than there are empty cells.
                    !pos.own.meets(pos.opp)
                        && empty.count() + pos.own.count() + pos.opp.count() == g.size() as u32
                        && hit.remaining <= empty.count()
                        && hit.best.is_none_or(|c| empty.contains(c))
                });
            }
        }
        self.durable = Some(Durable(store));
        self
    }

    /// The store it keeps its proofs in, if any.
    pub(crate) fn store(&self) -> Option<&Arc<Store>> {
        self.durable.as_ref().map(|Durable(store)| &store.store)
    }

    /// Saves the table's deepest entries beside the store, if it has one
    /// that keeps them (see `store/table_file.rs`).
    pub(crate) fn save_table(&self) {
        if let Some(Durable(store)) = &self.durable {
            if store.store.keeps_table() {
                store.store.save_table(&self.kept_entries());
            }
        }
    }

    /// Whether the table's entries fit the table file beside a store: it
    /// names cells of the whole board in one word, where a region's cells
    /// are others and a larger board's take two.
    fn fits_table_file(&self) -> bool {
        !self.g.is_region() && self.g.size() <= 64
    }

    /// The entries of the table worth saving beside a store: none that
    /// do not fit its file.
    pub(crate) fn kept_entries(&self) -> Vec<crate::store::Entry> {
        if !self.fits_table_file() {
            return Vec::new();
        }
        self.table.deepest(TABLE_KEPT, TABLE_MIN)
    }

    /// How often the table is saved beside the store at most; `None`
    /// without a store that keeps it.
    pub(crate) fn table_every(&self) -> Option<std::time::Duration> {
        let Durable(store) = self.durable.as_ref()?;
        let kept = store.store.keeps_table() && self.fits_table_file();
        kept.then_some(store.table_every)
    }

    /// The move the table holds as best for `board`, `p` to move,
    /// `remaining` plies deep, from an exact result.
    pub(crate) fn proved_best(&self, board: &Board, p: Player, remaining: u32) -> Option<Move> {
        let pos = self.g.pos(board, p);
        let hit = self.table.probe(pos)?;
        let remaining = remaining.min(self.g.empty(pos).count());
        if hit.remaining != remaining || hit.bound != Bound::Exact {
            return None;
        }
        Some(self.g.move_at(pos, hit.best?))
    }

    /// Bounds on the value of `board` (`p` to move, `remaining` plies)
    /// that the table holds from a finished search: `lo <= value <= hi`.
    pub(crate) fn table_bounds(
        &self,
        board: &Board,
        p: Player,
        remaining: u32,
    ) -> Option<(i64, i64)> {
        let pos = self.g.pos(board, p);
        let hit = self.table.probe(pos)?;
        if hit.remaining != remaining.min(self.g.empty(pos).count()) {
            return None;
        }
        // The table holds values on the cells searched: the rest of the
        // board is a constant of the score.
        let outside = self.g.outside_score(board, p, pos);
        let (v, edge) = (i64::from(hit.value) + outside, self.g.total());
        Some(match hit.bound {
            Bound::Exact => (v, v),
            Bound::Lower => (v, outside + edge),
            Bound::Upper => (outside - edge, v),
        })
    }

    /// Counts a search that bounds from [`Engine::known`] made needless.
    pub(crate) fn note_store_answer(&self) {
        if let Some(Durable(store)) = &self.durable {
            store.store.note_answer();
        }
    }

    /// Bounds on the value of `board` (`p` to move, `remaining` plies)
    /// that the solve store holds, if it holds any.
    pub(crate) fn known(&self, board: &Board, p: Player, remaining: u32) -> Option<(i64, i64)> {
        let Durable(store) = self.durable.as_ref()?;
        let remaining = remaining.min(board.empty_count());
        store
            .store
            .get(board, p, remaining)
            .map(|proven| (proven.lo, proven.hi))
    }

    /// Negamax value of `board` for `p` to move, `remaining` plies deep,
    /// within `window`, fail-soft: exact inside the window, a bound outside
    /// it. Garbage once `w` is stopped.
    pub(crate) fn search(
        &self,
        board: &Board,
        p: Player,
        remaining: u32,
        window: Window<i64>,
        threads: Threads,
        w: &mut Worker<'_>,
    ) -> i64 {
        debug_assert!(self.covers(board), "{board:?} is not this search's board");
        let pos = self.g.pos(board, p);
        let empties = self.g.empty(pos).count();
        let remaining = remaining.min(empties);
        let outside = self.g.outside_score(board, p, pos);
        let durable = self.durable.as_ref();
        let run = Run {
            g: &self.g,
            table: &self.table,
            threads,
            to_end: remaining == empties,
            durable,
            frame: durable.map(|_| Frame::of(board, p, outside)),
            root: (p, remaining),
        };
        // No value lies outside [-total, total] on the cells searched: a
        // wider window only needs to be just wider.
        let edge = self.g.total() + 1;
        let window = Window::new(
            window.alpha.saturating_sub(outside).clamp(-edge, edge) as i32,
            window.beta.saturating_sub(outside).clamp(-edge, edge) as i32,
        );
        let score = self.g.score(pos);
        i64::from(run.search(pos, score, remaining, window, w)) + outside
    }
}

pub(super) struct Run<'a, W: SetWord, const REGION: bool> {
    pub(super) g: &'a Geometry<W, REGION>,
    table: &'a Table,
    threads: Threads,
    /// Every node's plies left are its empty cells: the search goes to the
    /// end of the game (both fall by one a ply, so this holds for the
    /// whole tree or for none of it), and the last plies are solved by
    /// [`Run::end_two`] up to [`Run::end_five`].
    pub(super) to_end: bool,
    /// The store, for positions with enough plies left.
    durable: Option<&'a Durable>,
    /// With a store, the board the search began on, which names its
    /// positions in full.
    frame: Option<Frame>,
    /// Who moves at the search's root, and its plies: the store names
    /// positions by their player to move, which alternates by ply.
    root: (Player, u32),
}

impl<W: SetWord, const REGION: bool> Run<'_, W, REGION> {
    /// Starts loading the table buckets of `pos`'s children: where they
    /// will be looked up before any is searched (enhanced transposition
    /// cut-offs), the misses then overlap with the work done until then.
    #[inline(always)]
    fn prefetch_children(&self, pos: Pos<W>) {
        let g = self.g;
        for cell in g.empty(pos) {
            self.table.prefetch(g.play(pos, cell, g.flips(pos, cell)));
        }
    }

    /// The side to move at a node with `remaining` plies left.
    fn mover(&self, remaining: u32) -> Player {
        let (p, plies) = self.root;
        if (plies - remaining).is_multiple_of(2) {
            p
        } else {
            p.other()
        }
    }

    /// `remaining` is at most the number of empty cells; `score` is the
    /// game score for the side to move.
    fn search(
        &self,
        pos: Pos<W>,
        score: i32,
        remaining: u32,
        window: Window<i32>,
        w: &mut Worker<'_>,
    ) -> i32 {
        let g = self.g;
        let Window { mut alpha, beta } = window;
        w.visit();
        if remaining <= 4 {
            // The last plies tick once for all their nodes, and the
            // progress display hears of the rest with the next tick.
            let before = w.nodes;
            let v = match remaining {
                0 => return score,
                1 => return score + g.best_gain(pos),
                2 if self.to_end => Some(score + self.end_two(pos, w)),
                2 => Some(self.last_two(pos, score, beta, w)),
                3 if self.to_end => Some(score + self.end_three(pos, beta - score, w)),
                4 if self.to_end => {
                    let relative = Window::new(alpha - score, beta - score);
                    Some(score + self.end_four(pos, relative, w))
                }
                _ => None,
            };
            if let Some(v) = v {
                w.report_later(w.nodes - before);
                return v;
            }
        }
        if w.stopped() {
            return 0;
        }
        counters::node(remaining);

        // Step 1. Settled pieces keep their owner to the end, so the value
        // lies between "every other cell is the opponent's" and "every
        // other cell is mine"; short of the end, the moves left can gain
        // only so much, too (`bounds.rs`).
        if self.to_end {
            let settled = g.settled(pos);
            let total = g.total() as i32;
            let most = total - 2 * g.sum(settled & pos.opp);
            if most <= alpha {
                counters::bound(remaining);
                return most;
            }
            let least = 2 * g.sum(settled & pos.own) - total;
            if least >= beta {
                counters::bound(remaining);
                return least;
            }
        } else {
            let (least, most) = g.limited_bounds(pos, score, remaining);
            if most <= alpha {
                counters::bound(remaining);
                return most;
            }
            if least >= beta {
                counters::bound(remaining);
                return least;
            }
        }

        // In a solve, the last five plies are written out: cheaper than the
        // table, whose probe misses the cache more often than not.
        if remaining == 5 && self.to_end {
            let before = w.nodes;
            let v = score + self.end_five(pos, Window::new(alpha - score, beta - score), w);
            w.report_later(w.nodes - before);
            return v;
        }

        // Step 2. The table: a bound for exactly these plies may end the
        // node; any entry's move is tried first.
        let mut first = None;
        if remaining >= TABLE_MIN {
            let hit = self.table.probe(pos);
            if let Some(hit) = hit {
                first = hit.best;
                if hit.remaining == remaining && hit.bound.cuts(hit.value, window) {
                    counters::probe(remaining, true, true);
                    return hit.value;
                }
            }
            counters::probe(remaining, hit.is_some(), false);
        }

        // Step 2b. The store: what earlier runs proved of this position.
        let durable = self
            .durable
            .zip(self.frame.as_ref())
            .filter(|(d, _)| d.keeps(remaining));
        let started = match durable {
            Some((d, frame)) => {
                let (key, outside) = frame.name(g, pos, self.mover(remaining), remaining);
                match d.settle(key, outside, window, w.nodes) {
                    Ok(v) => return v,
                    Err(started) => {
                        first = first.or(started.first.and_then(|mv| g.cell_of(mv)));
                        Some(started)
                    }
                }
            }
            None => None,
        };

        // Step 3. Children, valued by their bare gain for now.
        let mut buf = [MaybeUninit::<Child<W>>::uninit(); 128];
        let mut count = 0;
        for cell in g.empty(pos) {
            let flips = g.flips(pos, cell);
            let gain = g.gain(cell, flips);
            buf[count].write(Child {
                cell,
                flips,
                gain,
                key: gain,
            });
            count += 1;
        }
        // SAFETY: the first `count` children were written just above.
        let children =
            unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<Child<W>>(), count) };

        // Step 4. Enhanced transposition cut-off: a child already known to
        // be bad enough for the opponent ends the node unsearched.
        if remaining >= ETC_MIN {
            // Ask for every bucket before reading any: the misses overlap.
            for c in children.iter() {
                self.table.prefetch(g.play(pos, c.cell, c.flips));
            }
            // The table's move is searched first if none of these cuts,
            // and it looks up its own children at once: ask for theirs too.
            if remaining > ETC_MIN {
                if let Some(c) = first.and_then(|f| children.iter().find(|c| c.cell == f)) {
                    self.prefetch_children(g.play(pos, c.cell, c.flips));
                }
            }
            for (k, c) in children.iter().enumerate() {
                let child = g.play(pos, c.cell, c.flips);
                if let Some(hit) = self.table.probe(child) {
                    if hit.remaining == remaining - 1
                        && hit.bound != Bound::Lower
                        && -hit.value >= beta
                    {
                        counters::child_probes(remaining, k + 1, true);
                        return -hit.value;
                    }
                }
            }
            counters::child_probes(remaining, children.len(), false);
        }

        // Step 5. The table's move first, alone; the others are ordered
        // only if it does not cut (most nodes end with their first child).
        // Then the rest best-looking first: in parallel when the subtrees
        // are big enough, else one by one, picked as they are needed.
        let mut ordered = 0;
        if let Some(k) = first.and_then(|f| children.iter().position(|c| c.cell == f)) {
            children.swap(0, k);
            ordered = 1;
        }
        let mut best = i32::MIN;
        let mut best_cell = None;
        for k in 0..children.len() {
            if k == ordered && remaining >= LOOKAHEAD_MIN {
                for c in children[k..].iter_mut() {
                    c.key = c.gain - g.best_gain(g.play(pos, c.cell, c.flips));
                }
            }
            if k > 0
                && self.threads == Threads::Pool
                && remaining >= YBW_MIN
                && children.len() as u32 >= YBW_EMPTIES
                && k + 1 < children.len()
            {
                let rest = &mut children[k..];
                sort_by_key_descending(rest);
                let wide = Window::new(i64::from(alpha), i64::from(beta));
                let found = younger_brothers(rest, wide, w, |c, a, w| {
                    // `a` is alpha or a value searched since: an i32.
                    let window = Window::new(a as i32, beta);
                    i64::from(self.younger(pos, score, remaining, c, window, w))
                });
                if let Some((v, i)) = found.filter(|&(v, _)| v > i64::from(best)) {
                    (best, best_cell) = (v as i32, Some(rest[i].cell));
                }
                break;
            }
            if k >= ordered {
                pick_best(&mut children[k..]);
            }
            // The next brother, once its key is final, looks up its
            // children as soon as it starts: ask for their buckets while
            // this one is searched. Picking it now changes no order: the
            // first of the largest keys moves to the front, where the next
            // pick finds it again (and the parallel sort, stable, keeps it
            // there).
            if remaining > ETC_MIN
                && k + 1 < children.len()
                && (k + 1 > ordered || remaining < LOOKAHEAD_MIN)
            {
                pick_best(&mut children[k + 1..]);
                let next = children[k + 1];
                self.prefetch_children(g.play(pos, next.cell, next.flips));
            }
            let c = children[k];
            let v = if k == 0 {
                self.eldest(pos, score, remaining, &c, Window::new(alpha, beta), w)
            } else {
                self.younger(pos, score, remaining, &c, Window::new(alpha, beta), w)
            };
            if w.stopped() {
                return 0;
            }
            if v > best {
                (best, best_cell) = (v, Some(c.cell));
                if v >= beta {
                    counters::cut(remaining, k);
                    break;
                }
                alpha = alpha.max(v);
            }
        }

        // Step 6. Store what was proved (nothing if stopped).
        if w.stopped() {
            return 0;
        }
        if remaining >= TABLE_MIN {
            counters::store(remaining);
            self.table.store(
                pos,
                Hit {
                    value: best,
                    bound: Bound::of(best, window),
                    remaining,
                    best: best_cell,
                },
            );
        }
        if let (Some((d, _)), Some(started)) = (durable, started) {
            let mv = best_cell.map(|cell| g.move_at(pos, cell));
            let root = remaining == self.root.1;
            d.record(started, window, (best, mv), w.nodes, g.board_total(), root);
        }
        best
    }

    /// The value of the eldest child `c` for the side to move: the full
    /// window.
    #[inline]
    fn eldest(
        &self,
        pos: Pos<W>,
        score: i32,
        remaining: u32,
        c: &Child<W>,
        window: Window<i32>,
        w: &mut Worker<'_>,
    ) -> i32 {
        let child = self.g.play(pos, c.cell, c.flips);
        -self.search(child, -(score + c.gain), remaining - 1, window.negated(), w)
    }

    /// The value of a younger child `c` for the side to move. Principal
    /// variation search: it is first shown no better than alpha with a
    /// null window, and searched again in full only when it is.
    #[inline]
    fn younger(
        &self,
        pos: Pos<W>,
        score: i32,
        remaining: u32,
        c: &Child<W>,
        window: Window<i32>,
        w: &mut Worker<'_>,
    ) -> i32 {
        if window.is_null() {
            return self.eldest(pos, score, remaining, c, window, w);
        }
        let child = self.g.play(pos, c.cell, c.flips);
        let s = -(score + c.gain);
        let r = remaining - 1;
        let v = -self.search(child, s, r, Window::null_above(window.alpha).negated(), w);
        if v > window.alpha && v < window.beta && !w.stopped() {
            return -self.search(child, s, r, window.negated(), w);
        }
        v
    }
}

/// Moves the child with the largest key (the first of equals) to the front.
#[inline]
fn pick_best<W: SetWord>(children: &mut [Child<W>]) {
    let mut best = 0;
    for (i, c) in children.iter().enumerate().skip(1) {
        if c.key > children[best].key {
            best = i;
        }
    }
    children[..=best].rotate_right(1);
}

/// Insertion sort, largest key first, stable: lists are short, and equal
/// keys keep cell order, which keeps the search deterministic.
#[inline]
fn sort_by_key_descending<W: SetWord>(children: &mut [Child<W>]) {
    for i in 1..children.len() {
        let c = children[i];
        let mut j = i;
        while j > 0 && children[j - 1].key < c.key {
            children[j] = children[j - 1];
            j -= 1;
        }
        children[j] = c;
    }
}
