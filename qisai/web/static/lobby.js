// Quick pairing on the home page: join a pool, show the widening rating
// range while waiting, cancel; open the game once paired.  The entry lives
// on the server, so a reload finds it again (GET /api/pools/me).
"use strict";
(() => {
  const box = document.getElementById("quick-pairing");
  if (!box) return;
  const $ = (id) => document.getElementById(id);
  const status = $("quick-status"), err = $("quick-error");
  const POLL_MS = 1000;
  let timer = null;

  function pressed(pool) {
    box.querySelectorAll("button.quick").forEach(b =>
      b.setAttribute("aria-pressed", b.dataset.pool === pool ? "true" : "false"));
  }
  function show(s) {
    if (s.status === "matched") {
      stop(); $("quick-matched").hidden = false;
      location.href = `/games/${encodeURIComponent(s.game)}`;
      return;
    }
    if (s.status !== "waiting") { stop(); status.hidden = true; pressed(null); return; }
    const b = box.querySelector(`button.quick[data-pool="${CSS.escape(s.pool)}"]`);
    $("quick-pool").textContent = b ? b.dataset.name : s.pool;
    $("quick-range").textContent = s.range;
    $("quick-low").textContent = s.low;
    $("quick-high").textContent = s.high;
    $("quick-waited").textContent = Math.floor(s.waited);
    $("quick-others").textContent = s.others;
    status.dataset.range = String(s.range);
    status.dataset.pool = s.pool;
    status.hidden = false;
    pressed(s.pool);
    if (timer === null) timer = setInterval(poll, POLL_MS);
  }
  function stop() { if (timer !== null) { clearInterval(timer); timer = null; } }
  async function poll() {
    try { show(await qisai.api("GET", "/api/pools/me")); }
    catch (e) { err.textContent = e.message; }
  }
  box.querySelectorAll("button.quick").forEach(b => b.addEventListener("click", async () => {
    err.textContent = "";
    try {
      await qisai.ensureSession();
      show(await qisai.api("POST", `/api/pools/${encodeURIComponent(b.dataset.pool)}`));
    } catch (e) { err.textContent = e.message; }
  }));
  $("quick-cancel").addEventListener("click", async () => {
    err.textContent = "";
    try { await qisai.api("DELETE", "/api/pools/me"); show({status: "idle"}); }
    catch (e) { err.textContent = e.message; }
  });
  if (qisai.csrf()) poll();  // a session: it may be waiting already (a reload)
})();
