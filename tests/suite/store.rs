//! The solve store through the library: a direct solve that reads and adds
//! to a store answers what it answers without one, and a second solve on
//! the same store answers from it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use stakeraid::api::{analyse, Analysis, Limits, Position, SearchMode};
use stakeraid::rng::{random_board, Rng};
use stakeraid::store::{Store, StoreUse};
use stakeraid::{legal_moves, Board, Engine, Player};

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
                table_every: Duration::from_secs(3600),
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

/// Damaged copies of a real store, the 6x6 position's of
/// `scripts/moonshot.sh --six26` (3776 bounds): a page zeroed, a page's
/// count of free bytes changed, two pages swapped, the file cut short at a
/// page. Each is refused from the command line in one line that says in
/// words what is wrong (`integrity check failed: ...` where SQLite's check
/// finds it), never with SQLite's report lines, and is left as it was.
#[test]
fn a_damaged_real_store_is_refused_in_words() {
    const PAGE: usize = 4096;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let good = std::fs::read(root.join("profiles/moonshot/six26.db")).unwrap();
    let pages = good.len() / PAGE;
    let dir = tempfile::tempdir().unwrap();
    // The store's position at depth 2: answered at once where a store is
    // taken (the store holds deeper searches).
    let position = [
        "position", "--size", "6", "--fill", "0.28", "--seed", "2", "--depth", "2", "-o", "p.txt",
    ];
    assert_ok(&run(dir.path(), &position, b""));
    // Whole, the store is taken: what refuses a copy is its damage.
    std::fs::write(dir.path().join("d.db"), &good).unwrap();
    let args = ["solve", "p.txt", "-o", "out.txt", "--store", "d.db"];
    assert_ok(&run(dir.path(), &args, b""));
    std::fs::remove_file(dir.path().join("out.txt")).unwrap();
    for log in ["d.db-wal", "d.db-shm", "d.db-table"] {
        let _ = std::fs::remove_file(dir.path().join(log));
    }
    let mut checked = 0;
    for k in 0..12 {
        // Pages 3 and on (SQLite counts from 1): past the header page and
        // the header table, all in the table of bounds.
        let page = 2 + (k * 7) % (pages - 2);
        let at = page * PAGE;
        let mut bytes = good.clone();
        let damage = match k % 4 {
            0 => {
                bytes[at..at + PAGE].fill(0);
                "zeroed"
            }
            1 => {
                bytes[at + 7] ^= 0x21;
                "free bytes miscounted"
            }
            2 => {
                let next = if page + 1 < pages { page + 1 } else { 2 };
                let (a, b) = (at, next * PAGE);
                let first = bytes[a..a + PAGE].to_vec();
                bytes.copy_within(b..b + PAGE, a);
                bytes[b..b + PAGE].copy_from_slice(&first);
                "swapped with another"
            }
            _ => {
                bytes.truncate(at);
                "the file cut there"
            }
        };
        std::fs::write(dir.path().join("d.db"), &bytes).unwrap();
        let out = run(dir.path(), &args, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let what = format!("page {} {damage}: {stderr}", page + 1);
        assert_eq!(out.status.code(), Some(2), "{what}");
        assert_eq!(stderr.lines().count(), 1, "{what}");
        assert!(
            stderr.starts_with("stakeraid: store d.db: damaged ("),
            "{what}"
        );
        assert!(stderr.contains("refused, left as it is"), "{what}");
        assert!(!stderr.contains("***"), "SQLite's report line: {what}");
        assert_eq!(
            std::fs::read(dir.path().join("d.db")).unwrap(),
            bytes,
            "{what}"
        );
        assert!(!dir.path().join("out.txt").exists(), "{what}");
        checked += usize::from(stderr.contains("integrity check failed: "));
    }
    // Most of this damage is SQLite's check's to find, not the rows'.
    assert!(
        checked >= 8,
        "only {checked} of 12 said `integrity check failed`"
    );
}

/// A store that keeps no bounds, only its table file, saved every
/// `every`: what the table alone brings to a later search.
fn table_only(store: &Arc<Store>, every: Duration) -> StoreUse {
    StoreUse {
        store: store.clone(),
        min_plies: u32::MAX,
        min_nodes: u64::MAX,
        table_every: every,
    }
}

/// The reference engine's analysis of `board`, `p` to move.
fn textbook(board: &Board, p: Player, mode: SearchMode, depth: u32) -> Analysis {
    let position = Position::new(board.clone(), p).unwrap();
    let limits = Limits {
        engine: Engine::Reference,
        ..Limits::to_depth(mode, depth)
    };
    analyse(&position, &limits).unwrap()
}

/// The table a solve saves beside its store, restored into later searches
/// of the same board, changes no answer: the position it came from and
/// positions reached from it, to the end and two plies short, in both
/// modes, against the reference engine. Each seed has its own positions,
/// so that the three tests below run side by side.
fn a_restored_table_changes_no_answer(seeds: std::ops::Range<u64>) {
    let dir = tempfile::tempdir().unwrap();
    for seed in seeds {
        let mut rng = Rng::new(41 + seed);
        let (n, empties) = if seed % 2 == 0 { (4, 9) } else { (5, 9) };
        let board = loop {
            let fill = 1.0 - f64::from(empties) / (n * n) as f64;
            let b = random_board(&mut rng, n, 99, fill);
            if b.empty_count() == empties {
                break b;
            }
        };
        let mut p = if seed % 3 == 0 { Player::O } else { Player::X };
        let path = dir.path().join(format!("t{seed}.db"));
        let store = Arc::new(Store::open(&path, &board).unwrap());
        let never = Duration::from_secs(3600);
        let limits = Limits {
            store: Some(table_only(&store, never)),
            ..Limits::to_depth(SearchMode::AlphaBeta, empties)
        };
        analyse(&Position::new(board.clone(), p).unwrap(), &limits).unwrap();
        let stats = store.stats();
        assert_eq!(store.failure(), None);
        assert_eq!(stats.written, 0, "seed {seed}: bounds were stored");
        assert!(stats.table_saved > 0, "seed {seed}: no table saved");
        drop(store);
        let mut b = board.clone();
        for step in 0..4 {
            let left = b.empty_count();
            for depth in [left, left.saturating_sub(2)]
                .into_iter()
                .filter(|&d| d > 0)
            {
                for mode in [SearchMode::Minimax, SearchMode::AlphaBeta] {
                    let store = Arc::new(Store::open(&path, &b).unwrap());
                    assert!(store.stats().table_loaded > 0, "seed {seed}");
                    let limits = Limits {
                        threads: 1 + step % 2,
                        store: Some(table_only(&store, never)),
                        ..Limits::to_depth(mode, depth)
                    };
                    let got = analyse(&Position::new(b.clone(), p).unwrap(), &limits).unwrap();
                    let want = textbook(&b, p, mode, depth);
                    let what = format!("seed {seed} step {step} {mode:?} depth {depth}");
                    assert_eq!((got.best, got.value), (want.best, want.value), "{what}");
                    if mode == SearchMode::Minimax {
                        assert_eq!(got.moves, want.moves, "{what}");
                    }
                }
            }
            let moves = legal_moves(&b, p);
            b.make(moves[rng.range(0, moves.len() as u64 - 1) as usize], p);
            p = p.other();
        }
    }
}

#[test]
fn a_restored_table_changes_no_answer_seeds_0_1() {
    a_restored_table_changes_no_answer(0..2);
}

#[test]
fn a_restored_table_changes_no_answer_seeds_2_3() {
    a_restored_table_changes_no_answer(2..4);
}

#[test]
fn a_restored_table_changes_no_answer_seeds_4_5() {
    a_restored_table_changes_no_answer(4..6);
}

/// A solve stopped at a random moment while its table is saved every few
/// milliseconds, then run again on the same store, answers what a solve
/// without a store answers (too deep for the reference engine, which the
/// test above compares with), starting from the saved table.
#[test]
fn a_stopped_solve_resumes_with_its_saved_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(43);
    let mut resumed_from_table = 0;
    for seed in 0..6u64 {
        let empties = 12 + (seed % 2) as u32;
        let position = position(500 + seed, empties);
        let path = dir.path().join(format!("k{seed}.db"));
        let store = Arc::new(Store::open(&path, position.board()).unwrap());
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            threads: 2,
            stop: Some(stop.clone()),
            store: Some(table_only(&store, Duration::from_millis(5))),
            ..Limits::to_depth(SearchMode::AlphaBeta, empties)
        };
        let wait = Duration::from_millis(rng.range(10, 150));
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(wait);
                stop.store(true, Ordering::Relaxed);
            });
            let _ = analyse(&position, &limits);
        });
        assert_eq!(store.failure(), None);
        drop(store);
        let store = Arc::new(Store::open(&path, position.board()).unwrap());
        resumed_from_table += usize::from(store.stats().table_loaded > 0);
        let limits = Limits {
            store: Some(table_only(&store, Duration::from_secs(3600))),
            ..Limits::to_depth(SearchMode::AlphaBeta, empties)
        };
        let got = analyse(&position, &limits).unwrap();
        let plain = Limits::to_depth(SearchMode::AlphaBeta, empties);
        let want = analyse(&position, &plain).unwrap();
        assert_eq!(
            (got.best, got.value),
            (want.best, want.value),
            "seed {seed}"
        );
    }
    assert!(
        resumed_from_table > 0,
        "no solve resumed from a saved table"
    );
}

