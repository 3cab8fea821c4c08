//! `GET /api/engine`: the competition engine's move with `time_ms` of wall
//! time for this move alone (default [`DEFAULT_TIME`], at most the caps'
//! time per search), streamed
//! like an analysis so that the page shows it thinking and can stop it.
//!
//! Events: `start` (`id`, the time granted), `progress` while it searches,
//! then `done` (the move, its value at the depth reached, the move's
//! `output.txt`, whether it was stopped) or `error`.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::Response;
use serde::Deserialize;

use super::analysis::at_least_one;
use super::error::{query, WebError};
use super::progress::Ticker;
use super::stream::{self, micros, position_of, Shared, Sink};
use crate::api::{competition_move, Position};

/// The engine's time for a move when the request gives none.
pub(crate) const DEFAULT_TIME: Duration = Duration::from_secs(2);

#[derive(Deserialize)]
pub(crate) struct EngineQuery {
    /// The position as the JSON of an [`api::Grid`](crate::api::Grid).
    grid: String,
    /// Wall time in milliseconds, at least 1.
    time_ms: Option<String>,
}

pub(crate) async fn engine_move(
    State(shared): State<Shared>,
    q: Result<Query<EngineQuery>, QueryRejection>,
) -> Result<Response, WebError> {
    let q = query(q)?;
    let position = position_of(&q.grid)?;
    let time = q
        .time_ms
        .map(|t| at_least_one::<u64>("time_ms", &t))
        .transpose()?
        .map_or(DEFAULT_TIME, Duration::from_millis);
    let caps = &shared.caps;
    let time = time.min(caps.max_time);
    let permit = caps.try_search().ok_or_else(WebError::busy)?;
    let threads = caps.threads;
    Ok(stream::open(&shared, permit, move |id, stop, sink| {
        think(&position, time, threads, id, &stop, &sink);
    }))
}

fn think(
    position: &Position,
    time: Duration,
    threads: usize,
    id: u64,
    stop: &Arc<AtomicBool>,
    sink: &Sink,
) {
    sink.send(
        "start",
        &serde_json::json!({ "id": id, "time_us": micros(time) }),
    );
    let start = Instant::now();
    let ticker = Ticker::start(sink.clone(), start);
    let watched = |watch| ticker.watch(watch, None, 0);
    let played = competition_move(position, time, threads, Some(stop.clone()), watched);
    let seen = ticker.unwatch();
    drop(ticker);
    match played {
        Ok(played) => sink.send(
            "done",
            &serde_json::json!({
                "stopped": stop.load(Relaxed),
                "move": played.best.to_string(),
                "value": played.value,
                "depth": played.depth,
                "solved": played.solved,
                "output": crate::answer_text(position.board(), position.player(), played.best),
                // The engine counts its completed depths; the watch also
                // the one its time cut short.
                "total_nodes": played.nodes.max(seen),
                "elapsed_us": micros(start.elapsed()),
            }),
        ),
        Err(e) => sink.send("error", &serde_json::json!({ "error": e.to_string() })),
    }
}
