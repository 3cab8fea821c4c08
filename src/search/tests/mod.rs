//! Engine agreement that needs the crate's inside: the general engine held
//! against the compact one and the textbook search where the compact one
//! would otherwise take over.

mod agreement;
mod choice;
mod compact;
mod regions;

/// A pool of `threads` workers, as the solver builds it.
fn pool(threads: usize) -> rayon::ThreadPool {
    crate::engine::pool::build(threads).expect("the test's threads start")
}
