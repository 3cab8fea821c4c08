//! Boards of up to 64 cells, boards of up to 128, and the regions of
//! larger boards where their game is still open, as two sets of
//! [`Cells`]: the cells, their values and neighbours, and the one move per
//! empty cell that the exact search needs.
//!
//! **Regions.** Only a Raid turns a piece over, and only the pieces next
//! to the empty cell it fills; a piece with no empty neighbour keeps its
//! owner to the end. So the game from a position is played on `R`, its
//! empty cells and their occupied neighbours: every cell outside `R` is
//! a settled piece whose value is a constant of the score, and every move,
//! its legality (a Raid needs a piece of the mover next to its cell, and
//! those cells are in `R`), what it turns over (neighbours of its cell,
//! in `R`) and its gain are the same on `R` as on the board. `R` is
//! numbered in the board's row-major order, so cell order, and with it
//! the canonical order of the moves (Stakes, then Raids, each row-major)
//! and every tie-break on it, is the board's. A Raid that turns nothing
//! over is the Stake on its cell here as on the board. The value of a
//! position is its value on `R` plus the score of the cells outside, for
//! the same side; a later position of the same search has no empty cell
//! outside the first one's empty cells (cells never become empty), so one
//! region serves a whole search ([`Geometry::covers`]).

pub(crate) use super::cells::{Cells, SetWord};
use crate::game::{Board, Move, MoveKind, Player};

/// The most cells a geometry has (those of a `u128`).
const MOST: usize = 128;

/// A board cell that a region leaves out.
const OUTSIDE: u8 = u8::MAX;

/// A position from the side to move's point of view. The game is the same
/// for both players, so this pair is the whole position: whoever `own`
/// belongs to, its value for the side to move is the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pos<W: SetWord = u64> {
    pub own: Cells<W>,
    pub opp: Cells<W>,
}

/// What does not change during a search: the cells' shape and values.
/// `REGION`: the cells are a region of a larger board, whose neighbours are
/// looked up, rather than the whole board, whose neighbours are shifts of
/// the numbering; a parameter, so that neither search pays for the other's
/// branch.
pub(crate) struct Geometry<W: SetWord = u64, const REGION: bool = false> {
    /// The side of the board.
    n: usize,
    /// How many cells: the board's, or its region's.
    size: usize,
    all: Cells<W>,
    /// On a whole board, the cells not in the first column, and not in the
    /// last.
    not_first: Cells<W>,
    not_last: Cells<W>,
    /// The cells empty when the geometry was drawn: no position it serves
    /// has an empty cell elsewhere (all of them for a whole board).
    core: Cells<W>,
    values: [i32; MOST],
    neighbours: [Cells<W>; MOST],
    /// Sum of every cell's value: no score is further from 0.
    total: i64,
    /// Sum of the whole board's values, the region's and the rest.
    board_total: i64,
    /// Every value of the board, row-major: a search serves only boards
    /// of these values.
    board_values: Box<[i32]>,
    /// Each cell's place on the board, row-major.
    place: Box<[u16]>,
    /// Each board cell's number here, [`OUTSIDE`] for one left out.
    index: Box<[u8]>,
    /// `sums[k][b]`: the sum of the values of the cells `8k..8k+8` whose
    /// bits are set in `b`, so that a set's sum takes one lookup per byte.
    sums: Box<[[i32; 256]; MOST / 8]>,
    /// Every cell, most valuable first.
    by_value: [u8; MOST],
    /// Every cell, the one where a move can gain most first.
    by_reach: [u8; MOST],
    /// Each cell's neighbours as bit positions, the cell itself standing in
    /// for a side the board does not have (a move never turns over its own
    /// cell), so that which of them a move turns over reads as 4 bits.
    sides: [[u8; 4]; MOST],
    /// `sides` as sets of one cell each, for sets of two words, where
    /// testing a bit at a variable place costs a double-word shift.
    side_sets: [[Cells<W>; 4]; MOST],
    /// Each cell as a set, for the same reason.
    units: [Cells<W>; MOST],
    /// `gains[i][k]`: a move on `i` that turns over the neighbours of
    /// `sides[i]` whose bits are set in `k`: its value and twice theirs.
    /// `gains[i][ALL_SIDES]` is the most a move on `i` can gain.
    gains: [[i32; 16]; MOST],
}

