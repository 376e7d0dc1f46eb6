// Simultaneous displays: the organiser's form, entry, and the display's page
// over one socket (/ws/simuls/{id}) for every board.  The host walks the
// ring ("next board": n, space or a click); an entrant sees his own board
// and the host's progress.  A blindfold seat's board has no pieces: the
// opponent's move is announced (text, and speech where the browser has a
// voice) and the reply is typed in any notation.  The server decides all.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const lang = qisai.lang();

  // ------------------------------------------------------------- the list
  if ($("new-simul")) {
    $("new-simul").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const body = {name: $("s-name").value.trim(), game: $("s-game").value,
                    max_boards: Number($("s-max").value), rated: $("s-rated").checked,
                    host_blindfold: $("s-blind").checked};
      if ($("s-colour").value) body.host_colour = $("s-colour").value;
      const minutes = Number($("s-minutes").value || 0);
      if (minutes > 0) {
        body.time = {minutes, increment: Number($("s-increment").value || 0)};
        // lichess's host extra time: the entrants' clock plus extra time per board
        body.host_extra_minutes = Number($("s-extra").value || 0);
        body.host_extra_per_board = Number($("s-extra-board").value || 0);
      }
      try { const s = await qisai.api("POST", "/api/simuls", body); location.href = `/simuls/${s.id}`; }
      catch (e) { $("s-error").textContent = e.message; }
    });
  }
  if ($("s-game")) {
    // The host's colours of the game, in the page's language: Xiangqi 红方/黑方
    // (never "white"), Go 黑方/白方.
    const colour = $("s-colour");
    const fill = () => {
      const go = $("s-game").value === "go";
      const [a, b] = go ? ["black", "white"] : ["red", "black"];
      const opts = colour.options;  // —, first colour, second colour, alternate
      opts[1].value = a; opts[1].textContent = colour.dataset[a];
      opts[2].value = b; opts[2].textContent = colour.dataset[b];
    };
    $("s-game").addEventListener("change", fill);
    fill();
  }
  if (!$("simul")) return;

  const simulData = JSON.parse($("simul-data").textContent);
  const T = JSON.parse($("simul-texts").textContent);
  const id = simulData.id, you = simulData.you;
  const entry = async (path, body) => {
    try { await qisai.api("POST", `/api/simuls/${id}/${path}`, body); location.reload(); }
    catch (e) { $("simul-error").textContent = e.message; }
  };
  if ($("join-simul")) $("join-simul").addEventListener("click", () => entry("join", {blindfold: $("join-blind").checked}));
  if ($("leave-simul")) $("leave-simul").addEventListener("click",
    () => entry($("leave-simul").dataset.group ? "groups/leave" : "leave"));
  // a consultation group: each member joins by his own click (his consent)
  if ($("form-group")) $("form-group").addEventListener("click",
    () => entry("groups", {name: $("group-name").value.trim(), blindfold: $("join-blind").checked}));
  document.querySelectorAll(".join-group").forEach(btn => btn.addEventListener("click",
    () => entry(`groups/${btn.dataset.group}/join`)));
  if ($("start-simul")) $("start-simul").addEventListener("click", () => entry("start"));
  if (simulData.status === "open") {
    setTimeout(() => location.reload(), 10000);  // entrants arrive; the start opens the boards
    return;
  }

  // ------------------------------------------------------------- boards
  const boards = new Map();   // number -> {state, el}
  const info = new Map(simulData.boards.map(b => [b.number, b]));
  let current = null, ws = null, msgId = 0, selected = null;
  const XQ = qisai.XQ, parseFen = qisai.parseFen;
  const FILES = "abcdefghi", GO = "ABCDEFGHJKLMNOPQRST";
  const label = (n) => lang === "zh" ? `第${n}${T.board}` : `${T.board} ${n}`;

  function blind(st) { return !!st.you && (st.blindfold || []).includes(st.you); }
  function hostToMove(st) {
    const p = st.players && st.players[st.to_move];
    return !st.result && st.status === "active" && p && p.id === simulData.host_id;
  }
  // The board's result as the host's 胜/和/负 (the display's score is the host's).
  function hostResult(st) {
    const r = st.result;
    const host = Object.keys(st.players || {}).find(s => (st.players[s] || {}).id === simulData.host_id);
    if (!r.winner) return r.outcome === "draw" ? T.host_draw : T.no_result;
    return r.winner === host ? T.host_win : T.host_loss;
  }
  // The lines of a Xiangqi board over the mini grid: files, ranks, the
  // river (楚河 汉界) between ranks 4 and 5, and the two palaces' diagonals.
  const SVGNS = "http://www.w3.org/2000/svg";
  function xiangqiLines() {
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "lines"); svg.setAttribute("viewBox", "0 0 9 10");
    svg.setAttribute("preserveAspectRatio", "none"); svg.setAttribute("aria-hidden", "true");
    const line = (x1, y1, x2, y2, cls) => {
      const l = document.createElementNS(SVGNS, "line");
      Object.entries({x1, y1, x2, y2}).forEach(([k, v]) => l.setAttribute(k, v));
      if (cls) l.setAttribute("class", cls);
      svg.appendChild(l);
    };
    const river = document.createElementNS(SVGNS, "rect");
    Object.entries({x: 0.5, y: 4.5, width: 8, height: 1, class: "river"}).forEach(([k, v]) => river.setAttribute(k, v));
    svg.appendChild(river);
    for (let r = 0; r < 10; r++) line(0.5, r + 0.5, 8.5, r + 0.5);
    for (let f = 0; f < 9; f++) {
      if (f === 0 || f === 8) line(f + 0.5, 0.5, f + 0.5, 9.5);
      else { line(f + 0.5, 0.5, f + 0.5, 4.5); line(f + 0.5, 5.5, f + 0.5, 9.5); }
    }
    for (const top of [0.5, 7.5]) {  // the palaces (九宫)
      line(3.5, top, 5.5, top + 2, "palace"); line(5.5, top, 3.5, top + 2, "palace");
    }
    return svg;
  }
  function draw(n) {
    const b = boards.get(n), st = b.state, pos = st.position || {};
    const grid = b.el.querySelector(".grid");
    grid.textContent = "";
    const hidden = blind(st);  // a blindfold seat: no piece elements at all
    grid.classList.toggle("blind", hidden);
    const flip = st.you === "second";
    if (st.kind === "xiangqi") {
      grid.style.gridTemplateColumns = "repeat(9, 1fr)";
      grid.appendChild(xiangqiLines());
      const pieces = hidden ? {} : parseFen(pos.fen || "");
      for (let i = 0; i < 10; i++) for (let j = 0; j < 9; j++) {
        const r = flip ? i : 9 - i, f = flip ? 8 - j : j, sq = FILES[f] + r;
        const cell = document.createElement("div");
        cell.className = "sq"; cell.dataset.square = sq;
        if (!hidden && pos.last && (pos.last.startsWith(sq) || pos.last.endsWith(sq))) cell.classList.add("last");
        if (sq === selected && n === current) cell.classList.add("sel");
        const p = pieces[sq];
        if (p) {
          const s = document.createElement("span");
          s.className = "piece " + (p === p.toUpperCase() ? "red" : "black");
          s.dataset.piece = p; s.textContent = XQ[p];
          cell.appendChild(s);
        }
        cell.addEventListener("click", () => clickSquare(n, sq));
        grid.appendChild(cell);
      }
    } else {
      const size = pos.size || 19;
      grid.style.gridTemplateColumns = `repeat(${size}, 1fr)`;
      (pos.grid || []).forEach((line, i) => [...line].forEach((ch, c) => {
        const pt = GO[c] + (size - i);
        const cell = document.createElement("div");
        cell.className = "pt"; cell.dataset.point = pt;
        if (!hidden && ch !== ".") {
          const s = document.createElement("span");
          s.className = "stone piece " + (ch === "b" ? "black" : "white");
          cell.appendChild(s);
        }
        cell.addEventListener("click", () => clickSquare(n, pt));
        grid.appendChild(cell);
      }));
    }
    const head = b.el.querySelector(".head");
    const who = info.get(n) || {};
    const seats = (st.blindfold || []).map(s => `${st.names[s][lang]} ${T.blind_seat}`).join(" · ");
    const engine = who.engine ? ` (${who.engine.name})` : "";
    head.textContent = `${label(n)} · ${who.name || ""}${engine}${seats ? " · " + seats : ""}`;
    const tag = st.result ? hostResult(st) : hostToMove(st) ? T.waiting_host : T.waiting_entrant;
    b.el.querySelector(".tag").textContent = tag;
    const open = b.el.querySelector(".open-game");  // anyone may open the board's game
    if (open && st.id) open.href = `/games/${st.id}`;
    b.el.dataset.ply = st.ply;
    b.el.dataset.waiting = hostToMove(st) ? "host" : st.result ? "over" : "entrant";
    b.el.classList.toggle("current", n === current);
  }
  function order() {
    // Boards waiting for the host first, then the entrants', then finished.
    const rank = (n) => { const st = boards.get(n).state; return st.result ? 2 : hostToMove(st) ? 0 : 1; };
    const list = [...boards.keys()].sort((a, b) => rank(a) - rank(b) || a - b);
    const box = $("boards");
    for (const n of list) box.appendChild(boards.get(n).el);
  }
  function setCurrent(n) {
    const old = current; current = n; selected = null;
    if (old && boards.has(old)) draw(old);
    if (n && boards.has(n)) { draw(n); boards.get(n).el.scrollIntoView({block: "nearest"}); }
    $("current-label").textContent = n ? label(n) : T.none_waiting;
    $("current-label").dataset.board = n || "";
  }
  function nextBoard() {
    // The ring: the first board after the current one (wrapping) that waits for the host.
    const nums = [...boards.keys()].sort((a, b) => a - b);
    const start = current ? nums.indexOf(current) : -1;
    for (let k = 1; k <= nums.length; k++) {
      const n = nums[(start + k + nums.length) % nums.length];
      if (hostToMove(boards.get(n).state)) { setCurrent(n); return; }
    }
    setCurrent(null);
  }
  function clickSquare(n, sq) {
    if (you !== "host" && n !== simulData.my_board) return;
    if (n !== current) { setCurrent(n); return; }
    const st = boards.get(n).state;
    if (blind(st) || !st.you || st.result) return;
    if (st.kind === "go") { send({type: "move", board: n, ply: st.ply + 1, move: sq}); return; }
    const legal = (st.position || {}).legal || {};
    if (selected && (legal[selected] || []).includes(sq)) {
      send({type: "move", board: n, ply: st.ply + 1, move: selected + sq}); selected = null;
    } else selected = legal[sq] ? sq : null;
    draw(n);
  }
  function ensure(n) {
    if (!boards.has(n)) {
      const el = document.createElement("div");
      el.className = "mini"; el.dataset.board = n;
      el.innerHTML = '<div class="head"></div><div class="grid"></div>'
        + '<div class="foot small"><span class="tag"></span> <a class="open-game"></a></div>';
      el.querySelector(".open-game").textContent = T.open_game;
      const game = (info.get(n) || {}).game_id;
      if (game) el.querySelector(".open-game").href = `/games/${game}`;
      el.querySelector(".head").addEventListener("click", () => setCurrent(n));
      boards.set(n, {state: null, el});
      $("boards").appendChild(el);
    }
    return boards.get(n);
  }

  // ------------------------------------------------------------- announcer
  let voice = null;
  function pickVoice() {
    if (!("speechSynthesis" in window)) return;
    const want = lang === "zh" ? "zh-CN" : "en";
    voice = speechSynthesis.getVoices().find(v => v.lang.replace("_", "-").startsWith(want)) || null;
  }
  if ("speechSynthesis" in window) { pickVoice(); speechSynthesis.onvoiceschanged = pickVoice; }
  function speak(text) {
    // Text always; speech only where the browser has a voice of the page's language.
    if (!voice || !text) return;
    const u = new SpeechSynthesisUtterance(text); u.voice = voice; u.lang = voice.lang;
    speechSynthesis.speak(u);
  }
  async function announce(n) {
    const b = boards.get(n), st = b.state;
    if (!blind(st) || !st.ply) return;
    const last = (st.moves ? st.moves[st.moves.length - 1] : st.last_move) || {};
    if (last.side === st.you) return;  // announce the opponent's move only
    try {
      const a = await qisai.api("GET", `/api/games/${st.id}/announce?lang=${lang === "zh" ? "zh" : "en"}`);
      $("announce").textContent = a.text; $("announce").dataset.ply = a.ply; $("announce").dataset.board = n;
      speak(a.text);
    } catch (e) { $("simul-notice").textContent = e.message; }
  }

  // ------------------------------------------------------------- socket
  function send(msg) {
    msg.id = "s" + (++msgId);
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }
  function onBoard(n, msg) {
    const b = ensure(n);
    const st = msg.state;
    if (b.state && !("you" in st)) st.you = b.state.you;
    const before = b.state ? b.state.ply : null;
    b.state = st;
    draw(n);
    if (you === "host") order();
    if (msg.type === "update" && st.ply !== before) {
      announce(n);
      if (you === "entrant") $("progress").textContent = "";
    }
    if (msg.type === "state" && before === null) announce(n);
    if (current === null && (you === "host" ? hostToMove(st) : n === simulData.my_board)) setCurrent(n);
  }
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/simuls/${id}`);
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "board") onBoard(msg.board, msg.msg);
      else if (msg.type === "simul" || msg.type === "score") {
        const s = msg.simul;
        $("score").textContent = s.score[lang === "zh" ? "zh" : "en"];
        $("score").dataset.wins = s.score.wins;
        $("simul-status").textContent = T[s.status] || s.status;
      } else if (msg.type === "progress") {
        if (msg.host_to_move === false && !msg.over) {
          $("progress").textContent = `${T.host_at} ${label(msg.board)}`;
          $("progress").dataset.board = msg.board;
        }
      } else if (msg.type === "ack") {
        $("simul-notice").textContent = "";
        $("simul-notice").dataset.code = "";
      } else if (msg.type === "error") {
        $("simul-notice").textContent = msg[lang === "zh" ? "zh" : "en"] || msg.message;
        $("simul-notice").dataset.code = msg.code || "error";
      }
    };
    ws.onclose = () => setTimeout(connect, 1000);
  }
  if ($("typed")) $("typed").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const n = you === "host" ? current : simulData.my_board;
    const text = $("typed-move").value.trim();
    if (!n || !text) return;
    send({type: "typed", board: n, ply: boards.get(n).state.ply + 1, text});
    $("typed-move").value = "";
  });
  if ($("next-board")) $("next-board").addEventListener("click", nextBoard);
  document.addEventListener("keydown", (ev) => {
    const tag = (ev.target && ev.target.tagName) || "";
    if (you !== "host" || ["INPUT", "SELECT", "TEXTAREA", "BUTTON"].includes(tag)) return;
    if (ev.key === "n" || ev.key === " ") { ev.preventDefault(); nextBoard(); }
  });
  connect();
})();
