//! A side of a refereed game as the command line names it, and the checks
//! that can be made on a program before any game is played.

use std::fmt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::str::FromStr;

use crate::play::arena::{Agent, AgentError};

/// One side of a refereed game.
#[derive(Clone, Debug, PartialEq)]
pub enum Side {
    /// A built-in agent, run in this process.
    Agent(Agent),
    /// A program in the assignment's format, run as `sh -c COMMAND`.
    Command(String),
}

/// Why a side's name was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SideError {
    /// `cmd:` with nothing after it.
    #[error("cmd: needs a command, e.g. cmd:/path/to/program")]
    NoCommand,
    /// Neither `cmd:...` nor an agent.
    #[error("{0}; or cmd:COMMAND for a program")]
    Agent(#[from] AgentError),
}

impl FromStr for Side {
    type Err = SideError;

    /// `cmd:COMMAND` for a program, otherwise a built-in agent name
    /// (`random`, `greedy`, `textbook:D`, `ab:D`, `comp:S`, ...).
    fn from_str(s: &str) -> Result<Side, SideError> {
        if let Some(command) = s.strip_prefix("cmd:") {
            if command.trim().is_empty() {
                return Err(SideError::NoCommand);
            }
            return Ok(Side::Command(command.to_owned()));
        }
        Ok(Side::Agent(s.parse::<Agent>()?))
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Side::Agent(a) => write!(f, "{a}"),
            Side::Command(c) => write!(f, "cmd:{c}"),
        }
    }
}

/// A program that cannot run, found before the first game.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{side}: {program} {problem}")]
pub struct ProgramError {
    /// The side as given (`cmd:...`).
    pub side: String,
    /// The program the command starts.
    pub program: String,
    /// What is wrong with it.
    pub problem: &'static str,
}

impl Side {
    /// Checks that a program side's command starts something that exists
    /// and may be executed, so that a typing mistake is reported at once
    /// rather than as a crash in every game. Only the command's first word
    /// is checked, and only when it is a plain word: a command built with
    /// quotes, variables or redirections is left to the games to judge.
    pub fn check(&self) -> Result<(), ProgramError> {
        let Side::Command(command) = self else {
            return Ok(());
        };
        match command_problem(command) {
            None => Ok(()),
            Some((program, problem)) => Err(ProgramError {
                side: self.to_string(),
                program: program.to_owned(),
                problem,
            }),
        }
    }
}

/// What keeps the shell command `command` from starting its program, if
/// anything can be known before it runs: its first word is checked, and
/// only when it is a plain word (quotes, variables or redirections are
/// left to the runs to judge). Returns that word and the problem.
pub(crate) fn command_problem(command: &str) -> Option<(&str, &'static str)> {
    let program = command.split_whitespace().next()?;
    if program.contains(|c: char| "'\"\\$`;&|<>(){}*?[]=~#".contains(c)) {
        return None;
    }
    if let Some(problem) = program_problem(program) {
        return Some((program, problem));
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    if words
        .iter()
        .any(|w| w.contains(|c: char| "'\"\\$`;&|<>(){}*?[]=~#".contains(c)))
    {
        return None;
    }
    // The command runs in a temporary folder: a relative path names
    // nothing there.
    own_files_problem(&words, Path::new("/nonexistent"))
}

/// Interpreters that run a script named by their first word that is not
/// an option.
const INTERPRETERS: [&str; 13] = [
    "python", "python2", "python3", "pypy", "pypy3", "node", "ruby", "perl", "bash", "sh", "dash",
    "php", "Rscript",
];

/// Options of those interpreters after which no script is named (the
/// program is given in the command line or is a module).
const NO_SCRIPT: [&str; 6] = ["-c", "-m", "-e", "-E", "--eval", "-"];

/// Options of those interpreters that take the next word as their value.
const VALUED: [&str; 4] = ["-W", "-X", "-Q", "-I"];

/// What keeps a program's own files from being found, when the words
/// (the program, then its arguments, paths made absolute where they exist
/// from `cwd`) run a script (`python3 typo.py`) or a Java class (`java
/// Missing`) that is not there: the missing word and the problem.
pub(crate) fn own_files_problem<'a>(
    words: &[&'a str],
    cwd: &Path,
) -> Option<(&'a str, &'static str)> {
    let (program, args) = words.split_first()?;
    let name = Path::new(program).file_name()?.to_str()?;
    let exists = |w: &str| cwd.join(w).exists();
    if name == "java" {
        return java_problem(args, cwd);
    }
    let versioned = name
        .strip_prefix("python")
        .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.'));
    if !versioned && !INTERPRETERS.contains(&name) {
        return None;
    }
    let mut args = args.iter();
    while let Some(&arg) = args.next() {
        if NO_SCRIPT.contains(&arg) {
            return None;
        }
        if VALUED.contains(&arg) {
            args.next();
        } else if !arg.starts_with('-') {
            return (!exists(arg)).then_some((arg, "does not exist"));
        }
    }
    None
}

/// [`own_files_problem`] for `java ARGS`: a `-jar` file or a source file
/// that does not exist, or a class whose `.class` file is in no folder of
/// the class path (`-cp`, else `CLASSPATH`, else the case's own folder,
/// where it never is).
fn java_problem<'a>(args: &[&'a str], cwd: &Path) -> Option<(&'a str, &'static str)> {
    let mut class_path: Option<String> = None;
    let mut args = args.iter();
    while let Some(&arg) = args.next() {
        match arg {
            "-cp" | "-classpath" | "--class-path" => {
                class_path = args.next().map(|s| s.to_string())
            }
            "-jar" => {
                let jar = args.next()?;
                return (!cwd.join(jar).exists()).then_some((jar, "does not exist"));
            }
            "-m" | "--module" | "--module-path" | "-p" => return None,
            _ if arg.starts_with('-') => {}
            _ if arg.ends_with(".java") => {
                return (!cwd.join(arg).exists()).then_some((arg, "does not exist"));
            }
            class => {
                let given = class_path.is_some();
                let path = class_path
                    .or_else(|| std::env::var("CLASSPATH").ok())
                    .unwrap_or_else(|| ".".into());
                let file = format!("{}.class", class.replace('.', "/"));
                let found = path.split(':').any(|entry| {
                    let entry = Path::new(entry);
                    // A jar, or a wildcard of jars, is not looked into.
                    entry.extension().is_some_and(|e| e == "jar")
                        || entry.ends_with("*")
                        || (entry.is_absolute() && entry.join(&file).exists())
                });
                return match (found, given) {
                    (true, _) => None,
                    (false, true) => {
                        Some((class, "is a class found in no folder of the class path"))
                    }
                    (false, false) => Some((
                        class,
                        "is looked for in each case's own folder, java's default class path: \
                         give -cp with the folder of its .class file",
                    )),
                };
            }
        }
    }
    None
}

