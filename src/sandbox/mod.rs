//! The box a graded or refereed program runs in: what it may read and
//! write, what it may reach, how many processes and how much memory it may
//! use, and that nothing it starts outlives its run.
//!
//! On Linux each run gets namespaces of its own, made directly with the
//! kernel's system calls (no container engine, no helper program, no root
//! needed): a user namespace (so that an ordinary user may make the
//! others), a mount namespace whose root is an empty in-memory folder with
//! the system folders, the program's own files and the interpreter that
//! runs it bound in read-only and the case's folder read-write, a private
//! `/tmp`, a network namespace with only its own loopback, and a PID
//! namespace whose first process is this crate's own small init: when the
//! program's shell exits, or the run is killed, the kernel kills every
//! process left in it, daemons included. Memory and the number of
//! processes are bounded by a cgroup of the run where one can be made
//! (cgroup v1's memory and pids controllers, writable), else by resource
//! limits (`RLIMIT_DATA`, and `RLIMIT_NPROC`, which counts only the
//! namespace's own processes on kernels from 5.14).
//!
//! The program starts with a cleared environment (`environment`): nothing
//! of the grader's reaches it but what its interpreter needs and what
//! `--env` passes. Its case folder, `/tmp` and `/dev/shm` are one
//! size-limited tmpfs (`--disk-mb`, [`DISK_FILES`] files): past it a write
//! fails with ENOSPC, and the run's verdict is the disk limit. As root the
//! program runs as `nobody`; a folder of its own that `nobody` cannot read
//! (made by `mktemp -d`) is copied once into a folder it can (`stage`).
//!
//! What this machine allows is found once, by a first sandboxed run
//! ([`Protections`]); a protection it refuses is named there, and
//! [`SandboxMode::Require`] refuses to run without it.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use serde::Serialize;

mod capabilities;
mod cgroup;
mod environment;
mod layout;
mod paths;
mod probe;
mod stage;

pub use environment::EnvVar;
pub use stage::{STAGE_MAX_BYTES, STAGE_MAX_FILES};
#[cfg(target_os = "linux")]
mod spawn;

#[cfg(target_os = "linux")]
pub(crate) use spawn::{spawn, Outcome, Rlimits, Spawned, STOP};

/// The memory a run may use by default, in MiB: what the course's platform
/// gave, which a JVM's or Python's homework fits in many times over.
pub const DEFAULT_MEMORY_MB: u64 = 1024;

/// The processes and threads a run may have at once by default: a JVM on a
/// machine of many cores starts a few dozen threads; a fork bomb is stopped
/// long before it hurts.
pub const DEFAULT_PROCESSES: u32 = 512;

/// What a run may write by default, in MiB, in its case folder, `/tmp`
/// and `/dev/shm` together: a homework writes a few KiB.
pub const DEFAULT_DISK_MB: u64 = 256;

/// How many files and folders a run may have there at once.
pub const DISK_FILES: u32 = 4096;

/// Whether programs run in the sandbox.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SandboxMode {
    /// Every protection this machine allows; the ones it refuses are named
    /// once and recorded in the report.
    #[default]
    Auto,
    /// Every protection, or no run at all.
    Require,
    /// None: the program runs with the user's rights, only the time and
    /// file-size limits and the process-group kill applying.
    Off,
}

impl FromStr for SandboxMode {
    type Err = SandboxError;

    fn from_str(s: &str) -> Result<SandboxMode, SandboxError> {
        match s.trim() {
            "auto" => Ok(SandboxMode::Auto),
            "require" => Ok(SandboxMode::Require),
            "off" => Ok(SandboxMode::Off),
            _ => Err(SandboxError::Mode(s.to_owned())),
        }
    }
}

impl fmt::Display for SandboxMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SandboxMode::Auto => "auto",
            SandboxMode::Require => "require",
            SandboxMode::Off => "off",
        })
    }
}

