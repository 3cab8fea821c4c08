//! The `stakeraid` command: argument handling and file I/O around the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

use cli::position::PositionArgs;
use cli::solve::SolveArgs;

// The searches allocate little, but the match driver and the parallel
// engines build many small vectors across threads, where mimalloc's
// per-thread heaps avoid contention in the system allocator.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exact minimax / alpha-beta solver for Stake & Raid.
///
/// With no arguments, reads ./input.txt and writes ./output.txt.
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Answer one input file.
    Solve(SolveArgs),
    /// Search the fixed position set on one thread and print the total node
    /// count (the bench signature), the time and nodes/s.
    Bench {
        /// Also print each position's line.
        #[arg(long)]
        verbose: bool,
    },
    /// Write a random position as an input file (for tests and benchmarks).
    Position(PositionArgs),
}

fn main() -> ExitCode {
    let args = Cli::parse();
    let result = match args.command {
        None => cli::solve::run_solve(&SolveArgs::default()),
        Some(Command::Solve(args)) => cli::solve::run_solve(&args),
        Some(Command::Position(args)) => cli::position::run_position(&args),
        Some(Command::Bench { verbose }) => cli::bench::run_bench(verbose),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stakeraid: {e:#}");
            ExitCode::from(2)
        }
    }
}
