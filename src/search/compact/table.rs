//! The compact search's transposition table: one cache line a bucket, read
//! and written without locks, every hit verified against the whole position.
//!
//! A bucket holds its entries in one of three layouts, chosen by the
//! number of cells:
//! - **Narrow** (boards of at most 32 cells): the whole position fits one
//!   word, `own | opp << 32`, so an entry is two words and a bucket holds
//!   four. An entry is the key mixed with its data, and the data
//!   (Hyatt's lockless scheme): only the two words written together give
//!   back the key.
//! - **Wide** (up to 64 cells): an entry is four words: the two sets, the
//!   packed result, and a check word mixed from the other three; a bucket
//!   holds two.
//! - **Huge** (up to 128 cells): an entry is six words: the two sets, two
//!   words each, the packed result and the check word; a bucket holds one,
//!   and two neighbouring buckets (one 128-byte line pair, which the cache
//!   loads together) are its slots.
//!
//! Two threads writing one entry at once can leave words of both; the key
//! (narrow) or the check word (wide) then no longer matches, and the reader
//! sees a miss. The memory comes zeroed from the allocator, which for a
//! large table maps fresh pages: nothing is touched until used.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::geometry::{Cells, Pos, SetWord};
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

/// How a bucket's eight words hold entries; see the module's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Narrow,
    Wide,
    Huge,
}

impl Layout {
    /// The layout for the positions of a board of `cells` cells.
    fn of(cells: usize) -> Layout {
        if cells <= 32 {
            Layout::Narrow
        } else if cells <= 64 {
            Layout::Wide
        } else {
            Layout::Huge
        }
    }

    /// Words an entry (a huge one leaves two of its bucket unused).
    const fn width(self) -> usize {
        match self {
            Layout::Narrow => 2,
            Layout::Wide => 4,
            Layout::Huge => 8,
        }
    }

    /// Which of an entry's words is its packed result.
    const fn data(self) -> usize {
        match self {
            Layout::Narrow => 1,
            Layout::Wide => 2,
            Layout::Huge => 4,
        }
    }

    /// Slots an entry may take: those of a bucket, or a huge entry's two
    /// buckets.
    const fn slots(self) -> usize {
        match self {
            Layout::Huge => 2,
            _ => 8 / self.width(),
        }
    }
}

pub(crate) struct Table {
    buckets: Box<[Bucket]>,
    mask: usize,
    layout: Layout,
}

const NO_MOVE: u64 = 127;

impl Table {
    /// A table of at most `bytes` (at least one bucket), fewer if the
    /// memory is not there, for positions of a board of `cells` cells.
    pub(crate) fn new(bytes: usize, cells: usize) -> Table {
        let layout = Layout::of(cells);
        // A huge entry's two slots are two buckets.
        let least = if layout == Layout::Huge { 2 } else { 1 };
        let mut count = (bytes / 64).max(least);
        if !count.is_power_of_two() {
            count = count.next_power_of_two() / 2;
        }
        loop {
            if let Some(buckets) = zeroed(count) {
                return Table {
                    buckets,
                    mask: count - 1,
                    layout,
                };
            }
            assert!(count > least, "no memory for one table bucket");
            count /= 2;
        }
    }

