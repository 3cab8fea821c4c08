//! Large boards near their end, where the fast search runs on the region
//! of the board still open (its empty cells and their neighbours), held
//! to the textbook search through the api: boards of 9x9 to 26x26 with 4
//! to 12 empty cells, MINIMAX and ALPHABETA, depths from 1 to the end, on
//! 1, 2 and 8 threads; the move, its value and every root value proved.

use stakeraid::api::{Bound, SearchMode};
use stakeraid::rng::{random_board, Rng};
use stakeraid::{Board, Player};

use crate::util::{fast, textbook};

/// A board of side `n` with values up to `max` and exactly `empties`
/// empty cells (drawn again until it has them).
fn board_with_empties(rng: &mut Rng, n: usize, max: i32, empties: u32) -> Board {
    let fill = 1.0 - f64::from(empties) / (n * n) as f64;
    loop {
        let board = random_board(rng, n, max, fill);
        if board.empty_count() == empties {
            return board;
        }
    }
}

/// The textbook value of `mv` for `p` at `depth`: the score after it, or
/// the textbook alpha-beta's value of the position it leads to, turned
/// round.
fn textbook_value(board: &Board, p: Player, mv: stakeraid::Move, depth: u32) -> i64 {
    let mut after = board.clone();
    after.make(mv, p);
    if depth == 1 || after.is_full() {
        return after.score(p);
    }
    -textbook(&after, p.other(), SearchMode::AlphaBeta, depth - 1).value
}

/// `rounds` positions: each one's fast answer equals the textbook's, and
/// every root value it reports holds: exact where it says so (always in
/// MINIMAX mode), at least the move's value where it is a bound.
fn regions_agree(rounds: usize) {
    let mut rng = Rng::new(2611);
    for round in 0..rounds {
        let n = 9 + round % 18;
        let empties = 4 + (round / 18) as u32 % 9;
        let max = [1, 9, 99][round % 3];
        let board = board_with_empties(&mut rng, n, max, empties);
        let p = if round % 4 < 2 { Player::X } else { Player::O };
        let mode = if round % 2 == 0 {
            SearchMode::AlphaBeta
        } else {
            SearchMode::Minimax
        };
        // Past 9 empty cells the textbook search of every depth is too
        // slow on a wide board to run hundreds of times: up to 7 there.
        let top = if empties <= 9 { empties } else { 7 };
        let depth = rng.range(1, u64::from(top)) as u32;
        let threads = [1, 2, 8][round / 2 % 3];
        let got = fast(&board, p, mode, depth, threads);
        let want = textbook(&board, p, SearchMode::AlphaBeta, depth);
        let at = format!("{mode:?} depth {depth}, {threads} threads, {p:?}, {board:?}");
        assert_eq!((got.best, got.value), (want.best, want.value), "{at}");
        if mode == SearchMode::AlphaBeta && round % 4 != 0 {
            continue;
        }
        for m in &got.moves {
            let truth = textbook_value(&board, p, m.mv, depth);
            match m.bound {
                Bound::Exact => assert_eq!(m.value, truth, "{} {at}", m.mv),
                _ if mode == SearchMode::Minimax => panic!("{} is not exact: {at}", m.mv),
                Bound::Upper => assert!(truth <= m.value, "{} {at}", m.mv),
                Bound::Lower => panic!("{}: a root value is never a lower bound: {at}", m.mv),
            }
        }
    }
}

#[test]
fn large_boards_near_their_end_equal_the_textbook_search() {
    regions_agree(126);
}

/// The same, on 1080 positions: `cargo test --release --test suite --
/// --ignored many_large_boards` (scripts/regions.sh).
#[test]
#[ignore = "minutes: run by scripts/regions.sh"]
fn many_large_boards_near_their_end_equal_the_textbook_search() {
    regions_agree(1080);
}
