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
  return {api, csrf, ensureSession, svgEl, XQ, parseFen,
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
  document.querySelectorAll("[data-join]").forEach(a => a.addEventListener("click", async (ev) => {
    ev.preventDefault();
    try {
      await qisai.ensureSession();
      await qisai.api("POST", `/api/games/${a.dataset.join}/join`);
    } catch (e) { /* already seated or taken: just open the game */ }
    location.href = a.href;
  }));
});
