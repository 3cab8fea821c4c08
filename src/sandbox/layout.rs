//! The files a run sees, as the list of steps that build its root: an
//! empty in-memory folder into which the system folders, the program's own
//! files and the case's folder are bound at the paths they have outside,
//! with a few device files, a fresh `/proc`, a private `/tmp` and the
//! symbolic links met on the way. The steps are made once, here, with
//! every path ready as a C string: the process that takes them is a copy
//! of a threaded one, where allocating is not safe.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{CString, OsStr};
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use super::capabilities::Capabilities;
use super::environment;
use super::paths::Visible;
use super::SandboxSettings;

/// The top-level folders of the system shown read-only (or the symbolic
/// links they are). Not `/home`, `/root`, `/tmp`, `/var`, `/run` (sockets
/// of the machine's services), `/mnt`, `/media`, `/srv` nor `/sys`.
pub(crate) const SYSTEM: [&str; 10] = [
    "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "opt", "nix",
];

/// The devices a program may open.
const DEVICES: [&str; 6] = ["null", "zero", "full", "random", "urandom", "tty"];

/// What a step does, to name the one that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StepKind {
    /// Making a folder in the new root.
    Mkdir,
    /// Making an empty file to bind a file onto.
    File,
    /// Making a symbolic link.
    Symlink,
    /// Binding a file or folder of the machine.
    Bind,
    /// Mounting an empty in-memory file system.
    Tmpfs,
    /// Mounting `/proc`.
    Proc,
    /// Making a mount read-only after the others.
    ReadOnly,
}

impl StepKind {
    /// The step in a few words.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            StepKind::Mkdir => "making a folder",
            StepKind::File => "making a file",
            StepKind::Symlink => "making a symbolic link",
            StepKind::Bind => "binding a folder",
            StepKind::Tmpfs => "mounting tmpfs",
            StepKind::Proc => "mounting proc",
            StepKind::ReadOnly => "making a mount read-only",
        }
    }
}

/// One step, its paths relative to the new root (absolute for sources on
/// the machine).
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// `mkdir` with this mode.
    Mkdir(CString, u32),
    /// An empty file.
    File(CString),
    /// A symbolic link at `path` holding `target`.
    Symlink {
        /// The link's text.
        target: CString,
        /// Where.
        path: CString,
    },
    /// `src` bound at `dst` (with everything mounted under it), then made
    /// read-only (or only `nosuid`, `nodev`), keeping the flags its mount
    /// has that cannot be dropped; a device is bound as it is.
    Bind {
        /// The path on the machine.
        src: CString,
        /// Where in the new root.
        dst: CString,
        /// How it is mounted.
        mode: BindMode,
    },
    /// A mount under a bound folder, made read-only too (as far as the
    /// kernel allows).
    Submount(CString),
    /// A tmpfs with these options (`mode=...,size=...`).
    Tmpfs {
        /// Where.
        dst: CString,
        /// Its options.
        data: CString,
    },
    /// A fresh `/proc`.
    Proc(CString),
    /// A mount made read-only once everything under it is in place.
    ReadOnly(CString),
    /// `chmod` to this mode.
    Chmod(CString, u32),
    /// A mount detached and its folder removed.
    Detach(CString),
}

/// How a bound path may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BindMode {
    /// Read only.
    Read,
    /// Read and write (the case's folder).
    Write,
    /// As it is (a device).
    Device,
}

impl Step {
    /// What kind of step it is.
    pub(crate) fn kind(&self) -> StepKind {
        match self {
            Step::Mkdir(..) | Step::Chmod(..) => StepKind::Mkdir,
            Step::Detach(_) => StepKind::Tmpfs,
            Step::File(_) => StepKind::File,
            Step::Symlink { .. } => StepKind::Symlink,
            Step::Bind { .. } => StepKind::Bind,
            Step::Submount(_) | Step::ReadOnly(_) => StepKind::ReadOnly,
            Step::Tmpfs { .. } => StepKind::Tmpfs,
            Step::Proc(_) => StepKind::Proc,
        }
    }
}

