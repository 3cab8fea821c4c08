//! `stakeraid analyse`: every root move's value, best first, and the
//! principal variation; optionally the searched tree as Graphviz DOT.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use stakeraid::api::{alphabeta_dot, analyse_with_progress, Analysis, Bound, Limits, Position};
use stakeraid::{Question, SearchMode};

use super::io::{print, write_output};
use super::load::{load, Format};

/// The deepest search `--dot` draws: the tree is kept whole, and beyond
/// this it is too big to read.
const DOT_MAX_DEPTH: u32 = 3;

/// Arguments of `stakeraid analyse`.
#[derive(clap::Args)]
pub struct AnalyseArgs {
    /// Input file, `-` for standard input.
    #[arg(default_value = "input.txt")]
    input: PathBuf,
    /// Input format.
    #[arg(long, value_enum, default_value_t = Format::InputTxt)]
    format: Format,
    /// minimax proves every root value; alphabeta leaves upper bounds on
    /// moves it proves are not chosen. Default: the input's mode, and
    /// alphabeta where it names none (COMPETITION, drop-blitz), as the
    /// library and the Python package do.
    #[arg(long, value_enum)]
    mode: Option<SearchMode>,
    /// Cut-off depth (default: the input's, with --time too); past the last
    /// empty cell, the search goes to the end of the game. An input that
    /// names no depth needs --depth or --time (the deepest within it).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    /// Wall-time limit in seconds; the deepest completed depth answers.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true,
          value_parser = super::limits::parse_seconds)]
    time: Option<Duration>,
    /// Worker threads: 0 (the default) for one per core.
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true,
          allow_negative_numbers = true, value_parser = super::parse_threads)]
    threads: usize,
    /// Write the tree the textbook alpha-beta searches (depth 3 or less)
    /// as Graphviz DOT to FILE, pruned branches marked; `-` prints it
    /// instead of the table.
    #[arg(long, value_name = "FILE")]
    dot: Option<PathBuf>,
    /// Print the analysis as one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

/// Analyses one position.
pub fn run_analyse(args: &AnalyseArgs) -> anyhow::Result<()> {
    let loaded = load(&args.input, args.format)?;
    let file_depth = loaded.question.and_then(Question::depth);
    let time = args.time;
    let depth = args.depth.or(file_depth);
    if depth.is_none() && time.is_none() {
        let named = match loaded.question {
            Some(question) => format!("a {} input names no depth", question.name()),
            None => "a drop-blitz board names no depth".to_string(),
        };
        anyhow::bail!("{named}: give --depth, --time or both");
    }
    let position = Position::new(loaded.board, loaded.player)?;

    if let Some(path) = &args.dot {
        let depth = depth.context("--dot needs a depth")?;
        anyhow::ensure!(
            depth <= DOT_MAX_DEPTH,
            "--dot draws searches of depth {DOT_MAX_DEPTH} or less (this one is {depth}): give --depth"
        );
        write_output(path, alphabeta_dot(&position, depth)?.as_bytes())?;
        if path.as_os_str() == "-" {
            return Ok(());
        }
    }

    let mode = match (args.mode, loaded.question) {
        (Some(mode), _) => mode,
        (None, Some(Question::Exact { mode, .. })) => mode,
        (None, _) => SearchMode::default(),
    };
    let limits = Limits {
        mode,
        depth,
        time,
        threads: args.threads,
        ..Limits::default()
    };
    let bar = progress_bar();
    let analysis = analyse_with_progress(&position, &limits, |p| {
        bar.set_message(format!(
            "depth {} of {} completed, {} nodes",
            p.depth, p.target, p.nodes
        ));
    });
    bar.finish_and_clear();
    let analysis = analysis?;
    if args.json {
        print(&(serde_json::to_string(&analysis)? + "\n"))
    } else {
        print(&table(&analysis, args.format))
    }
}

/// One line on standard error while the search runs, when that is a
/// terminal (never in pipes or files): the depth completed, the nodes and
/// the time so far, so that a deep search shows it is alive. Cleared at
/// the end.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    let style = ProgressStyle::with_template("{spinner} analysing: {msg}, {elapsed}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.set_message("depth 1 running");
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The report: a header, one row per root move best first, the PV, the cost.
pub fn table(a: &Analysis, format: Format) -> String {
    let mut s = String::new();
    let state = match (a.exact, a.stopped) {
        (true, false) => "exact".to_string(),
        (true, true) => {
            "exact move and value; stopped before every value or the whole PV".to_string()
        }
        (false, _) => format!(
            "stopped: depth {} of {} completed",
            a.depth, a.requested_depth
        ),
    };
    let _ = writeln!(
        s,
        "{} to move, {} to depth {} ({state}), {} root moves",
        a.player.symbol(),
        a.mode.name(),
        a.depth,
        a.moves.len()
    );
    let _ = writeln!(s, "{:>5}  {:<12} {:>12}", "rank", "move", "value");
    for (i, m) in a.ranked().iter().enumerate() {
        let value = match m.bound {
            Bound::Exact => m.value.to_string(),
            Bound::Upper => format!("<= {}", m.value),
            Bound::Lower => format!(">= {}", m.value),
        };
        let mark = if m.mv == a.best { "  best" } else { "" };
        let _ = writeln!(
            s,
            "{:>5}  {:<12} {:>12}{mark}",
            i + 1,
            format.move_text(m.mv),
            value
        );
    }
    let pv: Vec<String> = a.pv.iter().map(|&mv| format.move_text(mv)).collect();
    let _ = writeln!(s, "pv: {}", pv.join("  "));
    let _ = writeln!(s, "{} nodes, {:.3} s", a.nodes, a.time_us as f64 / 1e6);
    s
}
