//! The subcommands of the `stakeraid` binary, one module each.

/// The built-in agents as `match`, `referee` and `play` take them: one
/// text for every help that lists them (a macro, since `concat!` takes
/// literals only).
macro_rules! agents {
    () => {
        "random, greedy, textbook:DEPTH, ab:DEPTH, comp:SECONDS (per game), \
         comp-playout:SECONDS or comp-bare:SECONDS (the same with a simpler evaluation)"
    };
}

pub mod analyse;
mod batch;
pub mod bench;
mod class;
mod deep;
pub mod driver;
pub mod grade;
pub mod io;
pub mod limits;
pub mod load;
pub mod matches;
pub mod play;
pub mod position;
pub mod referee;
pub mod serve;
pub mod solve;
#[cfg(feature = "web")]
pub mod web;

pub use limits::parse_threads;
