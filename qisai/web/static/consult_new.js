// The form of a consultation game (会商, issue 33 item 7): members by user
// name, resolved to accounts through /api/players, then POST /api/consultations;
// the game's page follows (the other members accept there or by the API).
"use strict";
(() => {
  const form = document.getElementById("new-consultation");
  if (!form) return;
  const T = JSON.parse(document.getElementById("consult-texts").textContent);
  const $ = (id) => document.getElementById(id);
  const error = (text) => { $("c-error").textContent = text; };

  function colours() {  // Xiangqi: 红/黑; Go: 黑 (first) / 白
    const go = $("c-kind").value === "go";
    const opts = $("c-colour").options;
    opts[0].textContent = go ? T.black : T.red;
    opts[1].textContent = go ? T.white : T.black;
  }
  $("c-kind").addEventListener("change", colours);
  colours();

  async function idOf(name) {
    const r = await qisai.api("GET", `/api/players?q=${encodeURIComponent(name)}&per_page=20`);
    const hit = (r.players || []).find((p) => p.name.toLowerCase() === name.toLowerCase());
    if (!hit) throw new Error(`${T.no_such_player}: ${name}`);
    return hit.id;
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error("");
    try {
      const names = $("c-members").value.split(/[,，、\s]+/).map((n) => n.trim()).filter(Boolean);
      const me = await qisai.api("GET", "/api/me");
      const members = [];
      for (const n of names) members.push(await idOf(n));
      if (!members.includes(me.id)) members.unshift(me.id);
      const cap = $("c-captain").value.trim();
      const minutes = Number($("c-minutes").value);
      const body = {kind: $("c-kind").value, color: $("c-colour").value, members,
        mode: $("c-mode").value, reserve: Number($("c-reserve").value),
        time: minutes > 0 ? {minutes} : null, opponent: $("c-opponent").value};
      if (cap) body.captain = await idOf(cap);
      const out = await qisai.api("POST", "/api/consultations", body);
      location.href = `/games/${out.id}`;
    } catch (err) {
      error(err.message || String(err));
    }
  });
})();
