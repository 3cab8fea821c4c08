//! Engine agreement that needs the crate's inside: the general engine held
//! against the compact one and the textbook search where the compact one
//! would otherwise take over.

mod agreement;
mod compact;
