//! `stakeraid referee` with small programs written as shell scripts: each
//! kind of misbehaviour forfeits with its reason, and well-behaved programs
//! (the stakeraid binary among them) play whole games of legal moves.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;
use stakeraid::{legal_moves, Board, Move, Player, Square};

use crate::util::{assert_gone, assert_ok, run};

/// A player that takes the first empty cell in row-major order. `kind` is
/// the move type it names (a Raid on a side's first move of an empty board
/// is illegal), `wrong=1` writes the board unchanged. Every move appends a
/// line to `notes.txt` in its working folder and the note count to `$2`.
const FIRST_EMPTY: &str = r#"
kind=${1:-Stake}; wrong=${3:-0}
echo note >> notes.txt
if [ -n "$2" ]; then wc -l < notes.txt >> "$2"; fi
awk -v kind="$kind" -v wrong="$wrong" '
NR == 1 { n = $1 }
NR == 3 { me = $1 }
NR > 4 + n && NR <= 4 + 2 * n { rows[NR - 4 - n] = $0 }
END {
  for (r = 1; r <= n; r++) { c = index(rows[r], "."); if (c > 0) break }
  print substr("ABCDEFGHIJKLMNOPQRSTUVWXYZ", c, 1) r " " kind
  if (!wrong) rows[r] = substr(rows[r], 1, c - 1) me substr(rows[r], c + 1)
  for (i = 1; i <= n; i++) print rows[i]
}' input.txt > output.txt
"#;

/// Writes `body` as `name` in `dir` and returns the side that runs it.
/// Scripts run through `sh FILE` rather than being executed themselves:
/// executing a file just written can fail with "text file busy" while
/// another test thread forks.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, body).unwrap();
    format!("cmd:sh {}", path.display())
}

/// Runs the referee with `args` and returns its JSON report.
fn referee(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["referee"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", "-"]);
    let out = run(dir, &all, b"");
    assert_ok(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every game of the report, in order.
fn games(report: &Value) -> Vec<&Value> {
    let pairs = report["pairs"].as_array().unwrap();
    pairs
        .iter()
        .flat_map(|p| p["games"].as_array().unwrap())
        .collect()
}

/// Plays `program` as A against greedy on one empty 3x3 board pair and
/// checks that A forfeits both games at its first move for `reason`;
/// returns the report.
fn forfeits(program: &str, reason: &str, extra: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec![program, "greedy", "--boards", "1", "--size", "3"];
    args.extend_from_slice(extra);
    let report = referee(dir.path(), &args);
    assert_eq!(report["losses"], 2, "{report:#}");
    assert_eq!(report["sides"][0]["forfeits"][reason], 2, "{report:#}");
    assert_eq!(report["sides"][1]["forfeits"][reason], 0);
    for game in games(&report) {
        assert_eq!(game["forfeit"]["reason"], reason, "{game:#}");
        assert_eq!(game["forfeit"]["player"], game["a_plays"]);
        assert_eq!(game["result"], "loss");
        let moves = game["record"].as_array().unwrap();
        let last = moves.last().unwrap();
        assert_eq!(last["player"], game["a_plays"]);
        assert!(last["move"].is_null());
        // X's first move, or O's after X's.
        let expected_len = if game["a_plays"] == "X" { 1 } else { 2 };
        assert_eq!(moves.len(), expected_len, "{game:#}");
        // The whole board's value (1 to 99 a cell) against the loser.
        let margin = game["margin_a"].as_i64().unwrap();
        assert!((-9 * 99..=-9).contains(&margin), "{margin}");
    }
    report
}

#[test]
fn a_crash_forfeits_and_shows_its_last_words() {
    let dir = tempfile::tempdir().unwrap();
    let crash = script(dir.path(), "crash.sh", "echo 'out of memory' >&2; exit 1\n");
    let report = forfeits(&crash, "crash", &["--time", "5"]);
    let detail = games(&report)[0]["forfeit"]["detail"].as_str().unwrap();
    assert_eq!(detail, "exit code 1: out of memory");
}

#[test]
fn a_hang_is_killed_with_its_children_and_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let hang = script(
        dir.path(),
        "hang.sh",
        &format!("sleep 30 & echo $! >> {}; wait\n", pids.display()),
    );
    let start = Instant::now();
    forfeits(
        &hang,
        "hang",
        // The pids are written outside the side's folder, and are this
        // machine's only without the sandbox.
        &[
            "--time",
            "5",
            "--wall-factor",
            "0",
            "--grace",
            "0.3",
            "--sandbox",
            "off",
        ],
    );
    assert!(start.elapsed() < Duration::from_secs(10));
    let pids = fs::read_to_string(pids).unwrap();
    assert_eq!(pids.lines().count(), 2);
    assert_gone(&pids, "the sleeping child");
}

#[test]
fn an_illegal_move_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "first.sh", FIRST_EMPTY);
    let raid = format!("cmd:sh {} Raid", dir.path().join("first.sh").display());
    let report = forfeits(&raid, "illegal_move", &["--time", "5"]);
    let detail = games(&report)[0]["forfeit"]["detail"].as_str().unwrap();
    assert_eq!(detail, "A1 Raid: no X piece next to A1");
}

