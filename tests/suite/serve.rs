//! `stakeraid serve` through the binary: a scripted session of good, bad
//! and interrupted requests, answered in order while stdin stays open.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{json, Value};
use stakeraid::api::{Analysis, SearchMode};
use stakeraid::{legal_moves, parse_problem};

use crate::util::{empty_8x8_input, textbook, SPEC_EXAMPLES};

/// A running server with its response lines arriving on a channel, so a
/// hung server fails the test instead of hanging it.
pub(crate) struct Server {
    child: Child,
    lines: Receiver<String>,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    /// `stakeraid serve` with `args` after it.
    pub(crate) fn start_with(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
            .arg("serve")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Server { child, lines }
    }

    pub(crate) fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn response(&mut self) -> Value {
        self.response_within(Duration::from_secs(120))
    }

    pub(crate) fn response_within(&mut self, wait: Duration) -> Value {
        let line = self.lines.recv_timeout(wait).unwrap_or_else(|e| {
            let _ = self.child.kill();
            panic!("no response from the server: {e}")
        });
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    pub(crate) fn nothing_pending(&mut self, wait: Duration) {
        if let Ok(line) = self.lines.recv_timeout(wait) {
            panic!("unexpected response {line}");
        }
    }

    /// Closes the server's input and waits for it to end.
    pub(crate) fn close(mut self) -> std::process::ExitStatus {
        drop(self.child.stdin.take());
        self.child.wait().unwrap()
    }
}

/// The responses of the server run with `args` on `script` piped in at
/// once, in a folder of its own; fails unless it exits successfully.
fn piped(args: &[&str], script: &str) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::util::run(dir.path(), args, script.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn analysis(response: &Value) -> Analysis {
    assert_eq!(response["ok"], true, "{response}");
    serde_json::from_value(response["analysis"].clone()).unwrap()
}

/// An empty 8x8 board searched to the end of the game: it never finishes
/// on its own within a test.
fn deep_request(id: &str) -> String {
    let values: Vec<Vec<u32>> = (0..8)
        .map(|r| (0..8).map(|c| 1 + (r * 8 + c) * 37 % 97).collect())
        .collect();
    let cells = vec!["........"; 8];
    json!({"id": id, "position": {"values": values, "cells": cells, "player": "X"}, "depth": 64, "threads": 2})
        .to_string()
}

#[test]
fn scripted_session() {
    let mut server = Server::start();
    let spec = |i: usize| SPEC_EXAMPLES[i].0;

    // Good, malformed, bad board, bad limits: answered in order, by id.
    server.send(&json!({"id": 1, "input": spec(0)}).to_string());
    server.send("this is not json");
    server.send(&json!({"id": "bad-board", "position": {"values": [[1, 2], [3, 4]], "cells": ["X.", ".?"], "player": "O"}, "depth": 2}).to_string());
    server.send(&json!({"id": [4], "input": spec(1), "depth": 0}).to_string());
    server.send(&json!({"id": 5, "input": spec(1), "dpeth": 3}).to_string());
    server.send("");
    server.send(&json!({"id": 6, "input": spec(2).replace("ALPHABETA", "BETA")}).to_string());

    let r = server.response();
    assert_eq!(r["id"], 1);
    let a = analysis(&r);
    assert_eq!(a.output_text(), SPEC_EXAMPLES[0].1);
    assert!(a.exact && !a.stopped);
    let r = server.response();
    assert_eq!(
        (r["id"].clone(), r["ok"].clone()),
        (Value::Null, json!(false)),
        "{r}"
    );
    assert!(
        r["error"].as_str().unwrap().starts_with("bad request"),
        "{r}"
    );
    let r = server.response();
    assert_eq!(
        (r["id"].clone(), r["ok"].clone()),
        (json!("bad-board"), json!(false))
    );
    assert!(
        r["error"].as_str().unwrap().contains("row 2, column 2"),
        "{r}"
    );
    let r = server.response();
    assert_eq!(
        (r["id"].clone(), r["ok"].clone()),
        (json!([4]), json!(false))
    );
    assert!(r["error"].as_str().unwrap().contains("depth"), "{r}");
    let r = server.response();
    assert_eq!((r["id"].clone(), r["ok"].clone()), (json!(5), json!(false)));
    assert!(r["error"].as_str().unwrap().contains("dpeth"), "{r}");
    let r = server.response();
    assert_eq!(
        (r["id"].clone(), r["ok"].clone()),
        (Value::Null, json!(false)),
        "a blank line is answered too"
    );
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .starts_with("bad request: empty line"),
        "{r}"
    );
    let r = server.response();
    assert_eq!((r["id"].clone(), r["ok"].clone()), (json!(6), json!(false)));
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .starts_with("bad request: line 2:"),
        "{r}"
    );

