//! The store's file: its SQLite schema, the checks made before anything
//! in it is trusted, and the rows.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use rusqlite::{params, Connection};

use super::{Key, Proven, StoreError};
use crate::game::{Board, Move};

/// The version of the file layout below. A store of another version is
/// refused rather than read or upgraded in place.
pub const FORMAT_VERSION: i64 = 1;

/// SQLite's `application_id`, in the file header: "SRst". It tells a
/// stakeraid store from any other SQLite file before a query is run.
const APPLICATION_ID: i32 = 0x5352_7374;

/// The rules the bounds hold for; a store made under other rules is
/// refused.
const RULES: &str = "stake-raid 1";

/// SQLite's header is 100 bytes; the two fields checked are big-endian
/// 32-bit integers at fixed offsets.
const HEADER_LEN: usize = 100;
const MAGIC: &[u8; 16] = b"SQLite format 3\0";
const USER_VERSION_AT: usize = 60;
const APPLICATION_ID_AT: usize = 68;

const SCHEMA: &str = "
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
-- One row per position: lo <= value <= hi for the side to move, searched
-- `plies` deep. `cells` is row-major X, O and '.'; `best` the move that
-- reached `lo` (as in output.txt), when known; `check` the checksum of
-- the other fields.
CREATE TABLE bounds (
    cells  TEXT    NOT NULL,
    player TEXT    NOT NULL,
    plies  INTEGER NOT NULL,
    lo     INTEGER NOT NULL,
    hi     INTEGER NOT NULL,
    best   TEXT,
    nodes  INTEGER NOT NULL,
    micros INTEGER NOT NULL,
    check_ INTEGER NOT NULL,
    PRIMARY KEY (cells, player, plies)
) WITHOUT ROWID;
";

/// What a store is tied to: the board size and the cell values.
#[derive(Clone, Debug)]
pub(super) struct Identity {
    n: usize,
    values: Vec<i32>,
}

impl Identity {
    pub(super) fn of(board: &Board) -> Identity {
        let n = board.n();
        let values = (0..n * n).map(|i| board.value(i / n, i % n)).collect();
        Identity { n, values }
    }

    /// Cells on the board.
    pub(super) fn cells(&self) -> usize {
        self.n * self.n
    }

    /// The sum of the values, which bounds every value.
    pub(super) fn total(&self) -> i64 {
        self.values.iter().map(|&v| i64::from(v)).sum()
    }

    /// The rules, the size and the values, as one text.
    pub(super) fn text(&self) -> String {
        format!("{RULES}\n{}\n{}", self.n, self.values_text())
    }

    fn values_text(&self) -> String {
        let rows: Vec<String> = self
            .values
            .chunks(self.n)
            .map(|row| row.iter().map(i32::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        rows.join("\n")
    }
}

pub(super) fn sql_error(path: &Path, e: rusqlite::Error) -> StoreError {
    use rusqlite::ffi::ErrorCode;
    let path = path.to_owned();
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => StoreError::Corrupt {
            path,
            detail: format!("SQLite cannot read the file's structure ({e})"),
        },
        code => StoreError::Io {
            path,
            kind: match code {
                Some(ErrorCode::DiskFull) => std::io::ErrorKind::StorageFull,
                Some(ErrorCode::PermissionDenied | ErrorCode::ReadOnly) => {
                    std::io::ErrorKind::PermissionDenied
                }
                Some(ErrorCode::CannotOpen) => std::io::ErrorKind::NotFound,
                _ => std::io::ErrorKind::Other,
            },
            message: e.to_string(),
        },
    }
}

/// Makes a new, empty store at `path`: written beside it under another
/// name and renamed into place, so no half-made store is ever seen there.
pub(super) fn create(path: &Path, identity: &Identity) -> Result<(), StoreError> {
    let io = |e: &std::io::Error, message: String| StoreError::Io {
        path: path.to_owned(),
        kind: e.kind(),
        message,
    };
    let temp = crate::temp_file::beside(path, ".stakeraid-store-")
        .map_err(|e| io(&e, format!("cannot create it: {e}")))?;
    {
        let conn = Connection::open(temp.path()).map_err(|e| sql_error(path, e))?;
        init(&conn, identity).map_err(|e| sql_error(path, e))?;
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(|e| sql_error(path, e))?;
        conn.close().map_err(|(_, e)| sql_error(path, e))?;
    }
    // Another process may have made the store meanwhile: keep theirs.
    match temp.persist_noclobber(path) {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io(&e.error, format!("cannot create it: {}", e.error))),
    }
}

