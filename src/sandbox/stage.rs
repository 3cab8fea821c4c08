//! As root the program runs as `nobody`, which a folder made by
//! `mktemp -d` (mode 700) keeps out: every case would crash on
//! "Permission denied", a silent zero for a correct program. Such a path
//! is copied once, as isolate copies a program into its box, into a
//! folder of the grader's, with rights `nobody` can use, and the copy is
//! shown at the path. A homework is small: a path over [`STAGE_MAX_BYTES`]
//! or [`STAGE_MAX_FILES`] is refused instead, before the first case.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::capabilities::NOBODY;
use super::SandboxError;

/// The most bytes copied of one path.
pub const STAGE_MAX_BYTES: u64 = 64 << 20;

/// The most files and folders copied of one path.
pub const STAGE_MAX_FILES: usize = 4096;

/// The copies, kept (and removed) with the box.
#[derive(Debug)]
pub(crate) struct Staged {
    dir: crate::scratch::Scratch,
    /// Each path copied, and its copy.
    copies: BTreeMap<PathBuf, PathBuf>,
}

impl Staged {
    /// Each path copied, and where its copy is.
    pub(crate) fn sources(&self) -> BTreeMap<PathBuf, PathBuf> {
        self.copies.clone()
    }
}

/// Copies each of `paths` that `nobody` cannot read and that is not under
/// one of the `system` folders (shown as they are); `None` when none
/// needs it. The error: one too large, or the copy failed.
pub(crate) fn stage(paths: &[PathBuf], system: &[&str]) -> Result<Option<Staged>, SandboxError> {
    let mut staged: Option<Staged> = None;
    for path in paths {
        let Ok(real) = fs::canonicalize(path) else {
            continue;
        };
        let in_system = system
            .iter()
            .any(|s| real.starts_with(Path::new("/").join(s)));
        if in_system || readable_by_nobody(&real) {
            continue;
        }
        // Under a path copied already: in its copy.
        if staged
            .as_ref()
            .is_some_and(|s| s.copies.keys().any(|c| real.starts_with(c)))
        {
            continue;
        }
        let mut count = Count::default();
        if !count.fits(&real) {
            return Err(SandboxError::Unreadable(real));
        }
        let failed = |e: std::io::Error| SandboxError::Stage(real.clone(), e.to_string());
        if staged.is_none() {
            let dir = crate::scratch::Scratch::new("stakeraid-stage-").map_err(failed)?;
            staged = Some(Staged {
                dir,
                copies: BTreeMap::new(),
            });
        }
        let s = staged.as_mut().expect("made above");
        let copy = s.dir.path().join(s.copies.len().to_string());
        copy_open(&real, &copy).map_err(failed)?;
        s.copies.insert(real, copy);
    }
    Ok(staged)
}

/// True when `nobody` can read `path` (a file) or list and enter it and
/// read what is at its top (a folder): by the others' rights, or as its
/// owner. The folders above it do not matter: the box makes its own.
fn readable_by_nobody(path: &Path) -> bool {
    let can = |meta: &fs::Metadata| {
        let mode = meta.mode();
        let (mine, others) = ((mode >> 6) & 0o7, mode & 0o7);
        let rights = if meta.uid() == NOBODY { mine } else { others };
        let need = if meta.is_dir() { 0o5 } else { 0o4 };
        rights & need == need
    };
    let Ok(meta) = fs::metadata(path) else {
        return true;
    };
    if !can(&meta) {
        return false;
    }
    if !meta.is_dir() {
        return true;
    }
    fs::read_dir(path).into_iter().flatten().flatten().all(|e| {
        // A symbolic link is judged by what it names, where it names
        // something.
        fs::metadata(e.path()).map_or(true, |m| can(&m))
    })
}

/// Files and bytes under a path, counted up to the limits.
#[derive(Default)]
struct Count {
    files: usize,
    bytes: u64,
}

impl Count {
    /// True when `path` fits the limits.
    fn fits(&mut self, path: &Path) -> bool {
        let Ok(meta) = fs::symlink_metadata(path) else {
            return true;
        };
        self.files += 1;
        if meta.is_file() {
            self.bytes += meta.len();
        }
        if self.files > STAGE_MAX_FILES || self.bytes > STAGE_MAX_BYTES {
            return false;
        }
        if meta.is_dir() {
            let Ok(entries) = fs::read_dir(path) else {
                return true;
            };
            for e in entries.flatten() {
                if !self.fits(&e.path()) {
                    return false;
                }
            }
        }
        true
    }
}

/// Copies `from` to `to`: folders open to all (`755`), files readable by
/// all and executable by all where their owner may execute them,
/// symbolic links as they are.
fn copy_open(from: &Path, to: &Path) -> std::io::Result<()> {
    let meta = fs::symlink_metadata(from)?;
    if meta.is_symlink() {
        return std::os::unix::fs::symlink(fs::read_link(from)?, to);
    }
    if meta.is_dir() {
        fs::create_dir(to)?;
        for e in fs::read_dir(from)? {
            let e = e?;
            copy_open(&e.path(), &to.join(e.file_name()))?;
        }
        return fs::set_permissions(to, fs::Permissions::from_mode(0o755));
    }
    if !meta.is_file() {
        return Ok(());
    }
    fs::copy(from, to)?;
    let exec = if meta.mode() & 0o100 != 0 { 0o111 } else { 0 };
    fs::set_permissions(to, fs::Permissions::from_mode(0o644 | exec))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_folder_is_copied_open() {
        let dir = tempfile::tempdir().unwrap();
        let closed = dir.path().join("closed");
        fs::create_dir(&closed).unwrap();
        fs::write(closed.join("hw.py"), "print(1)\n").unwrap();
        fs::set_permissions(&closed, fs::Permissions::from_mode(0o700)).unwrap();
        let open = dir.path().join("open");
        fs::create_dir(&open).unwrap();
        fs::set_permissions(&open, fs::Permissions::from_mode(0o755)).unwrap();
        assert!(!readable_by_nobody(&closed));
        assert!(readable_by_nobody(&open));
        let staged = stage(&[closed.clone(), open.clone()], &[])
            .unwrap()
            .unwrap();
        let sources = staged.sources();
        let real = fs::canonicalize(&closed).unwrap();
        assert_eq!(sources.keys().collect::<Vec<_>>(), [&real]);
        let copy = &sources[&real];
        assert_eq!(fs::metadata(copy).unwrap().mode() & 0o777, 0o755);
        assert_eq!(
            fs::read_to_string(copy.join("hw.py")).unwrap(),
            "print(1)\n"
        );
        assert!(readable_by_nobody(copy));
    }

    #[test]
    fn a_closed_folder_too_large_to_copy_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let closed = dir.path().join("closed");
        fs::create_dir(&closed).unwrap();
        for i in 0..=STAGE_MAX_FILES {
            fs::write(closed.join(i.to_string()), "").unwrap();
        }
        fs::set_permissions(&closed, fs::Permissions::from_mode(0o700)).unwrap();
        let e = stage(std::slice::from_ref(&closed), &[]).unwrap_err();
        assert!(matches!(e, SandboxError::Unreadable(_)), "{e}");
        let text = e.to_string();
        assert!(
            text.contains("chmod -R o+rX") && !text.contains('\n'),
            "{text}"
        );
    }
}