/// The index of [`Geometry`]'s gains that turns over every neighbour.
const ALL_SIDES: usize = 0b1111;

/// Largest total of cell values the compact search takes on: with it,
/// every score, window and value fits an `i32` with room to spare (a
/// score is within the total of 0, a gain within twice it). What the moves
/// left can gain in all may not (a cell's value counts in its own gain
/// and twice in each neighbour's): [`Geometry::reach`] sums in an `i64`.
pub(crate) const MAX_TOTAL: i64 = 1 << 28;

/// The cells of `board`'s region, row-major: its empty cells and their
/// neighbours (see the module's text).
pub(crate) fn region_of(board: &Board) -> Vec<usize> {
    let n = board.n();
    let mut inside = vec![false; n * n];
    for r in 0..n {
        for c in crate::game::Bits(board.empty_row(r)) {
            inside[r * n + c] = true;
            for (there, j) in near_on_board(n, r, c) {
                if there {
                    inside[j] = true;
                }
            }
        }
    }
    (0..n * n).filter(|&i| inside[i]).collect()
}

/// The four sides of cell `(r, c)` of an `n`-board, up, left, right and
/// down: whether the board has it, and its cell.
fn near_on_board(n: usize, r: usize, c: usize) -> [(bool, usize); 4] {
    let i = r * n + c;
    [
        (r > 0, i.wrapping_sub(n)),
        (c > 0, i.wrapping_sub(1)),
        (c + 1 < n, i + 1),
        (r + 1 < n, i + n),
    ]
}

impl<W: SetWord> Geometry<W, false> {
    /// The geometry of the whole of `board`, if it has at most as many
    /// cells as a set of `W` holds and values small enough for 32-bit
    /// scores.
    pub(crate) fn of(board: &Board) -> Option<Geometry<W>> {
        let n = board.n();
        if n * n > W::CELLS {
            return None;
        }
        let mut g = Geometry::on(board, (0..n * n).collect())?;
        let first = (0..n).fold(Cells::NONE, |set, r| set | Cells::of(r * n));
        let last = first.up(n - 1);
        g.not_first = g.all & !first;
        g.not_last = g.all & !last;
        // Every position of the board's values is the board's to search.
        g.core = g.all;
        Some(g)
    }
}

impl<W: SetWord> Geometry<W, true> {
    /// The geometry of `board`'s region (see the module's text), if it has
    /// at most as many cells as a set of `W` holds and values small enough
    /// for 32-bit scores.
    pub(crate) fn region(board: &Board) -> Option<Geometry<W, true>> {
        let cells = region_of(board);
        if cells.len() > W::CELLS {
            return None;
        }
        Geometry::on(board, cells)
    }
}

