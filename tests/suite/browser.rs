//! The page in a real headless Chromium, driven over the DevTools protocol:
//! loading an input.txt, moves by mouse click, the heat map against
//! `solve --json`, a stop, the exported output.txt against `solve`'s bytes,
//! the tree's node counts and the positions its nodes show on hover, whole
//! games against the engine at a depth and at a time per move. Screenshots
//! land in target/web-screenshots/.
//!
//! Without a `chromium` on the PATH the test says it skipped, and fails
//! when `CI` is set (CI installs it first).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use stakeraid::api::{analyse, check_move, Limits, Position, SearchMode};
use stakeraid::search::reference;
use tungstenite::{Message, WebSocket};

use super::web::Server;

/// The example input: 3x3, O to move, MINIMAX to depth 3.
const INPUT: &str = "3\nMINIMAX\nO\n3\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";

struct Browser {
    child: Child,
    ws: WebSocket<TcpStream>,
    next: u64,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

impl Browser {
    fn start(exe: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--no-first-run",
                "--window-size=1300,1000",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting chromium");
        let mut port = None;
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut seen = String::new();
        for _ in 0..200 {
            let mut line = String::new();
            if stderr.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            seen.push_str(&line);
            if let Some(rest) = line
                .trim()
                .strip_prefix("DevTools listening on ws://127.0.0.1:")
            {
                port = rest.split('/').next().map(String::from);
                break;
            }
        }
        // Chromium keeps writing to stderr; a full pipe would stall it.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let port = port.unwrap_or_else(|| panic!("no DevTools address in:\n{seen}"));
        let page = page_socket(&port);
        let stream = TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let (ws, _) = tungstenite::client(page.as_str(), stream).expect("DevTools handshake");
        let mut b = Browser {
            child,
            ws,
            next: 1,
            _profile: profile,
        };
        b.call("Page.enable", json!({}));
        b
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        let msg = json!({ "id": id, "method": method, "params": params }).to_string();
        self.ws.send(Message::text(msg)).unwrap();
        loop {
            let Message::Text(text) = self.ws.read().unwrap() else {
                continue;
            };
            let v: Value = serde_json::from_str(&text).unwrap();
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression (promises awaited).
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": expr, "awaitPromise": true, "returnByValue": true }),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits until `expr` is true.
    fn wait(&mut self, expr: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.eval(&format!("!!({expr})")) != json!(true) {
            if Instant::now() > deadline {
                let state = self.eval(
                    "[document.getElementById('status').textContent, document.getElementById('error').textContent, \
                     [...document.querySelectorAll('#moves li')].map((li) => li.textContent).join(', ')]",
                );
                panic!("timed out waiting for {what}; status, error, moves: {state}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The middle of the element `selector`, scrolled into view (to the
    /// `block` of the window: `center`, or `nearest` for as little
    /// scrolling as will do).
    fn middle(&mut self, selector: &str, block: &str) -> (f64, f64) {
        let rect = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); e.scrollIntoView({{ block: {block:?} }}); \
             const r = e.getBoundingClientRect(); \
             return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        (rect[0].as_f64().unwrap(), rect[1].as_f64().unwrap())
    }

    /// Moves the mouse to `(x, y)`: the elements it enters and leaves get
    /// their mouseenter and mouseleave.
    fn move_mouse(&mut self, (x, y): (f64, f64)) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseMoved", "x": x, "y": y }),
        );
    }

    /// The pieces the board shows, one string of `X`, `O` and `.` per row.
    fn board_cells(&mut self) -> String {
        let cells = self.eval(
            "(() => { const cells = [...document.querySelectorAll('#board .cell')]; \
             const n = Math.round(Math.sqrt(cells.length)); \
             const sym = (d) => d.querySelector('.p') ? d.querySelector('.p').textContent : '.'; \
             return [...Array(n).keys()].map((r) => cells.slice(r * n, r * n + n).map(sym).join('') + '\\n').join(''); })()",
        );
        cells.as_str().unwrap().to_string()
    }

    /// A real mouse click in the middle of the element `selector`.
    fn click(&mut self, selector: &str, shift: bool) {
        let (x, y) = self.middle(selector, "center");
        let modifiers = if shift { 8 } else { 0 };
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1, "modifiers": modifiers }),
            );
        }
    }

