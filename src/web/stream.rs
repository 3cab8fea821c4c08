//! Analysis streamed as server-sent events. The search deepens one depth at
//! a time (each an exact `api::analyse` to that depth), so that every
//! completed depth sends every root move's value: the heat map fills in
//! while the search goes on.
//!
//! Events: `start` (`id`, the depth aimed at), then one `depth` per
//! completed depth, then `done` (the deepest completed answer, its
//! `output.txt`, whether it was stopped) or `error`. `POST /api/stop?id=`
//! or closing the stream sets the search's stop flag.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::stream;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::caps::Caps;
use super::error::WebError;
use super::routes::query;
use crate::api::{Analysis, Grid, Limits, Position, SearchMode};

/// The transposition table of one streamed search.
const TABLE_BYTES: usize = 16 << 20;

/// What every request handler shares: the caps and the running searches'
/// stop flags by id.
#[derive(Clone)]
pub(crate) struct Shared {
    pub(crate) caps: Caps,
    running: Arc<Mutex<HashMap<u64, Arc<AtomicBool>>>>,
    next_id: Arc<AtomicU64>,
}

impl Shared {
    pub(crate) fn new(caps: Caps) -> Shared {
        Shared {
            caps,
            running: Arc::default(),
            next_id: Arc::new(AtomicU64::new(1)),
        }
    }
}

#[derive(Deserialize)]
pub(crate) struct AnalyseQuery {
    /// The position as the JSON of an [`api::Grid`](crate::api::Grid).
    grid: String,
    #[serde(default)]
    mode: SearchMode,
    depth: Option<u32>,
    time_ms: Option<u64>,
}

/// Sets the stop flag and forgets the search when the stream is dropped:
/// a closed tab stops its search.
struct StopOnDrop {
    id: u64,
    stop: Arc<AtomicBool>,
    running: Arc<Mutex<HashMap<u64, Arc<AtomicBool>>>>,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        if let Ok(mut running) = self.running.lock() {
            running.remove(&self.id);
        }
    }
}

#[derive(Serialize)]
struct DepthEvent<'a> {
    #[serde(flatten)]
    analysis: &'a Analysis,
    /// Nodes of every depth so far.
    total_nodes: u64,
    elapsed_us: u64,
    nodes_per_second: u64,
}

pub(crate) async fn analyse_stream(shared: Shared, q: AnalyseQuery) -> Result<Response, WebError> {
    // Step 1. Read and bound the request before taking a search place.
    let grid: Grid =
        serde_json::from_str(&q.grid).map_err(|e| WebError::bad(format!("grid: {e}")))?;
    let position = Position::from_grid(&grid).map_err(WebError::bad)?;
    if q.depth == Some(0) {
        return Err(WebError::bad("depth must be at least 1"));
    }
    let caps = &shared.caps;
    let time = q
        .time_ms
        .map_or(caps.max_time, Duration::from_millis)
        .min(caps.max_time);
    let target = q
        .depth
        .unwrap_or(u32::MAX)
        .min(position.board().empty_count());
    let permit = caps.try_search().ok_or_else(WebError::busy)?;

    // Step 2. Register the stop flag.
    let id = shared.next_id.fetch_add(1, Relaxed);
    let stop = Arc::new(AtomicBool::new(false));
    if let Ok(mut running) = shared.running.lock() {
        running.insert(id, stop.clone());
    }
    let guard = StopOnDrop {
        id,
        stop: stop.clone(),
        running: shared.running.clone(),
    };

    // Step 3. Deepen on a blocking thread, sending each depth.
    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    let threads = caps.threads;
    let mode = q.mode;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let json = |name: &str, value: &serde_json::Value| {
            Event::default().event(name).data(value.to_string())
        };
        let _ = tx.send(json(
            "start",
            &serde_json::json!({ "id": id, "target": target }),
        ));
        let start = Instant::now();
        let deadline = start + time;
        let mut total = 0u64;
        let mut last: Option<Analysis> = None;
        let mut stopped = false;
        for depth in 1..=target {
            let left = deadline.saturating_duration_since(Instant::now());
            if stop.load(Relaxed) || left.is_zero() || tx.is_closed() {
                stopped = true;
                break;
            }
            let limits = Limits {
                mode,
                depth: Some(depth),
                time: Some(left),
                threads,
                stop: Some(stop.clone()),
                // Many searches at once: each keeps a small table.
                table_bytes: Some(TABLE_BYTES),
                ..Limits::default()
            };
            let a = match crate::api::analyse(&position, &limits) {
                Ok(a) => a,
                Err(e) => {
                    let _ = tx.send(json(
                        "error",
                        &serde_json::json!({ "error": e.to_string() }),
                    ));
                    return;
                }
            };
            total += a.nodes;
            if !a.exact {
                // Cut short: the previous depth is the deepest complete one.
                stopped = true;
                break;
            }
            let elapsed = start.elapsed();
            let event = DepthEvent {
                analysis: &a,
                total_nodes: total,
                elapsed_us: elapsed.as_micros().try_into().unwrap_or(u64::MAX),
                nodes_per_second: (total as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            };
            let value = serde_json::to_value(&event).unwrap_or_default();
            let _ = tx.send(json("depth", &value));
            last = Some(a);
        }
        let done = serde_json::json!({
            "stopped": stopped,
            "analysis": last,
            "output": last.as_ref().map(Analysis::output_text),
            "total_nodes": total,
            "elapsed_us": u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
        });
        let _ = tx.send(json("done", &done));
    });

    // A comment every second: writing is how a dropped connection is
    // noticed while a deep iteration sends nothing.
    let events = stream::unfold((rx, guard), |(mut rx, guard)| async move {
        let event = rx.recv().await?;
        Some((Ok::<_, Infallible>(event), (rx, guard)))
    });
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(1)))
        .into_response())
}

pub(crate) async fn analyse(
    State(shared): State<Shared>,
    q: Result<Query<AnalyseQuery>, QueryRejection>,
) -> Result<Response, WebError> {
    analyse_stream(shared, query(q)?).await
}

#[derive(Deserialize)]
pub(crate) struct StopQuery {
    id: u64,
}

/// Stops a running search: it answers with its deepest completed depth.
pub(crate) async fn stop(
    State(shared): State<Shared>,
    q: Result<Query<StopQuery>, QueryRejection>,
) -> Result<Json<serde_json::Value>, WebError> {
    let id = query(q)?.id;
    let flag = shared.running.lock().ok().and_then(|r| r.get(&id).cloned());
    match flag {
        Some(flag) => {
            flag.store(true, Relaxed);
            Ok(Json(serde_json::json!({ "stopped": id })))
        }
        None => Err(WebError::bad(format!("no running search {id}"))),
    }
}