#[test]
fn a_wrong_board_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "first.sh", FIRST_EMPTY);
    let wrong = format!(
        "cmd:sh {} Stake '' 1",
        dir.path().join("first.sh").display()
    );
    forfeits(&wrong, "wrong_board", &["--time", "5"]);
}

#[test]
fn garbage_output_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = script(
        dir.path(),
        "garbage.sh",
        "echo 'I resign, well played' > output.txt\n",
    );
    forfeits(&garbage, "unreadable", &["--time", "5"]);
}

#[test]
fn no_output_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    let silent = script(dir.path(), "silent.sh", "exit 0\n");
    forfeits(&silent, "no_output", &["--time", "5"]);
}

#[test]
fn cpu_burnt_in_a_child_process_is_charged() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "first.sh", FIRST_EMPTY);
    // About 0.2 s of CPU in a child, then a correct answer.
    let burner = script(
        dir.path(),
        "burner.sh",
        &format!(
            "sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'\nsh {}\n",
            dir.path().join("first.sh").display()
        ),
    );
    let report = forfeits(&burner, "cpu_overrun", &["--time", "0.05"]);
    for game in games(&report) {
        let last = game["record"].as_array().unwrap().last().unwrap();
        assert!(last["cpu"].as_f64().unwrap() >= 0.05, "{game:#}");
    }
}

/// A child that never stops, killed at the wall guard: its CPU time is
/// charged (it was reaped as an orphan), so this is an overrun, not a hang.
#[cfg(target_os = "linux")]
#[test]
fn a_busy_child_killed_at_the_guard_is_an_overrun() {
    let dir = tempfile::tempdir().unwrap();
    let spinner = script(
        dir.path(),
        "spinner.sh",
        "sh -c 'while :; do :; done' & wait\n",
    );
    forfeits(
        &spinner,
        "cpu_overrun",
        &["--time", "0.05", "--wall-factor", "0", "--grace", "0.5"],
    );
}

