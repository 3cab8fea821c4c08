use std::path::{Path, PathBuf};

use super::{Proven, Store, StoreError};
use crate::game::random::Rng;
use crate::game::{Board, Move, MoveKind, Player};

fn board(n: usize, seed: u64) -> Board {
    let mut rng = Rng::new(seed);
    let values: Vec<i32> = (0..n * n).map(|_| rng.range(0, 100) as i32).collect();
    Board::new(n, &values)
}

fn temp_path(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

/// A store with a few positions of `b` in it, closed.
fn filled(path: &Path, b: &Board, count: usize) -> Vec<(Board, Proven)> {
    let store = Store::open(path, b).unwrap();
    let mut rng = Rng::new(7);
    let mut kept = Vec::new();
    let mut pos = b.clone();
    for i in 0..count {
        let (r, c) = (i / b.n() % b.n(), i % b.n());
        if pos.is_full() {
            break;
        }
        if pos.square(r, c) == crate::game::Square::Empty {
            pos.make(Move::new(r, c, MoveKind::Stake), Player::X);
        }
        let lo = rng.range(0, 50) as i64 - 25;
        let proven = Proven {
            lo,
            hi: lo + rng.range(0, 3) as i64,
            best: Some(Move::new(0, 0, MoveKind::Raid)),
        };
        let plies = pos.empty_count().max(1);
        if pos.is_full() {
            break;
        }
        store.record(&pos, Player::O, plies, proven, 1000 + i as u64, 5);
        kept.push((pos.clone(), proven));
    }
    assert_eq!(store.failure(), None);
    store.close().unwrap();
    kept
}

#[test]
fn bounds_come_back_after_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_path(&dir, "s.db");
    let b = board(4, 1);
    let kept = filled(&path, &b, 10);
    assert!(!kept.is_empty());
    let store = Store::open(&path, &b).unwrap();
    assert_eq!(store.stats().loaded, kept.len() as u64);
    for (pos, proven) in &kept {
        assert_eq!(store.get(pos, Player::O, pos.empty_count()), Some(*proven));
        assert_eq!(store.get(pos, Player::X, pos.empty_count()), None);
    }
}

#[test]
fn bounds_narrow_and_a_contradiction_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_path(&dir, "s.db");
    let b = board(3, 2);
    let store = Store::open(&path, &b).unwrap();
    let edge = b.total();
    store.record(
        &b,
        Player::X,
        9,
        Proven::from_search(4, 3, 4, edge, None),
        10,
        1,
    );
    store.record(
        &b,
        Player::X,
        9,
        Proven::from_search(6, 6, 7, edge, None),
        10,
        1,
    );
    assert_eq!(
        store.get(&b, Player::X, 9).map(|p| (p.lo, p.hi)),
        Some((4, 6))
    );
    assert_eq!(store.settle(&b, Player::X, 9, 6, 7), Some(6));
    assert_eq!(store.settle(&b, Player::X, 9, 4, 5), None);
    assert_eq!(store.settle(&b, Player::X, 9, 3, 4), Some(4));
    assert_eq!(store.failure(), None);
    store.record(
        &b,
        Player::X,
        9,
        Proven::from_search(2, 2, 3, edge, None),
        10,
        1,
    );
    assert!(matches!(
        store.failure(),
        Some(StoreError::Contradiction { .. })
    ));
    drop(store);
    let store = Store::open(&path, &b).unwrap();
    assert_eq!(
        store.get(&b, Player::X, 9).map(|p| (p.lo, p.hi)),
        Some((4, 6))
    );
}

#[test]
fn what_a_fail_soft_result_proves() {
    let edge = 100;
    let up = Proven::from_search(3, 5, 6, edge, None);
    assert_eq!((up.lo, up.hi), (-100, 3));
    let down = Proven::from_search(9, 5, 6, edge, None);
    assert_eq!((down.lo, down.hi), (9, 100));
    let exact = Proven::from_search(7, 5, 9, edge, None);
    assert_eq!((exact.lo, exact.hi), (7, 7));
    assert_eq!(exact.settles(-100, 100), Some(7));
    assert_eq!(up.settles(3, 4), Some(3));
    assert_eq!(up.settles(2, 3), None);
    assert_eq!(down.settles(8, 9), Some(9));
}

/// Refused stores are named, and their bytes are left as they were.
fn assert_refused(path: &Path, b: &Board, check: impl Fn(&StoreError) -> bool) {
    let before = std::fs::read(path).unwrap();
    let err = Store::open(path, b).expect_err("the store should be refused");
    assert!(check(&err), "unexpected error: {err}");
    assert!(err.to_string().contains(&path.display().to_string()));
    assert_eq!(std::fs::read(path).unwrap(), before, "{err}");
}

