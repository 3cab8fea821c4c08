//! COMPETITION mode: the best move this side can afford, given the CPU
//! seconds left for all of its remaining moves.
//!
//! Time: a tournament charges each move the CPU time of the whole process,
//! start-up and output included, on every thread. So first the fixed cost
//! of one move ([`CompetitionOptions::overhead`], measured, not a
//! percentage) is set aside for every move this side still has to make
//! (half the empty cells, rounded up); of what remains, this move's search
//! may use up to `FRONT_LOAD` times the even share, and never more than
//! `MAX_SHARE` of it. Where the compact engine applies and a full solve
//! usually costs a small part of that, the move is solved exactly first.
//! The search polls the
//! process's CPU clock itself (see [`crate::search::Deadline`]), so no
//! timer thread is needed, and more threads (one by default) spend the
//! share faster. Iterative deepening starts a new depth only while it is likely
//! to finish; the last completed depth answers, or a better move the
//! aborted one had already proved. When too little is left for a search,
//! the best immediate move is played at once. Positions at the cut-off are
//! valued by a quiescence search of Raids and a playout of the cells left
//! ([`Eval::Quiet`]). Once the depth reaches the end of the game the answer
//! is exact.
//!
//! [`play_for`] gives one move a time of its own instead of a share of the
//! game's, on the wall clock if asked ([`Clock::Wall`]): for an engine a
//! person waits for, in a server whose other searches its CPU clock would
//! count too.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::pool::in_pool;
use crate::game::{legal_moves, Move};
use crate::game::{Board, Player};
use crate::search::root::{self, immediate, Exact, Iterative, Play};
use crate::search::{process_cpu, Compact, Deadline, Eval, Progress, Threads};

/// CPU time one move of the `stakeraid` process costs besides its search:
/// loading the program, reading `input.txt`, planning, writing
/// `output.txt`, ending the threads, and the overshoot of the search's
/// last poll of the clock. Measured by `scripts/move-cost.py` on the 2-core
/// VM with the other core busy (`profiles/2026-11-23-vm/move-cost.txt`): a
/// move with nothing to search costs 2.4 to 3.4 ms (median), 4 to 11 ms
/// (99th percentile) and 15 ms at the worst on boards from 3x3 to 26x26,
/// on a quiet machine as on a busy one; a referee that starts it through
/// `sh -c` adds about a millisecond. This keeps a margin above the worst
/// (a budget sweep with 16 ms saw one move of 11 ms of search take 28 ms).
pub const PROCESS_OVERHEAD: Duration = Duration::from_millis(20);
/// The same for an engine that runs inside a longer-lived process (the
/// match arena): only the overshoot of the last poll and the thread joins.
pub const IN_PROCESS_OVERHEAD: Duration = Duration::from_micros(500);
/// Each move's search may use this many times the even share of what is
/// left: early moves decide more (more cells are open), and late ones are
/// cheap (the end of the game is solved exactly). Since every move takes a
/// fraction of what is left, the budget is never spent.
const FRONT_LOAD: f64 = 3.0;
/// The part of a move's time its searches may use; the rest covers the
/// cost that grows with them and falls after their deadline (on 12x12 with
/// 0.79 s to search, 3 ms).
const SEARCH_SHARE: f64 = 0.97;
/// No move's search may use more than this share of what is left to
/// spend: a move that needs more than planned still leaves the next ones
/// something.
const MAX_SHARE: f64 = 0.5;
/// A new depth is started only before this share of the move's time is
/// used: each depth costs several times the one before.
const NEW_DEPTH_BEFORE: f64 = 0.5;
/// CPU time spent after the deadline by each worker thread beyond the
/// first (spinning before it sleeps, ending): measured as 15 ms on a
/// two-thread 8x8 move.
const PARALLEL_TAIL: Duration = Duration::from_millis(20);
/// Below this much CPU time for a search, a thread pool costs more than it
/// gives.
const MIN_PARALLEL: Duration = Duration::from_millis(50);
/// Below this, no search is started: the best immediate move is played.
const MIN_SEARCH: Duration = Duration::from_millis(1);
/// More time left than this is planned as this much: an hour for one
/// side's game is far beyond any tournament's clock, and a move still ends
/// in minutes rather than never.
const MAX_SECONDS_LEFT: f64 = 3600.0;
/// Nodes per CPU second, for sizing the transposition table.
const NODE_RATE: f64 = 5e6;
/// A full solve is tried first when its usual cost is at most this share
/// of the move's time: solves of one size vary about twofold around the
/// usual, a few up to fourfold.
const SOLVE_IF_WITHIN: f64 = 0.25;
/// The share of the move's time a full solve may take before it is given
/// up and the depth-limited search plays with what is left.
const SOLVE_FOR: f64 = 0.6;
/// Table bytes per CPU second of a full solve: the compact engine stores
/// about a million positions a second, at 32 bytes each, and a table twice
/// that keeps most of them.
const SOLVE_TABLE_RATE: f64 = 64.0 * 1024.0 * 1024.0;

