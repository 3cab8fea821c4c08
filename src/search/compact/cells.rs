//! A set of cells of a board or region of up to 64 or 128 cells, one bit
//! each: the compact search's positions, neighbourhoods and flips. The
//! word is a type parameter so that boards of up to 64 cells keep their
//! one-word sets, and only larger ones pay for two.

use std::fmt;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Shl, Shr};

use crate::game::{Bits, Word};

/// The word a set of cells is kept in: `u64` or `u128`.
pub(crate) trait SetWord:
    Word
    + Eq
    + Hash
    + Default
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// How many cells a set holds at most.
    const CELLS: usize;

    /// The word as two table words, the low half first (the high half
    /// of a `u64` is 0).
    fn halves(self) -> [u64; 2];

    /// The inverse of [`SetWord::halves`].
    fn from_halves(halves: [u64; 2]) -> Self;

    /// Every bit if `yes`, else none, without a branch.
    fn all_if(yes: bool) -> Self;

    /// Bits `8k..8k + 8` (the byte `k` of the set).
    fn byte(self, k: usize) -> usize;
}

impl SetWord for u64 {
    const ZERO: u64 = 0;
    const ONE: u64 = 1;
    const CELLS: usize = 64;

    #[inline(always)]
    fn halves(self) -> [u64; 2] {
        [self, 0]
    }

    #[inline(always)]
    fn from_halves([low, _]: [u64; 2]) -> u64 {
        low
    }

    #[inline(always)]
    fn all_if(yes: bool) -> u64 {
        u64::from(yes).wrapping_neg()
    }

    #[inline(always)]
    fn byte(self, k: usize) -> usize {
        (self >> (8 * k) & 0xFF) as usize
    }
}

impl SetWord for u128 {
    const ZERO: u128 = 0;
    const ONE: u128 = 1;
    const CELLS: usize = 128;

    #[inline(always)]
    fn halves(self) -> [u64; 2] {
        [self as u64, (self >> 64) as u64]
    }

    #[inline(always)]
    fn from_halves([low, high]: [u64; 2]) -> u128 {
        u128::from(low) | u128::from(high) << 64
    }

    #[inline(always)]
    fn all_if(yes: bool) -> u128 {
        u128::from(yes).wrapping_neg()
    }

    #[inline(always)]
    fn byte(self, k: usize) -> usize {
        (self >> (8 * k) & 0xFF) as usize
    }
}

/// Bit `i` is cell `i` of the board (row-major) or of the region.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Cells<W = u64>(pub W);

impl<W: SetWord> Cells<W> {
    pub(crate) const NONE: Cells<W> = Cells(W::ZERO);

    /// The set of the one cell `i`.
    #[inline(always)]
    pub(crate) fn of(i: usize) -> Cells<W> {
        Cells(W::ONE << i)
    }

    /// The first `k` cells (made once a search, not in its loops).
    pub(crate) fn first_n(k: usize) -> Cells<W> {
        (0..k.min(W::CELLS)).fold(Cells::NONE, |set, i| set | Cells::of(i))
    }

    /// The word, one bit per cell.
    #[inline(always)]
    pub(crate) fn bits(self) -> W {
        self.0
    }

    #[inline(always)]
    pub(crate) fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }

    /// How many cells the set holds.
    #[inline(always)]
    pub(crate) fn count(self) -> u32 {
        self.0.ones()
    }

    #[inline(always)]
    pub(crate) fn contains(self, i: usize) -> bool {
        (self.0 >> i) & W::ONE != W::ZERO
    }

    /// Whether the two sets share a cell.
    #[inline(always)]
    pub(crate) fn meets(self, other: Cells<W>) -> bool {
        self.0 & other.0 != W::ZERO
    }

    /// The lowest cell (the set is not empty).
    #[inline(always)]
    pub(crate) fn first(self) -> usize {
        self.0.lowest()
    }

    /// The set without its lowest cell.
    #[inline(always)]
    pub(crate) fn without_first(self) -> Cells<W> {
        Cells(self.0.without_lowest())
    }

    /// Every cell moved `k` places up the numbering (bits past the last drop).
    #[inline(always)]
    pub(crate) fn up(self, k: usize) -> Cells<W> {
        Cells(self.0 << k)
    }

    /// Every cell moved `k` places down the numbering (bits below 0 drop).
    #[inline(always)]
    pub(crate) fn down(self, k: usize) -> Cells<W> {
        Cells(self.0 >> k)
    }
}

