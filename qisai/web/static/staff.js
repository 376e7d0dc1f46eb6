// An event's staff page: the organiser appoints and removes the chief
// arbiter and arbiters (POST / DELETE /api/tournaments/{id}/staff).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const root = document.getElementById("staff-page");
  if (!root) return;
  const base = `/api/tournaments/${root.dataset.id}/staff`;
  const err = document.getElementById("t-error");
  const call = async (method, path, body) => {
    err.textContent = "";
    try { return await qisai.api(method, path, body); }
    catch (e) { err.textContent = e.message; throw e; }
  };
  const form = document.getElementById("appoint");
  if (form) form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    await call("POST", base, {username: form.username.value.trim(), role: form.role.value});
    location.reload();
  });
  root.querySelectorAll("[data-remove]").forEach(b => b.addEventListener("click", async () => {
    b.disabled = true;
    try { await call("DELETE", `${base}/${b.dataset.remove}`); location.reload(); }
    catch (e) { b.disabled = false; }
  }));
});
