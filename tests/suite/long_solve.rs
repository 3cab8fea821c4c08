//! Long solves a person can watch and stop: a time limit that answers
//! from the deepest completed depth and says so, a table size option, and
//! an interrupt that leaves the output file as it was.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use stakeraid::{parse_problem, SearchMode};

use crate::util::{answered_move, empty_8x8_input, run, textbook};

/// An empty 8x8 board searched to the end.
fn endless_input() -> String {
    empty_8x8_input(64)
}

#[test]
fn a_time_limit_answers_from_the_deepest_depth_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let input = endless_input();
    let start = Instant::now();
    let out = run(
        dir.path(),
        &["solve", "-", "-o", "-", "--time", "0.3", "--threads", "2"],
        input.as_bytes(),
    );
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let depth: u32 = stderr
        .split("at depth ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|d| d.trim().parse().ok())
        .unwrap_or_else(|| panic!("no depth in {stderr:?}"));
    assert!(
        stderr.contains("not the exact answer at depth 64"),
        "{stderr}"
    );
    assert!(stderr.lines().count() == 1, "one line: {stderr}");
    // The answer is the textbook answer of the depth it names.
    let problem = parse_problem(input.as_bytes()).unwrap();
    let got = answered_move(&out.stdout);
    if depth <= 3 {
        assert_eq!(
            got,
            textbook(&problem.board, problem.player, SearchMode::AlphaBeta, depth).best
        );
    }
}

#[test]
fn the_table_size_does_not_change_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = String::from("4\nALPHABETA\nO\n9\n");
    input.push_str("9 0 4 4\n3 3 8 0\n7 1 1 5\n0 2 9 9\n");
    input.push_str("X..O\n.O..\n..X.\n.O..\n");
    let answers: Vec<Vec<u8>> = [None, Some("1"), Some("300")]
        .into_iter()
        .map(|mb| {
            let mut args = vec!["solve", "-", "-o", "-", "--threads", "2"];
            if let Some(mb) = mb {
                args.extend(["--table-mb", mb]);
            }
            let out = run(dir.path(), &args, input.as_bytes());
            assert!(out.status.success(), "{out:?}");
            out.stdout
        })
        .collect();
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0], answers[2]);
    let problem = parse_problem(input.as_bytes()).unwrap();
    let want = textbook(&problem.board, problem.player, SearchMode::AlphaBeta, 9).best;
    let got = answered_move(&answers[0]);
    assert_eq!(got, want);
}

#[test]
fn bad_limits_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    for (arg, flag) in [
        ("--time=nan", "--time"),
        ("--time=-1", "--time"),
        ("--time=inf", "--time"),
        ("--table-mb=0", "--table-mb"),
    ] {
        let out = run(
            dir.path(),
            &["solve", "-", "-o", "-", arg],
            endless_input().as_bytes(),
        );
        assert_eq!(out.status.code(), Some(2), "{arg}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.lines().next().unwrap().contains(flag), "{stderr}");
    }
}

#[test]
fn an_interrupt_leaves_the_output_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("input.txt"), endless_input()).unwrap();
    std::fs::write(dir.path().join("output.txt"), "before\n").unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_stakeraid"));
    command
        .args(["solve", "--threads", "2"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // A shell without job control starts its background commands with
    // SIGINT ignored, and an ignored signal stays ignored across exec: the
    // child gets the action a terminal's Ctrl-C would meet.
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert!(!status.success());
    let after = std::fs::read_to_string(dir.path().join("output.txt")).unwrap();
    assert_eq!(after, "before\n");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "no temporary file left behind: {left:?}");
}

/// The textbook engine honours the time limit too: it answers from the
/// deepest depth it completed, with the same warning as the fast engine.
#[test]
fn the_reference_engine_honours_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let input = endless_input();
    let start = Instant::now();
    let args = [
        "solve",
        "-",
        "-o",
        "-",
        "--time",
        "0.5",
        "--engine",
        "reference",
    ];
    let out = run(dir.path(), &args, input.as_bytes());
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("not the exact answer at depth 64") && stderr.lines().count() == 1,
        "{stderr}"
    );
    let depth: u32 = stderr
        .split("at depth ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|d| d.trim().parse().ok())
        .unwrap_or_else(|| panic!("no depth in {stderr:?}"));
    let problem = parse_problem(input.as_bytes()).unwrap();
    assert_eq!(
        answered_move(&out.stdout),
        textbook(&problem.board, problem.player, SearchMode::AlphaBeta, depth).best
    );
}
