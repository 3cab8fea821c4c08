//! Zobrist keys, one per player and cell, built at compile time.

use crate::game::{Player, MAX_N};

const CELLS: usize = MAX_N * 32;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state = 0x05EE_D0F5_7A4E_u64;
    let mut p = 0;
    while p < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, z) = splitmix(state);
            state = s;
            keys[p][i] = z;
            i += 1;
        }
        p += 1;
    }
    keys
}

static KEYS: [[u64; CELLS]; 2] = build();

/// Key of `p`'s piece on `row`, `col`.
#[inline]
pub(super) fn key(p: Player, row: usize, col: usize) -> u64 {
    KEYS[p as usize][row * 32 + col]
}

/// What flipping the owner of `row`, `col` changes in the hash.
#[inline]
pub(super) fn flip(row: usize, col: usize) -> u64 {
    KEYS[0][row * 32 + col] ^ KEYS[1][row * 32 + col]
}
