//! Full-width minimax, as MINIMAX mode asks: no pruning, the textbook tree's
//! value and node count, computed fast.
//!
//! Three things make it fast without changing either number:
//! - the last ply is evaluated in bulk ([`super::frontier`]);
//! - a Raid that flips nothing leads to the same position as the Stake on
//!   its cell, so its subtree is not searched again: its node count is the
//!   Stake's and its value cannot change a max or a min;
//! - the top plies are split across the rayon pool.

use rayon::prelude::*;

use super::frontier::best_gain;
use crate::game::{Board, Player};
use crate::game::{Cols, Move, MoveKind, Twins};

/// Value and node count of a subtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Count {
    /// Minimax value from the point of view of the player to move.
    pub value: i64,
    /// Positions in the textbook tree, this one included.
    pub nodes: u64,
}

/// Subtrees with fewer plies left than this are searched on one thread:
/// below it the work per task is too small to pay for a board copy.
const SPLIT_MIN_REMAINING: u32 = 3;
/// Splitting stops this many plies below the root; the pool is busy by then.
const SPLIT_MAX_PLY: u32 = 2;

/// The two children of one empty cell: its Stake, and its Raid if `p` may raid there.
#[inline]
fn cell_children(
    board: &mut Board,
    p: Player,
    r: usize,
    c: usize,
    raid: bool,
    child: &mut dyn FnMut(&mut Board) -> Count,
) -> Count {
    let undo = board.make(Move::new(r, c, MoveKind::Stake), p);
    let stake = child(board);
    board.unmake(undo);
    let mut out = Count {
        value: -stake.value,
        nodes: stake.nodes,
    };
    if raid {
        if board.enemy_near_row(p, r) & (1 << c) == 0 {
            out.nodes += stake.nodes;
        } else {
            let undo = board.make(Move::new(r, c, MoveKind::Raid), p);
            let raided = child(board);
            board.unmake(undo);
            out.value = out.value.max(-raided.value);
            out.nodes += raided.nodes;
        }
    }
    out
}

/// Negamax over `remaining` plies for `p` to move (`ply` is the distance
/// from the root, for deciding where to split).
pub(crate) fn negamax(
    board: &mut Board,
    p: Player,
    remaining: u32,
    ply: u32,
    parallel: bool,
) -> Count {
    if remaining == 0 {
        return Count {
            value: board.score(p),
            nodes: 1,
        };
    }
    if remaining == 1 {
        let (gain, moves) = best_gain(board, p);
        return Count {
            value: board.score(p) + gain,
            nodes: 1 + moves,
        };
    }
    let cells: Vec<(usize, usize, bool)> =
        if parallel && remaining >= SPLIT_MIN_REMAINING && ply < SPLIT_MAX_PLY {
            empty_cells(board, p)
        } else {
            Vec::new()
        };
    let mut acc = Count {
        value: i64::MIN,
        nodes: 1,
    };
    let mut add = |c: Count| {
        acc.value = acc.value.max(c.value);
        acc.nodes += c.nodes;
    };
    if !cells.is_empty() {
        let counts: Vec<Count> = cells
            .par_iter()
            .map(|&(r, c, raid)| {
                let mut b = board.clone();
                cell_children(&mut b, p, r, c, raid, &mut |b| {
                    negamax(b, p.other(), remaining - 1, ply + 1, parallel)
                })
            })
            .collect();
        counts.into_iter().for_each(&mut add);
    } else {
        for r in 0..board.n() {
            let raid = board.raid_row(p, r);
            for c in Cols(board.empty_row(r)) {
                let count = cell_children(board, p, r, c, raid & (1 << c) != 0, &mut |b| {
                    negamax(b, p.other(), remaining - 1, ply + 1, false)
                });
                add(count);
            }
        }
    }
    if acc.nodes == 1 {
        // No empty cell: the game is over.
        acc.value = board.score(p);
    }
    acc
}

/// Every empty cell with whether `p` may raid it.
fn empty_cells(board: &Board, p: Player) -> Vec<(usize, usize, bool)> {
    let mut cells = Vec::new();
    for r in 0..board.n() {
        let raid = board.raid_row(p, r);
        for c in Cols(board.empty_row(r)) {
            cells.push((r, c, raid & (1 << c) != 0));
        }
    }
    cells
}

/// The minimax value of every root move in canonical order, and the node
/// count of the whole textbook tree (root included).
pub(crate) fn root_values(
    board: &Board,
    p: Player,
    depth: u32,
    moves: &[Move],
    parallel: bool,
) -> (Vec<i64>, u64) {
    // A non-flipping Raid repeats the Stake on its cell: search it once.
    let twins = Twins::new(board, p, moves);
    let unique = twins.distinct(moves);
    let results: Vec<Count> = if parallel {
        unique
            .par_iter()
            .map(|&mv| child_count(&mut board.clone(), p, mv, depth, true))
            .collect()
    } else {
        let mut b = board.clone();
        unique
            .iter()
            .map(|&mv| child_count(&mut b, p, mv, depth, false))
            .collect()
    };
    let all = twins.spread(&results);
    let nodes = 1 + all.iter().map(|c| c.nodes).sum::<u64>();
    (all.iter().map(|c| -c.value).collect(), nodes)
}

fn child_count(board: &mut Board, p: Player, mv: Move, depth: u32, parallel: bool) -> Count {
    let undo = board.make(mv, p);
    let c = negamax(board, p.other(), depth - 1, 1, parallel);
    board.unmake(undo);
    c
}
