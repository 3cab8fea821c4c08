//! `stakeraid solve` and the grader's no-argument run.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use stakeraid::api::{analyse_watched, solve_watched, Limits, Position, RootProgress, Watch};
use stakeraid::jobs::Hint;
use stakeraid::store::StoreUse;
use stakeraid::{legacy, Engine, Move, Problem, Question, SearchMode};

use super::io::{print, write_output};
use super::load::{load, Format};
use super::{batch, deep};

/// Arguments of `stakeraid solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// Input file, `-` for standard input (default: input.txt). Several
    /// files, or a folder of them, are a batch: each is answered into an
    /// output file of its own, the positions spread over the cores
    /// (`input.txt` into `output.txt`, `input7.txt` into `output7.txt`,
    /// `p.txt` into `p.out.txt`; a folder's inputs are its `.txt` files but
    /// those outputs).
    #[arg(value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// Output file, `-` for standard output (default: output.txt). Written
    /// only on success. For a batch: the folder the output files go in
    /// (default: beside each input).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Print value, nodes, time and nodes/s on standard error.
    #[arg(long)]
    stats: bool,
    /// Worker threads: 0 (the default) for one per core.
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true,
          allow_negative_numbers = true, value_parser = super::parse_threads)]
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
    #[arg(long, value_enum)]
    mode: Option<SearchMode>,
    /// drop-blitz only: the cut-off depth.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    /// Wall-time limit in seconds for a MINIMAX or ALPHABETA search. When
    /// it runs out, the deepest depth completed answers, and a warning on
    /// standard error says that the answer is not the exact one.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true,
          value_parser = super::limits::parse_seconds)]
    time: Option<Duration>,
    /// Transposition table size in MiB, at most the memory available
    /// (default: sized for the search, at most 64 MiB; for exact solves
    /// deeper than 19 plies on boards of up to 64 cells, twice that per
    /// ply more, up to 1 GiB).
    #[arg(long, value_name = "MIB", allow_negative_numbers = true,
          value_parser = super::limits::parse_table_mb)]
    table_mb: Option<u32>,
    /// A solve store, created if missing: what earlier runs on this board
    /// proved answers without a search, and this run's proofs are added as
    /// they are made, so that a killed solve started again resumes.
    #[arg(long, value_name = "FILE")]
    store: Option<PathBuf>,
    /// With --store: keep the proofs of positions that took at least this
    /// many nodes (fewer: a larger store, less work lost when killed).
    #[arg(long, allow_negative_numbers = true, value_name = "NODES", default_value_t = 1 << 24, requires = "store")]
    store_min_nodes: u64,
    /// Cut the solve into jobs this many plies below the root, run one
    /// after another on --threads threads (the jobs the Python package runs
    /// side by side on a Ray cluster). The answer is the same.
    #[arg(long, allow_negative_numbers = true, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..))]
    split: Option<u32>,
    /// With --split: a move believed best and its value for the side to
    /// move, as `MOVE=VALUE` (`"D4 Stake=176"`), say from an earlier solve.
    /// That move is tested first, at that value; a right hint leaves the
    /// least to prove, a wrong one only costs time. The answer is the same.
    #[arg(long, value_name = "MOVE=VALUE", requires = "split", value_parser = parse_hint)]
    hint: Option<Hint>,
}

/// `--hint`'s `MOVE=VALUE`.
fn parse_hint(text: &str) -> Result<Hint, String> {
    let (mv, value) = text
        .rsplit_once('=')
        .ok_or("expected MOVE=VALUE, as in \"D4 Stake=176\"")?;
    Ok(Hint {
        best: mv.parse::<Move>().map_err(|e| e.to_string())?,
        value: value
            .trim()
            .parse()
            .map_err(|_| format!("the value {:?} is not a whole number", value.trim()))?,
    })
}

