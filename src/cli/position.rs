//! `stakeraid position`: random positions as input files.

use std::path::PathBuf;

use anyhow::Context;
use clap::ValueEnum;
use stakeraid::{input_text, Player, Problem, Question, SearchMode};

use super::io::write_output;

/// Arguments of `stakeraid position`.
#[derive(clap::Args)]
pub struct PositionArgs {
    /// Board side, 1 to 26.
    #[arg(long, allow_negative_numbers = true, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=26))]
    size: u8,
    /// Chance that a cell starts occupied (by X or O alike).
    #[arg(long, default_value_t = 0.5, allow_negative_numbers = true)]
    fill: f64,
    /// Largest cell value (values are drawn from 1 to this).
    #[arg(long, allow_negative_numbers = true, default_value_t = 99, value_parser = clap::value_parser!(i32).range(1..))]
    max_value: i32,
    /// Random seed: the same seed gives the same position.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    seed: u64,
    /// What the file asks (upper case is accepted too).
    #[arg(long, value_enum, ignore_case = true, default_value_t = Asked::Alphabeta)]
    mode: Asked,
    /// Player to move.
    #[arg(long, value_enum, ignore_case = true, default_value_t = PlayerArg::X)]
    player: PlayerArg,
    /// Depth, at least 1 (in competition: CPU seconds left, at least 0).
    #[arg(long, default_value = "4", allow_negative_numbers = true)]
    depth: String,
    /// Output file, `-` for standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
}

/// The mode line of the file written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Asked {
    /// MINIMAX to the depth.
    Minimax,
    /// ALPHABETA to the depth.
    Alphabeta,
    /// COMPETITION with the depth as CPU seconds left.
    Competition,
}

/// The player line of the file written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PlayerArg {
    /// X moves.
    X,
    /// O moves.
    O,
}

/// Writes one random position.
pub fn run_position(args: &PositionArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        (0.0..=1.0).contains(&args.fill),
        "--fill must be between 0 and 1"
    );
    let depth = || match args.depth.trim().parse::<u32>() {
        Ok(d) if d >= 1 => Ok(d),
        _ => Err(anyhow::anyhow!(
            "--depth must be a whole number of plies from 1 to {} (got {:?})",
            u32::MAX,
            args.depth
        )),
    };
    let question = match args.mode {
        Asked::Minimax => Question::Exact {
            mode: SearchMode::Minimax,
            depth: depth()?,
        },
        Asked::Alphabeta => Question::Exact {
            mode: SearchMode::AlphaBeta,
            depth: depth()?,
        },
        Asked::Competition => Question::Competition {
            seconds: args
                .depth
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|s| (0.0..=super::limits::MAX_SECONDS).contains(s))
                .with_context(|| {
                    format!(
                        "--depth of a competition input is the CPU seconds left, from 0 to 1e9 (got {:?})",
                        args.depth
                    )
                })?,
        },
    };
    let player = match args.player {
        PlayerArg::X => Player::X,
        PlayerArg::O => Player::O,
    };
    let mut rng = stakeraid::rng::Rng::new(args.seed);
    let board = stakeraid::rng::random_board(&mut rng, args.size.into(), args.max_value, args.fill);
    let problem = Problem {
        board,
        player,
        question,
    };
    anyhow::ensure!(
        !stakeraid::legal_moves(&problem.board, player).is_empty(),
        "the board drawn is full: lower --fill"
    );
    write_output(&args.output, input_text(&problem).as_bytes())
}
