//! A small seeded generator (SplitMix64) for reproducible random positions
//! in tests, benchmarks and matches.

use crate::game::{Board, Player, Square};

/// SplitMix64: tiny, fast, and good enough for picking positions.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

/// A random `n` x `n` board: values in `1..=max_value`, each cell taken by X
/// or O with probability `fill` (at least one cell is left empty).
pub fn random_board(rng: &mut Rng, n: usize, max_value: i32, fill: f64) -> Board {
    random_board_from(rng, n, 1, max_value, fill)
}

/// [`random_board`] with values in `min_value..=max_value` (0 allowed).
pub fn random_board_from(
    rng: &mut Rng,
    n: usize,
    min_value: i32,
    max_value: i32,
    fill: f64,
) -> Board {
    let values: Vec<i32> = (0..n * n)
        .map(|_| rng.range(min_value as u64, max_value as u64) as i32)
        .collect();
    let mut board = Board::new(n, &values);
    for r in 0..n {
        for c in 0..n {
            if rng.chance(fill) {
                let p = if rng.chance(0.5) {
                    Player::X
                } else {
                    Player::O
                };
                board.set(r, c, Square::Piece(p));
            }
        }
    }
    if board.is_full() {
        let cell = rng.range(0, (n * n - 1) as u64) as usize;
        board.set(cell / n, cell % n, Square::Empty);
    }
    board
}
