"""Browser tests of issue 17 (Playwright in Debian's chromium): every click
is answered and nothing illegal is sent, offers the rules forbid now are
disabled with the reason, the engine answers a draw offer, replay with the
arrow keys, and the page at 390 px wide.

Screenshots go to ``$QISAI_TEST_ARTIFACTS`` (else the test's temporary
folder).  Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def signed_up(browser: Any, base: str, name: str, lang: str = "en-US",
              width: int = 412) -> Any:
    ctx = browser.new_context(locale=lang, viewport={"width": width, "height": 860})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{base}/login")
    page.fill("#username", name)
    page.fill("#password", "velvet-otter-93")
    page.click("#register-button")
    page.wait_for_url(f"{base}/")
    return page


def api(page: Any, method: str, path: str, body: Any = None) -> Any:
    return page.evaluate("async ([m, p, b]) => qisai.api(m, p, b === null ? undefined : b)",
                         [method, path, body])


def new_game(page: Any, **body: Any) -> str:
    body.setdefault("color", "first")
    gid: str = api(page, "POST", "/api/games", body)["id"]
    return gid


def sent_moves(page: Any) -> list[dict[str, Any]]:
    """Start recording the game actions the page sends on its sockets."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def sent(payload: Any) -> None:
            try:
                msg = json.loads(payload)
            except (TypeError, ValueError):
                return
            if msg.get("type") in ("move", "pass"):
                frames.append(msg)
        ws.on("framesent", sent)
    page.on("websocket", on_socket)
    return frames


def act(page: Any, gid: str, **action: Any) -> Any:
    return api(page, "POST", f"/api/games/{gid}/actions", action)


def test_a_forbidden_go_point_is_explained_and_not_sent(live_server: tuple[str, Path],
                                                        browser: Any, shots: Path) -> None:
    base, _ = live_server
    b = signed_up(browser, base, "gob", "zh-CN")
    w = signed_up(browser, base, "gow")
    gid = new_game(b, kind="go", ruleset="go-casual", size=9, time=None)
    api(w, "POST", f"/api/games/{gid}/join")
    for ply, (page, mv) in enumerate([(b, "E5"), (w, "A2"), (b, "E6"), (w, "B1")], 1):
        act(page, gid, type="move", ply=ply, move=mv)
    frames = sent_moves(b)
    b.goto(f"{base}/games/{gid}")
    b.wait_for_selector('#board[data-ply="4"]')
    # "No clock" is no clock (not the profile's two hours).
    assert b.inner_text("#clock-top") == "" and b.inner_text("#clock-bottom") == ""
    b.click('#board g[data-point="A1"]')  # suicide for Black
    b.wait_for_selector('#notice[data-code="go_suicide"]')
    assert "禁着点" in b.inner_text("#notice") and "竞赛规定 10" in b.inner_text("#notice")
    b.click('#board g[data-point="E5"]')  # occupied
    b.wait_for_selector('#notice[data-code="go_occupied"]')
    b.wait_for_timeout(300)
    assert frames == []
    assert api(b, "GET", f"/api/games/{gid}")["ply"] == 4
    b.screenshot(path=str(shots / "go-forbidden-point.png"))
    b.click('#board g[data-point="C3"]')  # a legal point is played
    b.wait_for_selector('#board[data-ply="5"]')
    assert len(frames) == 1 and frames[0]["move"] == "C3"
    # Go replay: the positions are rebuilt move by move.
    b.keyboard.press("Home")
    b.wait_for_selector('#board[data-view="0"]')
    assert b.locator("#board circle.black").count() == 0
    b.keyboard.press("ArrowRight")
    b.keyboard.press("ArrowRight")
    b.wait_for_selector('#board[data-view="2"]')
    assert b.locator("#board circle.black").count() == 1
    assert b.locator('#board g[data-point="A2"] circle.white').count() == 1
    b.click('#board g[data-point="H8"]')  # no move from an old position
    b.wait_for_selector('#notice[data-code="viewing"]')
    assert len(frames) == 1


def test_a_blocked_horse_is_explained_and_not_sent(live_server: tuple[str, Path],
                                                   browser: Any, shots: Path) -> None:
    base, _ = live_server
    red = signed_up(browser, base, "xqred", "zh-CN")
    black = signed_up(browser, base, "xqblack")
    gid = new_game(red, kind="xiangqi", ruleset="cxa")
    api(black, "POST", f"/api/games/{gid}/join")
    frames = sent_moves(red)
    red.goto(f"{base}/games/{gid}")
    red.wait_for_selector('#board[data-phase="playing"]')
    red.click('#board g[data-square="b0"]')
    red.click('#board g[data-square="d1"]')  # the elephant on c0 blocks the horse's leg
    red.wait_for_selector('#notice[data-code="horse_leg"]')
    assert "蹩马腿" in red.inner_text("#notice") and "2.2" in red.inner_text("#notice")
    red.wait_for_timeout(300)
    assert frames == [] and api(red, "GET", f"/api/games/{gid}")["ply"] == 0
    red.screenshot(path=str(shots / "xiangqi-blocked-horse.png"))


