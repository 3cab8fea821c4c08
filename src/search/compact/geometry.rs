//! Boards of up to 64 cells as two sets of [`Cells`]: the cells, their
//! values and neighbours, and the one move per empty cell that the exact
//! search needs.

pub(crate) use super::cells::Cells;
use crate::game::{Board, Move, MoveKind, Player};

/// A position from the side to move's point of view. The game is the same
/// for both players, so this pair is the whole position: whoever `own`
/// belongs to, its value for the side to move is the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pos {
    pub own: Cells,
    pub opp: Cells,
}

/// What does not change during a search: the board's shape and values.
pub(crate) struct Geometry {
    n: usize,
    all: Cells,
    values: [i32; 64],
    neighbours: [Cells; 64],
    /// Sum of every cell's value: no score is further from 0.
    total: i64,
    /// `sums[k][b]`: the sum of the values of the cells `8k..8k+8` whose
    /// bits are set in `b`, so that a set's sum takes one lookup per byte.
    sums: Box<[[i32; 256]; 8]>,
    /// Cells not in the first column, and not in the last.
    not_first: Cells,
    not_last: Cells,
    /// Every cell, most valuable first.
    by_value: [u8; 64],
    /// Every cell, the one where a move can gain most first.
    by_reach: [u8; 64],
    /// Each cell's neighbours as bit positions, the cell itself standing in
    /// for a side the board does not have (a move never turns over its own
    /// cell), so that which of them a move turns over reads as 4 bits.
    sides: [[u8; 4]; 64],
    /// `gains[i][k]`: a move on `i` that turns over the neighbours of
    /// `sides[i]` whose bits are set in `k`: its value and twice theirs.
    /// `gains[i][ALL_SIDES]` is the most a move on `i` can gain.
    gains: [[i32; 16]; 64],
}

/// The index of [`Geometry`]'s gains that turns over every neighbour.
const ALL_SIDES: usize = 0b1111;

/// Largest total of cell values the compact search takes on: with it,
/// every score, bound and window fits an `i32` with room to spare.
pub(crate) const MAX_TOTAL: i64 = 1 << 28;

impl Geometry {
    /// The geometry of `board`, if it has at most 64 cells and values small
    /// enough for 32-bit scores.
    pub(crate) fn of(board: &Board) -> Option<Geometry> {
        let n = board.n();
        if n * n > 64 {
            return None;
        }
        let mut values = [0; 64];
        let mut neighbours = [Cells::NONE; 64];
        let mut sides = [[0u8; 4]; 64];
        let total = board.total();
        for r in 0..n {
            for c in 0..n {
                let i = r * n + c;
                values[i] = board.value(r, c);
                let near = [
                    (r > 0, i.wrapping_sub(n)),
                    (c > 0, i.wrapping_sub(1)),
                    (c + 1 < n, i + 1),
                    (r + 1 < n, i + n),
                ];
                for (side, &(there, j)) in sides[i].iter_mut().zip(&near) {
                    *side = if there { j } else { i } as u8;
                    if there {
                        neighbours[i] |= Cells::of(j);
                    }
                }
            }
        }
        if total > MAX_TOTAL {
            return None;
        }
        let all = Cells(if n * n == 64 { !0 } else { (1 << (n * n)) - 1 });
        // Each byte's sum is a smaller byte's plus one value, in one pass:
        // summing each byte's bits anew was most of `Compact::new`, 5% of a
        // batch of small searches by `perf`.
        let mut sums = Box::new([[0; 256]; 8]);
        for (k, table) in sums.iter_mut().enumerate() {
            for b in 1..256usize {
                table[b] = table[b & (b - 1)] + values[8 * k + b.trailing_zeros() as usize];
            }
        }
        let first = (0..n).fold(Cells::NONE, |set, r| set | Cells::of(r * n));
        let last = first.up(n - 1);
        let mut by_value = [0u8; 64];
        let mut order: Vec<usize> = (0..n * n).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(values[i]));
        for (slot, &i) in by_value.iter_mut().zip(&order) {
            *slot = i as u8;
        }
        let mut gains = [[0; 16]; 64];
        for i in 0..n * n {
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
        let mut by_reach = [0u8; 64];
        order.sort_by_key(|&i| std::cmp::Reverse(gains[i][ALL_SIDES]));
        for (slot, &i) in by_reach.iter_mut().zip(&order) {
            *slot = i as u8;
        }
        Some(Geometry {
            n,
            all,
            values,
            neighbours,
            total,
            sums,
            not_first: all & !first,
            not_last: all & !last,
            by_value,
            by_reach,
            sides,
            gains,
        })
    }

