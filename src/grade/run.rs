//! One run of the graded program on one case, as the course's script runs
//! it: a fresh temporary folder, `input.txt` written and no `output.txt`,
//! the command started there with no arguments, under the referee's
//! process handling ([`run_limited`]): the whole process group killed at
//! the end, a wall-clock limit, a CPU-time limit on every process and on
//! the tree's total, standard output and error kept bounded; and, once
//! [`Program::sandboxed`], in the program's [`Sandbox`].

use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use crate::play::referee::{
    command_problem, own_files_problem, program_problem, run_sandboxed, Captured, Exit,
    ProgramError, RunLimits, WallGuard,
};
use crate::sandbox::{LimitHit, Sandbox, SandboxError, SandboxSettings};

use super::gate::GatePlace;

/// The largest file a graded program may write (`output.txt` included): a
/// 26 x 26 answer is under 1 KiB.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Names of files a run left beside `input.txt` that are kept for the
/// report (to find an `output.txt` under another name).
const FILES_KEPT: usize = 20;

/// The program graded: a command `sh -c` runs in each case's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The `sh -c` text.
    command: String,
    /// The program word checked before the first case, when known.
    word: Option<String>,
    /// As the user gave it.
    shown: String,
    /// The words of the command: the program and its arguments, or the
    /// shell command's words.
    words: Vec<String>,
    /// Where it runs (none until [`Program::sandboxed`]).
    sandbox: Sandbox,
    /// The slots its runs share with other programs' (a class), if any.
    gate: Option<GatePlace>,
}

impl Program {
    /// A shell command, as the referee takes `cmd:COMMAND`: paths in it
    /// must be absolute, since it runs in a temporary folder.
    pub fn shell(command: &str) -> Program {
        Program {
            command: command.to_owned(),
            word: None,
            shown: format!("cmd:{command}"),
            words: command.split_whitespace().map(str::to_owned).collect(),
            sandbox: Sandbox::off(),
            gate: None,
        }
    }

    /// A program and its arguments (`grade -- python3 homework.py`), run
    /// with each word quoted for `sh`. A word that names a file or folder
    /// relative to `cwd` is made absolute, since each case runs in a
    /// temporary folder; so is a program given as a relative path that
    /// names nothing, so that the check says it does not exist. `None` for
    /// no word at all.
    pub fn from_args(args: &[String], cwd: &Path) -> Option<Program> {
        let given = args;
        let with_class_path = java_class_path(args, cwd);
        let args = with_class_path.as_deref().unwrap_or(args);
        let words: Vec<String> = args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let path = Path::new(a);
                let program_path = i == 0 && a.contains('/');
                if !a.starts_with('-')
                    && path.is_relative()
                    && (program_path || cwd.join(path).exists())
                {
                    // `./a.out` as `/cwd/a.out`, not `/cwd/./a.out`.
                    let plain: PathBuf = path
                        .components()
                        .filter(|c| *c != Component::CurDir)
                        .collect();
                    cwd.join(plain).display().to_string()
                } else {
                    a.clone()
                }
            })
            .collect();
        let first = words.first()?.clone();
        Some(Program {
            command: words
                .iter()
                .map(|w| sh_quote(w))
                .collect::<Vec<_>>()
                .join(" "),
            word: Some(first),
            shown: given.join(" "),
            words,
            sandbox: Sandbox::off(),
            gate: None,
        })
    }

    /// The program run in a sandbox with `settings`, showing it its own
    /// files but not the folders in `hidden` (the answer key). The error:
    /// `--sandbox require` where this machine cannot.
    pub fn sandboxed(
        mut self,
        settings: SandboxSettings,
        hidden: &[PathBuf],
    ) -> Result<Program, SandboxError> {
        self.sandbox = Sandbox::new(settings, &self.words, hidden)?;
        Ok(self)
    }

    /// The program with each of its runs waiting for a slot at `place`,
    /// shared with other programs graded at the same time.
    pub fn gated(mut self, place: GatePlace) -> Program {
        self.gate = Some(place);
        self
    }

    /// Where it runs.
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// The text `sh -c` runs.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Checks that the command starts something that exists and may be
    /// executed, and that a shell command names no file of the current
    /// folder by a relative path (each case runs in a folder of its own,
    /// where it would not be found), so that a typing mistake is one error
    /// before the first case rather than a crash in every case.
    pub fn check(&self) -> Result<(), ProgramError> {
        let cwd = std::env::current_dir().unwrap_or_default();
        self.check_in(&cwd)
    }

    /// [`Program::check`] from the folder `cwd`.
    pub fn check_in(&self, cwd: &Path) -> Result<(), ProgramError> {
        let words: Vec<&str> = self.words.iter().map(String::as_str).collect();
        let problem = match &self.word {
            Some(word) => program_problem(word)
                .map(|p| (word.as_str(), p))
                .or_else(|| own_files_problem(&words, cwd)),
            None => relative_word(&self.command, cwd)
                .map(|w| {
                    let why = "names a file of the current folder, but the command runs in \
                               each case's own temporary folder: give its full path";
                    (w, why)
                })
                .or_else(|| command_problem(&self.command)),
        };
        match problem {
            None => Ok(()),
            Some((program, problem)) => Err(ProgramError {
                side: self.shown.clone(),
                program: program.to_owned(),
                problem,
            }),
        }
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

/// The first word of the shell command `command` that names a file or
/// folder of `cwd` by a relative path (quotes around it taken off), other
/// than the case's own `input.txt` and `output.txt`. Words the shell would
/// expand or that redirect are left alone: rewriting them could change
/// what the command means.
fn relative_word<'a>(command: &'a str, cwd: &Path) -> Option<&'a str> {
    command
        .split_whitespace()
        .map(|w| w.trim_matches(|c| c == '\'' || c == '"'))
        .filter(|w| !w.is_empty() && !w.starts_with('-'))
        .filter(|w| !w.contains(|c: char| "$`*?[]<>|;&(){}~=\\".contains(c)))
        .filter(|w| !["input.txt", "output.txt"].contains(w))
        .find(|w| Path::new(w).is_relative() && cwd.join(w).exists())
}

