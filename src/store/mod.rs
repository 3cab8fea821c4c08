//! The solve store: bounds on positions' values that a search proved, kept
//! in a file that outlives the process, so that a killed solve resumes
//! where it stopped and several processes or machines add to one solve.
//!
//! A bound proven for a position holds forever for the same rules and cell
//! values: the value of a position searched `plies` deep is a property of
//! the position alone. So a store is tied to one board's cell values (and
//! the rules and the file format), checked when it is opened, and any
//! search of any position on that board may read and add to it.
//!
//! Why SQLite: every write is a transaction, so a process killed at any
//! moment leaves the file as it was after its last completed write (the
//! write-ahead log is replayed or dropped on the next open); the file can
//! be read by other tools (`sqlite3`, Python's `sqlite3`) while a solve
//! runs; and SQLite checks its own structure. It cannot see a flipped bit
//! inside a number, which would silently change an answer, so each row
//! also carries a checksum of its fields, checked as the rows are loaded.
//!
//! The stored positions are few (the top of a deep search: see the callers
//! for which ones), so the whole store is read into memory when it is
//! opened and looked up there; writes go to the file at once.

mod file;
mod integrity;
mod table_file;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use rusqlite::{Connection, OpenFlags};

use crate::game::{Board, Move, Player, Square};

pub use file::FORMAT_VERSION;
pub(crate) use table_file::Entry;

/// What is known of one position's value for the side to move, searched a
/// given number of plies deep: `lo <= value <= hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// The value is at least this.
    pub lo: i64,
    /// The value is at most this.
    pub hi: i64,
    /// The move that reached `lo`, when the search that proved it says.
    pub best: Option<Move>,
}

impl Proven {
    /// What a fail-soft search of the window `(alpha, beta)` that returned
    /// `v` proves: an upper bound at or below alpha, a lower bound at or
    /// above beta, the value itself in between. `edge` bounds every value
    /// (the sum of the cell values) and stands for the unknown side.
    pub fn from_search(v: i64, alpha: i64, beta: i64, edge: i64, best: Option<Move>) -> Proven {
        let (lo, hi) = if v <= alpha {
            (-edge, v)
        } else if v >= beta {
            (v, edge)
        } else {
            (v, v)
        };
        Proven {
            lo,
            hi,
            best: best.filter(|_| v > alpha),
        }
    }

    /// Whether `lo == hi`.
    pub fn is_exact(&self) -> bool {
        self.lo == self.hi
    }

    /// The value a fail-soft search of `(alpha, beta)` may return without
    /// searching, if these bounds settle it: a lower bound at or above
    /// beta, an upper bound at or below alpha, or the exact value.
    pub fn settles(&self, alpha: i64, beta: i64) -> Option<i64> {
        if self.lo >= beta || self.lo == self.hi {
            Some(self.lo)
        } else if self.hi <= alpha {
            Some(self.hi)
        } else {
            None
        }
    }

    /// Both sets of bounds at once, or `None` if they contradict each
    /// other (which only a wrong search or a damaged file can cause).
    fn merge(self, other: Proven) -> Option<Proven> {
        let lo = self.lo.max(other.lo);
        let hi = self.hi.min(other.hi);
        let best = if other.lo >= self.lo {
            other.best.or(self.best)
        } else {
            self.best.or(other.best)
        };
        (lo <= hi).then_some(Proven { lo, hi, best })
    }
}

