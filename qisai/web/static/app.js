// Shared page helpers: the JSON API with the CSRF token, forms on every page.
"use strict";
const qisai = (() => {
  const csrf = () => document.querySelector('meta[name="csrf"]').content;
  async function api(method, path, body) {
    const headers = {"Accept": "application/json"};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method !== "GET") headers["X-CSRF-Token"] = csrf();
    const res = await fetch(path, {method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body)});
    let data = null;
    if (res.status !== 204) { try { data = await res.json(); } catch (e) { data = null; } }
    if (!res.ok) {
      const msg = data && data.detail ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)) : res.statusText;
      throw new Error(`${res.status}: ${msg}`);
    }
    return data;
  }
  async function ensureSession() {
    if (csrf()) return;
    // A guest session needs the pre-session CSRF token (and its cookie) first.
    const meta = document.querySelector('meta[name="csrf"]');
    meta.content = (await api("GET", "/api/auth/csrf")).csrf;
    try { meta.content = (await api("POST", "/api/auth/guest")).csrf; }
    catch (e) { meta.content = ""; throw e; }
  }
  // The boards' drawing helpers (game, analysis and simul pages).
  function svgEl(name, attrs, text) {
    const e = document.createElementNS("http://www.w3.org/2000/svg", name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // Rule 1.2: the pieces' names, Red (upper case) and Black.
  const XQ = {K: "帅", A: "仕", B: "相", N: "马", R: "车", C: "炮", P: "兵",
              k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒"};
  // FEN placement -> {"e0": "K", ...} (files a-i, ranks 0-9 from Red's side).
  function parseFen(fen) {
    const out = {};
    fen.split(" ")[0].split("/").forEach((row, i) => {
      let f = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) f += Number(ch);
        else { out["abcdefghi"[f] + (9 - i)] = ch; f += 1; }
      }
    });
    return out;
  }
  // The Xiangqi board's lines, palaces, river text and file numbers (issue
  // 32.3).  Chinese notation counts files from each player's right (7.5):
  // Red's 一..九 under Red's side, Black's 1..9 above Black's; the numbers
  // stay with their files when the board is turned.  Returns sq -> [x, y].
  const RED_FILES = "九八七六五四三二一";  // file a..i from Red's left: 九 .. 一
  function xiangqiBoard(svg, flipped) {
    svg.setAttribute("viewBox", "0 -45 900 1090");
    const xy = (sq) => {
      const f = "abcdefghi".indexOf(sq[0]), r = Number(sq.slice(1));
      return flipped ? [50 + (8 - f) * 100, 50 + r * 100] : [50 + f * 100, 50 + (9 - r) * 100];
    };
    const g = svgEl("g", {stroke: "#5a3b1a", "stroke-width": 3, fill: "none"});
    for (let r = 0; r < 10; r++) g.appendChild(svgEl("line", {x1: 50, y1: 50 + r * 100, x2: 850, y2: 50 + r * 100}));
    for (let f = 0; f < 9; f++) {
      const x = 50 + f * 100;
      if (f === 0 || f === 8) g.appendChild(svgEl("line", {x1: x, y1: 50, x2: x, y2: 950}));
      else { g.appendChild(svgEl("line", {x1: x, y1: 50, x2: x, y2: 450}));
             g.appendChild(svgEl("line", {x1: x, y1: 550, x2: x, y2: 950})); }
    }
    for (const y of [50, 750]) {
      g.appendChild(svgEl("line", {x1: 350, y1: y, x2: 550, y2: y + 200}));
      g.appendChild(svgEl("line", {x1: 550, y1: y, x2: 350, y2: y + 200}));
    }
    svg.appendChild(g);
    svg.appendChild(svgEl("text", {x: 450, y: 515, "text-anchor": "middle", "font-size": 44, fill: "#5a3b1a",
                                   class: "river"}, flipped ? "汉 界　　　楚 河" : "楚 河　　　汉 界"));
    const labels = svgEl("g", {class: "coords", "font-size": 34, "text-anchor": "middle", fill: "#5a3b1a"});
    for (let f = 0; f < 9; f++) {
      const file = "abcdefghi"[f];
      const x = xy(file + "0")[0];
      // Red's numbers on Red's side (the bottom unless turned), Black's on Black's.
      labels.appendChild(svgEl("text", {x, y: flipped ? -10 : 1032, class: "coord red-file", "data-file": file},
                               RED_FILES[f]));
      labels.appendChild(svgEl("text", {x, y: flipped ? 1032 : -10, class: "coord black-file", "data-file": file},
                               String(f + 1)));
    }
    svg.appendChild(labels);
    return xy;
  }
  // The Go board's lines, star points (hoshi) and coordinates: letters A-T
  // without I across, numbers up from the bottom (as moves are written,
  // E5, C3).  Go boards are not turned for White; the flip button turns
  // the view, and the coordinates go with their points.  Returns
  // (row, col) -> [x, y], row 0 the top line (number n).
  const GTP = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  function starPoints(n) {
    if (n < 7) return n % 2 ? [[(n - 1) / 2, (n - 1) / 2]] : [];
    const e = n >= 13 ? 3 : 2, lines = [e, n - 1 - e];
    if (n % 2 && n >= 9) lines.splice(1, 0, (n - 1) / 2);
    const out = [];
    for (const r of lines) for (const c of lines) {
      // 13x13 and smaller: the corners and the centre only (19x19: nine).
      if (n < 15 && lines.length === 3 && (r === lines[1]) !== (c === lines[1])) continue;
      out.push([r, c]);
    }
    return out;
  }
  function goBoard(svg, n, flipped) {
    const s = 100, m = 120, w = m * 2 + s * (n - 1);
    svg.setAttribute("viewBox", `0 0 ${w} ${w}`);
    const xy = (row, col) => [m + (flipped ? n - 1 - col : col) * s, m + (flipped ? n - 1 - row : row) * s];
    const g = svgEl("g", {stroke: "#333", "stroke-width": 3});
    for (let i = 0; i < n; i++) {
      g.appendChild(svgEl("line", {x1: m, y1: m + i * s, x2: m + (n - 1) * s, y2: m + i * s}));
      g.appendChild(svgEl("line", {x1: m + i * s, y1: m, x2: m + i * s, y2: m + (n - 1) * s}));
    }
    svg.appendChild(g);
    for (const [r, c] of starPoints(n)) {
      const [x, y] = xy(r, c);
      svg.appendChild(svgEl("circle", {cx: x, cy: y, r: 12, fill: "#333", class: "star"}));
    }
    const labels = svgEl("g", {class: "coords", "font-size": 40, "text-anchor": "middle", fill: "#333"});
    const far = m + (n - 1) * s;
    for (let i = 0; i < n; i++) {
      const [x] = xy(0, i), [, y] = xy(i, 0);
      for (const yy of [m - 62, far + 92])
        labels.appendChild(svgEl("text", {x, y: yy, class: "coord letter"}, GTP[i]));
      for (const xx of [m - 72, far + 72])
        labels.appendChild(svgEl("text", {x: xx, y: y + 14, class: "coord number"}, String(n - i)));
    }
    svg.appendChild(labels);
    return xy;
  }
  return {api, csrf, ensureSession, svgEl, XQ, parseFen, xiangqiBoard, goBoard, GTP,
          lang: () => document.querySelector('meta[name="lang"]').content};
})();

