//! The position: one `u32` row mask per player, the cell values, and an
//! incrementally kept score and hash.

use std::fmt;

use super::moves::{Move, MoveKind};
use super::player::{Player, Square, MAX_N};
use super::zobrist;

/// Rows are stored with one empty guard row above and below, so that the
/// neighbours of any row can be read without bounds checks.
const ROWS: usize = MAX_N + 2;

/// What [`Board::make`] changed, so that [`Board::unmake`] can put it back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    mv: Move,
    player: Player,
    /// Cells flipped by a Raid, per row offset: row above, same row, row below.
    flipped: [u32; 3],
    score: i64,
    hash: u64,
}

impl Undo {
    /// The enemy cells the move turned over (all zero for a Stake or a
    /// Raid that flipped nothing): row above, the move's row, row below.
    #[inline]
    pub fn flipped(&self) -> [u32; 3] {
        self.flipped
    }
}

/// A Stake & Raid position (which player is to move is not part of it: the
/// searches pass it along, as the file format does).
#[derive(Clone)]
pub struct Board {
    n: usize,
    full_row: u32,
    /// `pieces[p][r + 1]` holds player `p`'s pieces on row `r`; bit `c` is column `c`.
    pieces: [[u32; ROWS]; 2],
    values: [[i32; MAX_N]; MAX_N],
    /// Cells (`row * 32 + col`) by value, largest first, equal values the
    /// later cell first (the order the search tries Stakes in): the best
    /// Stake is the first empty one.
    by_value: [u16; MAX_N * MAX_N],
    /// How many of `by_value` are listed: every cell, or after
    /// [`Board::focused`] the cells empty then.
    listed: usize,
    /// Sum of X's values minus sum of O's values.
    score: i64,
    hash: u64,
}

impl Board {
    /// An empty `n` x `n` board with the given row-major cell values.
    ///
    /// # Panics
    /// If `n` is not in `1..=26` or `values` does not hold `n * n` non-negative values:
    /// callers that take values from outside check them first (see [`crate::parse_problem`]).
    pub fn new(n: usize, values: &[i32]) -> Board {
        assert!((1..=MAX_N).contains(&n), "board side {n} out of 1..=26");
        assert_eq!(values.len(), n * n, "need n*n values");
        let mut grid = [[0; MAX_N]; MAX_N];
        for (i, &v) in values.iter().enumerate() {
            assert!(v >= 0, "cell values are non-negative");
            grid[i / n][i % n] = v;
        }
        let mut cells: Vec<usize> = (0..n * n).collect();
        cells.sort_by_key(|&i| std::cmp::Reverse((values[i], i)));
        let mut by_value = [0u16; MAX_N * MAX_N];
        for (slot, i) in by_value.iter_mut().zip(cells) {
            *slot = ((i / n) * 32 + i % n) as u16;
        }
        Board {
            n,
            full_row: (1u32 << n) - 1,
            pieces: [[0; ROWS]; 2],
            values: grid,
            by_value,
            listed: n * n,
            score: 0,
            hash: 0,
        }
    }

    /// Board side.
    #[inline]
    pub fn n(&self) -> usize {
        self.n
    }

    /// Mask of the `n` valid columns of a row.
    #[inline]
    pub fn full_row(&self) -> u32 {
        self.full_row
    }

    /// Value of the cell at `row`, `col`.
    #[inline]
    pub fn value(&self, row: usize, col: usize) -> i32 {
        self.values[row][col]
    }

    /// Player `p`'s pieces on `row`.
    #[inline]
    pub fn row(&self, p: Player, row: usize) -> u32 {
        self.pieces[p as usize][row + 1]
    }

    /// Empty cells of `row`.
    #[inline]
    pub fn empty_row(&self, row: usize) -> u32 {
        self.full_row & !(self.pieces[0][row + 1] | self.pieces[1][row + 1])
    }

