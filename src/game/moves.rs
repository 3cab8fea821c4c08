//! Moves: a Stake or a Raid on one cell, packed in 16 bits, and the
//! fixed-capacity list the searches generate them into.

use std::fmt;

/// Stake (any empty cell) or Raid (an empty cell next to an own piece,
/// flipping the enemy pieces around it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Occupy any empty cell.
    Stake,
    /// Occupy an empty cell next to an own piece and take the enemy neighbours.
    Raid,
}

impl MoveKind {
    /// `"Stake"` or `"Raid"`, as written in `output.txt`.
    pub const fn name(self) -> &'static str {
        match self {
            MoveKind::Stake => "Stake",
            MoveKind::Raid => "Raid",
        }
    }
}

/// A move: target cell and kind, packed in 16 bits (`row * 32 + col`, kind in bit 10).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);

const RAID_BIT: u16 = 1 << 10;

impl Move {
    /// A move on `row`, `col` (zero-based; both below 26).
    #[inline]
    pub const fn new(row: usize, col: usize, kind: MoveKind) -> Move {
        let k = match kind {
            MoveKind::Stake => 0,
            MoveKind::Raid => RAID_BIT,
        };
        Move((row * 32 + col) as u16 | k)
    }

    /// Zero-based row.
    #[inline]
    pub const fn row(self) -> usize {
        ((self.0 & 0x3ff) >> 5) as usize
    }

    /// Zero-based column.
    #[inline]
    pub const fn col(self) -> usize {
        (self.0 & 31) as usize
    }

    /// Stake or Raid.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        if self.0 & RAID_BIT == 0 {
            MoveKind::Stake
        } else {
            MoveKind::Raid
        }
    }

    /// The packed 16-bit form.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// A move from its packed form, as made by [`Move::bits`].
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The target cell's name, e.g. `"C3"` or `"Z26"`.
    pub fn cell_name(self) -> String {
        format!("{}{}", (b'A' + self.col() as u8) as char, self.row() + 1)
    }
}

impl fmt::Display for Move {
    /// `"C3 Raid"`, the first line of `output.txt`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.cell_name(), self.kind().name())
    }
}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// Not two words.
    #[error("expected a cell and a move type, like \"C3 Stake\", got {0:?}")]
    Shape(String),
    /// The second word is not Stake or Raid.
    #[error("move type must be Stake or Raid, got {0:?}")]
    Kind(String),
    /// The first word is not a column letter and a row from 1 to 26.
    #[error("bad cell {0:?}: expected a column letter and a row number, like C3")]
    Cell(String),
}

impl std::str::FromStr for Move {
    type Err = MoveParseError;

    /// Reads `"C3 Stake"`, `"c3 raid"` or `"Z26 Raid"` (case and spacing free).
    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        let mut words = s.split_whitespace();
        let (Some(cell), Some(kind), None) = (words.next(), words.next(), words.next()) else {
            return Err(MoveParseError::Shape(s.to_string()));
        };
        let kind = match kind.to_ascii_lowercase().as_str() {
            "stake" => MoveKind::Stake,
            "raid" => MoveKind::Raid,
            _ => return Err(MoveParseError::Kind(kind.to_string())),
        };
        let bytes = cell.as_bytes();
        let col = bytes
            .first()
            .map(|b| b.to_ascii_uppercase())
            .filter(u8::is_ascii_uppercase);
        let row = cell
            .get(1..)
            .and_then(|r| r.parse::<usize>().ok())
            .filter(|r| (1..=26).contains(r));
        match (col, row) {
            (Some(c), Some(r)) => Ok(Move::new(r - 1, usize::from(c - b'A'), kind)),
            _ => Err(MoveParseError::Cell(cell.to_string())),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Most moves a position can have: a Stake and a Raid on each of 26 x 26 cells.
pub const MAX_MOVES: usize = 2 * 26 * 26;

/// A fixed-capacity move list that lives on the stack.
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for reordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_back_what_they_print() {
        for (r, c) in [(0, 0), (2, 1), (25, 25)] {
            for kind in [MoveKind::Stake, MoveKind::Raid] {
                let mv = Move::new(r, c, kind);
                assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
            }
        }
        assert_eq!(
            " c3   raid ".parse::<Move>().unwrap(),
            Move::new(2, 2, MoveKind::Raid)
        );
        for bad in [
            "C3",
            "C3 Blitz",
            "3C Stake",
            "C0 Stake",
            "C27 Raid",
            "C3 Stake now",
            "",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
        assert_eq!(
            "C3 Blitz".parse::<Move>(),
            Err(MoveParseError::Kind("Blitz".into()))
        );
        assert_eq!(
            "C0 Stake".parse::<Move>(),
            Err(MoveParseError::Cell("C0".into()))
        );
        assert_eq!(
            "C3".parse::<Move>(),
            Err(MoveParseError::Shape("C3".into()))
        );
    }
}
