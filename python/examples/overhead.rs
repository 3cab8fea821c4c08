//! The cost of one tiny `api::analyse` call in Rust (2x2 empty board,
//! ALPHABETA depth 1, one thread): the baseline `overhead.py` measures the
//! Python call against.
//!
//! cargo run --release --example overhead [-- CALLS]

use std::time::Instant;

use stakeraid::api::{analyse, Limits, Position, SearchMode};
use stakeraid::{Board, Player};

fn main() {
    let calls: u32 = std::env::args()
        .nth(1)
        .map_or(100_000, |s| s.parse().expect("CALLS must be a number"));
    let position = Position::new(Board::new(2, &[1, 2, 3, 4]), Player::X).unwrap();
    let limits = Limits {
        threads: 1,
        ..Limits::to_depth(SearchMode::AlphaBeta, 1)
    };
    let mut rounds = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..calls {
            std::hint::black_box(analyse(std::hint::black_box(&position), &limits).unwrap());
        }
        rounds.push(start.elapsed().as_secs_f64() * 1e6 / f64::from(calls));
    }
    rounds.sort_by(f64::total_cmp);
    println!(
        "rust   analyse 2x2 depth 1 threads 1: median {:.2} us per call (rounds {:.2?}, {calls} calls each)",
        rounds[2], rounds
    );
}
