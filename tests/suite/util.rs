//! Shared helpers: the case corpus, running the binary, and the textbook
//! and the fast search reached through the api.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use stakeraid::api::{analyse, Analysis, Engine, Limits, Position, SearchMode};
use stakeraid::{Board, Player};

/// The golden corpus beside the crate, `../shared/cases`, if it is there.
/// Where it is not, the calling test skips its cases and says so; under CI
/// (the `CI` environment variable set), where the corpus is always
/// checked out beside the repository, the test fails in one line naming
/// the folder (see [`missing_cases`]).
pub fn cases_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/cases");
    if dir.is_dir() {
        Some(dir)
    } else {
        missing_cases("is not there");
        None
    }
}

/// Every case folder (holding `input.txt` and `output.txt`), sorted; none
/// where the corpus is missing (a failure under CI, as for [`cases_dir`]).
pub fn case_folders() -> Vec<PathBuf> {
    let Some(dir) = cases_dir() else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("input.txt").is_file() && p.join("output.txt").is_file())
        .collect();
    v.sort();
    if v.is_empty() {
        missing_cases("holds no case folders");
    }
    v
}

/// Says that the golden corpus `is_not` usable: one line, a panic under
/// CI, a note that the test skips its cases elsewhere.
fn missing_cases(is_not: &str) {
    // The folder as a reader finds it: `..` resolved where it can be.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let parent = root
        .parent()
        .and_then(|p| p.canonicalize().ok())
        .unwrap_or_else(|| root.join(".."));
    let folder = parent.join("shared/cases");
    if std::env::var_os("CI").is_some() {
        panic!(
            "CI is set and the golden cases' folder ../shared/cases ({}) {is_not}: this test needs it",
            folder.display()
        );
    }
    eprintln!(
        "skipping the golden cases: their folder ../shared/cases ({}) {is_not}",
        folder.display()
    );
}

/// Expected output as the grader compares it: `\r` removed, a final `\n` ensured.
pub fn normalized(text: &str) -> String {
    let mut s = text.replace('\r', "");
    while s.ends_with("\n\n") {
        s.pop();
    }
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// Runs the binary in `dir` with `args` and `stdin`.
pub fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A program that refuses its arguments exits without reading its input.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// Fails the test, showing the program's standard error, unless it succeeded.
pub fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The three worked examples of the assignment: input and expected output.
pub const SPEC_EXAMPLES: [(&str, &str); 3] = [
    (
        "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n",
        "B3 Stake\nX..\n...\n.O.\n",
    ),
    (
        "5\nMINIMAX\nX\n1\n20 16 1 32 30\n20 12 2 11 8\n28 48 9 1 1\n20 12 10 6 2\n25 30 23 21 10\n\
         ..XX.\n..XOX\n...O.\n..OO.\n.....\n",
        "B3 Stake\n..XX.\n..XOX\n.X.O.\n..OO.\n.....\n",
    ),
    (
        "5\nALPHABETA\nX\n4\n20 16 1 32 30\n20 12 2 11 8\n28 48 9 1 1\n20 12 10 6 2\n25 30 23 21 10\n\
         ..XX.\n..XOX\n...O.\n..OO.\n.....\n",
        "C3 Raid\n..XX.\n..XOX\n..XX.\n..XO.\n.....\n",
    ),
];

/// Runs the binary in `dir` with `args`, its standard output a pipe whose
/// read end is closed before the program writes anything; returns how it
/// ended and its standard error.
pub fn run_with_closed_stdout(dir: &Path, args: &[&str]) -> (std::process::ExitStatus, String) {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (child.wait().unwrap(), stderr)
}

/// The input.txt of an empty 8x8 board (values 1..97 in a fixed pattern),
/// ALPHABETA to `depth` for X: to the end of the game, far beyond any
/// test's time.
pub fn empty_8x8_input(depth: u32) -> String {
    let mut text = format!("8\nALPHABETA\nX\n{depth}\n");
    for r in 0..8 {
        let row: Vec<String> = (0..8)
            .map(|c| (1 + (r * 8 + c) * 37 % 97).to_string())
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text.push_str(&"........\n".repeat(8));
    text
}

/// The move on the first line of an output.txt.
pub fn answered_move(output: &[u8]) -> stakeraid::Move {
    let text = std::str::from_utf8(output).unwrap();
    text.lines().next().unwrap().parse().unwrap()
}

/// Runs the binary in `dir` with `args`, its standard output `/dev/full`
/// (every write fails: no space left); returns how it ended and its
/// standard error.
pub fn run_with_full_stdout(dir: &Path, args: &[&str]) -> (std::process::ExitStatus, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Fails the test if a process whose pid is a line of `pids` still runs
/// (`what` names it in the message). A zombie, dead but not yet reaped by
/// whoever adopted it, does not run.
pub fn assert_gone(pids: &str, what: &str) {
    for pid in pids.lines() {
        let pid: libc::pid_t = pid.trim().parse().unwrap();
        assert!(!runs(pid), "{what} {pid} outlived its run");
    }
}

/// Waits up to `limit` for every process whose pid is a line of `pids` to
/// stop running (a process killed on a loaded machine takes a moment to
/// go), then [`assert_gone`].
pub fn wait_gone(pids: &str, what: &str, limit: std::time::Duration) {
    let start = std::time::Instant::now();
    let pids_of = || {
        pids.lines()
            .map(|p| p.trim().parse::<libc::pid_t>().unwrap())
    };
    while pids_of().any(runs) && start.elapsed() < limit {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_gone(pids, what);
}

/// True while process `pid` exists and is not a zombie.
fn runs(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only asks whether the process exists.
    let exists = unsafe { libc::kill(pid, 0) } == 0;
    let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|s| s.trim_start().starts_with('Z'))
    });
    exists && !zombie
}

/// The in-tree textbook search (the oracle every faster search is held
/// to), reached through the public api: `board` with `player` to move,
/// `depth` plies in `mode`, its node count the textbook tree's.
pub fn textbook(board: &Board, player: Player, mode: SearchMode, depth: u32) -> Analysis {
    let position = Position::new(board.clone(), player).expect("a board with a move");
    let limits = Limits {
        engine: Engine::Reference,
        threads: 1,
        ..Limits::to_depth(mode, depth)
    };
    analyse(&position, &limits).expect("an exact analysis")
}

/// The fast exact search `solve` runs, on `threads` threads: `board` with
/// `player` to move, `depth` plies in `mode`.
pub fn fast(
    board: &Board,
    player: Player,
    mode: SearchMode,
    depth: u32,
    threads: usize,
) -> Analysis {
    let position = Position::new(board.clone(), player).expect("a board with a move");
    let limits = Limits {
        threads,
        ..Limits::to_depth(mode, depth)
    };
    analyse(&position, &limits).expect("an exact analysis")
}
