//! What a textbook search costs: the positions it visits, estimated
//! before it runs, and the time a plain Python program takes on them.

use crate::game::{legal_moves, Board, Player};

/// Estimated positions a textbook minimax search to `depth` visits, the
/// root included: the first two plies counted exactly, deeper plies
/// extrapolated from the second ply's average number of moves, shrinking
/// with the empty cells. Alpha-beta visits fewer.
pub fn textbook_nodes(board: &Board, player: Player, depth: u32) -> u64 {
    let empties = board.empty_count();
    let depth = depth.min(empties);
    let root = legal_moves(board, player);
    let mut nodes = 1.0 + root.len() as f64;
    if depth <= 1 {
        return nodes as u64;
    }
    let mut b = board.clone();
    let mut second = 0usize;
    for &mv in &root {
        let undo = b.make(mv, player);
        second += legal_moves(&b, player.other()).len();
        b.unmake(undo);
    }
    nodes += second as f64;
    let per_move = second as f64 / root.len() as f64;
    let mut level = second as f64;
    for k in 2..depth {
        level *= per_move * f64::from(empties - k) / f64::from(empties - 1);
        nodes += level;
    }
    nodes.min(u64::MAX as f64) as u64
}

/// Microseconds a plain Python textbook program spends on a position of an
/// `n` x `n` board (copying the board, listing its moves, scoring it),
/// measured on the textbook fixture: about 4 + 0.09 n^2.
fn textbook_micros_per_node(n: usize) -> f64 {
    4.0 + 0.09 * (n * n) as f64
}

/// The estimated CPU seconds of a plain Python textbook program on a
/// search of `nodes` positions of an `n` x `n` board.
pub fn textbook_seconds(n: usize, nodes: u64) -> f64 {
    nodes as f64 * textbook_micros_per_node(n) * 1e-6
}