/// How the competition engine plays.
#[derive(Clone, Debug)]
pub struct CompetitionOptions {
    /// Worker threads; 0 means one. Every thread's CPU time is charged, and
    /// two threads search fewer nodes per CPU second than one (measured on
    /// an 8x8 board: 1.17 M nodes in 0.25 CPU seconds against 1.61 M in
    /// 0.13), so a second thread only pays when the wall clock matters.
    pub threads: usize,
    /// Cut-off evaluation (default [`Eval::Quiet`]).
    pub eval: Eval,
    /// CPU time set aside for each move besides its search (default
    /// [`PROCESS_OVERHEAD`], for one process per move).
    pub overhead: Duration,
    /// The clock the move's time is measured on (default: the process's
    /// CPU time).
    pub clock: Clock,
    /// Setting this flag (from any thread) ends the move's search as its
    /// time running out does: the best move found so far is played.
    pub stop: Option<Arc<AtomicBool>>,
    /// Where the search reports its nodes, its depths and its root as it
    /// goes.
    pub progress: Option<Arc<Progress>>,
}

impl Default for CompetitionOptions {
    fn default() -> Self {
        CompetitionOptions {
            threads: 0,
            eval: Eval::Quiet,
            overhead: PROCESS_OVERHEAD,
            clock: Clock::Cpu,
            stop: None,
            progress: None,
        }
    }
}

/// The clock a move's time is measured on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// The process's CPU time, every thread's: what a tournament charges.
    #[default]
    Cpu,
    /// Wall time: what a person waiting for the move sees. For an engine
    /// inside a process that runs other searches too, whose CPU time this
    /// move's clock would count.
    Wall,
}

impl Clock {
    /// The time on this clock: the process's CPU time, or the wall time
    /// since `epoch`.
    fn now(self, epoch: Instant) -> Duration {
        match self {
            Clock::Cpu => process_cpu(),
            Clock::Wall => epoch.elapsed(),
        }
    }

    /// A deadline `budget` from now on this clock, or when `stop` is set.
    fn deadline(self, budget: Duration, stop: &Option<Arc<AtomicBool>>) -> Deadline {
        let deadline = match self {
            Clock::Cpu => Deadline::none().with_cpu_budget(budget),
            Clock::Wall => Deadline::none().with_wall(Instant::now().checked_add(budget)),
        };
        deadline.with_stop(stop.clone())
    }
}

/// A move chosen under a time budget.
#[derive(Clone, Debug)]
pub struct Played {
    /// The move.
    pub best: Move,
    /// Its value at the depth reached (exact if `solved`).
    pub value: i64,
    /// Deepest completed iteration (0: the best immediate move, unsearched).
    pub depth: u32,
    /// True when that depth reached the end of the game.
    pub solved: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time used.
    pub elapsed: Duration,
    /// The time the search was given (on the options' clock).
    pub limit: Duration,
}

/// The CPU time this move's search may use with `empties` cells left,
/// `seconds_left` for the rest of the game and `overhead` set aside for
/// every move still to make.
pub fn search_time(empties: u32, seconds_left: f64, overhead: Duration) -> Duration {
    let moves_left = f64::from(empties.div_ceil(2).max(1));
    // NaN compares false: no time to plan with.
    let left = if seconds_left > 0.0 {
        seconds_left.min(MAX_SECONDS_LEFT)
    } else {
        0.0
    };
    let spendable = left - overhead.as_secs_f64() * moves_left;
    if spendable <= 0.0 {
        return Duration::ZERO;
    }
    Duration::from_secs_f64(spendable * (FRONT_LOAD / moves_left).min(MAX_SHARE))
}

/// Chooses `p`'s move with `seconds_left` seconds (on the options' clock)
/// for the rest of the game.
pub fn play(board: &Board, p: Player, seconds_left: f64, options: &CompetitionOptions) -> Played {
    // What a search touched costs CPU time after it: the table's memory
    // is unmapped at exit. It grows with the search, so it is kept out of
    // the share in proportion.
    let limit =
        search_time(board.empty_count(), seconds_left, options.overhead).mul_f64(SEARCH_SHARE);
    play_for(board, p, limit, options)
}