/// How a program is boxed: the mode, the limits, the variables it is
/// given and the paths it is shown beyond its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SandboxSettings {
    /// On, required, or off.
    pub mode: SandboxMode,
    /// Memory of the whole run (every process), in MiB.
    pub memory_mb: u64,
    /// Processes and threads the run may have at once.
    pub processes: u32,
    /// What the run may write to its case folder, `/tmp` and `/dev/shm`
    /// together, in MiB.
    pub disk_mb: u64,
    /// Variables passed from the grader's environment or set (`--env`);
    /// shown by name only.
    pub env: Vec<EnvVar>,
    /// Paths shown read-only beyond the program's own (`--read`).
    pub read: Vec<PathBuf>,
}

impl Default for SandboxSettings {
    fn default() -> SandboxSettings {
        SandboxSettings {
            mode: SandboxMode::Auto,
            memory_mb: DEFAULT_MEMORY_MB,
            processes: DEFAULT_PROCESSES,
            disk_mb: DEFAULT_DISK_MB,
            env: Vec::new(),
            read: Vec::new(),
        }
    }
}

impl SandboxSettings {
    /// No sandbox.
    pub fn off() -> SandboxSettings {
        SandboxSettings {
            mode: SandboxMode::Off,
            ..SandboxSettings::default()
        }
    }

    /// The settings with `--read` paths checked and made absolute (the
    /// error: one that does not exist).
    pub fn checked(mut self) -> Result<SandboxSettings, SandboxError> {
        for path in &mut self.read {
            *path = std::fs::canonicalize(&*path).map_err(|e| SandboxError::Read {
                path: path.clone(),
                why: e.to_string(),
            })?;
        }
        Ok(self)
    }

    /// What the sandbox enforces on this machine with these settings, and
    /// what it cannot (found once per process, by a first sandboxed run).
    /// The error: [`SandboxMode::Require`] and something missing.
    pub fn protections(&self) -> Result<Protections, SandboxError> {
        let p = probe::protections(self);
        if self.mode == SandboxMode::Require && !p.missing.is_empty() {
            return Err(SandboxError::Missing(p.missing.join("; ")));
        }
        Ok(p)
    }
}

/// What is enforced on a run, and what is not, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Protections {
    /// The mode asked for.
    pub mode: SandboxMode,
    /// Each protection in force, e.g. `memory 1024 MiB (cgroup)`.
    pub enforced: Vec<String>,
    /// Each protection missing, with why, e.g. `network: ... refused`.
    pub missing: Vec<String>,
}

impl Protections {
    /// The one line that says what is enforced (and what is missing).
    pub fn line(&self) -> String {
        if self.mode == SandboxMode::Off {
            return "off (--sandbox off): the program runs with your rights".into();
        }
        let mut line = self.enforced.join(", ");
        if !self.missing.is_empty() {
            line.push_str("; MISSING: ");
            line.push_str(&self.missing.join("; "));
        }
        line
    }
}

/// What a sandbox setting or this machine refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SandboxError {
    /// Not `auto`, `require` nor `off`.
    #[error("{0:?}: the sandbox must be auto, require or off")]
    Mode(String),
    /// `require`, and this machine lacks a protection.
    #[error("--sandbox require: this machine cannot enforce {0}")]
    Missing(String),
    /// An `--env` that is neither `NAME` nor `NAME=VALUE`.
    #[error(
        "--env {0:?}: give NAME (passed from this environment) or NAME=VALUE, \
         NAME of letters, digits and _"
    )]
    Env(String),
    /// A `--read` path that cannot be shown.
    #[error("--read {}: {why}", .path.display())]
    Read {
        /// The path given.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// As root: a path of the program's that `nobody` cannot read, too
    /// large to copy into the box.
    #[error(
        "{} cannot be read by nobody, whom a root grader runs the program as, and is too \
         large to copy into the box (over {} MiB or {} files): make it readable (chmod -R \
         o+rX {}) or grade as another user",
        .0.display(),
        STAGE_MAX_BYTES >> 20,
        STAGE_MAX_FILES,
        .0.display()
    )]
    Unreadable(PathBuf),
    /// As root: copying a path `nobody` cannot read into the box failed.
    #[error("copying {} into the box, since nobody cannot read it: {}", .0.display(), .1)]
    Stage(PathBuf, String),
}

/// A limit a run went past, as its cgroup (or, without one, its standard
/// error) tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "limit", rename_all = "snake_case")]
pub enum LimitHit {
    /// Its memory went past the limit.
    Memory {
        /// The limit, in MiB.
        mb: u64,
    },
    /// It tried to have more processes and threads at once than allowed.
    Processes {
        /// The limit.
        max: u32,
    },
    /// It filled its quota of disk (or of files).
    Disk {
        /// The quota, in MiB.
        mb: u64,
    },
}

