//! The table file beside a store (`FILE-table`): the deepest entries of a
//! solve's transposition table, rewritten whole every so often, so that a
//! solve killed at any moment resumes with most of what its table knew.
//!
//! The store keeps the proofs that took long; the table keeps, besides
//! bounds, the best move of every position searched deep enough, and a
//! restarted null-window test that finds none of them searches its first
//! children in a worse order at every level. The entries are bounds proved
//! on this board's cell values, so they hold for any later search of it,
//! as the store's do: the file is tied to the same identity and refused
//! when it differs. Unlike the store, it is in the compact engine's own
//! layout (the version byte of its magic names that layout), and its
//! loss costs time, never an answer.
//!
//! Layout, little-endian: the magic (8 bytes), the identity text's length
//! (u32) and the text, the entry count (u64), three u64 words per entry,
//! then FNV-1a of every byte before it (u64).

use std::io::{BufWriter, Write};
use std::path::Path;

use super::file::{fnv1a, Identity};
use super::StoreError;

/// "SRtable" and the version of the entries' layout.
const MAGIC: &[u8; 8] = b"SRtable\x01";

/// One table entry as the engine keeps it: its two sets and its packed
/// result.
pub(crate) type Entry = [u64; 3];

/// The table file of the store at `path`.
pub(super) fn path_of(store: &Path) -> std::path::PathBuf {
    let mut name = store.as_os_str().to_owned();
    name.push("-table");
    name.into()
}

/// The entries in the file at `path`, none if there is no file. A file
/// that is not a table file, belongs to another board, is cut short or
/// damaged is refused and left as it is.
pub(super) fn read(path: &Path, identity: &Identity) -> Result<Vec<Entry>, StoreError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(StoreError::Io {
                path: path.to_owned(),
                kind: e.kind(),
                message: format!("cannot read it: {e}"),
            })
        }
    };
    let corrupt = |detail: String| StoreError::Corrupt {
        path: path.to_owned(),
        detail,
    };
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(StoreError::NotAStore {
            path: path.to_owned(),
            why: "not a stakeraid table file of this version".into(),
        });
    }
    let mut rest = &bytes[MAGIC.len()..];
    let mut take = |len: usize| {
        let piece = rest.get(..len);
        rest = rest.get(len..).unwrap_or_default();
        piece.ok_or_else(|| corrupt(format!("cut short: {} bytes", bytes.len())))
    };
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    let text_len = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize;
    let text = take(text_len)?;
    if text != identity.text().as_bytes() {
        return Err(StoreError::Foreign {
            path: path.to_owned(),
            what: "other rules, another board size or other cell values".into(),
        });
    }
    let count = usize::try_from(word(take(8)?)).unwrap_or(usize::MAX);
    let body = take(count.saturating_mul(24))?;
    let entries = body
        .chunks_exact(24)
        .map(|e| [word(&e[..8]), word(&e[8..16]), word(&e[16..])])
        .collect();
    let sum = word(take(8)?);
    let end = bytes.len() - rest.len() - 8;
    if !rest.is_empty() {
        return Err(corrupt(format!("{} bytes after its end", rest.len())));
    }
    if fnv1a(&bytes[..end]) != sum {
        return Err(corrupt("its checksum does not match".into()));
    }
    Ok(entries)
}

/// Replaces the file at `path` with `entries`: written beside it and
/// renamed over it, so a kill leaves the old file or the new one whole.
pub(super) fn write(path: &Path, identity: &Identity, entries: &[Entry]) -> Result<(), StoreError> {
    let io = |e: std::io::Error| StoreError::Io {
        path: path.to_owned(),
        kind: e.kind(),
        message: e.to_string(),
    };
    let mut bytes = Vec::with_capacity(32 + entries.len() * 24);
    let text = identity.text();
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    bytes.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for e in entries {
        for w in e {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
    }
    let sum = fnv1a(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    let temp = crate::temp_file::beside(path, ".stakeraid-table-").map_err(io)?;
    {
        let mut out = BufWriter::new(temp.as_file());
        out.write_all(&bytes).map_err(io)?;
        out.flush().map_err(io)?;
    }
    temp.as_file().sync_all().map_err(io)?;
    temp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}
