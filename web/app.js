// The page only draws and asks: every rule (legality, flips, scores,
// values) is decided by the server, which asks the library.
"use strict";

const $ = (id) => document.getElementById(id);
// history[i] is the position after i moves; cursor is the one shown. Each
// keeps its own analysis (`answer`), so that the panel always shows the
// position on the board: a move, an undo or a redo shows that position's
// analysis, or none.
let history = [];
let cursor = 0;
let stream = null;    // the running search: {controller, id, entry}

const cols = (i) => String.fromCharCode(65 + i);
const cellName = (r, c) => cols(c) + (r + 1);
const cur = () => history[cursor];

async function api(path, body) {
  const init = body === undefined ? {} :
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  const text = await res.text();
  if (!res.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error; } catch (_) { /* not JSON */ }
    throw new Error(msg);
  }
  try { return JSON.parse(text); } catch (_) { return text; }
}

function say(msg) { $("error").textContent = msg || ""; }
function status(msg) { $("status").textContent = msg || ""; }
function note(msg) { $("note").textContent = msg || ""; }

function setPosition(view) {
  stopAnalysis();
  history = [{ view, move: null, flipped: [], answer: null }];
  cursor = 0;
  note("");
  $("engine-thinking").textContent = "";
  shown();
}

function pushMove(played) {
  history = history.slice(0, cursor + 1);
  history.push({ view: played, move: played.move, flipped: played.flipped, by: cur().view.grid.player, answer: null });
  cursor++;
  shown();
}

// Shows history[i]: a search of another position stops, and the panel
// and the header are that position's.
function goTo(i) {
  if (i < 0 || i >= history.length || i === cursor) return;
  cursor = i;
  shown();
}

function shown() {
  if (stream && stream.entry !== cur()) stopAnalysis();
  if (!stream) status("");
  $("export").textContent = "";
  $("analysis-error").textContent = "";
  draw();
}

// The stats, the PV and the output.txt of the shown position's analysis.
function drawPanel() {
  const a = cur().answer;
  const last = a && a.last;
  $("stats").textContent = last ? statsLine(a) : "";
  $("pv").textContent = last ? "PV: " + last.pv.join(", ") : "";
  const out = a && a.done && a.done.output;
  $("output").textContent = out || "";
  $("output").classList.toggle("inexact", !!out && !a.done.analysis.exact);
  $("progress").textContent = (stream && stream.entry === cur() && a && a.progress) || "";
}

// "MINIMAX depth 3/3 · best B3 Stake (-5) · nodes 120 · ... · exact"
function statsLine(a) {
  const last = a.last;
  let line = `${last.mode} depth ${last.depth}/${last.requested_depth} · best ${last.best} (${last.value}) · ` +
    `nodes ${a.nodes} · ${a.nodesPerSecond} nodes/s · ${(a.elapsedUs / 1e6).toFixed(3)} s`;
  if (a.done) {
    line += last.exact ? " · exact" :
      ` · not exact: stopped at depth ${last.depth} of ${last.requested_depth}`;
  } else if (!a.running) {
    line += " · not exact: stopped";
  }
  return line;
}

