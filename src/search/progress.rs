//! How far a running search has got, for a display on another thread:
//! the workers add their nodes in batches (see [`super::worker`]) and the
//! root notes each depth it completes. Nothing here decides anything.

use std::sync::atomic::{AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed};

use crossbeam_utils::CachePadded;

use crate::game::Move;

/// Nodes and depth of one search so far, and where its root stands.
#[derive(Debug, Default)]
pub struct Progress {
    /// Padded to a cache line of its own so that the workers' updates do
    /// not slow down readers of the stop flag.
    nodes: CachePadded<AtomicU64>,
    depth: AtomicU32,
    /// The iteration running, its root moves in all and settled so far.
    running: AtomicU32,
    root_moves: AtomicU32,
    root_done: AtomicU32,
    /// The best root move so far (its bits plus one; 0 for none) and the
    /// bounds known on its value: exact once `lo == hi`.
    best: AtomicU32,
    lo: AtomicI64,
    hi: AtomicI64,
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
    /// The best move so far: while the first is being proved, the move
    /// being proved.
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
        let best = self.best.load(Relaxed);
        RootProgress {
            depth: self.running.load(Relaxed),
            moves: self.root_moves.load(Relaxed),
            done: self.root_done.load(Relaxed),
            best: (best != 0).then(|| Move::from_bits((best - 1) as u16)),
            lo: self.lo.load(Relaxed),
            hi: self.hi.load(Relaxed),
        }
    }

    /// An iteration `depth` deep starts, with `moves` root moves, the
    /// first of them `first`, whose value lies in `-edge..=edge`.
    pub(crate) fn start_root(&self, depth: u32, moves: usize, first: Move, edge: i64) {
        self.running.store(depth, Relaxed);
        self.root_moves.store(moves as u32, Relaxed);
        self.root_done.store(0, Relaxed);
        self.best.store(u32::from(first.bits()) + 1, Relaxed);
        self.lo.store(-edge, Relaxed);
        self.hi.store(edge, Relaxed);
    }

    /// A test of the first root move's value at `beta` returned `t`.
    pub(crate) fn first_tested(&self, beta: i64, t: i64) {
        if t >= beta {
            self.lo.fetch_max(t, Relaxed);
        } else {
            self.hi.fetch_min(t, Relaxed);
        }
    }

    /// A root move is settled; `best` is the best so far, worth `value`.
    pub(crate) fn root_settled(&self, best: Move, value: i64) {
        self.root_done.fetch_add(1, Relaxed);
        self.best.store(u32::from(best.bits()) + 1, Relaxed);
        self.lo.store(value, Relaxed);
        self.hi.store(value, Relaxed);
    }

    pub(crate) fn add(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Relaxed);
    }
}