    // A deep search runs until a stop, which is read while it runs.
    server.send(&deep_request("deep"));
    server.nothing_pending(Duration::from_millis(400));
    server.send(&json!({"id": "halt", "cmd": "stop"}).to_string());
    let r = server.response();
    assert_eq!(r["id"], "deep");
    let a = analysis(&r);
    assert!(!a.exact && a.stopped && a.depth >= 1 && a.depth < 64, "{r}");
    assert_eq!(a.requested_depth, 64);
    let problem_board = parse_problem(empty_8x8_input(1).as_bytes()).unwrap().board;
    assert!(legal_moves(&problem_board, stakeraid::Player::X).contains(&a.best));
    if a.depth <= 2 {
        assert_eq!(
            a.best,
            textbook(
                &problem_board,
                stakeraid::Player::X,
                SearchMode::AlphaBeta,
                a.depth
            )
            .best
        );
    }
    let r = server.response();
    assert_eq!(
        (r["id"].clone(), r["ok"].clone(), r["interrupted"].clone()),
        (json!("halt"), json!(true), json!(1))
    );

    // The server keeps serving: a time limit ends a search by itself.
    let mut timed: Value = serde_json::from_str(&deep_request("timed")).unwrap();
    timed["time_ms"] = json!(200);
    server.send(&timed.to_string());
    let r = server.response();
    assert_eq!(r["id"], "timed");
    let a = analysis(&r);
    assert!(!a.exact && a.stopped, "{r}");
    assert!(a.time_us < 20_000_000, "{r}");
    server.nothing_pending(Duration::from_millis(100));

    // A stop also ends the searches queued before it; each still answers.
    server.send(&deep_request("running"));
    server.send(&json!({"id": 7, "input": spec(2), "threads": 1}).to_string());
    server.send(&deep_request("queued"));
    server.send(&json!({"id": 8, "cmd": "stop"}).to_string());
    let r = server.response();
    assert_eq!(r["id"], "running");
    assert!(analysis(&r).stopped);
    let r = server.response();
    assert_eq!(r["id"], 7);
    let a = analysis(&r);
    if a.exact {
        assert_eq!(a.output_text(), SPEC_EXAMPLES[2].1);
    }
    let r = server.response();
    assert_eq!(r["id"], "queued");
    assert!(analysis(&r).stopped);
    let r = server.response();
    assert_eq!(
        (r["id"].clone(), r["interrupted"].clone()),
        (json!(8), json!(3))
    );

    // Everything answered, then the end of input: a clean exit.
    server.send(&json!({"id": 9, "input": spec(2), "mode": "MINIMAX"}).to_string());
    let r = server.response();
    drop(server.child.stdin.take());
    assert_eq!(r["id"], 9);
    let a = analysis(&r);
    assert_eq!(a.output_text(), SPEC_EXAMPLES[2].1);
    assert!(
        a.exact
            && a.moves
                .iter()
                .all(|m| m.bound == stakeraid::api::Bound::Exact)
    );
    assert!(
        server.lines.recv_timeout(Duration::from_secs(30)).is_err(),
        "nothing after the last answer"
    );
    assert!(server.child.wait().unwrap().success());
}

