//! Per-depth counts of the compact search, for measuring its move ordering
//! against the minimal tree (`examples/minimal_tree.rs`): interior nodes,
//! cut-offs, and cut-offs made by the first move searched, by plies left;
//! and the nodes its bounds without a move ended (`examples/bound_cuts.rs`);
//! what its table did, probes, hits and stores (`examples/table_use.rs`).
//!
//! Built only with the `counters` feature; without it every call is empty
//! and compiles to nothing, so the search pays for none of it.

/// What the compact search did with this many plies left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DepthCounts {
    /// Plies left.
    pub remaining: u32,
    /// Nodes past the leaves and the written-out last plies, counted
    /// before the settled-piece bounds and the table may end them.
    pub nodes: u64,
    /// Nodes that ended by a move reaching beta, searched one by one (the
    /// cut-offs of brothers searched in parallel are not counted: measure
    /// on one thread).
    pub cuts: u64,
    /// Of those, the cut-offs by the first move searched.
    pub first_cuts: u64,
    /// Nodes ended by a bound without a move (`compact/bounds.rs`).
    pub bound_cuts: u64,
    /// Nodes that looked themselves up in the table.
    pub probes: u64,
    /// Of those, the ones that found an entry (of any plies).
    pub hits: u64,
    /// Of those, the ones the entry ended (its plies, a bound that cuts).
    pub hit_cuts: u64,
    /// Children looked up before any is searched (enhanced transposition
    /// cut-offs), counted at the parent's plies.
    pub child_probes: u64,
    /// Nodes ended by such a child's entry.
    pub child_cuts: u64,
    /// Results stored in the table.
    pub stores: u64,
}

#[cfg(feature = "counters")]
mod on {
    use super::DepthCounts;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    // Plies left run up to a compact search's cells (128).
    const DEPTHS: usize = 129;
    static NODES: [AtomicU64; DEPTHS] = [const { AtomicU64::new(0) }; DEPTHS];
    static CUTS: [AtomicU64; DEPTHS] = [const { AtomicU64::new(0) }; DEPTHS];
    static FIRST: [AtomicU64; DEPTHS] = [const { AtomicU64::new(0) }; DEPTHS];
    static BOUND: [AtomicU64; DEPTHS] = [const { AtomicU64::new(0) }; DEPTHS];
    static PROBES: [AtomicU64; DEPTHS] = [const { AtomicU64::new(0) }; DEPTHS];
    static HITS: [AtomicU64; DEPTHS] = [const { AtomicU64::new(0) }; DEPTHS];
    static HIT_CUTS: [AtomicU64; DEPTHS] = [const { AtomicU64::new(0) }; DEPTHS];
    static CHILD_PROBES: [AtomicU64; DEPTHS] = [const { AtomicU64::new(0) }; DEPTHS];
    static CHILD_CUTS: [AtomicU64; DEPTHS] = [const { AtomicU64::new(0) }; DEPTHS];
    static STORES: [AtomicU64; DEPTHS] = [const { AtomicU64::new(0) }; DEPTHS];

    pub(crate) fn probe(remaining: u32, hit: bool, cut: bool) {
        PROBES[remaining as usize].fetch_add(1, Relaxed);
        HITS[remaining as usize].fetch_add(u64::from(hit), Relaxed);
        HIT_CUTS[remaining as usize].fetch_add(u64::from(cut), Relaxed);
    }

    pub(crate) fn child_probes(remaining: u32, probes: usize, cut: bool) {
        CHILD_PROBES[remaining as usize].fetch_add(probes as u64, Relaxed);
        CHILD_CUTS[remaining as usize].fetch_add(u64::from(cut), Relaxed);
    }

    pub(crate) fn store(remaining: u32) {
        STORES[remaining as usize].fetch_add(1, Relaxed);
    }

    pub(crate) fn bound(remaining: u32) {
        BOUND[remaining as usize].fetch_add(1, Relaxed);
    }

    pub(crate) fn node(remaining: u32) {
        NODES[remaining as usize].fetch_add(1, Relaxed);
    }

    pub(crate) fn cut(remaining: u32, index: usize) {
        CUTS[remaining as usize].fetch_add(1, Relaxed);
        if index == 0 {
            FIRST[remaining as usize].fetch_add(1, Relaxed);
        }
    }

    pub(super) fn take() -> Vec<DepthCounts> {
        (0..DEPTHS)
            .map(|r| DepthCounts {
                remaining: r as u32,
                nodes: NODES[r].swap(0, Relaxed),
                cuts: CUTS[r].swap(0, Relaxed),
                first_cuts: FIRST[r].swap(0, Relaxed),
                bound_cuts: BOUND[r].swap(0, Relaxed),
                probes: PROBES[r].swap(0, Relaxed),
                hits: HITS[r].swap(0, Relaxed),
                hit_cuts: HIT_CUTS[r].swap(0, Relaxed),
                child_probes: CHILD_PROBES[r].swap(0, Relaxed),
                child_cuts: CHILD_CUTS[r].swap(0, Relaxed),
                stores: STORES[r].swap(0, Relaxed),
            })
            .filter(|d| d.nodes > 0 || d.bound_cuts > 0 || d.probes > 0)
            .collect()
    }
}

#[cfg(feature = "counters")]
pub(crate) use on::{bound, child_probes, cut, node, probe, store};

#[cfg(not(feature = "counters"))]
#[inline(always)]
pub(crate) fn node(_remaining: u32) {}

#[cfg(not(feature = "counters"))]
#[inline(always)]
pub(crate) fn cut(_remaining: u32, _index: usize) {}

#[cfg(not(feature = "counters"))]
#[inline(always)]
pub(crate) fn bound(_remaining: u32) {}

#[cfg(not(feature = "counters"))]
#[inline(always)]
pub(crate) fn probe(_remaining: u32, _hit: bool, _cut: bool) {}

#[cfg(not(feature = "counters"))]
#[inline(always)]
pub(crate) fn child_probes(_remaining: u32, _probes: usize, _cut: bool) {}

#[cfg(not(feature = "counters"))]
#[inline(always)]
pub(crate) fn store(_remaining: u32) {}

/// The counts since the last call, deepest last, and zero them; empty
/// unless built with the `counters` feature.
pub fn take() -> Vec<DepthCounts> {
    #[cfg(feature = "counters")]
    return on::take();
    #[cfg(not(feature = "counters"))]
    Vec::new()
}
