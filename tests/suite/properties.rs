//! Board properties on random positions, N = 1..26: make/unmake restores the
//! board, the incremental score matches a recount, and the bitboard move
//! generator matches a plain array-based one, order included.

use stakeraid::rng::{random_board, Rng};
use stakeraid::{legal_moves, Board, Move, MoveKind, Player, Square};

/// The rules read straight off a grid of squares.
fn naive_moves(board: &Board, p: Player) -> Vec<Move> {
    let n = board.n();
    let mut stakes = Vec::new();
    let mut raids = Vec::new();
    for r in 0..n {
        for c in 0..n {
            if board.square(r, c) != Square::Empty {
                continue;
            }
            stakes.push(Move::new(r, c, MoveKind::Stake));
            let neighbours = [
                (r.wrapping_sub(1), c),
                (r + 1, c),
                (r, c.wrapping_sub(1)),
                (r, c + 1),
            ];
            if neighbours
                .iter()
                .any(|&(y, x)| y < n && x < n && board.square(y, x) == Square::Piece(p))
            {
                raids.push(Move::new(r, c, MoveKind::Raid));
            }
        }
    }
    stakes.extend(raids);
    stakes
}

/// The board after `mv`, computed cell by cell.
fn naive_after(board: &Board, mv: Move, p: Player) -> Vec<Square> {
    let n = board.n();
    let mut grid: Vec<Square> = (0..n * n).map(|i| board.square(i / n, i % n)).collect();
    let (r, c) = (mv.row(), mv.col());
    grid[r * n + c] = Square::Piece(p);
    if mv.kind() == MoveKind::Raid {
        for (y, x) in [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ] {
            if y < n && x < n && grid[y * n + x] == Square::Piece(p.other()) {
                grid[y * n + x] = Square::Piece(p);
            }
        }
    }
    grid
}

fn naive_score(board: &Board, p: Player) -> i64 {
    let n = board.n();
    let mut s = 0;
    for r in 0..n {
        for c in 0..n {
            match board.square(r, c) {
                Square::Piece(q) if q == p => s += i64::from(board.value(r, c)),
                Square::Piece(_) => s -= i64::from(board.value(r, c)),
                Square::Empty => {}
            }
        }
    }
    s
}

#[test]
fn random_positions_behave() {
    let mut rng = Rng::new(0x5eed);
    for round in 0..1500 {
        let n = 1 + round % 26;
        let fill = rng.range(0, 95) as f64 / 100.0;
        let max_value = if round % 3 == 0 { 3 } else { i32::MAX };
        let mut board = random_board(&mut rng, n, max_value, fill);
        board.check_invariants();
        for p in [Player::X, Player::O] {
            let moves = legal_moves(&board, p);
            assert_eq!(moves, naive_moves(&board, p), "{board:?}");
            let before = board.clone();
            for &mv in &moves {
                let undo = board.make(mv, p);
                board.check_invariants();
                let grid: Vec<Square> = (0..n * n).map(|i| board.square(i / n, i % n)).collect();
                assert_eq!(grid, naive_after(&before, mv, p), "{mv} on {before:?}");
                assert_eq!(board.score(p), naive_score(&board, p));
                assert_eq!(board.score(p.other()), -board.score(p));
                assert_eq!((board.score(Player::X), board.hash()), board.recompute());
                board.unmake(undo);
                assert!(board == before, "unmake of {mv} did not restore {before:?}");
            }
        }
    }
}

/// A random game played to the end with make, then undone move by move,
/// checks the whole chain of undos, not just one.
#[test]
fn long_make_unmake_chains() {
    let mut rng = Rng::new(7);
    for n in 1..=26 {
        let mut board = random_board(&mut rng, n, 100, 0.0);
        let start = board.clone();
        let mut p = Player::X;
        let mut undos = Vec::new();
        while !board.is_full() {
            let moves = legal_moves(&board, p);
            let mv = moves[rng.range(0, moves.len() as u64 - 1) as usize];
            undos.push(board.make(mv, p));
            assert_eq!(board.score(Player::X), naive_score(&board, Player::X));
            p = p.other();
        }
        assert_eq!(undos.len(), n * n);
        while let Some(u) = undos.pop() {
            board.unmake(u);
        }
        assert!(board == start);
    }
}
