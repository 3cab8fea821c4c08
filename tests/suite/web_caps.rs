//! `stakeraid web`'s caps from the command line: a bad value is one line
//! and exit code 2, and `--searches` bounds the streams that run at once.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use stakeraid::api::Grid;

use crate::web::{analyse_query, Server};

/// Runs `stakeraid web ARGS`, killed after 10 s: a value wrongly taken
/// would otherwise serve for ever and hang the test.
fn run_briefly(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .arg("web")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    child.wait_with_output().unwrap()
}

#[test]
fn a_bad_cap_is_one_line_and_exit_code_2() {
    for (args, says) in [
        (&["--searches", "0"][..], "from 1 to 1024"),
        (&["--searches", "1025"], "from 1 to 1024"),
        (&["--searches", "-3"], "from 1 to 1024"),
        (&["--search-threads", "0"], "from 1 to 256"),
        (&["--search-threads", "257"], "from 1 to 256"),
        (&["--max-time", "0"], "above 0"),
        (&["--max-time", "-1"], "above 0"),
        (&["--max-time", "1e30"], "at most 1e9"),
        (&["--max-time", "soon"], "above 0"),
    ] {
        let out = run_briefly(&[&["--port", "0"], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains(args[0]) && err.contains(says),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let help = String::from_utf8(run_briefly(&["--help"]).stdout).unwrap();
    for (flag, default) in [
        ("--searches <N>", "[default: 2]"),
        ("--search-threads <N>", "[default: 1]"),
        ("--max-time <SECONDS>", "[default: 60]"),
    ] {
        let entry = help.split(flag).nth(1).unwrap_or_else(|| panic!("{help}"));
        // Up to the next flag.
        let entry = entry.split("\n  -").next().unwrap();
        assert!(entry.contains(default), "{flag}: {entry}");
    }
}

#[test]
fn searches_bound_the_streams_that_run_at_once() {
    let web = Server::start_with(&["--searches", "3"]);
    let (status, body) = web.request("GET", "/api/random?size=12&seed=5&fill=0.2", "");
    assert_eq!(status, 200, "{body}");
    let view: Value = serde_json::from_str(&body).unwrap();
    let grid: Grid = serde_json::from_value(view["grid"].clone()).unwrap();
    // Far deeper than the test lasts: the searches hold their places.
    let query = analyse_query(&grid, "mode=ALPHABETA&time_ms=60000");
    let path = format!("/api/analyse?{query}");
    let mut running: Vec<_> = (0..3)
        .map(|_| {
            let mut events = web.stream(&query);
            assert!(events.status.contains(" 200 "), "{}", events.status);
            assert_eq!(events.next().map(|e| e.0).as_deref(), Some("start"));
            events
        })
        .collect();
    for events in &mut running {
        assert_eq!(events.next().map(|e| e.0).as_deref(), Some("depth"));
    }
    let (status, body) = web.request("GET", &path, "");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("too many searches"), "{body}");

    // A closed stream gives its place back once the server notices (on
    // its next keep-alive write).
    drop(running.pop());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut events = web.stream(&query);
        if events.status.contains(" 200 ") {
            assert_eq!(events.next().map(|e| e.0).as_deref(), Some("start"));
            break;
        }
        assert!(events.status.contains(" 503 "), "{}", events.status);
        assert!(
            Instant::now() < deadline,
            "the closed stream kept its place"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}
