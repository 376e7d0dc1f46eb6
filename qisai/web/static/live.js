// The home page's live boards and TV (issue 22.2) on ONE page socket,
// /ws/lobby, and the events calendar's register buttons (issue 22.3).
"use strict";
(() => {
  const lang = qisai.lang();
  // ------------------------------------------------------------ live boards
  const elements = new Map();  // game id -> its board elements (TV and grid may share one)
  document.querySelectorAll("[data-live-board]").forEach(el => {
    const id = el.dataset.liveBoard;
    if (!elements.has(id)) elements.set(id, []);
    elements.get(id).push(el);
  });
  const PIECES = {K: "帅", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
                  k: "将", a: "士", b: "象", n: "马", r: "车", c: "砲", p: "卒"};
  const clocks = new Map();  // game id -> {first, second, running, at}
  let nextShow = null;  // TV: the timer that opens the next featured game

  // Both boards are drawn as on the game page (issue 32.3): lines, river,
  // file numbers; Go lines, star points and coordinates.
  const el = qisai.svgEl;
  function xiangqi(box, view) {
    const svg = el("svg", {class: "xiangqi"});
    const xy = qisai.xiangqiBoard(svg, false);
    const pieces = qisai.parseFen(view.fen);
    if (view.last) for (const sq of [view.last.slice(0, 2), view.last.slice(2, 4)]) {
      const [x, y] = xy(sq);
      svg.appendChild(el("rect", {x: x - 48, y: y - 48, width: 96, height: 96, class: "last", "data-last": sq}));
    }
    for (const [sq, p] of Object.entries(pieces)) {
      const [x, y] = xy(sq), red = p === p.toUpperCase();
      const g = el("g", {"data-square": sq, "data-piece": p});
      g.appendChild(el("circle", {cx: x, cy: y, r: 43, class: "piece", stroke: red ? "#b00" : "#222"}));
      g.appendChild(el("text", {x, y: y + 15, "text-anchor": "middle", "font-size": 46,
                                fill: red ? "#b00" : "#222", class: "glyph"}, PIECES[p] || "?"));
      svg.appendChild(g);
    }
    box.className = "lb-position xq";
    box.replaceChildren(svg);
  }
  function go(box, view) {
    const n = view.size, svg = el("svg", {class: "go"});
    const xy = qisai.goBoard(svg, n, false);
    view.grid.forEach((line, row) => [...line].forEach((ch, col) => {
      if (ch !== "b" && ch !== "w") return;
      const [x, y] = xy(row, col);
      svg.appendChild(el("circle", {cx: x, cy: y, r: 47, class: ch === "b" ? "black" : "white",
                                    "data-point": qisai.GTP[col] + (n - row)}));
    }));
    box.className = "lb-position go";
    box.replaceChildren(svg);
  }
  const fmt = (secs) => {
    if (secs === null || secs === undefined) return "";
    const t = Math.max(0, Math.floor(secs));
    const h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = t % 60;
    return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s).padStart(2, "0")}`;
  };
  function showClocks(id) {
    const c = clocks.get(id);
    for (const el of elements.get(id) || []) {
      for (const side of ["first", "second"]) {
        const box = el.querySelector(`[data-clock="${side}"]`);
        if (!box) continue;
        if (!c) { box.textContent = ""; continue; }
        let left = c[side];
        if (c.running === side && left !== null) left -= (performance.now() - c.at) / 1000;
        box.textContent = fmt(left);
        box.classList.toggle("running", c.running === side);
      }
    }
  }
  function update(view) {
    for (const el of elements.get(view.id) || []) {
      const box = el.querySelector(".lb-position");
      if (view.kind === "xiangqi" && view.fen) xiangqi(box, view);
      else if (view.kind === "go" && view.grid) go(box, view);
      el.dataset.ply = String(view.ply);
      el.dataset.status = view.status;
      const status = el.querySelector(".lb-status");
      if (status) status.textContent = view.result ? view.result.tag : `#${view.ply}`;
      el.title = view.result ? view.result[lang] || "" : "";
    }
    clocks.set(view.id, view.clocks && !view.result
      ? {...view.clocks, at: performance.now()} : null);
    showClocks(view.id);
    // TV follows the featured game; when it has ended, the next featured one.
    if (view.result && document.getElementById("tv") && !nextShow) {
      nextShow = setTimeout(() => location.reload(), 15000);
    }
  }
  setInterval(() => { for (const id of clocks.keys()) showClocks(id); }, 1000);

  let delay = 1000;
  function connect() {
    if (!elements.size) return;
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`);
    ws.addEventListener("open", () => {
      delay = 1000;
      ws.send(JSON.stringify({type: "watch", games: [...elements.keys()]}));
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "boards") msg.boards.forEach(update);
    });
    ws.addEventListener("close", () => {
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }
  connect();

  // ------------------------------------------------------ events calendar
  document.querySelectorAll("form[data-register]").forEach(form => {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const err = form.querySelector(".error");
      err.textContent = "";
      const body = {};
      if (form.group) body.group = form.group.value;
      if (form.team) {
        body.team = {name: form.team.value.trim(),
                     members: form.members.value.split(/[,，、\s]+/).filter(Boolean)};
      }
      try {
        const data = await qisai.api("POST", `/api/tournaments/${form.dataset.register}/register`, body);
        const row = form.closest(".cal-event");
        const count = row.querySelector(".cal-entries");
        // a team naming others is an invitation: entered once they all accept (issue 31)
        if (count && !data.invitation) count.textContent = String(Number(count.textContent) + 1);
        const done = document.createElement("p");
        done.className = "small cal-done";
        done.textContent = data.invitation
          ? `邀请已发给 ${data.invitation.waiting_for.join("、")}，全部接受后报名生效 / invited ${data.invitation.waiting_for.join(", ")}: the team is entered when all accept`
          : form.dataset.done;
        form.replaceWith(done);
      } catch (e) { err.textContent = e.message; }
    });
  });
})();
