//! The submissions of a class: the folders of DIR, as Canvas, Moodle and
//! Gradescope exports name them (spaces and commas included).

use std::path::{Path, PathBuf};

/// One student's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The folder's name: the student, in the gradebook.
    pub name: String,
    /// The folder.
    pub path: PathBuf,
}

/// Why a class cannot be graded, found before anything runs.
#[derive(Debug, thiserror::Error)]
pub enum ClassError {
    /// DIR is not a folder that can be read.
    #[error("--class {0}: {1}")]
    Unreadable(String, std::io::Error),
    /// DIR holds no folder.
    #[error("--class {0}: no submission folder in it (each student's files go in a folder of their own)")]
    Empty(String),
    /// A folder name that is not UTF-8 cannot be a gradebook row.
    #[error("--class {0}: the folder name {1:?} is not UTF-8")]
    Name(String, std::ffi::OsString),
}

/// The submission folders of `dir`, in name order; hidden ones (a name
/// starting with `.`) left out.
pub fn submissions(dir: &Path) -> Result<Vec<Submission>, ClassError> {
    let shown = dir.display().to_string();
    let unreadable = |e| ClassError::Unreadable(shown.clone(), e);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        let name = entry
            .file_name()
            .into_string()
            .map_err(|n| ClassError::Name(shown.clone(), n))?;
        if name.starts_with('.') {
            continue;
        }
        // Absolute, so that the command's files are found from any folder.
        let path = std::path::absolute(&path).map_err(unreadable)?;
        out.push(Submission { name, path });
    }
    if out.is_empty() {
        return Err(ClassError::Empty(shown));
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}