/// The board a pair of the report starts from.
fn start_board(pair: &Value) -> Board {
    let values: Vec<i32> = pair["values"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .map(|v| v.as_i64().unwrap() as i32)
        .collect();
    let n = pair["size"].as_u64().unwrap() as usize;
    let mut board = Board::new(n, &values);
    for (r, row) in pair["start"].as_array().unwrap().iter().enumerate() {
        for (c, ch) in row.as_str().unwrap().chars().enumerate() {
            match ch {
                'X' => board.set(r, c, Square::Piece(Player::X)),
                'O' => board.set(r, c, Square::Piece(Player::O)),
                _ => {}
            }
        }
    }
    board
}

/// Replays every game of the report: each move is legal, the moves fill
/// the board, and the final score is the margin reported.
fn replay_all(report: &Value) {
    for pair in report["pairs"].as_array().unwrap() {
        let start = start_board(pair);
        for game in pair["games"].as_array().unwrap() {
            assert!(game["forfeit"].is_null(), "{game:#}");
            let mut board = start.clone();
            let mut p = Player::X;
            for m in game["record"].as_array().unwrap() {
                assert_eq!(m["player"], p.symbol().to_string());
                let mv: Move = m["move"].as_str().unwrap().parse().unwrap();
                assert!(legal_moves(&board, p).contains(&mv), "{mv} in {game:#}");
                board.make(mv, p);
                p = p.other();
            }
            assert!(board.is_full());
            assert_eq!(board.score(Player::X), game["margin_x"].as_i64().unwrap());
        }
    }
}

#[test]
fn a_correct_program_plays_whole_games_and_keeps_notes() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "first.sh", FIRST_EMPTY);
    let counts = dir.path().join("counts");
    let side = format!(
        "cmd:sh {} Stake {}",
        dir.path().join("first.sh").display(),
        counts.display()
    );
    let report = referee(
        dir.path(),
        &[
            &side,
            "greedy",
            "--boards",
            "2",
            "--size",
            "2..4",
            "--fill",
            "0.3",
            "--time",
            "5",
            // The notes are kept outside the side's folder: only without
            // the sandbox.
            "--sandbox",
            "off",
        ],
    );
    assert_eq!(report["games"], 4);
    replay_all(&report);
    // The working folder lasts a game: the note count climbs by one each
    // move and starts again at 1 in the next game.
    let counts: Vec<u32> = fs::read_to_string(&counts)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    let per_game: Vec<u64> = games(&report)
        .iter()
        .map(|g| {
            let k = usize::from(g["a_plays"] == "O");
            g["moves"][k].as_u64().unwrap()
        })
        .collect();
    let expected: Vec<u32> = per_game.iter().flat_map(|&m| 1..=m as u32).collect();
    assert_eq!(counts, expected);
    let a = &report["sides"][0];
    assert_eq!(a["moves"].as_u64().unwrap(), per_game.iter().sum::<u64>());
    assert!(a["cpu_per_move"]["max"].as_f64().unwrap() > 0.0);
}

#[test]
fn stakeraid_plays_as_a_program() {
    let dir = tempfile::tempdir().unwrap();
    let me = format!("cmd:{}", env!("CARGO_BIN_EXE_stakeraid"));
    let report = referee(
        dir.path(),
        &[
            &me, "greedy", "--boards", "1", "--size", "3", "--time", "3", "--fill", "0.2",
        ],
    );
    assert_eq!(report["games"], 2);
    replay_all(&report);
    let a = &report["sides"][0];
    assert!(a["cpu_per_game"]["max"].as_f64().unwrap() < 3.0);
    // Its CPU per move includes starting the process: never nothing.
    assert!(a["cpu_per_move"]["mean"].as_f64().unwrap() > 0.0);
}

#[test]
fn text_report_and_trace() {
    let dir = tempfile::tempdir().unwrap();
    let silent = script(dir.path(), "silent.sh", "exit 0\n");
    let out = run(
        dir.path(),
        &[
            "referee", "greedy", &silent, "--boards", "2", "--size", "2", "--trace",
        ],
        b"",
    );
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("start  X: ").count(), 4, "{text}");
    assert_eq!(text.matches(": forfeits, no output.txt  cpu").count(), 4);
    let moves = text
        .lines()
        .filter(|l| l.starts_with("X: ") && l.contains(" Stake  cpu "));
    assert_eq!(
        moves.count(),
        2,
        "greedy's first move in each game as X: {text}"
    );
    assert!(text.contains("board 2  seed 2  2x2"), "{text}");
    assert!(text.contains("games 4  A wins 4"), "{text}");
    assert!(text.contains("B forfeits: no output.txt 4"), "{text}");
    assert!(text.contains("A forfeits: none"), "{text}");
    assert!(text.contains("Elo A-B"), "{text}");
}

