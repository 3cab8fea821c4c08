//! Games between movers: one game's bookkeeping ([`game`]), who makes the
//! moves ([`mover`], [`agent`]), the one game loop ([`table`]) and what it
//! records ([`record`], [`forfeit`]); matches over many boards ([`arena`])
//! with their totals ([`tally`], [`stats`]), the referee for programs, and
//! the older variant's driver.

pub mod agent;
pub mod arena;
pub mod driver;
pub mod forfeit;
pub mod game;
pub mod mover;
pub mod record;
pub mod referee;
pub mod stats;
pub mod table;
pub mod tally;
