// Tournament pages: create an event, register players, start, pair, enter results.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const err = document.getElementById("t-error");
  const call = async (method, path, body) => {
    err.textContent = "";
    try { return await qisai.api(method, path, body); }
    catch (e) { err.textContent = e.message; throw e; }
  };
  const form = document.getElementById("new-tournament");
  if (form) form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {name: form.name.value, kind: form.kind.value, system: form.system.value};
    if (form.rounds.value) body.rounds = Number(form.rounds.value);
    const t = await call("POST", "/api/tournaments", body);
    location.href = `/tournaments/${t.id}`;
  });
  const root = document.getElementById("tournament");
  if (!root) return;
  const id = root.dataset.id, base = `/api/tournaments/${id}`;
  const reload = () => location.reload();
  const add = document.getElementById("add-player");
  if (add) add.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {rating: Number(add.rating.value || 0)};
    if (add.name.value) body.name = add.name.value;
    if (add.username.value) body.username = add.username.value;
    await call("POST", `${base}/entries`, body); reload();
  });
  const start = document.getElementById("start-event");
  if (start) start.addEventListener("click", async () => { await call("POST", `${base}/start`); reload(); });
  const pair = document.getElementById("pair-round");
  if (pair) pair.addEventListener("click", async () => { await call("POST", `${base}/rounds`); reload(); });
  document.querySelectorAll(".result-select").forEach(sel => sel.addEventListener("change", async () => {
    if (!sel.value) return;
    await call("PUT", `${base}/rounds/${sel.dataset.round}/boards/${sel.dataset.board}`, {result: sel.value});
    reload();
  }));
});
