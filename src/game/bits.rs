//! The set bits of a word, as indices, lowest first: the columns of a
//! board's row mask (one `u32` per row), and the cells of the compact
//! search's sets (one `u64` or `u128` per board or region of up to 64 or
//! 128 cells).

/// A word whose set bits can be walked.
pub(crate) trait Word: Copy {
    fn is_zero(self) -> bool;
    /// The index of the lowest set bit (the word is not zero).
    fn lowest(self) -> usize;
    /// The word without its lowest set bit.
    fn without_lowest(self) -> Self;
    fn ones(self) -> u32;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }

            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }

            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }

            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
        }
    };
}

word!(u32);
word!(u64);
word!(u128);

/// The set bits of a word, as indices, lowest first:
/// `for c in Bits(board.empty_row(r))`. It compiles to the same loop as
/// clearing the lowest bit by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bits<W>(pub W);

impl<W: Word> Iterator for Bits<W> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_zero() {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(i)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.ones() as usize;
        (n, Some(n))
    }
}

impl<W: Word> ExactSizeIterator for Bits<W> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yields_each_set_bit_lowest_first() {
        assert_eq!(Bits(0u32).collect::<Vec<_>>(), Vec::<usize>::new());
        assert_eq!(Bits(0b1010_0101u32).collect::<Vec<_>>(), vec![0, 2, 5, 7]);
        assert_eq!(Bits(1u32 << 31).collect::<Vec<_>>(), vec![31]);
        assert_eq!(Bits(u32::MAX).len(), 32);
        assert_eq!(Bits(1u64 << 63 | 1).collect::<Vec<_>>(), vec![0, 63]);
        assert_eq!(Bits(u64::MAX).len(), 64);
    }
}
