//! The worker threads of a search.

/// Runs `f` on a pool of `threads` workers (0: one per core), telling it
/// whether it may split work; a single thread runs in place.
pub fn in_pool<T: Send>(threads: usize, f: impl FnOnce(bool) -> T + Send) -> T {
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    if threads == 1 {
        return f(false);
    }
    // Deep endgame searches recurse once per empty cell: give workers room.
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(64 << 20)
        .build()
    {
        Ok(pool) => pool.install(|| f(true)),
        Err(_) => f(false),
    }
}
