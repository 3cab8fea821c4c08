//! The compact search's transposition table: buckets of two entries, one
//! cache line each, read and written without locks.
//!
//! An entry is four words: the two sets of the position (the whole
//! position, so a hit is a verified hit), the packed result, and a check
//! word mixed from the other three. Two threads writing one entry at once
//! can leave words of both; the check word then no longer matches, and the
//! reader sees a miss. The memory comes zeroed from the allocator, which
//! for a large table maps fresh pages: nothing is touched until used.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::geometry::{Cells, Pos};
use crate::search::window::Bound;
use crate::store::Entry;

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub value: i32,
    pub bound: Bound,
    /// Plies searched below the position (capped at its empty cells).
    pub remaining: u32,
    /// The best or refuting cell, tried first next time.
    pub best: Option<usize>,
}

#[repr(align(64))]
struct Bucket([AtomicU64; 8]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

pub(crate) struct Table {
    buckets: Box<[Bucket]>,
    mask: usize,
}

const NO_MOVE: u64 = 127;

impl Table {
    /// A table of at most `bytes` (at least one bucket), fewer if the
    /// memory is not there.
    pub(crate) fn new(bytes: usize) -> Table {
        let mut count = (bytes / 64).max(1);
        if !count.is_power_of_two() {
            count = count.next_power_of_two() / 2;
        }
        loop {
            if let Some(buckets) = zeroed(count) {
                return Table {
                    buckets,
                    mask: count - 1,
                };
            }
            assert!(count > 1, "no memory for one table bucket");
            count /= 2;
        }
    }

    /// Size in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.buckets.len() * 64
    }

    #[inline(always)]
    fn bucket(&self, pos: Pos) -> &Bucket {
        let (own, opp) = (pos.own.bits(), pos.opp.bits());
        let h = (own ^ opp.rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.buckets[(h >> 32) as usize & self.mask]
    }

    /// Starts loading `pos`'s bucket into the cache.
    #[inline(always)]
    pub(crate) fn prefetch(&self, pos: Pos) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch has no effect but on the cache, and the
        // address is that of a live bucket.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>((self.bucket(pos) as *const Bucket).cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = pos;
    }

    /// The entry stored for `pos`, if any.
    #[inline]
    pub(crate) fn probe(&self, pos: Pos) -> Option<Hit> {
        let b = self.bucket(pos);
        for slot in 0..2 {
            let w = &b.0[slot * 4..slot * 4 + 4];
            let (own, opp) = (w[0].load(Relaxed), w[1].load(Relaxed));
            if own != pos.own.bits() || opp != pos.opp.bits() {
                continue;
            }
            let (data, check) = (w[2].load(Relaxed), w[3].load(Relaxed));
            if check != mix(own, opp, data) {
                continue;
            }
            return unpack(data);
        }
        None
    }

    /// Stores `hit` for `pos`: over its own entry, else over the entry
    /// with the smaller subtree (the second on a tie).
    #[inline]
    pub(crate) fn store(&self, pos: Pos, hit: Hit) {
        let b = self.bucket(pos);
        let remaining = |slot: usize| {
            let data = b.0[slot * 4 + 2].load(Relaxed);
            (data >> 34) & 127
        };
        let (own, opp) = (pos.own.bits(), pos.opp.bits());
        let mine = |slot: usize| {
            b.0[slot * 4].load(Relaxed) == own && b.0[slot * 4 + 1].load(Relaxed) == opp
        };
        let slot = if mine(0) {
            0
        } else if mine(1) {
            1
        } else if remaining(0) < remaining(1) {
            0
        } else {
            1
        };
        let data = pack(hit);
        let w = &b.0[slot * 4..slot * 4 + 4];
        w[0].store(own, Relaxed);
        w[1].store(opp, Relaxed);
        w[2].store(data, Relaxed);
        w[3].store(mix(own, opp, data), Relaxed);
    }
}

