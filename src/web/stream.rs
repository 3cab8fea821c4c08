//! Searches streamed as server-sent events: each runs on a blocking thread
//! under an id, holding one of the caps' search places, and sends its
//! events through a [`Sink`]. `POST /api/stop?id=` or closing the stream
//! sets the search's stop flag.
//!
//! The searches: the analysis ([`super::analysis`]) and the engine's move
//! ([`super::engine`]). Both send `start` (with the id) first, `progress`
//! while they search ([`super::progress`]), and `done` or `error` last.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::stream;
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, OwnedSemaphorePermit};

use super::caps::Caps;
use super::error::{query, WebError};
use crate::api::{Grid, Position};

type Running = Arc<Mutex<HashMap<u64, Arc<AtomicBool>>>>;

/// What every request handler shares: the caps and the running searches'
/// stop flags by id.
#[derive(Clone)]
pub(crate) struct Shared {
    pub(crate) caps: Caps,
    running: Running,
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

/// The position of a stream's query, the JSON of a [`Grid`], checked by
/// the library.
pub(crate) fn position_of(grid: &str) -> Result<Position, WebError> {
    let grid: Grid = serde_json::from_str(grid).map_err(|e| WebError::bad(format!("grid: {e}")))?;
    Position::from_grid(&grid).map_err(WebError::bad)
}

/// A duration in whole microseconds, as the events carry times.
pub(crate) fn micros(t: Duration) -> u64 {
    t.as_micros().try_into().unwrap_or(u64::MAX)
}

/// `nodes` searched in `elapsed`, per second.
pub(crate) fn per_second(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64
}

/// The events of one stream on their way to the client.
#[derive(Clone)]
pub(crate) struct Sink(mpsc::UnboundedSender<Event>);

impl Sink {
    /// Sends the event `name` with `data` as JSON; a client that has gone
    /// is not an error (the stop flag ends the search).
    pub(crate) fn send(&self, name: &str, data: &impl Serialize) {
        if let Ok(text) = serde_json::to_string(data) {
            let _ = self.0.send(Event::default().event(name).data(text));
        }
    }

    /// True once the client has gone.
    pub(crate) fn is_closed(&self) -> bool {
        self.0.is_closed()
    }
}

/// Sets the stop flag and forgets the search when the stream is dropped:
/// a closed tab stops its search.
struct StopOnDrop {
    id: u64,
    stop: Arc<AtomicBool>,
    running: Running,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        self.running.lock().remove(&self.id);
    }
}

/// Runs `search` on a blocking thread, holding `permit`, with a new id and
/// stop flag, and answers with the stream of the events it sends.
pub(crate) fn open(
    shared: &Shared,
    permit: OwnedSemaphorePermit,
    search: impl FnOnce(u64, Arc<AtomicBool>, Sink) + Send + 'static,
) -> Response {
    let id = shared.next_id.fetch_add(1, Relaxed);
    let stop = Arc::new(AtomicBool::new(false));
    shared.running.lock().insert(id, stop.clone());
    let guard = StopOnDrop {
        id,
        stop: stop.clone(),
        running: shared.running.clone(),
    };
    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        search(id, stop, Sink(tx));
    });
    // A comment every second: writing is how a dropped connection is
    // noticed while a deep iteration sends nothing.
    let events = stream::unfold((rx, guard), |(mut rx, guard)| async move {
        let event = rx.recv().await?;
        Some((Ok::<_, Infallible>(event), (rx, guard)))
    });
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(1)))
        .into_response()
}

#[derive(Deserialize)]
pub(crate) struct StopQuery {
    id: u64,
}

/// Stops a running search: an analysis answers with its deepest completed
/// depth, the engine with the best move it found.
pub(crate) async fn stop(
    State(shared): State<Shared>,
    q: Result<Query<StopQuery>, QueryRejection>,
) -> Result<Json<serde_json::Value>, WebError> {
    let id = query(q)?.id;
    let flag = shared.running.lock().get(&id).cloned();
    match flag {
        Some(flag) => {
            flag.store(true, Relaxed);
            Ok(Json(serde_json::json!({ "stopped": id })))
        }
        None => Err(WebError::bad(format!("no running search {id}"))),
    }
}
