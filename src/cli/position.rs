//! `stakeraid position`: random positions as input files.

use std::path::PathBuf;

use anyhow::Context;
use stakeraid::{input_text, parse_problem, Mode, Player, Problem};

use super::io::write_output;

/// Arguments of `stakeraid position`.
#[derive(clap::Args)]
pub struct PositionArgs {
    /// Board side, 1 to 26.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=26))]
    size: u8,
    /// Chance that a cell starts occupied (by X or O alike).
    #[arg(long, default_value_t = 0.5)]
    fill: f64,
    /// Largest cell value (values are drawn from 1 to this).
    #[arg(long, default_value_t = 99, value_parser = clap::value_parser!(i32).range(1..))]
    max_value: i32,
    /// Random seed: the same seed gives the same position.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// MINIMAX, ALPHABETA or COMPETITION.
    #[arg(long, default_value = "ALPHABETA")]
    mode: String,
    /// Player to move.
    #[arg(long, default_value = "X")]
    player: String,
    /// Depth (or seconds in COMPETITION).
    #[arg(long, default_value = "4")]
    depth: String,
    /// Output file, `-` for standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
}

/// Writes one random position.
pub fn run_position(args: &PositionArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        (0.0..=1.0).contains(&args.fill),
        "--fill must be between 0 and 1"
    );
    let mut rng = stakeraid::rng::Rng::new(args.seed);
    let board = stakeraid::rng::random_board(&mut rng, args.size.into(), args.max_value, args.fill);
    let draft = Problem {
        board,
        player: Player::X,
        mode: Mode::Minimax { depth: 1 },
    };
    // The values and cells of the draft under the asked header, read back
    // through the parser so that bad mode, player or depth words are refused.
    let draft_text = input_text(&draft);
    let body: String = draft_text.split_inclusive('\n').skip(4).collect();
    let text = format!(
        "{}\n{}\n{}\n{}\n{body}",
        draft.board.n(),
        args.mode,
        args.player,
        args.depth
    );
    let problem = parse_problem(text.as_bytes()).context("bad --mode, --player or --depth")?;
    write_output(&args.output, input_text(&problem).as_bytes())
}
