//! Which files of the machine, beyond the system folders, a program needs
//! to read: the files and folders its command line names, and the
//! interpreter that runs it wherever it is installed (a Python under a
//! version manager in the home folder, a virtual environment), followed
//! through symbolic links, version managers' shims and `#!` lines.

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Folder names under an installation's root that hold its programs: a
/// program found in one is shown with the whole root (`~/.pyenv` for
/// `~/.pyenv/shims/python3`, the environment for `venv/bin/python`).
const PROGRAM_FOLDERS: [&str; 4] = ["bin", "sbin", "shims", "libexec"];

/// How many symbolic links or `#!` lines are followed from a program.
const MAX_HOPS: usize = 8;

/// Folders the box makes its own (its devices, its `/proc`) or never
/// shows (`/sys`): a command line that names a path in them (`2>
/// /dev/null`) gets the box's, not the machine's folder bound over it.
const BOX_OWN: [&str; 3] = ["/dev", "/proc", "/sys"];

/// The one folder of the machine's `/dev` whose files are the user's, like
/// `/tmp`'s: a program kept there is shown in the box's own `/dev/shm`.
const SHARED_MEMORY: &str = "/dev/shm";

/// The paths to show a program started by `words` (a program and its
/// arguments, or a shell command's words), shortest first. A folder is
/// never shown when it is, or holds, the home folder, the temporary folder
/// the cases run in, `/dev/shm`, or one of `hidden`: a named file in such a folder is
/// shown alone, a named folder or an installation root that is such a
/// folder not at all.
pub(crate) fn visible(words: &[String], hidden: &[PathBuf]) -> Visible {
    let mut guarded: Vec<PathBuf> = hidden.to_vec();
    guarded.push(std::env::temp_dir());
    guarded.push(PathBuf::from(SHARED_MEMORY));
    if let Some(home) = std::env::var_os("HOME") {
        guarded.push(PathBuf::from(home));
    }
    let guarded: Vec<PathBuf> = guarded
        .iter()
        .flat_map(|p| [p.clone(), fs::canonicalize(p).unwrap_or_else(|_| p.clone())])
        .collect();
    let mut seen = Seen {
        guarded,
        paths: BTreeSet::new(),
        program_dirs: Vec::new(),
    };
    let words: Vec<&str> = words
        .iter()
        .map(|w| w.trim_matches(|c| c == '\'' || c == '"'))
        .collect();
    for word in &words {
        let path = Path::new(word);
        let users = path.starts_with(SHARED_MEMORY) && path != Path::new(SHARED_MEMORY);
        let boxes_own = !users && BOX_OWN.iter().any(|own| path.starts_with(own));
        if path.is_absolute() && path.exists() && !boxes_own {
            seen.named(path);
        }
    }
    if let Some(program) = words.iter().find(|w| !w.is_empty() && !w.starts_with('-')) {
        if let Some(path) = find_program(program) {
            seen.program(&path, 0);
        }
    }
    // The shell that runs the command.
    if let Some(sh) = find_program("sh") {
        seen.program(&sh, 0);
    }
    let mut paths: Vec<PathBuf> = seen.paths.into_iter().collect();
    paths.sort_by_key(|p| (p.components().count(), p.clone()));
    Visible {
        paths,
        program_dirs: seen.program_dirs,
    }
}

/// What a program is shown of the machine beyond the system folders.
#[derive(Clone, Debug, Default)]
pub(crate) struct Visible {
    /// The paths shown, shortest first.
    pub(crate) paths: Vec<PathBuf>,
    /// The folders of the program and of the interpreters it goes
    /// through, for its `PATH`.
    pub(crate) program_dirs: Vec<PathBuf>,
}

/// The folder to show for `path` so that what it is part of works: the
/// root of its installation (`~/.pyenv/versions/2.7.18` for
/// `~/.pyenv/versions/2.7.18/bin/python2`), else its folder, else itself.
pub(crate) fn installation_root(path: &Path) -> PathBuf {
    let dir = if path.is_dir() {
        path
    } else {
        path.parent().unwrap_or(path)
    };
    let in_program_folder = dir
        .file_name()
        .is_some_and(|n| PROGRAM_FOLDERS.iter().any(|f| n == *f));
    match dir.parent() {
        Some(parent) if in_program_folder && parent.parent().is_some() => parent.to_owned(),
        _ if dir.parent().is_some() => dir.to_owned(),
        _ => path.to_owned(),
    }
}

struct Seen {
    guarded: Vec<PathBuf>,
    paths: BTreeSet<PathBuf>,
    program_dirs: Vec<PathBuf>,
}

