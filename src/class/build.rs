//! A student's program made ready to grade: the command the class gives
//! (`-- PROGRAM`), or the one the folder's files call for
//! ([`super::conventions`]), built first where it must be. A build runs
//! boxed as a run does (the same sandbox and limits, [`BUILD_SECONDS`] of
//! CPU), in `builds/STUDENT/` of the class's output folder, on a copy of
//! the files at the top of the student's folder: the student's folder is
//! never written. A build that fails is the student's row, with the
//! compiler's first error line.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::grade::{GatePlace, Program, RunSettings};
use crate::play::referee::{run_sandboxed, Exit, ProgramError, ProgramRun};
use crate::sandbox::{Sandbox, SandboxError};

use super::conventions::{made_by_make, plan};
use super::ClassSettings;

/// CPU seconds a build may use (the wall clock allows three times it and a
/// second): `g++ -O2` or `javac` on a homework takes a few.
pub const BUILD_SECONDS: u64 = 60;

/// Files of a student's folder copied to build from, at most.
const COPY_FILES: usize = 1000;

/// Bytes of a student's folder copied to build from, at most.
const COPY_BYTES: u64 = 64 << 20;

/// The longest compiler line kept in the gradebook.
const LINE_CHARS: usize = 300;

/// A student's program, ready: the program and how it was found.
pub(super) struct Ready {
    /// The program, in its box.
    pub(super) program: Program,
    /// How the student is run, for the gradebook.
    pub(super) how: How,
}

/// How a student was (or was to be) built and run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct How {
    /// The language, or `given` for a command the class gives.
    pub language: String,
    /// The build's command, empty when nothing is built.
    pub build: String,
    /// The run's command, as given (words relative to the folder it runs
    /// from: the student's, or the built copy).
    pub command: String,
}

/// Why a student cannot be graded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Unready {
    /// No program to run (none in the folder, more than one, or one that
    /// cannot start): why.
    CannotRun(String, How),
    /// The build failed: the compiler's first error line.
    CannotBuild(String, How),
}

/// Why a student's program was not built: the student's trouble, said in
/// the row.
#[derive(Debug, thiserror::Error)]
enum BuildFailure {
    /// The student's folder cannot be read.
    #[error("cannot read the folder to build it: {0}")]
    Unreadable(io::Error),
    /// Its top holds more than a build copies.
    #[error(
        "the folder is too large to build (over {COPY_FILES} files or {} MiB at its top)",
        COPY_BYTES >> 20
    )]
    TooLarge,
    /// A file of it cannot be copied to build from.
    #[error("cannot copy {} to build it: {error}", .file.display())]
    Copy {
        /// The file.
        file: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// The compiler cannot be started (missing on this machine).
    #[error(transparent)]
    Compiler(#[from] ProgramError),
    /// The box cannot be made as the settings ask.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// The build ran and failed: the line that says why.
    #[error("{0}")]
    Failed(String),
}

/// The program of `sub_dir`, its runs at `place`, built into `builds`
/// (named `student`) when it must be. The error is the grader's own
/// trouble (a folder it cannot make); the student's is [`Unready`].
pub(super) fn ready(
    student: &str,
    sub_dir: &Path,
    settings: &ClassSettings,
    builds: &Path,
    place: &GatePlace,
) -> io::Result<Result<Ready, Unready>> {
    if !settings.command.is_empty() {
        let how = How {
            language: "given".into(),
            build: String::new(),
            command: settings.command.join(" "),
        };
        return Ok(boxed(&settings.command, sub_dir, settings, place, how));
    }
    let plan = match plan(sub_dir) {
        Ok(plan) => plan,
        Err(why) => {
            return Ok(Err(Unready::CannotRun(why.to_string(), How::default())));
        }
    };
    let mut how = How {
        language: plan.language.clone(),
        build: plan.build.as_ref().map(|b| b.join(" ")).unwrap_or_default(),
        command: plan.run.as_ref().map(|r| r.join(" ")).unwrap_or_default(),
    };
    let dir = builds.join(student);
    if let Some(words) = &plan.build {
        if let Err(why) = build(words, sub_dir, &dir, settings, place)? {
            return Ok(Err(Unready::CannotBuild(why.to_string(), how)));
        }
    }
    let run = match plan.run {
        Some(run) => run,
        None => match made_by_make(&dir) {
            Some(run) => {
                how.command = run.join(" ");
                run
            }
            None => {
                let why = "make made no homework program nor homework.class (name it so, \
                           or give a run.sh that runs it)";
                return Ok(Err(Unready::CannotBuild(why.into(), how)));
            }
        },
    };
    let from = if plan.from_build { &dir } else { sub_dir };
    Ok(boxed(&run, from, settings, place, how))
}

/// The program `words` run from `dir`, checked and boxed, its runs at
/// `place`.
fn boxed(
    words: &[String],
    dir: &Path,
    settings: &ClassSettings,
    place: &GatePlace,
    how: How,
) -> Result<Ready, Unready> {
    let cannot = |why: String, how: &How| Unready::CannotRun(why, how.clone());
    let program =
        Program::from_args(words, dir).ok_or_else(|| cannot("no program given".into(), &how))?;
    program
        .check_in(dir)
        .map_err(|e| cannot(e.to_string(), &how))?;
    // The box's settings are cloned whole (they may stop being `Copy`).
    #[allow(clippy::clone_on_copy)]
    let program = program
        .sandboxed(settings.sandbox.clone(), &settings.hidden)
        .map_err(|e| cannot(e.to_string(), &how))?;
    Ok(Ready {
        program: program.gated(place.clone()),
        how,
    })
}

/// Builds with `words` in `dir`, made afresh from the top files of
/// `sub_dir`: `Ok(Err(why))` when the build fails.
fn build(
    words: &[String],
    sub_dir: &Path,
    dir: &Path,
    settings: &ClassSettings,
    place: &GatePlace,
) -> io::Result<Result<(), BuildFailure>> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    if let Err(why) = copy_top_files(sub_dir, dir) {
        return Ok(Err(why));
    }
    let compiler = Program::from_args(words, dir).expect("a build has words");
    if let Err(e) = compiler.check_in(dir) {
        return Ok(Err(e.into()));
    }
    #[allow(clippy::clone_on_copy)]
    let sandbox = match Sandbox::new(settings.sandbox.clone(), words, &settings.hidden) {
        Ok(sandbox) => sandbox,
        Err(e) => return Ok(Err(e.into())),
    };
    let mut limits = RunSettings {
        time_limit: Duration::from_secs(BUILD_SECONDS),
    }
    .limits();
    // The build's products come back from the box.
    limits.keep_files = true;
    let run = {
        let _slot = place.enter();
        run_sandboxed(compiler.command(), dir, "", &limits, &sandbox)?
    };
    let _ = std::fs::remove_file(dir.join("input.txt"));
    if run.exit == Exit::Code(0) && run.limit.is_none() {
        // Files come back from the box as plain files: the program made
        // may be run.
        let made = dir.join("homework");
        if made.is_file() {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&made, std::fs::Permissions::from_mode(0o755))?;
        }
        return Ok(Ok(()));
    }
    // The compiler names the files by the build folder's paths: the
    // student's own names are shorter.
    let line = first_error(&run).replace(&format!("{}/", dir.display()), "");
    Ok(Err(BuildFailure::Failed(line)))
}