def test_a_draw_offer_before_ones_own_move_is_disabled_with_the_reason(
        live_server: tuple[str, Path], browser: Any, shots: Path) -> None:
    base, _ = live_server
    red = signed_up(browser, base, "offred")
    black = signed_up(browser, base, "offblack", "zh-CN")
    gid = new_game(red, kind="xiangqi", ruleset="cxa")
    api(black, "POST", f"/api/games/{gid}/join")
    red.goto(f"{base}/games/{gid}")
    red.wait_for_selector('#board[data-phase="playing"]')
    offer = red.locator("#offer-draw")
    assert offer.is_disabled()
    assert "23.1" in (offer.get_attribute("title") or "")
    assert "right after your own move" in red.inner_text("#why-not")
    # After its own move Red may offer; Black (to move) may not.
    red.click('#board g[data-square="h2"]')
    red.click('#board g[data-square="e2"]')
    red.wait_for_selector('#board[data-ply="1"]')
    red.wait_for_selector("#offer-draw:not([disabled])")
    black.goto(f"{base}/games/{gid}")
    black.wait_for_selector('#board[data-ply="1"]')
    assert black.locator("#offer-draw").is_disabled()
    assert "提和须在自己走棋后" in black.inner_text("#why-not")
    black.screenshot(path=str(shots / "draw-offer-disabled.png"))


def test_the_builtin_engine_answers_a_draw_offer(live_server: tuple[str, Path], browser: Any,
                                                 shots: Path) -> None:
    base, _ = live_server
    me = signed_up(browser, base, "drawer")
    gid = new_game(me, kind="xiangqi", opponent="engine", engine="builtin")
    me.goto(f"{base}/games/{gid}")
    me.wait_for_selector('#board[data-phase="playing"]')
    # The offer goes with the move (23.1: right after it): the engine cannot move first.
    me.check("#offer-with-move")
    me.click('#board g[data-square="h2"]')
    me.click('#board g[data-square="e2"]')
    me.wait_for_selector('#board[data-ply="1"]')
    events: list[str] = []
    for _ in range(200):
        events = [e["kind"] for e in api(me, "GET", f"/api/games/{gid}/events")]
        if "decline_draw" in events or "accept_draw" in events:
            break
        me.wait_for_timeout(100)
    assert "offer_draw" in events
    assert "decline_draw" in events or "accept_draw" in events
    if "decline_draw" in events:  # then it moves, and the page names its move in its notation
        me.wait_for_function("() => document.getElementById('notice').dataset.code === 'moved'")
        assert me.inner_text("#notice").startswith("Black ")
        assert not re.search(r"\b[a-i][0-9][a-i][0-9]\b", me.inner_text("#notice"))
    else:
        me.wait_for_selector("#result:not([hidden])")
        assert me.inner_text("#result-reason") == "Draw by agreement"
    me.screenshot(path=str(shots / "engine-draw-answer.png"))


def test_the_engines_move_is_noticed_in_the_pages_notation(live_server: tuple[str, Path],
                                                           browser: Any) -> None:
    base, _ = live_server
    me = signed_up(browser, base, "notation", "zh-CN")
    gid = new_game(me, kind="xiangqi", opponent="engine", engine="builtin")
    me.goto(f"{base}/games/{gid}")
    me.wait_for_selector('#board[data-phase="playing"]')
    me.click('#board g[data-square="h2"]')
    me.click('#board g[data-square="e2"]')
    me.wait_for_selector('#board[data-ply="2"]')
    me.wait_for_function("() => document.getElementById('notice').dataset.code === 'moved'")
    text = me.inner_text("#notice")
    reply = api(me, "GET", f"/api/games/{gid}")["moves"][1]
    assert text == f"黑方 {reply['text']}", text  # 黑方 马8进7, not 黑方 h9g7
    me.select_option("#notation", "move")
    assert me.locator('#moves .mv[data-ply="2"]').inner_text() == reply["move"]


def finished_game(page: Any, other: Any) -> str:
    gid = new_game(page, kind="xiangqi", ruleset="casual", time={"minutes": 10, "increment": 0})
    api(other, "POST", f"/api/games/{gid}/join")
    for ply, (who, mv) in enumerate([(page, "h2e2"), (other, "h9g7"), (page, "h0g2"),
                                     (other, "i9h9"), (page, "i0h0")], 1):
        act(who, gid, type="move", ply=ply, move=mv)
    act(other, gid, type="resign")
    return gid


