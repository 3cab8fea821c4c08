//! The compact engine on regions of large boards and on sets of two words,
//! against the textbook search and the general engine: every shape (the
//! whole board or its region) in every word (one or two) where it holds
//! the position, full solves and depth-limited searches, at 1, 2 and 8
//! threads.

use std::sync::Arc;

use super::{assert_same_answer, board_with_empties, pool};
use crate::game::random::Rng;
use crate::game::{Board, Player};
use crate::search::reference;
use crate::search::root::{exact, exact_on_general, Exact, Iterative};
use crate::search::{Compact, Threads};

/// The root search of `board` on `compact`, `depth` plies, on `pool`.
fn search_on(
    compact: Compact,
    board: &Board,
    p: Player,
    depth: u32,
    pool: &rayon::ThreadPool,
) -> crate::search::root::RootResult {
    let settings = Iterative {
        depth,
        threads: Threads::pool_if(pool.current_num_threads() > 1),
        purpose: Exact {
            compact: Some(Arc::new(compact)),
            direct: false,
        },
        ..Iterative::default()
    };
    pool.install(|| exact(board, p, &settings, |_, _| true).0)
}

/// Boards from 2x2 to 26x26 with 1 to 9 empty cells, each searched on
/// every shape and word that holds it, at a depth from 1 to the end: the
/// textbook alpha-beta's move and value. Small boards searched as
/// regions and in two words, and large boards' regions, all meet here.
#[test]
fn every_shape_and_word_equals_the_textbook_search() {
    let mut rng = Rng::new(3301);
    let pools: Vec<_> = [1, 2, 8].into_iter().map(pool).collect();
    let mut shapes = [0usize; 4];
    for round in 0..240 {
        let n = [2, 3, 4, 5, 7, 8, 9, 11, 13, 17, 22, 26][round % 12];
        let empties = (1 + (round / 12) as u32 % 9).min((n * n) as u32 - 1);
        let max = [0, 1, 9, 99][round / 3 % 4];
        let board = board_with_empties(&mut rng, n, max, empties);
        let p = if round % 2 == 0 { Player::X } else { Player::O };
        let depth = rng.range(1, u64::from(empties)) as u32;
        let want = reference::alphabeta(&board, p, depth);
        let pool = &pools[round / 2 % pools.len()];
        for (region, wide) in [(false, false), (true, false), (false, true), (true, true)] {
            let bytes = [64, 4096, 1 << 20][round % 3];
            let Some(compact) = Compact::forced(&board, bytes, region, wide) else {
                continue;
            };
            shapes[usize::from(region) * 2 + usize::from(wide)] += 1;
            let got = search_on(compact, &board, p, depth, pool);
            assert_eq!(
                (got.best, got.value),
                (want.best, want.value),
                "region {region}, wide {wide}, {} threads, depth {depth}, {p:?}, {board:?}",
                pool.current_num_threads()
            );
        }
    }
    // Every combination ran often enough to count.
    assert!(shapes.iter().all(|&k| k >= 40), "{shapes:?}");
}

/// The engine [`Compact::new`] picks for large boards: a region, in one
/// word where it fits, else in two; a whole board of 9x9 to 11x11 in two
/// words where its region does not fit one.
#[test]
fn large_boards_are_searched_on_their_regions() {
    let mut rng = Rng::new(44);
    for round in 0..60 {
        let n = 9 + round % 18;
        let empties = 4 + round as u32 % 20;
        let board = board_with_empties(&mut rng, n, 9, empties);
        let Some(compact) = Compact::new(&board, 1 << 12) else {
            continue;
        };
        let region = crate::search::compact::region_size(&board);
        let want = if region <= 64 {
            (true, false)
        } else if n * n <= 128 {
            (false, true)
        } else {
            (true, true)
        };
        assert_eq!(compact.shape(), want, "{region} cells, {board:?}");
        assert!(compact.covers(&board));
    }
}