/// The first shell block of a page's text from `heading` on.
fn first_shell_block<'a>(page: &'a str, heading: &str) -> &'a str {
    let section = &page[page
        .find(heading)
        .unwrap_or_else(|| panic!("no section {heading:?}"))..];
    section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap_or_else(|| panic!("no shell block after {heading:?}"))
}

/// The deep-solve recipe of the README and of its guide, run as it is
/// written: it makes a position solved to the end of the game, and the
/// store keeps its proofs.
#[test]
fn the_readme_deep_solve_recipe_solves_a_deep_position() {
    let block = first_shell_block(include_str!("../../README.md"), "## Deep solves");
    let guide = first_shell_block(include_str!("../../docs/deep-solves.md"), "# Deep solves");
    assert_eq!(
        block, guide,
        "the README and docs/deep-solves.md show other recipes"
    );
    let dir = tempfile::tempdir().unwrap();
    let mut stderr = String::new();
    let mut ran = 0;
    for line in block.lines() {
        let command = line.split('#').next().unwrap().trim();
        let Some(args) = command.strip_prefix("stakeraid ") else {
            continue;
        };
        let args: Vec<&str> = args.split_whitespace().collect();
        let out = run(dir.path(), &args, b"");
        assert_ok(&out);
        stderr.push_str(&String::from_utf8_lossy(&out.stderr));
        ran += 1;
    }
    assert_eq!(ran, 2, "{block}");
    let text = std::fs::read_to_string(dir.path().join("deep.txt")).unwrap();
    let problem = stakeraid::parse_problem(text.as_bytes()).unwrap();
    let empties = problem.board.empty_count();
    let depth = problem.question.depth().unwrap();
    assert!(
        empties >= 15 && depth >= empties,
        "{empties} empty cells, depth {depth}"
    );
    let positions: u64 = stderr
        .split("store: ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no store line in {stderr:?}"));
    assert!(positions > 0, "{stderr}");
}

