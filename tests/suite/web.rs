//! `stakeraid web`: the real binary on a free port, asked over plain HTTP.
//! Every expected value comes from the library, never from the server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use stakeraid::api::{analyse, check_move, Grid, Limits, Position, SearchMode};
use stakeraid::{legal_moves, Player};

use crate::util::textbook;

/// The server, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// What the server printed first.
    pub first_line: String,
}

impl Server {
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// `stakeraid web` with `args` besides the port.
    pub fn start_with(args: &[&str]) -> Server {
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
        // The first line is the bare address, as the README shows it.
        let addr = line
            .strip_suffix('\n')
            .and_then(|s| s.strip_prefix("http://127.0.0.1:"))
            .and_then(|s| s.strip_suffix('/'))
            .filter(|port| port.parse::<u16>().is_ok())
            .map(|port| format!("127.0.0.1:{port}"))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
        Server {
            child,
            addr,
            first_line: line,
        }
    }

    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    fn send(&self, method: &str, path: &str, kind: Option<&str>, body: &str) -> TcpStream {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let kind = kind.map_or(String::new(), |k| format!("Content-Type: {k}\r\n"));
        // HTTP/1.0: the body ends when the connection closes, no chunks.
        write!(
            s,
            "{method} {path} HTTP/1.0\r\nHost: {}\r\n{kind}Content-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        s
    }

    /// Status and body.
    pub fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        self.request_as(method, path, Some("application/json"), body)
    }

    /// Status and body of a request whose body has the content type `kind`
    /// (or none).
    pub fn request_as(
        &self,
        method: &str,
        path: &str,
        kind: Option<&str>,
        body: &str,
    ) -> (u16, String) {
        let mut text = String::new();
        self.send(method, path, kind, body)
            .read_to_string(&mut text)
            .unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        (status, body.to_string())
    }

    /// An analysis stream, read event by event.
    pub fn stream(&self, query: &str) -> Events {
        self.events(&format!("/api/analyse?{query}"))
    }

    /// The stream of events at `path`.
    pub fn events(&self, path: &str) -> Events {
        let s = self.send("GET", path, None, "");
        let mut reader = BufReader::new(s);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        // The headers.
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
        }
        Events { status, reader }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct Events {
    pub status: String,
    reader: BufReader<TcpStream>,
}

impl Events {
    /// The next event's name and data, keep-alive comments skipped; `None`
    /// at the end of the stream.
    pub fn next(&mut self) -> Option<(String, Value)> {
        let (mut name, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                data.push_str(d);
            } else if line.is_empty() && !name.is_empty() {
                return Some((name, serde_json::from_str(&data).unwrap()));
            }
        }
    }

    /// Every event until `done` (included).
    pub fn until_done(&mut self) -> Vec<(String, Value)> {
        let mut all = Vec::new();
        while let Some(e) = self.next() {
            let done = e.0 == "done" || e.0 == "error";
            all.push(e);
            if done {
                break;
            }
        }
        all
    }
}

pub fn small_grid() -> Grid {
    serde_json::from_value(json!({
        "values": [[1, 8, 23], [5, 42, 12], [26, 30, 9]],
        "cells": ["X..", "...", "..."], "player": "O"}))
    .unwrap()
}

