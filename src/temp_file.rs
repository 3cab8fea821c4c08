//! The temporary file a file is written through and renamed over, so that
//! no reader sees it half-written and a failure leaves the old one whole.

use std::path::Path;

use tempfile::NamedTempFile;

/// The directory a file at `path` is in, where a file to be renamed over
/// it is made.
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// A new file beside `path`, named `prefix` and random letters, removed
/// when dropped unless it is persisted over `path`.
///
/// Made as any new file is, 0666 less the umask: once renamed into place
/// it is the user's file, to share or copy as their others (tempfile's
/// own 0600 is for secrets, and neither a store nor an output holds any).
/// An error is the operating system's alone: the caller names `path`, and
/// the temporary name would only confuse.
pub fn beside(path: &Path, prefix: &str) -> std::io::Result<NamedTempFile> {
    use std::os::unix::fs::OpenOptionsExt;
    tempfile::Builder::new()
        .prefix(prefix)
        .make_in(dir_of(path), |temp| {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .mode(0o666)
                .open(temp)
        })
}