    /// Board side.
    pub(crate) fn n(&self) -> usize {
        self.n
    }

    /// Sum of all values.
    pub(crate) fn total(&self) -> i64 {
        self.total
    }

    /// `board` with `p` to move.
    pub(crate) fn pos(&self, board: &Board, p: Player) -> Pos {
        let (mut own, mut opp) = (Cells::NONE, Cells::NONE);
        for r in 0..self.n {
            let (mine, theirs) = (board.row(p, r), board.row(p.other(), r));
            for c in 0..self.n {
                let b = Cells::of(r * self.n + c);
                if mine >> c & 1 != 0 {
                    own |= b;
                }
                if theirs >> c & 1 != 0 {
                    opp |= b;
                }
            }
        }
        Pos { own, opp }
    }

    /// Empty cells of `pos`.
    #[inline(always)]
    pub(crate) fn empty(&self, pos: Pos) -> Cells {
        self.all & !(pos.own | pos.opp)
    }

    /// Sum of the values of `cells`.
    #[inline(always)]
    pub(crate) fn sum(&self, cells: Cells) -> i32 {
        let mut s = 0;
        let mut rest = cells.bits();
        let mut k = 0;
        while rest != 0 {
            s += self.sums[k][(rest & 0xFF) as usize];
            rest >>= 8;
            k += 1;
        }
        s
    }

    /// The cells next to any of `cells`.
    #[inline(always)]
    pub(crate) fn near(&self, cells: Cells) -> Cells {
        let n = self.n;
        (cells.up(n)
            | cells.down(n)
            | (cells.up(1) & self.not_first)
            | (cells.down(1) & self.not_last))
            & self.all
    }

    /// What the side to move turns over by moving on empty cell `i`: the
    /// enemy neighbours when it has a neighbour of its own (a Raid), else
    /// nothing (a Stake). By dominance this is the only move on `i` that the
    /// search needs (see `../README.md`).
    #[inline(always)]
    pub(crate) fn flips(&self, pos: Pos, i: usize) -> Cells {
        let near = self.neighbours[i];
        // Branch-free: whether the mover has a neighbour there is as good
        // as a coin toss.
        let raid = Cells(u64::from(near.meets(pos.own)).wrapping_neg());
        near & pos.opp & raid
    }

    /// The move on empty cell `i` the search makes there, as the game
    /// names it: the Raid where it turns something over, else the Stake.
    pub(crate) fn move_at(&self, pos: Pos, i: usize) -> Move {
        let kind = if self.flips(pos, i).is_empty() {
            MoveKind::Stake
        } else {
            MoveKind::Raid
        };
        Move::new(i / self.n, i % self.n, kind)
    }

    /// The cell of move `mv`.
    pub(crate) fn cell_of(&self, mv: Move) -> usize {
        mv.row() * self.n + mv.col()
    }

    /// The mover's gain from moving on `i` and turning over `flips`.
    #[inline(always)]
    pub(crate) fn gain(&self, i: usize, flips: Cells) -> i32 {
        // A lookup, not a loop over the flips: how many there are is as
        // good as random, and a loop on it would mispredict.
        let (f, s) = (flips.bits(), &self.sides[i]);
        let k =
            (f >> s[0] & 1) | (f >> s[1] & 1) << 1 | (f >> s[2] & 1) << 2 | (f >> s[3] & 1) << 3;
        self.gains[i][k as usize]
    }

    /// The gain of the side to move's one move on empty cell `i`.
    #[inline(always)]
    pub(crate) fn gain_on(&self, pos: Pos, i: usize) -> i32 {
        self.gain(i, self.flips(pos, i))
    }

    /// The position after the side to move moves on `i`, turning over
    /// `flips`, seen by the other side, who moves next.
    #[inline(always)]
    pub(crate) fn play(&self, pos: Pos, i: usize, flips: Cells) -> Pos {
        Pos {
            own: pos.opp & !flips,
            opp: pos.own | Cells::of(i) | flips,
        }
    }

