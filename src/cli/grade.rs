//! `stakeraid grade`: a homework program graded the course's way, with the
//! reason for every miss.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use stakeraid::class::{ClassSettings, Roster};
use stakeraid::grade::{
    grade, select_cases, textbook_seconds, Case, GradeBy, GradeSettings, Program, RunSettings,
    Visibility,
};
use stakeraid::sandbox::{EnvVar, SandboxMode, SandboxSettings};

use super::io::{check_writable, end_on_signal, write_output, write_stdout};

/// Arguments of `stakeraid grade`.
#[derive(clap::Args)]
#[command(after_help = "\
The program is cmd:COMMAND (run as `sh -c COMMAND`, paths in it given in \
full), or, after `--`, a program and its arguments (a word naming a file of \
the current folder is made absolute). Each case runs in a fresh temporary \
folder holding only input.txt; the program must write output.txt there.

On Linux the program runs in a sandbox (--sandbox): it gets none of your \
environment but what it needs and --env gives, reads the system, its own \
files and --read's, writes only its case's folder and /tmp, has no network, \
cannot see or outlive the grader, and is held to --memory-mb, --processes \
and --disk-mb. The report's first lines say what was enforced.

With --class DIR, each folder of DIR is a student's submission (the \
folder names of Canvas, Moodle and Gradescope exports, spaces and commas \
included; or a Canvas, Moodle or Gradescope download as it comes, folder or \
zip, each student found by the site's naming and gathered into \
--class-out/submissions/), the program after -- is run from each, or with \
none each student's own: run.sh (after make, with a Makefile), a Makefile's \
homework, homework.py/.py3 or homework3.py (python3), homework.java or \
Homework.java (javac, then java), homework.cpp/.cc/homework11.cpp (g++ \
-O2), homework.c (gcc -O2), built boxed into --class-out. The gradebook, \
reports and summary go to --class-out; the gradebook is \
gradebook.partial.csv until every student is done. Run the same command \
again after an interruption to grade only the students not yet done. With \
--roster, the site's import file (canvas-import.csv or moodle-import.csv) \
is written there too.

