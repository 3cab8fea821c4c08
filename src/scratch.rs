//! Temporary folders that a signal ending the program does not leave
//! behind: a grader's case folders, the sandbox's roots and staged copies,
//! a referee's program folders.
//!
//! A folder is removed when its [`Scratch`] is dropped. A program ended by
//! Ctrl-C or SIGTERM drops nothing, so its signal path calls
//! [`remove_all`] (from a thread, not the handler: removing a folder
//! allocates) once the programs it ran are killed. From then on no scratch
//! folder can be made, so none made by a thread still running outlives it.

use std::io;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

use tempfile::TempDir;

/// The scratch folders alive, by number; `closed` once [`remove_all`] ran.
struct Listed {
    next: u64,
    folders: Vec<(u64, std::path::PathBuf)>,
    closed: bool,
}

static LISTED: Mutex<Listed> = Mutex::new(Listed {
    next: 0,
    folders: Vec::new(),
    closed: false,
});

fn listed() -> MutexGuard<'static, Listed> {
    LISTED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A temporary folder under the system's (`$TMPDIR`, else `/tmp`), named
/// `prefix` and random letters, removed with what it holds when dropped.
///
/// A folder is made and listed, and removed and taken off the list, under
/// the list's lock: [`remove_all`] never misses one that exists, however
/// the threads making and dropping them interleave with it.
#[derive(Debug)]
pub struct Scratch {
    /// `None` only while it is dropped.
    dir: Option<TempDir>,
    number: u64,
}

impl Scratch {
    /// Makes the folder; fails as `mkdir` does, or once [`remove_all`] has
    /// run.
    pub fn new(prefix: &str) -> io::Result<Scratch> {
        let mut listed = listed();
        if listed.closed {
            return Err(io::Error::other("the program is ending"));
        }
        let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
        let number = listed.next;
        listed.next += 1;
        listed.folders.push((number, dir.path().to_owned()));
        Ok(Scratch {
            dir: Some(dir),
            number,
        })
    }

    /// Where the folder is.
    pub fn path(&self) -> &Path {
        self.dir.as_ref().expect("only dropping takes it").path()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let mut listed = listed();
        if let Some(dir) = self.dir.take() {
            // Errors are passed over, as `TempDir` passes them over.
            let _ = dir.close();
        }
        listed.folders.retain(|(n, _)| *n != self.number);
    }
}

/// Removes every scratch folder alive, and refuses new ones from now on:
/// for a program about to end on a signal. Errors are passed over (a
/// folder a program made unreadable is left; nothing else can be done).
pub fn remove_all() {
    let mut listed = listed();
    listed.closed = true;
    for (_, path) in listed.folders.drain(..) {
        let _ = std::fs::remove_dir_all(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In a process of its own: `remove_all` closes the list for good.
    #[test]
    fn folders_go_when_dropped_or_all_at_once_and_none_are_made_after() {
        if std::env::var_os("STAKERAID_SCRATCH_CHILD").is_none() {
            let me = std::env::current_exe().unwrap();
            let status = std::process::Command::new(me)
                .args([
                    "--exact",
                    "scratch::tests::folders_go_when_dropped_or_all_at_once_and_none_are_made_after",
                    "--nocapture",
                ])
                .env("STAKERAID_SCRATCH_CHILD", "1")
                .status()
                .unwrap();
            assert!(status.success());
            return;
        }
        let dropped = Scratch::new("stakeraid-test-").unwrap();
        let path = dropped.path().to_owned();
        std::fs::write(path.join("f"), "x").unwrap();
        drop(dropped);
        assert!(!path.exists());
        let kept = Scratch::new("stakeraid-test-").unwrap();
        std::fs::create_dir(kept.path().join("sub")).unwrap();
        std::fs::write(kept.path().join("sub/f"), "x").unwrap();
        remove_all();
        assert!(!kept.path().exists());
        assert!(Scratch::new("stakeraid-test-").is_err());
        drop(kept);
    }
}