function draw() {
  const { view, move, flipped, answer } = cur();
  const heat = answer && answer.last;
  const n = view.grid.values.length;
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  board.style.setProperty("--n", n);
  board.innerHTML = "";
  const values = new Map();
  if (heat) for (const m of heat.moves) {
    const key = m.move.split(" ")[0];
    // The heat map shows each cell's best move (a Stake or a Raid).
    if (!values.has(key) || values.get(key).value < m.value) values.set(key, m);
  }
  const lo = heat ? Math.min(...heat.moves.map((m) => m.value)) : 0;
  const hi = heat ? Math.max(...heat.moves.map((m) => m.value)) : 0;
  const pv = heat ? heat.pv.map((m) => m.split(" ")[0]) : [];
  const last = move ? move.split(" ")[0] : null;
  const flips = new Set(flipped || []);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    const name = cellName(r, c);
    const d = document.createElement("div");
    d.className = "cell";
    d.dataset.cell = name;
    d.title = name;
    const sym = view.grid.cells[r][c];
    d.innerHTML = `<span class="v">${view.grid.values[r][c]}</span>` +
      (sym !== "." ? `<span class="p ${sym}">${sym}</span>` : "");
    const h = values.get(name);
    if (h) {
      const t = hi > lo ? (h.value - lo) / (hi - lo) : 1;
      d.style.background = `hsl(${Math.round(t * 120)}, 70%, ${85 - t * 15}%)`;
      const span = document.createElement("span");
      span.className = "h";
      span.dataset.value = h.value;
      span.textContent = (h.bound === "upper" ? "≤" : "") + h.value + (h.move.endsWith("Raid") ? "R" : "");
      d.appendChild(span);
    }
    const k = pv.indexOf(name);
    if (k >= 0) {
      const s = document.createElement("span");
      s.className = "pvn";
      s.textContent = k + 1;
      d.appendChild(s);
      if (k === 0) d.classList.add("best");
    }
    if (name === last) d.classList.add("last");
    if (flips.has(name)) d.classList.add("flipped");
    d.addEventListener("click", (e) => onCell(r, c, e));
    board.appendChild(d);
  }
  $("turn").textContent = view.over ? "game over" : `${view.grid.player} to move`;
  $("score").textContent = view.score_x;
  const list = $("moves");
  list.innerHTML = "";
  history.slice(1).forEach((h, i) => {
    const li = document.createElement("li");
    li.textContent = `${h.by} ${h.move}`;
    if (i + 1 === cursor) li.className = "current";
    li.addEventListener("click", () => goTo(i + 1));
    list.appendChild(li);
  });
  fitLabels();
  drawPanel();
  // The URL keeps the start and the moves to the one shown: a shared URL
  // opens on this position, and undo goes back from it.
  const shared = { grid: history[0].view.grid, moves: history.slice(1, cursor + 1).map((h) => h.move) };
  const hash = "#" + encodeURIComponent(JSON.stringify(shared));
  if (location.hash !== hash) window.history.replaceState(null, "", hash);
}

// Shrinks each label of the board that does not fit its cell until it
// does: a value is shown whole or not at all. Every round reads all the
// labels, then writes: one layout a round, not one a label.
function fitLabels() {
  let labels = [...$("board").querySelectorAll(".v, .h, .pvn")];
  for (const label of labels) label.style.fontSize = "";
  for (let round = 0; round < 6 && labels.length; round++) {
    const over = labels
      .filter((l) => l.scrollWidth > l.clientWidth)
      .map((l) => [l, parseFloat(getComputedStyle(l).fontSize) * Math.max(0.5, l.clientWidth / l.scrollWidth)]);
    for (const [label, size] of over) label.style.fontSize = `${Math.floor(size * 10) / 10}px`;
    labels = over.map(([label]) => label);
  }
}

async function onCell(r, c, e) {
  say("");
  const view = cur().view;
  if ($("edit").checked) return editCell(r, c);
  if (view.over) return say("the game is over");
  const kind = ($("raid").checked || e.shiftKey) ? "Raid" : "Stake";
  await playMove(`${cellName(r, c)} ${kind}`);
}

async function playMove(move) {
  try {
    pushMove(await api("/api/play", { grid: cur().view.grid, move }));
    maybeEngine();
  } catch (err) {
    say(`${move}: ${err.message}`);
  }
}

async function editCell(r, c) {
  // Cycles the piece; alt-click (or a prompt answer) sets the value.
  const grid = structuredClone(cur().view.grid);
  const v = prompt(`value of ${cellName(r, c)} (empty: cycle . X O)`, "");
  if (v === null) return;
  // The library checks the value; only text that is no number at all
  // (which JSON cannot carry) is refused here.
  if (v.trim() !== "" && Number.isNaN(Number(v))) return say(`${cellName(r, c)}: ${JSON.stringify(v)} is not a number`);
  if (v.trim() === "") {
    const next = { ".": "X", "X": "O", "O": "." }[grid.cells[r][c]];
    grid.cells[r] = grid.cells[r].slice(0, c) + next + grid.cells[r].slice(c + 1);
  } else {
    grid.values[r][c] = Number(v);
  }
  try { setPosition(await api("/api/view", grid)); } catch (err) { say(err.message); }
}

function stopAnalysis() {
  if (!stream) return;
  const { controller, id } = stream;
  stream = null;
  if (id) api(`/api/stop?id=${id}`, {}).catch(() => {});
  // Closing the stream stops the search too, should the request be lost.
  setTimeout(() => controller.abort(), 2000);
  $("stop").disabled = true;
  $("analyse").disabled = false;
}

