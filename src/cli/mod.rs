//! The subcommands of the `stakeraid` binary, one module each.

pub mod bench;
pub mod io;
pub mod position;
pub mod solve;
