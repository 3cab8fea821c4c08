//! `stakeraid web`'s caps from the command line: a bad value is one line
//! and exit code 2, and `--searches` bounds the streams that run at once.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The server, killed when dropped.
struct Web {
    child: Child,
    addr: String,
}

impl Web {
    fn start(args: &[&str]) -> Web {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
            .args(["web", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("starting stakeraid web");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("stakeraid web: http://")
            .and_then(|s| s.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Web { child, addr }
    }

    /// A GET as HTTP/1.0 (the body ends with the connection), its status
    /// read and its headers skipped.
    fn get(&self, path: &str) -> (u16, BufReader<TcpStream>) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(s, "GET {path} HTTP/1.0\r\nHost: {}\r\n\r\n", self.addr).unwrap();
        let mut reader = BufReader::new(s);
        let mut head = String::new();
        reader.read_line(&mut head).unwrap();
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 || line.trim().is_empty() {
                break;
            }
        }
        (status, reader)
    }
}

impl Drop for Web {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The next event's name, comments skipped; `None` at the end.
fn next_event(reader: &mut BufReader<TcpStream>) -> Option<String> {
    let mut name = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if let Some(n) = line.strip_prefix("event: ") {
            name = n.to_string();
        } else if line.is_empty() && !name.is_empty() {
            return Some(name);
        }
    }
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

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
    let web = Web::start(&["--searches", "3"]);
    let (status, mut reader) = web.get("/api/random?size=12&seed=5&fill=0.2");
    assert_eq!(status, 200);
    let mut body = String::new();
    reader.read_to_string(&mut body).unwrap();
    let view: Value = serde_json::from_str(&body).unwrap();
    // Far deeper than the test lasts: the searches hold their places.
    let path = format!(
        "/api/analyse?grid={}&mode=ALPHABETA&time_ms=60000",
        encode(&view["grid"].to_string())
    );
    let mut running: Vec<_> = (0..3)
        .map(|_| {
            let (status, mut events) = web.get(&path);
            assert_eq!(status, 200);
            assert_eq!(next_event(&mut events).as_deref(), Some("start"));
            events
        })
        .collect();
    for events in &mut running {
        assert_eq!(next_event(events).as_deref(), Some("depth"));
    }
    let (status, mut refused) = web.get(&path);
    let mut body = String::new();
    refused.read_to_string(&mut body).unwrap();
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("too many searches"), "{body}");

    // A closed stream gives its place back once the server notices (on
    // its next keep-alive write).
    drop(running.pop());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, mut events) = web.get(&path);
        if status == 200 {
            assert_eq!(next_event(&mut events).as_deref(), Some("start"));
            break;
        }
        assert_eq!(status, 503);
        assert!(
            Instant::now() < deadline,
            "the closed stream kept its place"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}