/// Why a store cannot be used. Each names the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The file could not be read, created or written.
    #[error("store {path}: {message}")]
    Io {
        /// The store's path.
        path: PathBuf,
        /// The kind of failure, to act on (`StorageFull`, `PermissionDenied`,
        /// `NotFound`, ...; `Other` where the database names none).
        kind: std::io::ErrorKind,
        /// What failed, in words.
        message: String,
    },
    /// The file is not a stakeraid store (another kind of file, or one
    /// cut short before its header ends).
    #[error("store {path}: not a stakeraid solve store ({why}); refused, left as it is")]
    NotAStore {
        /// The store's path.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A store written in another format version.
    #[error("store {path}: format version {found}, this program reads version {FORMAT_VERSION}; refused, left as it is")]
    Version {
        /// The store's path.
        path: PathBuf,
        /// The version the file says.
        found: i64,
    },
    /// A store made for other rules, another board size or other cell
    /// values: its bounds say nothing about this board.
    #[error("store {path}: made for {what}; refused, left as it is (use another file)")]
    Foreign {
        /// The store's path.
        path: PathBuf,
        /// What differs, e.g. "other cell values (row 2)".
        what: String,
    },
    /// The file is damaged: a structure SQLite cannot read, or a row whose
    /// checksum or contents are wrong.
    #[error("store {path}: damaged ({detail}); refused, left as it is")]
    Corrupt {
        /// The store's path.
        path: PathBuf,
        /// What was found.
        detail: String,
    },
    /// A new bound contradicts a stored one: the file was changed by
    /// something else, or a search is wrong. Nothing is written.
    #[error("store {path}: a new bound [{new_lo}, {new_hi}] contradicts the stored [{lo}, {hi}] for position {cells} ({player} to move, {plies} plies)")]
    Contradiction {
        /// The store's path.
        path: PathBuf,
        /// The position, row-major.
        cells: String,
        /// The side to move.
        player: char,
        /// Plies searched.
        plies: u32,
        /// The stored bounds.
        lo: i64,
        /// The stored bounds.
        hi: i64,
        /// The new bounds.
        new_lo: i64,
        /// The new bounds.
        new_hi: i64,
    },
}

/// A position as the store keys it: the cells row-major as `X`, `O` and
/// `.`, the side to move and the plies searched. Text rather than the
/// engines' packed bits, so the file does not depend on how an engine lays
/// out a board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    cells: String,
    player: char,
    plies: u32,
}

impl Key {
    /// The key of a position given as its cells, row-major (`X`, `O`,
    /// `.`), with `p` to move.
    pub(crate) fn from_cells(cells: String, p: Player, plies: u32) -> Key {
        Key {
            cells,
            player: p.symbol(),
            plies,
        }
    }

    fn new(board: &Board, p: Player, plies: u32) -> Key {
        let n = board.n();
        let mut cells = String::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                cells.push(match board.square(r, c) {
                    Square::Empty => '.',
                    Square::Piece(q) => q.symbol(),
                });
            }
        }
        Key {
            cells,
            player: p.symbol(),
            plies,
        }
    }
}

/// One stored position's bounds as they travel between processes: what a
/// job's search proved, sent to the driver with its result and on to the
/// other processes of a cluster with their next jobs (see
/// `jobs::Settings::share`). The store's row, in words.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Proof {
    /// The cells row-major, `X`, `O` and `.`.
    pub cells: String,
    /// The side to move, `X` or `O`.
    pub player: char,
    /// Plies searched.
    pub plies: u32,
    /// The value is at least this.
    pub lo: i64,
    /// The value is at most this.
    pub hi: i64,
    /// The move that reached `lo`, as `"C3 Raid"`, if the proof says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// Nodes the proof took.
    pub nodes: u64,
}

/// How a search uses a store: which of its positions it looks up and
/// writes. Only the top of a deep search is worth keeping.
#[derive(Clone, Debug)]
pub struct StoreUse {
    /// The store.
    pub store: Arc<Store>,
    /// Positions with fewer plies left are neither looked up nor written:
    /// there are too many of them, each too cheap.
    pub min_plies: u32,
    /// A position is written once its proof took this many nodes, so the
    /// store grows by a few positions per second of search at most.
    pub min_nodes: u64,
    /// The search's table is saved beside the store (see `table_file.rs`)
    /// at the end and at most this often meanwhile; less often when a save
    /// takes long, so that saving costs at most a fiftieth of the time.
    pub table_every: Duration,
}