Exit status: 0 when every case passes byte for byte (with --class: when the \
class is graded), 1 when a case fails, 2 on a usage error (the program is \
checked before the first case).")]
pub struct GradeArgs {
    /// The program: cmd:COMMAND, or -- PROGRAM [ARGS...] (with --class,
    /// none: each student's is found by its file names).
    #[arg(required_unless_present = "class", value_name = "COMMAND")]
    command: Vec<String>,
    /// Seed of the cases: the same seed, count and time limit give the same
    /// cases.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    seed: u64,
    /// How many cases [default: 50; with --cases-from, every case there].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = parse_cases)]
    cases: Option<usize>,
    /// Grade against a folder of cases instead: sub-folders holding
    /// input.txt and output.txt, in name order.
    #[arg(long, value_name = "DIR")]
    cases_from: Option<PathBuf>,
    /// Where a folder's output.txt is not the textbook answer, grade by the
    /// textbook answer (engine) or by the folder's file (folder), as the
    /// course's own script does; either way the case is reported.
    #[arg(
        long,
        value_name = "BY",
        default_value = "engine",
        requires = "cases_from"
    )]
    expected: GradeBy,
    /// CPU seconds a case may use (the whole process tree); the wall clock
    /// allows three times it plus a second. A generated case is cheap
    /// enough for a plain textbook Python program in a quarter of it.
    #[arg(long, value_name = "SECONDS", default_value = "10", allow_negative_numbers = true,
          value_parser = parse_time_limit)]
    time_limit: Duration,
    /// Cases run at once (0: one per core); no verdict depends on it.
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true,
          value_parser = super::parse_threads)]
    jobs: usize,
    /// Program runs the search for a smaller failing input may spend on
    /// each kind of failure (0: none).
    #[arg(
        allow_negative_numbers = true,
        long,
        value_name = "N",
        default_value_t = 60
    )]
    shrink_runs: usize,
    /// Wall-clock seconds the search for a smaller failing input may spend
    /// on each kind of failure (checked before each run).
    #[arg(long, value_name = "SECONDS", default_value = "60", allow_negative_numbers = true,
          value_parser = parse_time_limit)]
    shrink_time: Duration,
    #[command(flatten)]
    sandbox: SandboxArgs,
    /// Also write every case (input, expected, got, verdict, times) as JSON
    /// to this file (`-`: standard output, instead of the text report).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write Gradescope's results.json to this file (`-`: standard
    /// output, instead of the text report).
    #[arg(long, value_name = "FILE")]
    gradescope: Option<PathBuf>,
    /// Who sees the Gradescope tests that show the graded inputs (every
    /// case, and the smallest failing inputs): visible, hidden,
    /// after_due_date or after_published. The score is always visible.
    #[arg(
        long,
        value_name = "WHEN",
        default_value = "visible",
        requires = "gradescope"
    )]
    gradescope_visibility: Visibility,
    /// Grade a class: every submission folder of DIR, or of a Canvas,
    /// Moodle or Gradescope download (its folder or its zip), on the same
    /// cases, the program (-- PROGRAM ARGS...) run from each folder;
    /// writes a gradebook, one report per student and a class summary into
    /// --class-out, and resumes there after an interruption.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["json", "gradescope"])]
    class: Option<PathBuf>,
    /// Where --class writes gradebook.csv, summary.txt and reports/ (one
    /// report per student) [default: grades].
    #[arg(long, value_name = "DIR", requires = "class")]
    class_out: Option<PathBuf>,
    /// The course site's exported gradebook (Canvas's gradebook CSV,
    /// Moodle's offline grading worksheet): once the class is graded, the
    /// file the site imports is written beside the gradebook, the
    /// assignment's score filled for each student matched by the site's id.
    #[arg(long, value_name = "FILE", requires = "class")]
    roster: Option<PathBuf>,
    /// The assignment's column of Canvas's gradebook export: its name, or
    /// its id (needed when the export holds several assignments).
    #[arg(long, value_name = "NAME", requires = "roster")]
    assignment: Option<String>,
}

/// The sandbox's options, shared by `grade` and `referee`.
#[derive(clap::Args)]
pub struct SandboxArgs {
    /// Run each program in a sandbox: auto (every protection this machine
    /// allows, the others named), require (all of them, or no run), off
    /// (the program runs with your rights).
    #[arg(long, value_name = "MODE", default_value = "auto")]
    sandbox: SandboxMode,
    /// Memory of a run (every process of it), in MiB; going past it is
    /// the verdict "memory limit".
    #[arg(long, value_name = "MIB", default_value_t = stakeraid::sandbox::DEFAULT_MEMORY_MB, allow_negative_numbers = true,
          value_parser = clap::value_parser!(u64).range(16..=1 << 30))]
    memory_mb: u64,
    /// Processes and threads a run may have at once; going past it is the
    /// verdict "too many processes".
    #[arg(long, value_name = "N", default_value_t = stakeraid::sandbox::DEFAULT_PROCESSES, allow_negative_numbers = true,
          value_parser = clap::value_parser!(u32).range(1..=1 << 22))]
    processes: u32,
    /// What a run may write to its case folder, /tmp and /dev/shm
    /// together, in MiB (and at most 4096 files); filling it is the
    /// verdict "disk limit". It counts in the run's memory.
    #[arg(long, value_name = "MIB", default_value_t = stakeraid::sandbox::DEFAULT_DISK_MB, allow_negative_numbers = true,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    disk_mb: u64,
    /// Pass this variable of your environment to the program (NAME), or
    /// set one (NAME=VALUE); repeatable. It gets nothing else of yours but
    /// PATH, HOME, TMPDIR, LANG and its interpreter's variables.
    #[arg(long = "env", value_name = "NAME[=VALUE]")]
    env: Vec<EnvVar>,
    /// Show this file or folder to the program, read-only (repeatable):
    /// an interpreter or data of yours that the box hides.
    #[arg(long = "read", value_name = "PATH")]
    read: Vec<PathBuf>,
}