/// Copies the regular files at the top of `from` into `to` (a build sees
/// no sub-folder: the box carries only the files at the top of its
/// folder); `Err` with why when the folder cannot be read or is too large.
fn copy_top_files(from: &Path, to: &Path) -> Result<(), BuildFailure> {
    let unreadable = BuildFailure::Unreadable;
    let mut files: Vec<PathBuf> = Vec::new();
    let mut bytes = 0;
    for entry in std::fs::read_dir(from).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let meta = entry.metadata().map_err(unreadable)?;
        if meta.is_file() {
            bytes += meta.len();
            files.push(entry.path());
        }
    }
    if files.len() > COPY_FILES || bytes > COPY_BYTES {
        return Err(BuildFailure::TooLarge);
    }
    for file in files {
        let name = file.file_name().expect("a file has a name");
        if let Err(e) = std::fs::copy(&file, to.join(name)) {
            return Err(BuildFailure::Copy { file, error: e });
        }
    }
    Ok(())
}

/// The line that says why a build failed: the first line of its messages
/// that speaks of an error, else their first line, else how it ended.
fn first_error(run: &ProgramRun) -> String {
    let text = format!("{}\n{}", run.stderr.text(), run.stdout.text());
    let lines = || text.lines().map(str::trim).filter(|l| !l.is_empty());
    let line = lines()
        .find(|l| l.to_ascii_lowercase().contains("error"))
        .or_else(|| lines().next());
    let over = format!("the build went past its limit of {BUILD_SECONDS} s of CPU");
    let line = match (run.limit, line) {
        (Some(hit), _) => hit.to_string(),
        _ if run.cpu >= BUILD_SECONDS as f64 => over.clone(),
        (None, Some(line)) => line.to_owned(),
        (None, None) => match run.exit {
            Exit::Code(code) => format!("the build exited with code {code}"),
            Exit::Signal(signal) => format!("the build died of signal {signal}"),
            Exit::Killed => over,
        },
    };
    match line.char_indices().nth(LINE_CHARS) {
        Some((cut, _)) => format!("{} ...", &line[..cut]),
        None => line,
    }
}
