"""Browser tests of the announcer (issue 33 items 8 and 9; Playwright in
Debian's chromium, which has no speech voice):

* the last 读秒 call, "10，超时判负" (Go §3 读秒, seed 003: "最后的报法是
  '10，超时判负'"), reaches the page at the flag and, the browser having no
  voice, is played as the server's recorded clip (espeak-ng);
* Chinese byo-yomi is chosen in the new-game form;
* a blindfold page speaks the last announcement once on load, not twice.

Skipped when playwright or /usr/bin/chromium is missing; the clip test
also needs espeak-ng (scripts/install-tools).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from .test_web_play_browser import api, signed_up

pytestmark = pytest.mark.slow

# A voice that records what is spoken (Debian's chromium has none at all).
FAKE_VOICE = """
window.__spoken = [];
window.SpeechSynthesisUtterance = class { constructor(t) { this.text = t; } };
const fake = {lang: "zh-CN", name: "fake", voiceURI: "fake", default: true, localService: true};
speechSynthesis.getVoices = () => [fake];
speechSynthesis.speak = (u) => window.__spoken.push(u.text);
"""


# Records what the page's audio elements play (and whether the browser let them).
PLAYED = """
window.__played = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  const src = this.src;
  return play.call(this).then(() => { window.__played.push(src + ":ok"); },
                              (e) => { window.__played.push(src + ":" + e.name); throw e; });
};
"""


def test_the_last_call_is_sent_and_played_as_a_clip(
        live_server: tuple[str, Path], browser: Any, shots: Path) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng not installed (scripts/install-tools)")
    base, _ = live_server
    black = signed_up(browser, base, "lastblack", "zh-CN")
    white = signed_up(browser, base, "lastwhite")
    # No main time and one minute reserved: the flag falls 60 s after the start
    # (the calls 30, 40, 50 s, then 1 ... 9, then "10，超时判负").
    time = {"minutes": 0, "byoyomi": {"kind": "chinese", "periods": 1, "seconds": 60}}
    gid = api(black, "POST", "/api/games", {"kind": "go", "ruleset": "chinese", "size": 9,
                                            "color": "first", "time": time})["id"]
    black.add_init_script(PLAYED)
    black.goto(f"{base}/games/{gid}")
    assert black.evaluate("speechSynthesis.getVoices().length") == 0  # Debian's chromium
    black.check("#speak-calls")
    def last_clip(r: Any) -> bool:
        return "/api/calls/clip" in r.url and "%E8%B6%85" in r.url  # 超

    with black.expect_response(last_clip, timeout=120000) as got:
        api(white, "POST", f"/api/games/{gid}/join")  # black's clock starts
    clip = got.value
    assert clip.status in (200, 206) and clip.headers["content-type"] == "audio/wav"
    assert "10%EF%BC%8C" in clip.url  # "10，"
    whole = black.request.get(clip.url)
    body = whole.body()
    assert whole.status == 200 and body[:4] == b"RIFF" and len(body) > 20000  # a second or more
    black.wait_for_function("() => window.__played.some(p => p.includes('%E8%B6%85') && p.endsWith(':ok'))")
    black.wait_for_selector("#bf-announce:has-text('10，超时判负')")
    assert black.get_attribute("#bf-announce", "data-call") == "flag"
    black.wait_for_selector("#result:not([hidden])")
    assert api(black, "GET", f"/api/games/{gid}")["result"]["sgf"] == "W+T"
    black.screenshot(path=str(shots / "byoyomi-last-call.png"))
    # Only the clock's calls are made into clips: nothing else is spoken.
    r = black.request.get(f"{base}/api/calls/clip?lang=zh&text=hello")
    assert r.status == 404


def test_chinese_byoyomi_is_chosen_in_the_new_game_form(
        live_server: tuple[str, Path], browser: Any) -> None:
    base, _ = live_server
    page = signed_up(browser, base, "formbyo", "zh-CN")
    page.click("#custom-game summary")
    page.select_option("#kind", "go")
    page.select_option("#time", "cn:10+1")
    assert "读秒" in page.inner_text("#time option[value='cn:10+1']")
    page.click("#create-game")
    # the game's address is all this needs: not its page's load event, which
    # a busy machine can keep past the wait's bound
    page.wait_for_url(f"{base}/games/*", wait_until="commit")
    st = api(page, "GET", f"/api/games/{page.url.rsplit('/', 1)[1]}")
    assert st["clocks"]["first"] == pytest.approx(10 * 60 + 60)  # 10 minutes + one reserved


def test_a_blindfold_page_speaks_the_last_announcement_once_on_load(
        live_server: tuple[str, Path], browser: Any) -> None:
    base, _ = live_server
    blind = signed_up(browser, base, "onceblind", "zh-CN")
    other = signed_up(browser, base, "onceother")
    gid = api(other, "POST", "/api/games", {"kind": "xiangqi", "color": "first",
                                            "time": None})["id"]
    api(blind, "POST", f"/api/games/{gid}/join")
    api(blind, "POST", f"/api/games/{gid}/blindfold", {"on": True})
    api(other, "POST", f"/api/games/{gid}/actions", {"type": "move", "ply": 1, "move": "h2e2"})
    blind.add_init_script(FAKE_VOICE)
    blind.goto(f"{base}/games/{gid}")
    # Both the page's load and the socket's first state ask for it: wait
    # until the page has handled both answers (not for a count of responses,
    # which can be reached before the wait begins).  At least two: a socket
    # that reconnects on a busy machine sends its state, and asks, again.
    blind.wait_for_function(
        "() => { const a = document.getElementById('bf-announce');"
        " return a && a.dataset.ply === '1' && Number(a.dataset.answers || 0) >= 2; }")
    assert blind.evaluate("window.__spoken") == ["炮二平五"]