/// The steps of every run of a program, and what it runs with.
#[derive(Debug)]
pub(crate) struct Layout {
    /// Building the root, before the case's folder is bound.
    pub(crate) steps: Vec<Step>,
    /// After the case's folder is bound.
    pub(crate) finish: Vec<Step>,
    /// What is in the root, for the case's folder to be added.
    mirror: Mirror,
    /// `sh`, as found on `PATH`.
    pub(crate) sh: CString,
    /// The environment, `TMPDIR` pointing at the private `/tmp`.
    pub(crate) env: Vec<CString>,
}

impl Layout {
    /// The layout showing the system, the paths `shown` (read-only; a
    /// path of `staged` by its copy) with the folders in `hidden` under
    /// them emptied, devices, `/proc` where it can be mounted, and the
    /// quota's tmpfs as `/tmp`, `/dev/shm` and the case's folder.
    pub(crate) fn new(
        shown: &Visible,
        staged: &BTreeMap<PathBuf, PathBuf>,
        hidden: &[PathBuf],
        how: &Capabilities,
        settings: &SandboxSettings,
    ) -> Layout {
        let mut m = Mirror {
            sources: staged.clone(),
            ..Mirror::default()
        };
        for name in SYSTEM {
            let path = Path::new("/").join(name);
            match fs::symlink_metadata(&path) {
                Ok(meta) if meta.is_symlink() => {
                    if let Ok(target) = fs::read_link(&path) {
                        m.symlink(&path, &target);
                    }
                }
                Ok(meta) if meta.is_dir() => m.bind(&path, BindMode::Read),
                _ => {}
            }
        }
        m.dir(Path::new("/dev"));
        m.steps.push(Step::Tmpfs {
            dst: c("dev"),
            data: c("mode=0755,size=64k"),
        });
        for name in DEVICES {
            let device = Path::new("/dev").join(name);
            if device.exists() {
                m.steps.push(Step::File(rel(&device)));
                m.steps.push(Step::Bind {
                    src: c(device.as_os_str()),
                    dst: rel(&device),
                    mode: BindMode::Device,
                });
            }
        }
        for (name, target) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ] {
            m.steps.push(Step::Symlink {
                target: c(target),
                path: c(format!("dev/{name}")),
            });
        }
        // One size-limited tmpfs holds the case's folder, /tmp and
        // /dev/shm, so that what a run writes to them together is held to
        // the quota; mounted at a scratch point, its three folders bound
        // where they belong, the scratch point detached once the case's
        // folder is bound too.
        m.steps.push(Step::Mkdir(c("dev/shm"), 0o755));
        m.dir(Path::new(QUOTA));
        m.steps.push(Step::Tmpfs {
            dst: rel(Path::new(QUOTA)),
            data: c(format!(
                "mode=0755,size={}m,nr_inodes={}",
                settings.disk_mb.max(1),
                super::DISK_FILES
            )),
        });
        for (name, mode) in [("case", 0o755), ("tmp", 0o1777), ("shm", 0o1777)] {
            m.steps
                .push(Step::Mkdir(c(format!("{}/{name}", &QUOTA[1..])), mode));
            // mkdir's mode is masked by the umask; the sticky bit and
            // the others' rights are set again.
            m.steps
                .push(Step::Chmod(c(format!("{}/{name}", &QUOTA[1..])), mode));
        }
        m.dir(Path::new("/proc"));
        if how.ns.as_ref().is_ok_and(|ns| ns.proc.is_ok()) {
            m.steps.push(Step::Proc(c("proc")));
        }
        m.dir(Path::new("/tmp"));
        for (from, to) in [("tmp", "tmp"), ("shm", "dev/shm")] {
            m.steps.push(Step::Bind {
                src: c(format!("{}/{from}", &QUOTA[1..])),
                dst: c(to),
                mode: BindMode::Write,
            });
        }
        // After the private /tmp, so that a program's folder under /tmp
        // is bound into it rather than hidden by it.
        for path in &shown.paths {
            m.show(path, BindMode::Read, 0);
        }
        for path in hidden {
            if m.covered(path) && path.is_dir() {
                m.steps.push(Step::Tmpfs {
                    dst: rel(path),
                    data: c("mode=0555,size=4k"),
                });
            }
        }
        let steps = std::mem::take(&mut m.steps);
        let env = environment::variables(&settings.env, &shown.program_dirs, Path::new("/tmp"));
        Layout {
            steps,
            finish: vec![
                Step::Detach(rel(Path::new(QUOTA))),
                Step::ReadOnly(c("dev")),
            ],
            mirror: m,
            sh: c(find_sh().as_os_str()),
            env: env
                .iter()
                .map(|(k, v)| {
                    let mut kv = k.as_bytes().to_vec();
                    kv.push(b'=');
                    kv.extend_from_slice(v.as_bytes());
                    CString::new(kv).unwrap_or_default()
                })
                .filter(|kv| !kv.as_bytes().is_empty())
                .collect(),
        }
    }

    /// The steps that show the case's folder `dir` at its path: the
    /// quota's own `case` folder, which the run's init fills with the
    /// files of `dir` and empties back into it.
    pub(crate) fn case_steps(&self, dir: &Path) -> Vec<Step> {
        let mut m = self.mirror.clone();
        m.steps.clear();
        m.sources
            .insert(dir.to_owned(), Path::new(QUOTA).join("case"));
        m.show(dir, BindMode::Write, 0);
        m.steps
    }
}