/// Positions of 13 to 18 empty cells on boards of 9x9 to 26x26, whose
/// regions take one word or two, against the general engine, which the
/// agreement tests hold to the textbook search: solves of 13 to 15 empty
/// cells (the root's ordering search and tests come in) and
/// depth-limited searches of 16 to 18 (the bound from the moves left).
/// `ROUNDS` positions in the suite; `cargo test -- --ignored
/// many_regions` runs 240.
fn regions_equal_the_general_engine(rounds: usize) {
    let mut rng = Rng::new(1331);
    let pools: Vec<_> = [1, 2, 8].into_iter().map(pool).collect();
    for round in 0..rounds {
        let n = 9 + round % 18;
        let max = [1, 9, 99][round % 3];
        let empties = 13 + round as u32 % 6;
        let board = board_with_empties(&mut rng, n, max, empties);
        let p = if round % 2 == 0 { Player::X } else { Player::O };
        let depth = if empties <= 15 {
            empties
        } else {
            5 + round as u32 % 4
        };
        let pool = &pools[round / 6 % pools.len()];
        let general = Iterative {
            depth,
            threads: Threads::pool_if(pool.current_num_threads() > 1),
            ..Iterative::default()
        };
        let want = pool.install(|| exact_on_general(&board, p, &general));
        let compact = Compact::new(&board, [1 << 12, 1 << 22][round % 2]).expect("a region");
        let got = search_on(compact, &board, p, depth, pool);
        let threads = pool.current_num_threads();
        let at = format!("{threads} threads, depth {depth}, {p:?}, {board:?}");
        assert_same_answer(&got, &want, &at);
    }
}

#[test]
fn regions_of_thirteen_to_eighteen_empty_cells_equal_the_general_engine() {
    regions_equal_the_general_engine(24);
}

#[test]
#[ignore = "minutes: run by scripts/regions.sh"]
fn many_regions_equal_the_general_engine() {
    regions_equal_the_general_engine(240);
}

/// A store kept by a search of a region names each position by the whole
/// board and holds its whole value: what it proved of the root's children
/// bounds their values as the general engine finds them on the board, and
/// a position of the same board with other settled pieces (so another
/// score outside its region) is answered for itself, never from the
/// first one's entries.
#[test]
fn a_region_stores_whole_board_values() {
    use crate::game::{legal_moves, Square};
    use crate::store::{Store, StoreUse};

    let mut rng = Rng::new(909);
    let pool = pool(2);
    for round in 0..6 {
        let n = [12, 17, 26][round % 3];
        let empties = [11, 13][round / 3 % 2];
        let board = board_with_empties(&mut rng, n, 99, empties);
        let p = if round % 2 == 0 { Player::X } else { Player::O };
        let store = Arc::new(Store::in_memory(&board));
        let shared = || StoreUse {
            min_plies: 4,
            min_nodes: 0,
            ..StoreUse::new(store.clone())
        };
        let general = |b: &Board, p: Player, depth: u32| {
            let settings = Iterative {
                depth,
                ..Iterative::default()
            };
            exact_on_general(b, p, &settings).value
        };
        let solve = |b: &Board| {
            let compact = Compact::new(b, 1 << 16)
                .expect("a region")
                .with_store(shared());
            assert!(compact.shape().0, "a region");
            search_on(compact, b, p, empties, &pool)
        };
        let got = solve(&board);
        assert_eq!(got.value, general(&board, p, empties), "{board:?}");
        let mut checked = 0;
        for mv in legal_moves(&board, p) {
            let mut child = board.clone();
            child.make(mv, p);
            if let Some(proven) = store.get(&child, p.other(), empties - 1) {
                let v = general(&child, p.other(), empties - 1);
                assert!(proven.lo <= v && v <= proven.hi, "{mv}: {proven:?} {v}");
                checked += 1;
            }
        }
        assert!(checked > 0, "no child stored");
        // The same board with one settled piece far from the empty cells
        // turned over: another score outside the region, the same region.
        let far = (0..n * n).find(|&i| {
            let (r, c) = (i / n, i % n);
            let near_empty = (r.saturating_sub(1)..=(r + 1).min(n - 1))
                .flat_map(|a| (c.saturating_sub(1)..=(c + 1).min(n - 1)).map(move |b| (a, b)))
                .any(|(a, b)| board.square(a, b) == Square::Empty);
            !near_empty
        });
        let mut other = board.clone();
        let (r, c) = far.map(|i| (i / n, i % n)).expect("a far cell");
        let turned = match board.square(r, c) {
            Square::Piece(q) => q.other(),
            Square::Empty => unreachable!("the cell is settled"),
        };
        other.set(r, c, Square::Piece(turned));
        let again = solve(&other);
        assert_eq!(again.value, general(&other, p, empties), "{other:?}");
        // The game on the region is the same: only the outside score moved.
        let sign = if turned == p { 1 } else { -1 };
        let shift = sign * 2 * i64::from(board.value(r, c));
        assert_eq!(again.value, got.value + shift, "{other:?}");
    }
}