/// What keeps `program` (a path, or a name `sh` looks up) from running in a
/// temporary folder of its own, if anything.
pub(crate) fn program_problem(program: &str) -> Option<&'static str> {
    if program.contains('/') {
        path_problem(Path::new(program))
    } else if !on_path(program) {
        Some("is not a command sh knows (not on PATH, nor built in)")
    } else {
        None
    }
}

/// What keeps the program at `path` from running, if anything.
fn path_problem(path: &Path) -> Option<&'static str> {
    if path.is_relative() {
        // Each program runs in a temporary folder of its own.
        return Some(
            "is a relative path: give it in full (programs run in their own temporary folder)",
        );
    }
    match std::fs::metadata(path) {
        Err(_) => Some("does not exist"),
        Ok(m) if m.is_dir() => Some("is a folder, not a program"),
        Ok(m) if m.permissions().mode() & 0o111 == 0 => Some("is not executable"),
        Ok(_) => None,
    }
}

/// True when `sh` finds `name` as a builtin, function or on `PATH`, as it
/// will when it runs the command.
fn on_path(name: &str) -> bool {
    Command::new("sh")
        .args(["-c", "command -v \"$1\"", "sh", name])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_parse_and_print() {
        for s in [
            "greedy",
            "comp:2.5",
            "cmd:./a.out --fast",
            "cmd:python3 x.py",
        ] {
            assert_eq!(s.parse::<Side>().unwrap().to_string(), s);
        }
        assert_eq!("ab:3".parse(), Ok(Side::Agent(Agent::AlphaBeta(3))));
        for s in ["gredy", "./a.out", "cmd:", "cmd:  ", "ab:0"] {
            let e = s.parse::<Side>().unwrap_err().to_string();
            assert!(e.contains("cmd:"), "{s}: {e}");
        }
    }

    #[test]
    fn programs_that_cannot_run_are_found_before_a_game() {
        let problem = |s: &str| s.parse::<Side>().unwrap().check().err().map(|e| e.problem);
        assert_eq!(problem("greedy"), None);
        assert_eq!(problem("cmd:sh -c true"), None);
        assert_eq!(problem("cmd:cd /tmp && ls"), None);
        // Run in the side's temporary folder, where no x.sh can be.
        assert_eq!(problem("cmd:/bin/sh x.sh"), Some("does not exist"));
        assert_eq!(problem("cmd:/bin/sh /bin/true"), None);
        assert_eq!(problem("cmd:\"$HOME/prog\""), None, "left to the games");
        assert_eq!(problem("cmd:/nonexistent/prog"), Some("does not exist"));
        assert_eq!(problem("cmd:/ --x"), Some("is a folder, not a program"));
        assert_eq!(problem("cmd:/etc/passwd"), Some("is not executable"));
        assert!(problem("cmd:./prog").unwrap().contains("relative"));
        assert!(problem("cmd:no-such-program-anywhere").is_some());
        assert_eq!(problem("cmd:python3 /no/typo.py"), Some("does not exist"));
        assert_eq!(problem("cmd:python3 -c pass"), None);
        assert_eq!(problem("cmd:sh -c true"), None);
    }

    #[test]
    fn a_missing_script_or_class_is_found() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("hw.py"), "").unwrap();
        std::fs::write(dir.path().join("Main.class"), "").unwrap();
        let cp = dir.path().display().to_string();
        let problem =
            |words: &[&str]| own_files_problem(words, dir.path()).map(|(w, _)| w.to_owned());
        assert_eq!(
            problem(&["python3", "-u", "typo.py"]),
            Some("typo.py".into())
        );
        assert_eq!(problem(&["/usr/bin/python3.11", "hw.py"]), None);
        assert_eq!(problem(&["python3", "-m", "typo"]), None);
        assert_eq!(problem(&["java", "Missing"]), Some("Missing".into()));
        assert_eq!(problem(&["java", "-cp", &cp, "Main"]), None);
        assert_eq!(
            problem(&["java", "-cp", &cp, "Missing"]),
            Some("Missing".into())
        );
        assert_eq!(
            problem(&["java", "-jar", "none.jar"]),
            Some("none.jar".into())
        );
        assert_eq!(problem(&["./a.out"]), None, "checked as the program itself");
    }
}
