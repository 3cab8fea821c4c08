//! `stakeraid serve`: the JSON-lines server on the standard streams.

use stakeraid::serve::{serve_with, AtEnd};

/// Arguments of `stakeraid serve` (its help text is on the subcommand).
#[derive(clap::Args, Debug, Default)]
pub struct ServeArgs {
    /// At the end of standard input, let every search run to its own
    /// limits instead (for a file of requests piped in at once).
    #[arg(long)]
    pub finish: bool,
}

/// Serves requests from standard input until it closes.
pub fn run_serve(args: &ServeArgs) -> anyhow::Result<()> {
    let input = std::io::BufReader::new(std::io::stdin());
    let at_end = if args.finish {
        AtEnd::Finish
    } else {
        AtEnd::Stop
    };
    serve_with(input, std::io::stdout().lock(), at_end)?;
    Ok(())
}
