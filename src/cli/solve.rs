//! `stakeraid solve` and the grader's no-argument run.

use std::path::PathBuf;

use anyhow::Context;
use clap::ValueEnum;
use stakeraid::{parse_problem, solve, EngineKind, SolveOptions};

use super::io::{read_input, write_output};

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
pub enum Engine {
    /// The textbook search.
    Reference,
    /// The fast exact search.
    Fast,
}

/// Answers one input file.
pub fn run_solve(args: &SolveArgs) -> anyhow::Result<()> {
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
