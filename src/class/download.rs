//! A course site's download as it comes: a folder, or the `.zip` itself.
//! Its files are listed as `/`-separated paths from its top, and copied
//! out one at a time into the folders the class is graded from.
//!
//! A zip is untrusted: a student names the files in it, and anyone can
//! make one. Before anything is written, every entry must be a plain file
//! or folder whose path stays inside the download (no `..`, no absolute
//! path, no link), there may be at most [`MAX_ENTRIES`] of them, and none
//! may say it is larger than [`MAX_FILE_BYTES`]. Since a zip's sizes are
//! only what it says, the bytes actually read out are counted too, each
//! file's against [`MAX_FILE_BYTES`] and all of them against
//! [`MAX_TOTAL_BYTES`]: a file that grows past either stops the copy.
//! A folder's links are not followed, and the same bounds hold.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use super::ClassError;

/// Files (and folders) a download may hold.
pub const MAX_ENTRIES: usize = 50_000;

/// Bytes one file of a download may hold: a homework is kilobytes; a
/// program's data, a few megabytes.
pub const MAX_FILE_BYTES: u64 = 32 << 20;

/// Bytes all the files of a download may hold together.
pub const MAX_TOTAL_BYTES: u64 = 2 << 30;

/// A download's files, and where they are read from.
pub(super) struct Download {
    /// The download as given, for messages.
    shown: String,
    /// Each file's path from the top.
    paths: Vec<String>,
    from: From,
    /// Bytes copied out so far.
    copied: u64,
}

enum From {
    /// A folder: each path's file under it.
    Folder(PathBuf),
    /// A zip: each path's entry, by its index in the archive.
    Zip(Box<zip::ZipArchive<File>>, Vec<usize>),
}

impl Download {
    /// The download at `path`: a folder, or a zip (by its contents, not
    /// its name). `Ok(None)`: neither.
    pub(super) fn open(path: &Path, shown: &str) -> Result<Option<Download>, ClassError> {
        let unreadable = |e| ClassError::Unreadable(shown.to_owned(), e);
        let meta = std::fs::metadata(path).map_err(unreadable)?;
        let (paths, from) = if meta.is_dir() {
            let mut paths = Vec::new();
            walk(path, "", &mut paths, shown)?;
            (paths, From::Folder(path.to_owned()))
        } else if is_zip(path).map_err(unreadable)? {
            let file = File::open(path).map_err(unreadable)?;
            let archive = zip::ZipArchive::new(file)
                .map_err(|e| ClassError::Zip(shown.to_owned(), e.to_string()))?;
            let (paths, indices) = zip_paths(&archive, shown)?;
            (paths, From::Zip(Box::new(archive), indices))
        } else {
            return Ok(None);
        };
        Ok(Some(Download {
            shown: shown.to_owned(),
            paths,
            from,
            copied: 0,
        }))
    }

    /// The download as given.
    pub(super) fn shown(&self) -> &str {
        &self.shown
    }

    /// Each file's path from the top, `/`-separated.
    pub(super) fn paths(&self) -> &[String] {
        &self.paths
    }

