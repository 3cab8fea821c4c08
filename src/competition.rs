//! COMPETITION mode: the best move this side can afford, given the CPU
//! seconds left for all of its remaining moves.
//!
//! Time: each move gets a share of the budget that depends on this side's
//! remaining moves (half the empty cells, rounded up), at most a few times
//! the even share, less a reserve for process start-up and file I/O; CPU
//! time runs on every worker thread, so the wall-clock limit is that share
//! divided by the threads used. Iterative deepening starts a new depth only
//! while it is likely to finish, and a timer aborts the running one at the
//! hard limit; the last completed depth answers, or a better move the
//! aborted one had already proved. Positions at the cut-off are valued by
//! a quiescence search of Raids and a playout of the cells left
//! ([`Eval::Quiet`]). Once the depth reaches the end of the game the answer
//! is exact.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use crate::board::{Board, Player};
use crate::moves::Move;
use crate::search::root::{iterate, Iterative};
use crate::search::Eval;
use crate::solve::in_pool;

/// Kept back from the budget: a share of it, and per remaining move (process
/// start-up, parsing, writing the answer), at most half of what is left.
const RESERVE_SHARE: f64 = 0.10;
const RESERVE_PER_MOVE: f64 = 0.002;
/// Each move may use this many times the even share of what is left:
/// early moves decide more (more cells are open), and late ones are cheap
/// (the end of the game is solved exactly). Since every move takes a
/// fraction of what is left, the budget is never spent.
const FRONT_LOAD: f64 = 3.0;
/// A new depth is started only before this share of the move's time is
/// used: each depth costs several times the one before.
const NEW_DEPTH_BEFORE: f64 = 0.5;
/// Below this wall time per move, a thread pool costs more than it gives.
const MIN_PARALLEL: Duration = Duration::from_millis(40);
/// Nodes per second per thread, for sizing the transposition table.
const NODE_RATE: f64 = 5e6;

/// How the competition engine plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompetitionOptions {
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Cut-off evaluation (default [`Eval::Quiet`]).
    pub eval: Eval,
}

impl Default for CompetitionOptions {
    fn default() -> Self {
        CompetitionOptions {
            threads: 0,
            eval: Eval::Quiet,
        }
    }
}

/// A move chosen under a time budget.
#[derive(Clone, Debug)]
pub struct Played {
    /// The move.
    pub best: Move,
    /// Its value at the depth reached (exact if `solved`).
    pub value: i64,
    /// Deepest completed iteration.
    pub depth: u32,
    /// True when that depth reached the end of the game.
    pub solved: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time used.
    pub elapsed: Duration,
    /// The wall-clock limit this move was given.
    pub limit: Duration,
}

/// Wall-clock time for this move: its share of `seconds_left` CPU seconds
/// (up to [`FRONT_LOAD`] times the even share over this side's remaining
/// moves, less the reserve), divided among `threads`.
pub fn move_time(empties: u32, seconds_left: f64, threads: usize) -> Duration {
    let moves_left = f64::from(empties.div_ceil(2).max(1));
    let reserve = (RESERVE_PER_MOVE * moves_left).min(0.5 * seconds_left);
    let usable = seconds_left * (1.0 - RESERVE_SHARE) - reserve;
    let share = (usable * (FRONT_LOAD / moves_left).min(1.0)).max(0.0);
    Duration::from_secs_f64(share / threads.max(1) as f64)
}

/// Chooses `p`'s move with `seconds_left` CPU seconds for the rest of the game.
pub fn play(board: &Board, p: Player, seconds_left: f64, options: &CompetitionOptions) -> Played {
    let start = Instant::now();
    let empties = board.empty_count();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads = if options.threads == 0 {
        cores
    } else {
        options.threads
    };
    let mut limit = move_time(empties, seconds_left, threads);
    if limit < MIN_PARALLEL && threads > 1 {
        threads = 1;
        limit = move_time(empties, seconds_left, 1);
    }
    let abort = Arc::new(AtomicBool::new(false));
    let slot = 8 * (3 + Board::key_len(board.n()));
    let table = (limit.as_secs_f64() * NODE_RATE * threads as f64 / 4.0) as usize * slot;
    let settings = Iterative {
        depth: empties,
        parallel: threads > 1,
        eval: options.eval,
        abort: Some(abort.clone()),
        table_limit: Some(table.max(1 << 16)),
        play: true,
    };
    let (tx, rx) = mpsc::channel::<()>();
    let (result, depth) = std::thread::scope(|s| {
        let timer_abort = abort.clone();
        s.spawn(move || {
            // Woken early (disconnected) when the search ends by itself.
            if let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(limit) {
                timer_abort.store(true, Relaxed);
            }
        });
        let out = in_pool(threads, |par| {
            let settings = Iterative {
                parallel: par,
                ..settings
            };
            iterate(board, p, &settings, |_, _| {
                start.elapsed().as_secs_f64() < limit.as_secs_f64() * NEW_DEPTH_BEFORE
            })
        });
        drop(tx);
        out
    });
    Played {
        best: result.best,
        value: result.value,
        depth,
        solved: depth >= empties,
        nodes: result.nodes,
        elapsed: start.elapsed(),
        limit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::legal_moves;
    use crate::rng::{random_board, Rng};
    use crate::search::reference;

    #[test]
    fn time_share_shrinks_with_moves_left_and_threads() {
        let a = move_time(20, 10.0, 1);
        assert!(move_time(40, 10.0, 1) < a);
        assert!(move_time(20, 10.0, 2) < a);
        assert_eq!(move_time(20, 0.0, 1), Duration::ZERO);
        // Spending every share of a game, move by move, always keeps the
        // reserve back, so the budget is never spent.
        let mut left = 10.0;
        for empties in (1..=40).rev().step_by(2) {
            let before = left;
            left -= move_time(empties, left, 1).as_secs_f64();
            assert!(
                left >= RESERVE_SHARE * before,
                "{left} left of {before} with {empties} empty cells"
            );
        }
        // The first moves get more than an even share: they decide more.
        assert!(move_time(40, 10.0, 1).as_secs_f64() > 10.0 / 20.0);
    }

    #[test]
    fn no_time_still_gives_a_legal_move() {
        let mut rng = Rng::new(1);
        for n in [1, 5, 26] {
            let board = random_board(&mut rng, n, 99, 0.3);
            let played = play(&board, Player::O, 0.0, &CompetitionOptions::default());
            assert!(legal_moves(&board, Player::O).contains(&played.best));
            assert!(played.depth >= 1);
        }
    }

    #[test]
    fn small_endgames_are_solved_exactly() {
        let mut rng = Rng::new(2);
        for _ in 0..20 {
            let board = random_board(&mut rng, 4, 20, 0.6);
            let empties = board.empty_count();
            let exact = reference::alphabeta(&board, Player::X, empties);
            for eval in [Eval::Score, Eval::Playout, Eval::Quiet] {
                let options = CompetitionOptions { threads: 1, eval };
                let played = play(&board, Player::X, 5.0, &options);
                assert!(played.solved);
                assert_eq!(
                    (played.best, played.value),
                    (exact.best, exact.value),
                    "{eval:?}"
                );
            }
        }
    }
}