// One search stream at a time (an analysis or the engine's move), stopped
// by Stop, by another position shown, or by the next search. The stream is
// read with fetch rather than EventSource, so that a refused request's
// message (a bad depth, too many searches) reaches the page.
async function openStream(path, on) {
  if (stream) { stream.controller.abort(); stream = null; }
  say("");
  const controller = new AbortController();
  const mine = { controller, id: null, entry: cur() };
  stream = mine;
  $("stop").disabled = false;
  $("analyse").disabled = true;
  let ended = false;
  const end = () => {
    ended = true;
    const current = stream === mine;
    if (current) {
      stream = null;
      $("stop").disabled = true;
      $("analyse").disabled = false;
    }
    return current;
  };
  const fail = (msg) => {
    const current = end();
    if (on.error) on.error(msg);
    else if (msg) say(msg);
    if (current) status(msg ? "refused" : "search ended");
  };
  const handle = (name, data) => {
    if (name === "start") {
      mine.id = data.id;
      if (on.start) on.start(data);
    } else if (name === "progress") {
      if (stream === mine) on.progress(data);
    } else if (name === "depth") {
      if (on.depth) on.depth(data);
    } else if (name === "done") {
      on.done(data, end());
    } else if (name === "error") {
      fail(data.error);
    }
  };
  try {
    const res = await fetch(path, { signal: controller.signal });
    if (!res.ok) {
      const text = await res.text();
      let msg = text;
      try { msg = JSON.parse(text).error; } catch (_) { /* not JSON */ }
      return fail(msg || `${res.status} ${res.statusText}`);
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, "\n");
      // Events end with a blank line; a keep-alive is a comment line.
      for (let i; (i = buffer.indexOf("\n\n")) >= 0;) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        let name = "message", data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).replace(/^ /, "");
        }
        if (data) handle(name, JSON.parse(data));
        if (ended) return;
      }
    }
  } catch (_) { /* aborted, or the connection was lost */ }
  if (!ended) fail("");
}

const signed = (v) => (v > 0 ? "+" : "") + v;
const count = (n) => n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : `${n}`;
const shortMove = (m) => m.endsWith(" Stake") ? m.slice(0, -6) : m;

// "depth 16: move 3 of 12, best C3 +14, 1.2 M nodes, 3.4 M/s, 0.4 s"
function progressLine(p) {
  const r = p.root;
  let head = p.depth ? `depth ${p.depth}` : r ? `depth ${r.depth}` : "searching";
  if (p.finishing) head += ": best move proved, finishing";
  if (r) {
    // The engine deepens towards the depth asked: say which one it is on.
    if (p.depth && r.depth !== p.depth) head += ` (at ${r.depth})`;
    head += `: move ${r.number} of ${r.moves}`;
    if (r.best) head += `, best ${shortMove(r.best)} ${r.lo === r.hi ? signed(r.lo) : `${signed(r.lo)}..${signed(r.hi)}`}`;
  }
  return `${head}, ${count(p.total_nodes)} nodes, ${count(p.nodes_per_second)}/s, ${(p.elapsed_us / 1e6).toFixed(1)} s`;
}

// An analysis of the shown position; its answer is that position's. A
// refusal's message goes to the element `errorTo`.
function analyse(mode, depth, timeS, onDone, errorTo = "analysis-error") {
  const entry = cur();
  $(errorTo).textContent = "";
  // Sent as typed: the server says what is wrong with a bad one.
  const timeMs = String(timeS).trim() === "" ? "" : String(Math.round(Number(timeS) * 1000));
  const q = new URLSearchParams({ grid: JSON.stringify(entry.view.grid), mode, depth, time_ms: timeMs });
  status("analysing");
  $("progress").textContent = "";
  document.body.dataset.analysis = "";
  let answer = null;
  const showing = () => entry === cur();
  openStream(`/api/analyse?${q}`, {
    start: () => {
      answer = { mode, depth: String(depth), last: null, done: null, running: true, progress: "" };
      entry.answer = answer;
      if (showing()) draw();
    },
    progress: (p) => {
      answer.progress = progressLine(p);
      if (showing()) $("progress").textContent = answer.progress;
    },
    depth: (a) => {
      Object.assign(answer, { last: a, nodes: a.total_nodes, nodesPerSecond: a.nodes_per_second, elapsedUs: a.elapsed_us });
      answer.progress = "";
      if (showing()) draw();
    },
    done: (d, current) => {
      Object.assign(answer, { done: d, running: false, progress: "" });
      if (d.analysis) {
        answer.last = d.analysis;
        answer.nodes = d.total_nodes;
        answer.elapsedUs = d.elapsed_us;
        answer.nodesPerSecond = Math.round(d.total_nodes / Math.max(d.elapsed_us / 1e6, 1e-6));
      }
      // A later analysis of the same position may have started since.
      if (showing() && entry.answer === answer) {
        if (current || !stream) {
          status(d.stopped ? "stopped" : "done");
          document.body.dataset.analysis = d.stopped ? "stopped" : "done";
          document.body.dataset.exact = String(!!(d.analysis && d.analysis.exact));
        }
        draw();
      }
      if (onDone && current) onDone(d);
    },
    error: (msg) => {
      $(errorTo).textContent = msg || "";
      if (answer) { answer.running = false; answer.progress = ""; if (showing()) draw(); }
    },
  });
}

