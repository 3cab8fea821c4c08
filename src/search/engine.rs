//! The one choice between the two fast engines of an exact search, made
//! once at its root: the general engine (any board) or the compact one
//! (boards of up to 128 cells, and larger boards' regions). Everything
//! above the root's children sees only [`FastEngine`]; the play root, whose evaluations and reductions
//! only the general engine has, holds that engine's `Searcher` itself.

use std::sync::Arc;

use super::compact::Compact;
use super::deadline::Deadline;
use super::general::Searcher;
use super::progress::Progress;
use super::window::Window;
use super::worker::{Signals, Worker};
use crate::game::{Board, Move, Player};

/// Whether a search splits its work across the current rayon pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Threads {
    /// Everything on the calling thread.
    #[default]
    One,
    /// Root moves and younger brothers on the pool's workers.
    Pool,
}

impl Threads {
    /// [`Threads::Pool`] when `parallel` (what the pools tell their callers).
    pub(crate) fn pool_if(parallel: bool) -> Threads {
        if parallel {
            Threads::Pool
        } else {
            Threads::One
        }
    }
}

/// The fast engine of one exact search (what [`crate::api::Engine::Fast`]
/// runs): the general one or the compact one.
pub(crate) enum FastEngine {
    /// Any board.
    General(Searcher),
    /// The game score on a board, or its region, of up to 128 cells; its
    /// table may outlive the search and serve the next one on the same
    /// board.
    Compact(Arc<Compact>, Threads),
}

impl FastEngine {
    /// The engine of an exact search of `board` with a table of about
    /// `bytes` of its own: the compact one where it applies.
    pub(crate) fn exact_for(board: &Board, bytes: usize, threads: Threads) -> FastEngine {
        match Compact::new(board, bytes) {
            Some(compact) => FastEngine::Compact(Arc::new(compact), threads),
            None => FastEngine::General(Searcher::new(board.n(), bytes, threads)),
        }
    }

    /// One search of `window` that nobody watches (a job of a split
    /// solve): the value or bound, `None` if `deadline` fired, and the
    /// nodes.
    pub(crate) fn search_once(
        &self,
        board: &Board,
        p: Player,
        remaining: u32,
        window: Window<i64>,
        deadline: &Deadline,
    ) -> (Option<i64>, u64) {
        let progress = Progress::default();
        let mut w = Worker::new(Signals {
            deadline,
            progress: &progress,
        });
        let v = self.search(&mut board.clone(), p, remaining, window, &mut w);
        ((!w.aborted()).then_some(v), w.nodes)
    }

    /// Negamax value of `board` for `p` to move, `remaining` plies deep,
    /// within `window`, fail-soft: exact inside the window, a bound outside
    /// it. Garbage once `w` is stopped.
    pub(crate) fn search(
        &self,
        board: &mut Board,
        p: Player,
        remaining: u32,
        window: Window<i64>,
        w: &mut Worker<'_>,
    ) -> i64 {
        match self {
            FastEngine::General(s) => s.search(board, p, remaining, window, w),
            FastEngine::Compact(c, threads) => c.search(board, p, remaining, window, *threads, w),
        }
    }

    /// The move an earlier search of `board`, `p` to move, `remaining`
    /// plies deep, proved best, if the compact engine's table still holds it.
    pub(crate) fn proved_best(&self, board: &Board, p: Player, remaining: u32) -> Option<Move> {
        match self {
            FastEngine::General(_) => None,
            FastEngine::Compact(c, _) => c.proved_best(board, p, remaining),
        }
    }

    /// Bounds on the value of `board` (`p` to move, `remaining` plies)
    /// that the compact engine's table holds from a finished search.
    pub(crate) fn table_bounds(
        &self,
        board: &Board,
        p: Player,
        remaining: u32,
    ) -> Option<(i64, i64)> {
        match self {
            FastEngine::General(_) => None,
            FastEngine::Compact(c, _) => c.table_bounds(board, p, remaining),
        }
    }

    /// Counts a search that bounds from [`FastEngine::known`] made needless.
    pub(crate) fn note_store_answer(&self) {
        if let FastEngine::Compact(c, _) = self {
            c.note_store_answer();
        }
    }

    /// Bounds on the value of `board` (`p` to move, `remaining` plies)
    /// that the compact engine's solve store holds, if any.
    pub(crate) fn known(&self, board: &Board, p: Player, remaining: u32) -> Option<(i64, i64)> {
        match self {
            FastEngine::General(_) => None,
            FastEngine::Compact(c, _) => c.known(board, p, remaining),
        }
    }

    /// Whether the compact engine searches.
    pub(crate) fn is_compact(&self) -> bool {
        matches!(self, FastEngine::Compact(..))
    }

    /// How the search spreads over threads.
    pub(crate) fn threads(&self) -> Threads {
        match self {
            FastEngine::General(s) => s.threads(),
            FastEngine::Compact(_, threads) => *threads,
        }
    }
}
