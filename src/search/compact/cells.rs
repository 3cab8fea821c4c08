//! A set of cells of a board of up to 64 cells, one bit each: the
//! compact search's positions, neighbourhoods and flips.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use crate::game::Bits;

/// Bit `r * n + c` is the cell at row `r`, column `c`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Cells(pub u64);

impl Cells {
    pub(crate) const NONE: Cells = Cells(0);

    /// The set of the one cell `i`.
    #[inline(always)]
    pub(crate) const fn of(i: usize) -> Cells {
        Cells(1 << i)
    }

    /// The word, one bit per cell.
    #[inline(always)]
    pub(crate) const fn bits(self) -> u64 {
        self.0
    }

    #[inline(always)]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many cells the set holds.
    #[inline(always)]
    pub(crate) const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline(always)]
    pub(crate) const fn contains(self, i: usize) -> bool {
        self.0 >> i & 1 != 0
    }

    /// Whether the two sets share a cell.
    #[inline(always)]
    pub(crate) const fn meets(self, other: Cells) -> bool {
        self.0 & other.0 != 0
    }

    /// The lowest cell (the set is not empty).
    #[inline(always)]
    pub(crate) const fn first(self) -> usize {
        self.0.trailing_zeros() as usize
    }

    /// The set without its lowest cell.
    #[inline(always)]
    pub(crate) const fn without_first(self) -> Cells {
        Cells(self.0 & self.0.wrapping_sub(1))
    }

    /// Every cell moved `k` places up the numbering (bits past 63 drop).
    #[inline(always)]
    pub(crate) const fn up(self, k: usize) -> Cells {
        Cells(self.0 << k)
    }

    /// Every cell moved `k` places down the numbering (bits below 0 drop).
    #[inline(always)]
    pub(crate) const fn down(self, k: usize) -> Cells {
        Cells(self.0 >> k)
    }
}

impl IntoIterator for Cells {
    type Item = usize;
    type IntoIter = Bits<u64>;

    /// The cells, lowest first.
    #[inline(always)]
    fn into_iter(self) -> Bits<u64> {
        Bits(self.0)
    }
}

impl BitAnd for Cells {
    type Output = Cells;

    #[inline(always)]
    fn bitand(self, other: Cells) -> Cells {
        Cells(self.0 & other.0)
    }
}

impl BitOr for Cells {
    type Output = Cells;

    #[inline(always)]
    fn bitor(self, other: Cells) -> Cells {
        Cells(self.0 | other.0)
    }
}

impl Not for Cells {
    type Output = Cells;

    #[inline(always)]
    fn not(self) -> Cells {
        Cells(!self.0)
    }
}

impl BitAndAssign for Cells {
    #[inline(always)]
    fn bitand_assign(&mut self, other: Cells) {
        self.0 &= other.0;
    }
}

impl BitOrAssign for Cells {
    #[inline(always)]
    fn bitor_assign(&mut self, other: Cells) {
        self.0 |= other.0;
    }
}

/// The cells' numbers: `{0, 9, 17}`.
impl fmt::Debug for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = Cells::of(3) | Cells::of(9) | Cells::of(63);
        assert_eq!(a.count(), 3);
        assert!(a.contains(9) && !a.contains(4));
        assert_eq!(a.first(), 3);
        assert_eq!(a.without_first(), Cells::of(9) | Cells::of(63));
        assert_eq!(a.into_iter().collect::<Vec<_>>(), vec![3, 9, 63]);
        assert!(a.meets(Cells::of(9)) && !a.meets(!a));
        assert_eq!(a.up(1), Cells::of(4) | Cells::of(10));
        assert_eq!(a.down(3), Cells::of(0) | Cells::of(6) | Cells::of(60));
        assert_eq!(format!("{a:?}"), "{3, 9, 63}");
        assert!(Cells::NONE.is_empty());
    }
}
