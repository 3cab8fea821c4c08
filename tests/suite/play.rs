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