#[test]
fn a_store_of_other_values_or_size_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_path(&dir, "s.db");
    filled(&path, &board(4, 1), 5);
    assert_refused(
        &path,
        &board(4, 2),
        |e| matches!(e, StoreError::Foreign { what, .. } if what.contains("cell values")),
    );
    assert_refused(
        &path,
        &board(5, 1),
        |e| matches!(e, StoreError::Foreign { what, .. } if what.contains("4x4")),
    );
}

#[test]
fn other_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let b = board(3, 1);
    let text = temp_path(&dir, "input.txt");
    std::fs::write(&text, "3\nMINIMAX\nX\n2\n".repeat(20)).unwrap();
    assert_refused(&text, &b, |e| matches!(e, StoreError::NotAStore { .. }));
    let empty = temp_path(&dir, "empty.db");
    std::fs::write(&empty, "").unwrap();
    assert_refused(&empty, &b, |e| matches!(e, StoreError::NotAStore { .. }));
    let other = temp_path(&dir, "other.db");
    let conn = rusqlite::Connection::open(&other).unwrap();
    conn.execute_batch("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);")
        .unwrap();
    drop(conn);
    assert_refused(&other, &b, |e| matches!(e, StoreError::NotAStore { .. }));
}

#[test]
fn another_format_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_path(&dir, "s.db");
    let b = board(3, 1);
    filled(&path, &b, 3);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    conn.close().unwrap();
    assert_refused(&path, &b, |e| {
        matches!(e, StoreError::Version { found: 99, .. })
    });
}

#[test]
fn an_edited_row_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_path(&dir, "s.db");
    let b = board(4, 3);
    filled(&path, &b, 8);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute(
        "UPDATE bounds SET lo = lo - 1 WHERE cells = (SELECT MIN(cells) FROM bounds)",
        [],
    )
    .unwrap();
    conn.close().unwrap();
    assert_refused(
        &path,
        &b,
        |e| matches!(e, StoreError::Corrupt { detail, .. } if detail.contains("checksum")),
    );
}

/// Cut short anywhere, or with any byte changed, a store is either refused
/// with a clear error or read with exactly its bounds: never read wrong.
#[test]
fn damage_is_refused_never_read_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_path(&dir, "s.db");
    let b = board(5, 4);
    let kept = filled(&path, &b, 20);
    let good = std::fs::read(&path).unwrap();
    let mut rng = Rng::new(11);
    let mut refused = 0;
    for round in 0..120 {
        let mut bytes = good.clone();
        if round % 3 == 0 {
            bytes.truncate(rng.range(0, good.len() as u64 - 1) as usize);
        } else {
            let at = rng.range(0, good.len() as u64 - 1) as usize;
            bytes[at] ^= 1 << rng.range(0, 7);
        }
        let damaged = temp_path(&dir, &format!("d{round}.db"));
        std::fs::write(&damaged, &bytes).unwrap();
        match Store::open(&damaged, &b) {
            Err(e) => {
                refused += 1;
                assert!(e.to_string().contains("refused"), "{e}");
                assert_eq!(std::fs::read(&damaged).unwrap(), bytes, "{e}");
            }
            Ok(store) => {
                assert_eq!(store.stats().loaded, kept.len() as u64, "round {round}");
                for (pos, proven) in &kept {
                    assert_eq!(store.get(pos, Player::O, pos.empty_count()), Some(*proven));
                }
            }
        }
    }
    assert!(refused > 40, "only {refused} of 120 damaged stores refused");
}

/// A store and its table file, with `entries` saved in it.
fn with_table(path: &Path, b: &Board, entries: &[super::Entry]) -> PathBuf {
    let store = Store::open(path, b).unwrap();
    store.save_table(entries);
    assert_eq!(store.failure(), None);
    assert_eq!(store.stats().table_saved, entries.len() as u64);
    super::table_file::path_of(path)
}

#[test]
fn the_table_file_comes_back_whole_and_is_handed_out_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_path(&dir, "s.db");
    let b = board(4, 1);
    let entries: Vec<super::Entry> = (0..1000u64).map(|i| [i, i << 20, i * 7 + 1]).collect();
    let table = with_table(&path, &b, &entries);
    assert!(table.exists());
    let store = Store::open(&path, &b).unwrap();
    assert_eq!(store.stats().table_loaded, 1000);
    assert_eq!(store.take_table(), entries);
    assert!(store.take_table().is_empty());
    // A store in memory has no table file to save to.
    let memory = Store::in_memory(&b);
    assert!(!memory.keeps_table());
}