document.addEventListener("DOMContentLoaded", () => {
  const logout = document.getElementById("logout");
  if (logout) logout.addEventListener("click", async () => {
    await qisai.api("POST", "/api/auth/logout"); location.href = "/";
  });

  const form = document.getElementById("new-game");
  if (form) {
    const kind = document.getElementById("kind"), rules = document.getElementById("ruleset");
    const opponent = document.getElementById("opponent");
    // The engine opponents: only those that play the chosen game.
    const listEngines = async () => {
      let list;
      try { list = await qisai.api("GET", `/api/engines?kind=${encodeURIComponent(kind.value)}`); }
      catch (e) { return; }  // keep the options the page came with
      const chosen = opponent.value;
      opponent.querySelectorAll('option[value^="engine:"]').forEach(o => o.remove());
      for (const e of list) {
        const o = document.createElement("option");
        o.value = "engine:" + e.name;
        // A found engine by its own name and its level in the page's language.
        o.textContent = e.name === "builtin" ? opponent.dataset.builtin
          : e.level ? `${e.engine} · ${e.level[qisai.lang()] || e.level.en}` : e.name;
        opponent.appendChild(o);
      }
      opponent.value = [...opponent.options].some(o => o.value === chosen) ? chosen : "human";
    };
    // The rule profiles by their names in the page's language (GET /api/rules).
    const listRules = async () => {
      const preferred = kind.value === "go" ? "go-casual" : "casual";
      // Without the API, the names the page came with (never the bare codes).
      let names = {};
      try { names = JSON.parse(rules.dataset.names || "{}"); } catch (e) { /* codes then */ }
      let profiles = rules.dataset[kind.value].split(",").map(n => ({name: n, ...(names[n] || {})}));
      try { profiles = (await qisai.api("GET", `/api/rules?kind=${encodeURIComponent(kind.value)}`)).profiles; }
      catch (e) { /* keep the names above */ }
      const lang = qisai.lang();
      rules.replaceChildren(...profiles.map(p => {
        const o = document.createElement("option");
        o.value = p.name; o.textContent = p[lang] || p.name; o.selected = p.name === preferred;
        return o;
      }));
    };
    kind.addEventListener("change", () => {
      listRules();
      document.getElementById("size-label").hidden = kind.value !== "go";
      listEngines();
    });
    listEngines();
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const err = document.getElementById("new-game-error");
      err.textContent = "";
      const body = {kind: kind.value, ruleset: rules.value, color: form.color.value,
                    rated: !!(form.rated && form.rated.checked), opponent: "human"};
      if (form.opponent.value.startsWith("engine:")) {
        body.opponent = "engine"; body.engine = form.opponent.value.slice(7); body.rated = false;
      }
      if (form.time.value.startsWith("cn:")) {
        // Chinese byo-yomi (Go §3 读秒): main minutes, then a reserve of
        // whole minutes with the arbiter's calls.
        const [m, r] = form.time.value.slice(3).split("+").map(Number);
        body.time = {minutes: m, byoyomi: {kind: "chinese", periods: r, seconds: 60}};
      } else if (form.time.value) {
        const [m, i] = form.time.value.split("+").map(Number);
        body.time = {minutes: m, increment: i};
      } else body.time = null;  // "No clock": no clock, whatever the profile's default
      if (kind.value === "go") body.size = Number(form.size.value);
      try {
        await qisai.ensureSession();
        const g = await qisai.api("POST", "/api/games", body);
        location.href = `/games/${g.id}`;
      } catch (e) { err.textContent = e.message; }
    });
  }
  // Play with the computer (issue 32.6): a casual game, no clock, colours by lot.
  document.querySelectorAll("[data-computer]").forEach(b => b.addEventListener("click", async () => {
    const kind = b.dataset.computer, err = document.getElementById("computer-error");
    const body = {kind, ruleset: kind === "go" ? "go-casual" : "casual", color: "random",
                  rated: false, opponent: "engine", time: null,
                  engine: document.getElementById("computer-" + kind).value};
    if (kind === "go") body.size = 9;
    b.disabled = true; err.textContent = "";
    try {
      await qisai.ensureSession();
      const g = await qisai.api("POST", "/api/games", body);
      location.href = `/games/${g.id}`;
    } catch (e) { err.textContent = e.message; b.disabled = false; }
  }));
  document.querySelectorAll("[data-join]").forEach(a => a.addEventListener("click", async (ev) => {
    ev.preventDefault();
    try {
      await qisai.ensureSession();
      await qisai.api("POST", `/api/games/${a.dataset.join}/join`);
    } catch (e) { /* already seated or taken: just open the game */ }
    location.href = a.href;
  }));
});