impl Table {
    /// The entries with the most plies below them, at most `cap` and none
    /// with fewer than `floor` plies, as their words: what is worth keeping
    /// of a table about to be lost. Read while searches write: an entry
    /// caught half-written fails its check and is left out.
    pub(crate) fn deepest(&self, cap: usize, floor: u32) -> Vec<Entry> {
        // Two passes, so that no more than `cap` entries are ever held:
        // how many entries each depth has, then the deepest that fit.
        let mut counts = [0usize; 128];
        self.each_entry(|_, remaining| counts[remaining as usize] += 1);
        let (mut from, mut kept) = (counts.len(), 0);
        while from > floor as usize && kept + counts[from - 1] <= cap {
            from -= 1;
            kept += counts[from];
        }
        let mut out = Vec::with_capacity(kept);
        self.each_entry(|e, remaining| {
            if remaining as usize >= from && out.len() < cap {
                out.push(e);
            }
        });
        out
    }

    /// Every entry that reads whole, with its plies.
    fn each_entry(&self, mut f: impl FnMut(Entry, u32)) {
        for b in self.buckets.iter() {
            for w in b.0.chunks_exact(4) {
                let (own, opp) = (w[0].load(Relaxed), w[1].load(Relaxed));
                let (data, check) = (w[2].load(Relaxed), w[3].load(Relaxed));
                if check != mix(own, opp, data) {
                    continue;
                }
                if let Some(hit) = unpack(data) {
                    f([own, opp, data], hit.remaining);
                }
            }
        }
    }

    /// Stores an entry [`Table::deepest`] took from a table of the same
    /// board, if it reads as one and `fits` the board; whether it did.
    pub(crate) fn restore(&self, [own, opp, data]: Entry, fits: impl Fn(Pos, Hit) -> bool) -> bool {
        let pos = Pos {
            own: Cells(own),
            opp: Cells(opp),
        };
        match unpack(data) {
            Some(hit) if fits(pos, hit) => {
                self.store(pos, hit);
                true
            }
            _ => false,
        }
    }
}

/// A table's buckets, zeroed by the allocator; `None` if it has no memory.
fn zeroed(count: usize) -> Option<Box<[Bucket]>> {
    let layout = std::alloc::Layout::array::<Bucket>(count).ok()?;
    // SAFETY: the layout is that of `[Bucket; count]`, of non-zero size;
    // all-zero words are valid atomics; the box frees it with that layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<Bucket>();
        if ptr.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
            ptr, count,
        )))
    }
}

/// Never 0 for an all-zero entry, so a fresh slot is never a hit.
#[inline(always)]
fn mix(own: u64, opp: u64, data: u64) -> u64 {
    let mut h = own.wrapping_mul(0xFF51_AFD7_ED55_8CCD)
        ^ opp.rotate_left(31).wrapping_mul(0xC4CE_B9FE_1A85_EC53)
        ^ data.wrapping_add(0x2545_F491_4F6C_DD1D);
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^ (h >> 29) | 1
}

#[inline(always)]
fn pack(hit: Hit) -> u64 {
    u64::from(hit.value as u32)
        | (hit.bound as u64) << 32
        | u64::from(hit.remaining.min(127)) << 34
        | hit.best.map_or(NO_MOVE, |c| c as u64) << 41
}

