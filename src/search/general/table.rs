//! A transposition table for the alpha-beta search, shared by its threads.
//!
//! Every move fills one cell, so a position can only be reached at one
//! depth of a given search: entries are tagged with the plies that were left
//! and used for a bound only at exactly that number (a value searched deeper
//! or shallower is a different value, not a better one). A hit is trusted
//! only when the whole board matches, not just the hash.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use parking_lot::Mutex;

use crate::game::Move;
use crate::search::window::Bound;

/// A stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// Plies that were left below the position.
    pub remaining: u32,
    /// How `value` relates to the true value.
    pub bound: Bound,
    /// Value from the point of view of the player to move.
    pub value: i64,
    /// Best (or refuting) move found, tried first next time.
    pub best: Option<Move>,
}

/// The table: one flat array of words, `3 + key_len` per slot (hash,
/// packed entry, value, packed board), zeroed on creation so that a large
/// table costs nothing until it is touched. Slots are guarded by striped
/// locks, so two threads contend only when they touch the same stripe at
/// the same moment; the words are atomics only to make that sharing safe.
pub(crate) struct Table {
    words: Vec<AtomicU64>,
    locks: Vec<Mutex<()>>,
    slot_len: usize,
    mask: usize,
}

const STRIPES: usize = 1024;
const EMPTY: u64 = 0;

impl Table {
    /// A table of about `bytes` (at least one slot) for keys of `key_len` words.
    pub(crate) fn new(bytes: usize, key_len: usize) -> Table {
        let slot_len = 3 + key_len;
        let count = (bytes / (8 * slot_len)).max(1);
        let count = if count.is_power_of_two() {
            count
        } else {
            count.next_power_of_two() / 2
        };
        let mut words = Vec::new();
        words.resize_with(count * slot_len, || AtomicU64::new(0));
        let locks = (0..STRIPES.min(count)).map(|_| Mutex::new(())).collect();
        Table {
            words,
            locks,
            slot_len,
            mask: count - 1,
        }
    }

    #[inline]
    fn slot(&self, hash: u64) -> (usize, &Mutex<()>) {
        let i = hash as usize & self.mask;
        (i * self.slot_len, &self.locks[i % self.locks.len()])
    }

    /// The entry for the position with this `hash` and full `key`, if stored.
    #[inline]
    pub(crate) fn probe(&self, hash: u64, key: &[u64]) -> Option<Entry> {
        let (at, lock) = self.slot(hash);
        let _guard = lock.lock();
        let w = &self.words[at..at + self.slot_len];
        let meta = w[1].load(Relaxed);
        if meta == EMPTY || w[0].load(Relaxed) != hash {
            return None;
        }
        if w[3..].iter().zip(key).any(|(a, &b)| a.load(Relaxed) != b) {
            return None;
        }
        Some(unpack(meta, w[2].load(Relaxed) as i64))
    }

    /// Stores an entry, replacing whatever the slot held.
    #[inline]
    pub(crate) fn store(&self, hash: u64, key: &[u64], entry: Entry) {
        let (at, lock) = self.slot(hash);
        let _guard = lock.lock();
        let w = &self.words[at..at + self.slot_len];
        w[0].store(hash, Relaxed);
        w[1].store(pack(&entry), Relaxed);
        w[2].store(entry.value as u64, Relaxed);
        for (a, &b) in w[3..].iter().zip(key) {
            a.store(b, Relaxed);
        }
    }
}

/// Entry metadata in one non-zero word: remaining plies (bits 32..), bound
/// (bits 17..19), a move flag (bit 16) and the move (bits 0..16).
fn pack(e: &Entry) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let mv = e.best.map_or(0, |m| (1 << 16) | u64::from(m.bits()));
    (u64::from(e.remaining) << 32) | (bound << 17) | mv
}

fn unpack(meta: u64, value: i64) -> Entry {
    let bound = match (meta >> 17) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    let best = (meta & (1 << 16) != 0).then(|| Move::from_bits(meta as u16));
    Entry {
        remaining: (meta >> 32) as u32,
        bound,
        value,
        best,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MoveKind;

    #[test]
    fn stores_and_checks_the_whole_key() {
        let t = Table::new(1 << 12, 2);
        let e = Entry {
            remaining: 5,
            bound: Bound::Lower,
            value: -17,
            best: Some(Move::new(3, 4, MoveKind::Raid)),
        };
        assert!(t.probe(42, &[1, 2]).is_none());
        t.store(42, &[1, 2], e);
        let got = t.probe(42, &[1, 2]).unwrap();
        assert_eq!(
            (got.remaining, got.bound, got.value, got.best),
            (5, Bound::Lower, -17, e.best)
        );
        // Same hash, other board: a collision, not a hit.
        assert!(t.probe(42, &[1, 3]).is_none());
        let none = Entry {
            best: None,
            bound: Bound::Exact,
            ..e
        };
        t.store(42, &[1, 2], none);
        assert_eq!(t.probe(42, &[1, 2]).unwrap().best, None);
    }
}
