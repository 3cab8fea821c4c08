//! The `stakeraid` command: argument handling and file I/O around the library.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use stakeraid::{parse_problem, solve, EngineKind, SolveOptions};

// The searches allocate little, but the match driver and the parallel
// engines build many small vectors across threads, where mimalloc's
// per-thread heaps avoid contention in the system allocator.
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
