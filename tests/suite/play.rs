//! The game commands through the binary: `match` reports and traces, and a
//! scripted `play` session.

use crate::util::{assert_ok, run};

#[test]
fn match_report_adds_up_and_trace_shows_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "match", "greedy", "random", "--boards", "3", "--size", "3..4", "--trace",
        ],
        b"",
    );
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("start  X: ").count(), 6, "{text}");
    assert_eq!(text.matches("\nfinal  X ").count(), 6);
    // Each board is played twice with the colours swapped.
    assert_eq!(text.matches("start  X: greedy  O: random").count(), 3);
    let games = text.lines().find(|l| l.starts_with("games ")).unwrap();
    let nums: Vec<u32> = games
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(nums[0], 6);
    assert_eq!(nums[1] + nums[2] + nums[3], 6, "{games}");
    assert!(text.contains("max per move") && text.contains("Elo A-B"));
}

#[test]
fn match_refuses_bad_agents() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &["match", "greedy", "ab:zero"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ab:DEPTH"));
}

#[test]
fn scripted_play_session() {
    let dir = tempfile::tempdir().unwrap();
    // 2x2 board: the person (X) moves twice, the greedy engine twice.
    let script =
        b"help\nhint\nZ9 Stake\nA1 Raid\nA1 Stake\nundo\nA1 Stake\nA2 Stake\nB2 Stake\nB1 Stake\n";
    let out = run(
        dir.path(),
        &[
            "play", "--size", "2", "--engine", "greedy", "--color", "never",
        ],
        script,
    );
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("hint: "), "{text}");
    assert!(text.contains("A1 Raid is not legal here"));
    assert!(text.contains("Z9 Stake is not legal here"));
    assert_eq!(
        text.matches("engine (O) plays").count(),
        3,
        "undo replays the engine's reply: {text}"
    );
    assert!(text.contains("game over: "), "{text}");
    assert!(
        !text.contains("\x1b["),
        "no colour codes with --color never"
    );
}

#[test]
fn a_match_of_no_boards_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["match", "referee"] {
        let out = run(
            dir.path(),
            &[command, "greedy", "random", "--boards", "0"],
            b"",
        );
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("at least one board"), "{command}: {err}");
    }
}

/// Every duration in the per-side lines of a report, with its unit.
fn durations(text: &str) -> Vec<String> {
    let lines = text
        .lines()
        .filter(|l| l.starts_with("A: ") || l.starts_with("B: "));
    let words: Vec<String> = lines
        .flat_map(|l| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .collect();
    words
        .windows(2)
        .filter(|w| w[0].chars().next().is_some_and(|c| c.is_ascii_digit()))
        .map(|w| format!("{} {}", w[0], w[1]))
        .collect()
}

#[test]
fn an_even_match_reads_plus_zero_and_durations_share_one_format() {
    let dir = tempfile::tempdir().unwrap();
    // The same agent on both sides of every board: each pair is even.
    let out = run(
        dir.path(),
        &["match", "greedy", "greedy", "--boards", "2", "--size", "3"],
        b"",
    );
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("score 50.0%"), "{text}");
    assert!(text.contains("Elo A-B +0 (95% -"), "{text}");
    assert!(!text.contains("-0 ") && !text.contains("-0.0"), "{text}");
    let found = durations(&text);
    assert_eq!(found.len(), 8, "{text}");
    for d in found {
        let (number, unit) = d.split_once(' ').unwrap();
        assert!(["s", "ms", "µs"].contains(&unit), "{d} in {text}");
        assert!(number.parse::<f64>().is_ok(), "{d}");
    }
}

#[test]
fn a_sweep_has_no_finite_elo_and_cpu_per_game_is_shown_once() {
    let dir = tempfile::tempdir().unwrap();
    let silent = dir.path().join("silent.sh");
    std::fs::write(&silent, "exit 0\n").unwrap();
    let silent = format!("cmd:sh {}", silent.display());
    let args = ["referee", "greedy", &silent, "--boards", "3", "--size", "2"];
    let out = run(dir.path(), &args, b"");
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("games 6  A wins 6"), "{text}");
    let elo = text.lines().find(|l| l.starts_with("Elo A-B")).unwrap();
    assert!(!elo.contains("1000"), "{elo}");
    assert!(elo.starts_with("Elo A-B > +"), "{elo}");
    for side in ["A: ", "B: "] {
        let per_game = text
            .lines()
            .filter(|l| l.starts_with(side) && l.contains("per game"))
            .count();
        assert_eq!(per_game, 1, "{text}");
    }
    let out = run(dir.path(), &[&args[..], &["--json", "-"]].concat(), b"");
    assert_ok(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["elo"]["diff"].is_null() && json["elo"]["high"].is_null());
    assert!(json["elo"]["low"].as_f64().unwrap() > 0.0);
    let out = run(
        dir.path(),
        &[
            "referee", "greedy", "greedy", "--boards", "2", "--size", "3", "--json", "-",
        ],
        b"",
    );
    let raw = String::from_utf8(out.stdout).unwrap();
    assert!(raw.contains("\"diff\": 0.0,"), "{raw}");
    assert!(!raw.contains("-0.0"), "{raw}");
}

