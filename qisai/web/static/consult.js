// Consultation boards (会商 / 联棋): the group panel of the game page, shown
// only to a group's members and to those who may rule on the game (the
// server answers GET /api/games/{id}/group with 403/404 to anyone else).
"use strict";
(() => {
  const data = document.getElementById("game-data");
  const side = document.querySelector("aside.side");
  if (!data || !side) return;
  const game = JSON.parse(data.textContent);
  const gid = game.id;
  const zh = () => qisai.lang() === "zh";
  const T = {
    title: ["会商小组", "Consultation group"], move: ["着法", "Move"],
    vote: ["投票", "Vote"], confirm: ["队长确认", "Captain confirms"],
    talk: ["组内讨论", "Group talk"], say: ["发送", "Send"],
    votes: ["票", "votes"], played: ["本方走了", "the group played"],
    majority: ["多数决定", "majority"], captain: ["队长决定", "captain decides"],
    reserve: ["本步保留时间", "Reserve for this move"], seconds: ["秒", "s"],
    absent: ["缺席", "absent"], support: ["支持", "support"],
    resign: ["认输", "resign"], offer_draw: ["提和", "offer a draw"],
    accept_draw: ["同意和棋", "accept the draw"], decline_draw: ["拒绝和棋", "decline the draw"],
  };
  const t = (k) => T[k][zh() ? 0 : 1];
  let view = null, deadlineAt = null;
  // The tally in the page's notation (中文 or ICCS: the game page's select).
  const notation = () => { const n = document.getElementById("notation"); return n ? n.value : "text"; };
  const moveText = (mv) => (notation() === "text" && view.texts && view.texts[mv]) || mv;

  async function call(method, path, body) {
    const headers = {"Accept": "application/json"};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method !== "GET") headers["X-CSRF-Token"] = qisai.csrf();
    const res = await fetch(path, {method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body)});
    let out = null;
    try { out = await res.json(); } catch (e) { out = null; }
    return {ok: res.ok, status: res.status, data: out};
  }

  function say(msg, code) {
    const n = document.getElementById("group-notice");
    n.textContent = msg; n.dataset.code = code || "";
  }

  function refusal(r) {
    const d = r.data || {};
    if (d.zh && d.en) return (zh() ? d.zh : d.en) + (d.clause ? ` (${d.clause})` : "");
    if (Array.isArray(d.detail)) return zh() ? "输入无效" : "invalid input";
    return String(d.detail || r.status);
  }

  function render() {
    const tally = document.getElementById("group-tally");
    if (!tally) return;  // the panel is built after the first load
    tally.replaceChildren(...view.tally.map(([mv, n]) => {
      const li = document.createElement("li");
      li.textContent = `${moveText(mv)}: ${n} ${t("votes")}`; li.dataset.move = mv;
      return li;
    }));
    const motions = document.getElementById("group-motions");
    motions.replaceChildren(...Object.entries(view.motions || {}).map(([k, n]) => {
      const li = document.createElement("li");
      li.dataset.motion = k;
      li.textContent = `${T[k] ? t(k) : k}: ${t("support")} ${n}/${view.present}`;
      return li;
    }));
    // The reserve counts down from the server's deadline (capped at the clock).
    deadlineAt = view.deadline === null || view.deadline === undefined ? null
      : performance.now() + (view.deadline - view.now) * 1000;
    tick();
    const talk = document.getElementById("group-talk");
    talk.replaceChildren(...view.talk.map((m) => {
      const li = document.createElement("li");
      li.textContent = `${m.name}: ${m.text}`;
      return li;
    }));
  }

  function tick() {
    const box = document.getElementById("group-reserve");
    if (!box) return;
    box.hidden = deadlineAt === null;
    if (deadlineAt === null) return;
    const left = Math.max(0, Math.ceil((deadlineAt - performance.now()) / 1000));
    box.dataset.left = String(left);
    box.textContent = `${t("reserve")}: ${left} ${t("seconds")}`
      + (view.absent && view.absent.length ? ` · ${t("absent")} ${view.absent.length}` : "");
  }

  async function load(sideName) {
    const q = sideName ? `?side=${sideName}` : "";
    const r = await call("GET", `/api/games/${gid}/group${q}`);
    if (!r.ok) return false;
    view = r.data; render(); return true;
  }

  function build() {
    const box = document.createElement("section");
    box.id = "group-panel"; box.className = "group-panel";
    box.innerHTML = `<h3></h3><p class="small" id="group-members"></p>
      <form id="group-form" class="row"><input id="group-move" maxlength="8" size="6" autocomplete="off">
      <button type="submit" id="group-vote"></button>
      <button type="button" id="group-confirm" class="secondary" hidden></button></form>
      <p id="group-notice" class="notice" aria-live="polite"></p>
      <p id="group-reserve" class="small" hidden></p>
      <ol id="group-tally"></ol><ul id="group-motions" class="small"></ul><h4></h4><ul id="group-talk"></ul>
      <form id="group-say-form" class="row"><input id="group-text" maxlength="500" autocomplete="off">
      <button type="submit" id="group-say"></button></form>`;
    box.querySelector("h3").textContent = `${t("title")} · ${t(view.mode)}`;
    box.querySelector("h4").textContent = t("talk");
    box.querySelector("#group-members").textContent = view.names.join("、");
    box.querySelector("#group-move").placeholder = zh() ? "炮二平五 / h2e2" : "h2e2 / 炮二平五";
    box.querySelector("#group-vote").textContent = t("vote");
    box.querySelector("#group-confirm").textContent = t("confirm");
    box.querySelector("#group-say").textContent = t("say");
    side.appendChild(box);
    return box;
  }

  async function vote(confirm) {
    const move = document.getElementById("group-move").value.trim();
    await load();
    const r = await call("POST", `/api/games/${gid}/group/votes`, {ply: view.ply, move, confirm});
    if (!r.ok) { say(refusal(r), (r.data && r.data.code) || "refused"); return; }
    const shown = r.data.played ? ((r.data.texts || {})[r.data.played] && notation() === "text"
      ? r.data.texts[r.data.played] : r.data.played) : "";
    say(r.data.played ? `${t("played")} ${shown}` : "", r.data.played ? "played" : "voted");
    document.getElementById("group-move").value = "";
    await load();
  }

  function listen() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/games/${gid}`);
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (["group_vote", "group_talk", "group_motion", "update", "state"].includes(msg.type)) {
        load(view && view.side);
      }
    };
  }

  document.addEventListener("DOMContentLoaded", async () => {
    if (!qisai.csrf()) return;  // a visitor without a session sees no group
    // Ask only where there is an answer (issue 32 item 9: no 403/404 in the
    // console): a member for his group, one who may rule (the page shows him
    // the arbiter's form) for a side a group plays.
    const sides = game.group_sides || [];
    const params = new URLSearchParams(location.search);
    const wanted = sides.includes(params.get("group")) ? params.get("group") : sides[0];
    if (game.group) {  // the viewer plays in one of them
      if (!(await load())) return;
    } else if (!sides.length || !document.getElementById("arbiter") || !(await load(wanted))) {
      return;
    }
    const box = build();
    if (view.is_captain) box.querySelector("#group-confirm").hidden = false;
    if (!view.member) {  // an arbiter reads; only members vote and talk
      box.querySelector("#group-form").hidden = true;
      box.querySelector("#group-say-form").hidden = true;
    }
    box.querySelector("#group-form").addEventListener("submit", (e) => { e.preventDefault(); vote(false); });
    box.querySelector("#group-confirm").addEventListener("click", () => vote(true));
    box.querySelector("#group-say-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const input = document.getElementById("group-text");
      const r = await call("POST", `/api/games/${gid}/group/talk`, {text: input.value});
      if (!r.ok) { say(refusal(r), "refused"); return; }
      input.value = ""; await load(view.side);
    });
    render();
    listen();
    setInterval(tick, 250);
    const sel = document.getElementById("notation");
    if (sel) sel.addEventListener("change", render);
  });
})();
