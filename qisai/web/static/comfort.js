// Casual comfort on the game page: takeback by agreement, rematch with the
// colours swapped (casual games only: the server refuses both in rated and
// event games, and the page does not offer them), and sounds for moves,
// captures, check (将军), low time and byo-yomi calls (读秒), made in the
// browser with Web Audio, with a mute switch kept in this browser.
// game.js sends the state ("qisai:state") and the notices ("qisai:notices").
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($("comfort-texts").textContent);
  const lang = qisai.lang();
  const game = qisai.game;
  if (!game) return;

  // ------------------------------------------------------------- sounds
  const MUTE_KEY = "qisai.mute";
  let muted = localStorage.getItem(MUTE_KEY) === "1";
  let audio = null;
  // Each sound: a few tones (Hz, start s, length s, type); nothing to download.
  const SOUNDS = {
    move: [[520, 0, 0.07, "triangle"]],
    capture: [[330, 0, 0.06, "square"], [220, 0.06, 0.10, "triangle"]],
    check: [[880, 0, 0.12, "sine"], [660, 0.14, 0.18, "sine"]],
    low_time: [[1000, 0, 0.08, "sine"], [1000, 0.16, 0.08, "sine"], [1000, 0.32, 0.08, "sine"]],
    byoyomi: [[760, 0, 0.15, "sine"]],
    notify: [[600, 0, 0.08, "sine"], [800, 0.1, 0.08, "sine"]],
  };
  function ctx() {
    if (!audio) {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return null;
      audio = new AC();
    }
    if (audio.state === "suspended") audio.resume().catch(() => {});
    return audio;
  }
  // The browser lets a page sound only after a gesture: wake the context then.
  document.addEventListener("pointerdown", () => { if (!muted) ctx(); }, {once: true});
  function play(name) {
    const box = $("sound-toggle");
    // What the page would play (and whether it did): for people and tests.
    box.dataset.last = name; box.dataset.played = muted ? "muted" : name;
    box.dataset.heard = [...(box.dataset.heard || "").split(" ").filter(Boolean), name].slice(-10).join(" ");
    if (muted) return;
    const ac = ctx();
    if (!ac) return;
    const t0 = ac.currentTime + 0.01;
    for (const [hz, at, len, type] of SOUNDS[name] || []) {
      const osc = ac.createOscillator(), gain = ac.createGain();
      osc.type = type; osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.25, t0 + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      osc.connect(gain).connect(ac.destination);
      osc.start(t0 + at); osc.stop(t0 + at + len + 0.02);
    }
  }
  function renderMute() {
    const b = $("sound-toggle");
    b.textContent = muted ? T.sound_off : T.sound_on;
    b.setAttribute("aria-pressed", muted ? "true" : "false");
    b.dataset.muted = muted ? "1" : "0";
  }
  $("sound-toggle").addEventListener("click", () => {
    muted = !muted;
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
    renderMute();
    if (!muted) ctx();
  });
  renderMute();

  // Low time: once per turn when one's own clock goes under the mark.
  let lowWarned = false, lowPly = -1;
  setInterval(() => {
    const st = game.state();
    if (!st.you || st.result || !st.clocks || st.clocks.running !== st.you) return;
    if (st.ply !== lowPly) { lowPly = st.ply; lowWarned = false; }
    const left = game.clockLeft(st.you);
    if (left !== null && left <= T.low_seconds && left > 0 && !lowWarned) { lowWarned = true; play("low_time"); }
  }, 250);

  document.addEventListener("qisai:notices", (ev) => {
    let sound = null;
    for (const n of ev.detail.notices) {
      if (n.type === "moved") {
        const d = n.data || {};
        const capture = d.capture || (d.captured && d.captured.length);
        sound = d.check ? "check" : capture ? "capture" : "move";
      } else if (n.type === "passed" && !sound) sound = "move";
      else if (n.type === "clock_call") sound = "byoyomi";
      else if (["takeback_offer", "rematch_offer", "draw_offered"].includes(n.type)) sound = sound || "notify";
      else if (n.type === "rematch" && n.data && n.data.game) goRematch(n.data.game, ev.detail.state);
    }
    if (sound) play(sound);
  });

  // -------------------------------------------------- takeback, rematch
  function goRematch(id, st) {
    // The players go to the new game; a spectator gets the link.
    if (st.you) location.href = `/games/${id}`;
    else render(st);
  }
  function render(st) {
    // The analysis board once the game is over (no help during a game).
    if ($("analyse-link")) $("analyse-link").hidden = !st.result;
    const box = $("comfort");
    if (!box) return;
    const c = st.comfort || {};
    box.hidden = !c.casual || !st.you;
    if (box.hidden) return;
    const playing = !st.result && st.status === "active" && st.phase === "playing";
    const fromThem = c.takeback && c.takeback !== st.you;
    const mine = c.takeback === st.you;
    $("takeback").hidden = !playing || fromThem;
    $("takeback-accept").hidden = !playing || !fromThem;
    $("takeback-decline").hidden = !playing || !fromThem;
    // Say why the button is grey rather than hide it (every click answered).
    let why = "";
    if (mine) why = T.takeback_waiting;
    else if (!hasOwnMove(st)) why = T.takeback_nothing;
    $("takeback").disabled = !!why || game.viewing();
    $("takeback").title = why;
    $("takeback-why").textContent = playing && !fromThem && why ? why : "";
    const over = !!st.result;
    $("rematch").hidden = !over || !!c.rematch;
    $("rematch").textContent = c.rematch_offer && c.rematch_offer !== st.you ? T.rematch_accept : T.rematch;
    $("rematch").disabled = c.rematch_offer === st.you;
    // whose offer stands, for scripts and tests to wait on (not the label's text)
    $("rematch").dataset.offer = !c.rematch_offer ? "" : c.rematch_offer === st.you ? "mine" : "theirs";
    $("rematch-why").textContent = over && c.rematch_offer === st.you ? T.rematch_waiting : "";
    $("rematch-link").hidden = !c.rematch;
    if (c.rematch) $("rematch-link").href = `/games/${c.rematch}`;
  }
  // Whether the player has a move to take back (the server decides again).
  function hasOwnMove(st) {
    if (st.moves) return st.moves.some(m => m.side === st.you);
    return st.ply >= (st.you === "first" ? 1 : 2);
  }
  document.addEventListener("qisai:state", (ev) => render(ev.detail.state));
  for (const [id, type] of [["takeback", "takeback_offer"], ["takeback-accept", "takeback_accept"],
                            ["takeback-decline", "takeback_decline"], ["rematch", "rematch"]]) {
    if ($(id)) $(id).addEventListener("click", () => game.send({type}));
  }
  render(game.state());
})();
