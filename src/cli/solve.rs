//! `stakeraid solve` and the grader's no-argument run.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::ValueEnum;
use stakeraid::api::{analyse, Limits, Position};
use stakeraid::{legacy, solve, EngineKind, Mode, Move, Problem, SolveOptions};

use super::io::write_output;
use super::load::{load, Format, ModeArg};

/// Arguments of `stakeraid solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// Input file, `-` for standard input.
    #[arg(default_value = "input.txt")]
    input: PathBuf,
    /// Output file, `-` for standard output. Written only on success.
    #[arg(short, long, default_value = "output.txt")]
    output: PathBuf,
    /// Print value, nodes, time and nodes/s on standard error.
    #[arg(long)]
    stats: bool,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0, value_parser = super::parse_threads)]
    threads: usize,
    /// Search engine for MINIMAX and ALPHABETA.
    #[arg(long, value_enum, default_value_t = Engine::Fast)]
    engine: Engine,
    /// Also print the whole result (every root value, the principal
    /// variation, nodes, time) as one JSON object on standard output; with
    /// `-o -` only the JSON is printed. Uses the fast engine (`--engine
    /// reference` is refused); `--stats` still prints on standard error.
    #[arg(long)]
    json: bool,
    /// Input format. With drop-blitz the answer (`drop,C,2`) is printed on
    /// standard output and no output file is written.
    #[arg(long, value_enum, default_value_t = Format::InputTxt)]
    format: Format,
    /// drop-blitz only: the search (an input.txt names its own).
    #[arg(long, value_enum, requires = "depth")]
    mode: Option<ModeArg>,
    /// drop-blitz only: the cut-off depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
}

impl Default for SolveArgs {
    fn default() -> Self {
        SolveArgs {
            input: "input.txt".into(),
            output: "output.txt".into(),
            stats: false,
            threads: 0,
            engine: Engine::Fast,
            json: false,
            format: Format::InputTxt,
            mode: None,
            depth: None,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Engine {
    /// The textbook search.
    Reference,
    /// The fast exact search.
    Fast,
}

/// Answers one input file.
pub fn run_solve(args: &SolveArgs) -> anyhow::Result<()> {
    // The JSON analysis has no reference engine; refused before the input
    // is read, so that the message names the flags and not the file.
    anyhow::ensure!(
        !(args.json && matches!(args.engine, Engine::Reference)),
        "--json uses the fast engine: drop --engine reference"
    );
    let problem = read_problem(args)?;
    if args.json {
        return print_json(&problem, args);
    }
    let options = SolveOptions {
        engine: match args.engine {
            Engine::Reference => EngineKind::Reference,
            Engine::Fast => EngineKind::Fast,
        },
        threads: args.threads,
    };
    let spinner = searching(&problem);
    let answer = solve(&problem, &options);
    spinner.finish_and_clear();
    match args.format {
        Format::InputTxt => write_output(&args.output, answer.text.as_bytes())?,
        Format::DropBlitz => println!("{}", legacy::move_text(answer.best)),
    }
    if args.stats {
        print_stats(answer.best, answer.value, answer.nodes, answer.elapsed);
    }
    Ok(())
}

/// The `--stats` line on standard error.
fn print_stats(best: Move, value: i64, nodes: u64, elapsed: Duration) {
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "move {best}  value {value}  nodes {nodes}  time {secs:.3}s  {:.1} Mnodes/s",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
}

/// The problem: an input.txt as it is, or a drop-blitz board with the
/// mode and depth of the command line.
fn read_problem(args: &SolveArgs) -> anyhow::Result<Problem> {
    let loaded = load(&args.input, args.format)?;
    let mode = match (args.format, loaded.mode) {
        (Format::InputTxt, Some(mode)) => {
            anyhow::ensure!(
                args.mode.is_none() && args.depth.is_none(),
                "--mode and --depth go with --format drop-blitz (an input.txt names its own)"
            );
            mode
        }
        _ => {
            let depth = args.depth.context("--format drop-blitz needs --depth")?;
            match args.mode.unwrap_or(ModeArg::Alphabeta) {
                ModeArg::Minimax => Mode::Minimax { depth },
                ModeArg::Alphabeta => Mode::AlphaBeta { depth },
            }
        }
    };
    Ok(Problem {
        board: loaded.board,
        player: loaded.player,
        mode,
    })
}

/// `--json`: the analysis on standard output, and for an input.txt the
/// output file too (unless that is standard output).
fn print_json(problem: &Problem, args: &SolveArgs) -> anyhow::Result<()> {
    let position = Position::from_problem(problem)?;
    let limits = Limits {
        threads: args.threads,
        ..Limits::for_mode(problem.mode)?
    };
    let spinner = searching(problem);
    let analysis = analyse(&position, &limits)?;
    spinner.finish_and_clear();
    if args.format == Format::InputTxt && args.output.as_os_str() != "-" {
        write_output(&args.output, analysis.output_text().as_bytes())?;
    }
    println!("{}", serde_json::to_string(&analysis)?);
    if args.stats {
        print_stats(
            analysis.best,
            analysis.value,
            analysis.nodes,
            Duration::from_micros(analysis.time_us),
        );
    }
    Ok(())
}

/// A spinner on standard error while a search runs, when that is a
/// terminal (never in pipes or files); cleared when the search ends.
fn searching(problem: &stakeraid::Problem) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    let style = indicatif::ProgressStyle::with_template("{spinner} searching {msg} {elapsed}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.set_message(format!(
        "{} {}x{}",
        problem.mode.name(),
        problem.board.n(),
        problem.board.n()
    ));
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}
