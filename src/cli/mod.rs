//! The subcommands of the `stakeraid` binary, one module each.

pub mod analyse;
pub mod bench;
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
