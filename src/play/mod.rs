//! Games between agents: the match arena, the referee for programs, and
//! the older variant's driver.

pub mod arena;
pub mod driver;
pub mod referee;
