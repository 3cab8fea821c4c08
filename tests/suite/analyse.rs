//! `stakeraid analyse` through the binary: the table of root values (from
//! the textbook search), best first, and the `--dot` tree of alpha-beta.

use std::fs;

use stakeraid::api::SearchMode;
use stakeraid::{legal_moves, parse_problem, Player};

use crate::util::{assert_ok, run, textbook, SPEC_EXAMPLES};

#[test]
fn table_lists_every_root_value_best_first() {
    let dir = tempfile::tempdir().unwrap();
    let (input, expected) = SPEC_EXAMPLES[2];
    fs::write(dir.path().join("input.txt"), input).unwrap();
    let problem = parse_problem(input.as_bytes()).unwrap();
    let (board, p, depth) = (&problem.board, problem.player, 4);
    let out = run(dir.path(), &["analyse", "--mode", "minimax"], b"");
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("X to move, MINIMAX to depth 4 (exact)"),
        "{text}"
    );
    let rows: Vec<(String, i64)> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() >= 4 && w[0].parse::<u32>().is_ok() && matches!(w[2], "Stake" | "Raid"))
        .map(|w| (format!("{} {}", w[1], w[2]), w[3].parse().unwrap()))
        .collect();
    let moves = legal_moves(board, p);
    assert_eq!(rows.len(), moves.len());
    // Each value is the textbook value of that move.
    for mv in moves {
        let mut b = board.clone();
        b.make(mv, p);
        let truth = -textbook(&b, p.other(), SearchMode::Minimax, depth - 1).value;
        let row = rows.iter().find(|(m, _)| *m == mv.to_string()).unwrap();
        assert_eq!(row.1, truth, "{mv}");
    }
    assert!(rows.windows(2).all(|w| w[0].1 >= w[1].1), "best first");
    assert_eq!(
        format!("{}\n", rows[0].0),
        expected.lines().next().unwrap().to_string() + "\n"
    );
    assert!(
        text.lines()
            .find(|l| l.starts_with("pv: "))
            .unwrap()
            .starts_with("pv: C3 Raid  "),
        "{text}"
    );

    // ALPHABETA: bounds are marked, and the chosen move is still first.
    let out = run(dir.path(), &["analyse", "--mode", "alphabeta"], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("<= "), "{text}");
    assert!(text.lines().nth(2).unwrap().contains("C3 Raid"), "{text}");
}

#[test]
fn dot_draws_the_alphabeta_tree_with_its_cuts() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = SPEC_EXAMPLES[0];
    fs::write(dir.path().join("input.txt"), input).unwrap();
    let problem = parse_problem(input.as_bytes()).unwrap();
    for depth in [1u32, 2, 3] {
        let d = depth.to_string();
        let out = run(
            dir.path(),
            &["analyse", "--depth", &d, "--dot", "tree.dot"],
            b"",
        );
        assert_ok(&out);
        assert!(
            String::from_utf8(out.stdout).unwrap().contains("pv: "),
            "the table still prints"
        );
        let dot = fs::read_to_string(dir.path().join("tree.dot")).unwrap();
        assert!(dot.starts_with("digraph") && dot.trim_end().ends_with('}'));
        let truth = textbook(&problem.board, Player::O, SearchMode::AlphaBeta, depth);
        // One drawn node per position the textbook search visits.
        let drawn = dot
            .lines()
            .filter(|l| l.contains("[shape=") && !l.contains("style=dashed"))
            .count();
        assert_eq!(drawn as u64, truth.nodes, "depth {depth}");
        assert!(dot.contains(&format!("best {} value {}", truth.best, truth.value)));
        if depth > 1 {
            assert!(dot.contains("pruned ("), "depth {depth} prunes something");
        }
        let balanced = dot.matches('"').count().is_multiple_of(2)
            && dot.matches('[').count() == dot.matches(']').count();
        assert!(balanced);
    }
    let out = run(dir.path(), &["analyse", "--depth", "4", "--dot", "-"], b"");
    assert_eq!(out.status.code(), Some(2), "--dot is for small searches");
    let out = run(dir.path(), &["analyse", "--depth", "2", "--dot", "-"], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("digraph") && !text.contains("pv: "),
        "--dot - prints only the tree"
    );
}