/// A board of side `n`, values from `value`, pieces from `cells` (row-major
/// `X`, `O` and `.`).
fn board_of(n: usize, value: impl Fn(usize) -> i32, cells: &str) -> Board {
    use crate::game::Square;
    let values: Vec<i32> = (0..n * n).map(value).collect();
    let mut board = Board::new(n, &values);
    for (i, ch) in cells.chars().enumerate() {
        let sq = match ch {
            'X' => Square::Piece(Player::X),
            'O' => Square::Piece(Player::O),
            _ => Square::Empty,
        };
        board.set(i / n, i % n, sq);
    }
    board
}

/// The settled pieces outside a region may be worth far more than an
/// `i32` holds (only the region's values are bounded): their score is
/// carried whole, at every depth, on one thread and two.
#[test]
fn outside_scores_past_an_i32_count_whole() {
    let n = 9;
    for (big, empty) in [
        ("X", [0usize, 1, 9]),
        ("O", [0, 40, 80]),
        ("X", [4, 36, 44]),
    ] {
        // Every cell but the empty ones and their neighbours is worth
        // `i32::MAX` and owned by one side; the rest are small.
        let near = |i: usize| {
            empty.iter().any(|&e| {
                let (r, c, er, ec) = (i / n, i % n, e / n, e % n);
                r.abs_diff(er) + c.abs_diff(ec) <= 1
            })
        };
        let value = |i: usize| if near(i) { (i % 7) as i32 } else { i32::MAX };
        let cells: String = (0..n * n)
            .map(|i| match () {
                _ if empty.contains(&i) => '.',
                _ if near(i) => {
                    if i % 2 == 0 {
                        'X'
                    } else {
                        'O'
                    }
                }
                _ => big.chars().next().unwrap(),
            })
            .collect();
        let board = board_of(n, value, &cells);
        for p in [Player::X, Player::O] {
            for depth in 1..=3 {
                let want = reference::alphabeta(&board, p, depth);
                for threads in [1, 2] {
                    let compact = Compact::new(&board, 1 << 16).expect("a region");
                    assert!(compact.shape().0);
                    let got = search_on(compact, &board, p, depth, &pool(threads));
                    assert_eq!(
                        (got.best, got.value),
                        (want.best, want.value),
                        "{p:?} {depth}"
                    );
                }
            }
        }
    }
}

/// The most the moves left can gain may pass an `i32` while the values'
/// total is within the compact search's limit (a cell's value counts in
/// its neighbours' gains twice each): a depth-limited search where one
/// cell holds nearly all of it.
#[test]
fn bounds_near_the_largest_total_hold() {
    let n = 5;
    // B2 (cell 6) is worth 2.5e8, the rest little; B2 and its four
    // neighbours are empty: what their moves may gain passes 2^31.
    let value = |i: usize| if i == 6 { 250_000_000 } else { (i % 3) as i32 };
    let cells = "X.OXO...OOX.X.OX.OX.XO...";
    let board = board_of(n, value, cells);
    for p in [Player::X, Player::O] {
        for depth in [6, 8, 10] {
            let general = Iterative {
                depth,
                ..Iterative::default()
            };
            let want = exact_on_general(&board, p, &general);
            let compact = Compact::new(&board, 1 << 16).expect("a board");
            let got = search_on(compact, &board, p, depth, &pool(1));
            assert_same_answer(&got, &want, &format!("{p:?} depth {depth}"));
        }
    }
}
