//! The solve store as the compact search sees it: the top positions of a
//! deep solve, looked up before they are searched and written once
//! proved, so that a solve killed at any moment resumes where it was.
//!
//! Exact for the same reason the table is: a stored bound is a bound on
//! the value of the same position searched the same number of plies, so a
//! window it settles is answered with what the search would be allowed to
//! return (`Proven::settles`).
//!
//! The store names a position by the whole board and keeps its whole
//! value, so that a position searched on a region is the same entry as
//! the same position searched on the board, and never another board's:
//! the key is the board the search began on with the region's cells
//! written over it (the cells outside never change), and a value crosses
//! with the score outside the region added for the side it is for.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Instant;

use super::geometry::{Geometry, Pos, SetWord};
use super::Compact;
use crate::game::{Board, Move, Player};
use crate::search::window::Window;
use crate::store::{Key, Proven, StoreUse};

/// The store of a search, and which positions it keeps there.
#[derive(Clone, Debug)]
pub(crate) struct Durable(pub(crate) StoreUse);

/// A position the store did not settle: its key, when its proof began (to
/// tell its cost), and the best move an earlier proof found, to try first.
pub(super) struct Started {
    key: Key,
    /// The score outside the cells searched, for the player to move (any
    /// board's score, which only the cells searched keep within an i32).
    outside: i64,
    nodes: u64,
    at: Instant,
    /// The stored best move. A search restarted after a kill has lost its
    /// table, and with it the best moves that made the tests before it
    /// cheap; the store keeps those of its longest proofs.
    pub(super) first: Option<Move>,
}

impl Durable {
    /// Whether positions with `remaining` plies left are kept.
    pub(super) fn keeps(&self, remaining: u32) -> bool {
        remaining >= self.0.min_plies
    }

    /// The value to return for the position `key` names if the store
    /// settles `window`, `outside` being the score outside the cells
    /// searched for its player to move; else when its proof starts.
    pub(super) fn settle(
        &self,
        key: Key,
        outside: i64,
        window: Window<i32>,
        nodes: u64,
    ) -> Result<i32, Started> {
        let shift = outside;
        let (alpha, beta) = (i64::from(window.alpha), i64::from(window.beta));
        match self.0.store.settle_key(&key, alpha + shift, beta + shift) {
            // A stored value lies within [-total, total] of the board, and
            // less the score outside, within the region's: an i32 here.
            Ok(v) => Ok((v - shift) as i32),
            Err(best) => Err(Started {
                key,
                outside,
                nodes,
                at: Instant::now(),
                first: best,
            }),
        }
    }

    /// Writes what a search of `window` that returned `value` with its
    /// best move `best` proved, if its proof (since `started`, `nodes` now)
    /// cost enough or it is the search's root. `total` bounds every value
    /// on the board.
    ///
    /// A root is kept at any cost because the root's tests of one move
    /// resume from what its finished tests proved (`search/narrowing.rs`):
    /// one missing, however cheap, and a resumed solve asks other tests.
    pub(super) fn record(
        &self,
        started: Started,
        window: Window<i32>,
        (value, best): (i32, Option<Move>),
        nodes: u64,
        total: i64,
        root: bool,
    ) {
        let cost = nodes - started.nodes;
        if cost < self.0.min_nodes && !root {
            return;
        }
        let shift = started.outside;
        let proven = Proven::from_search(
            i64::from(value) + shift,
            i64::from(window.alpha) + shift,
            i64::from(window.beta) + shift,
            total,
            best,
        );
        let micros = u64::try_from(started.at.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.0.store.record_key(started.key, proven, cost, micros);
    }
}

/// The board a search began on, as the store names it, and the score of
/// its cells that the search leaves out (none on a whole board).
pub(super) struct Frame {
    cells: Vec<char>,
    /// For the player to move at the search's root.
    outside: i64,
    root: Player,
}

impl Frame {
    /// `board`, `p` to move, whose score outside the cells searched is
    /// `outside`.
    pub(super) fn of(board: &Board, p: Player, outside: i64) -> Frame {
        Frame {
            cells: board.cells_text().chars().filter(|&c| c != '\n').collect(),
            outside,
            root: p,
        }
    }

    /// The store's name for `pos`, `mover` to move, `remaining` plies
    /// deep, and the score outside the cells searched for `mover`.
    pub(super) fn name<W: SetWord, const REGION: bool>(
        &self,
        g: &Geometry<W, REGION>,
        pos: Pos<W>,
        mover: Player,
        remaining: u32,
    ) -> (Key, i64) {
        let key = Key::from_cells(g.board_cells(&self.cells, pos, mover), mover, remaining);
        (key, self.outside(mover))
    }

    /// The score outside the cells searched, for `p`.
    fn outside(&self, p: Player) -> i64 {
        if p == self.root {
            self.outside
        } else {
            -self.outside
        }
    }
}

/// Saves a search's table beside its store while the search runs, and
/// once more when it ends, done or stopped by its deadline: a kill then
/// loses only what the table learned since the last save. A signal loses
/// nothing: the command-line program saves the table at once through
/// [`crate::store::Store::save_table_now`], which this makes read it.
pub(crate) struct TableSaver {
    done: mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

impl TableSaver {
    /// Starts saving `compact`'s table, if it has a store that keeps it.
    pub(crate) fn start(compact: Arc<Compact>) -> Option<TableSaver> {
        let every = compact.table_every()?;
        if let Some(store) = compact.store() {
            // Weak: the store outlives the search, and must not keep its
            // table alive.
            let search = Arc::downgrade(&compact);
            store.table_from(move || search.upgrade().map(|c| c.kept_entries()));
        }
        let (done, wait) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("table-saver".into())
            .spawn(move || {
                let mut period = every;
                // Ends when the sender is dropped.
                while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(period) {
                    let start = Instant::now();
                    compact.save_table();
                    period = every.max(start.elapsed() * 50);
                }
                compact.save_table();
            })
            // Without a thread the solve goes on unsaved, which only
            // costs time if it is killed.
            .ok()?;
        Some(TableSaver { done, thread })
    }

    /// Saves the table a last time, and returns once it is written.
    pub(crate) fn finish(self) {
        drop(self.done);
        let _ = self.thread.join();
    }
}
