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
