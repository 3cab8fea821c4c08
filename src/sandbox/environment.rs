//! The environment a boxed program starts with: cleared, as a contest
//! judge clears it (isolate's `--env`, DOMjudge's runguard), so that
//! nothing the grader was given (a token, a password, a course's key)
//! reaches the program, its output or the reports made of it. The program
//! gets a fixed `PATH` (the system's folders and its interpreter's own),
//! `HOME` and `TMPDIR` inside its box, `LANG=C.UTF-8`, the variables an
//! interpreter needs to start, and what `--env` passes on purpose.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Serialize, Serializer};

use super::SandboxError;

/// The system's folders of programs, in the order a shell searches them.
const SYSTEM_PATH: [&str; 6] = [
    "/usr/local/sbin",
    "/usr/local/bin",
    "/usr/sbin",
    "/usr/bin",
    "/sbin",
    "/bin",
];

/// Variables an interpreter or its version manager needs to start (a
/// pyenv shim finds its versions through `PYENV_ROOT`, a JVM through
/// `JAVA_HOME`), passed as the grader has them. None of them holds a
/// secret.
const INTERPRETER: [&str; 16] = [
    "PYENV_ROOT",
    "PYENV_VERSION",
    "PYENV_DIR",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV",
    "ASDF_DIR",
    "ASDF_DATA_DIR",
    "RBENV_ROOT",
    "NVM_DIR",
    "NVM_BIN",
    "JAVA_HOME",
    "JDK_HOME",
    "CLASSPATH",
    "GOROOT",
    "LD_LIBRARY_PATH",
];

/// A variable given with `--env`: passed from the grader's environment
/// (`NAME`), or set (`NAME=VALUE`).
#[derive(Clone, PartialEq, Eq)]
pub enum EnvVar {
    /// The grader's own value, if it has one.
    Pass(String),
    /// This value.
    Set(String, String),
}

impl EnvVar {
    /// The variable's name.
    pub fn name(&self) -> &str {
        match self {
            EnvVar::Pass(name) | EnvVar::Set(name, _) => name,
        }
    }
}

/// The value may be a secret given on purpose: only the name is shown.
impl fmt::Debug for EnvVar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvVar::Pass(name) => write!(f, "Pass({name:?})"),
            EnvVar::Set(name, _) => write!(f, "Set({name:?}, ..)"),
        }
    }
}

/// As its name: a report never shows a value.
impl Serialize for EnvVar {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl FromStr for EnvVar {
    type Err = SandboxError;

    /// `NAME` or `NAME=VALUE`, the name of letters, digits and `_`, not
    /// starting with a digit.
    fn from_str(s: &str) -> Result<EnvVar, SandboxError> {
        let (name, value) = match s.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (s, None),
        };
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid || value.is_some_and(|v| v.contains('\0')) {
            return Err(SandboxError::Env(s.to_owned()));
        }
        Ok(match value {
            Some(v) => EnvVar::Set(name.to_owned(), v.to_owned()),
            None => EnvVar::Pass(name.to_owned()),
        })
    }
}

/// The variables the program gets beyond the fixed four: those of
/// [`INTERPRETER`] the grader has, and those `--env` passes (where the
/// grader has them) or sets.
pub(crate) fn passed(env: &[EnvVar]) -> Vec<String> {
    let mut names: Vec<String> = INTERPRETER
        .iter()
        .filter(|name| std::env::var_os(name).is_some())
        .map(|name| (*name).to_owned())
        .collect();
    for var in env {
        let given = match var {
            EnvVar::Pass(name) => std::env::var_os(name).is_some(),
            EnvVar::Set(..) => true,
        };
        if given && !names.iter().any(|n| n == var.name()) {
            names.push(var.name().to_owned());
        }
    }
    names
}

/// The program's environment: `home` as `HOME` and `TMPDIR`, `PATH` the
/// grader's folders that are the system's or hold the program and its
/// interpreters (`program_dirs`), in the grader's order so that the shell
/// finds the same program, then the system's folders it lacks; then the
/// interpreter's variables and `env`, which may replace any of them.
pub(crate) fn variables(
    env: &[EnvVar],
    program_dirs: &[PathBuf],
    home: &Path,
) -> Vec<(OsString, OsString)> {
    let mut path: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    path.retain(|dir| {
        SYSTEM_PATH.iter().any(|s| dir == Path::new(s)) || program_dirs.contains(dir)
    });
    for dir in SYSTEM_PATH {
        if !path.iter().any(|p| p == Path::new(dir)) {
            path.push(PathBuf::from(dir));
        }
    }
    let path = std::env::join_paths(path).unwrap_or_else(|_| SYSTEM_PATH.join(":").into());
    let mut vars: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), path),
        ("HOME".into(), home.into()),
        ("TMPDIR".into(), home.into()),
        ("LANG".into(), "C.UTF-8".into()),
    ];
    let mut set = |name: &OsStr, value: OsString| match vars.iter_mut().find(|(n, _)| n == name) {
        Some(slot) => slot.1 = value,
        None => vars.push((name.to_owned(), value)),
    };
    for name in INTERPRETER {
        if let Some(value) = std::env::var_os(name) {
            set(OsStr::new(name), value);
        }
    }
    for var in env {
        match var {
            EnvVar::Pass(name) => {
                if let Some(value) = std::env::var_os(name) {
                    set(OsStr::new(name), value);
                }
            }
            EnvVar::Set(name, value) => set(OsStr::new(name), value.into()),
        }
    }
    vars
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_values_parse() {
        assert_eq!("A_1".parse::<EnvVar>().unwrap(), EnvVar::Pass("A_1".into()));
        assert_eq!(
            "K=a=b".parse::<EnvVar>().unwrap(),
            EnvVar::Set("K".into(), "a=b".into())
        );
        for bad in ["", "=x", "1A", "A-B", "A B=1"] {
            assert!(bad.parse::<EnvVar>().is_err(), "{bad:?}");
        }
        let set = EnvVar::Set("K".into(), "secret".into());
        assert!(!format!("{set:?}").contains("secret"));
        assert_eq!(serde_json::to_string(&set).unwrap(), "\"K\"");
    }

    #[test]
    fn only_what_is_given_is_passed() {
        let env = [
            EnvVar::Set("GIVEN".into(), "1".into()),
            EnvVar::Set("HOME".into(), "/elsewhere".into()),
        ];
        let vars = variables(&env, &[], Path::new("/tmp"));
        let get = |name: &str| {
            vars.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.to_string_lossy().into_owned())
        };
        assert_eq!(get("GIVEN").as_deref(), Some("1"));
        assert_eq!(get("HOME").as_deref(), Some("/elsewhere"));
        assert_eq!(get("TMPDIR").as_deref(), Some("/tmp"));
        assert_eq!(get("LANG").as_deref(), Some("C.UTF-8"));
        assert!(get("PATH").unwrap().ends_with("/bin"));
        let allowed: Vec<&str> = INTERPRETER
            .iter()
            .copied()
            .chain(["PATH", "HOME", "TMPDIR", "LANG", "GIVEN"])
            .collect();
        for (name, _) in &vars {
            assert!(allowed.iter().any(|a| name == *a), "{name:?} passed");
        }
    }
}