/// A random position with `n` sides, as the library draws it.
pub fn random_grid(n: usize, seed: u64, fill: f64) -> Grid {
    let mut rng = stakeraid::Rng::new(seed);
    let board = stakeraid::random_board(&mut rng, n, 99, fill);
    Position::new(board, stakeraid::Player::X)
        .unwrap()
        .to_grid()
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

pub fn analyse_query(grid: &Grid, extra: &str) -> String {
    format!(
        "grid={}&{extra}",
        encode(&serde_json::to_string(grid).unwrap())
    )
}

#[test]
fn the_page_and_its_files_are_served() {
    let server = Server::start();
    let (status, body) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(body.contains("<title>stakeraid"), "{body}");
    assert!(body.contains("/app.js"));
    for path in ["/app.js", "/style.css"] {
        let (status, body) = server.request("GET", path, "");
        assert_eq!(status, 200, "{path}");
        assert!(body.len() > 100, "{path}: {body}");
    }
}

#[test]
fn the_streams_last_depth_has_the_librarys_root_values() {
    let server = Server::start();
    for (grid, depth) in [
        (small_grid(), 3),
        (random_grid(5, 7, 0.3), 3),
        (random_grid(4, 3, 0.2), 4),
    ] {
        let mut events = server.stream(&analyse_query(
            &grid,
            &format!("mode=MINIMAX&depth={depth}"),
        ));
        assert!(events.status.contains("200"), "{}", events.status);
        let all = events.until_done();
        let depths = depth_events(&all);
        assert_eq!(depths.len(), depth as usize, "{all:?}");
        let last = depths.last().unwrap();
        let position = Position::from_grid(&grid).unwrap();
        let expected = analyse(&position, &Limits::to_depth(SearchMode::Minimax, depth)).unwrap();
        assert_eq!(
            last["moves"],
            serde_json::to_value(&expected.moves).unwrap()
        );
        assert_eq!(last["best"], expected.best.to_string());
        let (name, done) = all.last().unwrap();
        assert_eq!(name, "done");
        assert_eq!(done["output"], expected.output_text());
        assert_eq!(done["stopped"], false);
    }
}

#[test]
fn a_stop_request_ends_the_stream() {
    let server = Server::start();
    let grid = random_grid(12, 5, 0.2);
    let mut events = server.stream(&analyse_query(&grid, "mode=MINIMAX&time_ms=60000"));
    let (name, start) = events.next().unwrap();
    assert_eq!(name, "start");
    let id = start["id"].as_u64().unwrap();
    // Let it get going: the first depth has been sent.
    assert_eq!(events.next().unwrap().0, "depth");
    let asked = Instant::now();
    let (status, body) = server.request("POST", &format!("/api/stop?id={id}"), "");
    assert_eq!(status, 200, "{body}");
    let all = events.until_done();
    let (name, done) = all.last().unwrap();
    assert_eq!(name, "done");
    assert_eq!(done["stopped"], true);
    assert!(done["analysis"]["depth"].as_u64().unwrap() >= 1);
    assert!(
        asked.elapsed() < Duration::from_secs(30),
        "the stop was not heard"
    );
}

#[test]
fn searches_are_bounded_and_a_dropped_connection_frees_its_place() {
    let server = Server::start();
    let grid = random_grid(12, 9, 0.2);
    let query = analyse_query(&grid, "mode=MINIMAX&time_ms=60000");
    let mut a = server.stream(&query);
    let mut b = server.stream(&query);
    assert_eq!(a.next().unwrap().0, "start");
    assert_eq!(b.next().unwrap().0, "start");
    let c = server.stream(&query);
    assert!(c.status.contains("503"), "{}", c.status);
    drop((a, b, c));
    // The server notices the closed connections on its next write (a
    // keep-alive each second), and the searches stop.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut d = server.stream(&analyse_query(&small_grid(), "depth=2"));
        if d.status.contains("200") {
            assert_eq!(d.until_done().last().unwrap().0, "done");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the dropped searches kept their places"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn bad_requests_are_refused_with_a_message_and_the_server_goes_on() {
    let server = Server::start();
    let grid = serde_json::to_string(&small_grid()).unwrap();
    let cases = [
        ("POST", "/api/play".to_string(), "not json".to_string(), ""),
        (
            "POST",
            "/api/play".into(),
            format!(r#"{{"grid": {grid}, "move": "A1 Stake"}}"#),
            "A1 is taken",
        ),
        (
            "POST",
            "/api/play".into(),
            format!(r#"{{"grid": {grid}, "move": "C3 Raid"}}"#),
            "no O piece next to C3",
        ),
        (
            "POST",
            "/api/play".into(),
            format!(r#"{{"grid": {grid}, "move": "Q9 Stake"}}"#),
            "off the 3x3 board",
        ),
        (
            "POST",
            "/api/parse".into(),
            r#"{"text": "3\nMINIMAX\n"}"#.into(),
            "line",
        ),
        (
            "GET",
            "/api/random?size=99".into(),
            String::new(),
            "size must be from 1 to 26",
        ),
        (
            "GET",
            "/api/analyse?grid=nonsense".into(),
            String::new(),
            "grid",
        ),
        (
            "GET",
            format!("/api/analyse?{}", analyse_query(&small_grid(), "depth=0")),
            String::new(),
            "depth must be at least 1",
        ),
        (
            "POST",
            "/api/tree".into(),
            format!(
                r#"{{"grid": {}, "depth": 3}}"#,
                serde_json::to_string(&random_grid(26, 1, 0.0)).unwrap()
            ),
            "at most",
        ),
        (
            "POST",
            "/api/stop?id=12345".into(),
            String::new(),
            "no running search",
        ),
        (
            "GET",
            format!("/api/engine?{}", analyse_query(&small_grid(), "time_ms=0")),
            String::new(),
            "time_ms must be at least 1",
        ),
        (
            "GET",
            format!("/api/engine?{}", analyse_query(&small_grid(), "time_ms=-5")),
            String::new(),
            r#"time_ms must be at least 1 (a whole number), not "-5""#,
        ),
        (
            "GET",
            format!("/api/analyse?{}", analyse_query(&small_grid(), "depth=-3")),
            String::new(),
            r#"depth must be at least 1 (a whole number), not "-3""#,
        ),
        (
            "GET",
            format!("/api/analyse?{}", analyse_query(&small_grid(), "depth=")),
            String::new(),
            r#"depth must be at least 1 (a whole number), not """#,
        ),
        (
            "GET",
            format!("/api/analyse?{}", analyse_query(&small_grid(), "depth=2.5")),
            String::new(),
            r#"not "2.5""#,
        ),
        (
            "GET",
            format!(
                "/api/analyse?{}",
                analyse_query(&small_grid(), "depth=2&time_ms=0")
            ),
            String::new(),
            "time_ms must be at least 1",
        ),
    ];
    for (method, path, body, says) in cases {
        let (status, answer) = server.request(method, &path, &body);
        assert_eq!(status, 400, "{method} {path}: {answer}");
        let error: Value =
            serde_json::from_str(&answer).unwrap_or_else(|_| panic!("not JSON: {answer}"));
        let message = error["error"].as_str().unwrap();
        assert!(
            message.contains(says),
            "{path}: {message:?} does not say {says:?}"
        );
    }
    // A huge body is refused from its announced length, before it is sent.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    write!(
        s,
        "POST /api/play HTTP/1.0\r\nContent-Length: {}\r\n\r\n{{",
        1 << 20
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.0 413"), "{answer}");
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    let error: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {answer}"));
    assert!(
        error["error"].as_str().unwrap().contains("over 64 KiB"),
        "{answer}"
    );
    let (status, answer) = server.request(
        "POST",
        "/api/play",
        &format!(r#"{{"grid": {grid}, "move": "B2 Stake"}}"#),
    );
    assert_eq!(status, 200, "{answer}");
    let played: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(played["grid"]["cells"][1], ".O.");
    assert_eq!(played["grid"]["player"], "X");
}

#[test]
fn the_tree_counts_are_the_textbook_counts() {
    let server = Server::start();
    for grid in [small_grid(), random_grid(3, 4, 0.1), random_grid(3, 8, 0.3)] {
        let body = json!({ "grid": grid, "depth": 3 }).to_string();
        let (status, answer) = server.request("POST", "/api/tree", &body);
        assert_eq!(status, 200, "{answer}");
        let tree: Value = serde_json::from_str(&answer).unwrap();
        let position = Position::from_grid(&grid).unwrap();
        let (board, player) = (position.board(), position.player());
        let minimax = textbook(board, player, SearchMode::Minimax, 3);
        let alphabeta = textbook(board, player, SearchMode::AlphaBeta, 3);
        assert_eq!(tree["nodes_minimax"], minimax.nodes);
        assert_eq!(tree["nodes_alphabeta"], alphabeta.nodes);
        assert_eq!(tree["best"], alphabeta.best.to_string());
        assert_eq!(tree["value"], alphabeta.value);
        assert!(alphabeta.nodes < minimax.nodes, "nothing was cut");
        // Every node the tree draws is one the search visited.
        fn count(node: &Value) -> u64 {
            1 + node["children"]
                .as_array()
                .unwrap()
                .iter()
                .map(count)
                .sum::<u64>()
        }
        assert_eq!(count(&tree["root"]), alphabeta.nodes);
    }
}

/// A 5x5 position with 18 empty cells, X to move: its last depths take
/// seconds.
fn deep_grid() -> Grid {
    let mut rng = stakeraid::Rng::new(11);
    loop {
        let board = stakeraid::random_board(&mut rng, 5, 99, 0.28);
        if board.empty_count() == 18 {
            return Position::new(board, Player::X).unwrap().to_grid();
        }
    }
}

#[test]
fn a_long_depth_sends_its_progress_before_it_ends() {
    let server = Server::start();
    let grid = deep_grid();
    let mut events = server.stream(&analyse_query(
        &grid,
        "mode=ALPHABETA&depth=18&time_ms=120000",
    ));
    let all = events.until_done();
    let (name, done) = all.last().unwrap();
    assert_eq!(name, "done", "{all:?}");
    assert_eq!(done["stopped"], false);
    let position = Position::from_grid(&grid).unwrap();
    let expected = analyse(&position, &Limits::to_depth(SearchMode::AlphaBeta, 18)).unwrap();
    assert_eq!(done["analysis"]["best"], expected.best.to_string());
    assert_eq!(done["analysis"]["value"], expected.value);

    // The progress sent while the last depth ran, between the depth events
    // of 17 and 18.
    let depth_at = |d: u64| {
        all.iter()
            .position(|(name, e)| name == "depth" && e["depth"] == d)
            .unwrap_or_else(|| panic!("no depth {d} in {all:?}"))
    };
    let last: Vec<&Value> = all[depth_at(17)..depth_at(18)]
        .iter()
        .filter(|(name, _)| name == "progress")
        .map(|(_, e)| e)
        .collect();
    assert!(
        last.len() >= 2,
        "{} progress events in the last depth",
        last.len()
    );
    let nodes: Vec<u64> = last
        .iter()
        .map(|p| p["total_nodes"].as_u64().unwrap())
        .collect();
    assert!(
        nodes.windows(2).all(|w| w[0] <= w[1]) && nodes[0] < nodes[nodes.len() - 1],
        "the node counts do not grow: {nodes:?}"
    );
    // The counts cover every depth so far, and the last depth's count is
    // the truth they approach.
    let before = all[depth_at(17)].1["total_nodes"].as_u64().unwrap();
    let after = all[depth_at(18)].1["total_nodes"].as_u64().unwrap();
    assert!(
        before <= nodes[0] && nodes[nodes.len() - 1] <= after,
        "{before} {nodes:?} {after}"
    );
    for p in &last {
        assert_eq!(p["depth"], 18);
        assert!(p["elapsed_us"].as_u64().unwrap() > 0);
    }
    // Where the root stands, once the engine reports it: a legal move, the
    // one being searched among the root's moves.
    let legal: Vec<String> = legal_moves(position.board(), Player::X)
        .iter()
        .map(ToString::to_string)
        .collect();
    let roots: Vec<&Value> = last
        .iter()
        .map(|p| &p["root"])
        .filter(|r| !r.is_null())
        .collect();
    assert!(!roots.is_empty(), "no root progress in {last:?}");
    for r in roots {
        let (number, moves) = (r["number"].as_u64().unwrap(), r["moves"].as_u64().unwrap());
        assert!(
            1 <= number && number <= moves && moves <= legal.len() as u64,
            "{r}"
        );
        assert!(
            r["lo"].as_i64().unwrap() <= r["hi"].as_i64().unwrap(),
            "{r}"
        );
        let best = r["best"].as_str().unwrap();
        assert!(legal.iter().any(|m| m == best), "{r}");
    }
}

#[test]
fn the_engine_plays_a_legal_move_within_its_time() {
    let server = Server::start();
    // 25 empty cells: too many to solve, so the move uses its time.
    let grid = random_grid(6, 21, 0.3);
    let position = Position::from_grid(&grid).unwrap();
    let (board, player) = (position.board(), position.player());
    let budget = Duration::from_millis(1000);
    let asked = Instant::now();
    let mut events = server.events(&format!(
        "/api/engine?{}",
        analyse_query(&grid, &format!("time_ms={}", budget.as_millis()))
    ));
    let all = events.until_done();
    let took = asked.elapsed();
    let (name, done) = all.last().unwrap();
    assert_eq!(name, "done", "{all:?}");
    assert!(
        took < budget + Duration::from_secs(1),
        "the move took {took:?}"
    );
    // A time per move, not a share of a game's: the engine uses it.
    assert!(took >= budget / 2, "the move took only {took:?}");
    let mv: stakeraid::Move = done["move"].as_str().unwrap().parse().unwrap();
    assert_eq!(check_move(board, player, mv), Ok(()));
    assert_eq!(done["output"], stakeraid::answer_text(board, player, mv));
    assert_eq!(done["stopped"], false);
    assert_eq!(all[0].0, "start");
    assert_eq!(all[0].1["time_us"], budget.as_micros() as u64);
    let progress: Vec<&Value> = all
        .iter()
        .filter(|e| e.0 == "progress")
        .map(|e| &e.1)
        .collect();
    assert!(
        !progress.is_empty(),
        "the engine thought in silence: {all:?}"
    );
    assert!(progress.iter().all(|p| p["depth"].is_null()));
    let thought = progress.last().unwrap()["total_nodes"].as_u64().unwrap();
    assert!(0 < thought && thought <= done["total_nodes"].as_u64().unwrap());

    // More time than the server gives one search is cut to its cap; a stop
    // ends the move at once, with a legal move.
    let cap = stakeraid::web::Caps::default().max_time;
    let mut events = server.events(&format!(
        "/api/engine?{}",
        analyse_query(&grid, "time_ms=1000000000")
    ));
    let (name, start) = events.next().unwrap();
    assert_eq!(name, "start");
    assert_eq!(start["time_us"], cap.as_micros() as u64);
    let id = start["id"].as_u64().unwrap();
    let asked = Instant::now();
    let (status, body) = server.request("POST", &format!("/api/stop?id={id}"), "");
    assert_eq!(status, 200, "{body}");
    let all = events.until_done();
    let (name, done) = all.last().unwrap();
    assert_eq!(name, "done", "{all:?}");
    assert_eq!(done["stopped"], true);
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "the stop was not heard"
    );
    let mv: stakeraid::Move = done["move"].as_str().unwrap().parse().unwrap();
    assert_eq!(check_move(board, player, mv), Ok(()));
}

#[test]
fn the_view_takes_what_the_librarys_check_takes() {
    let server = Server::start();
    let view =
        |grid: &Grid| server.request("POST", "/api/view", &serde_json::to_string(grid).unwrap());
    // Every side the page can draw, and a finished game.
    let mut grids: Vec<Grid> = (1..=26).map(|n| random_grid(n, n as u64, 0.3)).collect();
    let mut full = small_grid();
    full.cells = vec!["XOX".into(), "OXO".into(), "XOO".into()];
    grids.push(full);
    for grid in &grids {
        let (status, answer) = view(grid);
        assert_eq!(status, 200, "{answer}");
        let answer: Value = serde_json::from_str(&answer).unwrap();
        let (board, player) = grid.check().unwrap();
        assert_eq!(answer["grid"], serde_json::to_value(grid).unwrap());
        assert_eq!(answer["score_x"], board.score(Player::X));
        assert_eq!(answer["over"], board.is_full());
        let legal: Vec<String> = legal_moves(&board, player)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(answer["legal"], json!(legal));
    }
    // Refused with the library's own message.
    let mut refused = Vec::new();
    let mut g = small_grid();
    g.values.clear();
    g.cells.clear();
    refused.push(g);
    let mut g = random_grid(26, 1, 0.3);
    g.values.push(g.values[0].clone());
    g.cells.push(g.cells[0].clone());
    refused.push(g);
    for bad in [-1, i64::from(i32::MAX) + 1] {
        let mut g = small_grid();
        g.values[2][1] = bad;
        refused.push(g);
    }
    let mut g = small_grid();
    g.values[1].pop();
    refused.push(g);
    let mut g = small_grid();
    g.cells[2] = "....".into();
    refused.push(g);
    let mut g = small_grid();
    g.cells[0] = "X.?".into();
    refused.push(g);
    let mut g = small_grid();
    g.player = "Z".into();
    refused.push(g);
    for grid in &refused {
        let expected = grid.check().unwrap_err().to_string();
        let (status, answer) = view(grid);
        assert_eq!(status, 400, "{answer}");
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(answer["error"], expected);
    }
    // And the server goes on.
    let (status, answer) = view(&small_grid());
    assert_eq!(status, 200, "{answer}");
}

#[test]
fn the_first_line_is_the_address_the_readme_shows() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = &readme[readme
        .find("## Web analysis board")
        .expect("the web section")..];
    assert!(section.contains("The first line printed is the address."));
    let command = section
        .lines()
        .find(|l| l.starts_with("stakeraid web "))
        .expect("the README's web command");
    let shown = command
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .expect("the address the README shows");
    let server = Server::start();
    let port = server.addr.rsplit(':').next().unwrap();
    // The README shows the default port; the test asked for any free one.
    assert_eq!(
        server.first_line,
        format!("{}\n", shown.replace(":8080/", &format!(":{port}/")))
    );
    let (status, page) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("<title>stakeraid"));
}

#[test]
fn post_bodies_are_json_whatever_their_content_type() {
    let server = Server::start();
    let grid = serde_json::to_string(&small_grid()).unwrap();
    let position = Position::from_grid(&small_grid()).unwrap();
    let input = stakeraid::input_text(&stakeraid::Problem {
        board: position.board().clone(),
        player: position.player(),
        question: stakeraid::Question::Exact {
            mode: SearchMode::Minimax,
            depth: 2,
        },
    });
    let requests = [
        (
            "/api/play",
            format!(r#"{{"grid": {grid}, "move": "B2 Stake"}}"#),
        ),
        ("/api/view", grid.clone()),
        ("/api/parse", json!({ "text": input }).to_string()),
        (
            "/api/export",
            format!(r#"{{"grid": {grid}, "mode": "MINIMAX", "depth": 2}}"#),
        ),
        ("/api/tree", format!(r#"{{"grid": {grid}, "depth": 2}}"#)),
    ];
    // `curl -d` sends a form's type; a script may send none at all.
    let kinds = [
        Some("application/json"),
        None,
        Some("application/x-www-form-urlencoded"),
        Some("text/plain"),
    ];
    for (path, body) in &requests {
        let (status, expected) = server.request("POST", path, body);
        assert_eq!(status, 200, "{path}: {expected}");
        for kind in kinds {
            let (status, answer) = server.request_as("POST", path, kind, body);
            assert_eq!(status, 200, "{path} as {kind:?}: {answer}");
            assert_eq!(answer, expected, "{path} as {kind:?}");
        }
    }
    assert_eq!(
        server
            .request_as("POST", "/api/export", None, &requests[3].1)
            .1,
        input
    );
    // Not JSON is still refused, with a message.
    let (status, answer) = server.request_as("POST", "/api/play", None, "grid=1");
    assert_eq!(status, 400, "{answer}");
    let error: Value = serde_json::from_str(&answer).unwrap();
    assert!(
        error["error"].as_str().unwrap().contains("JSON"),
        "{answer}"
    );
}

#[test]
fn flipped_cells_are_named_as_moves_name_them() {
    let server = Server::start();
    let mut raids = 0;
    for seed in 1..=4 {
        let grid = random_grid(5, seed, 0.5);
        let position = Position::from_grid(&grid).unwrap();
        let (board, player) = (position.board(), position.player());
        for mv in legal_moves(board, player).iter().copied() {
            if mv.kind() != stakeraid::MoveKind::Raid {
                continue;
            }
            let mut game = stakeraid::Game::new(board, player);
            game.play(mv);
            let expected = flipped_names(&game);
            let body = json!({ "grid": grid, "move": mv.to_string() }).to_string();
            let (status, answer) = server.request("POST", "/api/play", &body);
            assert_eq!(status, 200, "{mv}: {answer}");
            let played: Value = serde_json::from_str(&answer).unwrap();
            assert_eq!(played["flipped"], json!(expected), "{mv}");
            raids += usize::from(!expected.is_empty());
        }
    }
    assert!(raids > 0, "no Raid flipped anything");
}

#[test]
fn a_stopped_analysis_says_what_was_asked_and_is_not_exact() {
    let server = Server::start();
    // 39 empty cells: depth 30 is far beyond what 1.5 s reaches.
    let grid = random_grid(7, 3, 0.2);
    let position = Position::from_grid(&grid).unwrap();
    let time = Duration::from_millis(1500);
    let mut events = server.stream(&analyse_query(
        &grid,
        &format!("mode=ALPHABETA&depth=30&time_ms={}", time.as_millis()),
    ));
    let all = events.until_done();
    let (name, done) = all.last().unwrap();
    assert_eq!(name, "done", "{all:?}");
    assert_eq!(done["stopped"], true);
    // The library's answer to the same request.
    let limits = Limits {
        depth: Some(30),
        time: Some(time),
        threads: 1,
        ..Limits::to_depth(SearchMode::AlphaBeta, 30)
    };
    let library = analyse(&position, &limits).unwrap();
    assert!(!library.exact && library.stopped);
    let a = &done["analysis"];
    assert_eq!(a["requested_depth"], library.requested_depth, "{a}");
    assert_eq!(a["exact"], false, "{a}");
    assert_eq!(a["stopped"], true, "{a}");
    assert!(a["depth"].as_u64().unwrap() < u64::from(library.requested_depth));
    for d in depth_events(&all) {
        assert_eq!(d["requested_depth"], library.requested_depth, "{d}");
        assert_eq!(d["exact"], false, "{d}");
    }

    // A search that reaches its depth answers exactly, and only its last
    // depth is the answer.
    let mut events = server.stream(&analyse_query(&small_grid(), "mode=MINIMAX&depth=3"));
    let all = events.until_done();
    let depths = depth_events(&all);
    assert_eq!(depths.len(), 3);
    for d in &depths {
        assert_eq!(d["requested_depth"], 3);
        assert_eq!(d["exact"], d["depth"] == 3, "{d}");
    }
    let (name, done) = all.last().unwrap();
    assert_eq!(name, "done");
    let expected = analyse(
        &Position::from_grid(&small_grid()).unwrap(),
        &Limits::to_depth(SearchMode::Minimax, 3),
    )
    .unwrap();
    assert_eq!(
        done["analysis"]["requested_depth"],
        expected.requested_depth
    );
    assert_eq!(done["analysis"]["exact"], true);
    assert_eq!(done["analysis"]["stopped"], false);
}

#[test]
fn the_engine_takes_a_default_time_as_the_analysis_does() {
    let server = Server::start();
    let grid = small_grid();
    let position = Position::from_grid(&grid).unwrap();
    for path in ["/api/engine", "/api/analyse"] {
        let mut events = server.events(&format!("{path}?{}", analyse_query(&grid, "")));
        assert!(events.status.contains("200"), "{path}: {}", events.status);
        let all = events.until_done();
        assert_eq!(all[0].0, "start", "{path}: {all:?}");
        let (name, done) = all.last().unwrap();
        assert_eq!(name, "done", "{path}: {all:?}");
        let best = done["move"].as_str().or(done["analysis"]["best"].as_str());
        let mv: stakeraid::Move = best.unwrap().parse().unwrap();
        assert_eq!(check_move(position.board(), position.player(), mv), Ok(()));
    }
    // The web guide's default: 2 s for a move.
    let mut events = server.events(&format!("/api/engine?{}", analyse_query(&grid, "")));
    let (_, start) = events.next().unwrap();
    assert_eq!(start["time_us"], 2_000_000);
}

#[test]
fn a_competition_input_is_read_with_its_time() {
    let server = Server::start();
    let text = "3\nCOMPETITION\nO\n12.5\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";
    let (status, answer) =
        server.request("POST", "/api/parse", &json!({ "text": text }).to_string());
    assert_eq!(status, 200, "{answer}");
    let parsed: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(parsed["mode"], "COMPETITION");
    assert_eq!(parsed["depth"], Value::Null);
    assert_eq!(parsed["seconds"], 12.5);
}

#[test]
fn the_icon_and_the_first_position_are_served() {
    let server = Server::start();
    let (_, page) = server.request("GET", "/", "");
    let link = page
        .lines()
        .find(|l| l.contains(r#"rel="icon""#))
        .expect("the page links an icon");
    let href = link
        .split("href=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    for path in [href, "/favicon.ico"] {
        let (status, body) = server.request("GET", path, "");
        assert_eq!(status, 200, "{path}");
        assert!(body.contains("<svg"), "{path}: {body}");
    }
    // The page opens on the example input, which the library reads.
    let (status, text) = server.request("GET", "/example.txt", "");
    assert_eq!(status, 200);
    let example =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/input.txt"))
            .unwrap();
    assert_eq!(text, example);
    stakeraid::parse_problem(text.as_bytes()).unwrap();
}

#[test]
fn the_guides_curl_example_answers_as_it_says() {
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/web.md")).unwrap();
    let command = guide
        .lines()
        .find(|l| l.starts_with("curl -d '"))
        .expect("the web guide's curl example");
    let (body, url) = command["curl -d '".len()..]
        .split_once("' ")
        .expect("a body in quotes, then the address");
    let path = url
        .trim()
        .strip_prefix("http://127.0.0.1:8080")
        .expect("the default address");
    let server = Server::start();
    // What `curl -d` sends: a form's content type, the JSON as it is.
    let (status, answer) = server.request_as(
        "POST",
        path,
        Some("application/x-www-form-urlencoded"),
        body,
    );
    assert_eq!(status, 200, "{answer}");
    let answer: Value = serde_json::from_str(&answer).unwrap();
    let request: Value = serde_json::from_str(body).unwrap();
    let grid: Grid = serde_json::from_value(request["grid"].clone()).unwrap();
    let mv: stakeraid::Move = request["move"].as_str().unwrap().parse().unwrap();
    let (board, player) = grid.check().unwrap();
    let mut game = stakeraid::Game::new(&board, player);
    game.play(mv);
    let flipped = flipped_names(&game);
    assert_eq!(answer["move"], mv.to_string());
    assert_eq!(answer["flipped"], json!(flipped));
    // What the guide says it answers.
    for shown in [
        format!("`\"move\": \"{mv}\"`"),
        format!(
            "`\"flipped\": {}`",
            json!(flipped).to_string().replace(',', ", ")
        ),
    ] {
        assert!(guide.contains(&shown), "the web guide does not say {shown}");
    }
}

/// The cells the game's last move turned over, named as moves name them.
fn flipped_names(game: &stakeraid::Game) -> Vec<String> {
    game.last_move()
        .unwrap()
        .flipped
        .iter()
        .map(|&(r, c)| stakeraid::Move::new(r, c, stakeraid::MoveKind::Stake).cell_name())
        .collect()
}

/// The analyses of a stream's `depth` events, in order.
fn depth_events(all: &[(String, Value)]) -> Vec<&Value> {
    all.iter()
        .filter(|e| e.0 == "depth")
        .map(|e| &e.1)
        .collect()
}