    /// The text of the file `index` (of [`Download::paths`]), at most
    /// [`MAX_FILE_BYTES`] of it read.
    pub(super) fn text(&mut self, index: usize) -> Result<String, ClassError> {
        let mut bytes = Vec::new();
        self.copy(index, &mut bytes)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Copies the file `index` to the new file `to`.
    pub(super) fn copy_to(&mut self, index: usize, to: &Path) -> Result<(), ClassError> {
        let cannot = |e| ClassError::Copy(self.shown.clone(), printable(&self.paths[index]), e);
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir).map_err(cannot)?;
        }
        let mut file = File::create_new(to).map_err(cannot)?;
        self.copy(index, &mut file)
    }

    /// Copies the file `index` into `out`, the bytes read counted against
    /// the bounds.
    fn copy(&mut self, index: usize, out: &mut impl io::Write) -> Result<(), ClassError> {
        let path = &printable(&self.paths[index]);
        let cannot = |e| ClassError::Copy(self.shown.clone(), path.clone(), e);
        let room = MAX_FILE_BYTES.min(MAX_TOTAL_BYTES - self.copied);
        let copied = match &mut self.from {
            From::Folder(root) => {
                let mut file = File::open(root.join(path)).map_err(cannot)?;
                bounded_copy(&mut file, out, room).map_err(|e| match e {
                    Fault::Read(e) | Fault::Write(e) => cannot(e),
                })?
            }
            From::Zip(archive, indices) => {
                let mut entry = archive
                    .by_index(indices[index])
                    .map_err(|e| ClassError::Zip(self.shown.clone(), format!("{path}: {e}")))?;
                // The zip's own checks (its sizes, its checksum) fail as
                // the bytes are read: the zip is refused.
                bounded_copy(&mut entry, out, room).map_err(|e| match e {
                    Fault::Read(e) => {
                        ClassError::Unsafe(self.shown.clone(), format!("{path}: {e}"))
                    }
                    Fault::Write(e) => cannot(e),
                })?
            }
        };
        if copied > room {
            let why = too_large(path, copied, self.copied);
            return Err(ClassError::Unsafe(self.shown.clone(), why));
        }
        self.copied += copied;
        Ok(())
    }
}

/// `name` (a student named it) as a message may print it: each control
/// character escaped (`\u{1b}`, `\n`), so that no name moves the
/// terminal's cursor or starts a line of its own; the rest as it is.
pub fn printable(name: &str) -> String {
    name.chars()
        .map(|c| match c.is_control() {
            true => c.escape_default().to_string(),
            false => c.to_string(),
        })
        .collect()
}

/// Where a copy failed.
enum Fault {
    Read(io::Error),
    Write(io::Error),
}

/// Copies `from` into `out`, at most `room` bytes and one more (to tell a
/// file that fills the room from one that goes past it): the bytes copied.
fn bounded_copy(from: &mut impl Read, out: &mut impl io::Write, room: u64) -> Result<u64, Fault> {
    let mut buffer = vec![0u8; 64 << 10];
    let mut copied = 0u64;
    while copied <= room {
        let want = buffer
            .len()
            .min(usize::try_from(room + 1 - copied).unwrap_or(usize::MAX));
        let n = match from.read(&mut buffer[..want]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Fault::Read(e)),
        };
        out.write_all(&buffer[..n]).map_err(Fault::Write)?;
        copied += n as u64;
    }
    Ok(copied)
}

/// Why a file is refused for its size: its own, or the whole download's.
fn too_large(path: &str, bytes: u64, before: u64) -> String {
    let path = printable(path);
    if bytes > MAX_FILE_BYTES {
        format!("{path} holds more than {} MiB", MAX_FILE_BYTES >> 20)
    } else {
        format!(
            "its files hold more than {} MiB in all (at {path}, after {} MiB)",
            MAX_TOTAL_BYTES >> 20,
            before >> 20
        )
    }
}

/// Whether the file at `path` starts as a zip does.
fn is_zip(path: &Path) -> io::Result<bool> {
    let mut magic = [0u8; 4];
    let mut file = File::open(path)?;
    let n = file.read(&mut magic)?;
    Ok(n == 4 && (magic == *b"PK\x03\x04" || magic == *b"PK\x05\x06"))
}