impl<W: SetWord> IntoIterator for Cells<W> {
    type Item = usize;
    type IntoIter = Bits<W>;

    /// The cells, lowest first.
    #[inline(always)]
    fn into_iter(self) -> Bits<W> {
        Bits(self.0)
    }
}

impl<W: SetWord> BitAnd for Cells<W> {
    type Output = Cells<W>;

    #[inline(always)]
    fn bitand(self, other: Cells<W>) -> Cells<W> {
        Cells(self.0 & other.0)
    }
}

impl<W: SetWord> BitOr for Cells<W> {
    type Output = Cells<W>;

    #[inline(always)]
    fn bitor(self, other: Cells<W>) -> Cells<W> {
        Cells(self.0 | other.0)
    }
}

impl<W: SetWord> Not for Cells<W> {
    type Output = Cells<W>;

    #[inline(always)]
    fn not(self) -> Cells<W> {
        Cells(!self.0)
    }
}

impl<W: SetWord> BitAndAssign for Cells<W> {
    #[inline(always)]
    fn bitand_assign(&mut self, other: Cells<W>) {
        self.0 &= other.0;
    }
}

impl<W: SetWord> BitOrAssign for Cells<W> {
    #[inline(always)]
    fn bitor_assign(&mut self, other: Cells<W>) {
        self.0 |= other.0;
    }
}

/// The cells' numbers: `{0, 9, 17}`.
impl<W: SetWord> fmt::Debug for Cells<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = Cells::<u64>::of(3) | Cells::of(9) | Cells::of(63);
        assert_eq!(a.count(), 3);
        assert!(a.contains(9) && !a.contains(4));
        assert_eq!(a.first(), 3);
        assert_eq!(a.without_first(), Cells::of(9) | Cells::of(63));
        assert_eq!(a.into_iter().collect::<Vec<_>>(), vec![3, 9, 63]);
        assert!(a.meets(Cells::of(9)) && !a.meets(!a));
        assert_eq!(a.up(1), Cells::of(4) | Cells::of(10));
        assert_eq!(a.down(3), Cells::of(0) | Cells::of(6) | Cells::of(60));
        assert_eq!(format!("{a:?}"), "{3, 9, 63}");
        assert!(Cells::<u64>::NONE.is_empty());
        assert_eq!(Cells::<u64>::first_n(64), Cells(!0));
        assert_eq!(Cells::<u64>::first_n(5), Cells(0b11111));
    }

    #[test]
    fn wide_sets_reach_past_the_first_word() {
        let a = Cells::<u128>::of(3) | Cells::of(64) | Cells::of(127);
        assert_eq!(a.count(), 3);
        assert!(a.contains(64) && a.contains(127) && !a.contains(63));
        assert_eq!(a.into_iter().collect::<Vec<_>>(), vec![3, 64, 127]);
        assert_eq!(a.without_first().first(), 64);
        assert_eq!(a.bits().halves(), [1 << 3, 1 | 1 << 63]);
        assert_eq!(u128::from_halves(a.bits().halves()), a.bits());
        assert_eq!(a.bits().byte(8), 1);
        assert_eq!(a.bits().byte(15), 0x80);
        assert_eq!(Cells::<u128>::first_n(128), Cells(!0));
        assert_eq!(Cells::<u128>::first_n(70).count(), 70);
        assert_eq!(u128::all_if(true), !0);
        assert_eq!(u128::all_if(false), 0);
    }
}