/// A depth far past the end of the game with a short time limit: the
/// answer comes from the deepest completed depth, marked not exact, and on
/// a terminal a progress line shows the depths as they complete.
#[cfg(target_os = "linux")]
/// With no --mode and no --depth, the input's own are searched, with
/// --time as without it.
#[test]
fn the_input_names_the_mode_and_the_depth() {
    let dir = tempfile::tempdir().unwrap();
    for (k, (input, _)) in SPEC_EXAMPLES.iter().enumerate() {
        let problem = parse_problem(input.as_bytes()).unwrap();
        let stakeraid::Question::Exact { mode, depth } = problem.question else {
            unreachable!("the examples are exact")
        };
        fs::write(dir.path().join("input.txt"), input).unwrap();
        for extra in [&[][..], &["--time", "30"][..]] {
            let mut args = vec!["analyse", "--json"];
            args.extend_from_slice(extra);
            let out = run(dir.path(), &args, b"");
            assert_ok(&out);
            let a: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(a["mode"], mode.name(), "example {k} {extra:?}");
            assert_eq!(a["requested_depth"], depth, "example {k} {extra:?}");
        }
    }
    // COMPETITION names no mode: ALPHABETA, as the library's default.
    let competition = SPEC_EXAMPLES[0]
        .0
        .replacen("MINIMAX\nO\n2", "COMPETITION\nO\n9.5", 1);
    fs::write(dir.path().join("input.txt"), competition).unwrap();
    let out = run(dir.path(), &["analyse", "--depth", "2", "--json"], b"");
    assert_ok(&out);
    let a: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(a["mode"], "ALPHABETA");
}

#[test]
fn a_huge_depth_shows_progress_and_answers_at_the_time_limit() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let empty8 = run(
        dir.path(),
        &["position", "--size", "8", "--fill", "0", "--seed", "3"],
        b"",
    );
    assert_ok(&empty8);
    fs::write(dir.path().join("input.txt"), &empty8.stdout).unwrap();
    let args = ["analyse", "--depth", "1000", "--time", "1", "--json"];

    let (mut terminal, stderr) = pseudo_terminal();
    let mut command = Command::new(env!("CARGO_BIN_EXE_stakeraid"));
    command
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr);
    let start = Instant::now();
    let child = command.spawn().unwrap();
    // The command holds the terminal's other end until it goes.
    drop(command);
    let shown = std::thread::spawn(move || {
        let mut shown = Vec::new();
        // Ends with an error once the program has closed its end.
        let _ = terminal.read_to_end(&mut shown);
        String::from_utf8_lossy(&shown).into_owned()
    });
    let out = child.wait_with_output().unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert!(out.status.success());
    let analysis: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(analysis["requested_depth"], 64, "capped at the empty cells");
    assert_eq!(
        (analysis["exact"].clone(), analysis["stopped"].clone()),
        (false.into(), true.into())
    );
    let shown = shown.join().unwrap();
    assert!(
        shown.contains("depth 2 of 64 completed") && shown.contains(" nodes"),
        "{shown:?}"
    );

    // Not on a terminal: nothing on standard error.
    let out = run(dir.path(), &args, b"");
    assert_ok(&out);
    assert!(out.stderr.is_empty());
}

/// A pseudo-terminal: its controlling end to read, and its other end to
/// give a program as standard error.
#[cfg(target_os = "linux")]
fn pseudo_terminal() -> (fs::File, std::process::Stdio) {
    use std::os::fd::FromRawFd;
    use std::os::unix::fs::OpenOptionsExt;

    // SAFETY: plain calls on a descriptor this function owns; the name is
    // a NUL-terminated buffer ptsname_r fills.
    let (master, name) = unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(fd >= 0, "no pseudo-terminal");
        let master = fs::File::from_raw_fd(fd);
        assert_eq!(libc::grantpt(fd), 0);
        assert_eq!(libc::unlockpt(fd), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(fd, name.as_mut_ptr(), name.len()), 0);
        let size = libc::winsize {
            ws_row: 24,
            ws_col: 100,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        libc::ioctl(fd, libc::TIOCSWINSZ, &size);
        let name = std::ffi::CStr::from_ptr(name.as_ptr());
        (master, name.to_str().unwrap().to_owned())
    };
    let other = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(name)
        .unwrap();
    (master, other.into())
}