    fn screenshot(&mut self, name: &str) {
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let data = shot["data"].as_str().unwrap();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), base64(data)).unwrap();
    }
}

/// The DevTools socket of the first page, from `/json/list`.
fn page_socket(port: &str) -> String {
    let s = TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    write!(
        &s,
        "GET /json/list HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )
    .unwrap();
    // Chromium keeps the connection open: read the announced length.
    let mut reader = BufReader::new(s);
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap();
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let body = String::from_utf8(body).unwrap();
    let targets: Vec<Value> = serde_json::from_str(&body).unwrap();
    targets
        .iter()
        .find(|t| t["type"] == "page")
        .and_then(|t| t["webSocketDebuggerUrl"].as_str())
        .expect("a page target")
        .to_string()
}

fn base64(text: &str) -> Vec<u8> {
    let digit = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(digit).collect();
    bytes
        .chunks(4)
        .flat_map(|q| {
            let n = q.iter().fold(0u32, |n, &d| n << 6 | u32::from(d)) << (6 * (4 - q.len()));
            let out = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            out.into_iter().take(q.len() - 1)
        })
        .collect()
}

/// `stakeraid solve` on `input`: (output.txt bytes, the JSON of `--json`).
fn solve(input: &str) -> (String, Value) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("input.txt"), input).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(["solve", "--json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = serde_json::from_slice(&out.stdout).unwrap();
    let output = std::fs::read_to_string(dir.path().join("output.txt")).unwrap();
    (output, json)
}

#[test]
fn the_page_in_a_headless_browser() {
    let Some(exe) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is not installed, and CI needs the browser test"
        );
        eprintln!("skipping the browser test: no chromium on the PATH");
        return;
    };
    let server = Server::start();
    let mut b = Browser::start(&exe);
    b.call("Page.navigate", json!({ "url": server.url() }));
    b.wait(
        "document.querySelectorAll('#board .cell').length === 25",
        "the first board",
    );

    // Loading an input.txt.
    b.eval(&format!("document.getElementById('input').value = {INPUT:?}; document.getElementById('load').click()"));
    b.wait(
        "document.querySelectorAll('#board .cell').length === 9",
        "the loaded board",
    );
    assert_eq!(
        b.eval("document.querySelector('[data-cell=A1] .p').textContent"),
        "X"
    );
    assert_eq!(
        b.eval("document.getElementById('turn').textContent"),
        "O to move"
    );

    // Moves by click: a Stake, a refused move, a Raid with shift, undo.
    b.click("[data-cell=B2]", false);
    b.wait(
        "document.querySelectorAll('#moves li').length === 1",
        "the first move",
    );
    assert_eq!(
        b.eval("document.querySelector('[data-cell=B2] .p').textContent"),
        "O"
    );
    assert_eq!(
        b.eval("document.getElementById('turn').textContent"),
        "X to move"
    );
    b.click("[data-cell=A1]", false);
    b.wait(
        "document.getElementById('error').textContent.includes('A1 is taken')",
        "the refusal",
    );
    b.click("[data-cell=A2]", true);
    b.wait(
        "document.querySelectorAll('#moves li').length === 2",
        "the Raid",
    );
    assert_eq!(
        b.eval("document.querySelector('#moves li:last-child').textContent"),
        "X A2 Raid"
    );
    // The Raid turned O's B2 over, and the page marks it.
    assert_eq!(
        b.eval("document.querySelector('[data-cell=B2] .p').textContent"),
        "X"
    );
    assert_eq!(
        b.eval("document.querySelector('[data-cell=B2]').classList.contains('flipped')"),
        true
    );
    b.eval("document.getElementById('undo').click(); document.getElementById('undo').click()");
    b.wait(
        "!document.querySelector('[data-cell=B2] .p')",
        "the start position again",
    );

    // The heat map against solve --json, and the exported output.txt
    // against solve's bytes.
    b.eval("document.getElementById('analyse').click()");
    b.wait("document.body.dataset.analysis === 'done'", "the analysis");
    let (output, solved) = solve(INPUT);
    let mut expected = std::collections::BTreeMap::<String, i64>::new();
    for m in solved["moves"].as_array().unwrap() {
        let cell = m["move"]
            .as_str()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        let v = m["value"].as_i64().unwrap();
        let e = expected.entry(cell).or_insert(v);
        *e = (*e).max(v);
    }
    let shown: Value = b.eval(
        "Object.fromEntries([...document.querySelectorAll('#board .cell')]\
         .filter((d) => d.querySelector('.h'))\
         .map((d) => [d.dataset.cell, Number(d.querySelector('.h').dataset.value)]))",
    );
    assert_eq!(shown, serde_json::to_value(&expected).unwrap());
    assert_eq!(
        b.eval("document.querySelector('.cell.best').dataset.cell"),
        solved["best"].as_str().unwrap().split(' ').next().unwrap()
    );
    b.screenshot("board-heat-map.png");
    b.eval("document.getElementById('export-output').click()");
    assert_eq!(
        b.eval("document.getElementById('export').textContent"),
        output
    );
    b.eval("document.getElementById('export-input').click()");
    b.wait(
        "document.getElementById('export').textContent.startsWith('3\\nMINIMAX')",
        "the input.txt",
    );
    assert_eq!(
        b.eval("document.getElementById('export').textContent"),
        INPUT
    );

    // The tree of a 3x3 depth-3 search against the textbook counts.
    b.eval(
        "document.getElementById('tree-box').open = true; document.getElementById('tree').click()",
    );
    b.wait(
        "document.getElementById('tree-counts').dataset.minimax",
        "the tree",
    );
    let position =
        Position::from_problem(&stakeraid::parse_problem(INPUT.as_bytes()).unwrap()).unwrap();
    let (board, player) = (position.board(), position.player());
    assert_eq!(
        b.eval("Number(document.getElementById('tree-counts').dataset.minimax)"),
        reference::minimax(board, player, 3).nodes
    );
    assert_eq!(
        b.eval("Number(document.getElementById('tree-counts').dataset.alphabeta)"),
        reference::alphabeta(board, player, 3).nodes
    );
    b.eval("[...document.querySelectorAll('#tree-view .tn.min')].slice(0, 2).forEach((n) => n.click())");
    b.eval("document.getElementById('tree-view').scrollIntoView()");
    b.screenshot("tree-view.png");

    // Hovering a node two plies down shows its position on the board (the
    // moves from the root to it, played by the library); leaving it shows
    // the game's position again.
    let start = board.cells_text();
    assert_eq!(b.board_cells(), start);
    let path = b.eval(
        "(() => { const node = document.querySelector('#tree-view > ul > li > ul > li > ul > li > .tn'); \
         node.id = 'hovered'; const moves = []; \
         for (let li = node.parentElement; li.tagName === 'LI'; li = li.parentElement.parentElement) { \
           const m = li.querySelector(':scope > .tn').dataset.move; if (m) moves.unshift(m); } \
         return moves; })()",
    );
    let path: Vec<stakeraid::Move> = path
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(path.len(), 2, "{path:?}");
    let mut game = stakeraid::Game::new(board, player);
    for &mv in &path {
        assert!(game.is_legal(mv), "{mv}");
        game.play(mv);
    }
    let node = game.board().cells_text();
    assert_ne!(node, start);
    // The window shows the board and the node at once, for the screenshot.
    b.eval("window.scrollTo(0, 0)");
    let middle = b.middle("#hovered", "nearest");
    b.move_mouse(middle);
    let pieces = |cells: &str| {
        format!(
            "document.getElementById('board').textContent.replace(/[^XO]/g, '') === {:?}",
            cells.replace(['.', '\n'], "")
        )
    };
    b.wait(&pieces(&node), "the hovered node's position");
    assert_eq!(b.board_cells(), node, "hovering {path:?}");
    b.screenshot("tree-hover.png");
    b.move_mouse((2.0, 2.0));
    b.wait(&pieces(&start), "the game's position again");
    assert_eq!(b.board_cells(), start, "after leaving the node");

    // A whole game against the engine (X, depth 2): O clicks the first
    // empty cell each turn, and each engine move is the library's choice.
    b.eval("document.getElementById('engine-side').value = 'X'; document.getElementById('engine-depth').value = 2");
    let moves = play_a_game(&mut b);
    let problem = stakeraid::parse_problem(INPUT.as_bytes()).unwrap();
    let mut game = stakeraid::Game::new(&problem.board, problem.player);
    for (who, mv) in &moves {
        if who == "X" {
            let position = Position::new(game.board().clone(), game.to_move()).unwrap();
            let limits = Limits::to_depth(SearchMode::AlphaBeta, 2);
            assert_eq!(
                analyse(&position, &limits).unwrap().best,
                *mv,
                "the engine's {mv}"
            );
        }
        assert!(game.is_legal(*mv), "{who} {mv}");
        game.play(*mv);
    }
    assert!(game.is_over());
    assert_eq!(
        b.eval("Number(document.getElementById('score').textContent)"),
        game.board().score(stakeraid::Player::X)
    );

    // Another against the competition engine at 0.2 s per move: every move
    // it plays is legal where it plays it.
    b.eval("document.getElementById('engine-competition').click(); document.getElementById('engine-seconds').value = 0.2");
    let moves = play_a_game(&mut b);
    let mut game = stakeraid::Game::new(&problem.board, problem.player);
    for (who, mv) in &moves {
        assert_eq!(
            check_move(game.board(), game.to_move(), *mv),
            Ok(()),
            "{who} {mv}"
        );
        assert_eq!(who, game.to_move().symbol().to_string().as_str());
        game.play(*mv);
    }
    assert!(game.is_over());
    assert!(
        b.eval("document.getElementById('engine-thinking').textContent")
            .as_str()
            .unwrap()
            .starts_with("played "),
        "the engine's last move is not reported"
    );
    b.eval("document.getElementById('engine-depth-kind').click()");

    // Stopping a running analysis of a big board.
    b.eval("window.scrollTo(0, 0); document.getElementById('size').value = 12; document.getElementById('seed').value = 3; document.getElementById('random').click()");
    b.wait(
        "document.querySelectorAll('#board .cell').length === 144",
        "the big board",
    );
    b.eval("document.body.dataset.analysis = ''; document.getElementById('depth').value = 60; document.getElementById('time').value = 60; document.getElementById('analyse').click()");
    b.wait(
        "document.querySelectorAll('#board .cell .h').length > 0",
        "the first depth",
    );
    // A deeper depth runs for a while: its progress shows under the stats.
    b.wait(
        "/^depth \\d+.*nodes.*\\/s, [0-9.]+ s$/.test(document.getElementById('progress').textContent)",
        "the progress line",
    );
    b.screenshot("progress.png");
    let asked = Instant::now();
    b.eval("document.getElementById('stop').click()");
    b.wait("document.body.dataset.analysis === 'stopped'", "the stop");
    assert!(asked.elapsed() < Duration::from_secs(30));
}

