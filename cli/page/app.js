// cli/page/app.js - the explorer's page: one position at a time from the
// JSON API (/api/v1, docs/serve.md), every move's value, the board drawn by
// the server's SVG renderer, the mainline, practice against perfect play,
// proof trees, the campaign and puzzles.  No framework, nothing fetched but
// from the server.
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const token = params.get("token") || "";
const state = { game: params.get("game") || "", position: params.get("position") || "", history: [], at: -1,
                data: null, selected: null, practiceSide: null, busy: false };

function api(path, query, options) {
  const q = new URLSearchParams(query || {});
  const headers = token ? { Authorization: "Bearer " + token } : {};
  return fetch("/api/v1/" + path + (q.toString() ? "?" + q : ""), Object.assign({ headers }, options || {}))
    .then(async (res) => {
      const body = res.headers.get("Content-Type") === "image/svg+xml" ? await res.text() : await res.json();
      if (!res.ok) throw new Error(body.error || res.statusText);
      return body;
    });
}

function say(text) { $("status").textContent = text; }

function valueText(v) {
  if (!v || v.result === "open") return "open";
  if (v.score !== undefined) return "score " + v.score;
  if (v.result === "draw") return "draw";
  return v.result + " " + v.distance;
}

// The squares a move names: Jungle "b2c2", Ostle "c1R", Othello and
// tic-tac-toe "c4"; a graph's move names a child.
function squaresOf(move) {
  let m = /^([a-z])(\d+)([a-z])(\d+)$/.exec(move);
  if (m) return { from: m[1] + m[2], to: m[3] + m[4] };
  m = /^([a-z])(\d+)([UDLR])$/.exec(move);
  if (m) {
    const f = m[1].charCodeAt(0), r = +m[2];
    const d = { U: [0, 1], D: [0, -1], L: [-1, 0], R: [1, 0] }[m[3]];
    return { from: m[1] + r, to: String.fromCharCode(f + d[0]) + (r + d[1]) };
  }
  m = /^([a-z])(\d+)$/.exec(move);
  if (m) return { from: null, to: move };
  return { from: null, to: null };
}

function syncUrl(push) {
  const q = new URLSearchParams();
  q.set("game", state.game);
  if (state.position) q.set("position", state.position);
  if (token) q.set("token", token);
  (push ? history.pushState : history.replaceState).call(history, null, "", "?" + q);
}

async function show() {
  $("position").value = state.position;
  state.selected = null;
  try {
    const [data, svg] = await Promise.all([
      api("position", { game: state.game, position: state.position }),
      api("svg", { game: state.game, position: state.position }),
    ]);
    state.data = data;
    state.position = data.position;
    $("position").value = data.position;
    $("board").innerHTML = svg;
    $("value").textContent = data.over ? "Game over: " + valueText(data.value) + " for " + data.to_move
      : data.to_move + " to move: " + (data.value ? valueText(data.value) : "open");
    const body = $("moves").querySelector("tbody");
    body.innerHTML = "";
    for (const m of data.moves) {
      const tr = document.createElement("tr");
      tr.className = m.result;
      tr.dataset.move = m.move;
      for (const [cls, text] of [["move", m.move], ["value", valueText(m)], ["pos", m.position]]) {
        const td = document.createElement("td");
        td.className = cls;
        td.textContent = text;
        tr.appendChild(td);
      }
      tr.addEventListener("click", () => play(m));
      body.appendChild(tr);
    }
    markBoard();
    $("line").innerHTML = "";
    say({ tables: "values from the tables", rules: "the game is over",
          none: "no table covers this position: values only where a move ends the game" }[data.source]);
    practiceTurn();
  } catch (e) {
    say(e.message);
  }
}

const colours = { win: "#2e9e4f", draw: "#d9a400", loss: "#c0392b", open: "#8899aa" };

function markBoard() {
  const svg = $("board").querySelector("svg");
  if (!svg || !state.data) return;
  svg.querySelectorAll("rect[data-sq]").forEach((r) => { r.removeAttribute("stroke-width"); r.setAttribute("stroke", "#6b5a3a"); });
  const seen = new Set();
  for (const m of state.data.moves) {  // best first: a square takes its best move's colour
    const sq = squaresOf(m.move);
    if (state.selected && sq.from !== state.selected) continue;
    const key = sq.to;
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const rect = svg.querySelector('rect[data-sq="' + key + '"]');
    if (rect) { rect.setAttribute("stroke", colours[m.result] || colours.open); rect.setAttribute("stroke-width", "5"); }
  }
  if (state.selected) {
    const rect = svg.querySelector('rect[data-sq="' + state.selected + '"]');
    if (rect) { rect.setAttribute("stroke", "#1f4f99"); rect.setAttribute("stroke-width", "5"); }
  }
}

