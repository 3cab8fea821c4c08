//! `stakeraid match`: two agents over many boards.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};
use stakeraid::arena::{run_match, Agent, BoardSet, MatchSettings};

/// Arguments of `stakeraid match`.
#[derive(clap::Args)]
pub struct MatchArgs {
    #[arg(help = concat!("Agent A: ", agents!()))]
    a: Agent,
    /// Agent B, in the same notation.
    b: Agent,
    #[command(flatten)]
    boards: BoardArgs,
    /// Threads per engine move: 0 (the default) for one per core.
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true,
          allow_negative_numbers = true, value_parser = super::parse_threads)]
    threads: usize,
    /// Print every move and board, and each game's result.
    #[arg(long)]
    trace: bool,
}

/// A progress bar over the games of a match on standard error, hidden
/// when that is not a terminal or when the trace is printed.
pub fn games_bar(boards: &BoardArgs, trace: bool) -> anyhow::Result<ProgressBar> {
    if !std::io::stderr().is_terminal() || trace {
        return Ok(ProgressBar::hidden());
    }
    let bar = ProgressBar::new(u64::from(2 * boards.boards));
    bar.set_style(ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games  {msg}  [{elapsed}<{eta}]",
    )?);
    Ok(bar)
}

/// The boards of a match: how many, from which seed, of which sizes and
/// values, how full (`stakeraid match` and `stakeraid referee`).
#[derive(clap::Args)]
pub struct BoardArgs {
    /// Boards to play; each is played twice, colours swapped.
    #[arg(long, allow_negative_numbers = true, default_value_t = 10, value_parser = parse_boards)]
    pub boards: u32,
    /// Seed of the first board.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    pub seed: u64,
    /// Board side, or a range such as 4..8.
    #[arg(long, default_value = "6", value_parser = parse_sizes)]
    pub size: (usize, usize),
    /// Largest cell value.
    #[arg(long, allow_negative_numbers = true, default_value_t = 99, value_parser = clap::value_parser!(i32).range(1..))]
    pub max_value: i32,
    /// Chance that a cell starts occupied.
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.0)]
    pub fill: f64,
}

impl BoardArgs {
    /// The boards these arguments describe.
    pub fn set(&self) -> BoardSet {
        BoardSet {
            count: self.boards,
            seed: self.seed,
            sizes: self.size,
            max_value: self.max_value,
            fill: self.fill,
        }
    }
}

/// Parses `--boards`: a match of no games has nothing to report.
fn parse_boards(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(0) => Err("a match needs at least one board".to_owned()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "expected a number of boards from 1 to {}",
            u32::MAX
        )),
    }
}

/// Parses `--size`: one board side, or a range of them.
pub fn parse_sizes(s: &str) -> Result<(usize, usize), String> {
    let (lo, hi) = s.split_once("..").unwrap_or((s, s));
    let side = |x: &str| {
        x.trim_start_matches('=')
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=26).contains(n))
    };
    match (side(lo), side(hi)) {
        (Some(lo), Some(hi)) if lo <= hi => Ok((lo, hi)),
        _ => Err(format!(
            "expected a side from 1 to 26 or a range like 4..8, got {s:?}"
        )),
    }
}

/// Plays the match and prints the report.
pub fn run_match_command(args: &MatchArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        (0.0..=1.0).contains(&args.boards.fill),
        "--fill must be between 0 and 1"
    );
    let settings = MatchSettings {
        boards: args.boards.set(),
        threads: args.threads,
    };
    let bar = games_bar(&args.boards, args.trace)?;
    let mut trace = |s: &str| {
        if args.trace {
            super::io::trace(s);
        }
    };
    let report = run_match(&args.a, &args.b, &settings, &mut trace, &mut |games, r| {
        bar.set_position(u64::from(games));
        bar.set_message(format!("A {}-{}-{}", r.wins, r.draws, r.losses));
    });
    bar.finish_and_clear();
    super::io::print(&format!("A = {}  B = {}\n{report}", args.a, args.b))
}
