//! How far a running search has got, for a display on another thread:
//! the workers add their nodes in batches (see [`super::worker`]) and the
//! root notes each depth it completes. Nothing here decides anything.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use crossbeam_utils::CachePadded;

/// Nodes and depth of one search so far.
#[derive(Debug, Default)]
pub struct Progress {
    /// Padded to a cache line of its own so that the workers' updates do
    /// not slow down readers of the stop flag.
    nodes: CachePadded<AtomicU64>,
    depth: AtomicU32,
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

    pub(crate) fn add(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Relaxed);
    }
}
