//! A deep solve cut into independent jobs, so that it can run on many
//! processes or machines and be stopped and resumed at any moment.
//!
//! A job is one null-window test: is the value of this position, for the
//! side to move, searched this many plies deep, at least `beta`? It is
//! answered by one ordinary search ([`run_job`]) with a fail-soft bound.
//! The [`Driver`] keeps the top of the game tree: it cuts the solve into
//! jobs, takes their results in any order, and derives the answer. The
//! same driver serves the local runner ([`solve_local`], this
//! process) and the Python package's Ray runner, which calls it through
//! the bindings; both write every proven bound to a [`Store`] as it
//! arrives, and a driver started again on the same store re-derives
//! everything that was proved in moments, losing only the jobs that were
//! running.
//!
//! # Why the answer is the textbook answer
//!
//! *Tests.* Every question the driver asks is a test `T(P, beta)`: a
//! fail-soft search of the window `(beta - 1, beta)`, which returns `t`
//! with `value(P) >= t` if `t >= beta` and `value(P) <= t` if `t < beta`.
//! A job answers one directly. The driver answers the others by expanding
//! `P` (negamax: a child's value for its mover is minus the parent's):
//! `value(P) >= beta` exactly when some child `c` has `value(c) <= -beta`,
//! that is when the child's test `T(c, 1 - beta)` fails low. So the
//! children are tested with `1 - beta`; the first that fails low with
//! `t_c` ends the node with `t = -t_c >= beta` (a lower bound, since
//! `value(P) >= -value(c) >= -t_c`); if all fail high, every
//! `value(c) >= t_c`, so `value(P) <= max(-t_c) < beta`, and that maximum
//! is the node's `t`. Young Brothers Wait: the eldest child (best by a
//! shallow search) is tested alone, and only if it does not end the node
//! are the others tested, all at once.
//!
//! *Children.* Inside the tree the driver, like the engines, tests one
//! child per empty cell: the Raid where it flips something, else the
//! Stake. `src/search/README.md` argues why this keeps every value (the
//! score is monotone in ownership); it is never done at the root.
//!
//! *The root.* The root keeps the engines' tie-break layer
//! (`src/search/README.md`, "The tie-break layer" and "Exact values by
//! tests"): its candidates are the legal moves less the Raids that flip
//! nothing; the first, in shallow-search order (or the move a hint names,
//! its first test at the hinted value), gets its exact value from a
//! sequence of tests; then every other candidate `i` is tested against
//! its bar, the most the tests so far have proved of the others: `lo_k`
//! for a candidate `k` before it and `lo_k - 1` for one after it, `lo_k`
//! being what `k`'s tests proved it worth at least (where only the best
//! `(bv, bi)` is known, the engines' bar: `bv - 1` if `i < bi`, else
//! `bv`). One proved worth at most its bar is set aside: some `k` is
//! worth more, or as much and comes first. One proved above it gets its
//! exact value from tests and may replace the best; one that another's
//! proofs pass goes back to a test at its new bar. Its tests at or below
//! the bar may be cancelled (while no worker idles): whatever they
//! return, the test at the bar is still needed. The first maximal move
//! in canonical order, `a`, is never set aside: its bar is below `v_a`,
//! as every `k` before it is worth less and none after it more. So it
//! ends with its exact value, and the best of the exact values found,
//! ties to the earliest, is its, whatever order the tests finish in,
//! which is all that running them as jobs changes.
//!
//! *Stopped jobs.* A job with a budget of nodes that reaches it returns
//! no bound; the driver then answers its test by its children's tests,
//! as it answers any split node, which the argument above shows answers
//! the same. What the stopped job returns of those children is what its
//! compact table holds from finished searches at the children's plies
//! (the engine stores nothing once a search is stopped): bounds proved by
//! sound searches, so written to the store they settle only what the
//! store may.
//!
//! *Tests asked ahead.* Asking several tests of one root move's value at
//! once (the next two, or, for workers that would idle, any threshold its
//! tests may ask later) changes only which sound bounds arrive and when:
//! each narrows `lo..=hi` whenever it comes back, and the value is `lo`
//! once they meet. A candidate tested at its bar may be tested above it
//! too: a pass there passes the bar as well, a fail bounds it from above.
//!
//! *The store.* A stored bound is a bound on the same position's value at
//! the same number of plies, proved earlier by a sound search; a test
//! settled by one returns what the search would be allowed to return, as
//! with a transposition table. So a resumed solve, or one that shares a
//! store with others, gives the same answer.

mod driver;
mod job;
mod local;
mod scaling;
mod simulate;

pub use driver::{Driver, DriverStats, Hint, Settings, SplitAnswer};
pub use job::{run_job, run_job_until, Job, JobError, JobFault, JobResult, Proved, Share};
pub use local::solve_local;
pub use scaling::{DirectSolve, Scaling, TooSmall};
pub use simulate::{simulate, Cluster, JobClock, Simulated, Simulator, TABLE_BUDGET};

use crate::game::{Board, Move, MoveKind, Player, Square};
use crate::store::Store;

#[cfg(test)]
mod tests;

/// The deepest cut of a solve `plies` deep (at most the empty cells) on
/// `board`: a job searches at least one ply. Deeper would only make more
/// of the driver's own tests, and none of them jobs.
pub fn max_split(board: &Board, plies: u32) -> u32 {
    plies.min(board.empty_count()).saturating_sub(1).max(1)
}

/// Where the driver keeps what it proved: always a store, in memory when
/// the caller gave none, so that the same positions tested again at other
/// windows (as the root's tests do) are settled without a new job.
fn memory_store(board: &Board) -> Store {
    Store::in_memory(board)
}

/// One child per empty cell, row-major: the Raid where it flips
/// something, else the Stake (see the module docs).
pub(super) fn one_per_cell(board: &Board, p: Player) -> Vec<Move> {
    let n = board.n();
    let mut moves = Vec::with_capacity(board.empty_count() as usize);
    for r in 0..n {
        let flipping = board.flipping_row(p, r);
        for c in 0..n {
            if board.square(r, c) == Square::Empty {
                let kind = if flipping & (1 << c) != 0 {
                    MoveKind::Raid
                } else {
                    MoveKind::Stake
                };
                moves.push(Move::new(r, c, kind));
            }
        }
    }
    moves
}