/// Writes `input.txt` in `dir`: a 5x5 board with `fill` of its cells taken
/// (seed 3), asked to the end of the game.
fn deep_input(dir: &std::path::Path, fill: &str) {
    let out = run(
        dir,
        &[
            "position",
            "--size",
            "5",
            "--fill",
            fill,
            "--seed",
            "3",
            "--depth",
            "25",
            "-o",
            "input.txt",
        ],
        b"",
    );
    assert_ok(&out);
}

/// Runs `stakeraid ARGS` in `dir`, sends it `signal` after `after`, and
/// returns how it ended, with its standard error.
fn interrupted(
    dir: &std::path::Path,
    args: &[&str],
    signal: libc::c_int,
    after: Duration,
) -> std::process::Output {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(args)
        .current_dir(dir)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    // SAFETY: kill only sends a signal to the child's pid.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    child.wait_with_output().unwrap()
}

/// SIGINT or SIGTERM on a stored solve, direct or split: one line saying
/// what the store keeps and that the same command resumes, the status of
/// the signal, no output, and the store left as one file (its log folded
/// in) that the next run reads.
#[test]
fn a_signal_seals_the_store_and_says_how_to_resume() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    deep_input(dir.path(), "0.16");
    for (signal, name, extra) in [
        (libc::SIGINT, "SIGINT", &[][..]),
        (libc::SIGTERM, "SIGTERM", &["--split", "1"][..]),
    ] {
        let store = format!("{name}.db");
        let _ = std::fs::remove_file(dir.path().join("out.txt"));
        let mut args = vec![
            "solve",
            "-o",
            "out.txt",
            "--store",
            &store,
            "--store-min-nodes",
            "1000",
        ];
        args.extend_from_slice(extra);
        let out = interrupted(dir.path(), &args, signal, Duration::from_millis(1500));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.signal(), Some(signal), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.starts_with(&format!("stakeraid: stopped by {name}, no output written"))
                && err.contains(&store)
                && err.contains("the same command resumes"),
            "{name}: {err}"
        );
        assert!(!dir.path().join("out.txt").exists(), "{name}");
        for log in ["-wal", "-shm", "-journal"] {
            let beside = dir.path().join(format!("{store}{log}"));
            assert!(!beside.exists(), "{name}: {} is left", beside.display());
        }
        let kept: u64 = err
            .split("keeps ")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{name}: {err}"));
        let again = run(
            dir.path(),
            &[
                "solve", "-o", "out.txt", "--store", &store, "--time", "0.2", "--stats",
            ],
            b"",
        );
        assert_ok(&again);
        for log in ["-wal", "-shm"] {
            let beside = dir.path().join(format!("{store}{log}"));
            assert!(
                !beside.exists(),
                "{name}: a finished run left {}",
                beside.display()
            );
        }
        let note = String::from_utf8_lossy(&again.stderr);
        assert!(
            note.contains(&format!("{kept} of them from earlier runs")),
            "{name}: kept {kept}: {note}"
        );
    }
}

