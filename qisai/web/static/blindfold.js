// Blindfold seats and the announcer on the game page (issue 21).  Everyone
// sees which seats play blindfold; a player may make his own seat blindfold;
// a blindfold player hears the opponent's move as the arbiter reads it
// (text, and speech where the browser has a voice of the page's language)
// and types his reply in any notation (POST /api/games/{id}/typed: a typo
// or an illegal move shows the parser's message and nothing is played).
// Anyone may have the clock's calls (读秒) read aloud.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const box = $("blindfold-box");
  if (!box) return;
  const lang = qisai.lang() === "zh" ? "zh" : "en";
  const say2 = (zh, en) => lang === "zh" ? zh : en;
  let state = JSON.parse($("game-data").textContent);
  const you = state.you;
  let voice = null;
  function pickVoice() {
    const want = lang === "zh" ? "zh-CN" : "en";
    voice = speechSynthesis.getVoices().find(v => v.lang.replace("_", "-").startsWith(want)) || null;
  }
  if ("speechSynthesis" in window) { pickVoice(); speechSynthesis.onvoiceschanged = pickVoice; }
  function speak(text, call) {  // text is always shown; speech where there is a voice
    if (!text) return;
    if (voice) {
      const u = new SpeechSynthesisUtterance(text); u.voice = voice; u.lang = voice.lang;
      speechSynthesis.speak(u);
    } else if (call) {
      // No voice (Debian's chromium has none): the server's recorded clip of
      // the clock call (espeak-ng, qisai/web/exhibitions/clips.py); none: text only.
      const clip = new Audio(`/api/calls/clip?lang=${lang}&text=${encodeURIComponent(text)}`);
      clip.dataset.call = text;
      document.dispatchEvent(new CustomEvent("qisai:clip", {detail: {text}}));
      clip.play().catch(() => {});
    }
  }
  let spokenPly = null;  // the announcement last spoken: never twice on load
  const mine = () => !!you && (state.blindfold || []).includes(you);

  function build() {
    box.textContent = "";
    const seats = document.createElement("p");
    seats.id = "blindfold-seats"; seats.className = "small";
    seats.textContent = (state.blindfold || []).map(s => `${state.names[s][lang]} ${say2("蒙目", "blindfold")}`).join(" · ");
    box.appendChild(seats);
    if (you && !state.result) {
      const lab = document.createElement("label"); lab.className = "check small";
      const cb = document.createElement("input"); cb.type = "checkbox"; cb.id = "blindfold-toggle"; cb.checked = mine();
      cb.addEventListener("change", async () => {
        try { await qisai.api("POST", `/api/games/${state.id}/blindfold`, {on: cb.checked}); location.reload(); }
        catch (e) { $("bf-error").textContent = e.message; }
      });
      lab.append(cb, " " + say2("蒙目下棋", "Play blindfold"));
      box.appendChild(lab);
    }
    const calls = document.createElement("label"); calls.className = "check small";
    const cc = document.createElement("input"); cc.type = "checkbox"; cc.id = "speak-calls";
    cc.checked = localStorage.getItem("qisai-speak-calls") === "1";
    cc.addEventListener("change", () => localStorage.setItem("qisai-speak-calls", cc.checked ? "1" : "0"));
    calls.append(cc, " " + say2("朗读读秒", "Read the clock calls aloud"));
    box.appendChild(calls);
    const said = document.createElement("p"); said.id = "bf-announce"; said.className = "announce";
    said.setAttribute("aria-live", "assertive");
    box.appendChild(said);
    if (mine()) {
      const form = document.createElement("form"); form.id = "bf-typed"; form.autocomplete = "off";
      const input = document.createElement("input"); input.id = "bf-move"; input.maxLength = 32;
      input.placeholder = say2("输入着法（炮二平五、C2.5、h2e2）", "Type a move (炮二平五, C2.5, h2e2)");
      const go = document.createElement("button"); go.type = "submit"; go.id = "bf-send"; go.textContent = say2("走", "Play");
      form.append(input, go);
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        try {
          await qisai.api("POST", `/api/games/${state.id}/typed`, {text, ply: state.ply + 1});
          input.value = ""; $("bf-error").textContent = "";
        } catch (e) { $("bf-error").textContent = e.message; }
      });
      box.appendChild(form);
    }
    const err = document.createElement("p"); err.id = "bf-error"; err.className = "notice";
    box.appendChild(err);
  }
  async function announce() {
    if (!mine() || !state.ply) return;
    try {
      const a = await qisai.api("GET", `/api/games/${state.id}/announce?lang=${lang}`);
      if (a.side === you) return;  // only the opponent's move is announced
      $("bf-announce").textContent = a.text; $("bf-announce").dataset.ply = a.ply;
      // answers handled so far (spoken or not): what a test can wait on
      $("bf-announce").dataset.answers = String(Number($("bf-announce").dataset.answers || 0) + 1);
      // The page's first load and the socket's first state both ask: speak once.
      if (spokenPly === a.ply) return;
      spokenPly = a.ply;
      $("bf-announce").dataset.spoken = String(Number($("bf-announce").dataset.spoken || 0) + 1);
      speak(a.text);
    } catch (e) { $("bf-error").textContent = e.message; }
  }
  function onMessage(msg) {
    if (msg.type !== "state" && msg.type !== "update") return;
    const before = state.ply;
    state = {...msg.state, you};
    if (msg.type === "state" || msg.state.ply !== before) announce();
    for (const n of msg.notices || []) {
      if (n.type === "clock_call" && $("speak-calls") && $("speak-calls").checked) {
        $("bf-announce").textContent = n[lang]; $("bf-announce").dataset.call = n.data ? n.data.kind : "";
        speak(n[lang], true);
      }
    }
  }
  document.addEventListener("qisai:game-message", (ev) => onMessage(ev.detail));
  build();
  announce();
  // the socket's first message may have come while this script was fetched
  if (window.qisaiLastGameMessage) onMessage(window.qisaiLastGameMessage);
})();
