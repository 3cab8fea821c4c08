//! The COMPETITION budget sweep: whole games of the `stakeraid` program
//! against itself, run and charged by the referee exactly as a tournament
//! runs them (one process per move, CPU time from the operating system for
//! the whole process tree), on boards from 3x3 to 26x26, fills from 0 to
//! 0.7 and budgets from 0.05 s to 30 s per side, then single moves with
//! 30 s to 300 s left. Every move is checked against its share (the search
//! time the engine plans plus the fixed cost it sets aside per move) and
//! against the time left, every game against its budget.
//!
//! ```text
//! cargo build --release && cargo run --release --example budget_sweep [-- BINARY]
//! ```
//!
//! Exits with 1 if any move went over its share or any game over its budget.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use stakeraid::competition::{search_time, PROCESS_OVERHEAD};
use stakeraid::referee::{program_move, WallGuard};
use stakeraid::{random_board, Board, Move, Player, Rng};

/// Games: side, fill, CPU seconds per side.
const GAMES: [(usize, f64, f64); 15] = [
    (3, 0.0, 0.05),
    (4, 0.3, 0.1),
    (5, 0.0, 0.5),
    (6, 0.0, 1.0),
    (7, 0.0, 0.3),
    (8, 0.5, 2.0),
    (9, 0.1, 0.2),
    (10, 0.3, 3.0),
    (12, 0.0, 10.0),
    (12, 0.0, 30.0),
    (14, 0.2, 1.0),
    (16, 0.7, 3.0),
    (20, 0.5, 5.0),
    (23, 0.5, 1.5),
    (26, 0.7, 2.0),
];
/// Single moves: side, fill, CPU seconds left.
const PROBES: [(usize, f64, f64); 4] = [
    (26, 0.7, 300.0),
    (26, 0.0, 100.0),
    (20, 0.5, 30.0),
    (8, 0.6, 30.0),
];

#[derive(Default)]
struct Tally {
    moves: u32,
    worst_ratio: f64,
    worst_move: f64,
    spent: [f64; 2],
    over_share: u32,
    forfeits: u32,
}

impl Tally {
    /// Runs one move of the program and checks it; `None` on a forfeit.
    fn charge(
        &mut self,
        board: &Board,
        p: Player,
        left: f64,
        command: &str,
        dir: &Path,
    ) -> Option<Move> {
        let share = search_time(board.empty_count(), left, PROCESS_OVERHEAD) + PROCESS_OVERHEAD;
        let played = program_move(command, dir, board, p, left, &WallGuard::default())
            .expect("the referee runs the program");
        self.moves += 1;
        self.spent[p as usize] += played.cpu;
        self.worst_move = self.worst_move.max(played.cpu);
        let ratio = played.cpu / share.as_secs_f64();
        self.worst_ratio = self.worst_ratio.max(ratio);
        if ratio > 1.0 {
            self.over_share += 1;
            eprintln!(
                "over its share: {:.4} s of {:.4} s with {left:.4} s left, {} empty cells",
                played.cpu,
                share.as_secs_f64(),
                board.empty_count()
            );
        }
        if let Err(f) = &played.result {
            self.forfeits += 1;
            eprintln!("forfeit: {f:?}");
        }
        played.result.ok()
    }
}

fn main() -> ExitCode {
    let binary = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/release/stakeraid"));
    let binary = std::fs::canonicalize(&binary).expect("the stakeraid binary (build it first)");
    let command = binary.display().to_string();
    let mut failed = false;
    let mut total_moves = 0;
    println!(
        "{:>6} {:>5} {:>9} {:>6} {:>12} {:>12} {:>10} {:>10} {:>9}",
        "board",
        "fill",
        "budget_s",
        "moves",
        "X_spent_s",
        "O_spent_s",
        "max_move_s",
        "max/share",
        "problems"
    );
    for (i, &(n, fill, budget)) in GAMES.iter().enumerate() {
        let mut board = random_board(&mut Rng::new(100 + i as u64), n, 99, fill);
        let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
        let mut tally = Tally::default();
        let mut p = Player::X;
        while !board.is_full() {
            let left = budget - tally.spent[p as usize];
            let Some(mv) = tally.charge(&board, p, left, &command, dirs[p as usize].path()) else {
                break;
            };
            board.make(mv, p);
            p = p.other();
        }
        let over_budget = tally.spent.iter().filter(|&&s| s > budget).count() as u32;
        let problems = tally.over_share + tally.forfeits + over_budget;
        failed |= problems > 0;
        total_moves += tally.moves;
        println!(
            "{:>6} {:>5} {:>9} {:>6} {:>12.4} {:>12.4} {:>10.4} {:>10.3} {:>9}",
            format!("{n}x{n}"),
            fill,
            budget,
            tally.moves,
            tally.spent[0],
            tally.spent[1],
            tally.worst_move,
            tally.worst_ratio,
            problems
        );
    }
    for (i, &(n, fill, left)) in PROBES.iter().enumerate() {
        let board = random_board(&mut Rng::new(200 + i as u64), n, 99, fill);
        let dir = tempfile::tempdir().unwrap();
        let mut tally = Tally::default();
        tally.charge(&board, Player::X, left, &command, dir.path());
        let problems = tally.over_share + tally.forfeits;
        failed |= problems > 0;
        total_moves += tally.moves;
        println!(
            "{:>6} {:>5} {:>9} {:>6} {:>12.4} {:>12} {:>10.4} {:>10.3} {:>9}",
            format!("{n}x{n}"),
            fill,
            format!("{left}*"),
            1,
            tally.spent[0],
            "-",
            tally.worst_move,
            tally.worst_ratio,
            problems
        );
    }
    println!("{total_moves} moves; * a single move with that much left");
    if failed {
        println!("FAILED: a move over its share, a forfeit, or a game over its budget");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