/// The example input loaded afresh and played to the end against the
/// engine as the page is set (it plays X): O clicks the first empty cell
/// each turn. The moves, as the page lists them; the engine is off again
/// at the end.
fn play_a_game(b: &mut Browser) -> Vec<(String, stakeraid::Move)> {
    b.eval(&format!("document.getElementById('input').value = {INPUT:?}; document.getElementById('load').click()"));
    b.wait("document.querySelectorAll('#board .cell').length === 9 && !document.querySelector('#moves li')", "a new game");
    b.eval("document.getElementById('engine-on').click()");
    for turn in 1..=4 {
        b.wait(
            "document.getElementById('turn').textContent === 'O to move'",
            "O's turn",
        );
        let cell = b.eval("[...document.querySelectorAll('#board .cell')].find((d) => !d.querySelector('.p')).dataset.cell");
        b.click(&format!("[data-cell={}]", cell.as_str().unwrap()), false);
        b.wait(
            &format!(
                "document.querySelectorAll('#moves li').length === {}",
                2 * turn
            ),
            "the engine's answer",
        );
    }
    b.wait(
        "document.getElementById('turn').textContent === 'game over'",
        "the end of the game",
    );
    b.eval("document.getElementById('engine-on').click()");
    let moves = b.eval("[...document.querySelectorAll('#moves li')].map((li) => li.textContent)");
    moves
        .as_array()
        .unwrap()
        .iter()
        .map(|text| {
            let (who, mv) = text.as_str().unwrap().split_once(' ').unwrap();
            (who.to_string(), mv.parse().unwrap())
        })
        .collect()
}