function onBoardClick(ev) {
  if (!state.data) return;
  const hit = document.elementsFromPoint(ev.clientX, ev.clientY);
  const child = hit.find((e) => e.dataset && e.dataset.move);
  if (child) {
    const m = state.data.moves.find((x) => x.move === child.dataset.move);
    if (m) play(m);
    return;
  }
  const rect = hit.find((e) => e.dataset && e.dataset.sq);
  if (!rect) return;
  const sq = rect.dataset.sq;
  const moves = state.data.moves.map((m) => [m, squaresOf(m.move)]);
  const onto = moves.filter(([, s]) => s.to === sq && (!s.from || !state.selected || s.from === state.selected));
  const from = moves.filter(([, s]) => s.from === sq);
  if (onto.length === 1 && (state.selected || !onto[0][1].from || from.length === 0)) return play(onto[0][0]);
  if (from.length) { state.selected = sq; markBoard(); say("from " + sq + ": pick a square"); return; }
  state.selected = null;
  markBoard();
}

function go(position, push) {
  state.history = state.history.slice(0, state.at + 1);
  state.history.push(position);
  state.at = state.history.length - 1;
  state.position = position;
  syncUrl(push);
  return show();
}

function play(m) { if (!state.busy) go(m.position, true); }

function step(d) {
  const at = state.at + d;
  if (at < 0 || at >= state.history.length) return;
  state.at = at;
  state.position = state.history[at];
  syncUrl(false);
  show();
}

async function showLine() {
  try {
    const data = await api("line", { game: state.game, position: state.position });
    const ol = $("line");
    ol.innerHTML = "";
    for (const p of data.line) {
      const li = document.createElement("li");
      li.textContent = p.move + "  " + valueText(p);
      li.title = p.position;
      li.addEventListener("click", () => go(p.position, true));
      ol.appendChild(li);
    }
    const end = document.createElement("li");
    end.textContent = "(" + data.end + ")";
    ol.appendChild(end);
  } catch (e) { say(e.message); }
}

// Practice: the side to move when it was switched on is the player's; the
// other side answers with the best move of the tables, or of a capped search.
async function practiceTurn() {
  const d = state.data;
  if (!$("practice").checked || !d || d.over || state.busy) {
    if (d && d.over && $("practice").checked) say("Game over: " + valueText(d.value) + " for " + d.to_move);
    return;
  }
  if (state.practiceSide === null) state.practiceSide = d.to_move;
  if (d.to_move === state.practiceSide || !d.moves.length) return;
  state.busy = true;
  try {
    let best = d.moves[0].result !== "open" ? d.moves[0] : null;
    if (!best) {
      say("no table here: searching (capped by the server)...");
      const question = d.value && d.value.score !== undefined || state.game.startsWith("othello") ? "score" : "value";
      const job = await api("prove", {}, { method: "POST", body: JSON.stringify({ game: state.game, position: d.position, question }) });
      let r;
      do { await new Promise((ok) => setTimeout(ok, 300)); r = await api("jobs/" + job.id); } while (r.state === "queued" || r.state === "running");
      const first = r.result && r.result.line ? r.result.line.split(" ")[0] : "";
      best = d.moves.find((m) => m.move === first);
      if (r.result && r.result.stopped_by) say("the search was stopped by " + r.result.stopped_by + (best ? ": its best guess" : ": no move found"));
      if (!best) best = d.moves[0];
    }
    await new Promise((ok) => setTimeout(ok, 250));
    state.busy = false;
    go(best.position, true);
  } catch (e) { state.busy = false; say(e.message); }
}

// ---- proofs ----
async function showProofs() {
  const ul = $("proof-files");
  ul.innerHTML = "";
  try {
    const data = await api("proofs");
    for (const f of data.files.filter((f) => f.proof)) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "#";
      a.textContent = f.file + " (" + f.bytes + " bytes)";
      a.addEventListener("click", (e) => { e.preventDefault(); openProof(f.file); });
      li.appendChild(a);
      ul.appendChild(li);
    }
  } catch (e) { ul.textContent = e.message; }
}