impl StoreUse {
    /// Positions of at least 12 plies whose proof took at least 2^24
    /// nodes (about half a second on one thread): a 25-ply solve of a 5x5
    /// board keeps a few tens of thousands.
    pub fn new(store: Arc<Store>) -> StoreUse {
        StoreUse {
            store,
            min_plies: 12,
            min_nodes: 1 << 24,
            table_every: Duration::from_secs(10),
        }
    }
}

/// Counts of what a store holds and what it did in this process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreStats {
    /// Positions in the store now.
    pub positions: u64,
    /// Of those, the ones whose value is exact.
    pub exact: u64,
    /// Positions read from the file when it was opened.
    pub loaded: u64,
    /// Searches answered from the store without searching.
    pub hits: u64,
    /// The nodes those answers had cost when they were first proved.
    pub hit_nodes: u64,
    /// Bounds written in this process.
    pub written: u64,
    /// Table entries read from the table file beside the store.
    pub table_loaded: u64,
    /// Table entries in the table file as this process last wrote it.
    pub table_saved: u64,
}

/// See [`Store::table_from`]. `None` once the search is gone.
type TableSource = Box<dyn Fn() -> Option<Vec<Entry>> + Send + Sync>;

/// An open solve store (see the module docs). Shared by every thread of a
/// search: look-ups take a lock on the in-memory copy, writes one on the
/// connection.
pub struct Store {
    path: PathBuf,
    identity: file::Identity,
    /// The table file beside the store; none for a store in memory.
    table_path: Option<PathBuf>,
    /// The table file's entries until a search takes them.
    table: Mutex<Vec<Entry>>,
    /// The entries worth saving of the table of the search running now,
    /// set by that search: what [`Store::save_table_now`] writes when the
    /// program is told to end before the search's next save.
    table_source: Mutex<Option<TableSource>>,
    table_loaded: u64,
    table_saved: AtomicU64,
    conn: Mutex<Connection>,
    known: Mutex<HashMap<Key, (Proven, u64)>>,
    /// The positions whose bounds changed by a write, in the order they
    /// did (again where they narrowed again): what [`Store::proofs_since`]
    /// hands on. Learned bounds are not in it, so none is sent back.
    changed: Mutex<Vec<Key>>,
    loaded: u64,
    hits: AtomicU64,
    hit_nodes: AtomicU64,
    written: AtomicU64,
    /// The first write that failed: a search cannot stop to report it, so
    /// it is kept for the caller, and later writes are skipped.
    failure: Mutex<Option<StoreError>>,
    /// Set by [`Store::seal`] under the connection's lock: no write after.
    sealed: AtomicBool,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path)
            .field("stats", &self.stats())
            .finish()
    }
}

impl Store {
    /// Opens the store at `path` for `board`'s cell values, creating it if
    /// there is no file there. A file that is not a store of this format
    /// and these cell values, or that is damaged, is refused and left as
    /// it is.
    pub fn open(path: &Path, board: &Board) -> Result<Store, StoreError> {
        let identity = file::Identity::of(board);
        if !path.exists() {
            file::create(path, &identity)?;
        }
        file::check_header(path)?;
        let sql = |e: rusqlite::Error| file::sql_error(path, e);
        // Read and write, never create: the file was just checked.
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(sql)?;
        file::configure(&conn).map_err(sql)?;
        file::check_structure(path, &conn)?;
        file::check_identity(path, &conn, &identity)?;
        let known = file::load(path, &conn, &identity)?;
        let table_path = table_file::path_of(path);
        let table = table_file::read(&table_path, &identity)?;
        let mut store = Store::with(path.to_owned(), identity, conn, known);
        store.table_loaded = table.len() as u64;
        store.table = Mutex::new(table);
        store.table_path = Some(table_path);
        Ok(store)
    }

    /// A store that lives in memory only, for a solve that keeps nothing.
    pub fn in_memory(board: &Board) -> Store {
        let identity = file::Identity::of(board);
        let conn = Connection::open_in_memory()
            .and_then(|conn| file::init(&conn, &identity).map(|()| conn))
            .expect("an in-memory database needs no file");
        Store::with(PathBuf::from(":memory:"), identity, conn, HashMap::new())
    }

