//! `GET /api/analyse`: analysis streamed one depth at a time (each an exact
//! `api::analyse` to that depth), so that every completed depth sends every
//! root move's value: the heat map fills in while the search goes on.
//!
//! Events: `start` (`id`, the depth aimed at), `progress` while a depth
//! runs, one `depth` per completed depth, then `done` (the deepest
//! completed answer, its `output.txt`, whether it was stopped) or `error`.
//!
//! Every analysis sent says what was asked as [`crate::api::analyse`]
//! does: `requested_depth` is the depth aimed at (capped at the empty
//! cells), and `exact` is true only for the answer at that depth. A search
//! stopped short of it answers with its deepest completed depth, not exact.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::Response;
use serde::{Deserialize, Serialize};

use super::error::{query, WebError};
use super::progress::Ticker;
use super::stream::{self, micros, per_second, position_of, Shared, Sink};
use crate::api::{analyse_watched, Analysis, Limits, Position, SearchMode};

/// The transposition table of one streamed search.
const TABLE_BYTES: usize = 16 << 20;

#[derive(Deserialize)]
pub(crate) struct AnalyseQuery {
    /// The position as the JSON of an [`api::Grid`](crate::api::Grid).
    grid: String,
    #[serde(default)]
    mode: SearchMode,
    /// Plies, at least 1; without it the search deepens until its time
    /// runs out or the game ends. Read as text, so that a bad one is
    /// refused with a message that names it.
    depth: Option<String>,
    /// Wall time in milliseconds, at least 1 (default and most: the caps'
    /// time per search).
    time_ms: Option<String>,
}

/// The whole number `text` given for `name`, at least 1.
pub(crate) fn at_least_one<T>(name: &str, text: &str) -> Result<T, WebError>
where
    T: std::str::FromStr + PartialOrd + From<u8>,
{
    text.trim()
        .parse::<T>()
        .ok()
        .filter(|n| *n >= T::from(1))
        .ok_or_else(|| {
            WebError::bad(format!(
                "{name} must be at least 1 (a whole number), not {text:?}"
            ))
        })
}

#[derive(Serialize)]
struct DepthEvent<'a> {
    #[serde(flatten)]
    analysis: &'a Analysis,
    /// Nodes of every depth so far, their principal variations' included.
    total_nodes: u64,
    elapsed_us: u64,
    nodes_per_second: u64,
}

pub(crate) async fn analyse(
    State(shared): State<Shared>,
    q: Result<Query<AnalyseQuery>, QueryRejection>,
) -> Result<Response, WebError> {
    // Read and bound the request before taking a search place.
    let q = query(q)?;
    let position = position_of(&q.grid)?;
    let depth = q
        .depth
        .map(|d| at_least_one::<u32>("depth", &d))
        .transpose()?;
    let time_ms = q
        .time_ms
        .map(|t| at_least_one::<u64>("time_ms", &t))
        .transpose()?;
    let caps = &shared.caps;
    let time = time_ms
        .map_or(caps.max_time, Duration::from_millis)
        .min(caps.max_time);
    let target = depth
        .unwrap_or(u32::MAX)
        .min(position.board().empty_count());
    let permit = caps.try_search().ok_or_else(WebError::busy)?;
    let plan = Plan {
        position,
        mode: q.mode,
        target,
        time,
        threads: caps.threads,
    };
    Ok(stream::open(&shared, permit, move |id, stop, sink| {
        deepen(&plan, id, &stop, &sink);
    }))
}

/// What one analysis searches.
struct Plan {
    position: Position,
    mode: SearchMode,
    target: u32,
    time: Duration,
    threads: usize,
}

/// Searches depth 1, 2, ... up to the plan's, sending each.
fn deepen(plan: &Plan, id: u64, stop: &Arc<AtomicBool>, sink: &Sink) {
    sink.send(
        "start",
        &serde_json::json!({ "id": id, "target": plan.target }),
    );
    let start = Instant::now();
    let ticker = Ticker::start(sink.clone(), start);
    let deadline = start + plan.time;
    let mut total = 0u64;
    let mut last: Option<Analysis> = None;
    let mut stopped = false;
    for depth in 1..=plan.target {
        let left = deadline.saturating_duration_since(Instant::now());
        if stop.load(Relaxed) || left.is_zero() || sink.is_closed() {
            stopped = true;
            break;
        }
        let limits = Limits {
            mode: plan.mode,
            depth: Some(depth),
            time: Some(left),
            threads: plan.threads,
            stop: Some(stop.clone()),
            // Many searches at once: each keeps a small table.
            table_bytes: Some(TABLE_BYTES),
            ..Limits::default()
        };
        let watched = |watch| ticker.watch(watch, Some(depth), total);
        let analysed = analyse_watched(&plan.position, &limits, watched, |_| {});
        let seen = ticker.unwatch();
        let a = match analysed {
            Ok(a) => a,
            Err(e) => {
                drop(ticker);
                sink.send("error", &serde_json::json!({ "error": e.to_string() }));
                return;
            }
        };
        // The analysis leaves the principal variation's nodes out of its
        // count, the watch does not (short of each thread's last few): the
        // larger is the closer to the work done, and keeps the progress
        // counts below the next depth's.
        total += a.nodes.max(seen);
        if !a.exact {
            // Cut short: the previous depth is the deepest complete one.
            stopped = true;
            break;
        }
        let a = answering(a, plan.target, false);
        let elapsed = start.elapsed();
        sink.send(
            "depth",
            &DepthEvent {
                analysis: &a,
                total_nodes: total,
                elapsed_us: micros(elapsed),
                nodes_per_second: per_second(total, elapsed),
            },
        );
        last = Some(a);
    }
    drop(ticker);
    let last = last.map(|a| answering(a, plan.target, stopped));
    let done = serde_json::json!({
        "stopped": stopped,
        "analysis": last,
        "output": last.as_ref().map(Analysis::output_text),
        "total_nodes": total,
        "elapsed_us": micros(start.elapsed()),
    });
    sink.send("done", &done);
}

/// `a`, the exact analysis of one depth, as an answer to the plan's: the
/// depth asked for is `target`, and the answer is exact only at it.
fn answering(a: Analysis, target: u32, stopped: bool) -> Analysis {
    Analysis {
        requested_depth: target,
        exact: a.depth == target,
        stopped: a.stopped || stopped,
        ..a
    }
}