async function proofNode(file, node, into) {
  const n = await api("proof", { file, node });
  const li = document.createElement("li");
  const label = document.createElement("span");
  label.textContent = (n.node === 0 ? "root" : n.move) + " " + n.kind + (n.args ? " " + n.args : "") +
    (n.children.length ? " [" + n.children.length + "]" : "");
  label.className = n.children.length ? "inner" : "leaf";
  label.dataset.node = n.node;
  const sub = document.createElement("ul");
  const board = document.createElement("div");
  board.className = "board";
  label.addEventListener("click", async () => {
    if (sub.childElementCount || board.innerHTML) { sub.innerHTML = ""; board.innerHTML = ""; return; }
    if (n.position) board.innerHTML = await api("svg", { game: n.claim.game.startsWith("graph:") ? "graph:" + n.claim.game.split("/").pop().replace(/^graph:/, "") : n.claim.game, position: n.position }).catch(() => "");
    for (const c of n.children) await proofNode(file, c.node, sub);
  });
  li.appendChild(label);
  li.appendChild(board);
  li.appendChild(sub);
  into.appendChild(li);
  return n;
}

async function openProof(file) {
  const tree = $("proof-tree");
  tree.innerHTML = "";
  tree.className = "tree";
  const ul = document.createElement("ul");
  tree.appendChild(ul);
  try {
    const n = await proofNode(file, 0, ul);
    const claim = document.createElement("p");
    claim.textContent = n.claim.game + " " + n.claim.position + ": " + n.claim.question + " " + n.claim.result +
      " (" + n.lines + " lines)";
    tree.insertBefore(claim, ul);
  } catch (e) { tree.textContent = e.message; }
}

// ---- campaign and puzzles ----
let campaignTimer = null;
async function showCampaign() {
  const dl = $("campaign");
  try {
    const c = await api("campaign");
    dl.innerHTML = "";
    for (const k of ["game", "variant", "position", "question", "depth", "decided", "proven", "lower", "upper",
                     "answered", "open", "in_flight", "frontier", "seconds", "eta"]) {
      const dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = k;
      dd.textContent = c[k] === null ? "-" : String(c[k]);
      dl.appendChild(dt);
      dl.appendChild(dd);
    }
  } catch (e) { dl.textContent = e.message; }
}

async function showPuzzles() {
  const ol = $("puzzles");
  ol.innerHTML = "";
  try {
    const data = await api("puzzles");
    for (const p of data.puzzles) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "#";
      a.textContent = p.stipulation + ": " + p.position;
      a.addEventListener("click", (e) => {
        e.preventDefault();
        if (data.game && data.game !== state.game) {
          state.game = data.game;
          if (![...$("game").options].some((o) => o.value === data.game)) {
            const o = document.createElement("option");
            o.value = o.textContent = data.game;
            $("game").appendChild(o);
          }
          $("game").value = data.game;
        }
        go(p.position, true);
      });
      const key = document.createElement("details");
      const sum = document.createElement("summary");
      sum.textContent = "key and tries";
      key.appendChild(sum);
      key.appendChild(document.createTextNode("key " + p.key + "; line " + (p.main_line || []).join(" ") + "; tries: " +
        (p.tries || []).map((t) => t.move + " (" + t.outcome + ", refuted by " + t.refutation + ")").join(", ")));
      li.appendChild(a);
      li.appendChild(key);
      ol.appendChild(li);
    }
  } catch (e) { ol.textContent = e.message; }
}

function showPanel(name) {
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("on", b.dataset.panel === name);
  for (const p of document.querySelectorAll(".panel")) p.hidden = p.id !== "panel-" + name;
  clearInterval(campaignTimer);
  if (name === "proofs") showProofs();
  if (name === "campaign") { showCampaign(); campaignTimer = setInterval(showCampaign, 5000); }
  if (name === "puzzles") showPuzzles();
}

async function start() {
  try {
    const g = await api("games");
    const sel = $("game");
    for (const x of g.games) {
      const o = document.createElement("option");
      o.value = x.game;
      o.textContent = x.game + (x.tables ? " (tables)" : "");
      sel.appendChild(o);
    }
    if (!state.game) state.game = g.games.length ? g.games[0].game : "tictactoe";
    if (![...sel.options].some((o) => o.value === state.game)) {
      const o = document.createElement("option");
      o.value = o.textContent = state.game;
      sel.appendChild(o);
    }
    sel.value = state.game;
  } catch (e) { say(e.message); }
  $("game").addEventListener("change", () => { state.game = $("game").value; state.practiceSide = null; go("", true); });
  $("go").addEventListener("click", () => go($("position").value.trim(), true));
  $("back").addEventListener("click", () => step(-1));
  $("forward").addEventListener("click", () => step(1));
  $("show-line").addEventListener("click", showLine);
  $("practice").addEventListener("change", () => { state.practiceSide = null; practiceTurn(); });
  $("board").addEventListener("click", onBoardClick);
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => showPanel(b.dataset.panel));
  window.addEventListener("popstate", () => {
    const q = new URLSearchParams(location.search);
    state.game = q.get("game") || state.game;
    state.position = q.get("position") || "";
    show();
  });
  go(state.position, false);
}

start();
