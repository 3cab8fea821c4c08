//! What one request may cost. The server runs on a person's own machine,
//! where a forgotten tab or a script in a loop must not take every core.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The bounds the server enforces.
#[derive(Clone, Debug)]
pub struct Caps {
    /// Longest wall time of one analysis.
    pub max_time: Duration,
    /// Worker threads of one analysis.
    pub threads: usize,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// Largest tree (in minimax nodes, estimated before searching) the
    /// tree view records.
    pub max_tree_nodes: u64,
    searches: Arc<Semaphore>,
}

impl Caps {
    /// Searches of at most `max_time` on `threads` threads, at most
    /// `max_searches` at once.
    pub fn new(max_time: Duration, threads: usize, max_searches: usize) -> Caps {
        Caps {
            max_time,
            threads: threads.max(1),
            max_body: 64 << 10,
            max_tree_nodes: 50_000,
            searches: Arc::new(Semaphore::new(max_searches)),
        }
    }

    /// A place for one more search, or `None` when all are taken: the
    /// caller is refused rather than queued, so that no request waits
    /// behind searches it cannot see.
    pub fn try_search(&self) -> Option<OwnedSemaphorePermit> {
        self.searches.clone().try_acquire_owned().ok()
    }
}

impl Default for Caps {
    /// One minute and one thread per search, two searches at once.
    fn default() -> Caps {
        Caps::new(Duration::from_secs(60), 1, 2)
    }
}