    /// Size in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.buckets.len() * 64
    }

    #[inline(always)]
    fn index<W: SetWord>(&self, pos: Pos<W>) -> usize {
        let (own, opp) = (fold(pos.own), fold(pos.opp));
        let h = (own ^ opp.rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = (h >> 32) as usize & self.mask;
        // Only sets of two words come huge: one word pays nothing here.
        if W::CELLS > 64 && self.layout == Layout::Huge {
            i & !1
        } else {
            i
        }
    }

    #[inline(always)]
    fn bucket<W: SetWord>(&self, pos: Pos<W>) -> &Bucket {
        &self.buckets[self.index(pos)]
    }

    /// Starts loading `pos`'s bucket into the cache.
    #[inline(always)]
    pub(crate) fn prefetch<W: SetWord>(&self, pos: Pos<W>) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch has no effect but on the cache, and the
        // address is that of a live bucket.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let b = self.bucket(pos) as *const Bucket;
            _mm_prefetch::<_MM_HINT_T0>(b.cast());
            if W::CELLS > 64 && self.layout == Layout::Huge {
                _mm_prefetch::<_MM_HINT_T0>(b.add(1).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = pos;
    }

    /// The entry stored for `pos`, if any.
    #[inline]
    pub(crate) fn probe<W: SetWord>(&self, pos: Pos<W>) -> Option<Hit> {
        let b = self.bucket(pos);
        let ([own, own_high], [opp, opp_high]) = (pos.own.bits().halves(), pos.opp.bits().halves());
        match self.layout {
            Layout::Narrow => {
                let key = narrow_key(own, opp);
                for w in b.0.chunks_exact(2) {
                    let data = w[1].load(Relaxed);
                    if w[0].load(Relaxed) == key ^ scramble(data) {
                        return unpack(data);
                    }
                }
            }
            Layout::Wide => {
                for w in b.0.chunks_exact(4) {
                    if w[0].load(Relaxed) != own || w[1].load(Relaxed) != opp {
                        continue;
                    }
                    let (data, check) = (w[2].load(Relaxed), w[3].load(Relaxed));
                    if check != mix(own, opp, data) {
                        continue;
                    }
                    return unpack(data);
                }
            }
            Layout::Huge => {
                let words = [own, own_high, opp, opp_high];
                let base = self.index(pos);
                for w in self.buckets[base..base + 2].iter().map(|b| &b.0) {
                    if words
                        .iter()
                        .zip(w.iter())
                        .any(|(&x, y)| y.load(Relaxed) != x)
                    {
                        continue;
                    }
                    let (data, check) = (w[4].load(Relaxed), w[5].load(Relaxed));
                    if check == mix(fold(pos.own), fold(pos.opp), data) {
                        return unpack(data);
                    }
                }
            }
        }
        None
    }

    /// Stores `hit` for `pos`: over its own entry, else over the entry
    /// with the smallest subtree (on a tie, the first from a slot that
    /// depends on the position, so that no slot keeps an old entry for
    /// good while its neighbours turn over).
    #[inline]
    pub(crate) fn store<W: SetWord>(&self, pos: Pos<W>, hit: Hit) {
        let b = self.bucket(pos);
        let data = pack(hit);
        let ([own, own_high], [opp, opp_high]) = (pos.own.bits().halves(), pos.opp.bits().halves());
        match self.layout {
            Layout::Narrow => {
                let key = narrow_key(own, opp);
                let slot = victim(
                    b,
                    Layout::Narrow,
                    |w| w[0].load(Relaxed) == key ^ scramble(w[1].load(Relaxed)),
                    own ^ opp,
                );
                let w = &b.0[slot * 2..slot * 2 + 2];
                w[0].store(key ^ scramble(data), Relaxed);
                w[1].store(data, Relaxed);
            }
            Layout::Wide => {
                let mine = |w: &[AtomicU64]| w[0].load(Relaxed) == own && w[1].load(Relaxed) == opp;
                let slot = victim(b, Layout::Wide, mine, own ^ opp);
                let w = &b.0[slot * 4..slot * 4 + 4];
                w[0].store(own, Relaxed);
                w[1].store(opp, Relaxed);
                w[2].store(data, Relaxed);
                w[3].store(mix(own, opp, data), Relaxed);
            }
            Layout::Huge => {
                let words = [own, own_high, opp, opp_high];
                let base = self.index(pos);
                let pair = &self.buckets[base..base + 2];
                let mine = |w: &[AtomicU64; 8]| {
                    words
                        .iter()
                        .zip(w.iter())
                        .all(|(&x, y)| y.load(Relaxed) == x)
                };
                let below = |s: usize| (pair[s].0[4].load(Relaxed) >> 34) & 127;
                let slot = match (0..2).find(|&s| mine(&pair[s].0)) {
                    Some(s) => s,
                    None => {
                        let start = (own ^ opp) as usize % 2;
                        if below(1 - start) < below(start) {
                            1 - start
                        } else {
                            start
                        }
                    }
                };
                let w = &pair[slot].0;
                for (word, x) in w.iter().zip(words) {
                    word.store(x, Relaxed);
                }
                w[4].store(data, Relaxed);
                w[5].store(mix(fold(pos.own), fold(pos.opp), data), Relaxed);
            }
        }
    }
}

/// The slot of bucket `b` (entries in `layout`) that a store for `pos`
/// writes over: the one `mine` recognises, else the one with the fewest
/// plies below it.
#[inline(always)]
fn victim(b: &Bucket, layout: Layout, mine: impl Fn(&[AtomicU64]) -> bool, seed: u64) -> usize {
    let (width, slots) = (layout.width(), layout.slots());
    let remaining = |slot: usize| (b.0[slot * width + layout.data()].load(Relaxed) >> 34) & 127;
    if let Some(slot) = (0..slots).find(|&s| mine(&b.0[s * width..s * width + width])) {
        return slot;
    }
    let start = seed as usize % slots;
    let mut best = start;
    for k in 1..slots {
        let s = (start + k) % slots;
        if remaining(s) < remaining(best) {
            best = s;
        }
    }
    best
}

/// The whole position of a board of at most 32 cells, as one word.
#[inline(always)]
fn narrow_key(own: u64, opp: u64) -> u64 {
    own | opp << 32
}

/// A set as one word for hashing: itself for a board of up to 64 cells.
#[inline(always)]
fn fold<W: SetWord>(cells: Cells<W>) -> u64 {
    let [low, high] = cells.bits().halves();
    low ^ high.wrapping_mul(0x9FB2_1C65_1E98_DF25).rotate_left(17)
}

/// The inverse of [`narrow_key`].
#[inline(always)]
fn narrow_pos(key: u64) -> Pos {
    Pos {
        own: Cells(key & 0xFFFF_FFFF),
        opp: Cells(key >> 32),
    }
}

/// Spreads a data word over the other 63 bits, so that the key read back
/// from words of two different entries is as good as random, never the
/// key of a position by some pattern in the data. The top bit is set: no
/// key of 32 cells or fewer has it, so an all-zero slot is never a hit.
#[inline(always)]
fn scramble(data: u64) -> u64 {
    let mut h = data.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h.wrapping_mul(0xC4CE_B9FE_1A85_EC53) | 1 << 63
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

    /// Every entry that reads whole, with its plies. A narrow entry caught
    /// half-written reads as some other key, as good as random; it is left
    /// out unless that key is a position (no cell both sides') that hashes
    /// to this bucket.
    fn each_entry(&self, mut f: impl FnMut(Entry, u32)) {
        for b in self.buckets.iter() {
            match self.layout {
                Layout::Narrow => {
                    for w in b.0.chunks_exact(2) {
                        let data = w[1].load(Relaxed);
                        let pos: Pos = narrow_pos(w[0].load(Relaxed) ^ scramble(data));
                        if pos.own.meets(pos.opp) || !std::ptr::eq(self.bucket(pos), b) {
                            continue;
                        }
                        if let Some(hit) = unpack(data) {
                            f([pos.own.bits(), pos.opp.bits(), data], hit.remaining);
                        }
                    }
                }
                // Not kept: an entry of three words has no room for it.
                Layout::Huge => {}
                Layout::Wide => {
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
        }
    }

    /// Stores an entry [`Table::deepest`] took from a table of the same
    /// board, if it reads as one and `fits` the board; whether it did.
    pub(crate) fn restore<W: SetWord>(
        &self,
        [own, opp, data]: Entry,
        fits: impl Fn(Pos<W>, Hit) -> bool,
    ) -> bool {
        let pos = Pos {
            own: Cells(W::from_halves([own, 0])),
            opp: Cells(W::from_halves([opp, 0])),
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
        // Cell 127 of a region of 128 cells has no room: it goes unnamed,
        // which only leaves it unordered.
        | hit.best.map_or(NO_MOVE, |c| (c as u64).min(NO_MOVE)) << 41
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

    /// A position of board `cells` big, different for each `k` below 2^12.
    fn pos<W: SetWord>(cells: usize, k: u64) -> Pos<W> {
        let half = cells / 2;
        Pos {
            own: Cells(W::from_halves([k & 0xFFF, 0])),
            opp: Cells(W::from_halves([(k * 7 + 1) % (1 << 12), 0]) << half),
        }
    }

    /// Board sizes that give each layout, at its largest and smallest.
    const BOARDS: [usize; 4] = [25, 32, 36, 64];
    /// Sizes of two words (the huge layout).
    const HUGE: [usize; 3] = [65, 100, 128];

    /// Runs `check` on every layout, in the word each layout's sets take.
    fn on_every_layout(check: fn(usize), check_huge: fn(usize)) {
        BOARDS.into_iter().for_each(check);
        HUGE.into_iter().for_each(check_huge);
    }

    #[test]
    fn a_fresh_table_has_no_entries() {
        on_every_layout(
            a_fresh_table_has_no_entries_on::<u64>,
            a_fresh_table_has_no_entries_on::<u128>,
        );
    }

    fn a_fresh_table_has_no_entries_on<W: SetWord>(cells: usize) {
        let t = Table::new(1 << 12, cells);
        for p in [
            Pos::<W> {
                own: Cells::NONE,
                opp: Cells::NONE,
            },
            pos::<W>(cells, 0),
            pos::<W>(cells, 9),
        ] {
            assert_eq!(t.probe(p), None);
        }
        assert_eq!(t.deepest(10, 0), Vec::<Entry>::new());
    }

    #[test]
    fn stores_come_back_whole() {
        on_every_layout(
            stores_come_back_whole_on::<u64>,
            stores_come_back_whole_on::<u128>,
        );
    }

    fn stores_come_back_whole_on<W: SetWord>(cells: usize) {
        let t = Table::new(1 << 16, cells);
        for (k, v) in [(1u64, -7), (2, i32::MIN / 4), (3, i32::MAX / 4)] {
            t.store(pos::<W>(cells, k), hit(v, k as u32));
            assert_eq!(t.probe(pos::<W>(cells, k)), Some(hit(v, k as u32)));
        }
        let none = Hit {
            best: None,
            ..hit(0, 64)
        };
        let empty = Pos::<W> {
            own: Cells::NONE,
            opp: Cells::NONE,
        };
        t.store(empty, none);
        assert_eq!(t.probe(empty), Some(none));
        // The whole board as one player's, the other's as well.
        let full = Cells::<W>::first_n(cells);
        for p in [
            Pos {
                own: full,
                opp: Cells::NONE,
            },
            Pos {
                own: Cells::NONE,
                opp: full,
            },
        ] {
            t.store(p, hit(11, 0));
            assert_eq!(t.probe(p), Some(hit(11, 0)));
        }
    }

    #[test]
    fn a_bucket_keeps_the_larger_subtrees() {
        on_every_layout(
            a_bucket_keeps_the_larger_subtrees_on::<u64>,
            a_bucket_keeps_the_larger_subtrees_on::<u128>,
        );
    }

    fn a_bucket_keeps_the_larger_subtrees_on<W: SetWord>(cells: usize) {
        // One bucket: every position lands in it.
        let t = Table::new(64, cells);
        let slots = t.layout.slots() as u64;
        // Full of deep entries, then shallower ones: only one of those
        // stays, over the shallowest deep one.
        for k in 0..slots {
            t.store(pos::<W>(cells, k), hit(k as i32, 10 + k as u32));
        }
        for k in 0..slots {
            assert_eq!(
                t.probe(pos::<W>(cells, k)),
                Some(hit(k as i32, 10 + k as u32))
            );
        }
        t.store(pos::<W>(cells, 100), hit(-1, 3));
        t.store(pos::<W>(cells, 101), hit(-2, 5));
        assert_eq!(t.probe(pos::<W>(cells, 0)), None);
        assert_eq!(t.probe(pos::<W>(cells, 100)), None);
        assert_eq!(t.probe(pos::<W>(cells, 101)), Some(hit(-2, 5)));
        for k in 1..slots {
            assert_eq!(
                t.probe(pos::<W>(cells, k)),
                Some(hit(k as i32, 10 + k as u32))
            );
        }
        // A position's own entry is written over, whatever its depth.
        t.store(pos::<W>(cells, 1), hit(7, 1));
        assert_eq!(t.probe(pos::<W>(cells, 1)), Some(hit(7, 1)));
    }

    #[test]
    fn equal_depths_turn_over_every_slot() {
        on_every_layout(
            equal_depths_turn_over_every_slot_on::<u64>,
            equal_depths_turn_over_every_slot_on::<u128>,
        );
    }

    fn equal_depths_turn_over_every_slot_on<W: SetWord>(cells: usize) {
        let t = Table::new(64, cells);
        for k in 0..200 {
            t.store(pos::<W>(cells, k), hit(k as i32, 6));
        }
        // Of many stores of one depth, the last few are all still there.
        let kept = (0..200)
            .filter(|&k| t.probe(pos::<W>(cells, k)).is_some())
            .count();
        let slots = Layout::of(cells).slots();
        assert_eq!(kept, slots);
        assert!(t.probe(pos::<W>(cells, 199)).is_some());
        let old = (0..150)
            .filter(|&k| t.probe(pos::<W>(cells, k)).is_some())
            .count();
        assert!(old < slots, "{old} of the first stores stayed for good");
    }

    #[test]
    fn a_torn_entry_is_a_miss() {
        on_every_layout(
            a_torn_entry_is_a_miss_on::<u64>,
            a_torn_entry_is_a_miss_on::<u128>,
        );
    }

    fn a_torn_entry_is_a_miss_on<W: SetWord>(cells: usize) {
        let t = Table::new(1 << 16, cells);
        let p = pos::<W>(cells, 3);
        t.store(p, hit(40, 6));
        // Another result's data word over this entry, as a race could leave it.
        let (width, data) = (t.layout.width(), t.layout.data());
        let base = t.index(p);
        let words: Vec<&AtomicU64> = match t.layout {
            Layout::Huge => (0..2).map(|s| &t.buckets[base + s].0[data]).collect(),
            _ => (0..8 / width)
                .map(|s| &t.buckets[base].0[s * width + data])
                .collect(),
        };
        let word = words
            .into_iter()
            .find(|w| w.load(Relaxed) == pack(hit(40, 6)))
            .unwrap();
        word.store(pack(hit(41, 6)), Relaxed);
        assert_eq!(t.probe(p), None);
        assert_eq!(t.deepest(10, 0), Vec::<Entry>::new());
    }

    #[test]
    fn the_deepest_entries_are_kept_and_come_back() {
        BOARDS
            .into_iter()
            .for_each(the_deepest_entries_are_kept_and_come_back_on::<u64>);
        // A huge entry does not fit the three words of a kept one.
        for cells in HUGE {
            let t = Table::new(1 << 16, cells);
            t.store(pos::<u128>(cells, 7), hit(1, 20));
            assert_eq!(t.deepest(10, 0), Vec::<Entry>::new());
        }
    }

    fn the_deepest_entries_are_kept_and_come_back_on<W: SetWord>(cells: usize) {
        let t = Table::new(1 << 16, cells);
        for k in 1..=300u64 {
            t.store(pos::<W>(cells, k), hit(k as i32, (k % 30) as u32));
        }
        let kept = t.deepest(40, 5);
        assert!(!kept.is_empty() && kept.len() <= 40, "{}", kept.len());
        let plies = |e: &Entry| unpack(e[2]).unwrap().remaining;
        let least = kept.iter().map(plies).min().unwrap();
        // Nothing left out is deeper than what was kept, and the floor holds.
        assert!(least >= 5);
        let deeper_left = (1..=300u64)
            .filter(|&k| {
                t.probe(pos::<W>(cells, k))
                    .is_some_and(|h| h.remaining > least)
            })
            .count();
        assert_eq!(
            deeper_left,
            kept.iter().filter(|e| plies(e) > least).count()
        );
        let fresh = Table::new(1 << 16, cells);
        for &e in &kept {
            assert!(fresh.restore(e, |_: Pos<W>, _| true));
        }
        for e in &kept {
            let p = Pos::<W> {
                own: Cells(W::from_halves([e[0], 0])),
                opp: Cells(W::from_halves([e[1], 0])),
            };
            assert!(t.probe(p).is_some());
            assert_eq!(fresh.probe(p), t.probe(p));
        }
        // An entry the board refuses, or whose data word is not one, is not stored.
        let other = Table::new(1 << 16, cells);
        assert!(!other.restore(kept[0], |_: Pos<W>, _| false));
        assert!(!other.restore([1, 2, 0], |_: Pos<W>, _| true));
        assert_eq!(other.deepest(10, 0), Vec::<Entry>::new());
    }
}
