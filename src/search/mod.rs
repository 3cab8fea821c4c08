//! The searches. [`reference`] holds the textbook oracle.

pub mod reference;

pub use reference::Decision;
