// The game page: board, clocks, move list, actions, over the game's WebSocket.
// The server decides everything; this script draws the state it sends and
// sends the player's clicks.  A move carries its ply number, so resending it
// after a reconnect can never play it twice.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($("texts").textContent);
  // Every sentence the page may say about a refused click, in both languages
  // with its clause (qisai.web.play.explain), and the results' reasons.
  const R = JSON.parse($("reasons").textContent);
  const lang = qisai.lang();
  let state = JSON.parse($("game-data").textContent);
  let moves = state.moves || [];
  // Xiangqi: Black's player sees his side at the bottom; a Go board is never
  // turned for White (issue 32.3), though the flip button turns either.
  let selected = null, pending = null, flipped = (state.you || state.group) === "second" && state.kind === "xiangqi", ws = null;
  let receivedAt = performance.now(), retry = 500, msgId = 0;
  let viewPly = null;  // replay: the ply shown (0: the start), or null for the live position
  // blindfold (issue 21): a blindfold seat's own view draws no pieces; blindfold.js announces and reads typed moves
  const blindSeat = () => !!state.you && (state.blindfold || []).includes(state.you);

  const el = qisai.svgEl;

  // ------------------------------------------------------------- Xiangqi
  const XQ = qisai.XQ, parseFen = qisai.parseFen;
  const FILES = "abcdefghi";
  function drawXiangqi(svg) {
    const xqXY = qisai.xiangqiBoard(svg, flipped);  // lines, river, file numbers
    let pos = state.position || {};
    if (viewPly !== null) {
      const mv = moves[viewPly - 1];
      pos = mv ? {fen: mv.fen, legal: {}, last: mv.move} : {fen: pos.start, legal: {}, last: null};
    }
    const pieces = blindSeat() ? {} : parseFen(pos.fen || "");
    const legal = pos.legal || {};
    const player = !!state.you && !state.result && state.status === "active";
    if (pos.last && !blindSeat()) for (const sq of [pos.last.slice(0, 2), pos.last.slice(2)]) {
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
      if (player) cell.addEventListener("click", () => clickXiangqi(sq, legal, pieces));
      svg.appendChild(cell);
    }
  }
  // Every click is answered: a legal move is sent; anything else is
  // explained (the server's /why names the rule) and nothing is sent.
  function clickXiangqi(sq, legal, pieces) {
    if (viewPly !== null) { say(R.viewing); return; }
    if (!myTurn()) { say(R.not_your_turn); return; }
    const p = pieces[sq];
    const mine = !!p && (p === p.toUpperCase()) === (state.you === "first");
    if (selected && (legal[selected] || []).includes(sq)) {
      const mv = selected + sq; selected = null; sendMove(mv); return;
    }
    if (selected === sq) { selected = null; render(); return; }
    if (mine) { selected = sq; say(null); render(); return; }
    if (!selected) { if (p) say(R.not_your_piece); return; }
    const mv = selected + sq; selected = null; render();
    explain(mv);
  }
  async function explain(mv) {
    try {
      const r = await qisai.api("GET", `/api/games/${state.id}/why?move=${encodeURIComponent(mv)}`);
      say(r.legal ? null : r);
    } catch (e) { say(R.refused); }
  }
  // Show a reason ({code, zh, en, clause}) in the page's language, or clear.
  function say(r) {
    const box = $("notice");
    box.dataset.code = r ? r.code || "" : "";
    // A refusal from the socket names its code: the page's own text of that
    // code has the same clause with its links.
    const known = r && !r.links && R[r.code] && R[r.code].clause === r.clause ? R[r.code] : null;
    if (known) r = {...r, links: known.links};
    if (r && r.clause && r.links && r.links.length) {
      // The explanation, then its clauses as links into the manual's rule texts.
      const [open, close] = lang === "zh" ? ["（", "）"] : [" (", ")"];
      box.replaceChildren(r[lang] || r.en || "", open, ...clauseNodes(r.clause, r.links), close);
    } else box.textContent = r ? reasonText(r) : "";
  }
  // A verdict's clauses: each the manual has is a link to it (issue 22),
  // the others stay text.
  function clauseNodes(clause, links) {
    if (!links || !links.length) return [document.createTextNode(clause || "")];
    const out = [];
    links.forEach((l, i) => {
      if (i) out.push(", ");
      const a = document.createElement("a");
      a.className = "clause-link"; a.href = lang === "zh" ? l.zh : l.en;
      a.target = "_blank"; a.rel = "noopener"; a.textContent = l.clause;
      out.push(a);
    });
    return out;
  }
  function reasonText(r) {
    const text = r[lang] || r.en || "";
    if (!r.clause) return text;
    return lang === "zh" ? `${text}（${r.clause}）` : `${text} (${r.clause})`;
  }

  // ------------------------------------------------------------------ Go
  const GTP = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  // The Go position after ply ``ply`` (captures replayed; void moves skipped).
  function goGrid(n, ply) {
    const g = Array.from({length: n}, () => Array(n).fill("."));
    const at = (name) => [n - Number(name.slice(1)), GTP.indexOf(name[0].toUpperCase())];
    const groupOf = (r, c) => {
      const colour = g[r][c], seen = new Set([r * n + c]), stack = [[r, c]];
      let libs = 0;
      while (stack.length) {
        const [y, x] = stack.pop();
        for (const [yy, xx] of [[y - 1, x], [y + 1, x], [y, x - 1], [y, x + 1]]) {
          if (yy < 0 || xx < 0 || yy >= n || xx >= n) continue;
          if (g[yy][xx] === ".") libs++;
          else if (g[yy][xx] === colour && !seen.has(yy * n + xx)) { seen.add(yy * n + xx); stack.push([yy, xx]); }
        }
      }
      return {stones: [...seen].map(i => [Math.floor(i / n), i % n]), libs};
    };
    let last = null;
    for (const mv of moves.slice(0, ply)) {
      last = mv.move;
      if (mv.void || mv.move === "pass") continue;
      const [r, c] = at(mv.move), colour = mv.side === "first" ? "b" : "w", other = colour === "b" ? "w" : "b";
      g[r][c] = colour;
      for (const [y, x] of [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]) {
        if (y < 0 || x < 0 || y >= n || x >= n || g[y][x] !== other) continue;
        const grp = groupOf(y, x);
        if (!grp.libs) grp.stones.forEach(([yy, xx]) => { g[yy][xx] = "."; });
      }
      const own = groupOf(r, c);
      if (!own.libs) own.stones.forEach(([yy, xx]) => { g[yy][xx] = "."; });
    }
    return {grid: g.map(row => row.join("")), last};
  }
  function drawGo(svg) {
    let pos = state.position || {};
    const n = pos.size || 19, s = 100;
    if (viewPly !== null) { const v = goGrid(n, viewPly); pos = {size: n, grid: v.grid, last: v.last, dead: []}; }
    const forbidden = pos.forbidden || {};
    const goXY = qisai.goBoard(svg, n, flipped);  // lines, star points, coordinates
    const dead = new Set(pos.dead || []);
    const scoring = state.phase === "scoring";
    const count = pos.count || null, countOwner = new Map();
    if (count) for (const key of ["dame", "seki", "black", "white"]) for (const p of count[key] || []) countOwner.set(p, key);
    for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) {
      const name = GTP[col] + (n - row);
      const [x, y] = goXY(row, col);
      const stone = !blindSeat() && (pos.grid || [])[row] ? pos.grid[row][col] : ".";
      const cell = el("g", {"data-point": name, class: "pt"});
      cell.appendChild(el("rect", {x: x - s / 2, y: y - s / 2, width: s, height: s, fill: "transparent"}));
      // The count (issue 32.4): each point's owner, dame and seki (under a
      // dead stone, which stays faded with its ×).
      const owner = count && viewPly === null ? countOwner.get(name) : null;
      if (owner === "black" || owner === "white") {
        cell.setAttribute("data-owner", owner);
        cell.appendChild(el("rect", {x: x - 18, y: y - 18, width: 36, height: 36, class: "own " + owner}));
      } else if (owner === "dame") {
        cell.setAttribute("data-owner", "dame");
        cell.appendChild(el("circle", {cx: x, cy: y, r: 10, class: "dame"}));
      } else if (owner === "seki") {
        cell.setAttribute("data-owner", "seki");  // its ring goes over the stone (below)
      }
      if (stone !== ".") {
        cell.appendChild(el("circle", {cx: x, cy: y, r: s * 0.47, class: (stone === "b" ? "black" : "white")
          + (dead.has(name) ? " dead" : "")}));
        if (owner === "seki") cell.appendChild(el("circle", {cx: x, cy: y, r: s * 0.3, class: "seki"}));
        if (dead.has(name)) cell.appendChild(el("text", {x, y: y + 14, "text-anchor": "middle", "font-size": 40, fill: "red"}, "×"));
        if (pos.last === name && !blindSeat()) cell.appendChild(el("circle", {cx: x, cy: y, r: 14, class: "lastdot"}));
      }
      if (state.you && !state.result && state.status === "active") {
        cell.addEventListener("click", () => {
          if (viewPly !== null) { say(R.viewing); return; }
          if (scoring) { if (stone !== ".") send({type: "mark_dead", points: [name]}); return; }
          if (!myTurn()) { say(R.not_your_turn); return; }
          // Never send a move the referee would refuse (or count as void).
          if (stone !== ".") { say(R.go_occupied); return; }
          if (forbidden[name]) { say(R["go_" + forbidden[name]]); return; }
          say(null); sendMove(name);
        });
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
      // The name links to the player's profile (an engine has none); an engine
      // at a level: its own name and version, the level in the page's language.
      // Every name shown is a display name (issue 32.8): a group's members, an engine account's engine.
      const who = !p ? "?" : p.level ? `${p.title} (${p.level[lang] || p.level.en})` : (p.display_name || p.name);
      const nameBox = $("name-" + slot), key = `${side}:${p && p.id ? p.id : ""}:${lang}:${who}`;
      if (nameBox.dataset.shown !== key) {
        nameBox.dataset.shown = key;
        if (p && p.id) {
          const a = document.createElement("a");
          a.href = `/users/${encodeURIComponent(p.id)}`; a.className = "player-link"; a.textContent = p.display_name || p.name;
          nameBox.replaceChildren(`${sideName(side)} · `, a);
        } else nameBox.textContent = `${sideName(side)} · ${who}`;
      }
      const box = $("clock-" + slot);
      box.classList.toggle("stale", viewPly !== null);
      if (!c) { box.textContent = ""; continue; }
      if (viewPly !== null) {
        // Replay: the clock as recorded after that side's last move so far;
        // never a running clock.
        const mine = moves.slice(0, viewPly).filter(mv => mv.side === side && mv.clock !== null);
        box.textContent = mine.length ? fmtClock(mine[mine.length - 1].clock) : "–";
        box.classList.remove("running");
        continue;
      }
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
    if (viewPly !== null) status.textContent = T.viewing.replace("{n}", viewPly);
    else if (state.status === "waiting") status.textContent = T.waiting;
    else if (!state.you && state.group && !state.result)  // 会商: a member plays
      status.textContent = state.to_move === state.group ? T.group_turn : T.their_turn;
    else if (!state.you && !state.group) status.textContent = T.spectator;
    else if (!state.you) status.textContent = "";
    else if (!state.result) status.textContent = myTurn() ? T.your_turn : T.their_turn;
    else status.textContent = "";
    if (viewPly === null && state.position && state.position.check && !state.result) status.textContent += " " + T.check;
    renderCount(status);
    $("status").classList.toggle("viewing", viewPly !== null);
    $("back-live").hidden = viewPly === null;
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
      $("result-clause").replaceChildren(...clauseNodes(r.clause, r.links));
      // The reason's name in the page's language, never the code.
      const names = R._reason_names || {};
      $("result-reason").textContent = names[r.reason] ? names[r.reason][lang === "zh" ? 0 : 1] : "";
    }
    // A group's member resigns and answers draws for his group (his vote
    // for it: the server counts the group's rule, issue 33 item 7).
    const me = state.you || state.group;
    const playing = !!me && !r && state.status === "active";
    const offerFromThem = state.offer && state.offer !== me;
    document.querySelectorAll("#actions [data-act]").forEach(b => { b.disabled = !playing; });
    // A spectator has no actions: hide the players' buttons rather than grey them.
    $("actions").hidden = !me;
    // The page has only the buttons of the rule profile (state.actions).
    if ($("offer-draw")) {
      $("accept-draw").hidden = !offerFromThem; $("decline-draw").hidden = !offerFromThem;
      $("offer-draw").hidden = !!offerFromThem;
    }
    // Actions the rule profile forbids at this moment are not offered: the
    // control is disabled and says why (tooltip and visible text).
    const why = playing ? ((state.allowed || {})[me] || {}) : {};
    const lines = [];
    // Against an engine, which answers within a second, "after one's own
    // move" (23.1) leaves no time to click: on one's move the button offers
    // the draw with the next move instead (issue 32.7).
    const vsEngine = playing && Object.values(state.players || {}).some(p => p && p.engine);
    const withMove = vsEngine && myTurn() && viewPly === null && why.offer_draw
      && why.offer_draw.code === "offer_after_own_move" && !!$("offer-with-move");
    for (const [act, id] of [["offer_draw", "offer-draw"], ["claim", "claim"]]) {
      const b = $(id);
      if (!b) continue;
      const r = why[act];
      if (act === "offer_draw" && withMove && !b.hidden) {
        b.dataset.withMove = "1"; b.title = T.offer_next_move; delete b.dataset.why;
        b.setAttribute("aria-pressed", $("offer-with-move").checked ? "true" : "false");
        continue;
      }
      if (b.dataset.withMove) { delete b.dataset.withMove; b.removeAttribute("aria-pressed"); }
      if (r && !b.hidden) {
        b.disabled = true; b.title = reasonText(r); b.dataset.why = r.code;
        lines.push(`${b.textContent}${lang === "zh" ? "：" : ": "}${reasonText(r)}`);
      } else { b.title = ""; delete b.dataset.why; }
    }
    if ($("offer-with-move-label")) {
      // Offered with the move (23.1): allowed when it is one's turn and the
      // offer would not be a second one in a row.
      const r = why.offer_draw;
      const can = playing && myTurn() && viewPly === null && !offerFromThem
        && !(r && r.code === "offer_twice");
      $("offer-with-move-label").hidden = !can;
      if (!can) $("offer-with-move").checked = false;
    }
    $("why-not").replaceChildren(...lines.map(t => { const li = document.createElement("li"); li.textContent = t; return li; }));
    if ($("confirm-dead")) {
      const sc = state.phase === "scoring";
      $("confirm-dead").hidden = !sc; $("dispute-dead").hidden = !sc;
      // 4(4): only the side whose turn it is to confirm may; the other sees why.
      const confirm = (state.position || {}).confirm;
      if (sc && confirm && playing && confirm.next !== state.you) {
        $("confirm-dead").disabled = true; $("confirm-dead").title = $("confirm-who").textContent;
      } else $("confirm-dead").title = "";
      if ($("pass")) $("pass").hidden = sc;
    }
    renderRulings();
    if ($("arbiter")) {
      const open = !r && state.status === "active";
      $("arbiter").querySelectorAll("button").forEach(b => { b.disabled = !open; });
    }
    renderMoves();
  }
  // The count beside the board (issue 32.4): who confirms next (4(4): the
  // side to move first, then the other) and the arithmetic as the rules
  // write it (黑方 184 子 … 贴 3¾ 子 …).
  function renderCount(status) {
    const box = $("count-box");
    if (!box) return;
    const pos = state.position || {}, count = viewPly === null ? pos.count : null;
    box.hidden = !count;
    if (!count) return;
    $("count-lines").replaceChildren(...(count.lines || []).map(l => {
      const li = document.createElement("li"); li.textContent = l[lang] || l.en; return li;
    }));
    const who = $("confirm-who"), confirm = pos.confirm;
    who.hidden = !confirm || !!state.result;
    if (confirm && !state.result) {
      const next = confirm.next;
      const text = next === state.you ? T.confirm_you
        : (state.you ? T.confirm_wait : T.confirm_next).replace("{side}", sideName(next));
      who.textContent = text; who.dataset.next = next || "";
      status.textContent = text;
    }
  }
  // The move list in pairs (1. 炮二平五 马8进7), each move a button to view it.
  function renderMoves() {
    const key = $("notation") ? $("notation").value : "move";
    const list = $("moves"); list.replaceChildren();
    let row = null;
    for (const mv of moves) {
      const firstOfPair = mv.side === "first" || !row;
      if (firstOfPair) {
        row = document.createElement("li");
        const num = document.createElement("span");
        num.className = "num"; num.textContent = `${Math.floor((mv.ply + 1) / 2)}.`;
        row.appendChild(num);
        if (mv.side !== "first") row.appendChild(Object.assign(document.createElement("span"), {className: "mv", textContent: "…"}));
        list.appendChild(row);
      }
      const b = document.createElement("button");
      b.type = "button"; b.className = "mv"; b.dataset.ply = mv.ply;
      b.textContent = mv[key] || mv.move;
      if (viewPly === mv.ply) b.classList.add("viewing");
      b.addEventListener("click", () => view(mv.ply));
      row.appendChild(b);
      if (mv.side !== "first") row = null;
    }
    const cur = list.querySelector(".viewing");
    if (cur) cur.scrollIntoView({block: "nearest"}); else list.scrollTop = list.scrollHeight;
    $("nav-first").disabled = !moves.length || viewPly === 0;
    $("nav-prev").disabled = !moves.length || viewPly === 0;
    $("nav-next").disabled = viewPly === null;
    $("nav-last").disabled = viewPly === null;
  }
  // Replay: show ply ``ply`` (0: the start); the last ply is the live position.
  function view(ply) {
    if (ply === null || ply >= moves.length) viewPly = null;
    else viewPly = Math.max(0, ply);
    selected = null;
    render();
  }
  function step(where) {
    const cur = viewPly === null ? moves.length : viewPly;
    view({first: 0, prev: cur - 1, next: cur + 1, last: null}[where]);
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
      clause.className = "clause"; clause.replaceChildren(...clauseNodes(x.clause, x.links));
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
    if (viewPly !== null && viewPly >= moves.length) viewPly = null;
    if (!("you" in s)) s.you = state.you;  // updates leave out the socket's own side
    if (!full) s.group = state.group;  // and the viewer's group (会商)
    state = s; receivedAt = performance.now();
    if (pending && state.ply >= pending.ply) pending = null;
    if (selected && !(state.position.legal || {})[selected]) selected = null;
    render();
    // For the page's other scripts (comfort.js: takeback, rematch, sounds).
    document.dispatchEvent(new CustomEvent("qisai:state", {detail: {state, full: !!full}}));
  }

  // -------------------------------------------------------------- socket
  function send(msg) {
    msg.id = msg.id || "c" + (++msgId);
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
    return msg;
  }
  function sendMove(mv) {
    if (viewPly !== null) { say(R.viewing); return; }  // never a move from an old position
    const msg = {type: state.kind === "go" && mv === "pass" ? "pass" : "move", ply: state.ply + 1, move: mv};
    const offer = $("offer-with-move");
    if (offer && offer.checked) { msg.offer_draw = true; offer.checked = false; }
    pending = send(msg);
  }
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/games/${state.id}`);
    ws.onopen = () => { retry = 500; $("notice").textContent = ""; };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      // blindfold.js listens; kept too for a script that starts listening
      // only after the socket's first message came (a slow script fetch)
      window.qisaiLastGameMessage = msg;
      document.dispatchEvent(new CustomEvent("qisai:game-message", {detail: msg}));
      if (msg.type === "state") {
        applyState(msg.state, true);
        // Resend a move that may have been lost with the old socket: the ply
        // number makes the server accept it once at most.
        if (pending && state.ply < pending.ply) ws.send(JSON.stringify(pending));
      } else if (msg.type === "update") {
        applyState(msg.state, false);
        document.dispatchEvent(new CustomEvent("qisai:notices", {detail: {notices: msg.notices, state}}));
        const last = msg.notices[msg.notices.length - 1];
        if (last) {
          let text = last[lang];
          const mv = last.type === "moved" && last.side ? moves.find(m => m.ply === state.ply && m.side === last.side) : null;
          if (mv) {
            // The move in the page's notation (黑方 马8进7), not the coordinates.
            const key = $("notation") ? $("notation").value : "move";
            text = `${sideName(last.side)} ${mv[key] || mv.move}`;
          }
          $("notice").textContent = text;
          $("notice").dataset.code = last.type;
        }
      } else if (msg.type === "ack") {
        if (pending && msg.id === pending.id) pending = null;
      } else if (msg.type === "error") {
        if (pending && msg.id === pending.id) pending = null;
        say(msg[lang] ? msg : {code: "refused", zh: msg.message, en: msg.message, clause: ""});
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
    if (act === "offer_draw" && b.dataset.withMove) {
      // The offer rides on the player's next move (23.1), which the engine answers first.
      const box = $("offer-with-move");
      box.checked = !box.checked;
      b.setAttribute("aria-pressed", box.checked ? "true" : "false");
      say(box.checked ? {code: "offer_next_move", zh: T.offer_next_move, en: T.offer_next_move, clause: "23.1"} : null);
      return;
    }
    if (act === "resign" && !window.confirm(T.resign_confirm)) return;
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
  for (const where of ["first", "prev", "next", "last"]) $("nav-" + where).addEventListener("click", () => step(where));
  $("back-live").addEventListener("click", () => view(null));
  document.addEventListener("keydown", (ev) => {
    const tag = (ev.target && ev.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const where = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[ev.key];
    if (where) { ev.preventDefault(); step(where); }
  });
  if ($("notation")) $("notation").addEventListener("change", render);
  $("join-button").addEventListener("click", async () => {
    try { await qisai.ensureSession(); await qisai.api("POST", `/api/games/${state.id}/join`); location.reload(); }
    catch (e) { $("notice").textContent = e.message; }
  });
  // What the page's other scripts may use: the state and the socket.
  qisai.game = {state: () => state, send, say, reasonText, viewing: () => viewPly !== null,
                       clockLeft: (side) => {
                         const c = state.clocks;
                         if (!c || c[side] === null || c[side] === undefined) return null;
                         return c[side] - (c.running === side && !state.result ? (performance.now() - receivedAt) / 1000 : 0);
                       }};
  setInterval(renderClocks, 200);
  render();
  connect();
})();
