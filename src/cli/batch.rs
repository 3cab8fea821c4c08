//! `stakeraid solve` on several inputs or a folder: each input answered
//! into an output file of its own, the positions spread over the cores.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::SeqCst};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use stakeraid::api::{search_all, Analysis, Limits, Position, Sharing, DEFAULT_TABLE_BYTES};
use stakeraid::{parse_problem, Engine, Question};

use super::io::{print, write_output_synced};

/// What a batch is asked, from `solve`'s arguments.
pub struct Settings<'a> {
    /// The files and folders given.
    pub inputs: &'a [PathBuf],
    /// `-o`: the folder the outputs go in (none: beside each input).
    pub output_dir: Option<&'a Path>,
    /// `--threads`: the threads of all searches together (0: every core).
    pub threads: usize,
    pub engine: Engine,
    /// `--json`: a line for each input on standard output.
    pub json: bool,
    /// `--time`: each position's wall-time limit.
    pub time: Option<Duration>,
    /// `--table-mb`: the tables of all searches together.
    pub table_bytes: Option<usize>,
    /// An option given that only one input takes.
    pub refused: Option<&'static str>,
}

/// Set by SIGINT or SIGTERM: no further search starts, and those running
/// stop and are not written (unless exact all the same).
static STOP: AtomicBool = AtomicBool::new(false);
/// The signal that set [`STOP`].
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The first signal asks the batch to stop; a second ends it at once.
extern "C" fn on_signal(signal: libc::c_int) {
    if SIGNAL.swap(signal, SeqCst) != 0 {
        // SAFETY: signal and raise are async-signal-safe.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
    STOP.store(true, SeqCst);
}

/// One input of the batch and where its answer goes.
struct Input {
    path: PathBuf,
    output: PathBuf,
}

/// How the batch went, for its summary line.
#[derive(Default)]
struct Tally {
    answered: AtomicUsize,
    failed: AtomicUsize,
}

/// Answers every input of the batch; an input that fails is one line on
/// standard error naming it, and the others are still answered. Returns an
/// error (the summary) if any failed.
pub fn run_batch(settings: &Settings) -> anyhow::Result<()> {
    if let Some(flag) = settings.refused {
        anyhow::bail!("{flag} goes with one input file, not a batch");
    }
    anyhow::ensure!(
        !settings.inputs.iter().any(|p| p == Path::new("-")),
        "- (standard input) goes alone, not in a batch"
    );
    if let Some(dir) = settings.output_dir {
        anyhow::ensure!(
            dir != Path::new("-"),
            "-o - (standard output) goes with one input; a batch's -o is a folder (--json prints a line per input)"
        );
        anyhow::ensure!(
            !dir.exists() || dir.is_dir(),
            "-o {}: not a folder; a batch's -o is the folder its outputs go in",
            dir.display()
        );
    }
    let start = Instant::now();
    let bar = progress_bar();
    let tally = Tally::default();
    let say = |line: String| bar.suspend(|| eprintln!("stakeraid: {line}"));
    let mut paths = Vec::new();
    for given in settings.inputs {
        match inputs_of(given) {
            Ok(found) => paths.extend(found),
            Err(e) => {
                say(format!("{e:#}"));
                tally.failed.fetch_add(1, SeqCst);
            }
        }
    }
    let inputs = with_outputs(paths, settings.output_dir)?;
    if let Some(dir) = settings.output_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    bar.set_length(inputs.len() as u64);
    // The handler only touches atomics and re-raises.
    super::io::handle(on_signal);

    let limits = Limits {
        engine: settings.engine,
        time: settings.time,
        ..Limits::default()
    };
    let sharing = Sharing {
        threads: settings.threads,
        table_bytes: settings.table_bytes.unwrap_or(DEFAULT_TABLE_BYTES),
        pv: settings.json,
    };
    let broken = Mutex::new(None);
    let fail = |input: &Input, e: anyhow::Error| {
        say(format!("{}: {e:#}", input.path.display()));
        tally.failed.fetch_add(1, SeqCst);
        bar.inc(1);
        if settings.json {
            report(input, Err(&e), &broken);
        }
    };
    let searches = inputs
        .iter()
        .filter_map(|input| match position_of(&input.path, &limits) {
            Ok((position, limits)) => Some((input, position, limits)),
            Err(e) => {
                fail(input, e);
                None
            }
        });
    search_all(searches, &sharing, &STOP, |input, answer| {
        let answer = answer.map_err(anyhow::Error::from);
        match answer {
            // Cut short by a signal: no answer, as if never started.
            Ok(analysis) if STOP.load(SeqCst) && !analysis.exact => {}
            Ok(analysis) => {
                match write_output_synced(&input.output, analysis.output_text().as_bytes(), false) {
                    Ok(()) => {
                        if !analysis.exact {
                            say(format!(
                            "{}: time limit reached: the answer is the best move at depth {}, not the exact answer at depth {}",
                            input.path.display(),
                            analysis.depth,
                            analysis.requested_depth
                        ));
                        }
                        tally.answered.fetch_add(1, SeqCst);
                        bar.inc(1);
                        if settings.json {
                            report(input, Ok(&analysis), &broken);
                        }
                    }
                    Err(e) => fail(input, e),
                }
            }
            Err(e) => fail(input, e),
        }
    });
    bar.finish_and_clear();
    if let Some(e) = broken.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let secs = start.elapsed().as_secs_f64();
    let (answered, failed) = (tally.answered.load(SeqCst), tally.failed.load(SeqCst));
    let summary = format!(
        "answered {answered} of {} inputs in {secs:.2} s ({:.1} positions/s)",
        inputs.len(),
        answered as f64 / secs.max(1e-9)
    );
    let signal = SIGNAL.load(SeqCst);
    if signal != 0 {
        let name = if signal == libc::SIGINT {
            "SIGINT"
        } else {
            "SIGTERM"
        };
        eprintln!("stakeraid: stopped by {name}: {summary}; the others have no output written");
        std::process::exit(128 + signal);
    }
    if failed > 0 {
        anyhow::bail!("{failed} failed (named above); {summary}");
    }
    eprintln!("stakeraid: {summary}");
    Ok(())
}

/// A progress bar on standard error when it is a terminal.
fn progress_bar() -> ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    let style = ProgressStyle::with_template(
        "{bar:30} {pos}/{len} inputs · {per_sec} · {elapsed} (about {eta} left)",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The inputs a path given stands for: a file itself; a folder, its
/// `.txt` files but hidden ones and outputs, by name.
fn inputs_of(given: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if !given.is_dir() {
        return Ok(vec![given.to_path_buf()]);
    }
    let reading = || format!("reading the folder {}", given.display());
    let mut found = Vec::new();
    for entry in std::fs::read_dir(given).with_context(reading)? {
        let path = entry.with_context(reading)?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let input = name.ends_with(".txt") && !name.starts_with('.') && !is_output_name(&name);
        // A link that leads nowhere is an input that fails, named, not
        // one passed over without a word.
        if input && (path.is_file() || path.is_symlink()) {
            found.push(path);
        }
    }
    found.sort();
    anyhow::ensure!(
        !found.is_empty(),
        "{}: no input files in the folder (its .txt files but outputs)",
        given.display()
    );
    Ok(found)
}

/// Whether a file name is one [`output_name`] makes.
fn is_output_name(name: &str) -> bool {
    name.contains("output") || name.ends_with(".out.txt")
}

/// The output file's name for an input's: `input` made `output`
/// (`input.txt`, `input7.txt`), else `.out` before the extension
/// (`p.txt` into `p.out.txt`).
fn output_name(input: &Path) -> OsString {
    let name = input.file_name().unwrap_or_default().to_string_lossy();
    if let Some(at) = name.rfind("input") {
        return format!("{}output{}", &name[..at], &name[at + "input".len()..]).into();
    }
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{stem}.out.{ext}").into(),
        _ => format!("{name}.out").into(),
    }
}

/// Each input with its output file, beside it or in `dir`; refused if two
/// inputs would answer into one file, or one into another input.
fn with_outputs(paths: Vec<PathBuf>, dir: Option<&Path>) -> anyhow::Result<Vec<Input>> {
    let mut by_output: HashMap<PathBuf, PathBuf> = HashMap::new();
    let mut inputs = Vec::new();
    // Named however they were given (`p.txt`, `./p.txt`, through a link):
    // the same file is the same canonical path.
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let read: HashMap<PathBuf, PathBuf> = paths.iter().map(|p| (canonical(p), p.clone())).collect();
    for path in paths {
        let name = output_name(&path);
        let output = match dir {
            Some(dir) => dir.join(name),
            None => path.with_file_name(name),
        };
        if let Some(other) = read.get(&canonical(&output)) {
            anyhow::bail!(
                "{} would be answered into {}, which is an input too: give -o a folder, or rename one",
                path.display(),
                other.display()
            );
        }
        if let Some(other) = by_output.insert(output.clone(), path.clone()) {
            anyhow::bail!(
                "{} and {} would both be answered into {}: give -o a folder per input, or rename one",
                other.display(),
                path.display(),
                output.display()
            );
        }
        inputs.push(Input { path, output });
    }
    Ok(inputs)
}

/// The position of an input file, and the search it asks for within the
/// batch's `limits`.
fn position_of(path: &Path, limits: &Limits) -> anyhow::Result<(Position, Limits)> {
    let bytes = super::io::read_bytes(path)?;
    let problem = parse_problem(&bytes)?;
    let Question::Exact { mode, depth } = problem.question else {
        anyhow::bail!(
            "{} mode has no exact answer; a batch answers MINIMAX and ALPHABETA files: solve it alone",
            problem.question.name()
        );
    };
    let limits = Limits {
        mode,
        depth: Some(depth),
        ..limits.clone()
    };
    Ok((Position::from_problem(&problem)?, limits))
}

/// `--json`: the input's line on standard output; the first failed write
/// is kept, and stops the batch.
fn report(
    input: &Input,
    answer: Result<&Analysis, &anyhow::Error>,
    broken: &Mutex<Option<anyhow::Error>>,
) {
    let mut broken = broken.lock().unwrap_or_else(|e| e.into_inner());
    if broken.is_some() {
        return;
    }
    let line = match answer {
        Ok(analysis) => json!({
            "input": input.path,
            "output": input.output,
            "ok": true,
            "analysis": analysis,
        }),
        Err(e) => json!({"input": input.path, "ok": false, "error": format!("{e:#}")}),
    };
    if let Err(e) = print(&(line.to_string() + "\n")) {
        *broken = Some(e);
        STOP.store(true, SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_named_from_inputs_and_never_taken_for_inputs() {
        for (input, output) in [
            ("cases/a/input.txt", "output.txt"),
            ("input7.txt", "output7.txt"),
            ("p.txt", "p.out.txt"),
            ("board", "board.out"),
            (".txt", ".txt.out"),
        ] {
            assert_eq!(
                output_name(Path::new(input)),
                OsString::from(output),
                "{input}"
            );
            let output = output.to_string();
            assert!(
                is_output_name(&output) || !output.ends_with(".txt"),
                "{output}"
            );
        }
    }
}