// The competition engine's move at `seconds` per move.
function engineMove(seconds, onDone) {
  const q = new URLSearchParams({ grid: JSON.stringify(cur().view.grid), time_ms: Math.round(seconds * 1000) });
  const line = $("engine-thinking");
  let of = seconds;
  line.textContent = "thinking";
  const entry = cur();
  openStream(`/api/engine?${q}`, {
    // The server may grant less than asked: its cap on a search's time.
    start: (s) => { of = s.time_us / 1e6; },
    progress: (p) => {
      line.textContent = `thinking, ${(p.elapsed_us / 1e6).toFixed(1)} s of ${of} s · ${progressLine(p)}`;
    },
    done: (d, current) => {
      // Stopped, or a new position came: the move is not for the board now.
      if (!current || entry !== cur()) { line.textContent = "stopped"; return; }
      line.textContent = `played ${d.move} (${signed(d.value)}, ${d.solved ? "solved" : `depth ${d.depth}`}) ` +
        `in ${(d.elapsed_us / 1e6).toFixed(2)} s`;
      onDone(d);
    },
    error: (msg) => { line.textContent = msg || ""; },
  });
}

function maybeEngine() {
  const view = cur().view;
  if (!$("engine-on").checked || view.over || view.grid.player !== $("engine-side").value) return;
  status("engine thinking");
  if ($("engine-competition").checked) {
    engineMove(Number($("engine-seconds").value), (d) => playMove(d.move));
  } else {
    analyse("ALPHABETA", $("engine-depth").value, $("engine-time").value, (d) => {
      if (d.analysis) playMove(d.analysis.best);
    }, "engine-thinking");
  }
}

async function showTree() {
  say("");
  try {
    const t = await api("/api/tree", { grid: cur().view.grid, depth: Number($("tree-depth").value) });
    $("tree-counts").textContent = `minimax ${t.nodes_minimax} nodes · alpha-beta ${t.nodes_alphabeta} nodes · ` +
      `best ${t.best} (${t.value})`;
    $("tree-counts").dataset.minimax = t.nodes_minimax;
    $("tree-counts").dataset.alphabeta = t.nodes_alphabeta;
    const view = $("tree-view");
    view.innerHTML = "";
    view.appendChild(treeList([t.root], true));
  } catch (err) { say(err.message); }
}

const inf = (v, s) => v === null ? s + "∞" : v;

function treeList(nodes, open) {
  const ul = document.createElement("ul");
  const best = Math.max(...nodes.map((n) => n.value));
  for (const node of nodes) {
    const li = document.createElement("li");
    const span = document.createElement("span");
    span.className = `tn ${node.kind}`;
    if (node.move) span.dataset.move = node.move;
    span.innerHTML = `${node.move || "root"} = <b>${node.value}</b> <span class="win">[${inf(node.alpha, "-")}, ${inf(node.beta, "+")}]</span>` +
      (node.pruned.length ? ` <span class="cut">✂ cut: ${node.pruned.length} pruned (${node.pruned.join(", ")})</span>` : "") +
      (node.children.length ? ` (${node.children.length})` : "");
    span.addEventListener("mouseenter", () => hoverCells(node.cells));
    span.addEventListener("mouseleave", () => draw());
    li.appendChild(span);
    if (node.children.length) {
      let sub = null;
      const toggle = () => {
        if (sub) { sub.remove(); sub = null; } else { sub = treeList(node.children, false); li.appendChild(sub); }
      };
      span.addEventListener("click", toggle);
      if (open) toggle();
    }
    ul.appendChild(li);
  }
  return ul;
}