    /// Empty cells of `row` orthogonally next to one of `p`'s pieces: the Raid targets.
    #[inline]
    pub fn raid_row(&self, p: Player, row: usize) -> u32 {
        let own = &self.pieces[p as usize];
        let near = own[row] | own[row + 2] | (own[row + 1] << 1) | (own[row + 1] >> 1);
        near & self.empty_row(row)
    }

    /// Empty cells of `row` with at least one of `p`'s enemy pieces next to
    /// them: where a Raid by `p` would flip something (if `p` may raid there).
    #[inline]
    pub fn enemy_near_row(&self, p: Player, row: usize) -> u32 {
        let opp = &self.pieces[p.other() as usize];
        let near = opp[row] | opp[row + 2] | (opp[row + 1] << 1) | (opp[row + 1] >> 1);
        near & self.empty_row(row)
    }

    /// Raid targets of `p` in `row` that flip something.
    #[inline]
    pub fn flipping_row(&self, p: Player, row: usize) -> u32 {
        self.raid_row(p, row) & self.enemy_near_row(p, row)
    }

    /// What `p` gains (in its own score) by raiding `row`, `col`: the cell's
    /// value plus twice the value of each enemy neighbour turned over.
    #[inline]
    pub fn raid_gain(&self, p: Player, row: usize, col: usize) -> i64 {
        let opp = &self.pieces[p.other() as usize];
        let bit = 1u32 << col;
        let mut gain = i64::from(self.values[row][col]);
        if opp[row] & bit != 0 {
            gain += 2 * i64::from(self.values[row - 1][col]);
        }
        if opp[row + 2] & bit != 0 {
            gain += 2 * i64::from(self.values[row + 1][col]);
        }
        if opp[row + 1] & (bit >> 1) != 0 {
            gain += 2 * i64::from(self.values[row][col - 1]);
        }
        if opp[row + 1] & (bit << 1) != 0 {
            gain += 2 * i64::from(self.values[row][col + 1]);
        }
        gain
    }

    /// Value of the most valuable empty cell (0 on a full board).
    #[inline]
    pub fn best_empty_value(&self) -> i32 {
        for &cell in &self.by_value[..self.listed] {
            let (r, c) = (cell as usize >> 5, cell as usize & 31);
            if self.empty_row(r) & (1 << c) != 0 {
                return self.values[r][c];
            }
        }
        0
    }

    /// Every cell, most valuable first, as (row, col); on a
    /// [focused](Board::focused) board, the cells empty when it was.
    #[inline]
    pub fn cells_by_value(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.by_value[..self.listed]
            .iter()
            .map(|&cell| (cell as usize >> 5, cell as usize & 31))
    }

    /// The `i`-th cell of [`Board::cells_by_value`], if there are that many.
    #[inline]
    pub fn cell_by_value(&self, i: usize) -> Option<(usize, usize)> {
        let cell = *self.by_value[..self.listed].get(i)? as usize;
        Some((cell >> 5, cell & 31))
    }

    /// This board listing by value only its cells empty now, for a search
    /// that plays on from here: every position it reaches has its empty
    /// cells among these (a move fills a cell, and undoing it empties only
    /// that cell again), so what reads the cells by value for an empty one
    /// ([`Board::best_empty_value`], [`Board::empties_by_value`], the
    /// Stakes in value order) finds the same cells in the same order, past
    /// none of the settled rest. A big board near its end has a few empty
    /// cells among hundreds: the general search ran a fifth as fast per
    /// position on 26x26 as on 10x10 with the same empty cells for that.
    /// Undoing a move made before this copy was taken would empty a cell it
    /// does not list.
    pub(crate) fn focused(&self) -> Board {
        let mut b = self.clone();
        let mut k = 0;
        for i in 0..self.listed {
            let cell = self.by_value[i];
            let (r, c) = (usize::from(cell) >> 5, usize::from(cell) & 31);
            if self.empty_row(r) & (1 << c) != 0 {
                b.by_value[k] = cell;
                k += 1;
            }
        }
        b.listed = k;
        b
    }