def test_replay_steps_with_the_arrow_keys(live_server: tuple[str, Path], browser: Any,
                                          shots: Path) -> None:
    base, _ = live_server
    red = signed_up(browser, base, "replayred")
    black = signed_up(browser, base, "replayblack", "zh-CN")
    gid = finished_game(red, black)
    red.goto(f"{base}/games/{gid}")
    red.wait_for_selector("#result:not([hidden])")
    assert red.inner_text("#result-reason") == "Resignation"
    assert red.locator("#moves .mv").count() == 5 and red.locator("#moves li").count() == 3
    red.keyboard.press("ArrowLeft")
    red.wait_for_selector('#board[data-view="4"]')
    assert "Viewing move 4" in red.inner_text("#status")
    assert red.locator("#back-live").is_visible()
    assert red.get_attribute('#board g[data-square="i0"]', "data-piece") == "R"  # before i0h0
    assert "stale" in (red.get_attribute("#clock-bottom", "class") or "")
    red.keyboard.press("Home")
    red.wait_for_selector('#board[data-view="0"]')
    assert red.get_attribute('#board g[data-square="h2"]', "data-piece") == "C"  # the start
    red.keyboard.press("ArrowRight")
    red.wait_for_selector('#board[data-view="1"]')
    assert red.get_attribute('#board g[data-square="e2"]', "data-piece") == "C"
    assert red.get_attribute('#board g[data-square="h9"]', "data-piece") == "n"
    assert "viewing" in (red.get_attribute('#moves .mv[data-ply="1"]', "class") or "")
    red.screenshot(path=str(shots / "replay-move-1.png"))
    red.keyboard.press("End")
    red.wait_for_selector('#board[data-view="live"]')
    assert red.locator("#back-live").is_hidden()
    # The Chinese page names the reason in Chinese, never the code.
    black.goto(f"{base}/games/{gid}")
    black.wait_for_selector("#result:not([hidden])")
    assert black.inner_text("#result-reason") == "认输"
    assert "resignation" not in black.inner_text("body")
    black.click("#nav-prev")
    black.wait_for_selector('#board[data-view="4"]')
    assert "正在查看第 4 着" in black.inner_text("#status")
    black.click("#back-live")
    black.wait_for_selector('#board[data-view="live"]')


def test_a_live_game_cannot_be_moved_while_viewing_history(live_server: tuple[str, Path],
                                                           browser: Any) -> None:
    base, _ = live_server
    red = signed_up(browser, base, "histred")
    black = signed_up(browser, base, "histblack")
    gid = new_game(red, kind="xiangqi", ruleset="casual")
    api(black, "POST", f"/api/games/{gid}/join")
    act(red, gid, type="move", ply=1, move="h2e2")
    act(black, gid, type="move", ply=2, move="h9g7")
    frames = sent_moves(red)
    red.goto(f"{base}/games/{gid}")
    red.wait_for_selector('#board[data-ply="2"]')
    assert red.inner_text("#status") == "Your move"
    red.keyboard.press("ArrowLeft")
    red.wait_for_selector('#board[data-view="1"]')
    assert "Your move" not in red.inner_text("#status")
    red.click('#board g[data-square="b0"]')
    red.wait_for_selector('#notice[data-code="viewing"]')
    red.wait_for_timeout(200)
    assert frames == []
    # Resigning asks first: dismissed, nothing happens; confirmed, the game ends.
    asked: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        asked.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()
    red.once("dialog", lambda d: answer(d, False))
    red.click("#resign")
    red.wait_for_timeout(300)
    assert asked == ["Resign this game?"] and api(red, "GET", f"/api/games/{gid}")["result"] is None
    red.once("dialog", lambda d: answer(d, True))
    red.click("#resign")
    red.wait_for_selector("#result:not([hidden])")
    assert red.inner_text("#result-reason") == "Resignation"


def test_the_game_page_fits_390_px(live_server: tuple[str, Path], browser: Any,
                                   shots: Path) -> None:
    base, _ = live_server
    red = signed_up(browser, base, "narrowred", "zh-CN", width=390)
    black = signed_up(browser, base, "narrowblack")
    gid = finished_game(red, black)
    red.goto(f"{base}/games/{gid}")
    red.wait_for_selector("#result:not([hidden])")
    red.screenshot(path=str(shots / "game-390px.png"), full_page=True)
    out = red.evaluate("""() => {
        const bad = [];
        for (const e of document.querySelectorAll('main *')) {
          const r = e.getBoundingClientRect();
          if (!r.width || e.closest('[hidden]')) continue;
          if (r.left < -0.5 || r.right > window.innerWidth + 0.5)
            bad.push(`${e.tagName}#${e.id}.${e.className} ${r.left}-${r.right}`);
        }
        return {bad, scroll: document.documentElement.scrollWidth, width: window.innerWidth};
    }""")
    assert out["bad"] == [], out
    assert out["scroll"] <= out["width"]
    assert red.locator("#moves .mv").count() == 5
    for i in range(1, 6):
        box = red.locator(f'#moves .mv[data-ply="{i}"]').bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    # favicon
    assert red.request.get(f"{base}/favicon.ico").status == 200
