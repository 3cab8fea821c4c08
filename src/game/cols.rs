//! The columns in a row mask (one bit per column, as the board keeps its
//! rows), lowest first.

/// The set bits of a row mask, as column indices, lowest first:
/// `for c in Cols(board.empty_row(r))`. It compiles to the same loop as
/// clearing the lowest bit by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cols(pub u32);

impl Iterator for Cols {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(c)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cols {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yields_each_set_bit_lowest_first() {
        assert_eq!(Cols(0).collect::<Vec<_>>(), Vec::<usize>::new());
        assert_eq!(Cols(0b1010_0101).collect::<Vec<_>>(), vec![0, 2, 5, 7]);
        assert_eq!(Cols(1 << 31).collect::<Vec<_>>(), vec![31]);
        assert_eq!(Cols(u32::MAX).len(), 32);
    }
}
