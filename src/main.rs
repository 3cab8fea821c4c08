//! The `stakeraid` command: argument handling and file I/O around the library.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use stakeraid::{
    input_text, parse_problem, solve, EngineKind, Mode, Player, Problem, SolveOptions,
};

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

#[derive(clap::Args)]
struct PositionArgs {
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

#[derive(clap::Args)]
struct SolveArgs {
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
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Search engine for MINIMAX and ALPHABETA.
    #[arg(long, value_enum, default_value_t = Engine::Fast)]
    engine: Engine,
}

impl Default for SolveArgs {
    fn default() -> Self {
        SolveArgs {
            input: "input.txt".into(),
            output: "output.txt".into(),
            stats: false,
            threads: 0,
            engine: Engine::Fast,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Engine {
    /// The textbook search.
    Reference,
    /// The fast exact search.
    Fast,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => run_solve(&SolveArgs::default()),
        Some(Command::Solve(args)) => run_solve(&args),
        Some(Command::Position(args)) => run_position(&args),
        Some(Command::Bench { verbose }) => run_bench(verbose),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stakeraid: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run_solve(args: &SolveArgs) -> anyhow::Result<()> {
    let bytes = read_input(&args.input)?;
    let problem = parse_problem(&bytes).with_context(|| format!("{}", args.input.display()))?;
    let options = SolveOptions {
        engine: match args.engine {
            Engine::Reference => EngineKind::Reference,
            Engine::Fast => EngineKind::Fast,
        },
        threads: args.threads,
    };
    let answer = solve(&problem, &options);
    write_output(&args.output, answer.text.as_bytes())?;
    if args.stats {
        let secs = answer.elapsed.as_secs_f64();
        eprintln!(
            "move {}  value {}  nodes {}  time {:.3}s  {:.1} Mnodes/s",
            answer.best,
            answer.value,
            answer.nodes,
            secs,
            answer.nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}

fn run_bench(verbose: bool) -> anyhow::Result<()> {
    let (nodes, time, runs) = stakeraid::bench::signature();
    if verbose {
        for (w, r) in &runs {
            println!(
                "{:<12} {:>12} nodes {:>9.3}s  {}",
                w.name,
                r.nodes,
                r.elapsed.as_secs_f64(),
                r.best
            );
        }
    }
    let secs = time.as_secs_f64();
    println!(
        "{nodes} nodes {secs:.3}s {:.1} Mnodes/s",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}

fn run_position(args: &PositionArgs) -> anyhow::Result<()> {
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

fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("reading standard input")?;
    } else {
        bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(bytes)
}

/// Writes through a temporary file in the same folder and renames it into
/// place, so a reader never sees a half-written output and a failed run
/// leaves any earlier output untouched.
fn write_output(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if path == Path::new("-") {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|()| out.flush())
            .context("writing standard output");
    }
    // Devices and pipes (`/dev/null`, a FIFO) are written in place: renaming
    // over them would replace the device with a plain file.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
            .with_context(|| format!("writing {}", path.display()));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().context("output path has no file name")?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("writing {}", path.display()))
}
