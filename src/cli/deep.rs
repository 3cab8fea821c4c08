//! `solve --store` and `solve --split`: deep solves that keep what they
//! prove in a store file, so that a killed solve resumes, and that can be
//! cut into jobs run on this machine's threads.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::ProgressBar;
use stakeraid::jobs::{max_split, solve_local, DriverStats, Hint, Settings};
use stakeraid::store::{Store, StoreStats, StoreUse};
use stakeraid::{answer_text, check_move, Problem, Question};

/// The store named by `--store`, opened for `problem`'s board: read at
/// once, written as the search goes.
pub(super) fn open_store(
    path: &Path,
    problem: &Problem,
    min_nodes: u64,
) -> anyhow::Result<StoreUse> {
    anyhow::ensure!(
        matches!(problem.question, Question::Exact { .. }),
        "--store and --split solve MINIMAX and ALPHABETA inputs (COMPETITION has no exact answer)"
    );
    let store = Store::open(path, &problem.board)?;
    Ok(StoreUse {
        min_nodes,
        ..StoreUse::new(Arc::new(store))
    })
}

/// Fails if a write to the store failed during the search; otherwise
/// seals it: its log folded into the file, none left beside it, so that
/// it is one self-contained file (to copy or commit).
pub(super) fn finish_store(store: &StoreUse) -> anyhow::Result<()> {
    if let Some(e) = store.store.failure() {
        return Err(e).context("the answer was found, but the store missed some of its proofs");
    }
    store.store.seal()?;
    Ok(())
}

/// What the store did, for the progress line and `--stats`.
pub(super) fn store_note(stats: &StoreStats) -> String {
    let table = if stats.table_loaded + stats.table_saved > 0 {
        format!(
            "; table: {} entries read, {} saved",
            stats.table_loaded, stats.table_saved
        )
    } else {
        String::new()
    };
    format!(
        "store: {} positions, {} of them from earlier runs; {} bounds written (a position again as its bound narrows); {} searches answered from it{table}",
        stats.positions, stats.loaded, stats.written, stats.hits
    )
}

/// `--split`: the solve as jobs `split` plies below the root, each on
/// `threads` threads (0: one per core). Returns the text of
/// `output.txt`, the value and the driver's last counts.
pub(super) fn split_solve(
    problem: &Problem,
    split: u32,
    threads: usize,
    store: Option<&StoreUse>,
    hint: Option<Hint>,
    bar: &ProgressBar,
) -> anyhow::Result<(String, i64, DriverStats)> {
    let Question::Exact { depth, .. } = problem.question else {
        anyhow::bail!("--split solves MINIMAX and ALPHABETA inputs");
    };
    let most = max_split(&problem.board, depth);
    anyhow::ensure!(
        split <= most,
        "--split {split}: this solve is {} plies deep, so the cut can be 1 to {most} plies below the root",
        depth.min(problem.board.empty_count())
    );
    if let Some(hint) = hint {
        check_move(&problem.board, problem.player, hint.best)
            .with_context(|| format!("--hint: {} cannot be played here", hint.best))?;
    }
    let settings = Settings {
        split,
        store: store.map(|s| s.store.clone()),
        hint,
        ..Settings::default()
    };
    let start = Instant::now();
    let mut last = DriverStats::default();
    let answer = solve_local(
        &problem.board,
        problem.player,
        depth,
        settings,
        threads,
        |stats| {
            last = *stats;
            bar.set_message(split_progress(stats, start.elapsed()));
        },
    )?;
    let text = answer_text(&problem.board, problem.player, answer.best);
    Ok((text, answer.value, last))
}

fn split_progress(s: &DriverStats, elapsed: Duration) -> String {
    let rate = s.nodes as f64 / elapsed.as_secs_f64().max(1e-3) / 1e6;
    let left = s.known_left(elapsed).map_or(String::new(), |left| {
        format!(
            " ~{:.0} s for the {} jobs known ·",
            left.as_secs_f64(),
            s.running + s.queued
        )
    });
    format!(
        "· root moves {}/{} · jobs {} done, {} running, {} queued · {} from the store · {:.1} M nodes · {rate:.1} M nodes/s ·{left}",
        s.root_done,
        s.root_moves,
        s.done,
        s.running,
        s.queued,
        s.from_store,
        s.nodes as f64 / 1e6
    )
}