/// Chooses `p`'s move with `limit` (on the options' clock) for this move's
/// search alone: no share of a game's time is planned, and no overhead
/// set aside.
pub fn play_for(board: &Board, p: Player, limit: Duration, options: &CompetitionOptions) -> Played {
    let start = Instant::now();
    let clock = options.clock;
    let at_start = clock.now(start);
    let empties = board.empty_count();
    if limit < MIN_SEARCH {
        let (best, value) = greedy(board, p);
        return Played {
            best,
            value,
            depth: 0,
            solved: empties == 1,
            nodes: 1,
            elapsed: start.elapsed(),
            limit,
        };
    }
    if let Some(played) = solve(board, p, limit, start, options) {
        return played;
    }
    let threads = match options.threads {
        _ if limit < MIN_PARALLEL => 1,
        0 => 1,
        t => t,
    };
    // Idle workers spin for a while after the last poll before they sleep.
    let extra = u32::try_from(threads - 1).unwrap_or(u32::MAX);
    let limit = limit.saturating_sub(PARALLEL_TAIL.saturating_mul(extra));
    // Every thread draws on the same CPU budget, and the pool's start-up
    // is charged to it too: the clock starts before the pool. A full solve
    // given up above was charged too.
    let started = clock.now(start);
    let limit = limit.saturating_sub(started.saturating_sub(at_start));
    let deadline = Arc::new(clock.deadline(limit, &options.stop));
    let slot = 8 * (3 + Board::key_len(board.n()));
    let table = (limit.as_secs_f64() * NODE_RATE / 4.0) as usize;
    let settings = Iterative {
        depth: empties,
        purpose: Play { eval: options.eval },
        deadline: Some(deadline.clone()),
        progress: options.progress.clone(),
        table_limit: Some(table.saturating_mul(slot).max(1 << 16)),
        ..Iterative::default()
    };
    let new_depth_before = limit.mul_f64(NEW_DEPTH_BEFORE);
    let (result, depth) = in_pool(threads, |parallel| {
        let settings = Iterative {
            threads: Threads::pool_if(parallel),
            ..settings
        };
        root::play(board, p, &settings, |_, _| {
            clock.now(start).saturating_sub(started) < new_depth_before && !deadline.poll()
        })
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

/// Usual CPU seconds of a full solve with `empties` cells left, one
/// thread, boards 5x5 to 8x8 alike (`profiles/2026-11-23-vm/solve-cost.txt`:
/// medians of about 0.05 s at 14 cells, 0.15 to 0.3 s at 16, 0.2 to 0.8 s
/// at 17, 0.7 to 3.6 s at 18, 3.9 to 5.6 s at 19): about 2.4 times more
/// per cell.
fn solve_cost(empties: u32) -> f64 {
    0.55 * 2.4f64.powi(empties as i32 - 17)
}

/// The exact move, when the position is small enough for the compact
/// engine, its full solve usually costs at most [`SOLVE_IF_WITHIN`] of the
/// move's time `limit`, and it finishes inside [`SOLVE_FOR`] of it; `None`
/// otherwise, having spent at most that.
fn solve(
    board: &Board,
    p: Player,
    limit: Duration,
    start: Instant,
    options: &CompetitionOptions,
) -> Option<Played> {
    let empties = board.empty_count();
    if solve_cost(empties) > limit.as_secs_f64() * SOLVE_IF_WITHIN {
        return None;
    }
    let limit = limit.mul_f64(SOLVE_FOR);
    let bytes = (limit.as_secs_f64() * SOLVE_TABLE_RATE) as usize;
    let table = root::table_bytes(board.n(), empties, empties).min(bytes);
    let compact = Arc::new(Compact::new(board, table)?);
    let deadline = Arc::new(options.clock.deadline(limit, &options.stop));
    let settings = Iterative {
        depth: empties,
        purpose: Exact {
            compact: Some(compact),
            direct: true,
        },
        deadline: Some(deadline),
        progress: options.progress.clone(),
        ..Iterative::default()
    };
    let (result, depth) = root::exact(board, p, &settings, |_, _| true);
    (depth == empties).then(|| Played {
        best: result.best,
        value: result.value,
        depth,
        solved: true,
        nodes: result.nodes,
        elapsed: start.elapsed(),
        limit,
    })
}

/// `p`'s move with the best immediate score, the first in canonical order
/// on ties, and that score.
pub fn greedy(board: &Board, p: Player) -> (Move, i64) {
    let r = immediate(board, p, &legal_moves(board, p));
    (r.best, r.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::legal_moves;
    use crate::game::random::{random_board, Rng};
    use crate::search::reference;

    #[test]
    fn time_share_keeps_every_later_moves_overhead() {
        let o = PROCESS_OVERHEAD;
        let a = search_time(20, 10.0, o);
        assert!(search_time(40, 10.0, o) < a);
        assert_eq!(search_time(20, 0.0, o), Duration::ZERO);
        assert_eq!(search_time(20, -1.0, o), Duration::ZERO);
        assert_eq!(search_time(20, f64::NAN, o), Duration::ZERO);
        assert_eq!(
            search_time(20, 1e300, o),
            search_time(20, MAX_SECONDS_LEFT, o)
        );
        // Less than the overheads of the moves left: nothing to search with.
        assert_eq!(search_time(20, 10.0 * o.as_secs_f64(), o), Duration::ZERO);
        // Play a whole game spending each move's share and its overhead:
        // every later move still finds its overhead set aside, whenever
        // the budget covered all the overheads at the start.
        for budget in [169.0 * o.as_secs_f64() + 0.01, 4.0, 10.0, 300.0] {
            let mut left = budget;
            for empties in (2..=338u32).rev().step_by(2) {
                let moves_left = f64::from(empties.div_ceil(2));
                left -= (search_time(empties, left, o) + o).as_secs_f64();
                assert!(left >= o.as_secs_f64() * (moves_left - 1.0) - 1e-9);
            }
        }
        // The first moves get more than an even share: they decide more.
        assert!(search_time(40, 10.0, o).as_secs_f64() > 10.0 / 20.0);
        // But no move takes more than its cap of what is left.
        let spendable = 10.0 - 2.0 * o.as_secs_f64();
        assert!(search_time(4, 10.0, o).as_secs_f64() <= spendable * MAX_SHARE + 1e-9);
    }

    #[test]
    fn no_time_still_gives_a_legal_move() {
        let mut rng = Rng::new(1);
        for n in [1, 5, 26] {
            let board = random_board(&mut rng, n, 99, 0.3);
            let played = play(&board, Player::O, 0.0, &CompetitionOptions::default());
            assert_eq!(played.depth, 0);
            assert_eq!(played.best, greedy(&board, Player::O).0);
            assert!(legal_moves(&board, Player::O).contains(&played.best));
        }
    }

    #[test]
    fn a_move_of_its_own_keeps_to_its_wall_time_and_its_stop() {
        let mut rng = Rng::new(3);
        let board = random_board(&mut rng, 8, 99, 0.3);
        let progress = Arc::new(Progress::default());
        let options = CompetitionOptions {
            threads: 1,
            clock: Clock::Wall,
            progress: Some(progress.clone()),
            ..CompetitionOptions::default()
        };
        let limit = Duration::from_millis(300);
        let played = play_for(&board, Player::X, limit, &options);
        assert!(legal_moves(&board, Player::X).contains(&played.best));
        // Not a share of a game's time: the move uses its own. Deepening
        // stops before a new depth past half of it.
        assert!(played.elapsed >= limit / 2, "{:?}", played.elapsed);
        assert!(played.elapsed < limit + Duration::from_millis(200));
        assert!(played.depth >= 1 && progress.depth_done() == played.depth);
        assert!(progress.nodes_seen() > 0);

        let stop = Arc::new(AtomicBool::new(true));
        let options = CompetitionOptions {
            stop: Some(stop),
            ..options
        };
        let played = play_for(&board, Player::X, Duration::from_secs(60), &options);
        assert!(legal_moves(&board, Player::X).contains(&played.best));
        assert!(
            played.elapsed < Duration::from_secs(1),
            "the stop was not heard"
        );
    }

    #[test]
    fn small_endgames_are_solved_exactly() {
        let mut rng = Rng::new(2);
        for k in 0..24 {
            // Ties are common with values up to 20; on 5x5 boards with up
            // to 9 empty cells the search under a clock may stop short of
            // the end, the full solve does not.
            let board = loop {
                let board = match k % 3 {
                    0 => random_board(&mut rng, 5, 99, 0.68),
                    _ => random_board(&mut rng, 4, 20, 0.6),
                };
                if board.empty_count() <= 9 {
                    break board;
                }
            };
            let empties = board.empty_count();
            let exact = reference::alphabeta(&board, Player::X, empties);
            for eval in [Eval::Score, Eval::Playout, Eval::Quiet] {
                let options = CompetitionOptions {
                    threads: 1,
                    eval,
                    ..CompetitionOptions::default()
                };
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