impl fmt::Display for LimitHit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitHit::Memory { mb } => write!(f, "memory limit: went past {mb} MiB"),
            LimitHit::Processes { max } => write!(
                f,
                "too many processes: went past {max} processes and threads at once"
            ),
            LimitHit::Disk { mb } => write!(
                f,
                "disk limit: filled its {mb} MiB (or {DISK_FILES} files) of case folder and /tmp"
            ),
        }
    }
}

/// A program's box, made ready once for all its runs: the settings, what
/// this machine enforces, and the folders it sees.
#[derive(Clone, Debug)]
pub struct Sandbox {
    settings: SandboxSettings,
    protections: Protections,
    /// `None` when nothing is enforced by namespaces (off, or refused).
    pub(crate) ready: Option<Arc<Ready>>,
}

impl PartialEq for Sandbox {
    fn eq(&self, other: &Sandbox) -> bool {
        self.settings == other.settings && self.protections == other.protections
    }
}

impl Eq for Sandbox {}

/// Everything a run needs that does not change between runs.
#[derive(Debug)]
pub(crate) struct Ready {
    pub(crate) how: capabilities::Capabilities,
    pub(crate) layout: layout::Layout,
    pub(crate) settings: SandboxSettings,
    /// What the program is shown beyond the system folders.
    pub(crate) shown: paths::Visible,
    /// The copies of what `nobody` could not read, kept while the box is.
    pub(crate) _staged: Option<stage::Staged>,
}

impl Sandbox {
    /// No box at all.
    pub fn off() -> Sandbox {
        Sandbox {
            settings: SandboxSettings::off(),
            protections: probe::off(),
            ready: None,
        }
    }

    /// The box of the program started by `words` (the program and its
    /// arguments, or the words of a shell command): it sees the system
    /// folders, the files and folders named by the words that exist, and
    /// the interpreter that runs it, but never the folders in `hidden`
    /// (an answer key), the home folder, or the temporary folder the cases
    /// run in. The error: [`SandboxMode::Require`] and something missing.
    pub fn new(
        settings: SandboxSettings,
        words: &[String],
        hidden: &[PathBuf],
    ) -> Result<Sandbox, SandboxError> {
        let settings = settings.checked()?;
        let protections = settings.protections()?;
        let hidden: Vec<PathBuf> = hidden
            .iter()
            .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
            .collect();
        let ready = match probe::capabilities(&settings) {
            None => None,
            Some(how) => {
                let mut shown = paths::visible(words, &hidden);
                for path in &settings.read {
                    if !shown.paths.contains(path) {
                        shown.paths.push(path.clone());
                    }
                }
                shown
                    .paths
                    .sort_by_key(|p| (p.components().count(), p.clone()));
                let as_root = how.ns.as_ref().is_ok_and(|ns| ns.as_root);
                let staged = if as_root {
                    stage::stage(&shown.paths, layout::SYSTEM.as_slice())?
                } else {
                    None
                };
                let sources = staged.as_ref().map(stage::Staged::sources);
                Some(Arc::new(Ready {
                    layout: layout::Layout::new(
                        &shown,
                        &sources.unwrap_or_default(),
                        &hidden,
                        &how,
                        &settings,
                    ),
                    how,
                    settings: settings.clone(),
                    shown,
                    _staged: staged,
                }))
            }
        };
        Ok(Sandbox {
            settings,
            protections,
            ready,
        })
    }

    /// The settings.
    pub fn settings(&self) -> &SandboxSettings {
        &self.settings
    }

    /// The environment of a run without namespaces (`None`: the sandbox
    /// is off and the program gets this process's): cleared as in the box,
    /// `HOME` and `TMPDIR` its case folder `dir`.
    pub(crate) fn plain_environment(&self, dir: &Path) -> Option<Vec<(OsString, OsString)>> {
        let ready = self.ready.as_ref()?;
        Some(environment::variables(
            &self.settings.env,
            &ready.shown.program_dirs,
            dir,
        ))
    }

