//! The page in a real headless Chromium, driven over the DevTools protocol:
//! loading an input.txt, moves by mouse click, the heat map against
//! `solve --json`, a stop, the exported output.txt against `solve`'s bytes,
//! the tree's node counts and the positions its nodes show on hover, whole
//! games against the engine at a depth and at a time per move; the panel
//! and the exports following the position shown through moves, undo, redo
//! and a shared URL; a stopped search shown as not exact; bad settings
//! answered with the server's message; a page that opens clean on an even
//! position; a 26x26 board read whole at 1400 pixels. Screenshots land in
//! target/web-screenshots/.
//!
//! Without a `chromium` on the PATH the test says it skipped, and fails
//! when `CI` is set (the test command installs it first where it can:
//! scripts/setup.sh).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use stakeraid::api::{analyse, check_move, Limits, Position, SearchMode};
use tungstenite::{Message, WebSocket};

use super::web::Server;
use crate::util::textbook;

/// The example input: 3x3, O to move, MINIMAX to depth 3.
const INPUT: &str = "3\nMINIMAX\nO\n3\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";

struct Browser {
    child: Child,
    ws: WebSocket<TcpStream>,
    next: u64,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    /// Chromium's helpers (zygote, renderers) are in its process group
    /// and write to its profile until they are gone: the whole group is
    /// killed and waited for, and only then is the profile removed (the
    /// field drops after this). Killing the browser alone left profiles
    /// half removed in the temporary folder, one a run.
    fn drop(&mut self) {
        let group = self.child.id() as libc::pid_t;
        // SAFETY: signals to the group this test started.
        unsafe {
            libc::killpg(group, libc::SIGKILL);
        }
        let _ = self.child.wait();
        let until = Instant::now() + Duration::from_secs(5);
        // SAFETY: signal 0 only asks whether the group still has a process.
        while unsafe { libc::killpg(group, 0) } == 0 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
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
        Browser::start_sized(exe, 1300, 1000)
    }

    /// Chromium with a window of `width` by `height` pixels.
    fn start_sized(exe: &Path, width: u32, height: u32) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(exe)
            .process_group(0)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--no-first-run",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--window-size={width},{height}"))
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

    /// The text of the element `id`.
    fn text(&mut self, id: &str) -> String {
        let v = self.eval(&format!("document.getElementById({id:?}).textContent"));
        v.as_str().unwrap().to_string()
    }

    /// Clicks the button `id` (a script's click, not the mouse's).
    fn press(&mut self, id: &str) {
        self.eval(&format!("document.getElementById({id:?}).click()"));
    }

    /// Sets the value of the field `id`.
    fn set(&mut self, id: &str, value: &str) {
        self.eval(&format!(
            "document.getElementById({id:?}).value = {value:?}"
        ));
    }

    /// The position the page shows, as the library reads it.
    fn grid(&mut self) -> stakeraid::api::Grid {
        serde_json::from_value(self.eval("cur().view.grid")).unwrap()
    }

    /// Loads an input.txt as a person pastes one, and waits for its board.
    fn load(&mut self, input: &str) {
        let n: usize = input.lines().next().unwrap().parse().unwrap();
        // The board drawn before is marked: the loaded one is new.
        self.eval("document.querySelector('#board .cell').dataset.old = 'yes'");
        self.set("input", input);
        self.press("load");
        self.wait(
            &format!(
                "document.querySelectorAll('#board .cell').length === {} && !document.querySelector('#board .cell[data-old]')                  && !document.querySelector('#moves li')",
                n * n
            ),
            "the loaded board",
        );
    }

    /// Runs an analysis with the page's settings and waits for its end.
    fn analyse(&mut self) {
        self.eval("document.body.dataset.analysis = ''");
        self.press("analyse");
        self.wait(
            "['done', 'stopped'].includes(document.body.dataset.analysis)",
            "the analysis",
        );
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
            "chromium is not installed, and CI needs the browser test (scripts/setup.sh installs it, as root with apt-get)"
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
        textbook(board, player, SearchMode::Minimax, 3).nodes
    );
    assert_eq!(
        b.eval("Number(document.getElementById('tree-counts').dataset.alphabeta)"),
        textbook(board, player, SearchMode::AlphaBeta, 3).nodes
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
        // The engine has moved: the header no longer says it thinks.
        assert_ne!(b.text("status"), "engine thinking", "after turn {turn}");
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

/// The browser, or `None` (the test skips) where there is no chromium and
/// no CI to insist on one.
fn browser_or_skip() -> Option<PathBuf> {
    let exe = chromium();
    if exe.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is not installed, and CI needs the browser test (scripts/setup.sh installs it, as root with apt-get)"
        );
        eprintln!("skipping the browser test: no chromium on the PATH");
    }
    exe
}

