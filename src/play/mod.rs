//! Games between movers: one game's bookkeeping ([`game`]), who makes the
//! moves ([`mover`], [`agent`]), the one game loop ([`table`]) and what it
//! records ([`record`], [`forfeit`]); matches over many boards ([`arena`])
//! with their totals ([`tally`], [`stats`]), the referee for programs, and
//! the older variant's driver.

pub(crate) mod agent;
pub mod arena;
pub(crate) mod driver;
pub(crate) mod forfeit;
pub(crate) mod game;
pub(crate) mod mover;
pub(crate) mod record;
pub mod referee;
pub(crate) mod stats;
pub(crate) mod table;
pub(crate) mod tally;
