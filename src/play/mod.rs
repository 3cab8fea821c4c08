//! Games between agents: the match arena and the older variant's driver.

pub mod arena;
pub mod driver;
