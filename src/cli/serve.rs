//! `stakeraid serve`: the JSON-lines server on the standard streams.

/// Serves requests from standard input until it closes.
pub fn run_serve() -> anyhow::Result<()> {
    let input = std::io::BufReader::new(std::io::stdin());
    stakeraid::serve::serve(input, std::io::stdout().lock())?;
    Ok(())
}