/// `java CLASS ...` run as the course's script runs it, from the folder of
/// `CLASS.class`, whose default class path is that folder: the same with
/// `-cp` that folder, since each case runs in a folder of its own. `None`
/// for any other command, one that gives a class path, or a class not in
/// `cwd`.
fn java_class_path(args: &[String], cwd: &Path) -> Option<Vec<String>> {
    let (program, rest) = args.split_first()?;
    if Path::new(program).file_name()? != "java" || std::env::var_os("CLASSPATH").is_some() {
        return None;
    }
    const CHOSEN: [&str; 7] = [
        "-cp",
        "-classpath",
        "--class-path",
        "-jar",
        "-m",
        "--module",
        "--source",
    ];
    let class = rest.iter().find(|a| !a.starts_with('-'))?;
    let chosen = rest
        .iter()
        .take_while(|a| a.starts_with('-'))
        .any(|a| CHOSEN.contains(&a.as_str()) || a.starts_with("--class-path="));
    let file = cwd.join(format!("{}.class", class.replace('.', "/")));
    if chosen || class.ends_with(".java") || !file.is_file() {
        return None;
    }
    let mut with = vec![program.clone(), "-cp".into(), cwd.display().to_string()];
    with.extend(rest.iter().cloned());
    Some(with)
}

/// `word` quoted for `sh`: as it is when it holds nothing the shell reads
/// specially, else in single quotes.
pub fn sh_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The limits of one run of a graded program.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunSettings {
    /// CPU time the whole process tree may use; the wall clock allows the
    /// referee's guard on it (three times it, plus a second).
    pub time_limit: Duration,
}

impl RunSettings {
    /// The process limits of a run.
    pub fn limits(&self) -> RunLimits {
        RunLimits {
            wall: WallGuard::default().limit(self.time_limit.as_secs_f64()),
            cpu: Some(self.time_limit),
            file_bytes: Some(MAX_FILE_BYTES),
            keep_stdout: true,
            keep_files: false,
        }
    }
}

/// What one run of the program on a case did.
#[derive(Clone, Debug)]
pub struct CaseRun {
    /// CPU seconds of the program and everything it started.
    pub cpu: f64,
    /// Wall-clock seconds.
    pub wall: f64,
    /// How it ended.
    pub exit: Exit,
    /// The bytes of `output.txt` (at most 1 MiB and one byte), or why there
    /// are none (`NotFound`: not written).
    pub output: Result<Vec<u8>, io::ErrorKind>,
    /// The size of that `output.txt`, whole (0 when none).
    pub output_size: u64,
    /// Names of the other files the run left in its folder, sorted (the
    /// first few).
    pub files: Vec<String>,
    /// Standard output, its start and end.
    pub stdout: Captured,
    /// Standard error, its start and end.
    pub stderr: Captured,
    /// The last lines of standard error, in one line.
    pub stderr_tail: String,
    /// The sandbox's limit the run went past, if it did.
    pub limit: Option<LimitHit>,
}