#[inline(always)]
fn unpack(data: u64) -> Option<Hit> {
    let bound = match (data >> 32) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let best = (data >> 41) & 127;
    Some(Hit {
        value: data as u32 as i32,
        bound,
        remaining: ((data >> 34) & 127) as u32,
        best: (best != NO_MOVE).then_some(best as usize),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::compact::cells::Cells;

    fn hit(value: i32, remaining: u32) -> Hit {
        Hit {
            value,
            bound: Bound::Lower,
            remaining,
            best: Some(5),
        }
    }

    #[test]
    fn a_fresh_table_has_no_entries() {
        let t = Table::new(1 << 12);
        assert_eq!(
            t.probe(Pos {
                own: Cells(0),
                opp: Cells(0)
            }),
            None
        );
        assert_eq!(
            t.probe(Pos {
                own: Cells(1),
                opp: Cells(2)
            }),
            None
        );
    }

    #[test]
    fn stores_come_back_whole() {
        let t = Table::new(1 << 16);
        for (k, v) in [(1u64, -7), (2, i32::MIN / 4), (3, i32::MAX / 4)] {
            let pos = Pos {
                own: Cells(k),
                opp: Cells(k << 30),
            };
            t.store(pos, hit(v, k as u32));
            assert_eq!(t.probe(pos), Some(hit(v, k as u32)));
        }
        let none = Hit {
            best: None,
            ..hit(0, 64)
        };
        t.store(
            Pos {
                own: Cells(9),
                opp: Cells(0),
            },
            none,
        );
        assert_eq!(
            t.probe(Pos {
                own: Cells(9),
                opp: Cells(0)
            }),
            Some(none)
        );
    }

    #[test]
    fn a_bucket_keeps_the_larger_subtree() {
        // One bucket: every position lands in it.
        let t = Table::new(64);
        let (a, b, c) = (
            Pos {
                own: Cells(1),
                opp: Cells(0),
            },
            Pos {
                own: Cells(2),
                opp: Cells(0),
            },
            Pos {
                own: Cells(4),
                opp: Cells(0),
            },
        );
        t.store(a, hit(1, 10));
        t.store(b, hit(2, 3));
        t.store(c, hit(3, 5));
        assert_eq!(t.probe(a), Some(hit(1, 10)));
        assert_eq!(t.probe(b), None);
        assert_eq!(t.probe(c), Some(hit(3, 5)));
    }

    #[test]
    fn a_torn_entry_is_a_miss() {
        let t = Table::new(64);
        let pos = Pos {
            own: Cells(3),
            opp: Cells(12),
        };
        t.store(pos, hit(40, 6));
        // Another result's data word over this entry, as a race could leave it.
        let slot = (0..2)
            .find(|&s| t.buckets[0].0[s * 4].load(Relaxed) == 3)
            .unwrap();
        t.buckets[0].0[slot * 4 + 2].store(pack(hit(41, 6)), Relaxed);
        assert_eq!(t.probe(pos), None);
    }

    #[test]
    fn the_deepest_entries_are_kept_and_come_back() {
        let t = Table::new(1 << 16);
        let pos = |k: u64| Pos {
            own: Cells(k),
            opp: Cells(k << 32),
        };
        for k in 1..=300u64 {
            t.store(pos(k), hit(k as i32, (k % 30) as u32));
        }
        let kept = t.deepest(40, 5);
        assert!(!kept.is_empty() && kept.len() <= 40, "{}", kept.len());
        let plies = |e: &Entry| unpack(e[2]).unwrap().remaining;
        let least = kept.iter().map(plies).min().unwrap();
        // Nothing left out is deeper than what was kept, and the floor holds.
        assert!(least >= 5);
        let deeper_left = (1..=300u64)
            .filter(|&k| t.probe(pos(k)).is_some_and(|h| h.remaining > least))
            .count();
        assert_eq!(
            deeper_left,
            kept.iter().filter(|e| plies(e) > least).count()
        );
        let fresh = Table::new(1 << 16);
        for &e in &kept {
            assert!(fresh.restore(e, |_, _| true));
        }
        for e in &kept {
            let p = Pos {
                own: Cells(e[0]),
                opp: Cells(e[1]),
            };
            assert_eq!(fresh.probe(p), t.probe(p));
        }
        // An entry the board refuses, or whose data word is not one, is not stored.
        let other = Table::new(1 << 16);
        assert!(!other.restore(kept[0], |_, _| false));
        assert!(!other.restore([1, 2, 0], |_, _| true));
        assert_eq!(other.deepest(10, 0), Vec::<Entry>::new());
    }
}