/// The page's start: the board drawn and its analysis panel empty.
fn open(server: &Server, b: &mut Browser) {
    b.call("Page.navigate", json!({ "url": server.url() }));
    b.wait(
        "document.querySelectorAll('#board .cell').length === 25 && document.getElementById('score').textContent",
        "the first board",
    );
}

/// The page of a new server in a new browser, or `None` (said) when
/// there is no browser to drive.
fn opened() -> Option<(Server, Browser)> {
    let exe = browser_or_skip()?;
    let server = Server::start();
    let mut b = Browser::start(&exe);
    open(&server, &mut b);
    Some((server, b))
}

/// Loads the page's random 7x7 board of seed 3.
fn random_7x7(b: &mut Browser) {
    b.set("size", "7");
    b.set("seed", "3");
    b.press("random");
    b.wait(
        "document.querySelectorAll('#board .cell').length === 49",
        "the 7x7 board",
    );
}

/// The exported input.txt of the page's position and settings.
fn exported_input(b: &mut Browser) -> String {
    b.eval("document.getElementById('export').textContent = ''");
    b.press("export-input");
    b.wait(
        "document.getElementById('export').textContent",
        "the exported input.txt",
    );
    b.text("export")
}

/// What "Export output.txt" gives: the text, or the message refusing it.
fn exported_output(b: &mut Browser) -> Result<String, String> {
    b.eval("document.getElementById('export').textContent = ''");
    b.press("export-output");
    match b.text("export") {
        text if text.is_empty() => Err(b.text("analysis-error")),
        text => Ok(text),
    }
}

/// The panel (stats, PV, output.txt box) and the heat labels on the board.
fn panel(b: &mut Browser) -> (String, String, String, usize) {
    let heat = b.eval("document.querySelectorAll('#board .cell .h').length");
    (
        b.text("stats"),
        b.text("pv"),
        b.text("output"),
        heat.as_u64().unwrap() as usize,
    )
}