/// Where the quota's tmpfs is mounted while the root is built.
const QUOTA: &str = "/.quota";

/// Where `sh` is, as the shell's own search finds it.
fn find_sh() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join("sh"))
        .find(|p| p.is_absolute() && p.is_file())
        .unwrap_or_else(|| PathBuf::from("/bin/sh"))
}

/// The new root as it is being built: the paths made in it (folders,
/// mount points) and the ones bound, under which nothing is made.
#[derive(Clone, Debug, Default)]
struct Mirror {
    made: BTreeSet<PathBuf>,
    bound: Vec<PathBuf>,
    steps: Vec<Step>,
    /// Paths shown by another: a copy the program's user can read, the
    /// quota's folder for the case's (relative to the new root).
    sources: BTreeMap<PathBuf, PathBuf>,
}

/// How many symbolic links are followed while a path is shown.
const MAX_LINKS: usize = 16;

impl Mirror {
    /// True when `path` is in a folder already bound.
    fn covered(&self, path: &Path) -> bool {
        self.bound.iter().any(|b| path.starts_with(b))
    }

    /// Binds `path` as `mode` at its own path.
    fn bind(&mut self, path: &Path, mode: BindMode) {
        if path.is_dir() {
            self.dir(path);
        } else if self.made.insert(path.to_owned()) {
            self.steps.push(Step::File(rel(path)));
        }
        let source = self.sources.get(path).cloned();
        self.steps.push(Step::Bind {
            src: match &source {
                Some(from) if from.starts_with(QUOTA) => rel(from),
                Some(from) => c(from.as_os_str()),
                None => c(path.as_os_str()),
            },
            dst: rel(path),
            mode,
        });
        if mode == BindMode::Read && source.is_none() {
            for sub in submounts(path) {
                self.steps.push(Step::Submount(rel(&sub)));
            }
        }
        self.bound.push(path.to_owned());
    }

    /// Makes the folder `path` in the new root (its parents made first).
    fn dir(&mut self, path: &Path) {
        if path.parent().is_none() || self.made.contains(path) {
            return;
        }
        if let Some(parent) = path.parent() {
            self.dir(parent);
        }
        self.made.insert(path.to_owned());
        self.steps.push(Step::Mkdir(rel(path), 0o755));
    }