function hoverCells(cells) {
  // Shows the node's position on the board without changing the game.
  for (const d of $("board").children) {
    const name = d.dataset.cell;
    const c = name.charCodeAt(0) - 65, r = Number(name.slice(1)) - 1;
    const sym = cells[r][c];
    const p = d.querySelector(".p");
    if (p) p.remove();
    if (sym !== ".") {
      const s = document.createElement("span");
      s.className = `p ${sym}`;
      s.textContent = sym;
      d.appendChild(s);
    }
  }
}

async function exportInput() {
  const g = cur().view.grid;
  const text = await api("/api/export", { grid: g, mode: $("mode").value, depth: Number($("depth").value) });
  $("export").textContent = text;
  download("input.txt", text);
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  a.click();
}

async function loadText(text) {
  say("");
  try {
    const p = await api("/api/parse", { text });
    setPosition(p);
    if (p.mode === "COMPETITION") {
      note(`A COMPETITION input (${p.seconds} s of CPU time left for the game) has no exact answer: ` +
        `Analyse searches this position in the mode and to the depth set under Analysis ` +
        `(${$("mode").value}, depth ${$("depth").value}), and the competition engine plays it ` +
        `under "Play against the engine".`);
    } else {
      $("depth").value = p.depth;
      $("mode").value = p.mode;
    }
  } catch (err) { say(err.message); }
}

// The output.txt of the shown position's analysis, when it is the exact
// answer to the input.txt that "Export input.txt" writes.
function exportOutput() {
  const say = (msg) => { $("analysis-error").textContent = msg; };
  const a = cur().answer;
  if (!a || !a.done || !a.done.output) {
    return say("analyse first: output.txt is the answer of an analysis of the position shown");
  }
  if (a.mode !== $("mode").value || Number(a.depth) !== Number($("depth").value)) {
    return say(`the analysis was ${a.mode} at depth ${a.depth}, the settings now ` +
      `${$("mode").value} at depth ${$("depth").value}: analyse again`);
  }
  const last = a.done.analysis;
  if (!last.exact) {
    return say(`the analysis stopped at depth ${last.depth} of ${last.requested_depth}: ` +
      "its answer is not exact, analyse with more time");
  }
  $("export").textContent = a.done.output;
  download("output.txt", a.done.output);
}

$("load").onclick = () => loadText($("input").value);
$("file").onchange = async (e) => { const f = e.target.files[0]; if (f) loadText(await f.text()); };
$("random").onclick = async () => {
  try { setPosition(await api(`/api/random?size=${$("size").value}&seed=${$("seed").value}`)); }
  catch (err) { say(err.message); }
};
$("undo").onclick = () => goTo(cursor - 1);
$("redo").onclick = () => goTo(cursor + 1);
$("analyse").onclick = () => analyse($("mode").value, $("depth").value, $("time").value);
$("stop").onclick = stopAnalysis;
$("tree").onclick = showTree;
$("export-input").onclick = () => {
  $("analysis-error").textContent = "";
  exportInput().catch((err) => { $("analysis-error").textContent = err.message; });
};
$("export-output").onclick = () => { $("analysis-error").textContent = ""; exportOutput(); };
$("share").onclick = () => { navigator.clipboard?.writeText(location.href); status("URL copied"); };
$("engine-on").onchange = maybeEngine;

// A shared URL's start position and its moves, played again by the server.
async function openShared(shared) {
  // An older URL carries the grid alone.
  const { grid, moves } = shared.values ? { grid: shared, moves: [] } : shared;
  setPosition(await api("/api/view", grid));
  for (const [i, move] of (moves || []).entries()) {
    try { pushMove(await api("/api/play", { grid: cur().view.grid, move })); }
    catch (err) { return say(`the URL's move ${i + 1}, ${move}: ${err.message}`); }
  }
}

(async function start() {
  if (location.hash.length > 1) {
    try { return await openShared(JSON.parse(decodeURIComponent(location.hash.slice(1)))); }
    catch (err) { say(`the URL's position: ${err.message}`); }
  }
  // The assignment's example: four pieces each, X to move.
  await loadText(await (await fetch("/example.txt")).text());
})();
