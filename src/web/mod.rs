//! `stakeraid web`: an analysis board served over HTTP on loopback. The
//! page (`web/` at the crate root) is built into the binary; every rule —
//! legality, scores, values — is decided here by the library, never by the
//! page's script.
//!
//! - `routes`: the page's files and the small JSON endpoints (parse,
//!   random position, play a move, export, the alpha-beta tree).
//! - `stream`: searches streamed as server-sent events, stopped by a
//!   stop request or a dropped connection: `analysis`, one event per
//!   completed depth, and `engine`, the competition engine's move at a
//!   time per move; both send `progress` while they search.
//! - [`caps`]: what one request may cost, and the bound on concurrent
//!   searches.

use std::net::SocketAddr;

use axum::Router;

mod analysis;
pub mod caps;
mod engine;
mod error;
mod progress;
mod routes;
mod stream;
mod view;

pub use caps::Caps;

/// The whole application: the page, the JSON endpoints and the stream,
/// behind a request body limit.
pub fn router(caps: Caps) -> Router {
    routes::router(caps)
}

/// Serves the board on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, caps: Caps) -> std::io::Result<()> {
    axum::serve(listener, router(caps)).await
}

/// Binds `127.0.0.1:port` (0: any free port): the board is for this
/// machine only.
pub async fn bind_loopback(port: u16) -> std::io::Result<(tokio::net::TcpListener, SocketAddr)> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let addr = listener.local_addr()?;
    Ok((listener, addr))
}
