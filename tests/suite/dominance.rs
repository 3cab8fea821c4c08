//! The dominance the exact search relies on (`src/search/README.md`):
//! owning more cells is never worse, so a Raid that flips something is
//! worth at least the Stake on its cell, and the search that tries only
//! one child per empty cell gives the textbook answer. Checked with the
//! reference engine alone, then the fast engine against it on every
//! position of the smallest boards.

use stakeraid::rng::{random_board_from, Rng};
use stakeraid::{Board, Move, MoveKind, Player, SearchMode, Square};

use crate::util::{fast, textbook};

/// `p`'s value of `board` with `to_move` to move, searched `depth` plies
/// by the textbook alpha-beta.
fn value_for(board: &Board, p: Player, to_move: Player, depth: u32) -> i64 {
    if depth == 0 || board.is_full() {
        return board.score(p);
    }
    let v = textbook(board, to_move, SearchMode::AlphaBeta, depth).value;
    if to_move == p {
        v
    } else {
        -v
    }
}

/// A random board with values in `0..=max` (zeros and ties common).
fn board_with_zeros(rng: &mut Rng, n: usize, max: i32, fill: f64) -> Board {
    random_board_from(rng, n, 0, max, fill)
}

#[test]
fn owning_more_is_never_worse() {
    let mut rng = Rng::new(7);
    let mut compared = 0;
    for round in 0..3000 {
        let n = 2 + round % 4;
        let board = board_with_zeros(&mut rng, n, [1, 3, 20][round % 3], 0.6);
        let p = if round % 2 == 0 { Player::X } else { Player::O };
        let theirs: Vec<(usize, usize)> = (0..n * n)
            .map(|i| (i / n, i % n))
            .filter(|&(r, c)| board.square(r, c) == Square::Piece(p.other()))
            .collect();
        if theirs.is_empty() {
            continue;
        }
        let (r, c) = theirs[rng.range(0, theirs.len() as u64 - 1) as usize];
        let mut more = board.clone();
        more.set(r, c, Square::Piece(p));
        let depth = 1 + rng.range(0, u64::from(board.empty_count().min(4)) - 1) as u32;
        for to_move in [Player::X, Player::O] {
            let (less_v, more_v) = (
                value_for(&board, p, to_move, depth),
                value_for(&more, p, to_move, depth),
            );
            assert!(
                more_v >= less_v,
                "{p:?} owning ({r},{c}) is worth less: {more_v} < {less_v}, depth {depth}, \
                 {to_move:?} to move, {board:?}"
            );
            compared += 1;
        }
    }
    assert!(compared > 4000, "only {compared} comparisons");
}

#[test]
fn a_flipping_raid_is_worth_at_least_its_stake() {
    let mut rng = Rng::new(8);
    let mut compared = 0;
    for round in 0..1500 {
        let n = 2 + round % 4;
        let board = board_with_zeros(&mut rng, n, [1, 3, 20][round % 3], 0.5);
        let p = if round % 2 == 0 { Player::X } else { Player::O };
        let depth = 1 + rng.range(0, u64::from(board.empty_count().min(4)) - 1) as u32;
        for mv in stakeraid::legal_moves(&board, p) {
            let (r, c) = (mv.row(), mv.col());
            if mv.kind() != MoveKind::Raid || board.enemy_near_row(p, r) & (1 << c) == 0 {
                continue;
            }
            let child = |kind| {
                let mut b = board.clone();
                b.make(Move::new(r, c, kind), p);
                value_for(&b, p, p.other(), depth - 1)
            };
            let (raid, stake) = (child(MoveKind::Raid), child(MoveKind::Stake));
            assert!(
                raid >= stake,
                "{mv}: {raid} < {stake}, depth {depth}, {board:?}"
            );
            compared += 1;
        }
    }
    assert!(compared > 1000, "only {compared} comparisons");
}

/// Every position of an `n` x `n` board with at most `max_empty` empty
/// cells, for each value set: the fast search (one child per cell inside
/// the tree) chooses the textbook move with the textbook value, for both
/// players at every depth, at 1 and 2 threads.
fn every_position_agrees(n: usize, value_sets: &[&[i32]], max_empty: u32) -> u64 {
    let cells = n * n;
    let mut checked = 0u64;
    for values in value_sets {
        for code in 0..3u32.pow(cells as u32) {
            let mut board = Board::new(n, values);
            let mut rest = code;
            for i in 0..cells {
                let sq = match rest % 3 {
                    0 => Square::Empty,
                    1 => Square::Piece(Player::X),
                    _ => Square::Piece(Player::O),
                };
                rest /= 3;
                board.set(i / n, i % n, sq);
            }
            let empties = board.empty_count();
            if empties == 0 || empties > max_empty {
                continue;
            }
            for p in [Player::X, Player::O] {
                for depth in 1..=empties {
                    let want = textbook(&board, p, SearchMode::AlphaBeta, depth);
                    let threads = 1 + (code as usize + depth as usize) % 2;
                    let got = fast(&board, p, SearchMode::AlphaBeta, depth, threads);
                    assert_eq!(
                        (got.best, got.value),
                        (want.best, want.value),
                        "{p:?} depth {depth} {board:?}"
                    );
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn every_small_position_agrees_with_the_reference() {
    let two: [&[i32]; 4] = [&[1, 1, 1, 1], &[0, 1, 2, 3], &[2, 0, 2, 1], &[0, 0, 5, 0]];
    let three: [&[i32]; 2] = [&[1, 0, 2, 2, 1, 0, 1, 2, 1], &[5, 5, 5, 5, 0, 5, 5, 5, 5]];
    let checked = every_position_agrees(2, &two, 4) + every_position_agrees(3, &three, 5);
    assert!(checked > 100_000, "only {checked} searches");
}

/// Every 3x3 position, all nine cells empty included: a few minutes.
#[test]
#[ignore = "exhaustive: run with --ignored"]
fn every_three_by_three_position_agrees_with_the_reference() {
    let sets: [&[i32]; 3] = [
        &[1, 1, 1, 1, 1, 1, 1, 1, 1],
        &[1, 0, 2, 2, 1, 0, 1, 2, 1],
        &[9, 3, 7, 0, 4, 4, 2, 8, 1],
    ];
    every_position_agrees(3, &sets, 9);
}