#[test]
fn the_panel_shows_the_position_on_the_board() {
    let Some((_server, mut b)) = opened() else {
        return;
    };
    b.load(INPUT);

    // An analysis of the start: its output.txt is solve's answer to the
    // exported input.txt.
    b.analyse();
    let first = panel(&mut b);
    assert!(first.3 > 0 && !first.2.is_empty(), "{first:?}");
    let input = exported_input(&mut b);
    assert_eq!(input, INPUT);
    assert_eq!(exported_output(&mut b), Ok(solve(&input).0));

    // A move: the panel is empty, and output.txt is refused until the new
    // position is analysed.
    b.click("[data-cell=B2]", false);
    b.wait(
        "document.querySelectorAll('#moves li').length === 1",
        "the move",
    );
    assert_eq!(
        panel(&mut b),
        (String::new(), String::new(), String::new(), 0)
    );
    let refused = exported_output(&mut b).unwrap_err();
    assert!(refused.contains("analyse first"), "{refused}");
    b.screenshot("after-a-move.png");
    let moved = exported_input(&mut b);
    assert_ne!(moved, INPUT);
    b.analyse();
    let second = panel(&mut b);
    assert_ne!(second, first);
    assert_eq!(exported_output(&mut b), Ok(solve(&moved).0));

    // Undo shows the start's analysis again, redo the move's.
    b.press("undo");
    b.wait("!document.querySelector('#moves li.current')", "the undo");
    assert_eq!(panel(&mut b), first);
    assert_eq!(exported_input(&mut b), INPUT);
    assert_eq!(exported_output(&mut b), Ok(solve(INPUT).0));
    b.press("redo");
    b.wait("document.querySelector('#moves li.current')", "the redo");
    assert_eq!(panel(&mut b), second);
    assert_eq!(exported_input(&mut b), moved);
    assert_eq!(exported_output(&mut b), Ok(solve(&moved).0));

    // Other settings than the analysis's: its output.txt is not the
    // answer to the input.txt exported now.
    b.set("depth", "2");
    let refused = exported_output(&mut b).unwrap_err();
    assert!(refused.contains("analyse again"), "{refused}");
    b.set("depth", "3");

    // A second move, then Share URL: the URL opens on the same game, its
    // moves in the list.
    b.click("[data-cell=C3]", false);
    b.wait(
        "document.querySelectorAll('#moves li').length === 2",
        "the second move",
    );
    let moves = b.eval("[...document.querySelectorAll('#moves li')].map((li) => li.textContent)");
    let cells = b.board_cells();
    b.press("share");
    let url = b.eval("location.href");
    b.call("Page.navigate", json!({ "url": "about:blank" }));
    b.wait("!document.getElementById('board')", "a blank page");
    b.call("Page.navigate", json!({ "url": url }));
    b.wait(
        "document.querySelectorAll('#moves li').length === 2",
        "the shared game",
    );
    assert_eq!(
        b.eval("[...document.querySelectorAll('#moves li')].map((li) => li.textContent)"),
        moves
    );
    assert_eq!(b.board_cells(), cells);
    assert_eq!(exported_input(&mut b), {
        let mut game = stakeraid::Game::new(
            &stakeraid::parse_problem(INPUT.as_bytes()).unwrap().board,
            stakeraid::Player::O,
        );
        for m in moves.as_array().unwrap() {
            game.play(
                m.as_str()
                    .unwrap()
                    .split_once(' ')
                    .unwrap()
                    .1
                    .parse()
                    .unwrap(),
            );
        }
        stakeraid::input_text(&stakeraid::Problem {
            board: game.board().clone(),
            player: game.to_move(),
            question: stakeraid::Question::Exact {
                mode: SearchMode::Minimax,
                depth: 3,
            },
        })
    });
}

#[test]
fn a_stopped_search_is_shown_as_not_exact() {
    let Some((_server, mut b)) = opened() else {
        return;
    };
    // 7x7, depth 30 in 2 s: the time ends the search long before.
    random_7x7(&mut b);
    b.set("mode", "ALPHABETA");
    b.set("depth", "30");
    b.set("time", "2");
    b.analyse();
    let grid = b.grid();
    let position = Position::from_grid(&grid).unwrap();
    let library = analyse(
        &position,
        &Limits {
            time: Some(Duration::from_secs(2)),
            ..Limits::to_depth(SearchMode::AlphaBeta, 30)
        },
    )
    .unwrap();
    assert!(!library.exact);
    let stats = b.text("stats");
    let reached: u32 = stats
        .split("depth ")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no depth in {stats:?}"));
    assert!(
        stats.contains(&format!("depth {reached}/{} ", library.requested_depth))
            && stats.contains(&format!(
                "not exact: stopped at depth {reached} of {}",
                library.requested_depth
            )),
        "{stats}"
    );
    assert_eq!(b.eval("document.body.dataset.exact"), "false");
    assert_eq!(
        b.eval("document.getElementById('output').classList.contains('inexact')"),
        true
    );
    let refused = exported_output(&mut b).unwrap_err();
    assert!(refused.contains("not exact"), "{refused}");
    b.eval("window.scrollTo(0, 0)");
    b.screenshot("stopped-not-exact.png");

    // A search that reaches its depth is exact.
    b.load(INPUT);
    b.analyse();
    assert_eq!(b.eval("document.body.dataset.exact"), "true");
    assert!(b.text("stats").ends_with(" · exact"), "{}", b.text("stats"));
}

