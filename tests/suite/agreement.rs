//! Engine agreement on seeded random positions.

use stakeraid::rng::{random_board, Rng};
use stakeraid::search::reference;
use stakeraid::Player;

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
        let mm = reference::minimax(&board, player, depth);
        let ab = reference::alphabeta(&board, player, depth);
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

use stakeraid::bench::thread_pool as pool;
use stakeraid::search::root;
use stakeraid::Board;

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
    let pool = pool(2);
    for round in 0..300 {
        let n = 2 + round % 6;
        let board = random_board(&mut rng, n, 5, 0.4);
        let depth = affordable_depth(&board, &mut rng, 4);
        let player = if round % 2 == 0 { Player::X } else { Player::O };
        let ab = pool.install(|| root::alphabeta(&board, player, depth, true));
        let mm = root::minimax(&board, player, depth, false);
        for ((mv, proved), (mv2, exact)) in ab.moves.iter().zip(&mm.moves) {
            assert_eq!(mv, mv2);
            let root::RootValue::Exact(truth) = *exact else {
                panic!("minimax values are exact")
            };
            match *proved {
                root::RootValue::Exact(v) => assert_eq!(v, truth, "{mv}"),
                root::RootValue::AtMost(v) => assert!(truth <= v && v <= ab.value, "{mv}"),
            }
        }
    }
}

/// The same position many times on many threads gives one answer.
#[test]
fn repeated_parallel_runs_agree() {
    let mut rng = Rng::new(31337);
    let pool = pool(8);
    for _ in 0..20 {
        let board = random_board(&mut rng, 6, 2, 0.3);
        let expected = reference::alphabeta(&board, Player::X, 4);
        for _ in 0..10 {
            let got = pool.install(|| root::alphabeta(&board, Player::X, 4, true));
            assert_eq!((got.best, got.value), (expected.best, expected.value));
        }
    }
}
