// The page only draws and asks: every rule (legality, flips, scores,
// values) is decided by the server, which asks the library.
"use strict";

const $ = (id) => document.getElementById(id);
// history[i] is the position after i moves; cursor is the one shown.
let history = [];
let cursor = 0;
let heat = null;      // the last analysis: root moves, best, pv
let stream = null;    // the running analysis: {source, id}
let lastOutput = "";  // output.txt of the last finished analysis

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

function setPosition(view) {
  stopAnalysis();
  history = [{ view, move: null, flipped: [] }];
  cursor = 0;
  heat = null;
  lastOutput = "";
  $("output").textContent = "";
  $("stats").textContent = "";
  $("pv").textContent = "";
  $("progress").textContent = "";
  $("engine-thinking").textContent = "";
  draw();
}

function pushMove(played) {
  history = history.slice(0, cursor + 1);
  history.push({ view: played, move: played.move, flipped: played.flipped, by: cur().view.grid.player });
  cursor++;
  heat = null;
  draw();
}

function draw() {
  const { view, move, flipped } = cur();
  const n = view.grid.values.length;
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
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
    li.addEventListener("click", () => { cursor = i + 1; heat = null; draw(); });
    list.appendChild(li);
  });
  location.hash = encodeURIComponent(JSON.stringify(history[0].view.grid));
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
  const { source, id } = stream;
  stream = null;
  if (id) api(`/api/stop?id=${id}`, {}).catch(() => {});
  // Closing the stream stops the search too, should the request be lost.
  setTimeout(() => source.close(), 2000);
  $("stop").disabled = true;
  $("analyse").disabled = false;
}

// One search stream at a time (an analysis or the engine's move), stopped
// by Stop, by a new position, or by the next search.
function openStream(path, on) {
  if (stream) { stream.source.close(); stream = null; }
  say("");
  const source = new EventSource(path);
  const mine = { source, id: null };
  stream = mine;
  $("stop").disabled = false;
  $("analyse").disabled = true;
  const end = () => {
    source.close();
    const current = stream === mine;
    if (current) stream = null;
    $("stop").disabled = true;
    $("analyse").disabled = false;
    return current;
  };
  source.addEventListener("start", (e) => {
    const s = JSON.parse(e.data);
    mine.id = s.id;
    if (on.start) on.start(s);
  });
  source.addEventListener("progress", (e) => { if (stream === mine) on.progress(JSON.parse(e.data)); });
  if (on.depth) source.addEventListener("depth", (e) => on.depth(JSON.parse(e.data)));
  source.addEventListener("done", (e) => {
    const d = JSON.parse(e.data);
    on.done(d, end());
  });
  source.addEventListener("error", (e) => {
    // A refused request (busy, bad position) comes back as a plain error.
    end();
    if (on.error) on.error();
    if (e.data) say(JSON.parse(e.data).error);
    else if ($("status").textContent !== "done") status("search ended");
  });
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

function analyse(mode, depth, timeS, onDone) {
  const grid = JSON.stringify(cur().view.grid);
  const q = new URLSearchParams({ grid, mode, depth, time_ms: Math.round(timeS * 1000) });
  status("analysing");
  $("progress").textContent = "";
  openStream(`/api/analyse?${q}`, {
    progress: (p) => { $("progress").textContent = progressLine(p); },
    depth: (a) => {
      heat = a;
      $("stats").textContent = `depth ${a.depth}/${a.requested_depth} · best ${a.best} (${a.value}) · ` +
        `nodes ${a.total_nodes} · ${a.nodes_per_second} nodes/s · ${(a.elapsed_us / 1e6).toFixed(3)} s`;
      $("pv").textContent = "PV: " + a.pv.join(", ");
      draw();
    },
    done: (d, current) => {
      $("progress").textContent = "";
      status(d.stopped ? "stopped" : "done");
      document.body.dataset.analysis = d.stopped ? "stopped" : "done";
      if (d.output) { lastOutput = d.output; $("output").textContent = d.output; }
      if (onDone && current) onDone(d);
    },
  });
}

// The competition engine's move at `seconds` per move.
function engineMove(seconds, onDone) {
  const q = new URLSearchParams({ grid: JSON.stringify(cur().view.grid), time_ms: Math.round(seconds * 1000) });
  const line = $("engine-thinking");
  let of = seconds;
  line.textContent = "thinking";
  openStream(`/api/engine?${q}`, {
    // The server may grant less than asked: its cap on a search's time.
    start: (s) => { of = s.time_us / 1e6; },
    progress: (p) => {
      line.textContent = `thinking, ${(p.elapsed_us / 1e6).toFixed(1)} s of ${of} s · ${progressLine(p)}`;
    },
    done: (d, current) => {
      // Stopped, or a new position came: the move is not for the board now.
      if (!current) { line.textContent = "stopped"; return; }
      line.textContent = `played ${d.move} (${signed(d.value)}, ${d.solved ? "solved" : `depth ${d.depth}`}) ` +
        `in ${(d.elapsed_us / 1e6).toFixed(2)} s`;
      onDone(d);
    },
    error: () => { line.textContent = ""; },
  });
}

function maybeEngine() {
  const view = cur().view;
  if (!$("engine-on").checked || view.over || view.grid.player !== $("engine-side").value) return;
  status("engine thinking");
  if ($("engine-competition").checked) {
    engineMove(Number($("engine-seconds").value), (d) => playMove(d.move));
  } else {
    analyse("ALPHABETA", $("engine-depth").value, Number($("engine-time").value), (d) => {
      if (d.analysis) playMove(d.analysis.best);
    });
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
    if (p.depth) $("depth").value = p.depth;
    if (p.mode !== "COMPETITION") $("mode").value = p.mode;
  } catch (err) { say(err.message); }
}

$("load").onclick = () => loadText($("input").value);
$("file").onchange = async (e) => { const f = e.target.files[0]; if (f) loadText(await f.text()); };
$("random").onclick = async () => {
  try { setPosition(await api(`/api/random?size=${$("size").value}&seed=${$("seed").value}`)); }
  catch (err) { say(err.message); }
};
$("undo").onclick = () => { if (cursor > 0) { cursor--; heat = null; draw(); } };
$("redo").onclick = () => { if (cursor < history.length - 1) { cursor++; heat = null; draw(); } };
$("analyse").onclick = () => analyse($("mode").value, $("depth").value, Number($("time").value));
$("stop").onclick = stopAnalysis;
$("tree").onclick = showTree;
$("export-input").onclick = () => exportInput().catch((err) => say(err.message));
$("export-output").onclick = () => {
  if (!lastOutput) return say("analyse first: output.txt is the analysis's answer");
  $("export").textContent = lastOutput;
  download("output.txt", lastOutput);
};
$("share").onclick = () => { navigator.clipboard?.writeText(location.href); status("URL copied"); };
$("engine-on").onchange = maybeEngine;

(async function start() {
  // A shared URL carries the position in its fragment.
  if (location.hash.length > 1) {
    try { return setPosition(await api("/api/view", JSON.parse(decodeURIComponent(location.hash.slice(1))))); }
    catch (err) { say(`the URL's position: ${err.message}`); }
  }
  setPosition(await api("/api/random?size=5&seed=1"));
})();