/// SIGINT early in a stored solve, long before its first periodic table
/// save: the search's table is saved beside the store before the program
/// ends, its line says so, and the resumed solve starts from those entries
/// and the stored positions and answers as a direct solve does.
#[test]
fn a_signal_saves_the_table_and_the_resume_starts_from_it() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    deep_input(dir.path(), "0.28");
    let started = std::time::Instant::now();
    let direct = run(
        dir.path(),
        &["solve", "-o", "direct.txt", "--threads", "1"],
        b"",
    );
    assert_ok(&direct);
    // A fifth of the direct solve's time, on this machine and build: the
    // stored solve, on one thread too, is then far from its end.
    let early = started.elapsed() / 5;
    let out = interrupted(
        dir.path(),
        &[
            "solve",
            "-o",
            "out.txt",
            "--store",
            "s.db",
            "--store-min-nodes",
            "100000",
            "--threads",
            "1",
        ],
        libc::SIGINT,
        early,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.signal(),
        Some(libc::SIGINT),
        "the solve ended before the signal, or not by it: {err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("stakeraid: stopped by SIGINT, no output written: the store s.db keeps "),
        "{err}"
    );
    let number_before = |text: &str, words: &str| -> u64 {
        let at = text
            .find(words)
            .unwrap_or_else(|| panic!("no {words:?} in {text}"));
        text[..at]
            .split_whitespace()
            .last()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count before {words:?} in {text}"))
    };
    let entries = number_before(&err, " table entries");
    let positions = number_before(&err, " positions proved so far");
    assert!(entries > 0 && positions > 0, "{err}");
    assert!(dir.path().join("s.db-table").exists(), "{err}");
    assert!(!dir.path().join("out.txt").exists());

    let resumed = run(
        dir.path(),
        &["solve", "-o", "out.txt", "--store", "s.db", "--stats"],
        b"",
    );
    assert_ok(&resumed);
    let note = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        note.contains(&format!("table: {entries} entries read"))
            && note.contains(&format!("{positions} of them from earlier runs")),
        "stopped with {entries} entries and {positions} positions; the resume says: {note}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.txt")).unwrap(),
        std::fs::read_to_string(dir.path().join("direct.txt")).unwrap()
    );
}

/// A new store and its table file are made as any new file is, 0666 less
/// the umask, so that they can be shared as docs/deep-solves.md says.
#[test]
fn a_new_store_is_made_with_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), crate::util::SPEC_EXAMPLES[0].0).unwrap();
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            "umask 027 && exec \"$0\" solve in.txt -o out.txt --store s.db",
        ])
        .arg(env!("CARGO_BIN_EXE_stakeraid"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_ok(&out);
    for name in ["s.db", "s.db-table", "out.txt"] {
        let meta = std::fs::metadata(dir.path().join(name)).unwrap();
        let mode = meta.permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "{name}: {mode:o}");
    }
}
