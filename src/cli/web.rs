//! `stakeraid web`: the analysis board on loopback.

use std::io::Write;

use anyhow::Context;
use stakeraid::web::{bind_loopback, serve, Caps};

/// Arguments of `stakeraid web`.
#[derive(clap::Args, Debug)]
pub struct WebArgs {
    /// Port on 127.0.0.1; 0 takes any free port.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    open: bool,
}

/// Serves the board until the process is stopped. The first line on
/// standard output is the address, for scripts that start it on port 0.
pub fn run_web(args: &WebArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(async {
        let (listener, addr) = bind_loopback(args.port)
            .await
            .with_context(|| format!("listening on 127.0.0.1:{}", args.port))?;
        let url = format!("http://{addr}/");
        let mut out = std::io::stdout().lock();
        writeln!(out, "stakeraid web: {url}")?;
        out.flush()?;
        drop(out);
        if args.open {
            // Best effort: a machine without a desktop still serves.
            let _ = std::process::Command::new("xdg-open").arg(&url).spawn();
        }
        serve(listener, Caps::default()).await.context("serving")
    })
}