    /// The empty cells, most valuable first, as (row, col).
    pub fn empties_by_value(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.cells_by_value()
            .filter(|&(r, c)| self.empty_row(r) & (1 << c) != 0)
    }

    /// Sum of every cell's value: no score lies outside `-total..=total`.
    pub fn total(&self) -> i64 {
        self.values[..self.n]
            .iter()
            .flat_map(|row| &row[..self.n])
            .map(|&v| i64::from(v))
            .sum()
    }

    /// Number of empty cells.
    pub fn empty_count(&self) -> u32 {
        (0..self.n).map(|r| self.empty_row(r).count_ones()).sum()
    }

    /// True when no cell is empty (the game is over).
    pub fn is_full(&self) -> bool {
        (0..self.n).all(|r| self.empty_row(r) == 0)
    }

    /// What stands on a cell.
    pub fn square(&self, row: usize, col: usize) -> Square {
        let bit = 1u32 << col;
        if self.row(Player::X, row) & bit != 0 {
            Square::Piece(Player::X)
        } else if self.row(Player::O, row) & bit != 0 {
            Square::Piece(Player::O)
        } else {
            Square::Empty
        }
    }

    /// Puts a piece on a cell, replacing whatever was there; for setting up
    /// positions, not for playing moves.
    pub fn set(&mut self, row: usize, col: usize, sq: Square) {
        assert!(row < self.n && col < self.n);
        let bit = 1u32 << col;
        for p in [Player::X, Player::O] {
            if self.pieces[p as usize][row + 1] & bit != 0 {
                self.pieces[p as usize][row + 1] &= !bit;
                self.score -= p.sign() * i64::from(self.values[row][col]);
                self.hash ^= zobrist::key(p, row, col);
            }
        }
        if let Square::Piece(p) = sq {
            self.pieces[p as usize][row + 1] |= bit;
            self.score += p.sign() * i64::from(self.values[row][col]);
            self.hash ^= zobrist::key(p, row, col);
        }
    }

    /// The game score from `p`'s point of view: `p`'s values minus the other's.
    #[inline]
    pub fn score(&self, p: Player) -> i64 {
        self.score * p.sign()
    }

    /// Zobrist hash of the pieces.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plays `mv` for `p`. The target must be empty, and for a Raid next to
    /// one of `p`'s pieces (checked in debug builds only: this is the hot path).
    #[inline]
    pub fn make(&mut self, mv: Move, p: Player) -> Undo {
        let (r, c) = (mv.row(), mv.col());
        let bit = 1u32 << c;
        debug_assert!(self.empty_row(r) & bit != 0, "{mv} is not empty");
        debug_assert!(mv.kind() == MoveKind::Stake || self.raid_row(p, r) & bit != 0);
        let undo = Undo {
            mv,
            player: p,
            flipped: [0; 3],
            score: self.score,
            hash: self.hash,
        };
        let (me, opp) = (p as usize, p.other() as usize);
        self.pieces[me][r + 1] |= bit;
        let mut gain = i64::from(self.values[r][c]);
        self.hash ^= zobrist::key(p, r, c);
        if mv.kind() == MoveKind::Raid {
            let near = [bit, (bit << 1 | bit >> 1), bit];
            let mut flipped = [0u32; 3];
            for (k, f) in flipped.iter_mut().enumerate() {
                *f = self.pieces[opp][r + k] & near[k];
                if *f == 0 {
                    continue;
                }
                self.pieces[opp][r + k] ^= *f;
                self.pieces[me][r + k] |= *f;
                let mut rest = *f;
                while rest != 0 {
                    let col = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    // Row r + k of the padded array is board row r + k - 1.
                    gain += 2 * i64::from(self.values[r + k - 1][col]);
                    self.hash ^= zobrist::flip(r + k - 1, col);
                }
            }
            self.score += p.sign() * gain;
            return Undo { flipped, ..undo };
        }
        self.score += p.sign() * gain;
        undo
    }

