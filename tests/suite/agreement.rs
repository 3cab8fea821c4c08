//! Engine agreement on seeded random positions.

use stakeraid::api::{Bound, SearchMode};
use stakeraid::rng::{random_board, Rng};
use stakeraid::{Board, Player};

use crate::util::{fast, textbook};

/// Textbook minimax and alpha-beta choose the same move with the same value,
/// and alpha-beta never visits more positions.
#[test]
fn reference_minimax_equals_reference_alphabeta() {
    let mut rng = Rng::new(2024);
    let (mut mm_nodes, mut ab_nodes) = (0u64, 0u64);
    for round in 0..3000 {
        let n = 1 + round % 7;
        let max_value = [2, 5, 99][round % 3];
        let fill = rng.range(10, 90) as f64 / 100.0;
        let board = random_board(&mut rng, n, max_value, fill);
        let depth = 1 + (round % 4) as u32;
        let player = if round % 2 == 0 { Player::X } else { Player::O };
        let mm = textbook(&board, player, SearchMode::Minimax, depth);
        let ab = textbook(&board, player, SearchMode::AlphaBeta, depth);
        assert_eq!(
            (mm.best, mm.value),
            (ab.best, ab.value),
            "depth {depth} {player:?} {board:?}"
        );
        assert!(ab.nodes <= mm.nodes);
        mm_nodes += mm.nodes;
        ab_nodes += ab.nodes;
    }
    eprintln!(
        "reference nodes: minimax {mm_nodes}, alpha-beta {ab_nodes} ({:.2}x fewer)",
        mm_nodes as f64 / ab_nodes as f64
    );
    assert!(ab_nodes < mm_nodes);
}

/// A depth for `board` that keeps the textbook minimax tree small enough
/// to run thousands of times (at most `max` plies).
fn affordable_depth(board: &Board, rng: &mut Rng, max: u32) -> u32 {
    let empties = u64::from(board.empty_count());
    let mut depth = 1;
    let mut size = 2 * empties;
    while depth < max && size * 2 * empties.saturating_sub(u64::from(depth)) <= 300_000 {
        size *= 2 * empties.saturating_sub(u64::from(depth));
        depth += 1;
    }
    1 + rng.range(0, u64::from(depth) - 1) as u32
}

/// Every root value the fast engines report is right: exact ones equal the
/// textbook value of that move, bounds are not below it.
#[test]
fn root_values_are_proved() {
    let mut rng = Rng::new(5);
    for round in 0..300 {
        let n = 2 + round % 6;
        let board = random_board(&mut rng, n, 5, 0.4);
        let depth = affordable_depth(&board, &mut rng, 4);
        let player = if round % 2 == 0 { Player::X } else { Player::O };
        let ab = fast(&board, player, SearchMode::AlphaBeta, depth, 2);
        let mm = textbook(&board, player, SearchMode::Minimax, depth);
        for (proved, exact) in ab.moves.iter().zip(&mm.moves) {
            let (mv, truth, v) = (proved.mv, exact.value, proved.value);
            assert_eq!(mv, exact.mv);
            assert_eq!(exact.bound, Bound::Exact, "minimax values are exact");
            match proved.bound {
                Bound::Exact => assert_eq!(v, truth, "{mv}"),
                Bound::Upper => assert!(truth <= v && v <= ab.value, "{mv}"),
                Bound::Lower => panic!("{mv}: a root value is never a lower bound"),
            }
        }
    }
}

/// The same position many times on many threads gives one answer.
#[test]
fn repeated_parallel_runs_agree() {
    let mut rng = Rng::new(31337);
    for _ in 0..20 {
        let board = random_board(&mut rng, 6, 2, 0.3);
        let expected = textbook(&board, Player::X, SearchMode::AlphaBeta, 4);
        for _ in 0..10 {
            let got = fast(&board, Player::X, SearchMode::AlphaBeta, 4, 8);
            assert_eq!((got.best, got.value), (expected.best, expected.value));
        }
    }
}