impl SandboxArgs {
    /// The settings, refused under `--sandbox require` where this machine
    /// lacks a protection; under `auto`, what it lacks is said once.
    pub fn settings(&self) -> anyhow::Result<SandboxSettings> {
        let settings = SandboxSettings {
            mode: self.sandbox,
            memory_mb: self.memory_mb,
            processes: self.processes,
            disk_mb: self.disk_mb,
            env: self.env.clone(),
            read: self.read.clone(),
        }
        .checked()?;
        let protections = settings.protections()?;
        if !protections.missing.is_empty() {
            eprintln!(
                "stakeraid: sandbox: without {} (--sandbox require refuses this)",
                protections.missing.join("; ")
            );
        }
        Ok(settings)
    }
}

/// Parses `--cases`: a whole number from 1.
fn parse_cases(s: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| "must be a whole number of cases, at least 1".into())
}

/// Parses `--time-limit`: seconds above 0, at most 1e9.
fn parse_time_limit(s: &str) -> Result<Duration, String> {
    match super::limits::parse_seconds(s) {
        Ok(d) if !d.is_zero() => Ok(d),
        _ => Err("must be a number of seconds above 0 and at most 1e9".into()),
    }
}

/// The program the arguments name.
fn program(command: &[String]) -> anyhow::Result<Program> {
    if let [one] = command {
        if let Some(shell) = one.strip_prefix("cmd:") {
            anyhow::ensure!(
                !shell.trim().is_empty(),
                "cmd: needs a command, e.g. cmd:/path/to/program"
            );
            return Ok(Program::shell(shell));
        }
    }
    let cwd = std::env::current_dir().context("reading the current folder")?;
    Program::from_args(command, &cwd).context("no program given")
}

/// Grades the program and prints the report; `Ok(true)` when every case
/// passes byte for byte.
pub fn run_grade(args: &GradeArgs) -> anyhow::Result<bool> {
    let stdout = Some(Path::new("-"));
    let json_out = args.json.as_deref() == stdout;
    let gradescope_out = args.gradescope.as_deref() == stdout;
    // Two JSON documents back to back are no JSON document.
    anyhow::ensure!(
        !(json_out && gradescope_out),
        "--json - and --gradescope - would both write to standard output: give one of them a file"
    );
    if let Some(dir) = &args.class {
        return run_class(args, dir).map(|()| true);
    }
    // Before the sandbox's probe, which runs a program in a folder of
    // its own.
    let terminal = std::io::stderr().is_terminal();
    end_on_signal(terminal);
    let program = program(&args.command)?;
    program.check()?;
    let hidden: Vec<PathBuf> = args.cases_from.iter().cloned().collect();
    let program = program.sandboxed(args.sandbox.settings()?, &hidden)?;
    let to_stdout = json_out || gradescope_out;
    for path in [&args.json, &args.gradescope].into_iter().flatten() {
        if path != Path::new("-") {
            check_writable(path)?;
        }
    }
    let (cases, source) = cases_of(args)?;
    let settings = grade_settings(args);

    let bar = if terminal {
        let bar = ProgressBar::new(cases.len() as u64);
        bar.set_style(ProgressStyle::with_template(
            "{bar:40} {pos}/{len} cases  {msg}  [{elapsed}<{eta}]",
        )?);
        bar
    } else {
        ProgressBar::hidden()
    };
    let failed = AtomicUsize::new(0);
    let mut report = grade(&program, &cases, &settings, &|result| {
        if !result.verdict.passes(false) {
            failed.fetch_add(1, Ordering::Relaxed);
        }
        bar.inc(1);
        let failed = failed.load(Ordering::Relaxed);
        bar.set_message(
            if bar.position() == bar.length().unwrap_or(0) && failed > 0 {
                format!("{failed} failed; shrinking")
            } else {
                format!("{failed} failed")
            },
        );
    })
    .context("running the program")?;
    bar.finish_and_clear();
    report.source = source;

    // The text report first: should a file fail after all, the grade is
    // still shown.
    if !to_stdout {
        write_stdout(&report.to_string())?;
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report)? + "\n";
        if json_out {
            write_stdout(&text)?;
        } else {
            write_output(path, text.as_bytes())?;
        }
    }
    if let Some(path) = &args.gradescope {
        let text =
            serde_json::to_string_pretty(&report.gradescope(args.gradescope_visibility))? + "\n";
        if gradescope_out {
            write_stdout(&text)?;
        } else {
            write_output(path, text.as_bytes())?;
        }
    }
    Ok(report.all_pass())
}