/// Runs `play` with `args` (colours off) on the commands in `script`.
fn play(dir: &std::path::Path, args: &[&str], script: &str) -> String {
    let all = [&["play", "--color", "never"], args].concat();
    let out = run(dir, &all, script.as_bytes());
    assert_ok(&out);
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn play_says_why_a_move_is_refused_and_what_undo_took_back() {
    let dir = tempfile::tempdir().unwrap();
    let text = play(
        dir.path(),
        &["--size", "2", "--engine", "greedy"],
        "A1 Raid\nZ9 Stake\nA1 Stake\nA1 Stake\nfoo\nundo\nundo\n",
    );
    for says in [
        "A1 Raid is not legal here: no X piece next to A1",
        "Z9 Stake is not legal here: Z9 is off the 2x2 board",
        "A1 Stake is not legal here: A1 is taken",
        "not a move: ",
        "took back your A1 Stake and the engine's ",
        "nothing to undo",
    ] {
        assert!(text.contains(says), "{says:?} in {text}");
    }
}

/// A line that is not UTF-8 is a move refused, and the game goes on; an
/// answer that cannot be written ends it in one line saying so.
#[test]
fn a_line_of_bytes_is_not_a_move_and_a_full_output_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "play", "--color", "never", "--size", "2", "--engine", "greedy",
        ],
        b"\xff\xfe\nA1 Stake\nquit\n",
    );
    assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("not a move: "), "{text}");
    assert!(text.contains("engine (O) plays"), "{text}");
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full");
        return;
    };
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(["play", "--size", "2", "--engine", "greedy"])
        .stdin(std::process::Stdio::piped())
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdin.take());
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("writing standard output: "), "{err}");
}

#[test]
fn play_marks_the_last_move_and_what_it_turned() {
    let dir = tempfile::tempdir().unwrap();
    // Greedy X takes B1 with a Raid from A1, turning O's 50 on B2.
    let input = "3\nALPHABETA\nX\n1\n1 1 1\n1 50 1\n1 1 1\nX..\n.O.\n...\n";
    std::fs::write(dir.path().join("in.txt"), input).unwrap();
    let text = play(
        dir.path(),
        &["--input", "in.txt", "--you", "O", "--engine", "greedy"],
        "quit\n",
    );
    assert!(text.contains("engine (X) plays B1 Raid"), "{text}");
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(
        rows[1..3],
        ["  1 X 1  X 1* . 1", "  2 . 1  X50+ . 1"],
        "{text}"
    );
    assert!(text.contains("last: X B1 Raid *, turned B2 +"), "{text}");
}

#[test]
fn play_hints_exactly_near_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let text = play(dir.path(), &["--size", "3", "--engine", "greedy"], "hint\n");
    let hint = text.lines().find_map(|l| l.split_once("hint: ")).unwrap().1;
    assert!(
        hint.contains("exact: solved to the end of the game"),
        "{hint}"
    );
    // Far from the end the hint looks ahead a few plies.
    let text = play(dir.path(), &["--size", "6", "--engine", "greedy"], "hint\n");
    assert!(text.contains(", at depth 4)"), "{text}");
}

#[test]
fn play_fits_the_largest_board_in_a_hundred_columns() {
    let dir = tempfile::tempdir().unwrap();
    let text = play(
        dir.path(),
        &["--size", "26", "--engine", "greedy"],
        "A1 Stake\nquit\n",
    );
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 100, "{widest} columns:\n{text}");
    // The values are shown once, and the pieces on every turn.
    assert!(text.contains("cell values"), "{text}");
    assert!(text.contains("O*"), "the engine's reply is marked: {text}");
}