/// The files of `archive` as paths, and each one's index, every entry
/// checked first (see the module's comment).
fn zip_paths(
    archive: &zip::ZipArchive<File>,
    shown: &str,
) -> Result<(Vec<String>, Vec<usize>), ClassError> {
    let refuse = |why: String| ClassError::Unsafe(shown.to_owned(), why);
    if archive.len() > MAX_ENTRIES {
        return Err(refuse(format!(
            "it holds {} entries, more than {MAX_ENTRIES}",
            archive.len()
        )));
    }
    let mut paths = Vec::new();
    let mut indices = Vec::new();
    let mut declared: u64 = 0;
    for i in 0..archive.len() {
        let zip_error = |e: zip::result::ZipError| ClassError::Zip(shown.to_owned(), e.to_string());
        let entry = archive.by_index_data(i).map_err(zip_error)?;
        let name = entry.name().map_err(zip_error)?.into_owned();
        let shown_name = format!("{name:?}");
        if entry.is_symlink() {
            return Err(refuse(format!("the entry {shown_name} is a link")));
        }
        let Some(path) = inside(&name) else {
            return Err(refuse(format!(
                "the entry {shown_name} climbs out of the folder it is unpacked in"
            )));
        };
        if entry.is_dir() {
            continue;
        }
        // A device, a pipe or a socket is no file of a student's.
        const KIND: u32 = 0o170000;
        if let Some(mode) = entry.unix_mode() {
            if mode & KIND != 0 && mode & KIND != 0o100000 {
                return Err(refuse(format!(
                    "the entry {shown_name} is not a plain file"
                )));
            }
        }
        let size = entry.size();
        if size > MAX_FILE_BYTES {
            return Err(refuse(too_large(&path, size, 0)));
        }
        declared = declared.saturating_add(size);
        if declared > MAX_TOTAL_BYTES {
            return Err(refuse(too_large(&path, size, declared - size)));
        }
        paths.push(path);
        indices.push(i);
    }
    Ok((paths, indices))
}

/// The entry name `name` as a path from the top, if it stays inside it:
/// relative, with no `..`; `\` read as a separator too, as unzip does.
fn inside(name: &str) -> Option<String> {
    let name = name.replace('\\', "/");
    if name.starts_with('/') || name.contains('\0') || name.get(1..2) == Some(":") {
        return None;
    }
    let mut parts = Vec::new();
    for part in Path::new(&name).components() {
        match part {
            Component::Normal(p) => parts.push(p.to_str()?),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Lists the files under `dir` (reached by `prefix` from the top) into
/// `paths`; a link is left out, and the bounds hold.
fn walk(dir: &Path, prefix: &str, paths: &mut Vec<String>, shown: &str) -> Result<(), ClassError> {
    let unreadable = |e| ClassError::Unreadable(format!("{shown}/{prefix}"), e);
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(unreadable)?
        .collect::<Result<_, _>>()
        .map_err(unreadable)?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry
            .file_name()
            .into_string()
            .map_err(|n| ClassError::Name(shown.to_owned(), n))?;
        let path = format!("{prefix}{name}");
        let kind = entry.file_type().map_err(unreadable)?;
        if kind.is_dir() {
            walk(&entry.path(), &format!("{path}/"), paths, shown)?;
        } else if kind.is_file() {
            paths.push(path);
        }
        if paths.len() > MAX_ENTRIES {
            return Err(ClassError::Unsafe(
                shown.to_owned(),
                format!("it holds more than {MAX_ENTRIES} files"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_inside_the_folder_are_taken() {
        assert_eq!(inside("a/b.py").as_deref(), Some("a/b.py"));
        assert_eq!(inside("./a//b.py").as_deref(), Some("a/b.py"));
        assert_eq!(inside("a\\b.py").as_deref(), Some("a/b.py"));
        for out in [
            "../a.py",
            "a/../../b",
            "/etc/passwd",
            "\\x",
            "C:/x",
            "a/..",
            "",
        ] {
            assert_eq!(inside(out), None, "{out}");
        }
    }

    #[test]
    fn a_name_s_control_characters_are_printed_escaped() {
        assert_eq!(printable("Doe, Jane/hw.py"), "Doe, Jane/hw.py");
        assert_eq!(printable("a\u{1b}[2J\nb"), "a\\u{1b}[2J\\nb");
        let why = too_large("x\u{1b}]0;pwned\u{7}.py", MAX_FILE_BYTES + 1, 0);
        assert!(!why.chars().any(char::is_control), "{why:?}");
    }

    #[test]
    fn a_copy_stops_one_byte_past_its_room() {
        let mut out = Vec::new();
        let copied = bounded_copy(&mut &[7u8; 100][..], &mut out, 10)
            .ok()
            .unwrap();
        assert_eq!((copied, out.len()), (11, 11));
        let mut out = Vec::new();
        assert_eq!(
            bounded_copy(&mut &[7u8; 10][..], &mut out, 10).ok(),
            Some(10)
        );
    }
}