impl Default for SolveArgs {
    fn default() -> Self {
        SolveArgs {
            inputs: Vec::new(),
            output: None,
            stats: false,
            threads: 0,
            engine: Engine::Fast,
            json: false,
            format: Format::InputTxt,
            mode: None,
            depth: None,
            time: None,
            table_mb: None,
            store: None,
            store_min_nodes: 1 << 24,
            split: None,
            hint: None,
        }
    }
}

impl SolveArgs {
    /// The one input file.
    fn input(&self) -> &Path {
        self.inputs
            .first()
            .map_or(Path::new("input.txt"), PathBuf::as_path)
    }

    /// The one output file.
    fn output(&self) -> &Path {
        self.output.as_deref().unwrap_or(Path::new("output.txt"))
    }

    /// Whether the inputs are a batch: several, or a folder.
    fn is_batch(&self) -> bool {
        self.inputs.len() > 1 || self.inputs.first().is_some_and(|p| p.is_dir())
    }
}

/// Answers one input file, or a batch of them.
pub fn run_solve(args: &SolveArgs) -> anyhow::Result<()> {
    // The JSON analysis has no reference engine; refused before the input
    // is read, so that the message names the flags and not the file.
    anyhow::ensure!(
        !(args.json && args.engine == Engine::Reference),
        "--json uses the fast engine: drop --engine reference"
    );
    if args.is_batch() {
        return batch::run_batch(&batch::Settings {
            inputs: &args.inputs,
            output_dir: args.output.as_deref(),
            threads: args.threads,
            engine: args.engine,
            json: args.json,
            time: args.time,
            table_bytes: table_bytes(args),
            refused: refused_in_batch(args),
        });
    }
    anyhow::ensure!(
        args.split.is_none() || !(args.json || args.time.is_some()),
        "--split answers the output file only, to the end: drop --json and --time"
    );
    anyhow::ensure!(
        args.store.is_none() || args.engine == Engine::Fast,
        "--store goes with the fast engine: drop --engine reference"
    );
    // Before the depth --mode would need: with an input.txt, neither applies.
    anyhow::ensure!(
        args.format == Format::DropBlitz || (args.mode.is_none() && args.depth.is_none()),
        "--mode and --depth go with --format drop-blitz (an input.txt names its own)"
    );
    let problem = read_problem(args)?;
    let store = match &args.store {
        Some(path) => Some(deep::open_store(path, &problem, args.store_min_nodes)?),
        None => None,
    };
    if let Some(split) = args.split {
        return run_split(&problem, args, split, store.as_ref());
    }
    let limits = Limits {
        engine: args.engine,
        threads: args.threads,
        table_bytes: table_bytes(args),
        time: args.time,
        store: store.clone(),
        ..Limits::default()
    };
    if args.json {
        return print_json(&problem, args, &limits);
    }
    let spinner = searching(&problem, store.as_ref());
    let answer = solve_watched(&problem, &limits, |watch| {
        show_progress(&spinner, watch, store.clone())
    });
    spinner.finish_and_clear();
    let answer = answer?;
    let _finishing = store.as_ref().map(|_| super::io::finish_unsignalled());
    if let Some(store) = &store {
        deep::finish_store(store)?;
    }
    if !answer.exact {
        eprintln!(
            "stakeraid: time limit reached: the answer is the best move at depth {}, not the exact answer at depth {}",
            answer.depth,
            problem.question.depth().unwrap_or(0).min(problem.board.empty_count())
        );
    }
    match args.format {
        Format::InputTxt => write_output(args.output(), answer.text.as_bytes())?,
        Format::DropBlitz => print(&(legacy::move_text(answer.best) + "\n"))?,
    }
    if args.stats {
        print_stats(answer.best, answer.value, answer.nodes, answer.elapsed);
        if let Some(store) = &store {
            eprintln!("{}", deep::store_note(&store.store.stats()));
        }
    }
    Ok(())
}