/// Writes the header fields, the schema and the identity into a new
/// database.
pub(super) fn init(conn: &Connection, identity: &Identity) -> rusqlite::Result<()> {
    conn.pragma_update(None, "application_id", APPLICATION_ID)?;
    conn.pragma_update(None, "user_version", FORMAT_VERSION)?;
    // Persistent in the file: every later connection uses the log.
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))?;
    conn.execute_batch(SCHEMA)?;
    let mut meta = conn.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)")?;
    meta.execute(params!["rules", RULES])?;
    meta.execute(params!["n", identity.n.to_string()])?;
    meta.execute(params!["values", identity.values_text()])?;
    Ok(())
}

/// Checks the header bytes before SQLite opens the file: anything that is
/// not a stakeraid store of this version is refused without being opened
/// for writing.
pub(super) fn check_header(path: &Path) -> Result<(), StoreError> {
    let not_a_store = |why: &str| StoreError::NotAStore {
        path: path.to_owned(),
        why: why.to_owned(),
    };
    let mut header = Vec::with_capacity(HEADER_LEN);
    std::fs::File::open(path)
        .and_then(|f| f.take(HEADER_LEN as u64).read_to_end(&mut header))
        .map_err(|e| StoreError::Io {
            path: path.to_owned(),
            kind: e.kind(),
            message: format!("cannot read it: {e}"),
        })?;
    if header.len() < HEADER_LEN {
        return Err(not_a_store(&format!(
            "{} bytes, shorter than a database header",
            header.len()
        )));
    }
    if &header[..MAGIC.len()] != MAGIC {
        return Err(not_a_store("not an SQLite database"));
    }
    let field = |at: usize| i32::from_be_bytes(header[at..at + 4].try_into().expect("4 bytes"));
    if field(APPLICATION_ID_AT) != APPLICATION_ID {
        return Err(not_a_store("an SQLite database of another program"));
    }
    let found = i64::from(field(USER_VERSION_AT));
    if found != FORMAT_VERSION {
        return Err(StoreError::Version {
            path: path.to_owned(),
            found,
        });
    }
    Ok(())
}

pub(super) fn configure(conn: &Connection) -> rusqlite::Result<()> {
    // Another process (a driver reading progress) may hold the file for a
    // moment; wait for it rather than fail.
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    // With the log, NORMAL loses no committed write when the process is
    // killed, only on a power cut, and saves a disk flush per write.
    conn.pragma_update(None, "synchronous", "NORMAL")
}

/// SQLite's own structural check: pages, b-trees, row formats and the
/// order of the keys. `integrity_check` rather than `quick_check`: only it
/// sees pages of the table swapped (every row still read, but the keys out
/// of order, so a later write could add a second row for a key), and on
/// stores of this size both take milliseconds. What it finds is put in
/// words (`integrity check failed: ...`).
pub(super) fn check_structure(path: &Path, conn: &Connection) -> Result<(), StoreError> {
    let corrupt = |detail: String| StoreError::Corrupt {
        path: path.to_owned(),
        detail,
    };
    let report = conn
        .prepare("PRAGMA integrity_check")
        .and_then(|mut stmt| {
            stmt.query_map([], |row| row.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<String>>>()
        })
        .map_err(|e| match sql_error(path, e) {
            StoreError::Corrupt { detail, .. } => {
                corrupt(format!("integrity check failed: {detail}"))
            }
            other => other,
        })?;
    if report != ["ok"] {
        // The tables' root pages, to name the table a problem is in (none
        // where the schema itself cannot be read).
        let trees: Vec<(u32, String)> = conn
            .prepare("SELECT rootpage, name FROM sqlite_schema WHERE rootpage > 0")
            .and_then(|mut stmt| {
                stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
                    .collect()
            })
            .unwrap_or_default();
        return Err(corrupt(super::integrity::describe(&report, &trees)));
    }
    Ok(())
}

pub(super) fn check_identity(
    path: &Path,
    conn: &Connection,
    identity: &Identity,
) -> Result<(), StoreError> {
    let meta = |key: &str| -> Result<String, StoreError> {
        conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |row| {
            row.get(0)
        })
        .map_err(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => StoreError::Corrupt {
                path: path.to_owned(),
                detail: format!("no {key} in its header table"),
            },
            e => sql_error(path, e),
        })
    };
    let foreign = |what: String| StoreError::Foreign {
        path: path.to_owned(),
        what,
    };
    let rules = meta("rules")?;
    if rules != RULES {
        return Err(foreign(format!("other rules ({rules})")));
    }
    let n = meta("n")?;
    if n != identity.n.to_string() {
        return Err(foreign(format!("a {n}x{n} board, not {0}x{0}", identity.n)));
    }
    let values = meta("values")?;
    if values != identity.values_text() {
        let row = values
            .lines()
            .zip(identity.values_text().lines())
            .position(|(a, b)| a != b)
            .map_or(String::new(), |r| format!(" (row {})", r + 1));
        return Err(foreign(format!("other cell values{row}")));
    }
    Ok(())
}

