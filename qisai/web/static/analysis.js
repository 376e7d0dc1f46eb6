// The analysis board: moves made freely (each one checked by the server's
// rules cores), variations kept as a tree, the FEN/SGF of the position, and
// an engine's evaluation and best line (run in the server's engine pool).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($("analysis-texts").textContent);
  const start = JSON.parse($("start-data").textContent);
  const lang = qisai.lang();
  const kind = start.kind;
  // The root: a FEN (Xiangqi) or a size / SGF (Go); nodes: the tree.
  let root = {fen: start.fen || null, size: start.size || 19, sgf: null, komi: start.komi || 7.5};
  let nodes = [], cur = 0, selected = null, flipped = false, lastLine = null;

  function fresh() { nodes = [{id: 0, parent: null, move: null, text: "", children: [], pos: null, ply: 0}]; cur = 0; }
  function path(id) { const out = []; for (let n = nodes[id]; n.parent !== null; n = nodes[n.parent]) out.unshift(n.move); return out; }
  function body(moves) {
    return kind === "xiangqi" ? {kind, fen: root.fen, moves}
      : {kind, size: root.size, sgf: root.sgf, komi: root.komi, moves};
  }
  function say(r) {
    const box = $("notice");
    box.dataset.code = r ? r.code || "" : "";
    if (!r) { box.textContent = ""; return; }
    const text = r[lang] || r.en || r.detail || "";
    box.textContent = r.clause ? (lang === "zh" ? `${text}（${r.clause}）` : `${text} (${r.clause})`) : text;
  }
  // Ask the server for the position after ``moves`` (the rules cores check each).
  async function ask(moves) {
    const res = await fetch("/api/analysis/position", {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify(body(moves))});
    const data = await res.json();
    if (!res.ok) throw data;
    return data;
  }
  async function positionOf(id) {
    const n = nodes[id];
    if (!n.pos) n.pos = await ask(path(id));
    return n.pos;
  }
  // A new move from the current node: an existing child is reused, else a
  // new branch (a variation) is made once the server says it is legal.
  async function play(move) {
    const here = nodes[cur];
    const known = here.children.map(i => nodes[i]).find(n => n.move === move);
    if (known) { go(known.id); return; }
    let pos;
    try { pos = await ask([...path(cur), move]); }
    catch (r) { say(r); return; }
    const n = {id: nodes.length, parent: cur, move, children: [], pos, ply: here.ply + 1,
               text: kind === "xiangqi" ? pos.texts[pos.texts.length - 1] : move};
    nodes.push(n); here.children.push(n.id);
    say(null); go(n.id);
  }
  async function go(id) {
    cur = id; selected = null;
    try { await positionOf(id); } catch (r) { say(r); return; }
    render();
  }
  // The main line of a game (or none) from the root.
  async function loadLine(moves) {
    fresh();
    if (!moves.length) { await go(0); return; }
    let pos;
    try { pos = await ask(moves); } catch (r) { say(r); await go(0); return; }
    let parent = 0;
    moves.forEach((m, i) => {
      const n = {id: nodes.length, parent, move: m, children: [], pos: null, ply: i + 1,
                 text: kind === "xiangqi" ? pos.texts[i] : m};
      if (kind === "xiangqi") n.pos = null;
      nodes.push(n); nodes[parent].children.push(n.id); parent = n.id;
    });
    nodes[parent].pos = pos;
    await go(0);
  }

  // ------------------------------------------------------------- drawing
  const el = qisai.svgEl, XQ = qisai.XQ, parseFen = qisai.parseFen;
  const FILES = "abcdefghi";
  function drawXiangqi(svg, pos) {
    const xy = qisai.xiangqiBoard(svg, flipped);  // lines, river text, file numbers
    const pieces = parseFen(pos.fen), legal = pos.legal || {};
    const red = pos.to_move === "first";
    if (pos.last) for (const sq of [pos.last.slice(0, 2), pos.last.slice(2)]) {
      const [x, y] = xy(sq);
      svg.appendChild(el("rect", {x: x - 48, y: y - 48, width: 96, height: 96, class: "last"}));
    }
    for (let r = 0; r < 10; r++) for (let f = 0; f < 9; f++) {
      const sq = FILES[f] + r, [x, y] = xy(sq), p = pieces[sq];
      const cell = el("g", {"data-square": sq, class: "pt"});
      cell.appendChild(el("rect", {x: x - 50, y: y - 50, width: 100, height: 100, fill: "transparent"}));
      if (p) {
        const isRed = p === p.toUpperCase();
        cell.appendChild(el("circle", {cx: x, cy: y, r: 43, class: "piece" + (sq === selected ? " sel" : ""), stroke: isRed ? "#b00" : "#222"}));
        cell.appendChild(el("text", {x, y: y + 15, "text-anchor": "middle", "font-size": 46, fill: isRed ? "#b00" : "#222", class: "glyph"}, XQ[p]));
        cell.setAttribute("data-piece", p);
      }
      if (selected && (legal[selected] || []).includes(sq)) cell.appendChild(el("circle", {cx: x, cy: y, r: 14, class: "hint"}));
      cell.addEventListener("click", () => {
        const mine = !!p && (p === p.toUpperCase()) === red;
        if (selected && (legal[selected] || []).includes(sq)) { const mv = selected + sq; selected = null; play(mv); return; }
        if (selected === sq) { selected = null; render(); return; }
        if (mine) { selected = sq; say(null); render(); return; }
        if (selected) { const mv = selected + sq; selected = null; play(mv); return; }  // the server says why not
      });
      svg.appendChild(cell);
    }
  }
  function drawGo(svg, pos) {
    const n = pos.size, s = 100, GTP = qisai.GTP;
    const xy = qisai.goBoard(svg, n, flipped);  // lines, star points, coordinates
    for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) {
      const name = GTP[col] + (n - row);
      const [x, y] = xy(row, col), stone = pos.grid[row][col];
      const cell = el("g", {"data-point": name, class: "pt"});
      cell.appendChild(el("rect", {x: x - s / 2, y: y - s / 2, width: s, height: s, fill: "transparent"}));
      if (stone !== ".") {
        cell.appendChild(el("circle", {cx: x, cy: y, r: s * 0.47, class: stone === "b" ? "black" : "white"}));
        if (pos.last === name) cell.appendChild(el("circle", {cx: x, cy: y, r: 14, class: "lastdot"}));
      }
      cell.addEventListener("click", () => play(name));  // the server checks it (occupied, suicide, ko)
      svg.appendChild(cell);
    }
  }
  function moveButton(n) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "mv" + (n.id === cur ? " current" : ""); b.dataset.node = n.id;
    const first = kind === "xiangqi" ? (n.ply % 2 === 1) : true;
    const num = Math.ceil(n.ply / (kind === "xiangqi" ? 2 : 1));
    b.textContent = (first ? `${num}. ` : "") + n.text;
    b.addEventListener("click", () => go(n.id));
    return b;
  }
  // The main line, each variation in brackets after the move it replaces.
  function lineFrom(id, box) {
    let n = nodes[id];
    while (n.children.length) {
      const main = nodes[n.children[0]];
      box.append(moveButton(main));
      for (const alt of n.children.slice(1)) {
        const v = document.createElement("span"); v.className = "var";
        v.append("( ", moveButton(nodes[alt])); lineFrom(alt, v); v.append(" )");
        box.append(v);
      }
      n = main;
    }
  }
  function render() {
    const pos = nodes[cur].pos;
    if (!pos) return;
    const svg = el("svg", {class: kind});
    if (kind === "xiangqi") drawXiangqi(svg, pos); else drawGo(svg, pos);
    $("board").replaceChildren(svg);
    $("board").dataset.node = cur; $("board").dataset.ply = nodes[cur].ply;
    let status = `${T.to_move}: ${T[pos.to_move]}`;
    if (pos.over) status = T.over; else if (pos.check) status += " · " + T.check;
    $("status").textContent = status;
    $("record").value = kind === "xiangqi" ? pos.fen : pos.sgf;
    const tree = $("tree"); tree.replaceChildren(); lineFrom(0, tree);
    $("an-delete").disabled = cur === 0;
  }

  // ---------------------------------------------------------- the engine
  async function analyse() {
    const out = $("eval"), pv = $("pv");
    out.textContent = T.thinking; pv.textContent = ""; $("pv-add").hidden = true;
    out.dataset.state = "thinking";
    try {
      await qisai.ensureSession();
      const r = await qisai.api("POST", "/api/analysis/engine",
        {...body(path(cur)), engine: $("engine").value, seconds: Number($("seconds").value)});
      let text;
      if (r.kind === "xiangqi") {
        text = r.mate !== null ? `M${r.mate}` : r.cp !== null ? (r.cp > 0 ? "+" : "") + (r.cp / 100).toFixed(2) : "?";
        text += ` (${T.red_view})` + (r.depth ? ` · depth ${r.depth}` : "");
        pv.textContent = (r.pv_text || []).join(" ");
      } else {
        // Win rate and score lead where the engine gives them (KataGo; GNU
        // Go's estimate_score gives the lead), always the best move.
        text = `${T.best}: ${r.best || "?"}`;
        if (r.winrate !== null && r.winrate !== undefined) text += ` · ${T.winrate} ${(r.winrate * 100).toFixed(1)}%`;
        if (r.score_lead !== null && r.score_lead !== undefined)
          text += ` · ${T.score_lead} ${r.score_lead > 0 ? "+" : ""}${r.score_lead.toFixed(1)}`;
        pv.textContent = (r.pv || []).join(" ");
      }
      const opt = $("engine").selectedOptions[0];
      out.textContent = `${opt ? opt.textContent : r.engine}: ${text}`;
      out.dataset.engine = r.engine;
      out.dataset.state = "done";
      lastLine = {from: cur, moves: r.pv || []};
      $("pv-add").hidden = !lastLine.moves.length;
    } catch (e) {
      out.textContent = e.message; out.dataset.state = "error";
    }
  }
  // The engine's line becomes a variation from the position it analysed.
  async function addLine() {
    if (!lastLine) return;
    cur = lastLine.from;
    for (const m of lastLine.moves) {
      const before = cur;
      await play(m);
      if (cur === before) break;  // refused (the server said why)
    }
  }

  // -------------------------------------------------------------- controls
  function step(where) {
    const n = nodes[cur];
    if (where === "prev" && n.parent !== null) go(n.parent);
    else if (where === "next" && n.children.length) go(n.children[0]);
    else if (where === "first") go(0);
    else if (where === "last") { let id = cur; while (nodes[id].children.length) id = nodes[id].children[0]; go(id); }
  }
  for (const w of ["first", "prev", "next", "last"]) $("an-" + w).addEventListener("click", () => step(w));
  $("an-flip").addEventListener("click", () => { flipped = !flipped; render(); });
  $("an-delete").addEventListener("click", () => {
    const n = nodes[cur];
    if (n.parent === null) return;
    const p = nodes[n.parent];
    p.children = p.children.filter(i => i !== n.id);
    go(p.id);
  });
  document.addEventListener("keydown", (ev) => {
    const tag = (ev.target && ev.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const where = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[ev.key];
    if (where) { ev.preventDefault(); step(where); }
  });
  $("analyse").addEventListener("click", analyse);
  $("pv-add").addEventListener("click", addLine);
  $("copy").addEventListener("click", async () => {
    const box = $("record");
    try { await navigator.clipboard.writeText(box.value); }
    catch (e) { box.select(); document.execCommand("copy"); }
    say({code: "copied", zh: T.copied, en: T.copied});
  });
  $("load").addEventListener("click", async () => {
    const text = $("load-text").value.trim();
    const old = root;
    if (kind === "xiangqi") root = {...root, fen: text || null};
    else root = {...root, sgf: text || null};
    try { await ask([]); } catch (r) { root = old; say(r); return; }
    say(null); await loadLine([]);
  });
  loadLine(start.moves || []);
})();
