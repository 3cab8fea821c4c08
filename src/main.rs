//! The `stakeraid` command: argument handling and file I/O around the library.

use std::process::ExitCode;

use clap::{Arg, ArgAction, CommandFactory, FromArgMatches, Parser, Subcommand};

/// `eprintln!` for the whole command, that cannot fail: std's panics where
/// standard error cannot be written (a full disk, a file size limit), and
/// the release build aborts. A line that cannot be said is lost; the exit
/// status still tells.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

#[cfg(feature = "mimalloc")]
mod allocator;
mod cli;

use cli::position::PositionArgs;
use cli::solve::SolveArgs;

// The searches allocate little, but the match driver and the parallel
// engines build many small vectors across threads, where mimalloc's
// per-thread heaps avoid contention in the system allocator. The run with
// no arguments, which graders and tournaments charge for start-up, takes
// the system's (see allocator.rs).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: stakeraid::mapped::Mapped<allocator::Chosen> =
    stakeraid::mapped::Mapped(allocator::Chosen);

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
    /// Every root move's value, best first, and the principal variation;
    /// `--dot` draws a small alpha-beta tree.
    Analyse(cli::analyse::AnalyseArgs),
    /// Answer JSON requests, one per line on standard input, one response
    /// per line on standard output.
    ///
    /// Searches of different requests run at once, within --threads and
    /// --table-mb; responses come in request order (--unordered: as each is
    /// ready, matched by `id`). A request line may be up to 1 MiB (1048576
    /// bytes); a longer one is answered with an error, and the server goes
    /// on with the next line. When standard input closes, every search not
    /// yet answered runs to its own limits and answers, and then the server
    /// exits. A request's `time_ms`, `{"cmd": "stop"}`, SIGINT and SIGTERM
    /// stop searches early: each answers with its deepest completed depth
    /// (after a signal, the server then exits). A stop stops every search
    /// read before it, whatever its limits, as soon as it is read: in a
    /// file piped in, almost at once (docs/library.md).
    Serve(cli::serve::ServeArgs),
    /// Play two agents against each other over many boards.
    Match(cli::matches::MatchArgs),
    /// Play programs in the input.txt / output.txt format (or agents)
    /// against each other under a CPU budget, as a course tournament does.
    Referee(cli::referee::RefereeArgs),
    /// Grade a homework program as the course's script does (50 cases,
    /// 100 points if all pass, else 50 - N), with the reason for every
    /// miss and the smallest input that fails each way.
    Grade(cli::grade::GradeArgs),
    /// Play against an engine in the terminal.
    Play(cli::play::PlayArgs),
    /// The older Drop / Blitz variant: PlayerM (minimax) against PlayerA
    /// (alpha-beta) on 5x5 boards, with a trace and a summary.
    Driver(cli::driver::DriverArgs),
    /// Write a random position as an input file (for tests and benchmarks).
    Position(PositionArgs),
    /// Search the fixed position set on one thread and print the total node
    /// count (the bench signature), a check of search behaviour.
    ///
    /// The wall time beside it is mostly each small solve's start, not the
    /// search's speed (scripts/bench.sh measures that).
    Bench {
        /// Also print each position's line.
        #[arg(long)]
        verbose: bool,
    },
    /// An analysis board in the browser, served on 127.0.0.1: play, every
    /// move's value as a heat map while the search deepens, the alpha-beta
    /// tree of small searches. The first line printed is the address.
    #[cfg(feature = "web")]
    Web(cli::web::WebArgs),
}

/// `cmd` with `-h` giving the same whole help as `--help`, in every
/// subcommand: one help text per command, not a summary beside it.
fn with_one_help(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    let mut cmd = cmd.disable_help_flag(true).arg(
        Arg::new("help")
            .short('h')
            .long("help")
            .action(ArgAction::HelpLong)
            .help("Print help"),
    );
    for name in names {
        cmd = cmd.mut_subcommand(name, with_one_help);
    }
    cmd
}

/// Help, the version, or a usage error: help and the version on standard
/// output (exit 0 only if that could be written), a usage error on
/// standard error with exit code 2, in one line as every other error is,
/// naming the help to read.
fn usage(e: &clap::Error) -> ExitCode {
    use std::io::Write;
    if e.use_stderr() {
        eprintln!("stakeraid: {}", one_line(&e.render().to_string()));
        return ExitCode::from(2);
    }
    match e.print().and_then(|()| std::io::stdout().flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("stakeraid: writing standard output: {err}");
            ExitCode::from(2)
        }
    }
}

/// clap's error message (its first paragraph: the accepted values or the
/// missing arguments are on the lines under the first) in one line, with
/// the command whose `--help` tells more.
fn one_line(rendered: &str) -> String {
    let head: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    let message = head.join(" ");
    let message = message.trim_start_matches("error: ");
    let command: Vec<&str> = rendered
        .lines()
        .find_map(|l| l.trim().strip_prefix("Usage: "))
        .map(|usage| {
            usage
                .split_whitespace()
                .take_while(|w| !w.starts_with(['[', '-', '<']))
                .collect()
        })
        .unwrap_or_default();
    if command.is_empty() {
        message.to_string()
    } else {
        format!("{message} (see {} --help)", command.join(" "))
    }
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so a write to a closed pipe (`stakeraid driver |
    // head -1`) fails, `println!` panics, and the release build aborts.
    // With the default disposition the process ends quietly, as other Unix
    // filters do.
    #[cfg(unix)]
    // SAFETY: nothing else runs yet, and SIG_DFL is a valid disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let args = match with_one_help(Cli::command())
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(args) => args,
        Err(e) => return usage(&e),
    };
    // Set when the grader found a failing case: exit status 1.
    let mut failed_cases = false;
    let result = match args.command {
        None => cli::solve::run_solve(&SolveArgs::default()),
        Some(Command::Solve(args)) => cli::solve::run_solve(&args),
        Some(Command::Position(args)) => cli::position::run_position(&args),
        Some(Command::Match(args)) => cli::matches::run_match_command(&args),
        Some(Command::Referee(args)) => cli::referee::run_referee_command(&args),
        Some(Command::Grade(args)) => {
            cli::grade::run_grade(&args).map(|all_pass| failed_cases = !all_pass)
        }
        Some(Command::Play(args)) => cli::play::run_play(&args),
        Some(Command::Bench { verbose }) => cli::bench::run_bench(verbose),
        Some(Command::Analyse(args)) => cli::analyse::run_analyse(&args),
        Some(Command::Serve(args)) => cli::serve::run_serve(&args),
        Some(Command::Driver(args)) => cli::driver::run_driver_command(&args),
        #[cfg(feature = "web")]
        Some(Command::Web(args)) => cli::web::run_web(&args),
    };
    // A signal's own end comes first.
    cli::io::hold_if_ending();
    match result {
        Ok(()) if failed_cases => ExitCode::from(1),
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stakeraid: {e:#}");
            ExitCode::from(2)
        }
    }
}