/// Runs `program` on `input` in a new temporary folder (removed after).
/// The error is the grader's own trouble (making the folder, starting
/// `sh`); everything the program does is in the [`CaseRun`].
pub fn run_case(program: &Program, input: &str, settings: &RunSettings) -> io::Result<CaseRun> {
    let _slot = program.gate.as_ref().map(GatePlace::enter);
    let dir = crate::scratch::Scratch::new("stakeraid-grade-")?;
    let run = run_sandboxed(
        program.command(),
        dir.path(),
        input,
        &settings.limits(),
        &program.sandbox,
    )?;
    let mut files: Vec<String> = std::fs::read_dir(dir.path())?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != "input.txt" && name != "output.txt")
        .collect();
    files.sort();
    files.truncate(FILES_KEPT);
    Ok(CaseRun {
        cpu: run.cpu,
        wall: run.wall,
        exit: run.exit,
        output: run.output,
        output_size: run.output_size,
        files,
        stdout: run.stdout,
        stderr: run.stderr,
        stderr_tail: run.stderr_tail,
        limit: run.limit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_lists_are_quoted_and_made_absolute() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("hw.py"), "").unwrap();
        let args: Vec<String> = ["python3", "hw.py", "it's", "-v", "a b"]
            .map(String::from)
            .to_vec();
        let p = Program::from_args(&args, dir.path()).unwrap();
        let hw = dir.path().join("hw.py");
        assert_eq!(
            p.command(),
            format!("python3 {} 'it'\\''s' -v 'a b'", hw.display())
        );
        assert_eq!(p.to_string(), "python3 hw.py it's -v a b");
        assert!(p.check().is_ok());
        assert!(Program::from_args(&[], dir.path()).is_none());
        let missing = Program::from_args(&["/no/such/prog".into()], dir.path()).unwrap();
        assert_eq!(missing.check().unwrap_err().problem, "does not exist");
        let missing = Program::from_args(&["./nothere".into()], dir.path()).unwrap();
        let e = missing.check().unwrap_err();
        assert_eq!(e.problem, "does not exist");
        assert_eq!(e.program, dir.path().join("nothere").display().to_string());
        std::fs::write(dir.path().join("a.out"), "").unwrap();
        let p = Program::from_args(&["./a.out".into()], dir.path()).unwrap();
        assert_eq!(p.command(), dir.path().join("a.out").display().to_string());
        let p = Program::shell("python3 hw.py");
        let e = p.check_in(dir.path()).unwrap_err();
        assert_eq!(e.program, "hw.py");
        assert!(e.problem.contains("give its full path"), "{e}");
        let full = format!("python3 '{}' < input.txt", hw.display());
        assert!(Program::shell(&full).check_in(dir.path()).is_ok());
        let p = Program::shell("/etc/passwd x");
        assert_eq!(p.check().unwrap_err().problem, "is not executable");
        assert_eq!(p.to_string(), "cmd:/etc/passwd x");
    }

    #[test]
    fn java_from_the_class_folder_gets_it_as_its_class_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("homework.class"), "").unwrap();
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let p = Program::from_args(&args(&["java", "homework"]), dir.path()).unwrap();
        assert_eq!(
            p.command(),
            format!("java -cp {} homework", dir.path().display())
        );
        assert_eq!(p.to_string(), "java homework");
        assert!(
            p.check_in(dir.path()).is_ok(),
            "{:?}",
            p.check_in(dir.path())
        );
        let given = Program::from_args(&args(&["java", "-cp", "/x", "homework"]), dir.path());
        assert_eq!(given.unwrap().command(), "java -cp /x homework");
        let missing = Program::from_args(&args(&["java", "Other"]), dir.path()).unwrap();
        assert_eq!(missing.command(), "java Other");
    }

    #[test]
    fn a_run_starts_in_a_fresh_folder_and_lists_what_it_left() {
        let settings = RunSettings {
            time_limit: Duration::from_secs(5),
        };
        let p = Program::shell("ls; cat input.txt > Output.txt; echo oops >&2; exit 3");
        let r = run_case(&p, "hello\n", &settings).unwrap();
        assert_eq!(r.exit, Exit::Code(3));
        assert_eq!(r.output, Err(io::ErrorKind::NotFound));
        assert_eq!(r.files, ["Output.txt"]);
        assert_eq!(r.stdout.text(), "input.txt\n");
        assert_eq!(r.stderr_tail, "oops");
    }
}