    /// A symbolic link at `path` holding `target`.
    fn symlink(&mut self, path: &Path, target: &Path) {
        if let Some(parent) = path.parent() {
            self.dir(parent);
        }
        if self.made.insert(path.to_owned()) {
            self.steps.push(Step::Symlink {
                target: c(target.as_os_str()),
                path: rel(path),
            });
        }
    }

    /// Shows `path` (absolute) at its own path: the folders on the way
    /// made, the symbolic links on the way made and followed, then the path
    /// bound as `mode`. Nothing is done under a folder already bound.
    fn show(&mut self, path: &Path, mode: BindMode, links: usize) {
        if links > MAX_LINKS || !path.is_absolute() {
            return;
        }
        let parts: Vec<Component> = path.components().collect();
        let mut at = PathBuf::from("/");
        for (i, part) in parts.iter().enumerate().skip(1) {
            let next = match part {
                Component::Normal(name) => at.join(name),
                Component::ParentDir => at.parent().unwrap_or(Path::new("/")).to_owned(),
                _ => continue,
            };
            if self.covered(&next) {
                return;
            }
            let Ok(meta) = fs::symlink_metadata(&next) else {
                return;
            };
            let rest: PathBuf = parts[i + 1..].iter().collect();
            if meta.is_symlink() {
                let Ok(target) = fs::read_link(&next) else {
                    return;
                };
                self.symlink(&next, &target);
                self.show(&at.join(&target).join(rest), mode, links + 1);
                return;
            }
            if i + 1 == parts.len() {
                self.bind(&next, mode);
                return;
            }
            self.dir(&next);
            at = next;
        }
    }
}

/// The mount points strictly under `dir`, from this process's mount table.
fn submounts(dir: &Path) -> Vec<PathBuf> {
    let table = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    table
        .lines()
        .filter_map(|line| line.split(' ').nth(4))
        .map(|point| PathBuf::from(unescape(point)))
        .filter(|point| point != dir && point.starts_with(dir))
        .collect()
}

/// A mount table path with its octal escapes (`\040` for a space) undone.
fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let code = bytes
            .get(i + 1..i + 4)
            .filter(|_| bytes[i] == b'\\')
            .and_then(|d| u8::from_str_radix(std::str::from_utf8(d).ok()?, 8).ok());
        match code {
            Some(b) => {
                out.push(b);
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `path` relative to the root, as a C string.
fn rel(path: &Path) -> CString {
    let text = path.as_os_str().as_bytes();
    let trimmed = text.strip_prefix(b"/").unwrap_or(text);
    c(OsStr::from_bytes(if trimmed.is_empty() {
        b"."
    } else {
        trimmed
    }))
}

/// `text` as a C string (a path holding a NUL byte cannot exist: empty).
fn c(text: impl AsRef<OsStr>) -> CString {
    CString::new(text.as_ref().as_bytes()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_table_escapes_are_undone() {
        assert_eq!(unescape(r"/a\040b/c\134d"), r"/a b/c\d");
        assert_eq!(unescape(r"/plain\0"), r"/plain\0");
    }

    #[test]
    fn links_on_the_way_are_made_and_followed() {
        let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let real = dir.path().join("real");
        fs::create_dir(&real).unwrap();
        fs::write(real.join("hw.py"), "").unwrap();
        std::os::unix::fs::symlink("real", dir.path().join("link")).unwrap();
        let mut m = Mirror::default();
        m.show(&dir.path().join("link/hw.py"), BindMode::Read, 0);
        let links: Vec<&Step> = m
            .steps
            .iter()
            .filter(|s| s.kind() == StepKind::Symlink)
            .collect();
        assert_eq!(links.len(), 1, "{:?}", m.steps);
        assert!(m.covered(&real.join("hw.py")), "{:?}", m.bound);
    }
}