/// Requests piped in all at once (the stdin closes at once; `--finish` is
/// still accepted): every one is answered in full, in order, and a stop in
/// the middle interrupts what came before it.
#[test]
fn piped_requests_are_answered_in_order() {
    let mut script = String::new();
    for i in 0..6 {
        script
            .push_str(&json!({"id": i, "input": SPEC_EXAMPLES[i % 3].0, "threads": 1}).to_string());
        script.push('\n');
    }
    script.push_str(&deep_request("deep"));
    script.push('\n');
    script.push_str("{\"id\": \"stop\", \"cmd\": \"stop\"}\n");
    script.push_str(&json!({"id": "after", "input": SPEC_EXAMPLES[1].0}).to_string());
    script.push('\n');
    let responses = piped(&["serve", "--finish"], &script);
    let ids: Vec<Value> = responses.iter().map(|r| r["id"].clone()).collect();
    let mut expected: Vec<Value> = (0..6).map(|i| json!(i)).collect();
    expected.extend([json!("deep"), json!("stop"), json!("after")]);
    assert_eq!(ids, expected);
    for r in &responses[..7] {
        let a = analysis(r);
        // Stopped or not, the answers are legal and at least depth 1.
        assert!(a.depth >= 1 && (a.exact || a.stopped));
    }
    assert!(
        analysis(&responses[6]).stopped,
        "the deep search was stopped"
    );
    let after = analysis(&responses[8]);
    assert!(after.exact && after.output_text() == SPEC_EXAMPLES[1].1);
}

/// Closing standard input changes no answer: the searches not yet
/// answered run to their own limits, answer, and then the server exits.
#[test]
fn end_of_input_lets_the_searches_finish() {
    let mut script = json!({"id": 1, "input": SPEC_EXAMPLES[2].0}).to_string();
    script.push('\n');
    script.push_str(&json!({"id": 2, "input": empty_8x8_input(5), "threads": 1}).to_string());
    script.push('\n');
    let responses = piped(&["serve"], &script);
    assert_eq!(responses.len(), 2);
    let a = analysis(&responses[0]);
    assert!(a.exact && !a.stopped, "{}", responses[0]);
    assert_eq!(a.output_text(), SPEC_EXAMPLES[2].1);
    let a = analysis(&responses[1]);
    assert!(a.exact && !a.stopped && a.depth == 5, "{}", responses[1]);
}