/// `--split`: the jobs on this machine's threads, sharing its search threads.
fn run_split(
    problem: &Problem,
    args: &SolveArgs,
    split: u32,
    store: Option<&StoreUse>,
) -> anyhow::Result<()> {
    let spinner = searching(problem, store);
    let start = Instant::now();
    let solved = deep::split_solve(problem, split, args.threads, store, args.hint, &spinner);
    spinner.finish_and_clear();
    let (text, value, stats) = solved?;
    let _finishing = store.map(|_| super::io::finish_unsignalled());
    if let Some(store) = store {
        deep::finish_store(store)?;
    }
    write_output(args.output(), text.as_bytes())?;
    if args.stats {
        let best = text.lines().next().unwrap_or_default();
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "move {best}  value {value}  nodes {}  time {secs:.3}s  {:.1} Mnodes/s  jobs {}  tests split {}, answered by the driver {}, from the store {}",
            stats.nodes,
            stats.nodes as f64 / secs.max(1e-9) / 1e6,
            stats.done,
            stats.splits,
            stats.in_driver,
            stats.from_store
        );
        if let Some(store) = store {
            eprintln!("{}", deep::store_note(&store.store.stats()));
        }
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
    let loaded = load(args.input(), args.format)?;
    let question = match (args.format, loaded.question) {
        (Format::InputTxt, Some(question)) => question,
        _ => {
            let depth = args.depth.context("--format drop-blitz needs --depth")?;
            Question::Exact {
                mode: args.mode.unwrap_or_default(),
                depth,
            }
        }
    };
    Ok(Problem {
        board: loaded.board,
        player: loaded.player,
        question,
    })
}

/// `--json`: the analysis on standard output, and for an input.txt the
/// output file too (unless that is standard output).
fn print_json(problem: &Problem, args: &SolveArgs, limits: &Limits) -> anyhow::Result<()> {
    let position = Position::from_problem(problem)?;
    let asked = Limits::for_question(problem.question)?;
    let limits = Limits {
        mode: asked.mode,
        depth: asked.depth,
        ..limits.clone()
    };
    let store = limits.store.clone();
    let spinner = searching(problem, store.as_ref());
    let analysis = analyse_watched(
        &position,
        &limits,
        |watch| show_progress(&spinner, watch, store.clone()),
        |_| {},
    );
    spinner.finish_and_clear();
    let analysis = analysis?;
    if let Some(store) = &store {
        deep::finish_store(store)?;
    }
    if args.format == Format::InputTxt && args.output().as_os_str() != "-" {
        write_output(args.output(), analysis.output_text().as_bytes())?;
    }
    print(&(serde_json::to_string(&analysis)? + "\n"))?;
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

/// The first option given that a batch does not take, by its flag.
fn refused_in_batch(args: &SolveArgs) -> Option<&'static str> {
    [
        (args.stats, "--stats"),
        (args.format != Format::InputTxt, "--format"),
        (args.mode.is_some(), "--mode"),
        (args.depth.is_some(), "--depth"),
        (args.store.is_some(), "--store"),
        (args.split.is_some(), "--split"),
        (args.hint.is_some(), "--hint"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag))
}

/// `--table-mb` in bytes.
fn table_bytes(args: &SolveArgs) -> Option<usize> {
    args.table_mb.map(|mb| (mb as usize) << 20)
}

