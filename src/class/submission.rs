//! The submissions of a class, from what the teacher has: a folder with a
//! folder per student (graded where it is), or a course site's download
//! as it comes, a folder or the `.zip` itself (each student's files
//! gathered into a folder of their own under the output folder, by the
//! site's naming: [`super::sites`]).

use std::path::{Path, PathBuf};

use super::download::Download;
use super::sites::{self, Gathered, Site, Student, Top};

/// The folder of `--class-out` where a download's submissions are
/// gathered, one folder each.
pub const GATHERED: &str = "submissions";

/// The file that marks [`GATHERED`] as made by a gathering: only such a
/// folder is removed and gathered afresh, never one the teacher made.
const MARKER: &str = ".stakeraid-gathered";

/// One student's submission (or one group's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// Its name in the gradebook: the folder's, or the site's name and id.
    pub name: String,
    /// The folder of its files.
    pub path: PathBuf,
    /// Who handed it in, as the site names them (none for a plain folder).
    pub students: Vec<Student>,
    /// A hash of its files as gathered from a download, so that a rerun
    /// after a new download grades a changed submission again; empty for
    /// a folder graded where it is (its program may write there).
    pub digest: String,
}

/// Why a class cannot be graded, found before anything runs.
#[derive(Debug, thiserror::Error)]
pub enum ClassError {
    /// DIR is not a folder or file that can be read.
    #[error("--class {0}: {1}")]
    Unreadable(String, std::io::Error),
    /// DIR holds no submission.
    #[error(
        "--class {0}: no submission in it (a folder per student, or a Canvas, Moodle or \
         Gradescope download, folder or zip)"
    )]
    Empty(String),
    /// Neither a folder nor a zip.
    #[error("--class {0}: neither a folder nor a zip")]
    Kind(String),
    /// A file or folder name that is not UTF-8 cannot be a gradebook row.
    #[error("--class {0}: the name {1:?} is not UTF-8")]
    Name(String, std::ffi::OsString),
    /// The zip cannot be read as one.
    #[error("--class {0}: not a zip that can be read: {1}")]
    Zip(String, String),
    /// The download holds what no site's download holds (a path out of
    /// it, a link, a file past the bounds): why.
    #[error("--class {0}: refused: {1}")]
    Unsafe(String, String),
    /// A file of the download cannot be copied out to be graded.
    #[error("--class {0}: cannot copy {1} to grade it: {2}")]
    Copy(String, String, std::io::Error),
    /// The folder a download is gathered into is there, not made by a
    /// gathering: it is not removed.
    #[error(
        "--class-out {0}: {1} is there and was not made by stakeraid; move it or give another \
         --class-out"
    )]
    NotOurs(String, String),
}

/// A class read and sorted, nothing written yet.
pub struct Class {
    /// The site its names are of.
    pub site: Site,
    /// What belongs to no student: a file, or a folder (`name/`) whole.
    pub strays: Vec<String>,
    found: Found,
}

enum Found {
    /// A folder per student, graded where they are.
    InPlace(Vec<Submission>),
    /// Files to gather, from the download.
    ToGather(Box<Download>, Vec<Gathered>),
}

impl std::fmt::Debug for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Class")
            .field("site", &self.site)
            .field("strays", &self.strays)
            .field("submissions", &self.len())
            .finish()
    }
}

impl Class {
    /// The class at `path`: a folder of students' folders, or a course
    /// site's download (a folder, or a zip, checked whole here: see
    /// [`super::download`]). Nothing is written.
    pub fn read(path: &Path) -> Result<Class, ClassError> {
        let shown = path.display().to_string();
        let unreadable = |e| ClassError::Unreadable(shown.clone(), e);
        let meta = std::fs::metadata(path).map_err(unreadable)?;
        if meta.is_dir() {
            let mut root = path.to_owned();
            let mut site = sites::detect(&folder_tops(&root, &shown)?);
            if site == Site::Folders {
                // A site's download unpacked into one folder of its name.
                if let Some(inner) = lone_folder(&folder_tops(&root, &shown)?) {
                    let inside = sites::detect(&folder_tops(&root.join(&inner), &shown)?);
                    if inside != Site::Folders {
                        root.push(inner);
                        site = inside;
                    }
                }
            }
            if site == Site::Folders {
                return in_place(&root, &shown);
            }
            let download = Download::open(&root, &shown)?.expect("a folder");
            return Class::sorted(download, "", site);
        }
        let Some(download) = Download::open(path, &shown)? else {
            return Err(ClassError::Kind(shown));
        };
        let tops = sites::tops(download.paths());
        let site = sites::detect(&tops);
        if site == Site::Folders {
            if let Some(inner) = lone_folder(&tops) {
                let prefix = format!("{inner}/");
                let inside: Vec<String> = download
                    .paths()
                    .iter()
                    .filter_map(|p| p.strip_prefix(&prefix).map(str::to_owned))
                    .collect();
                let inside = sites::detect(&sites::tops(&inside));
                if inside != Site::Folders {
                    return Class::sorted(download, &prefix, inside);
                }
            }
        }
        Class::sorted(download, "", site)
    }