impl Seen {
    /// True when showing `dir` would show a guarded folder.
    fn is_guarded(&self, dir: &Path) -> bool {
        dir.parent().is_none() || self.guarded.iter().any(|g| g.starts_with(dir))
    }

    /// A file or folder named on the command line: a file with its folder
    /// (a program of several files imports its neighbours).
    fn named(&mut self, path: &Path) {
        if path.is_dir() {
            if !self.is_guarded(path) {
                self.paths.insert(path.to_owned());
            }
            return;
        }
        self.paths.insert(path.to_owned());
        if let Some(dir) = path.parent().filter(|d| !self.is_guarded(d)) {
            self.paths.insert(dir.to_owned());
        }
    }

    /// The program at `path`, with its installation's root, through its
    /// symbolic links and its `#!` line's interpreter.
    fn program(&mut self, path: &Path, hops: usize) {
        if hops > MAX_HOPS {
            return;
        }
        self.installed(path);
        if let Some(dir) = path.parent() {
            if !self.program_dirs.iter().any(|d| d == dir) {
                self.program_dirs.push(dir.to_owned());
            }
        }
        if let Ok(target) = fs::read_link(path) {
            let dir = path.parent().unwrap_or(Path::new("/"));
            self.program(&dir.join(target), hops + 1);
            return;
        }
        if let Some(interpreter) = shebang(path) {
            self.program(&interpreter, hops + 1);
        }
    }

    /// The root of the installation `program` is part of, or the program
    /// alone where that root is guarded.
    fn installed(&mut self, program: &Path) {
        let Some(dir) = program.parent() else { return };
        let in_program_folder = dir
            .file_name()
            .is_some_and(|n| PROGRAM_FOLDERS.iter().any(|f| n == *f));
        let root = match dir.parent() {
            Some(parent) if in_program_folder => parent,
            _ => dir,
        };
        if self.is_guarded(root) {
            self.paths.insert(program.to_owned());
        } else {
            self.paths.insert(root.to_owned());
        }
    }
}

/// Where `sh` finds `program`: itself when it names a path, else the first
/// executable of that name on `PATH`.
fn find_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let path = PathBuf::from(program);
        return path.is_absolute().then_some(path);
    }
    let search = std::env::var_os("PATH")?;
    std::env::split_paths(&search)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(program))
        .find(|p| fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

/// The interpreter a `#!` line names (through `env`), if the file has one.
fn shebang(path: &Path) -> Option<PathBuf> {
    let mut head = [0u8; 256];
    let n = fs::File::open(path).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if Path::new(first).file_name()? == "env" {
        let program = words.find(|w| !w.starts_with('-') && !w.contains('='))?;
        return find_program(program);
    }
    Some(PathBuf::from(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_files_bring_their_folder_unless_it_is_guarded() {
        let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let hw = dir.path().join("hw.py");
        fs::write(&hw, "").unwrap();
        let words = vec!["/no/such/python3".to_owned(), hw.display().to_string()];
        let shown = visible(&words, &[]).paths;
        assert!(shown.contains(&hw), "{shown:?}");
        assert!(shown.contains(&dir.path().to_owned()), "{shown:?}");
        // The folder holds the answer key: the file alone.
        let shown = visible(&words, &[dir.path().join("cases")]).paths;
        assert!(shown.contains(&hw) && !shown.contains(&dir.path().to_owned()));
    }

    #[test]
    fn paths_of_the_box_s_own_folders_are_not_shown() {
        let words: Vec<String> = ["cat", "/dev/urandom", "/proc/cpuinfo", "/sys/kernel"]
            .map(String::from)
            .to_vec();
        let shown = visible(&words, &[]).paths;
        assert!(
            !shown
                .iter()
                .any(|p| BOX_OWN.iter().any(|own| p.starts_with(own))),
            "{shown:?}"
        );
    }

    #[test]
    fn an_installation_is_shown_whole() {
        assert_eq!(
            installation_root(Path::new("/root/.pyenv/versions/2.7.18/bin/python2")),
            Path::new("/root/.pyenv/versions/2.7.18")
        );
        assert_eq!(
            installation_root(Path::new("/opt/tool/run.sh")),
            Path::new("/opt/tool")
        );
    }

    #[test]
    fn a_shebang_names_its_interpreter() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("s");
        fs::write(&script, "#!/usr/bin/env -S python3 -u\nprint(1)\n").unwrap();
        assert_eq!(shebang(&script), find_program("python3"));
        fs::write(&script, "#!/opt/x/bin/python -u\n").unwrap();
        assert_eq!(shebang(&script), Some(PathBuf::from("/opt/x/bin/python")));
    }
}