/// A progress line on standard error while a search runs, when that is a
/// terminal (never in pipes or files); cleared when the search ends.
fn searching(problem: &stakeraid::Problem, store: Option<&StoreUse>) -> ProgressBar {
    use std::io::IsTerminal;
    let terminal = std::io::stderr().is_terminal();
    super::io::on_signal(store.map(|s| s.store.clone()), terminal);
    if !terminal {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    let style = ProgressStyle::with_template("{spinner} searching {prefix} {msg} {elapsed}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    let n = problem.board.n();
    bar.set_prefix(format!("{} {n}x{n}", problem.question.name()));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Shows on `bar`, until it is finished, the depth running and where its
/// root stands (moves settled, the best so far and what is known of its
/// value), the nodes, the rate, what the store answered, and once enough
/// root moves are settled an estimate of the depth's time left.
fn show_progress(bar: &ProgressBar, watch: Watch, store: Option<StoreUse>) {
    if bar.is_hidden() {
        return;
    }
    let bar = bar.clone();
    let start = Instant::now();
    // Detached: it ends with the bar, or with the process.
    std::thread::spawn(move || {
        let mut pace = Pace::default();
        while !bar.is_finished() {
            let nodes = watch.nodes();
            let rate = nodes as f64 / start.elapsed().as_secs_f64().max(1e-3) / 1e6;
            let root = watch.root();
            let from_store = store.as_ref().map_or(String::new(), |s| {
                format!(" {} from the store ·", s.store.stats().hits)
            });
            bar.set_message(format!(
                "· {} · {:.1} M nodes · {rate:.1} M nodes/s ·{from_store}",
                root_line(&root, pace.left(&root)),
                nodes as f64 / 1e6
            ));
            std::thread::sleep(Duration::from_millis(250));
        }
    });
}

/// The root's part of the progress line.
fn root_line(root: &RootProgress, left: Option<Duration>) -> String {
    if root.depth == 0 {
        return "depth 1".into();
    }
    let value = if root.lo == root.hi {
        format!("{}", root.lo)
    } else {
        format!("in {}..{}", root.lo, root.hi)
    };
    // Until every root move is settled, a move yet to come may beat the
    // best so far, or tie it and come first in canonical order.
    let best = root.best.map_or(String::new(), |m| {
        let which = match root.done {
            0 => "proving",
            d if d < root.moves => "best so far",
            _ => "best",
        };
        format!(", {which} {m} {value}")
    });
    let left = left.map_or(String::new(), |t| format!(", about {} left", human(t)));
    format!(
        "depth {} · root move {} of {}{best}{left}",
        root.depth,
        (root.done + 1).min(root.moves),
        root.moves
    )
}

/// `1h02m`, `3m05s`, `42s`.
fn human(t: Duration) -> String {
    let s = t.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// How fast a depth's root moves are settled after its first, which costs
/// far more than the others (it alone gets an exact value): the others'
/// mean time, times those left.
#[derive(Default)]
struct Pace {
    /// The depth, and when its first move was settled.
    since: Option<(u32, Instant)>,
}

impl Pace {
    fn left(&mut self, root: &RootProgress) -> Option<Duration> {
        if root.done == 0 {
            self.since = None;
            return None;
        }
        let (depth, at) = *self.since.get_or_insert((root.depth, Instant::now()));
        if depth != root.depth {
            self.since = Some((root.depth, Instant::now()));
            return None;
        }
        // Two or more of the others settled: a mean worth showing.
        let others = root.done - 1;
        (others >= 2 && root.done < root.moves)
            .then(|| at.elapsed() / others * (root.moves - root.done))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(done: u32, lo: i64, hi: i64) -> RootProgress {
        RootProgress {
            depth: 12,
            moves: 9,
            done,
            best: Some("A2 Stake".parse().unwrap()),
            lo,
            hi,
        }
    }

    /// The line calls a move the best only once no root move is left that
    /// could displace it.
    #[test]
    fn the_root_line_says_whether_its_best_move_is_final() {
        assert_eq!(
            root_line(&root(0, -300, -200), None),
            "depth 12 · root move 1 of 9, proving A2 Stake in -300..-200"
        );
        assert_eq!(
            root_line(&root(4, -218, -218), Some(Duration::from_secs(75))),
            "depth 12 · root move 5 of 9, best so far A2 Stake -218, about 1m15s left"
        );
        assert_eq!(
            root_line(&root(9, -218, -218), None),
            "depth 12 · root move 9 of 9, best A2 Stake -218"
        );
    }
}