/// SIGINT and SIGTERM stop the searches not yet answered, as a stop
/// request does: each still answers, and the server exits at once with
/// 128 + the signal, without waiting for the end of its input.
#[test]
fn a_signal_stops_the_searches_and_ends_the_server() {
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let mut server = Server::start();
        // An answer shows the server is up, its signal handlers set.
        server.send(&json!({"id": "ready", "input": SPEC_EXAMPLES[0].0}).to_string());
        assert_eq!(server.response()["id"], "ready");
        server.send(&deep_request("running"));
        server.send(&deep_request("queued"));
        server.nothing_pending(Duration::from_millis(300));
        // SAFETY: a plain signal to the child this test started.
        let pid = i32::try_from(server.child.id()).unwrap();
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
        for id in ["running", "queued"] {
            // Long enough for a loaded machine; a server that ignored the
            // signal would search for hours.
            let r = server.response_within(Duration::from_secs(60));
            assert_eq!(r["id"], id);
            let a = analysis(&r);
            assert!(a.stopped && !a.exact && a.depth >= 1, "{r}");
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = server.child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = server.child.kill();
                panic!("the server did not exit after signal {signal}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(128 + signal));
        assert!(
            server.lines.recv_timeout(Duration::from_secs(5)).is_err(),
            "nothing after the last answer"
        );
    }
}

/// Refused requests say what is wrong in words for a person, and the
/// thread cap of the command line holds for requests too.
#[test]
fn refusals_are_plain_words() {
    let script = [
        "{id: 1}".to_string(),
        "[1, 2]".to_string(),
        r#"{"id": 3, "input": "#.to_string(),
        json!({"id": 4, "input": SPEC_EXAMPLES[0].0, "threads": 9999}).to_string(),
        json!({"id": 5, "input": SPEC_EXAMPLES[0].0, "depth": "deep"}).to_string(),
    ]
    .join("\n");
    let responses = piped(&["serve"], &script);
    assert_eq!(responses.len(), 5);
    let says = [
        "column 2",
        "JSON object",
        "ends inside",
        "0 (one per core) to 256",
        "depth",
    ];
    for (r, says) in responses.iter().zip(says) {
        assert_eq!(r["ok"], false, "{r}");
        let error = r["error"].as_str().unwrap();
        assert!(error.contains(says), "{r}");
        for jargon in ["ident", "line 1 column", "struct"] {
            assert!(!error.contains(jargon), "{r}");
        }
    }
}

/// A request line over the limit is answered with an error, without the
/// server holding it, and the next line is served.
#[test]
fn an_overlong_line_is_refused_and_serving_goes_on() {
    let mut server = Server::start();
    let huge = format!("{{\"id\": 1, \"input\": \"{}\"}}", "9".repeat(32 << 20));
    server.send(&huge);
    server.send(&json!({"id": 2, "input": SPEC_EXAMPLES[0].0}).to_string());
    let r = server.response();
    assert_eq!(
        (r["id"].clone(), r["ok"].clone()),
        (Value::Null, json!(false))
    );
    assert_eq!(r["error"], "bad request: longer than 1048576 bytes", "{r}");
    let r = server.response();
    assert_eq!(r["id"], 2);
    assert_eq!(analysis(&r).output_text(), SPEC_EXAMPLES[0].1);
    #[cfg(target_os = "linux")]
    {
        // The peak resident size shows whether the line was held whole
        // (32 MiB and more) or not (about 20 MiB, most of it the server's
        // own start-up and allocator).
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
        let peak_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap();
        assert!(peak_kb < 28 << 10, "peak resident size {peak_kb} kB");
    }
    drop(server.child.stdin.take());
    assert!(server.child.wait().unwrap().success());
}

/// Every refusal starts with `bad request:`, and a number out of range is
/// refused with its range, in the words the command line and Python use.
#[test]
fn refusals_say_bad_request_and_name_the_range() {
    let grid = json!({"values": [[1, 8], [5, 4]], "cells": ["X.", ".."], "player": "O"});
    let input = SPEC_EXAMPLES[0].0;
    let cases = [
        (
            json!({"position": grid, "depth": 0}),
            "depth must be 1 to 4294967295, got 0",
        ),
        (
            json!({"position": grid, "depth": -1}),
            "depth must be 1 to 4294967295, got -1",
        ),
        (
            json!({"position": grid, "depth": 1e11}),
            "depth must be 1 to 4294967295, got ",
        ),
        (
            json!({"position": grid, "depth": 2, "threads": -1}),
            "threads must be 0 (one per core) to 256, got -1",
        ),
        (
            json!({"position": grid, "depth": 2, "threads": 1000}),
            "threads must be 0 (one per core) to 256, got 1000",
        ),
        (
            json!({"position": grid, "time_ms": -5}),
            "time_ms must be a whole number of milliseconds, 0 or more, got -5",
        ),
        (
            json!({"position": grid, "time_ms": 2.5}),
            "time_ms must be a whole number of milliseconds, 0 or more, got 2.5",
        ),
        (
            json!({"id": 1, "cmd": "go"}),
            r#"bad request: unknown cmd "go" (expected "search" or "stop")"#,
        ),
        (json!({"position": grid}), "a depth, a time limit or both"),
        (json!({}), "no position"),
        (
            json!({"position": grid, "input": input, "depth": 2}),
            "not both",
        ),
        (json!({"input": "3\nMINIMAX\n"}), "line 3"),
        (
            json!({"position": {"values": [[1]], "player": "Q"}, "depth": 1}),
            "unknown player",
        ),
        (
            json!({"input": input.replace("MINIMAX\nO\n2", "COMPETITION\nO\n2.5")}),
            r#"COMPETITION mode has no exact answer: give "mode""#,
        ),
    ];
    let script: Vec<String> = cases.iter().map(|(r, _)| r.to_string()).collect();
    let responses = piped(&["serve"], &script.join("\n"));
    assert_eq!(responses.len(), cases.len());
    for (r, (request, says)) in responses.iter().zip(&cases) {
        let error = r["error"].as_str().unwrap_or_default();
        assert!(error.starts_with("bad request: "), "{request} -> {r}");
        assert!(error.contains(says), "{request} -> {r}");
    }
}

/// A position's `cells` and `player` default as Python's `Position`
/// defaults them: every cell empty, X to move.
#[test]
fn a_position_without_cells_or_player_is_empty_with_x_to_move() {
    let values = json!([[1, 8, 23], [5, 42, 12], [26, 30, 9]]);
    let script = [
        json!({"position": {"values": values}, "depth": 3}),
        json!({"position": {"values": values, "cells": ["...", "...", "..."], "player": "X"}, "depth": 3}),
        json!({"position": {"values": values, "player": "O"}, "depth": 3}),
        json!({"position": {"values": values, "cells": ["...", "...", "..."], "player": "O"}, "depth": 3}),
    ]
    .map(|r| r.to_string())
    .join("\n");
    let responses = piped(&["serve"], &script);
    assert_eq!(responses.len(), 4);
    let answer = |r: &Value| {
        assert_eq!(r["ok"], true, "{r}");
        let a = analysis(r);
        (a.player, a.best, a.value, a.output_text())
    };
    assert_eq!(answer(&responses[0]), answer(&responses[1]));
    assert_eq!(answer(&responses[2]), answer(&responses[3]));
}

/// The serve examples of the README and of docs/library.md, run as shown
/// (requests piped in at once), answer every request exactly: no answer
/// depends on how fast the machine is.
#[test]
fn the_documented_serve_examples_do_not_depend_on_timing() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_stakeraid"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for page in ["README.md", "docs/library.md"] {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        let commands = serve_commands(&text);
        assert!(!commands.is_empty(), "{page} shows no serve example to run");
        for command in commands {
            for _ in 0..2 {
                let out = Command::new("sh")
                    .args(["-c", &command])
                    .env("PATH", &path)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{page}: {command}");
                let lines = String::from_utf8(out.stdout).unwrap();
                assert!(!lines.is_empty(), "{page}: {command}");
                for line in lines.lines() {
                    let r: Value = serde_json::from_str(line).unwrap();
                    let a = analysis(&r);
                    assert!(a.exact && !a.stopped, "{page}: {command}\n{r}");
                }
            }
        }
    }
}

/// The shell commands of a page's ```sh blocks that pipe into `stakeraid
/// serve`, each with its continuation lines, comments dropped.
fn serve_commands(page: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut inside = false;
    let mut command = String::new();
    for line in page.lines() {
        if line.starts_with("```") {
            inside = line == "```sh";
            continue;
        }
        if !inside {
            continue;
        }
        let line = match line.find("  # ") {
            Some(at) => &line[..at],
            None => line,
        };
        command.push_str(line.trim_end_matches('\\'));
        command.push(' ');
        if !line.ends_with('\\') {
            if command.contains("| stakeraid serve") {
                commands.push(command.clone());
            }
            command.clear();
        }
    }
    commands
}
