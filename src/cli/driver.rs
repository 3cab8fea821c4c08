//! `stakeraid driver`: the older variant's two agents against each other.

use std::path::PathBuf;

use anyhow::Context;
use clap::ValueEnum;
use stakeraid::legacy::{self, run_driver, DriverAgent, DriverSettings};
use stakeraid::rng::{random_board, Rng};

use super::io::read_input;

/// Arguments of `stakeraid driver`.
#[derive(clap::Args)]
pub struct DriverArgs {
    /// Board files in the older format (owner 1 moves first). Without any,
    /// random boards are played.
    boards: Vec<PathBuf>,
    /// How many random empty boards (values 1..99) to play when no file is given.
    #[arg(long, allow_negative_numbers = true, default_value_t = 5)]
    random: u64,
    /// Seed of the first random board.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    seed: u64,
    /// PlayerM's (minimax) cut-off depth.
    #[arg(long, allow_negative_numbers = true, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    minimax_depth: u32,
    /// PlayerA's (alpha-beta) cut-off depth.
    #[arg(long, allow_negative_numbers = true, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    alphabeta_depth: u32,
    /// Who moves first on each board: a (PlayerA), m (PlayerM), or both
    /// (every board twice).
    #[arg(long, value_enum, default_value_t = First::Both)]
    first: First,
    /// Print only the summary, not the per-move trace.
    #[arg(long)]
    quiet: bool,
    /// Threads for the minimax searches: 0 (the default) for one per core.
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true,
          allow_negative_numbers = true, value_parser = super::parse_threads)]
    threads: usize,
}

#[derive(Clone, Copy, ValueEnum)]
enum First {
    /// PlayerA moves first (as the course's grading script has it).
    A,
    /// PlayerM moves first.
    M,
    /// Each board twice, once each.
    Both,
}

/// Plays the games and prints the trace and the summary.
pub fn run_driver_command(args: &DriverArgs) -> anyhow::Result<()> {
    let boards = if args.boards.is_empty() {
        (0..args.random)
            .map(|i| {
                let seed = args.seed.wrapping_add(i);
                (
                    format!("random-{seed}"),
                    random_board(&mut Rng::new(seed), legacy::SIDE, 99, 0.0),
                )
            })
            .collect()
    } else {
        let mut boards = Vec::new();
        for path in &args.boards {
            let bytes = read_input(path)?;
            let board = legacy::parse_board(&bytes).with_context(|| path.display().to_string())?;
            boards.push((path.display().to_string(), board));
        }
        boards
    };
    let firsts: &[DriverAgent] = match args.first {
        First::A => &[DriverAgent::PlayerA],
        First::M => &[DriverAgent::PlayerM],
        First::Both => &[DriverAgent::PlayerA, DriverAgent::PlayerM],
    };
    let settings = DriverSettings {
        minimax_depth: args.minimax_depth,
        alphabeta_depth: args.alphabeta_depth,
        threads: args.threads,
    };
    let mut trace = |s: &str| {
        if !args.quiet {
            super::io::trace(s);
        }
    };
    let report = run_driver(&boards, firsts, &settings, &mut trace);
    let heading = if args.quiet { "" } else { "summary\n" };
    super::io::print(&format!("{heading}{report}"))
}
