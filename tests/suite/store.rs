//! The solve store through the library: a direct solve that reads and adds
//! to a store answers what it answers without one, and a second solve on
//! the same store answers from it.

use std::sync::Arc;

use stakeraid::api::{analyse, Limits, Position, SearchMode};
use stakeraid::rng::{random_board, Rng};
use stakeraid::store::{Store, StoreUse};
use stakeraid::Player;

/// A random 5x5 position with `empties` empty cells.
fn position(seed: u64, empties: u32) -> Position {
    let mut rng = Rng::new(seed);
    loop {
        let board = random_board(&mut rng, 5, 99, 1.0 - f64::from(empties) / 25.0);
        if board.empty_count() == empties {
            let p = if seed.is_multiple_of(2) {
                Player::X
            } else {
                Player::O
            };
            return Position::new(board, p).unwrap();
        }
    }
}

#[test]
fn a_store_changes_no_answer_and_answers_the_second_solve() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..6u64 {
        let empties = 12 + (seed % 4) as u32;
        let position = position(300 + seed, empties);
        let threads = 1 + (seed % 2) as usize;
        let plain = analyse(
            &position,
            &Limits {
                threads,
                ..Limits::to_depth(SearchMode::AlphaBeta, empties)
            },
        )
        .unwrap();
        let path = dir.path().join(format!("s{seed}.db"));
        let with_store = |store: &Arc<Store>| Limits {
            threads,
            store: Some(StoreUse {
                store: store.clone(),
                min_plies: 8,
                min_nodes: 200,
            }),
            ..Limits::to_depth(SearchMode::AlphaBeta, empties)
        };
        let store = Arc::new(Store::open(&path, position.board()).unwrap());
        let first = analyse(&position, &with_store(&store)).unwrap();
        assert_eq!(store.failure(), None);
        let written = store.stats().written;
        assert!(written > 0, "seed {seed}: nothing stored");
        drop(store);
        let store = Arc::new(Store::open(&path, position.board()).unwrap());
        let second = analyse(&position, &with_store(&store)).unwrap();
        let stats = store.stats();
        for (name, a) in [("first", &first), ("second", &second)] {
            assert_eq!(
                (a.best, a.value),
                (plain.best, plain.value),
                "seed {seed}, {name} solve"
            );
        }
        assert!(stats.hits > 0, "seed {seed}: the second solve used nothing");
        assert!(
            second.nodes < first.nodes,
            "seed {seed}: {} nodes again after {}",
            second.nodes,
            first.nodes
        );
    }
}
