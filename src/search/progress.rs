//! How far a running search has got, for a display on another thread:
//! the workers add their nodes in batches (see [`super::worker`]) and the
//! root notes each depth it completes. Nothing here decides anything.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use crossbeam_utils::CachePadded;
use parking_lot::Mutex;

use crate::game::Move;

/// Nodes and depth of one search so far, and where its root stands.
#[derive(Debug, Default)]
pub struct Progress {
    /// Padded to a cache line of its own so that the workers' updates do
    /// not slow down readers of the stop flag.
    nodes: CachePadded<AtomicU64>,
    depth: AtomicU32,
    /// Changed a few times per root move, under a lock so that a display
    /// reads the move and its bounds together, and a thread that reports
    /// late cannot put back a best move another already displaced.
    root: Mutex<Root>,
}

/// The root of the running iteration, and the canonical index of its best
/// move once one is settled (`None` while the first is being proved).
#[derive(Debug, Default)]
struct Root {
    shown: RootProgress,
    best_index: Option<usize>,
}
/// Where the root of a running search stands: a snapshot for a display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RootProgress {
    /// The iteration running (0 before the first).
    pub depth: u32,
    /// Its root moves (Raids that flip nothing left out).
    pub moves: u32,
    /// Of those, the ones settled: their value known, or shown not to beat
    /// the best.
    pub done: u32,
    /// The best move so far: of the settled moves with the highest value,
    /// the first in canonical order, which is what the answer will be if
    /// no move still to settle beats it (while the first is being proved,
    /// the move being proved). Final only once `done == moves` at the
    /// last depth.
    pub best: Option<Move>,
    /// What is known of its value: `lo <= value <= hi`.
    pub lo: i64,
    /// See `lo`.
    pub hi: i64,
}

impl Progress {
    /// About how many nodes have been searched (short of the truth by what
    /// each thread did since it last reported, at most a few dozen).
    pub fn nodes_seen(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// Records that an iteration `depth` deep completed.
    pub fn note_depth(&self, depth: u32) {
        self.depth.fetch_max(depth, Relaxed);
    }

    /// The deepest iteration completed so far (0 before the first).
    pub fn depth_done(&self) -> u32 {
        self.depth.load(Relaxed)
    }

    /// Where the root of the running iteration stands.
    pub fn root(&self) -> RootProgress {
        self.root.lock().shown
    }

    /// An iteration `depth` deep starts, with `moves` root moves, the
    /// first of them `first`, whose value lies in `-edge..=edge`.
    pub(crate) fn start_root(&self, depth: u32, moves: usize, first: Move, edge: i64) {
        *self.root.lock() = Root {
            shown: RootProgress {
                depth,
                moves: moves as u32,
                done: 0,
                best: Some(first),
                lo: -edge,
                hi: edge,
            },
            best_index: None,
        };
    }

    /// A test of the first root move's value at `beta` returned `t`.
    pub(crate) fn first_tested(&self, beta: i64, t: i64) {
        let mut root = self.root.lock();
        if root.best_index.is_some() {
            return;
        }
        let shown = &mut root.shown;
        if t >= beta {
            shown.lo = shown.lo.max(t);
        } else {
            shown.hi = shown.hi.min(t);
        }
    }

    /// A root move is settled; `best`, the candidate `index` in canonical
    /// order, is the best so far as the caller saw it, worth `value`. A
    /// caller may see it late: a best move already shown that is worth
    /// more, or as much and comes first in canonical order, stays.
    pub(crate) fn root_settled(&self, best: Move, index: usize, value: i64) {
        let mut root = self.root.lock();
        root.shown.done += 1;
        let better = root
            .best_index
            .is_none_or(|shown| value > root.shown.lo || (value == root.shown.lo && index < shown));
        if better {
            root.best_index = Some(index);
            root.shown.best = Some(best);
            root.shown.lo = value;
            root.shown.hi = value;
        }
    }

    pub(crate) fn add(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    /// Two threads settle moves at once: the one that saw B1 (canonical
    /// index 1) tie A2 (index 5) reports first, the one that saw only A2
    /// reports after it. The answer will be B1, and so is the line.
    #[test]
    fn a_late_report_does_not_put_back_a_displaced_best_move() {
        let progress = Progress::default();
        progress.start_root(7, 9, mv("A2 Stake"), 1000);
        progress.first_tested(-300, -218);
        progress.root_settled(mv("A2 Stake"), 5, -218);
        progress.root_settled(mv("B1 Stake"), 1, -218);
        progress.root_settled(mv("A2 Stake"), 5, -218);
        let root = progress.root();
        assert_eq!(
            (root.best, root.lo, root.hi),
            (Some(mv("B1 Stake")), -218, -218)
        );
        assert_eq!(root.done, 3);
        // A better value displaces it whatever its place; a worse one never.
        progress.root_settled(mv("C3 Raid"), 8, -100);
        progress.root_settled(mv("B1 Stake"), 1, -218);
        let root = progress.root();
        assert_eq!(
            (root.best, root.lo, root.done),
            (Some(mv("C3 Raid")), -100, 5)
        );
    }

    /// The first move's bounds narrow as its tests return, and a test
    /// that returns after the move is settled changes nothing.
    #[test]
    fn the_first_moves_bounds_narrow_until_it_is_settled() {
        let progress = Progress::default();
        progress.start_root(3, 4, mv("A1 Stake"), 50);
        progress.first_tested(10, 12);
        progress.first_tested(20, 15);
        let root = progress.root();
        assert_eq!((root.lo, root.hi, root.done), (12, 15, 0));
        progress.root_settled(mv("A1 Stake"), 0, 14);
        progress.first_tested(20, 15);
        let root = progress.root();
        assert_eq!((root.lo, root.hi), (14, 14));
    }
}