/// FNV-1a of `bytes`: the checksum of a row's fields and of a table file.
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One stored position.
pub(super) struct Row {
    pub(super) key: Key,
    pub(super) proven: Proven,
    pub(super) nodes: u64,
    pub(super) micros: u64,
}

impl Row {
    /// FNV-1a over every field as text: any change to one of them, by a bit
    /// flip or an edit, changes it. Kept to 63 bits, as SQLite's integers
    /// are signed.
    fn checksum(&self) -> i64 {
        let text = format!(
            "{}|{}|{}|{}|{}|{}|{}|{}",
            self.key.cells,
            self.key.player,
            self.key.plies,
            self.proven.lo,
            self.proven.hi,
            self.best_text().unwrap_or_default(),
            self.nodes,
            self.micros,
        );
        (fnv1a(text.as_bytes()) >> 1) as i64
    }

    fn best_text(&self) -> Option<String> {
        self.proven.best.map(|m| m.to_string())
    }
}

pub(super) fn write(conn: &rusqlite::Connection, row: &Row) -> rusqlite::Result<()> {
    let to_i64 = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    conn.prepare(
        "INSERT INTO bounds (cells, player, plies, lo, hi, best, nodes, micros, check_)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (cells, player, plies) DO UPDATE SET
             lo = excluded.lo, hi = excluded.hi, best = excluded.best,
             nodes = excluded.nodes, micros = excluded.micros, check_ = excluded.check_",
    )?
    .execute(params![
        row.key.cells,
        row.key.player.to_string(),
        row.key.plies,
        row.proven.lo,
        row.proven.hi,
        row.best_text(),
        to_i64(row.nodes),
        to_i64(row.micros),
        row.checksum(),
    ])?;
    Ok(())
}

/// Every row, each checked: its checksum, and that its fields can be a
/// position of this board.
pub(super) fn load(
    path: &Path,
    conn: &Connection,
    identity: &Identity,
) -> Result<HashMap<Key, (Proven, u64)>, StoreError> {
    let corrupt = |detail: String| StoreError::Corrupt {
        path: path.to_owned(),
        detail,
    };
    let mut stmt = conn
        .prepare("SELECT cells, player, plies, lo, hi, best, nodes, micros, check_ FROM bounds")
        .map_err(|e| sql_error(path, e))?;
    let mut rows = stmt.query([]).map_err(|e| sql_error(path, e))?;
    let mut known = HashMap::new();
    while let Some(r) = rows.next().map_err(|e| sql_error(path, e))? {
        let fields = || -> rusqlite::Result<_> {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, i64>(6)?,
                r.get::<_, i64>(7)?,
                r.get::<_, i64>(8)?,
            ))
        };
        let (cells, player, plies, lo, hi, best, nodes, micros, check) =
            fields().map_err(|e| corrupt(format!("a row has a field of the wrong type: {e}")))?;
        let bad = |what: &str| corrupt(format!("a row with {what} (position {cells})"));
        let n = identity.n;
        if cells.len() != n * n || !cells.bytes().all(|b| matches!(b, b'X' | b'O' | b'.')) {
            return Err(bad("cells that are not a position of this board"));
        }
        let player = match player.as_str() {
            "X" => 'X',
            "O" => 'O',
            _ => return Err(bad("no side to move")),
        };
        let empties = cells.bytes().filter(|&b| b == b'.').count() as i64;
        if !(1..=empties).contains(&plies) || lo > hi {
            return Err(bad("impossible plies or bounds"));
        }
        let best = match best {
            None => None,
            Some(text) => Some(
                text.parse::<Move>()
                    .map_err(|_| bad("an unreadable move"))?,
            ),
        };
        let (Ok(nodes), Ok(micros)) = (u64::try_from(nodes), u64::try_from(micros)) else {
            return Err(bad("a negative count"));
        };
        let row = Row {
            key: Key {
                cells,
                player,
                plies: plies as u32,
            },
            proven: Proven { lo, hi, best },
            nodes,
            micros,
        };
        if row.checksum() != check {
            return Err(corrupt(format!(
                "a row's checksum does not match its fields (position {})",
                row.key.cells
            )));
        }
        known.insert(row.key, (row.proven, row.nodes));
    }
    Ok(known)
}
