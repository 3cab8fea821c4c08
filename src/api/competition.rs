//! The competition engine's move with a time of its own, on the wall
//! clock: for a person waiting at a board, in a process (a server) whose
//! other searches a CPU clock would count too.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::limits::check_threads;
use super::{ApiError, Position, Watch};
use crate::engine::competition::{self, Clock, CompetitionOptions, Played};
use crate::search::Progress as Counters;

/// The competition engine's move in `position`, its search given `time` of
/// wall time on `threads` threads (0: one), or until `stop` is set; the
/// best move found by then is played. `on_start` gets the search's
/// [`Watch`] before it starts.
pub fn competition_move(
    position: &Position,
    time: Duration,
    threads: usize,
    stop: Option<Arc<AtomicBool>>,
    on_start: impl FnOnce(Watch),
) -> Result<Played, ApiError> {
    check_threads(threads)?;
    let counters = Arc::new(Counters::default());
    on_start(Watch(counters.clone()));
    let options = CompetitionOptions {
        threads,
        clock: Clock::Wall,
        stop,
        progress: Some(counters),
        ..CompetitionOptions::default()
    };
    Ok(competition::play_for(
        position.board(),
        position.player(),
        time,
        &options,
    ))
}
