//! The compact engine (boards of up to 64 cells) against the textbook
//! search, where its table, enhanced transposition cut-offs, settled-piece
//! bounds and parallel split all come into play: full solves of small
//! boards with many ties, at every thread count, with tables from a single
//! bucket (every entry fights for it) up to the default size.

use super::{assert_same_answer, board_with_empties, pool};
use crate::game::random::Rng;
use crate::game::{Board, Player};
use crate::search::reference;
use crate::search::root::{exact, exact_on_general, Exact, Iterative, RootResult};
use crate::search::Threads;

fn search(board: &Board, p: Player, depth: u32, settings: Iterative<Exact>) -> RootResult {
    let settings = Iterative { depth, ..settings };
    exact(board, p, &settings, |_, _| true).0
}

#[test]
fn full_solves_equal_reference() {
    let mut rng = Rng::new(1917);
    let pools: Vec<_> = [1, 2, 3, 8].into_iter().map(pool).collect();
    for round in 0..160 {
        let n = 3 + round % 2;
        let max = [0, 1, 3, 99][round % 4];
        let empties = (6 + (round / 2) as u32 % 4).min((n * n) as u32);
        let board = board_with_empties(&mut rng, n, max, empties);
        let p = if round % 3 == 0 { Player::O } else { Player::X };
        let want = reference::alphabeta(&board, p, empties);
        // Not `round % 4`, which would give each pool one value range.
        let pool = &pools[(round / 8) % pools.len()];
        let settings = Iterative {
            threads: Threads::pool_if(pool.current_num_threads() > 1),
            table_limit: [Some(64), Some(4096), None][round % 3],
            ..Iterative::default()
        };
        let got = pool.install(|| search(&board, p, empties, settings));
        assert_eq!(
            (got.best, got.value),
            (want.best, want.value),
            "{} threads, {p:?}, {board:?}",
            pool.current_num_threads()
        );
    }
}

/// The compact engine (with a table of at most `table_limit` bytes) and
/// the general one give `board` the same answer, `depth` plies deep, on
/// `pool`'s threads.
fn assert_compact_equals_general(
    board: &Board,
    p: Player,
    depth: u32,
    pool: &rayon::ThreadPool,
    table_limit: Option<usize>,
) {
    let threads = Threads::pool_if(pool.current_num_threads() > 1);
    let general = Iterative {
        depth,
        threads,
        ..Iterative::default()
    };
    let compact = Iterative {
        threads,
        table_limit,
        ..Iterative::default()
    };
    let want = pool.install(|| exact_on_general(board, p, &general));
    let got = pool.install(|| search(board, p, depth, compact));
    let threads = pool.current_num_threads();
    let at = format!("{threads} threads, depth {depth}, {p:?}, {board:?}");
    assert_same_answer(&got, &want, &at);
}

/// Depth-limited searches on larger boards, against the general engine
/// (which the agreement tests hold to the textbook search).
#[test]
fn deep_searches_equal_the_general_engine() {
    let mut rng = Rng::new(8128);
    // Four pools against three value ranges: every thread count meets
    // every range.
    let pools: Vec<_> = [1, 2, 3, 8].into_iter().map(pool).collect();
    for round in 0..60 {
        let n = 5 + round % 4;
        let max = [1, 5, 99][round % 3];
        let empties = 10 + round as u32 % 5;
        let board = board_with_empties(&mut rng, n, max, empties);
        let p = if round % 2 == 0 { Player::O } else { Player::X };
        let depth = 6 + round as u32 % 4;
        let table_limit = [Some(64), None][round % 2];
        assert_compact_equals_general(&board, p, depth, &pools[round % pools.len()], table_limit);
    }
}

/// Full solves of larger boards, where the hand-written last plies and
/// the settled-piece bounds meet cell values of every size, against the
/// general engine.
#[test]
fn full_solves_of_larger_boards_equal_the_general_engine() {
    let mut rng = Rng::new(4099);
    let pools: Vec<_> = [1, 2, 3, 8].into_iter().map(pool).collect();
    for round in 0..36 {
        let n = 5 + round % 4;
        let max = [1, 9, 99][round % 3];
        let empties = 8 + round as u32 % 4;
        let board = board_with_empties(&mut rng, n, max, empties);
        let p = if round % 2 == 0 { Player::X } else { Player::O };
        let table_limit = [Some(64), None][round % 2];
        assert_compact_equals_general(&board, p, empties, &pools[round % pools.len()], table_limit);
    }
}

/// Solves deep enough for the root's own shortcuts: the ordering search
/// on a table of its own, and exact values from null-window tests.
#[test]
fn solves_of_thirteen_to_fifteen_empty_cells_equal_the_general_engine() {
    let mut rng = Rng::new(6143);
    let pools: Vec<_> = [1, 2, 3, 8].into_iter().map(pool).collect();
    for round in 0..12 {
        let n = 5 + round % 3;
        let max = [1, 9, 99][round % 3];
        let empties = 13 + round as u32 % 3;
        let board = board_with_empties(&mut rng, n, max, empties);
        let p = if round % 2 == 0 { Player::X } else { Player::O };
        let table_limit = [Some(64), None][round % 2];
        assert_compact_equals_general(&board, p, empties, &pools[round % pools.len()], table_limit);
    }
}

/// Depth-limited searches with many empty cells and values far apart,
/// where the bound from the most the moves left can gain cuts most often,
/// and near-full boards solved to the end, where the settled pieces'
/// bounds cut at four plies left and before any child is searched: against
/// the general engine, on 1, 2 and 8 threads.
#[test]
fn bounded_searches_equal_the_general_engine() {
    let mut rng = Rng::new(7171);
    let pools: Vec<_> = [1, 2, 8].into_iter().map(pool).collect();
    for round in 0..48 {
        let n = 6 + round % 3;
        let max = [9, 99, 999][round % 3];
        let pool = &pools[(round / 3) % pools.len()];
        let p = if round % 2 == 0 { Player::X } else { Player::O };
        let table_limit = [Some(64), None][round / 9 % 2];
        if round % 4 < 2 {
            let empties = 16 + round as u32 % 9;
            let board = board_with_empties(&mut rng, n, max, empties);
            let depth = 3 + round as u32 % 4;
            assert_compact_equals_general(&board, p, depth, pool, table_limit);
        } else {
            let empties = 9 + round as u32 % 4;
            let board = board_with_empties(&mut rng, n, max, empties);
            assert_compact_equals_general(&board, p, empties, pool, table_limit);
        }
    }
}