    /// The download's files under `prefix` sorted as `site` names them.
    fn sorted(mut download: Download, prefix: &str, site: Site) -> Result<Class, ClassError> {
        let paths: Vec<String> = download
            .paths()
            .iter()
            .map(|p| p.strip_prefix(prefix).unwrap_or(p).to_owned())
            .collect();
        let metadata = match site {
            Site::Gradescope => {
                // Seen at the top but not listed: a link, a pipe or the
                // like, which a folder's listing leaves out.
                let Some(at) = download
                    .paths()
                    .iter()
                    .position(|p| *p == format!("{prefix}{}", sites::GRADESCOPE_METADATA))
                else {
                    return Err(ClassError::Unsafe(
                        download.shown().to_owned(),
                        format!("{} is not a plain file", sites::GRADESCOPE_METADATA),
                    ));
                };
                download.text(at)?
            }
            _ => String::new(),
        };
        // Outside the prefix: no student's.
        let outside: Vec<String> = download
            .paths()
            .iter()
            .filter(|p| !p.starts_with(prefix) && !sites::is_junk(p))
            .map(|p| p.split('/').next().unwrap_or_default().to_owned())
            .collect();
        let mut sorted = sites::sort(site, &paths, &metadata);
        if sorted.gathered.is_empty() {
            return Err(ClassError::Empty(download.shown().to_owned()));
        }
        sorted.strays.extend(outside);
        sorted.strays.sort();
        sorted.strays.dedup();
        Ok(Class {
            site,
            strays: sorted.strays,
            found: Found::ToGather(Box::new(download), sorted.gathered),
        })
    }

    /// How many submissions.
    pub fn len(&self) -> usize {
        match &self.found {
            Found::InPlace(subs) => subs.len(),
            Found::ToGather(_, gathered) => gathered.len(),
        }
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The submissions, each in a folder: a download's gathered afresh
    /// into `out`'s [`GATHERED`] folder (removed again if a file cannot be
    /// copied, or goes past the bounds), a folder per student's where it
    /// is.
    pub fn submissions(self, out: &Path) -> Result<Vec<Submission>, ClassError> {
        let (mut download, gathered) = match self.found {
            Found::InPlace(subs) => return Ok(subs),
            Found::ToGather(download, gathered) => (download, gathered),
        };
        let to = std::path::absolute(out.join(GATHERED))
            .map_err(|e| ClassError::Unreadable(out.display().to_string(), e))?;
        let cannot = |e| ClassError::Copy(out.display().to_string(), GATHERED.to_owned(), e);
        if std::fs::symlink_metadata(&to).is_ok() {
            let ours = std::fs::symlink_metadata(to.join(MARKER)).is_ok_and(|m| m.is_file());
            // An empty folder holds nothing of anyone's.
            if !ours && std::fs::remove_dir(&to).is_err() {
                return Err(ClassError::NotOurs(
                    out.display().to_string(),
                    to.display().to_string(),
                ));
            }
            if ours {
                std::fs::remove_dir_all(&to).map_err(cannot)?;
            }
        }
        std::fs::create_dir_all(&to).map_err(cannot)?;
        // Marked before the first copy, so that a gathering cut short is
        // still removed by the next.
        std::fs::write(to.join(MARKER), b"").map_err(cannot)?;
        let mut subs = Vec::new();
        for g in gathered {
            let path = to.join(&g.name);
            for (index, inside) in &g.files {
                if let Err(e) = download.copy_to(*index, &path.join(inside)) {
                    let _ = std::fs::remove_dir_all(&to);
                    return Err(e);
                }
            }
            let digest = digest(&path, &g.files).map_err(cannot)?;
            subs.push(Submission {
                name: g.name,
                path,
                students: g.students,
                digest,
            });
        }
        Ok(subs)
    }
}

/// A hash of the `files` (each at its path inside) of the folder `dir`,
/// read back as gathered: their paths and bytes in path order. FNV-1a,
/// stable across runs and builds; it tells a changed submission from the
/// same one, and is no defence against a collision made on purpose.
fn digest(dir: &Path, files: &[(usize, String)]) -> std::io::Result<String> {
    let mut inside: Vec<&str> = files.iter().map(|(_, p)| p.as_str()).collect();
    inside.sort_unstable();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        // Each part's length first, so that no two lists feed alike.
        for b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for path in inside {
        feed(path.as_bytes());
        feed(&std::fs::read(dir.join(path))?);
    }
    Ok(format!("{h:016x}"))
}

/// The folder at `tops` when it is alone there, files and folders shown.
fn lone_folder(tops: &[Top]) -> Option<String> {
    let shown: Vec<&Top> = tops.iter().filter(|t| !t.name.starts_with('.')).collect();
    match shown[..] {
        [one] if one.folder => Some(one.name.clone()),
        _ => None,
    }
}

/// The names at the top of the folder `dir`, junk left out.
fn folder_tops(dir: &Path, shown: &str) -> Result<Vec<Top>, ClassError> {
    let unreadable = |e| ClassError::Unreadable(shown.to_owned(), e);
    let mut tops = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let name = entry
            .file_name()
            .into_string()
            .map_err(|n| ClassError::Name(shown.to_owned(), n))?;
        if sites::is_junk(&name) {
            continue;
        }
        tops.push(Top {
            folder: entry.path().is_dir(),
            name,
        });
    }
    Ok(tops)
}

