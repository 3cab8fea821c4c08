//! `stakeraid referee`: programs (and built-in agents) over many boards,
//! as a course tournament plays them.

use std::io::Write;
use std::path::{Path, PathBuf};

use stakeraid::referee::{run_referee, GameSettings, RefereeSettings, Side, WallGuard};

use super::grade::SandboxArgs;
use super::io::{check_writable, end_on_signal, write_output, write_stdout};
use super::matches::{games_bar, BoardArgs};

/// Arguments of `stakeraid referee`.
#[derive(clap::Args)]
#[command(after_help = concat!("\
A side is cmd:COMMAND for a program (run as `sh -c COMMAND` in its own \
temporary folder, so give paths in it in full), or a built-in agent: ", agents!(), ". \
A side forfeits, losing the game by the whole board's value, on a CPU overrun, \
a hang, a crash, no output.txt, an unreadable one, an illegal move or a wrong board. \
On Linux each program runs in a sandbox (--sandbox), as under `stakeraid grade`; \
going past --memory-mb, --processes or --disk-mb forfeits as a crash, naming the limit."))]
pub struct RefereeArgs {
    #[arg(help = concat!("Side A: cmd:COMMAND, or an agent: ", agents!()))]
    a: Side,
    /// Side B, in the same notation.
    b: Side,
    #[command(flatten)]
    boards: BoardArgs,
    /// CPU seconds per side per game.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    time: f64,
    /// A program's move may take this many times its CPU seconds left in
    /// wall-clock time (plus --grace) before it is killed as hung.
    #[arg(long, allow_negative_numbers = true, default_value_t = WallGuard::default().factor)]
    wall_factor: f64,
    /// Seconds added to the wall-clock guard.
    #[arg(long, allow_negative_numbers = true, default_value_t = WallGuard::default().grace)]
    grace: f64,
    /// Threads per built-in engine move.
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true,
          value_parser = super::parse_threads)]
    threads: usize,
    #[command(flatten)]
    sandbox: SandboxArgs,
    /// Also write the report as JSON to this file (`-`: standard output,
    /// instead of the text report).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Print every move with the CPU charged and the time left, and each board.
    #[arg(long)]
    trace: bool,
}

/// Plays the match and prints the report.
pub fn run_referee_command(args: &RefereeArgs) -> anyhow::Result<()> {
    let settings = RefereeSettings {
        boards: args.boards.set(),
        game: GameSettings {
            time: args.time,
            guard: WallGuard {
                factor: args.wall_factor,
                grace: args.grace,
            },
            threads: args.threads,
            sandbox: args.sandbox.settings()?,
        },
    };
    settings.validate()?;
    let to_stdout = args.json.as_deref() == Some(Path::new("-"));
    if let Some(path) = args.json.as_deref().filter(|_| !to_stdout) {
        check_writable(path)?;
    }
    for side in [&args.a, &args.b] {
        side.check()?;
    }
    end_on_signal(false);
    let bar = games_bar(&args.boards, args.trace)?;
    let mut trace = |s: &str| {
        // After a signal the games go on without their programs: their
        // forfeits are not the match's.
        super::io::hold_if_ending();
        if args.trace {
            // A closed pipe (`| head`) ends the trace, not the match.
            let _ = std::io::stdout().write_all(s.as_bytes());
        }
    };
    let report = run_referee(&args.a, &args.b, &settings, &mut trace, &mut |r| {
        bar.set_position(u64::from(r.totals.games()));
        let t = &r.totals;
        bar.set_message(format!("A {}-{}-{}", t.wins, t.draws, t.losses));
    });
    bar.finish_and_clear();
    let report = report?;
    // The text report first: should the file fail after all, the match is
    // still reported.
    if !to_stdout {
        let boxed = settings.game.sandbox.protections()?;
        write_stdout(&format!("Sandbox: {}\n{report}", boxed.line()))?;
    }
    if let Some(path) = &args.json {
        let text = report.to_json(&settings) + "\n";
        if to_stdout {
            write_stdout(&text)?;
        } else {
            write_output(path, text.as_bytes())?;
        }
    }
    Ok(())
}