    fn with(
        path: PathBuf,
        identity: file::Identity,
        conn: Connection,
        known: HashMap<Key, (Proven, u64)>,
    ) -> Store {
        Store {
            path,
            identity,
            table_path: None,
            table: Mutex::new(Vec::new()),
            table_source: Mutex::new(None),
            table_loaded: 0,
            table_saved: AtomicU64::new(0),
            conn: Mutex::new(conn),
            loaded: known.len() as u64,
            known: Mutex::new(known),
            changed: Mutex::new(Vec::new()),
            hits: AtomicU64::new(0),
            hit_nodes: AtomicU64::new(0),
            written: AtomicU64::new(0),
            failure: Mutex::new(None),
            sealed: AtomicBool::new(false),
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the store knows of `board`'s value for `p` searched `plies`
    /// deep.
    pub fn get(&self, board: &Board, p: Player, plies: u32) -> Option<Proven> {
        let key = Key::new(board, p, plies);
        self.known.lock().get(&key).map(|&(proven, _)| proven)
    }

    /// Looks `board` up for a fail-soft search of `(alpha, beta)`: the
    /// value to return if the stored bounds settle it. Counts the hit.
    pub fn settle(
        &self,
        board: &Board,
        p: Player,
        plies: u32,
        alpha: i64,
        beta: i64,
    ) -> Option<i64> {
        self.settle_key(&Key::new(board, p, plies), alpha, beta)
            .ok()
    }

    /// Counts a search made needless by bounds [`Store::get`] gave.
    pub(crate) fn note_answer(&self) {
        self.hits.fetch_add(1, Relaxed);
    }

    /// [`Store::settle`] by key; where the store does not settle the
    /// window, the best move stored for the position, if any.
    pub(crate) fn settle_key(&self, key: &Key, alpha: i64, beta: i64) -> Result<i64, Option<Move>> {
        let Some(&(proven, nodes)) = self.known.lock().get(key) else {
            return Err(None);
        };
        let v = proven.settles(alpha, beta).ok_or(proven.best)?;
        self.hits.fetch_add(1, Relaxed);
        self.hit_nodes.fetch_add(nodes, Relaxed);
        Ok(v)
    }

    /// Adds what a search proved of `board` (`p` to move, `plies` deep),
    /// which took `nodes` nodes and `micros` microseconds, and writes it
    /// to the file before returning. A failure is kept for
    /// [`Store::failure`] rather than returned: searches cannot stop to
    /// handle it.
    pub fn record(
        &self,
        board: &Board,
        p: Player,
        plies: u32,
        proven: Proven,
        nodes: u64,
        micros: u64,
    ) {
        self.record_key(Key::new(board, p, plies), proven, nodes, micros);
    }

    /// [`Store::record`] by key.
    pub(crate) fn record_key(&self, key: Key, proven: Proven, nodes: u64, micros: u64) {
        if self.failure.lock().is_some() {
            return;
        }
        let row = {
            let mut known = self.known.lock();
            let (old, old_nodes) = known.get(&key).copied().unwrap_or((
                Proven {
                    lo: i64::MIN,
                    hi: i64::MAX,
                    best: None,
                },
                0,
            ));
            let Some(merged) = old.merge(proven) else {
                *self.failure.lock() = Some(StoreError::Contradiction {
                    path: self.path.clone(),
                    cells: key.cells.clone(),
                    player: key.player,
                    plies: key.plies,
                    lo: old.lo,
                    hi: old.hi,
                    new_lo: proven.lo,
                    new_hi: proven.hi,
                });
                return;
            };
            if merged == old {
                return;
            }
            let nodes = old_nodes.max(nodes);
            known.insert(key.clone(), (merged, nodes));
            self.changed.lock().push(key.clone());
            file::Row {
                key,
                proven: merged,
                nodes,
                micros,
            }
        };
        let written = {
            let conn = self.conn.lock();
            if self.sealed.load(Relaxed) {
                return;
            }
            file::write(&conn, &row)
        };
        match written {
            Ok(()) => {
                self.written.fetch_add(1, Relaxed);
            }
            Err(e) => {
                self.failure
                    .lock()
                    .get_or_insert(file::sql_error(&self.path, e));
            }
        }
    }

    /// How many times a write has changed a position's bounds: where
    /// [`Store::proofs_since`] starts for what is written after now.
    pub fn changes(&self) -> usize {
        self.changed.lock().len()
    }

    /// The bounds written since the `from`-th change (see `changed`),
    /// as they stand now, and the count of changes to ask from next time.
    pub fn proofs_since(&self, from: usize) -> (Vec<Proof>, usize) {
        // The keys and the count to go on from are read under one lock: a
        // write in between would otherwise be skipped for good.
        let (keys, next) = {
            let changed = self.changed.lock();
            let keys = changed.get(from..).unwrap_or_default().to_vec();
            (keys, from.max(changed.len()))
        };
        let known = self.known.lock();
        let mut seen = std::collections::HashSet::new();
        let proofs = keys
            .iter()
            .rev()
            .filter(|key| seen.insert(*key))
            .filter_map(|key| {
                let &(proven, nodes) = known.get(key)?;
                Some(Proof {
                    cells: key.cells.clone(),
                    player: key.player,
                    plies: key.plies,
                    lo: proven.lo,
                    hi: proven.hi,
                    best: proven.best.map(|mv| mv.to_string()),
                    nodes,
                })
            })
            .collect();
        (proofs, next)
    }

    /// The key and bounds of `proof` if it names a position of this
    /// store's board (its size, symbols and values' range); else `None`.
    fn checked(&self, proof: &Proof) -> Option<(Key, Proven)> {
        let cells_ok = proof.cells.chars().count() == self.identity.cells()
            && proof.cells.chars().all(|c| matches!(c, 'X' | 'O' | '.'));
        let empty = proof.cells.chars().filter(|&c| c == '.').count();
        let plies_ok = (1..=empty).contains(&(proof.plies as usize));
        let edge = self.identity.total();
        let bounds_ok = -edge <= proof.lo && proof.lo <= proof.hi && proof.hi <= edge;
        let player = Player::from_name(proof.player.encode_utf8(&mut [0; 4]))?;
        (cells_ok && plies_ok && bounds_ok).then(|| {
            let best = proof.best.as_deref().and_then(|text| text.parse().ok());
            let key = Key::from_cells(proof.cells.clone(), player, proof.plies);
            let proven = Proven {
                lo: proof.lo,
                hi: proof.hi,
                best,
            };
            (key, proven)
        })
    }

    /// Writes `proof`, proved elsewhere, as [`Store::record`] writes a
    /// bound proved here (and hands it on); `false` if it names no position
    /// of this board.
    pub fn record_proof(&self, proof: &Proof) -> bool {
        let Some((key, proven)) = self.checked(proof) else {
            return false;
        };
        self.record_key(key, proven, proof.nodes, 0);
        true
    }

    /// Takes `proof` into memory only, neither written to the file nor
    /// handed on: a process told what others proved. Bounds that contradict
    /// the known ones are dropped, as are proofs of other boards (`false`).
    pub fn learn(&self, proof: &Proof) -> bool {
        let Some((key, proven)) = self.checked(proof) else {
            return false;
        };
        let mut known = self.known.lock();
        let old = known.get(&key).copied();
        let merged = match old {
            Some((old, _)) => old.merge(proven),
            None => Some(proven),
        };
        if let Some(merged) = merged {
            let nodes = old.map_or(0, |(_, n)| n).max(proof.nodes);
            known.insert(key, (merged, nodes));
        }
        merged.is_some()
    }

    /// The table entries saved beside the store by the last solve that
    /// saved any, handed out once: the search that restores them into its
    /// table has them from then on.
    pub(crate) fn take_table(&self) -> Vec<Entry> {
        std::mem::take(&mut *self.table.lock())
    }

    /// Whether the store keeps a table file (a store in memory does not).
    pub(crate) fn keeps_table(&self) -> bool {
        self.table_path.is_some()
    }

    /// Replaces the table file beside the store with `entries`. A failure
    /// is kept as a failed write is, and nothing is written after it.
    pub(crate) fn save_table(&self, entries: &[Entry]) {
        let Some(path) = &self.table_path else {
            return;
        };
        if self.failure.lock().is_some() {
            return;
        }
        match table_file::write(path, &self.identity, entries) {
            Ok(()) => self.table_saved.store(entries.len() as u64, Relaxed),
            Err(e) => {
                self.failure.lock().get_or_insert(e);
            }
        }
    }

    /// Makes `source` the table that [`Store::save_table_now`] saves: the
    /// entries worth keeping of the running search's table, `None` once
    /// that search is gone.
    pub(crate) fn table_from(
        &self,
        source: impl Fn() -> Option<Vec<Entry>> + Send + Sync + 'static,
    ) {
        *self.table_source.lock() = Some(Box::new(source));
    }

    /// Saves the running search's table beside the store now, rather than
    /// at its next save, for a program about to end (on a signal): a
    /// search stopped early has not saved it yet, and its resume would
    /// otherwise start from an empty table. Takes as long as one of the
    /// search's own saves (a pass over the table and a write of at most
    /// its million deepest entries). Returns the entries saved; 0 where
    /// no search of this store runs, or the store keeps no table file.
    pub fn save_table_now(&self) -> u64 {
        if !self.keeps_table() {
            return 0;
        }
        let entries = match &*self.table_source.lock() {
            Some(source) => source(),
            None => None,
        };
        match entries {
            Some(entries) => {
                self.save_table(&entries);
                if self.failure.lock().is_some() {
                    0
                } else {
                    entries.len() as u64
                }
            }
            None => 0,
        }
    }

    /// The first write that failed, if any: the store holds everything
    /// written before it, and nothing was written after it.
    pub fn failure(&self) -> Option<StoreError> {
        self.failure.lock().clone()
    }

    /// What the store holds and what it did in this process.
    pub fn stats(&self) -> StoreStats {
        let known = self.known.lock();
        StoreStats {
            positions: known.len() as u64,
            exact: known.values().filter(|(p, _)| p.is_exact()).count() as u64,
            loaded: self.loaded,
            hits: self.hits.load(Relaxed),
            hit_nodes: self.hit_nodes.load(Relaxed),
            written: self.written.load(Relaxed),
            table_loaded: self.table_loaded,
            table_saved: self.table_saved.load(Relaxed),
        }
    }

    /// Folds the write-ahead log into the file, leaves no log beside it,
    /// and takes no write after: for a program about to end (on a signal,
    /// its search threads may still hold the store). What was written
    /// before stays; a later write is dropped as if the program had ended
    /// first. Returns how many positions the file holds.
    pub fn seal(&self) -> Result<u64, StoreError> {
        let conn = self.conn.lock();
        self.sealed.store(true, Relaxed);
        // Leaving WAL mode folds the log in and deletes it and its index;
        // the next open goes back to WAL (`file::init`).
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .and_then(|()| conn.query_row("PRAGMA journal_mode = DELETE", [], |_| Ok(())))
            .and_then(|()| conn.query_row("SELECT count(*) FROM bounds", [], |row| row.get(0)))
            .map(|count: i64| count.unsigned_abs())
            .map_err(|e| file::sql_error(&self.path, e))
    }

    /// Seals the store ([`Store::seal`]) and closes it, so the store is one
    /// self-contained file (to copy or commit). Dropping a store without
    /// closing it loses nothing: the next open replays the log.
    pub fn close(self) -> Result<(), StoreError> {
        self.seal()?;
        let conn = self.conn.into_inner();
        conn.close()
            .map_err(|(_, e)| file::sql_error(&self.path, e))
    }
}

#[cfg(test)]
mod tests;