impl<W: SetWord, const REGION: bool> Geometry<W, REGION> {
    /// The geometry of the cells `place` of `board` (row-major, at most
    /// [`SetWord::CELLS`]; the shifts of a whole board's neighbours are
    /// for [`Geometry::of`] to fill in).
    fn on(board: &Board, place: Vec<usize>) -> Option<Geometry<W, REGION>> {
        let n = board.n();
        let size = place.len();
        let mut index = vec![OUTSIDE; n * n].into_boxed_slice();
        for (k, &i) in place.iter().enumerate() {
            index[i] = k as u8;
        }
        let mut values = [0; MOST];
        let mut neighbours = [Cells::NONE; MOST];
        let mut sides = [[0u8; 4]; MOST];
        let mut core = Cells::NONE;
        for (k, &i) in place.iter().enumerate() {
            let (r, c) = (i / n, i % n);
            values[k] = board.value(r, c);
            if board.empty_row(r) >> c & 1 != 0 {
                core |= Cells::of(k);
            }
            for (side, (there, j)) in sides[k].iter_mut().zip(near_on_board(n, r, c)) {
                // A side off the board, or off the region (only a piece
                // next to no empty cell has one, and it never turns over).
                let j = if there { index[j] } else { OUTSIDE };
                *side = if j == OUTSIDE { k as u8 } else { j };
                if j != OUTSIDE {
                    neighbours[k] |= Cells::of(usize::from(j));
                }
            }
        }
        let total: i64 = values[..size].iter().map(|&v| i64::from(v)).sum();
        if total > MAX_TOTAL {
            return None;
        }
        let all = Cells::first_n(size);
        // Each byte's sum is a smaller byte's plus one value, in one pass:
        // summing each byte's bits anew was most of `Compact::new`, 5% of a
        // batch of small searches by `perf`.
        let mut sums = Box::new([[0; 256]; MOST / 8]);
        for (k, table) in sums.iter_mut().enumerate().take(W::CELLS / 8) {
            for b in 1..256usize {
                table[b] = table[b & (b - 1)] + values[8 * k + b.trailing_zeros() as usize];
            }
        }
        let mut by_value = [0u8; MOST];
        let mut order: Vec<usize> = (0..size).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(values[i]));
        for (slot, &i) in by_value.iter_mut().zip(&order) {
            *slot = i as u8;
        }
        let mut gains = [[0; 16]; MOST];
        for i in 0..size {
            for (k, gain) in gains[i].iter_mut().enumerate() {
                *gain = values[i]
                    + (0..4)
                        .map(|b| usize::from(sides[i][b]))
                        .enumerate()
                        .filter(|&(b, j)| k >> b & 1 != 0 && j != i)
                        .map(|(_, j)| 2 * values[j])
                        .sum::<i32>();
            }
        }
        // A side the cell stands in for itself is never turned over: its
        // set is empty, as the cell's own bit is never in `flips`.
        let mut units = [Cells::NONE; MOST];
        for (i, unit) in units.iter_mut().enumerate().take(size) {
            *unit = Cells::of(i);
        }
        let mut side_sets = [[Cells::NONE; 4]; MOST];
        for (i, sets) in side_sets.iter_mut().enumerate().take(size) {
            for (set, &j) in sets.iter_mut().zip(&sides[i]) {
                if usize::from(j) != i {
                    *set = Cells::of(usize::from(j));
                }
            }
        }
        let mut by_reach = [0u8; MOST];
        order.sort_by_key(|&i| std::cmp::Reverse(gains[i][ALL_SIDES]));
        for (slot, &i) in by_reach.iter_mut().zip(&order) {
            *slot = i as u8;
        }
        Some(Geometry {
            n,
            size,
            all,
            not_first: Cells::NONE,
            not_last: Cells::NONE,
            core,
            values,
            neighbours,
            total,
            board_total: board.total(),
            board_values: (0..n * n).map(|i| board.value(i / n, i % n)).collect(),
            place: place.iter().map(|&i| i as u16).collect(),
            index,
            sums,
            by_value,
            by_reach,
            sides,
            side_sets,
            units,
            gains,
        })
    }

    /// Board side.
    pub(crate) fn n(&self) -> usize {
        self.n
    }

    /// How many cells: the board's, or its region's.
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// Whether the cells are a region of a larger board.
    pub(crate) fn is_region(&self) -> bool {
        REGION
    }

    /// Sum of all values.
    pub(crate) fn total(&self) -> i64 {
        self.total
    }

    /// Sum of the values of the whole board.
    pub(crate) fn board_total(&self) -> i64 {
        self.board_total
    }

    /// Whether a search of `board` can run here: it has this geometry's
    /// values, and no empty cell outside [`Geometry`]'s `core` (which for a
    /// whole board is every cell).
    pub(crate) fn covers(&self, board: &Board) -> bool {
        let n = self.n;
        board.n() == n
            && (0..n * n).all(|i| board.value(i / n, i % n) == self.board_values[i])
            && (0..n).all(|r| {
                crate::game::Bits(board.empty_row(r)).all(|c| {
                    let k = self.index[r * n + c];
                    k != OUTSIDE && self.core.contains(usize::from(k))
                })
            })
    }

    /// `board` with `p` to move.
    pub(crate) fn pos(&self, board: &Board, p: Player) -> Pos<W> {
        let (mut own, mut opp) = (Cells::NONE, Cells::NONE);
        let n = self.n;
        if !REGION {
            for r in 0..n {
                let (mine, theirs) = (board.row(p, r), board.row(p.other(), r));
                for c in 0..n {
                    let b = Cells::of(r * n + c);
                    if mine >> c & 1 != 0 {
                        own |= b;
                    }
                    if theirs >> c & 1 != 0 {
                        opp |= b;
                    }
                }
            }
            return Pos { own, opp };
        }
        for (k, &i) in self.place.iter().enumerate() {
            let (r, c) = (usize::from(i) / n, usize::from(i) % n);
            if board.row(p, r) >> c & 1 != 0 {
                own |= Cells::of(k);
            } else if board.row(p.other(), r) >> c & 1 != 0 {
                opp |= Cells::of(k);
            }
        }
        Pos { own, opp }
    }

    /// The score of `board` for `p`, whose position here is `pos`, that
    /// lies outside these cells: the settled pieces a region leaves out (0
    /// for a whole board). Only the cells searched have a total bounded by
    /// [`MAX_TOTAL`]; the rest may hold hundreds of values up to `i32::MAX`.
    pub(crate) fn outside_score(&self, board: &Board, p: Player, pos: Pos<W>) -> i64 {
        board.score(p) - i64::from(self.score(pos))
    }

    /// The score of `pos` on these cells, for the side to move: within
    /// [`MAX_TOTAL`] of 0.
    pub(crate) fn score(&self, pos: Pos<W>) -> i32 {
        self.sum(pos.own) - self.sum(pos.opp)
    }

    /// The whole board's cells, row-major (`X`, `O`, `.`), with those of
    /// `pos` (`mover` to move) over `frame`'s, the board the search began
    /// on: a settled piece outside a region is the same on both.
    pub(crate) fn board_cells(&self, frame: &[char], pos: Pos<W>, mover: Player) -> String {
        let mut cells = frame.to_vec();
        for (k, &i) in self.place.iter().enumerate() {
            cells[usize::from(i)] = if pos.own.contains(k) {
                mover.symbol()
            } else if pos.opp.contains(k) {
                mover.other().symbol()
            } else {
                '.'
            };
        }
        cells.into_iter().collect()
    }

    /// Empty cells of `pos`.
    #[inline(always)]
    pub(crate) fn empty(&self, pos: Pos<W>) -> Cells<W> {
        self.all & !(pos.own | pos.opp)
    }

    /// Sum of the values of `cells`.
    #[inline(always)]
    pub(crate) fn sum(&self, cells: Cells<W>) -> i32 {
        let mut s = 0;
        let mut rest = cells.bits();
        let mut k = 0;
        while rest != W::ZERO {
            s += self.sums[k][rest.byte(0)];
            rest = rest >> 8;
            k += 1;
        }
        s
    }

    /// The cells next to any of `cells`.
    #[inline(always)]
    pub(crate) fn near(&self, cells: Cells<W>) -> Cells<W> {
        if REGION {
            cells
                .into_iter()
                .fold(Cells::NONE, |near, i| near | self.neighbours[i])
        } else {
            let n = self.n;
            (cells.up(n)
                | cells.down(n)
                | (cells.up(1) & self.not_first)
                | (cells.down(1) & self.not_last))
                & self.all
        }
    }

    /// What the side to move turns over by moving on empty cell `i`: the
    /// enemy neighbours when it has a neighbour of its own (a Raid), else
    /// nothing (a Stake). By dominance this is the only move on `i` that the
    /// search needs (see `../README.md`).
    #[inline(always)]
    pub(crate) fn flips(&self, pos: Pos<W>, i: usize) -> Cells<W> {
        let near = self.neighbours[i];
        // Branch-free: whether the mover has a neighbour there is as good
        // as a coin toss.
        let raid = Cells(W::all_if(near.meets(pos.own)));
        near & pos.opp & raid
    }

    /// The move on empty cell `i` the search makes there, as the game
    /// names it: the Raid where it turns something over, else the Stake.
    pub(crate) fn move_at(&self, pos: Pos<W>, i: usize) -> Move {
        let kind = if self.flips(pos, i).is_empty() {
            MoveKind::Stake
        } else {
            MoveKind::Raid
        };
        let at = usize::from(self.place[i]);
        Move::new(at / self.n, at % self.n, kind)
    }

    /// The cell of move `mv`, if it is one of these cells.
    pub(crate) fn cell_of(&self, mv: Move) -> Option<usize> {
        let k = *self.index.get(mv.row() * self.n + mv.col())?;
        (k != OUTSIDE).then_some(usize::from(k))
    }

    /// The set of cell `i` alone.
    #[inline(always)]
    fn unit(&self, i: usize) -> Cells<W> {
        if W::CELLS > 64 {
            self.units[i]
        } else {
            Cells::of(i)
        }
    }

    /// Whether `cells` holds cell `i`.
    #[inline(always)]
    fn holds(&self, cells: Cells<W>, i: usize) -> bool {
        if W::CELLS > 64 {
            cells.meets(self.units[i])
        } else {
            cells.contains(i)
        }
    }

    /// The mover's gain from moving on `i` and turning over `flips`.
    #[inline(always)]
    pub(crate) fn gain(&self, i: usize, flips: Cells<W>) -> i32 {
        // A lookup, not a loop over the flips: how many there are is as
        // good as random, and a loop on it would mispredict.
        let k = if W::CELLS > 64 {
            let s = &self.side_sets[i];
            let bit = |b: usize| usize::from(flips.meets(s[b]));
            bit(0) | bit(1) << 1 | bit(2) << 2 | bit(3) << 3
        } else {
            let s = &self.sides[i];
            let bit = |b: usize| usize::from(flips.contains(usize::from(s[b])));
            bit(0) | bit(1) << 1 | bit(2) << 2 | bit(3) << 3
        };
        self.gains[i][k]
    }

    /// The gain of the side to move's one move on empty cell `i`.
    #[inline(always)]
    pub(crate) fn gain_on(&self, pos: Pos<W>, i: usize) -> i32 {
        self.gain(i, self.flips(pos, i))
    }

    /// The position after the side to move moves on `i`, turning over
    /// `flips`, seen by the other side, who moves next.
    #[inline(always)]
    pub(crate) fn play(&self, pos: Pos<W>, i: usize, flips: Cells<W>) -> Pos<W> {
        Pos {
            own: pos.opp & !flips,
            opp: pos.own | self.unit(i) | flips,
        }
    }

    /// The side to move's best single gain (0 on a full board): the best
    /// empty cell's value, unless a Raid that turns something over gains
    /// more, and those are only on cells next to pieces of both sides.
    #[inline(always)]
    pub(crate) fn best_gain(&self, pos: Pos<W>) -> i32 {
        let empty = self.empty(pos);
        let mut best = 0;
        if empty.count() <= 4 {
            for i in empty {
                best = best.max(self.values[i]);
            }
        } else {
            // The most valuable empty cell comes within the first few.
            for &i in &self.by_value {
                if self.holds(empty, usize::from(i)) {
                    best = self.values[usize::from(i)];
                    break;
                }
            }
        }
        // On a board, the cells next to both sides come from four shifts
        // of each; in a region, whose neighbours are looked up one cell at
        // a time, asking each empty cell costs less than that.
        if REGION {
            for i in empty {
                if self.gains[i][ALL_SIDES] > best {
                    best = best.max(self.gain_on(pos, i));
                }
            }
        } else {
            for i in empty & self.near(pos.own) & self.near(pos.opp) {
                if self.gains[i][ALL_SIDES] > best {
                    best = best.max(self.gain(i, self.neighbours[i] & pos.opp));
                }
            }
        }
        best
    }

    /// Pieces that can never change owner again: no empty cell is next to
    /// them, and only a Raid on a neighbouring cell turns a piece over.
    #[inline(always)]
    pub(crate) fn settled(&self, pos: Pos<W>) -> Cells<W> {
        (pos.own | pos.opp) & !self.near(self.empty(pos))
    }

    /// The values of the `k` most valuable cells of `empty`, summed apart
    /// by rank: the 1st, 3rd, 5th, ... and the 2nd, 4th, ...
    #[inline(always)]
    pub(crate) fn alternate_values(&self, empty: Cells<W>, k: u32) -> (i32, i32) {
        let (mut odd, mut even, mut rank) = (0, 0, 0);
        for &i in &self.by_value {
            if rank == k {
                break;
            }
            let i = usize::from(i);
            if self.holds(empty, i) {
                if rank % 2 == 0 {
                    odd += self.values[i];
                } else {
                    even += self.values[i];
                }
                rank += 1;
            }
        }
        (odd, even)
    }

    /// The most `moves` moves on different cells of `empty` can gain in
    /// all: a move on `i` gains at most `i`'s value and twice each
    /// neighbour's, so the sum of the `moves` largest of those.
    #[inline(always)]
    pub(crate) fn reach(&self, empty: Cells<W>, moves: u32) -> i64 {
        let (mut sum, mut left) = (0, moves);
        for &i in &self.by_reach {
            if left == 0 {
                break;
            }
            let i = usize::from(i);
            if self.holds(empty, i) {
                sum += i64::from(self.gains[i][ALL_SIDES]);
                left -= 1;
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::random::{random_board_from, Rng};
    use crate::game::{Move, MoveKind};

    /// The board cell of cell `k` of `g`.
    fn at<W: SetWord, const R: bool>(g: &Geometry<W, R>, k: usize) -> (usize, usize) {
        let i = usize::from(g.place[k]);
        (i / g.n, i % g.n)
    }

    /// The sum of a set of cells is its cells' values added one by one.
    fn sums_agree<W: SetWord, const R: bool>(g: &Geometry<W, R>, board: &Board, rng: &mut Rng) {
        for _ in 0..200 {
            let halves = [rng.next_u64(), rng.next_u64()];
            let cells = Cells(W::from_halves(halves)) & g.all;
            let added: i32 = cells
                .into_iter()
                .map(|k| at(g, k))
                .map(|(r, c)| board.value(r, c))
                .sum();
            assert_eq!(g.sum(cells), added, "{}x{}", g.n, g.n);
        }
    }

    #[test]
    fn sums_are_the_values_of_the_cells_added() {
        let mut rng = Rng::new(11);
        for k in 0..40 {
            let n = 1 + k % 8;
            let board = random_board_from(&mut rng, n, 0, 99, 0.3);
            sums_agree(&Geometry::<u64>::of(&board).unwrap(), &board, &mut rng);
            let n = 9 + k % 3;
            let board = random_board_from(&mut rng, n, 0, 99, 0.3);
            sums_agree(&Geometry::<u128>::of(&board).unwrap(), &board, &mut rng);
            let board = random_board_from(&mut rng, 12 + k % 15, 0, 99, 0.97);
            if let Some(g) = Geometry::<u128, true>::region(&board) {
                sums_agree(&g, &board, &mut rng);
            }
        }
    }

    /// Every move the compact form makes agrees with the full board's, in
    /// gain, in the resulting position and, for a region, in the score
    /// outside it, which no move changes.
    fn moves_agree<W: SetWord, const R: bool>(g: &Geometry<W, R>, board: &Board) {
        for p in [Player::X, Player::O] {
            let pos = g.pos(board, p);
            let outside = g.outside_score(board, p, pos);
            for i in g.empty(pos) {
                let flips = g.flips(pos, i);
                let kind = if g.neighbours[i].meets(pos.own) {
                    MoveKind::Raid
                } else {
                    MoveKind::Stake
                };
                let (r, c) = at(g, i);
                let mut b = board.clone();
                b.make(Move::new(r, c, kind), p);
                let mv = g.move_at(pos, i);
                assert_eq!((mv.row(), mv.col()), (r, c));
                assert_eq!(g.cell_of(Move::new(r, c, kind)), Some(i));
                let gain = g.gain(i, flips);
                assert_eq!(i64::from(gain), b.score(p) - board.score(p));
                let slow = g
                    .empty(pos)
                    .into_iter()
                    .map(|j| g.gain(j, g.flips(pos, j)))
                    .max();
                assert_eq!(g.best_gain(pos), slow.unwrap());
                assert_eq!(g.play(pos, i, flips), g.pos(&b, p.other()));
                assert_eq!(g.outside_score(&b, p, g.pos(&b, p)), outside);
                assert!(g.covers(&b));
                assert_eq!(g.near(Cells::of(i)), g.neighbours[i]);
                let owned = pos.own | pos.opp;
                assert_eq!(
                    i64::from(g.sum(owned)),
                    owned
                        .into_iter()
                        .map(|j| i64::from(g.values[j]))
                        .sum::<i64>()
                );
            }
        }
    }

    #[test]
    fn moves_agree_with_the_board() {
        let mut rng = Rng::new(7);
        let mut regions = 0;
        for k in 0..200 {
            let n = 1 + k % 8;
            let board = random_board_from(&mut rng, n, 0, 9, 0.5);
            moves_agree(&Geometry::<u64>::of(&board).unwrap(), &board);
            let board = random_board_from(&mut rng, 9 + k % 3, 0, 9, 0.5);
            moves_agree(&Geometry::<u128>::of(&board).unwrap(), &board);
            let board = random_board_from(&mut rng, 9 + k % 18, 0, 9, 0.95);
            if let Some(g) = Geometry::<u64, true>::region(&board) {
                moves_agree(&g, &board);
                regions += 1;
            } else if let Some(g) = Geometry::<u128, true>::region(&board) {
                moves_agree(&g, &board);
                regions += 1;
            }
        }
        assert!(regions > 150, "{regions}");
    }

    /// A region is the empty cells and their neighbours, in board order,
    /// and it serves only positions with no other empty cell.
    #[test]
    fn a_region_holds_the_empty_cells_and_their_neighbours() {
        let mut rng = Rng::new(5);
        for k in 0..50 {
            let n = 9 + k % 18;
            let board = random_board_from(&mut rng, n, 0, 9, 0.97);
            let cells = region_of(&board);
            assert!(cells.windows(2).all(|w| w[0] < w[1]));
            for i in 0..n * n {
                let (r, c) = (i / n, i % n);
                let near_empty = near_on_board(n, r, c).iter().any(|&(there, j)| {
                    there && board.square(j / n, j % n) == crate::game::Square::Empty
                });
                let empty = board.square(r, c) == crate::game::Square::Empty;
                assert_eq!(cells.contains(&i), empty || near_empty, "{i}");
            }
            // A whole board serves every position of its values.
            let small = random_board_from(&mut rng, 1 + k % 8, 0, 9, 0.5);
            let mut other = small.clone();
            let (r, c) = (k % small.n(), 0);
            other.set(r, c, crate::game::Square::Empty);
            assert!(Geometry::<u64>::of(&small).unwrap().covers(&other));
            let Some(g) = Geometry::<u128, true>::region(&board) else {
                continue;
            };
            assert!(g.covers(&board));
            // A cell emptied elsewhere is outside what it serves.
            let far = (0..n * n).find(|i| !cells.contains(i));
            if let Some(i) = far {
                let mut other = board.clone();
                other.set(i / n, i % n, crate::game::Square::Empty);
                assert!(!g.covers(&other));
            }
        }
    }
}
