//! `progress` events: while a search runs, what its [`Watch`] shows is
//! sent about every [`PERIOD`], so that a depth that takes seconds does not
//! leave the page silent.
//!
//! The search's thread hands each search's watch to a [`Ticker`]; a task
//! on the server's runtime reads it. Both take the same lock to send, and
//! the search takes the watch back before it sends the event of the work
//! the watch counted: no progress event follows the `depth` or `done` it
//! leads to.

use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use serde::Serialize;
use tokio::sync::Notify;

use super::stream::{micros, per_second, Sink};
use crate::api::Watch;

/// How often progress is sent.
pub(crate) const PERIOD: Duration = Duration::from_millis(250);

/// The search being watched, if any.
#[derive(Default)]
struct Watched {
    search: Option<Search>,
    /// The stream's search is over: the task ends.
    over: bool,
}

struct Search {
    watch: Watch,
    /// The depth it goes to: an analysis's (a search that deepens as its
    /// time allows has none).
    depth: Option<u32>,
    /// Nodes of the stream's earlier searches.
    before: u64,
}

/// One `progress` event.
#[derive(Serialize)]
struct ProgressEvent {
    /// The depth of the running search, when it has one.
    depth: Option<u32>,
    /// The depth's move and value are proved: what runs now are the other
    /// root moves' values (MINIMAX mode) or the principal variation.
    finishing: bool,
    /// Nodes so far, every search of the stream included.
    total_nodes: u64,
    nodes_per_second: u64,
    elapsed_us: u64,
    /// Where the root of the running iteration stands, once the engine
    /// has reported it.
    root: Option<RootEvent>,
}

#[derive(Serialize)]
struct RootEvent {
    /// The iteration running (the search deepens towards its depth).
    depth: u32,
    /// The root move being searched, from 1.
    number: u32,
    moves: u32,
    /// The best move so far and what is known of its value:
    /// `lo <= value <= hi`, exact once they are equal.
    best: Option<String>,
    lo: i64,
    hi: i64,
}

/// Sends the progress of a stream's searches until dropped.
pub(crate) struct Ticker {
    watched: Arc<Mutex<Watched>>,
    ended: Arc<Notify>,
}

impl Ticker {
    /// Starts sending to `sink`; times count from `start`, the stream's.
    /// Called on the server's runtime (a blocking task's thread is).
    pub(crate) fn start(sink: Sink, start: Instant) -> Ticker {
        let watched = Arc::new(Mutex::new(Watched::default()));
        let ended = Arc::new(Notify::new());
        let (shared, end) = (watched.clone(), ended.clone());
        tokio::spawn(async move {
            let mut every = tokio::time::interval_at(tokio::time::Instant::now() + PERIOD, PERIOD);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                // The stream ends when its last sender goes: this one goes
                // with the search, not a period later.
                tokio::select! {
                    _ = every.tick() => {}
                    () = end.notified() => break,
                }
                let watched = shared.lock();
                if watched.over || sink.is_closed() {
                    break;
                }
                if let Some(search) = &watched.search {
                    sink.send("progress", &event(search, start.elapsed()));
                }
            }
        });
        Ticker { watched, ended }
    }

    /// A search starts: `depth` deep (if it has a depth), after `before`
    /// nodes of the stream's earlier searches.
    pub(crate) fn watch(&self, watch: Watch, depth: Option<u32>, before: u64) {
        self.watched.lock().search = Some(Search {
            watch,
            depth,
            before,
        });
    }

    /// The search ended; called before its result is sent. The nodes its
    /// watch counted.
    pub(crate) fn unwatch(&self) -> u64 {
        let search = self.watched.lock().search.take();
        search.map_or(0, |s| s.watch.nodes())
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        let mut watched = self.watched.lock();
        watched.search = None;
        watched.over = true;
        // Stored if the task is not waiting yet: it is never lost.
        self.ended.notify_one();
    }
}

fn event(search: &Search, elapsed: Duration) -> ProgressEvent {
    let watch = &search.watch;
    let total = search.before + watch.nodes();
    let root = watch.root();
    // Once an analysis has its depth, the searches that follow (the
    // principal variation, MINIMAX mode's root values) report the roots of
    // later positions: not this one's.
    let finishing = search.depth.is_some_and(|d| watch.depth_done() >= d);
    ProgressEvent {
        depth: search.depth,
        finishing,
        total_nodes: total,
        nodes_per_second: per_second(total, elapsed),
        elapsed_us: micros(elapsed),
        // Depth 0: the engine has not reached its root yet.
        root: (!finishing && root.depth > 0 && root.moves > 0).then(|| RootEvent {
            depth: root.depth,
            number: (root.done + 1).min(root.moves),
            moves: root.moves,
            best: root.best.map(|m| m.to_string()),
            lo: root.lo,
            hi: root.hi,
        }),
    }
}