/// The cases `args` asks for and where they come from, the ones a plain
/// search would need more than the limit for named before the run.
fn cases_of(args: &GradeArgs) -> anyhow::Result<(Vec<Case>, String)> {
    let (cases, source) = select_cases(
        args.cases_from.as_deref(),
        args.expected,
        args.seed,
        args.cases,
        args.time_limit,
    )?;
    warn_costly(&cases, args.time_limit);
    Ok((cases, source))
}

/// The grade's settings, from the arguments: one program's, and each
/// student's under --class.
fn grade_settings(args: &GradeArgs) -> GradeSettings {
    GradeSettings {
        run: RunSettings {
            time_limit: args.time_limit,
        },
        jobs: args.jobs,
        shrink_runs: args.shrink_runs,
        shrink_time: args.shrink_time,
    }
}

/// `--class DIR`: bad input refused before anything runs, then every
/// submission graded with the settings built here, carried whole.
fn run_class(args: &GradeArgs, dir: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        !args.command.first().is_some_and(|w| w.starts_with("cmd:")) || args.command.len() > 1,
        "--class runs -- PROGRAM ARGS... from each submission folder; cmd: is for one program"
    );
    let out = args
        .class_out
        .clone()
        .unwrap_or_else(|| PathBuf::from("grades"));
    let roster = args
        .roster
        .as_deref()
        .map(|path| Roster::read(path, args.assignment.as_deref()))
        .transpose()?;
    let (subs, site) = super::class::check_class(dir, &out, roster.as_ref())?;
    let hidden: Vec<PathBuf> = args.cases_from.iter().cloned().collect();
    let sandbox = args.sandbox.settings()?;
    let (cases, source) = cases_of(args)?;
    let settings = ClassSettings {
        grade: grade_settings(args),
        sandbox,
        hidden,
        command: args.command.clone(),
        source,
    };
    let roster = roster.as_ref().map(|r| (r, site));
    super::class::run_class(&subs, &cases, &settings, &out, roster)
}

/// Says before the run which cases a plain textbook search (minimax, in
/// Python) is estimated to need more than `limit` for: a folder's cases
/// may, drawn ones never do.
fn warn_costly(cases: &[Case], limit: Duration) {
    let costly: Vec<&str> = cases
        .iter()
        .filter(|c| textbook_seconds(c.problem.board.n(), c.textbook_nodes) > limit.as_secs_f64())
        .map(|c| c.name.as_str())
        .collect();
    if costly.is_empty() {
        return;
    }
    let shown: Vec<&str> = costly.iter().take(8).copied().collect();
    let more = if costly.len() > 8 { ", ..." } else { "" };
    let verb = if costly.len() == 1 { "needs" } else { "need" };
    eprintln!(
        "stakeraid: {} of the {} cases {verb} more than the {} s limit from a plain textbook \
         minimax search in Python (estimated): {}{more}",
        costly.len(),
        cases.len(),
        limit.as_secs_f64(),
        shown.join(", ")
    );
}
