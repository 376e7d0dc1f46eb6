// Event pages: create an event, register players or teams, start, pair,
// publish, enter and correct results, decide matches, record withdrawals.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const err = document.getElementById("t-error");
  const call = async (method, path, body) => {
    err.textContent = "";
    try { return await qisai.api(method, path, body); }
    catch (e) { err.textContent = e.message; throw e; }
  };
  const imported = document.getElementById("import-event");
  if (imported) {
    // an event file made at the desk becomes a new event (qisai.web.events.transfer)
    imported.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const file = document.getElementById("import-file").files[0];
      if (!file) return;
      let body;
      try { body = JSON.parse(await file.text()); }
      catch (e) { err.textContent = `${file.name}: not JSON (${e.message})`; return; }
      const made = await call("POST", "/api/tournaments/import", body);
      location.href = `/tournaments/${made.id}`;
    });
  }
  const form = document.getElementById("new-tournament");
  if (form) {
    // show the options of the chosen format only
    const family = () => form.system.value.includes("knockout") ? "knockout"
      : form.system.value.startsWith("team_") ? "team"
      : form.system.value === "group_round_robin" ? "group"
      : form.system.value === "mcmahon" ? "mcmahon" : "individual";
    const toggle = () => form.querySelectorAll("[data-for]").forEach(
      el => { el.hidden = el.dataset.for !== family(); });
    form.system.addEventListener("change", toggle);
    toggle();
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const body = {name: form.name.value, kind: form.kind.value, system: form.system.value,
                    publish: form.publish.value, online: form.online.value === "server"};
      if (form.rounds.value) body.rounds = Number(form.rounds.value);
      if (family() === "knockout") {
        Object.assign(body, {series: form.series.value, draw: form.draw.value,
                             byes: form.byes.value, seeding: form.seeding.value});
      }
      if (family() === "team") {
        Object.assign(body, {boards: Number(form.boards.value), lineup_mode: form.lineup_mode.value});
      }
      if (family() === "group") {
        Object.assign(body, {groups: Number(form.groups.value), grouping: form.grouping.value,
                             advance: Number(form.advance.value), final: form.final.value});
      }
      if (family() === "mcmahon") {
        Object.assign(body, {kind: "go", bar: form.bar.value, floor: form.floor.value,
                             start_by: form.start_by.value});
      }
      const t = await call("POST", "/api/tournaments", body);
      location.href = `/tournaments/${t.id}`;
    });
  }
  const root = document.getElementById("tournament");
  if (!root) return;
  const id = root.dataset.id, base = `/api/tournaments/${id}`;
  const reload = () => location.reload();
  // A reason for the arbiters' log; null when the user cancels.
  const askReason = () => { const r = prompt(root.dataset.ask); return r && r.trim() ? r.trim() : null; };
  const add = document.getElementById("add-player");
  if (add) add.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {rating: Number(add.rating.value || 0)};
    if (add.name.value) body.name = add.name.value;
    if (add.username.value) body.username = add.username.value;
    if (add.rank && add.rank.value) body.rank = add.rank.value;
    await call("POST", `${base}/entries`, body); reload();
  });
  const team = document.getElementById("add-team");
  if (team) team.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const members = team.members.value.split("\n").map(s => s.trim()).filter(Boolean)
      .map(s => s.startsWith("@") ? {username: s.slice(1)} : {name: s});
    await call("POST", `${base}/teams`, {name: team.name.value, members}); reload();
  });
  const start = document.getElementById("start-event");
  if (start) start.addEventListener("click", async () => { await call("POST", `${base}/start`); reload(); });
  const pair = document.getElementById("pair-round");
  if (pair) pair.addEventListener("click", async () => { await call("POST", `${base}/rounds`); reload(); });
  document.querySelectorAll(".result-select").forEach(sel => sel.addEventListener("change", async () => {
    if (!sel.value) return;
    const body = {result: sel.value};
    if (sel.dataset.current && sel.dataset.current !== sel.value) {
      body.reason = askReason();  // a correction says why
      if (!body.reason) { sel.value = sel.dataset.current; return; }
    }
    try { await call("PUT", sel.dataset.url, body); reload(); }
    catch (e) { sel.value = sel.dataset.current; }
  }));
  document.querySelectorAll("button.act").forEach(btn => btn.addEventListener("click", async () => {
    const body = btn.dataset.body ? JSON.parse(btn.dataset.body) : undefined;
    if (btn.dataset.ask) {
      const reason = askReason();
      if (!reason) return;
      body.reason = reason;
    }
    await call(btn.dataset.method || "POST", btn.dataset.post, body); reload();
  }));
  document.querySelectorAll("form.lineup-form").forEach(f => f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const pick = side => [...f.querySelectorAll(`select[name=${side}]`)].map(s => s.value);
    await call("PUT", f.dataset.url, {red: pick("red"), black: pick("black")}); reload();
  }));
  const wd = document.getElementById("withdraw-form");
  if (wd) wd.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    await call("POST", `${base}/withdrawals`, {name: wd.name.value, reason: wd.reason.value}); reload();
  });
});
