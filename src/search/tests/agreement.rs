//! The fast engines, the general one included where the compact one
//! would otherwise take over, against the textbook search on seeded
//! random positions, at 1, 2, 3 and 8 threads.

use super::pool;
use crate::game::random::{random_board, Rng};
use crate::game::{Board, Player};
use crate::search::reference;
use crate::search::root::{self, Iterative};
use crate::search::Threads;

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

/// Alpha-beta on the general engine, which small boards otherwise leave
/// to the compact one.
fn general(board: &Board, p: Player, depth: u32, parallel: bool) -> root::RootResult {
    let settings = Iterative {
        depth,
        threads: Threads::pool_if(parallel),
        ..Iterative::default()
    };
    root::exact_on_general(board, p, &settings)
}

/// The fast engines return exactly the textbook move and value, at every
/// thread count, on positions full of ties (tiny value ranges).
#[test]
fn fast_engines_equal_reference() {
    let mut rng = Rng::new(99);
    let pools: Vec<_> = [1, 2, 3, 8].into_iter().map(pool).collect();
    for round in 0..2500 {
        let n = 1 + round % 10;
        let max_value = [1, 2, 3, 10, 100][round % 5];
        let fill = rng.range(0, 90) as f64 / 100.0;
        let board = random_board(&mut rng, n, max_value, fill);
        let depth = affordable_depth(&board, &mut rng, 5);
        let player = if round % 2 == 0 { Player::X } else { Player::O };
        let expected = reference::minimax(&board, player, depth);
        let pool = &pools[round % pools.len()];
        let parallel = pool.current_num_threads() > 1;
        for (mode, got) in [
            (
                "minimax",
                pool.install(|| root::minimax(&board, player, depth, parallel)),
            ),
            (
                "alphabeta",
                pool.install(|| root::alphabeta(&board, player, depth, parallel)),
            ),
            (
                "general alphabeta",
                pool.install(|| general(&board, player, depth, parallel)),
            ),
        ] {
            assert_eq!(
                (got.best, got.value),
                (expected.best, expected.value),
                "{mode} at {} threads, depth {depth}, {player:?} {board:?}",
                pool.current_num_threads()
            );
            if mode == "minimax" {
                assert_eq!(got.nodes, expected.nodes, "textbook node count");
            }
        }
    }
}

/// Deeper searches, where the table and the parallel younger brothers are
/// used, against textbook alpha-beta (which the test above ties to minimax):
/// the rounds in `rounds` of one seeded sequence of 400, so that the four
/// quarters below run as tests of their own, side by side.
fn deep_alphabeta_equals_reference(rounds: std::ops::Range<usize>) {
    let mut rng = Rng::new(4242);
    let pools: Vec<_> = [1, 2, 3, 8].into_iter().map(pool).collect();
    for round in 0..rounds.end {
        let n = 3 + round % 6;
        let max_value = [1, 2, 5, 100][round % 4];
        let fill = 0.5 + rng.range(0, 40) as f64 / 100.0;
        let board = random_board(&mut rng, n, max_value, fill);
        let depth = if board.empty_count() > 16 {
            4 + round as u32 % 2
        } else {
            4 + round as u32 % 3
        };
        let player = if round % 2 == 0 { Player::X } else { Player::O };
        if round < rounds.start {
            continue;
        }
        let expected = reference::alphabeta(&board, player, depth);
        // Not `round % 4`, which would give each pool one value range.
        let pool = &pools[(round / 4) % pools.len()];
        let parallel = pool.current_num_threads() > 1;
        let got = pool.install(|| root::alphabeta(&board, player, depth, parallel));
        let wide = pool.install(|| general(&board, player, depth, parallel));
        for got in [got, wide] {
            assert_eq!(
                (got.best, got.value),
                (expected.best, expected.value),
                "{} threads, depth {depth}, {player:?} {board:?}",
                pool.current_num_threads()
            );
        }
    }
}

#[test]
fn deep_alphabeta_equals_reference_1_of_4() {
    deep_alphabeta_equals_reference(0..100);
}

#[test]
fn deep_alphabeta_equals_reference_2_of_4() {
    deep_alphabeta_equals_reference(100..200);
}

#[test]
fn deep_alphabeta_equals_reference_3_of_4() {
    deep_alphabeta_equals_reference(200..300);
}

#[test]
fn deep_alphabeta_equals_reference_4_of_4() {
    deep_alphabeta_equals_reference(300..400);
}

/// Searches that borrow threads as a batch's searches start and end
/// (`engine::lending`) still give the textbook answer: a lending pool of
/// three workers, one thread taken, and lending turned on and off while
/// they search so that threads are lent and called back mid-search; every
/// thread lent comes back.
#[test]
fn searches_borrowing_threads_equal_reference() {
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    use std::sync::Arc;

    use crate::engine::lending::{lending_pool, ThreadBudget};

    let budget = Arc::new(ThreadBudget::new(3));
    assert!(budget.take(1));
    let pool = lending_pool(3, &budget).expect("the test's threads start");
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut lending = false;
            while !done.load(Relaxed) {
                lending = !lending;
                budget.set_lending(lending);
                std::thread::sleep(std::time::Duration::from_micros(300));
            }
        });
        let mut rng = Rng::new(777);
        for round in 0..150 {
            let n = 4 + round % 4;
            let board = random_board(&mut rng, n, [1, 3, 100][round % 3], 0.55);
            let depth = 4 + round as u32 % 2;
            let player = if round % 2 == 0 { Player::X } else { Player::O };
            let expected = reference::alphabeta(&board, player, depth);
            let got = pool.install(|| root::alphabeta(&board, player, depth, true));
            let wide = pool.install(|| general(&board, player, depth, true));
            for got in [got, wide] {
                assert_eq!(
                    (got.best, got.value),
                    (expected.best, expected.value),
                    "borrowing, depth {depth}, {player:?} {board:?}"
                );
            }
        }
        done.store(true, Relaxed);
    });
    assert_eq!((budget.free(), budget.lent()), (2, 0));
}