#[test]
fn the_page_opens_clean_and_explains_what_it_refuses() {
    let Some((_server, mut b)) = opened() else {
        return;
    };

    // No empty bordered box, and no gap between the score line and Undo.
    let empty = b.eval(
        "[...document.querySelectorAll('body *')]\
         .filter((e) => !['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'OPTION'].includes(e.tagName))\
         .filter((e) => { const s = getComputedStyle(e), r = e.getBoundingClientRect(); \
           return r.width > 0 && r.height > 0 && e.children.length === 0 && e.textContent.trim() === '' && \
             ['Top', 'Right', 'Bottom', 'Left'].some((k) => parseFloat(s[`border${k}Width`]) > 0 && s[`border${k}Style`] !== 'none'); })\
         .map((e) => e.id || e.tagName)",
    );
    assert_eq!(empty, json!([]), "empty boxes on load");
    let gap = b.eval(
        "document.getElementById('undo').getBoundingClientRect().top - \
         document.getElementById('info').getBoundingClientRect().bottom",
    );
    assert!(gap.as_f64().unwrap() < 12.0, "{gap} px above Undo");

    // The first position is even: as many pieces each, and a score small
    // against the board's values.
    let grid = b.grid();
    let (board, _) = grid.check().unwrap();
    let count = |c: char| {
        grid.cells
            .iter()
            .flat_map(|r| r.chars())
            .filter(|&x| x == c)
            .count()
    };
    assert!(
        count('X') > 0 && count('X') == count('O'),
        "{:?}",
        grid.cells
    );
    let total: i64 = grid.values.iter().flatten().sum();
    let score = board.score(stakeraid::Player::X);
    assert!(score.abs() * 10 <= total, "score {score} of {total}");
    assert_eq!(
        b.eval("Number(document.getElementById('score').textContent)"),
        score
    );
    b.screenshot("start.png");

    // Bad settings: the server's message in the analysis panel.
    for (depth, time, says) in [
        (
            "0",
            "10",
            r#"depth must be at least 1 (a whole number), not "0""#,
        ),
        (
            "-3",
            "10",
            r#"depth must be at least 1 (a whole number), not "-3""#,
        ),
        (
            "",
            "10",
            r#"depth must be at least 1 (a whole number), not """#,
        ),
        (
            "3",
            "",
            r#"time_ms must be at least 1 (a whole number), not """#,
        ),
    ] {
        b.eval("document.getElementById('analysis-error').textContent = ''");
        b.set("depth", depth);
        b.set("time", time);
        b.press("analyse");
        b.wait(
            "document.getElementById('analysis-error').textContent",
            "the refusal",
        );
        assert_eq!(
            b.text("analysis-error"),
            says,
            "depth {depth:?}, time {time:?}"
        );
        assert_ne!(b.text("status"), "search ended");
        assert_eq!(b.eval("document.getElementById('analyse').disabled"), false);
    }
    b.set("time", "10");
    b.screenshot("bad-depth.png");

    // A COMPETITION input: the page says what it does with it.
    b.set("mode", "MINIMAX");
    b.set("depth", "3");
    b.load("3\nCOMPETITION\nO\n12.5\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n");
    let note = b.text("note");
    assert!(
        note.contains("COMPETITION") && note.contains("12.5 s") && note.contains("no exact answer"),
        "{note}"
    );
    assert!(note.contains("(MINIMAX, depth 3)"), "{note}");
    assert_eq!(b.eval("document.getElementById('mode').value"), "MINIMAX");
    assert_eq!(b.eval("document.getElementById('depth').value"), "3");
    // Another input clears the note.
    b.load(INPUT);
    assert_eq!(b.text("note"), "");
}

