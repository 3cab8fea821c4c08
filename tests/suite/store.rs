//! The solve store through the library: a direct solve that reads and adds
//! to a store answers what it answers without one, and a second solve on
//! the same store answers from it.

use std::sync::Arc;

use stakeraid::api::{analyse, Limits, Position, SearchMode};
use stakeraid::rng::{random_board, Rng};
use stakeraid::store::{Store, StoreUse};
use stakeraid::Player;

use crate::util::{assert_ok, run};

/// A random 5x5 position with `empties` empty cells.
fn position(seed: u64, empties: u32) -> Position {
    let mut rng = Rng::new(seed);
    loop {
        let board = random_board(&mut rng, 5, 99, 1.0 - f64::from(empties) / 25.0);
        if board.empty_count() == empties {
            let p = if seed.is_multiple_of(2) {
                Player::X
            } else {
                Player::O
            };
            return Position::new(board, p).unwrap();
        }
    }
}

#[test]
fn a_store_changes_no_answer_and_answers_the_second_solve() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..6u64 {
        let empties = 12 + (seed % 4) as u32;
        let position = position(300 + seed, empties);
        let threads = 1 + (seed % 2) as usize;
        let plain = analyse(
            &position,
            &Limits {
                threads,
                ..Limits::to_depth(SearchMode::AlphaBeta, empties)
            },
        )
        .unwrap();
        let path = dir.path().join(format!("s{seed}.db"));
        let with_store = |store: &Arc<Store>| Limits {
            threads,
            store: Some(StoreUse {
                store: store.clone(),
                min_plies: 8,
                min_nodes: 200,
            }),
            ..Limits::to_depth(SearchMode::AlphaBeta, empties)
        };
        let store = Arc::new(Store::open(&path, position.board()).unwrap());
        let first = analyse(&position, &with_store(&store)).unwrap();
        assert_eq!(store.failure(), None);
        let written = store.stats().written;
        assert!(written > 0, "seed {seed}: nothing stored");
        drop(store);
        let store = Arc::new(Store::open(&path, position.board()).unwrap());
        let second = analyse(&position, &with_store(&store)).unwrap();
        let stats = store.stats();
        for (name, a) in [("first", &first), ("second", &second)] {
            assert_eq!(
                (a.best, a.value),
                (plain.best, plain.value),
                "seed {seed}, {name} solve"
            );
        }
        assert!(stats.hits > 0, "seed {seed}: the second solve used nothing");
        assert!(
            second.nodes < first.nodes,
            "seed {seed}: {} nodes again after {}",
            second.nodes,
            first.nodes
        );
    }
}

/// A solve killed by SIGKILL at random moments, and started again each
/// time with the same command, finishes with the answer of a solve that
/// was never killed; a killed run leaves no output file.
#[test]
fn a_killed_solve_resumes_from_its_store() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input.txt");
    // 19 empty cells: about a second on one thread.
    let out = run(
        dir.path(),
        &[
            "position",
            "--size",
            "5",
            "--fill",
            "0.24",
            "--seed",
            "3",
            "--mode",
            "ALPHABETA",
            "--depth",
            "19",
            "-o",
            "input.txt",
        ],
        b"",
    );
    assert_ok(&out);
    let plain = run(
        dir.path(),
        &["solve", "input.txt", "-o", "plain.txt", "--threads", "1"],
        b"",
    );
    assert_ok(&plain);
    let expected = std::fs::read(dir.path().join("plain.txt")).unwrap();
    let mut rng = Rng::new(17);
    for (mode, extra) in [("direct", &[][..]), ("split", &["--split", "2"][..])] {
        let store = format!("{mode}.db");
        let mut args = vec![
            "solve",
            "input.txt",
            "-o",
            "out.txt",
            "--threads",
            "2",
            "--store",
            &store,
            "--store-min-nodes",
            "20000",
        ];
        args.extend_from_slice(extra);
        let _ = std::fs::remove_file(dir.path().join("out.txt"));
        let mut killed = 0;
        for kill in 0..5 {
            let wait = std::time::Duration::from_millis(rng.range(50, 600));
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_stakeraid"))
                .args(&args)
                .current_dir(dir.path())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(wait);
            // SIGKILL: nothing runs after it, not even a destructor.
            child.kill().unwrap();
            let status = child.wait().unwrap();
            killed += usize::from(!status.success());
            assert!(
                status.success() || !input.with_file_name("out.txt").exists(),
                "{mode} kill {kill}: a killed run left an output file"
            );
            let _ = std::fs::remove_file(dir.path().join("out.txt"));
        }
        assert!(killed > 0, "{mode}: every run finished before its kill");
        let done = run(dir.path(), &args, b"");
        assert_ok(&done);
        let got = std::fs::read(dir.path().join("out.txt")).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&expected),
            "{mode}: the resumed solve's answer"
        );
    }
}

/// A store of another board, or a file that is no store, is refused with
/// one line and exit status 2, and left as it was; no output is written.
#[test]
fn a_foreign_or_damaged_store_is_refused_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    for (seed, name) in [("1", "a.txt"), ("2", "b.txt")] {
        let out = run(
            dir.path(),
            &[
                "position",
                "--size",
                "4",
                "--fill",
                "0.4",
                "--seed",
                seed,
                "--mode",
                "ALPHABETA",
                "--depth",
                "6",
                "-o",
                name,
            ],
            b"",
        );
        assert_ok(&out);
    }
    assert_ok(&run(
        dir.path(),
        &["solve", "a.txt", "-o", "a.out", "--store", "s.db"],
        b"",
    ));
    std::fs::write(
        dir.path().join("junk.db"),
        "not a database, just text\n".repeat(10),
    )
    .unwrap();
    for (store, says) in [
        ("s.db", "other cell values"),
        ("junk.db", "not a stakeraid solve store"),
    ] {
        let before = std::fs::read(dir.path().join(store)).unwrap();
        let out = run(
            dir.path(),
            &["solve", "b.txt", "-o", "b.out", "--store", store],
            b"",
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert_eq!(std::fs::read(dir.path().join(store)).unwrap(), before);
        assert!(!dir.path().join("b.out").exists());
    }
}
