//! Which cells a board's compact search runs on, and in which word: the
//! whole board where it has at most 64 cells (one word, as always), else
//! the region where the game is still open (`geometry.rs`) in one word or
//! two, else the whole board in two words up to 128 cells. Everything
//! outside sees one [`Compact`].

use std::sync::Arc;

use super::geometry::Geometry;
use super::midgame::Engine;
use crate::game::{Board, Move, Player};
use crate::search::engine::Threads;
use crate::search::window::Window;
use crate::search::worker::Worker;
use crate::store::{Entry, Store, StoreUse};

/// The compact search of one board (or of its region).
#[derive(Debug)]
pub(crate) enum Compact {
    /// A whole board of up to 64 cells: a set is one word.
    Narrow(Engine<u64, false>),
    /// A region of up to 64 cells.
    NarrowRegion(Engine<u64, true>),
    /// A whole board of up to 128 cells: a set is two words.
    Wide(Engine<u128, false>),
    /// A region of up to 128 cells.
    WideRegion(Engine<u128, true>),
}

/// `body` with `engine` bound to whichever engine `compact` holds.
macro_rules! each {
    ($compact:expr, $engine:ident => $body:expr) => {
        match $compact {
            Compact::Narrow($engine) => $body,
            Compact::NarrowRegion($engine) => $body,
            Compact::Wide($engine) => $body,
            Compact::WideRegion($engine) => $body,
        }
    };
}

impl Compact {
    /// The compact search for `board` with a table of about `table_bytes`,
    /// if the board or its region is small enough: at most 128 cells,
    /// values summing to at most 2^28. A board of up to 64 cells is
    /// searched whole, as it always was; a larger one on its region where
    /// that is smaller, which a whole board of up to 128 cells is only
    /// when the region fits one word.
    pub(crate) fn new(board: &Board, table_bytes: usize) -> Option<Compact> {
        let cells = board.n() * board.n();
        if cells <= 64 {
            let g = Geometry::of(board)?;
            return Some(Compact::Narrow(Engine::new(g, table_bytes)));
        }
        if let Some(g) = Geometry::region(board) {
            return Some(Compact::NarrowRegion(Engine::new(g, table_bytes)));
        }
        // A whole board's values may be too large where its region's fit.
        if let Some(g) = Geometry::of(board) {
            return Some(Compact::Wide(Engine::new(g, table_bytes)));
        }
        let g = Geometry::region(board)?;
        Some(Compact::WideRegion(Engine::new(g, table_bytes)))
    }

    /// Also keeps the proofs of its top positions in a solve store, and
    /// answers from it what earlier runs proved; its table starts with what
    /// the last solve saved beside the store.
    pub(crate) fn with_store(self, store: StoreUse) -> Compact {
        match self {
            Compact::Narrow(e) => Compact::Narrow(e.with_store(store)),
            Compact::NarrowRegion(e) => Compact::NarrowRegion(e.with_store(store)),
            Compact::Wide(e) => Compact::Wide(e.with_store(store)),
            Compact::WideRegion(e) => Compact::WideRegion(e.with_store(store)),
        }
    }

    /// Whether a search of `board` can run here: it has this board's
    /// values, and a region's search needs every empty cell in the region
    /// (a position reached from the one it was made for always has).
    pub(crate) fn covers(&self, board: &Board) -> bool {
        each!(self, e => e.covers(board))
    }

    /// The store it keeps its proofs in, if any.
    pub(crate) fn store(&self) -> Option<&Arc<Store>> {
        each!(self, e => e.store())
    }

    /// Saves the table's deepest entries beside the store, if it has one
    /// that keeps them.
    pub(crate) fn save_table(&self) {
        each!(self, e => e.save_table())
    }

    /// The entries of the table worth saving beside a store.
    pub(crate) fn kept_entries(&self) -> Vec<Entry> {
        each!(self, e => e.kept_entries())
    }

    /// How often the table is saved beside the store at most; `None`
    /// without a store that keeps it.
    pub(crate) fn table_every(&self) -> Option<std::time::Duration> {
        each!(self, e => e.table_every())
    }

    /// The move the table holds as best for `board`, `p` to move,
    /// `remaining` plies deep, from an exact result.
    pub(crate) fn proved_best(&self, board: &Board, p: Player, remaining: u32) -> Option<Move> {
        each!(self, e => e.proved_best(board, p, remaining))
    }

    /// Bounds on the value of `board` (`p` to move, `remaining` plies)
    /// that the table holds from a finished search: `lo <= value <= hi`.
    pub(crate) fn table_bounds(
        &self,
        board: &Board,
        p: Player,
        remaining: u32,
    ) -> Option<(i64, i64)> {
        each!(self, e => e.table_bounds(board, p, remaining))
    }

    /// Counts a search that bounds from [`Compact::known`] made needless.
    pub(crate) fn note_store_answer(&self) {
        each!(self, e => e.note_store_answer())
    }

    /// Bounds on the value of `board` (`p` to move, `remaining` plies)
    /// that the solve store holds, if it holds any.
    pub(crate) fn known(&self, board: &Board, p: Player, remaining: u32) -> Option<(i64, i64)> {
        each!(self, e => e.known(board, p, remaining))
    }

    /// Negamax value of `board` for `p` to move, `remaining` plies deep,
    /// within `window`, fail-soft: exact inside the window, a bound outside
    /// it. Garbage once `w` is stopped. The board is one this search
    /// [covers](Compact::covers).
    pub(crate) fn search(
        &self,
        board: &Board,
        p: Player,
        remaining: u32,
        window: Window<i64>,
        threads: Threads,
        w: &mut Worker<'_>,
    ) -> i64 {
        each!(self, e => e.search(board, p, remaining, window, threads, w))
    }
}

#[cfg(test)]
impl Compact {
    /// The search of `board` on the cells and word asked for, where they
    /// hold it: the whole board or its region, in one word or two.
    pub(crate) fn forced(
        board: &Board,
        table_bytes: usize,
        region: bool,
        wide: bool,
    ) -> Option<Compact> {
        Some(match (region, wide) {
            (false, false) => Compact::Narrow(Engine::new(Geometry::of(board)?, table_bytes)),
            (true, false) => {
                Compact::NarrowRegion(Engine::new(Geometry::region(board)?, table_bytes))
            }
            (false, true) => Compact::Wide(Engine::new(Geometry::of(board)?, table_bytes)),
            (true, true) => Compact::WideRegion(Engine::new(Geometry::region(board)?, table_bytes)),
        })
    }

    /// Whether it searches a region (rather than the whole board) in two
    /// words (rather than one).
    pub(crate) fn shape(&self) -> (bool, bool) {
        match self {
            Compact::Narrow(_) => (false, false),
            Compact::NarrowRegion(_) => (true, false),
            Compact::Wide(_) => (false, true),
            Compact::WideRegion(_) => (true, true),
        }
    }
}