    /// A path named in `text` (a run's standard error) that exists on this
    /// machine but that the box does not show, and the folder to give
    /// `--read` to show it (its installation's root).
    pub fn hidden_path(&self, text: &str) -> Option<(PathBuf, PathBuf)> {
        let ready = self.boxed()?;
        // The box's own /proc and /dev stand for the machine's.
        let shown = |p: &Path| {
            layout::SYSTEM
                .iter()
                .chain(&["proc", "dev", "sys"])
                .any(|s| p.starts_with(Path::new("/").join(s)))
                || ready.shown.paths.iter().any(|s| p.starts_with(s))
        };
        absolute_paths(text)
            .filter(|p| p.components().count() > 2 && std::fs::symlink_metadata(p).is_ok())
            .find(|p| !shown(p))
            .map(|p| {
                let root = paths::installation_root(&p);
                (p, root)
            })
    }

    /// What is enforced, and what is missing.
    pub fn protections(&self) -> &Protections {
        &self.protections
    }

    /// What runs in namespaces need, when this box has them.
    pub(crate) fn boxed(&self) -> Option<&Ready> {
        self.ready.as_deref().filter(|r| r.how.ns.is_ok())
    }

    /// The memory limit of a run without namespaces (`RLIMIT_DATA`), bytes.
    pub(crate) fn plain_memory_limit(&self) -> Option<u64> {
        let ready = self.ready.as_ref()?;
        (ready.how.ns.is_err() && ready.how.memory == capabilities::Limiter::Rlimit)
            .then_some(ready.settings.memory_mb << 20)
    }

    /// Without a cgroup to tell, a limit a failed run most likely went past,
    /// from the words its standard error ends with: an allocation refused
    /// under `RLIMIT_DATA`, a fork refused under `RLIMIT_NPROC`.
    pub(crate) fn guessed_hit(&self, failed: bool, stderr: &str) -> Option<LimitHit> {
        let ready = self.ready.as_ref()?;
        if !failed {
            return None;
        }
        let has = |words: &[&str]| words.iter().any(|w| stderr.contains(w));
        if ready.how.memory == capabilities::Limiter::Rlimit
            && has(&[
                "MemoryError",
                "OutOfMemoryError",
                "bad_alloc",
                "memory allocation of",
                "Cannot allocate memory",
                "out of memory",
            ])
        {
            return Some(LimitHit::Memory {
                mb: self.settings.memory_mb,
            });
        }
        if ready.how.processes == capabilities::Limiter::Rlimit
            && has(&[
                "Resource temporarily unavailable",
                "BlockingIOError",
                "fork: retry",
                "Cannot fork",
                "can't fork",
                "unable to create native thread",
                "unable to create new native thread",
            ])
        {
            return Some(LimitHit::Processes {
                max: self.settings.processes,
            });
        }
        None
    }
}

/// The absolute paths in `text`: words from a `/` to a character no path
/// of a message holds (white space, quotes, a colon, a bracket).
fn absolute_paths(text: &str) -> impl Iterator<Item = PathBuf> + '_ {
    text.match_indices('/').filter_map(move |(i, _)| {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| !" \t'\"`(=:[<".contains(c)) {
            return None;
        }
        let rest = &text[i..];
        let end = rest
            .find(|c: char| c.is_whitespace() || "'\"`:,;()[]<>".contains(c))
            .unwrap_or(rest.len());
        let path = rest[..end].trim_end_matches(['.', '/']);
        (path.len() > 1).then(|| PathBuf::from(path))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_found_in_messages() {
        let text = "sh: 1: exec: /root/.pyenv/versions/2.7/bin/python: not found / \
                    can't open file '/home/a/hw.py': [Errno 13] Permission denied.";
        let found: Vec<PathBuf> = absolute_paths(text).collect();
        assert_eq!(
            found,
            [
                PathBuf::from("/root/.pyenv/versions/2.7/bin/python"),
                PathBuf::from("/home/a/hw.py")
            ]
        );
    }

    #[test]
    fn modes_parse_and_print() {
        for m in ["auto", "require", "off"] {
            assert_eq!(m.parse::<SandboxMode>().unwrap().to_string(), m);
        }
        assert!("on".parse::<SandboxMode>().is_err());
    }
}
