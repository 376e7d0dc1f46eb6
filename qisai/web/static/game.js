// The game page: board, clocks, move list, actions, over the game's WebSocket.
// The server decides everything; this script draws the state it sends and
// sends the player's clicks.  A move carries its ply number, so resending it
// after a reconnect can never play it twice.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($("texts").textContent);
  const lang = qisai.lang();
  let state = JSON.parse($("game-data").textContent);
  let moves = state.moves || [];
  let selected = null, pending = null, flipped = state.you === "second", ws = null;
  let receivedAt = performance.now(), retry = 500, msgId = 0;
  let viewPly = null;  // replay: the ply shown, or null for the live position
  const SVGNS = "http://www.w3.org/2000/svg";

  function el(name, attrs, text) {
    const e = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // ------------------------------------------------------------- Xiangqi
  const XQ = {K: "帅", A: "仕", B: "相", N: "马", R: "车", C: "炮", P: "兵",
              k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒"};
  const FILES = "abcdefghi";
  function parseFen(fen) {
    const out = {};
    fen.split(" ")[0].split("/").forEach((row, i) => {
      let f = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) f += Number(ch);
        else { out[FILES[f] + (9 - i)] = ch; f += 1; }
      }
    });
    return out;
  }
  function xqXY(sq) {
    const f = FILES.indexOf(sq[0]), r = Number(sq.slice(1));
    return flipped ? [50 + (8 - f) * 100, 50 + r * 100] : [50 + f * 100, 50 + (9 - r) * 100];
  }
  function drawXiangqi(svg) {
    svg.setAttribute("viewBox", "0 0 900 1000");
    const g = el("g", {stroke: "#5a3b1a", "stroke-width": 3, fill: "none"});
    for (let r = 0; r < 10; r++) g.appendChild(el("line", {x1: 50, y1: 50 + r * 100, x2: 850, y2: 50 + r * 100}));
    for (let f = 0; f < 9; f++) {
      const x = 50 + f * 100;
      if (f === 0 || f === 8) g.appendChild(el("line", {x1: x, y1: 50, x2: x, y2: 950}));
      else { g.appendChild(el("line", {x1: x, y1: 50, x2: x, y2: 450}));
             g.appendChild(el("line", {x1: x, y1: 550, x2: x, y2: 950})); }
    }
    for (const y of [50, 750]) {
      g.appendChild(el("line", {x1: 350, y1: y, x2: 550, y2: y + 200}));
      g.appendChild(el("line", {x1: 550, y1: y, x2: 350, y2: y + 200}));
    }
    svg.appendChild(g);
    svg.appendChild(el("text", {x: 450, y: 515, "text-anchor": "middle", "font-size": 44, fill: "#5a3b1a"},
                       flipped ? "汉 界　　　楚 河" : "楚 河　　　汉 界"));
    let pos = state.position || {};
    if (viewPly !== null) {
      const mv = moves[viewPly - 1];
      pos = {fen: mv.fen, legal: {}, last: mv.move};
    }
    const pieces = parseFen(pos.fen || "");
    const legal = pos.legal || {};
    const mine = myTurn() && viewPly === null;
    if (pos.last) for (const sq of [pos.last.slice(0, 2), pos.last.slice(2)]) {
      const [x, y] = xqXY(sq);
      svg.appendChild(el("rect", {x: x - 48, y: y - 48, width: 96, height: 96, class: "last"}));
    }
    for (let r = 0; r < 10; r++) for (let f = 0; f < 9; f++) {
      const sq = FILES[f] + r, [x, y] = xqXY(sq), p = pieces[sq];
      const cell = el("g", {"data-square": sq, class: "pt"});
      cell.appendChild(el("rect", {x: x - 50, y: y - 50, width: 100, height: 100, fill: "transparent"}));
      if (p) {
        const red = p === p.toUpperCase();
        cell.appendChild(el("circle", {cx: x, cy: y, r: 43, class: "piece" + (sq === selected ? " sel" : ""),
                                       stroke: red ? "#b00" : "#222"}));
        cell.appendChild(el("text", {x: x, y: y + 15, "text-anchor": "middle", "font-size": 46,
                                     fill: red ? "#b00" : "#222", class: "glyph"}, XQ[p]));
        cell.setAttribute("data-piece", p);
      }
      if (selected && (legal[selected] || []).includes(sq))
        cell.appendChild(el("circle", {cx: x, cy: y, r: 14, class: "hint"}));
      if (mine) cell.addEventListener("click", () => clickXiangqi(sq, legal));
      svg.appendChild(cell);
    }
  }
  function clickXiangqi(sq, legal) {
    if (selected && (legal[selected] || []).includes(sq)) {
      const mv = selected + sq; selected = null; sendMove(mv); return;
    }
    selected = legal[sq] ? sq : null;
    render();
  }

  // ------------------------------------------------------------------ Go
  const GTP = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  function drawGo(svg) {
    const pos = state.position || {}, n = pos.size || 19, s = 100, m = 60;
    const w = m * 2 + s * (n - 1);
    svg.setAttribute("viewBox", `0 0 ${w} ${w}`);
    const g = el("g", {stroke: "#333", "stroke-width": 3});
    for (let i = 0; i < n; i++) {
      g.appendChild(el("line", {x1: m, y1: m + i * s, x2: m + (n - 1) * s, y2: m + i * s}));
      g.appendChild(el("line", {x1: m + i * s, y1: m, x2: m + i * s, y2: m + (n - 1) * s}));
    }
    svg.appendChild(g);
    const dead = new Set(pos.dead || []);
    const scoring = state.phase === "scoring";
    for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) {
      const name = GTP[col] + (n - row);
      const vr = flipped ? n - 1 - row : row, vc = flipped ? n - 1 - col : col;
      const x = m + vc * s, y = m + vr * s;
      const stone = (pos.grid || [])[row] ? pos.grid[row][col] : ".";
      const cell = el("g", {"data-point": name, class: "pt"});
      cell.appendChild(el("rect", {x: x - s / 2, y: y - s / 2, width: s, height: s, fill: "transparent"}));
      if (stone !== ".") {
        cell.appendChild(el("circle", {cx: x, cy: y, r: s * 0.47, class: stone === "b" ? "black" : "white"
          + (dead.has(name) ? " dead" : "")}));
        if (dead.has(name)) cell.appendChild(el("text", {x, y: y + 14, "text-anchor": "middle", "font-size": 40, fill: "red"}, "×"));
        if (pos.last === name) cell.appendChild(el("circle", {cx: x, cy: y, r: 14, class: "lastdot"}));
      }
      if (state.you && !state.result) {
        if (scoring && stone !== ".") cell.addEventListener("click", () => send({type: "mark_dead", points: [name]}));
        else if (!scoring && stone === "." && myTurn()) cell.addEventListener("click", () => sendMove(name));
      }
      svg.appendChild(cell);
    }
  }

  // --------------------------------------------------------------- state
  function myTurn() {
    return !!state.you && !state.result && state.status === "active" && state.phase === "playing"
      && state.to_move === state.you;
  }
  function sideName(side) { return state.names[side][lang]; }
  function fmtClock(sec) {
    if (sec === null || sec === undefined) return "";
    sec = Math.max(0, sec);
    const h = Math.floor(sec / 3600), mm = Math.floor(sec / 60) % 60, ss = Math.floor(sec % 60);
    return (h ? h + ":" + String(mm).padStart(2, "0") : mm) + ":" + String(ss).padStart(2, "0");
  }
  function renderClocks() {
    const c = state.clocks;
    const top = flipped ? "first" : "second", bottom = flipped ? "second" : "first";
    for (const [slot, side] of [["top", top], ["bottom", bottom]]) {
      const p = state.players[side];
      $("name-" + slot).textContent = `${sideName(side)} · ${p ? p.name : "?"}`;
      const box = $("clock-" + slot);
      if (!c) { box.textContent = ""; continue; }
      let left = c[side];
      if (c.running === side && !state.result) left -= (performance.now() - receivedAt) / 1000;
      box.textContent = fmtClock(left);
      box.classList.toggle("running", c.running === side && !state.result);
    }
  }
  function render() {
    const svg = el("svg", {class: state.kind});
    if (state.kind === "xiangqi") drawXiangqi(svg); else drawGo(svg);
    const board = $("board"); board.replaceChildren(svg);
    board.dataset.ply = state.ply; board.dataset.phase = state.phase;
    board.dataset.view = viewPly === null ? "live" : String(viewPly);
    renderClocks();
    const status = $("status");
    if (state.status === "waiting") status.textContent = T.waiting;
    else if (!state.you) status.textContent = T.spectator;
    else if (!state.result) status.textContent = myTurn() ? T.your_turn : T.their_turn;
    else status.textContent = "";
    if (state.position && state.position.check && !state.result) status.textContent += " " + T.check;
    $("invite").hidden = state.status !== "waiting";
    if (state.status === "waiting") {
      $("invite-link").value = location.href;
      $("join-button").hidden = !!state.you;
    }
    const r = state.result;
    $("result").hidden = !r;
    if (r) {
      $("result-tag").textContent = state.kind === "go" ? r.sgf : r.pgn;
      $("result-text").textContent = r[lang];
      $("result-clause").textContent = r.clause;
      $("result-reason").textContent = r.reason;
    }
    const playing = !!state.you && !r && state.status === "active";
    const offerFromThem = state.offer && state.offer !== state.you;
    document.querySelectorAll("#actions [data-act]").forEach(b => { b.disabled = !playing; });
    // A spectator has no actions: hide the players' buttons rather than grey them.
    $("actions").hidden = !state.you;
    // The page has only the buttons of the rule profile (state.actions).
    if ($("offer-draw")) {
      $("accept-draw").hidden = !offerFromThem; $("decline-draw").hidden = !offerFromThem;
      $("offer-draw").hidden = !!offerFromThem;
    }
    if ($("confirm-dead")) {
      const sc = state.phase === "scoring";
      $("confirm-dead").hidden = !sc; $("dispute-dead").hidden = !sc;
      if ($("pass")) $("pass").hidden = sc;
    }
    renderRulings();
    if ($("arbiter")) {
      const open = !r && state.status === "active";
      $("arbiter").querySelectorAll("button").forEach(b => { b.disabled = !open; });
    }
    const key = $("notation") ? $("notation").value : "move";
    const list = $("moves"); list.replaceChildren();
    for (const mv of moves) {
      const li = document.createElement("li");
      li.textContent = mv[key] || mv.move; li.dataset.ply = mv.ply;
      if (viewPly === mv.ply) li.className = "viewing";
      if (mv.fen) li.addEventListener("click", () => {
        viewPly = viewPly === mv.ply || mv.ply === moves.length ? null : mv.ply; render();
      });
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
  }
  // Warnings and fouls the arbiter (or the referee) recorded, each with its clause.
  function renderRulings() {
    const list = state.rulings || [];
    $("rulings-box").hidden = !list.length;
    $("rulings").replaceChildren(...list.map(x => {
      const li = document.createElement("li");
      li.dataset.kind = x.kind; li.dataset.side = x.side;
      const what = document.createElement("strong");
      what.textContent = `${T[x.kind] || x.kind} · ${sideName(x.side)}`;
      const clause = document.createElement("span");
      clause.className = "clause"; clause.textContent = x.clause;
      li.append(what, " ", clause);
      if (x.note) li.append(" · " + x.note);
      return li;
    }));
  }
  function applyState(s, full) {
    if (full) moves = s.moves || [];
    else if (s.last_move) {
      if (s.last_move.ply === moves.length + 1) moves.push(s.last_move);
      else if (s.last_move.ply > moves.length + 1) send({type: "sync"});
    }
    if (s.ply < moves.length) moves = moves.slice(0, s.ply);
    if (!("you" in s)) s.you = state.you;  // updates leave out the socket's own side
    state = s; receivedAt = performance.now();
    if (pending && state.ply >= pending.ply) pending = null;
    if (selected && !(state.position.legal || {})[selected]) selected = null;
    render();
  }

  // -------------------------------------------------------------- socket
  function send(msg) {
    msg.id = msg.id || "c" + (++msgId);
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
    return msg;
  }
  function sendMove(mv) {
    pending = send({type: state.kind === "go" && mv === "pass" ? "pass" : "move", ply: state.ply + 1, move: mv});
  }
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/games/${state.id}`);
    ws.onopen = () => { retry = 500; $("notice").textContent = ""; };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") {
        applyState(msg.state, true);
        // Resend a move that may have been lost with the old socket: the ply
        // number makes the server accept it once at most.
        if (pending && state.ply < pending.ply) ws.send(JSON.stringify(pending));
      } else if (msg.type === "update") {
        applyState(msg.state, false);
        const last = msg.notices[msg.notices.length - 1];
        if (last) $("notice").textContent = last[lang];
      } else if (msg.type === "ack") {
        if (pending && msg.id === pending.id) pending = null;
      } else if (msg.type === "error") {
        if (pending && msg.id === pending.id) pending = null;
        $("notice").textContent = msg.message;
        send({type: "sync"});
      }
    };
    ws.onclose = () => {
      $("notice").textContent = T.connection_lost;
      setTimeout(connect, retry); retry = Math.min(retry * 2, 5000);
    };
  }

  document.querySelectorAll("#actions [data-act]").forEach(b => b.addEventListener("click", () => {
    const act = b.dataset.act;
    if (act === "pass") { sendMove("pass"); return; }
    const msg = {type: act};
    if (b.dataset.claim) msg.claim = b.dataset.claim;
    send(msg);
  }));
  if ($("arbiter")) {
    const field = (id) => $(id).value.trim();
    $("arbiter").querySelectorAll("[data-arb]").forEach(b => b.addEventListener("click", () => {
      const msg = {type: b.dataset.arb, side: field("arb-side")};
      if (field("arb-clause")) msg.clause = field("arb-clause");
      if (field("arb-note")) msg.note = field("arb-note");
      send(msg);
    }));
    $("arb-decide").addEventListener("click", () => {
      // A decision must say what it rests on (the referee refuses it without a clause).
      if (!field("arb-clause")) { $("notice").textContent = T.clause_needed; $("arb-clause").focus(); return; }
      const [outcome, winner] = field("arb-outcome").split(":");
      const msg = {type: "adjudicate", outcome, reason: field("arb-reason"), clause: field("arb-clause")};
      if (winner) msg.winner = winner;
      if (field("arb-note")) msg.note = field("arb-note");
      send(msg);
    });
  }
  $("flip").addEventListener("click", () => { flipped = !flipped; render(); });
  if ($("notation")) $("notation").addEventListener("change", render);
  $("join-button").addEventListener("click", async () => {
    try { await qisai.ensureSession(); await qisai.api("POST", `/api/games/${state.id}/join`); location.reload(); }
    catch (e) { $("notice").textContent = e.message; }
  });
  setInterval(renderClocks, 200);
  render();
  connect();
})();