#[test]
fn a_26x26_board_is_readable_at_1400_pixels() {
    let Some(exe) = browser_or_skip() else { return };
    let server = Server::start();
    let mut b = Browser::start_sized(&exe, 1400, 1000);
    open(&server, &mut b);
    assert_eq!(b.eval("window.innerWidth"), 1400);
    let small = b.eval("document.getElementById('board').getBoundingClientRect().width");
    // Values up to 9999: heat values of five digits.
    let mut rng = stakeraid::Rng::new(5);
    let board = stakeraid::random_board(&mut rng, 26, 9999, 0.3);
    b.load(&stakeraid::input_text(&stakeraid::Problem {
        board,
        player: stakeraid::Player::O,
        question: stakeraid::Question::Exact {
            mode: SearchMode::Minimax,
            depth: 1,
        },
    }));
    b.analyse();

    // The board takes the window's width, and the page does not scroll
    // sideways.
    let width = b.eval("document.getElementById('board').getBoundingClientRect().width");
    assert!(
        width.as_f64().unwrap() > 1200.0 && width.as_f64() > small.as_f64(),
        "{width} px wide (the 5x5 board: {small})"
    );
    assert_eq!(
        b.eval("document.documentElement.scrollWidth <= document.documentElement.clientWidth"),
        true
    );

    // Every cell's heat label is its best move's value, whole: the
    // library's MINIMAX values at depth 1, the first best move of each cell
    // (a Raid marked R).
    let grid = b.grid();
    let position = Position::from_grid(&grid).unwrap();
    let expected = analyse(&position, &Limits::to_depth(SearchMode::Minimax, 1)).unwrap();
    let mut best = std::collections::BTreeMap::<String, (i64, bool)>::new();
    for m in &expected.moves {
        let raid = m.mv.kind() == stakeraid::MoveKind::Raid;
        best.entry(m.mv.cell_name())
            .and_modify(|b| {
                if m.value > b.0 {
                    *b = (m.value, raid);
                }
            })
            .or_insert((m.value, raid));
    }
    let expected: std::collections::BTreeMap<String, String> = best
        .into_iter()
        .map(|(cell, (v, raid))| (cell, format!("{v}{}", if raid { "R" } else { "" })))
        .collect();
    let shown = b.eval(
        "Object.fromEntries([...document.querySelectorAll('#board .cell .h')]\
         .map((h) => [h.parentElement.dataset.cell, h.textContent]))",
    );
    assert_eq!(shown, serde_json::to_value(&expected).unwrap());
    let digits = |v: &String| v.chars().filter(char::is_ascii_digit).count();
    assert!(expected.values().any(|v| digits(v) >= 5), "{expected:?}");

    // No label clipped or smaller than 7 px, every label and piece inside
    // its cell, and none over another.
    let problems = b.eval(
        "(() => { const out = []; \
          for (const cell of document.querySelectorAll('#board .cell')) { \
            const c = cell.getBoundingClientRect(); \
            const parts = [...cell.querySelectorAll('.v, .h, .pvn, .p')]; \
            const rects = parts.map((p) => p.getBoundingClientRect()); \
            parts.forEach((p, i) => { \
              const r = rects[i], name = `${cell.dataset.cell} .${p.className}`; \
              if (!p.classList.contains('p') && p.scrollWidth > p.clientWidth) out.push(`${name} clipped: ${p.textContent}`); \
              if (parseFloat(getComputedStyle(p).fontSize) < 7) out.push(`${name} too small`); \
              if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5) out.push(`${name} outside its cell`); \
              for (let j = 0; j < i; j++) { const q = rects[j]; \
                if (Math.min(r.right, q.right) - Math.max(r.left, q.left) > 0.5 && Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > 0.5) \
                  out.push(`${name} over .${parts[j].className}`); } }); } \
          return out.slice(0, 20); })()",
    );
    assert_eq!(problems, json!([]));
    b.eval("window.scrollTo(0, 0)");
    b.screenshot("board-26x26.png");

    // The tree view wraps its long "cut:" lines: on a 7x7 board with 34
    // empty cells a cut skips dozens of moves at once.
    random_7x7(&mut b);
    b.eval("document.getElementById('tree-box').open = true; document.getElementById('tree-depth').value = 2; document.getElementById('tree').click()");
    b.wait(
        "document.querySelector('#tree-view .cut')",
        "the tree's cuts",
    );
    let longest = b.eval(
        "Math.max(...[...document.querySelectorAll('#tree-view .cut')].map((c) => c.textContent.length))",
    );
    assert!(longest.as_u64().unwrap() > 200, "{longest}");
    assert_eq!(
        b.eval("(() => { const v = document.getElementById('tree-view'); return v.scrollWidth <= v.clientWidth; })()"),
        true
    );
    b.eval("document.getElementById('tree-view').scrollIntoView()");
    b.screenshot("tree-cuts.png");
}