#[test]
fn json_file_and_bad_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "referee", "random", "greedy", "--boards", "1", "--size", "2", "--json", "r.json",
        ],
        b"",
    );
    assert_ok(&out);
    let report: Value =
        serde_json::from_slice(&fs::read(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(report["a"], "random");
    assert_eq!(report["settings"]["game"]["time"], 10.0);
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("A = random  B = greedy"));
    for (args, says) in [
        (&["referee", "random", "gredy"][..], "cmd:COMMAND"),
        (&["referee", "random", "cmd:"], "needs a command"),
        (&["referee", "random", "greedy", "--time=-1"], "time"),
        (&["referee", "random", "greedy", "--fill", "2"], "fill"),
        (&["referee", "random", "greedy", "--size", "0..3"], "side"),
    ] {
        let out = run(dir.path(), args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        let first = err.lines().next().unwrap_or("");
        assert!(first.contains(says), "{args:?}: {err}");
    }
    let out = run(dir.path(), &["referee", "--help"], b"");
    assert_ok(&out);
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("cmd:COMMAND"));
}

#[test]
fn a_program_that_cannot_run_is_refused_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let not_executable = dir.path().join("prog");
    fs::write(&not_executable, "#!/bin/sh\n").unwrap();
    let not_executable = format!("cmd:{}", not_executable.display());
    for (side, says) in [
        ("cmd:/nonexistent/prog", "/nonexistent/prog does not exist"),
        (not_executable.as_str(), "is not executable"),
        ("cmd:./prog", "relative path"),
        ("cmd:no-such-program-anywhere --fast", "not a command"),
    ] {
        let start = Instant::now();
        let out = run(
            dir.path(),
            &["referee", side, "greedy", "--boards", "50"],
            b"",
        );
        assert_eq!(out.status.code(), Some(2), "{side}");
        assert!(out.stdout.is_empty(), "no report: {side}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(side) && err.contains(says), "{side}: {err}");
        assert!(start.elapsed() < Duration::from_secs(5), "{side}");
    }
}

#[test]
fn an_unwritable_json_path_is_refused_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "first.sh", FIRST_EMPTY);
    let counts = dir.path().join("counts");
    let side = format!(
        "cmd:sh {} Stake {}",
        dir.path().join("first.sh").display(),
        counts.display()
    );
    let missing = dir.path().join("no/such/folder/r.json");
    let folder = dir.path().display().to_string();
    for json in ["/proc/x", missing.to_str().unwrap(), folder.as_str()] {
        let out = run(
            dir.path(),
            &["referee", &side, "greedy", "--size", "2", "--json", json],
            b"",
        );
        assert_eq!(out.status.code(), Some(2), "{json}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with(&format!("stakeraid: cannot write the report to {json}: ")),
            "{json}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            !counts.exists(),
            "a game was played before the check: {json}"
        );
    }
}

#[test]
fn the_text_report_shows_why_a_program_crashed() {
    let dir = tempfile::tempdir().unwrap();
    // A panic's message is followed by a line of advice.
    let crash = script(
        dir.path(),
        "crash.sh",
        "echo \"thread 'main' panicked at src/main.rs:3:5:\" >&2\n\
         echo 'board too large' >&2\n\
         echo 'note: run with `RUST_BACKTRACE=1` to display a backtrace' >&2\n\
         exit 101\n",
    );
    let out = run(
        dir.path(),
        &["referee", &crash, "greedy", "--boards", "1", "--size", "2"],
        b"",
    );
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    for colour in ["X", "O"] {
        let line = format!("A as {colour} forfeits: crash: exit code 101: ");
        let line = text
            .lines()
            .find(|l| l.contains(&line))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(line.contains("board too large / note: run with"), "{line}");
    }
}