#[test]
fn a_damaged_or_foreign_table_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let b = board(4, 1);
    let entries: Vec<super::Entry> = (0..50u64).map(|i| [i, i + 1, i + 2]).collect();
    let path = temp_path(&dir, "s.db");
    let table = with_table(&path, &b, &entries);
    let whole = std::fs::read(&table).unwrap();
    let cut = whole[..whole.len() - 9].to_vec();
    let mut flipped = whole.clone();
    flipped[whole.len() / 2] ^= 4;
    let mut longer = whole.clone();
    longer.push(0);
    let damaged: [(&[u8], &str); 4] = [
        (&cut, "cut short"),
        (&flipped, "checksum"),
        (&longer, "after its end"),
        (&whole[..5], ""),
    ];
    for (bytes, says) in damaged {
        std::fs::write(&table, bytes).unwrap();
        assert_refused(&path, &b, |e| match e {
            StoreError::Corrupt { detail, path } => detail.contains(says) && *path == table,
            StoreError::NotAStore { path, .. } => says.is_empty() && *path == table,
            _ => false,
        });
        assert_eq!(std::fs::read(&table).unwrap(), bytes);
    }
    // A table file beside the store of another board's values.
    let other = board(4, 2);
    let other_path = temp_path(&dir, "o.db");
    Store::open(&other_path, &other).unwrap().close().unwrap();
    let other_table = super::table_file::path_of(&other_path);
    std::fs::write(&other_table, &whole).unwrap();
    assert_refused(
        &other_path,
        &other,
        |e| matches!(e, StoreError::Foreign { what, .. } if what.contains("cell values")),
    );
    assert_eq!(std::fs::read(&other_table).unwrap(), whole);
}

/// A store that cannot be made says which kind of failure it was, for a
/// caller to act on.
#[test]
fn a_store_that_cannot_be_made_names_the_kind() {
    let dir = tempfile::tempdir().unwrap();
    let board = crate::game::Board::new(2, &[1, 2, 3, 4]);
    let path = dir.path().join("no such folder").join("s.db");
    match Store::open(&path, &board) {
        Err(StoreError::Io { kind, path: p, .. }) => {
            assert_eq!((kind, p), (std::io::ErrorKind::NotFound, path));
        }
        other => panic!("{other:?}"),
    }
}

/// Bounds pass from one store to another as proofs: a write is handed on
/// once, as it stands; a learned one is known but not handed on again (nor
/// written); a proof of another board, or with its bounds out of range, is
/// refused; one that contradicts the known bounds is dropped.
#[test]
fn proofs_pass_between_stores_once() {
    let b = board(3, 4);
    let (here, there) = (Store::in_memory(&b), Store::in_memory(&b));
    let mut pos = b.clone();
    pos.make(Move::new(1, 1, MoveKind::Stake), Player::X);
    let best = Some(Move::new(0, 2, MoveKind::Stake));
    here.record(
        &pos,
        Player::O,
        8,
        Proven {
            lo: -5,
            hi: 40,
            best,
        },
        9,
        1,
    );
    here.record(
        &pos,
        Player::O,
        8,
        Proven {
            lo: 3,
            hi: 40,
            best,
        },
        9,
        1,
    );
    let (proofs, next) = here.proofs_since(0);
    assert_eq!(proofs.len(), 1, "{proofs:?}");
    assert_eq!((proofs[0].lo, proofs[0].hi, proofs[0].plies), (3, 40, 8));
    assert_eq!(proofs[0].best.as_deref(), Some("C1 Stake"));
    assert_eq!(here.proofs_since(next).0, vec![]);

    assert!(there.learn(&proofs[0]));
    assert_eq!(
        there.get(&pos, Player::O, 8),
        Some(Proven {
            lo: 3,
            hi: 40,
            best
        })
    );
    assert_eq!(
        there.proofs_since(0).0,
        vec![],
        "a learned bound is not handed on"
    );
    assert_eq!(there.stats().written, 0);

    let mut wrong = proofs[0].clone();
    wrong.cells.push('.');
    assert!(!there.learn(&wrong) && !there.record_proof(&wrong));
    let mut wrong = proofs[0].clone();
    wrong.hi = b.total() + 1;
    assert!(!there.learn(&wrong));
    let mut wrong = proofs[0].clone();
    wrong.plies = 9;
    assert!(!there.learn(&wrong), "more plies than empty cells");
    let mut contradicting = proofs[0].clone();
    (contradicting.lo, contradicting.hi) = (-9, -9);
    assert!(!there.learn(&contradicting));
    assert_eq!(
        there.get(&pos, Player::O, 8).map(|p| (p.lo, p.hi)),
        Some((3, 40))
    );
    assert!(there.record_proof(&proofs[0]));
}
