//! Games between agents: one game's bookkeeping, the match arena, the
//! referee for programs, and the older variant's driver.

pub mod arena;
pub mod driver;
pub mod game;
pub mod referee;
pub mod stats;