    /// The side to move's best single gain (0 on a full board): the best
    /// empty cell's value, unless a Raid that turns something over gains
    /// more, and those are only on cells next to pieces of both sides.
    #[inline(always)]
    pub(crate) fn best_gain(&self, pos: Pos) -> i32 {
        let empty = self.empty(pos);
        let mut best = 0;
        if empty.count() <= 4 {
            for i in empty {
                best = best.max(self.values[i]);
            }
        } else {
            // The most valuable empty cell comes within the first few.
            for &i in &self.by_value {
                if empty.contains(usize::from(i)) {
                    best = self.values[usize::from(i)];
                    break;
                }
            }
        }
        for i in empty & self.near(pos.own) & self.near(pos.opp) {
            if self.gains[i][ALL_SIDES] > best {
                best = best.max(self.gain(i, self.neighbours[i] & pos.opp));
            }
        }
        best
    }

    /// Pieces that can never change owner again: no empty cell is next to
    /// them, and only a Raid on a neighbouring cell turns a piece over.
    #[inline(always)]
    pub(crate) fn settled(&self, pos: Pos) -> Cells {
        (pos.own | pos.opp) & !self.near(self.empty(pos))
    }

    /// The values of the `k` most valuable cells of `empty`, summed apart
    /// by rank: the 1st, 3rd, 5th, ... and the 2nd, 4th, ...
    #[inline(always)]
    pub(crate) fn alternate_values(&self, empty: Cells, k: u32) -> (i32, i32) {
        let (mut odd, mut even, mut rank) = (0, 0, 0);
        for &i in &self.by_value {
            if rank == k {
                break;
            }
            let i = usize::from(i);
            if empty.contains(i) {
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
    pub(crate) fn reach(&self, empty: Cells, moves: u32) -> i32 {
        let (mut sum, mut left) = (0, moves);
        for &i in &self.by_reach {
            if left == 0 {
                break;
            }
            let i = usize::from(i);
            if empty.contains(i) {
                sum += self.gains[i][ALL_SIDES];
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

    /// The sum of a set of cells is its cells' values added one by one.
    #[test]
    fn sums_are_the_values_of_the_cells_added() {
        let mut rng = Rng::new(11);
        for k in 0..40 {
            let n = 1 + k % 8;
            let board = random_board_from(&mut rng, n, 0, 99, 0.3);
            let g = Geometry::of(&board).unwrap();
            for _ in 0..200 {
                let cells = Cells(rng.next_u64()) & g.all;
                let added: i32 = (0..n * n)
                    .filter(|&i| cells.contains(i))
                    .map(|i| board.value(i / n, i % n))
                    .sum();
                assert_eq!(g.sum(cells), added, "{n}x{n}");
            }
        }
    }

    /// Every move the compact form makes agrees with the full board's, in
    /// gain and in the resulting position.
    #[test]
    fn moves_agree_with_the_board() {
        let mut rng = Rng::new(7);
        for k in 0..200 {
            let n = 1 + k % 8;
            let board = random_board_from(&mut rng, n, 0, 9, 0.5);
            let g = Geometry::of(&board).unwrap();
            for p in [Player::X, Player::O] {
                let pos = g.pos(&board, p);
                for i in g.empty(pos) {
                    let flips = g.flips(pos, i);
                    let kind = if g.neighbours[i].meets(pos.own) {
                        MoveKind::Raid
                    } else {
                        MoveKind::Stake
                    };
                    let mut b = board.clone();
                    b.make(Move::new(i / n, i % n, kind), p);
                    let gain = g.gain(i, flips);
                    assert_eq!(i64::from(gain), b.score(p) - board.score(p));
                    let slow = g
                        .empty(pos)
                        .into_iter()
                        .map(|j| g.gain(j, g.flips(pos, j)))
                        .max();
                    assert_eq!(g.best_gain(pos), slow.unwrap());
                    assert_eq!(g.play(pos, i, flips), g.pos(&b, p.other()));
                    assert_eq!(g.near(Cells::of(i)), g.neighbours[i]);
                    let owned = pos.own | pos.opp;
                    assert_eq!(
                        i64::from(g.sum(owned)),
                        (0..n * n)
                            .filter(|&j| owned.contains(j))
                            .map(|j| i64::from(g.values[j]))
                            .sum::<i64>()
                    );
                }
            }
        }
    }
}