/// A folder per student in `dir`, in name order, graded where they are;
/// hidden ones (a name starting with `.`) left out, and a file beside them
/// a stray.
fn in_place(dir: &Path, shown: &str) -> Result<Class, ClassError> {
    let unreadable = |e| ClassError::Unreadable(shown.to_owned(), e);
    let mut subs = Vec::new();
    let mut strays = Vec::new();
    for top in folder_tops(dir, shown)? {
        if top.name.starts_with('.') {
            continue;
        }
        if !top.folder {
            strays.push(top.name);
            continue;
        }
        // Absolute, so that the command's files are found from any folder.
        let path = std::path::absolute(dir.join(&top.name)).map_err(unreadable)?;
        subs.push(Submission {
            name: top.name,
            path,
            students: Vec::new(),
            digest: String::new(),
        });
    }
    if subs.is_empty() {
        return Err(ClassError::Empty(shown.to_owned()));
    }
    subs.sort_by(|a, b| a.name.cmp(&b.name));
    strays.sort();
    Ok(Class {
        site: Site::Folders,
        strays,
        found: Found::InPlace(subs),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Canvas download of one file, in a folder under `root` (made
    /// the first time).
    fn canvas_class(root: &Path) -> Class {
        let dir = root.join("download");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("doejane_1001_5001_homework.py");
        if !file.exists() {
            std::fs::write(file, "print()").unwrap();
        }
        Class::read(&dir).unwrap()
    }

    #[test]
    fn gradescope_metadata_that_is_no_plain_file_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("export");
        std::fs::create_dir_all(dir.join("submission_1")).unwrap();
        std::fs::write(dir.join("submission_1/homework.py"), "print()").unwrap();
        let metadata = dir.join(sites::GRADESCOPE_METADATA);
        std::os::unix::fs::symlink(root.path().join("nowhere"), &metadata).unwrap();
        let e = Class::read(&dir).unwrap_err();
        assert!(matches!(e, ClassError::Unsafe(..)), "{e}");
        assert!(e.to_string().ends_with("is not a plain file"), "{e}");
    }

    #[test]
    fn a_submissions_folder_not_made_by_a_gathering_is_kept() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        let mine = out.join(GATHERED).join("notes.txt");
        std::fs::create_dir_all(mine.parent().unwrap()).unwrap();
        std::fs::write(&mine, "the teacher's").unwrap();
        let e = canvas_class(root.path()).submissions(&out).unwrap_err();
        assert!(matches!(e, ClassError::NotOurs(..)), "{e}");
        assert!(mine.is_file());
        // Gathered into a folder of its own making, and again over it.
        std::fs::remove_file(&mine).unwrap();
        let mut digests = Vec::new();
        for _ in 0..2 {
            let subs = canvas_class(root.path()).submissions(&out).unwrap();
            assert!(subs[0].path.join("homework.py").is_file());
            digests.push(subs[0].digest.clone());
        }
        // The same files hash alike; a new download's changed file not.
        assert_eq!(digests[0], digests[1]);
        let file = root.path().join("download/doejane_1001_5001_homework.py");
        std::fs::write(file, "print(1)").unwrap();
        let subs = canvas_class(root.path()).submissions(&out).unwrap();
        assert_ne!(subs[0].digest, digests[0]);
    }
}
