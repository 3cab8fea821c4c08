//! A transposition table for the alpha-beta search, shared by its threads.
//!
//! Every move fills one cell, so a position can only be reached at one
//! depth of a given search: entries are tagged with the plies that were left
//! and used for a bound only at exactly that number (a value searched deeper
//! or shallower is a different value, not a better one). A hit is trusted
//! only when the whole board matches, not just the hash.

use parking_lot::Mutex;

use crate::moves::Move;

/// What a stored value says about the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

/// A stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Plies that were left below the position.
    pub remaining: u32,
    /// How `value` relates to the true value.
    pub bound: Bound,
    /// Value from the point of view of the player to move.
    pub value: i64,
    /// Best (or refuting) move found, tried first next time.
    pub best: Option<Move>,
}

struct Slot {
    hash: u64,
    entry: Option<Entry>,
    key: Box<[u64]>,
}

/// The table: one lock per slot, so two threads contend only when they
/// touch the same slot at the same moment.
pub struct Table {
    slots: Vec<Mutex<Slot>>,
    mask: usize,
}

impl Table {
    /// A table of about `bytes` for keys of `key_len` words.
    pub fn new(bytes: usize, key_len: usize) -> Table {
        let slot_bytes = std::mem::size_of::<Mutex<Slot>>() + 8 * key_len;
        let count = (bytes / slot_bytes).max(1).next_power_of_two() / 2;
        let count = count.max(1);
        let slots = (0..count)
            .map(|_| {
                Mutex::new(Slot {
                    hash: 0,
                    entry: None,
                    key: vec![0; key_len].into(),
                })
            })
            .collect();
        Table {
            slots,
            mask: count - 1,
        }
    }

    /// The entry for the position with this `hash` and full `key`, if stored.
    #[inline]
    pub fn probe(&self, hash: u64, key: &[u64]) -> Option<Entry> {
        let slot = self.slots[hash as usize & self.mask].lock();
        match slot.entry {
            Some(e) if slot.hash == hash && *slot.key == *key => Some(e),
            _ => None,
        }
    }

    /// Stores an entry, replacing whatever the slot held.
    #[inline]
    pub fn store(&self, hash: u64, key: &[u64], entry: Entry) {
        let mut slot = self.slots[hash as usize & self.mask].lock();
        slot.hash = hash;
        slot.key.copy_from_slice(key);
        slot.entry = Some(entry);
    }
}