    /// Takes back the move that produced `undo` (moves are undone last-first).
    #[inline]
    pub fn unmake(&mut self, undo: Undo) {
        let (r, c) = (undo.mv.row(), undo.mv.col());
        let (me, opp) = (undo.player as usize, undo.player.other() as usize);
        self.pieces[me][r + 1] &= !(1u32 << c);
        for (k, &f) in undo.flipped.iter().enumerate() {
            self.pieces[me][r + k] &= !f;
            self.pieces[opp][r + k] |= f;
        }
        self.score = undo.score;
        self.hash = undo.hash;
    }

    /// Recomputes score and hash from scratch and checks the kept ones and
    /// the masks (debug builds; a no-op in release).
    #[inline]
    pub fn check_invariants(&self) {
        if cfg!(debug_assertions) {
            let (score, hash) = self.recompute();
            assert_eq!(self.score, score, "incremental score drifted");
            assert_eq!(self.hash, hash, "incremental hash drifted");
            for p in 0..2 {
                assert_eq!(self.pieces[p][0], 0);
                assert_eq!(
                    self.pieces[p][self.n + 1..].iter().fold(0, |a, &b| a | b),
                    0
                );
                for r in 1..=self.n {
                    assert_eq!(self.pieces[p][r] & !self.full_row, 0);
                }
            }
            for r in 1..=self.n {
                assert_eq!(self.pieces[0][r] & self.pieces[1][r], 0, "cell owned twice");
            }
        }
    }

    /// Score (X's view) and hash computed from the pieces alone.
    pub fn recompute(&self) -> (i64, u64) {
        let (mut score, mut hash) = (0i64, 0u64);
        for r in 0..self.n {
            for c in 0..self.n {
                if let Square::Piece(p) = self.square(r, c) {
                    score += p.sign() * i64::from(self.values[r][c]);
                    hash ^= zobrist::key(p, r, c);
                }
            }
        }
        (score, hash)
    }

    /// The pieces rows as `X`, `O` and `.` characters, one line per row,
    /// each ending in `\n` (the board part of `input.txt` / `output.txt`).
    pub fn cells_text(&self) -> String {
        let mut s = String::with_capacity(self.n * (self.n + 1));
        for r in 0..self.n {
            for c in 0..self.n {
                s.push(match self.square(r, c) {
                    Square::Empty => '.',
                    Square::Piece(p) => p.symbol(),
                });
            }
            s.push('\n');
        }
        s
    }

    /// All pieces of both players as one key: used to compare positions
    /// exactly (the transposition table checks it on every hit).
    pub fn key_words(&self, out: &mut [u64]) {
        pack_rows(&self.pieces, self.n, out);
    }

    /// How many `u64` words [`Board::key_words`] writes for side `n`.
    pub const fn key_len(n: usize) -> usize {
        (2 * n * n).div_ceil(64)
    }
}

fn pack_rows(pieces: &[[u32; ROWS]; 2], n: usize, out: &mut [u64]) {
    out.iter_mut().for_each(|w| *w = 0);
    let mut bit = 0usize;
    for rows in pieces {
        for &row in &rows[1..=n] {
            let word = bit / 64;
            let shift = bit % 64;
            out[word] |= u64::from(row) << shift;
            if shift + n > 64 {
                out[word + 1] |= u64::from(row) >> (64 - shift);
            }
            bit += n;
        }
    }
}

/// The same position on the same values: how the cells are listed by value
/// (all, or [focused](Board::focused)) is not part of it.
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.n == other.n
            && self.pieces == other.pieces
            && self.values == other.values
            && self.score == other.score
            && self.hash == other.hash
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    /// Draws the grid with values: `X42` / `O7` / `.13`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{} score(X)={}", self.n, self.n, self.score)?;
        for r in 0..self.n {
            for c in 0..self.n {
                let ch = match self.square(r, c) {
                    Square::Empty => '.',
                    Square::Piece(p) => p.symbol(),
                };
                write!(f, " {ch}{:<3}", self.values[r][c])?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
