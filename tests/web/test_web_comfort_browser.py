"""Browser tests of issue 17 item 3 (Playwright in Debian's chromium):
takeback by agreement in a casual game and its absence in a rated one, the
rematch with colours swapped, and the page's sounds (move, capture, check)
with the mute switch kept in the browser.

Screenshots go to ``$QISAI_TEST_ARTIFACTS`` (else the test's temporary
folder).  Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_web_play_browser import act, api, new_game, signed_up

pytestmark = pytest.mark.slow

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"


def test_takeback_in_a_casual_game_and_sounds(live_server: tuple[str, Path], browser: Any,
                                              shots: Path) -> None:
    base, _ = live_server
    red = signed_up(browser, base, "tbred")
    black = signed_up(browser, base, "tbblack", "zh-CN")
    gid = new_game(red, kind="xiangqi", ruleset="casual")
    api(black, "POST", f"/api/games/{gid}/join")
    red.goto(f"{base}/games/{gid}")
    black.goto(f"{base}/games/{gid}")
    for page in (red, black):
        page.wait_for_selector('#board[data-phase="playing"]')
    # Nothing to take back yet: the button is grey and says why.
    assert red.locator("#takeback").is_disabled()
    assert "no move to take back" in red.inner_text("#takeback-why")
    # Red's cannon takes the horse (h2 over h7 to h9): Black's page sounds a capture.
    red.click('#board g[data-square="h2"]')
    red.click('#board g[data-square="h9"]')
    black.wait_for_selector('#board[data-ply="1"]')
    black.wait_for_selector('#sound-toggle[data-last="capture"]')
    red.wait_for_selector("#takeback:not([disabled])")
    red.click("#takeback")
    red.wait_for_selector("#takeback[disabled]")
    assert "waiting" in red.inner_text("#takeback-why")
    black.wait_for_selector("#takeback-accept:not([hidden])")
    assert black.inner_text("#takeback-accept") == "同意悔棋"
    black.screenshot(path=str(shots / "takeback-asked.png"))
    black.click("#takeback-accept")
    for page in (red, black):
        page.wait_for_selector('#board[data-ply="0"]')
    assert black.locator("#takeback-accept").is_hidden()
    assert api(red, "GET", f"/api/games/{gid}")["position"]["fen"].split(" ")[0] == START
    assert red.locator('#board g[data-square="h9"][data-piece="n"]').count() == 1
    assert red.locator("#moves button.mv").count() == 0
    # Play goes on from the position taken back to.
    red.click('#board g[data-square="h2"]')
    red.click('#board g[data-square="e2"]')
    black.wait_for_selector('#board[data-ply="1"]')
    black.wait_for_selector('#sound-toggle[data-last="move"]')
    assert black.inner_text("#moves") .count("炮二平五") == 1
    red.screenshot(path=str(shots / "takeback-done.png"))

    # The mute switch is kept in the browser: after a reload the page is
    # still muted and plays nothing.
    black.click("#sound-toggle")
    assert black.inner_text("#sound-toggle") == "声音：关"
    assert black.evaluate("localStorage.getItem('qisai.mute')") == "1"
    black.reload()
    black.wait_for_selector('#board[data-ply="1"]')
    assert black.inner_text("#sound-toggle") == "声音：关"
    act(black, gid, type="move", ply=2, move="h9g7")
    act(red, gid, type="move", ply=3, move="h0g2")
    black.wait_for_selector('#board[data-ply="3"]')
    black.wait_for_selector('#sound-toggle[data-played="muted"]')

    # Rematch: both ask; both pages go to the new game, colours swapped.
    act(black, gid, type="resign")
    red.wait_for_selector("#rematch:not([hidden])")
    red.click("#rematch")
    # the offer's arrival, not the button's first drawing (it shows before the offer)
    black.wait_for_selector('#rematch[data-offer="theirs"]:not([hidden])')
    assert black.inner_text("#rematch") == "接受再来一局"
    red.wait_for_selector('#rematch[data-offer="mine"]')
    black.click("#rematch")
    for page in (red, black):
        page.wait_for_url(re.compile(r"/games/(?!" + re.escape(gid) + r"$)[\w-]+$"))
        page.wait_for_selector('#board[data-phase="playing"]')
    new = black.url.rsplit("/", 1)[1]
    st = api(black, "GET", f"/api/games/{new}")
    assert st["you"] == "first" and st["players"]["second"]["name"] == "tbred"


def test_check_sounds(live_server: tuple[str, Path], browser: Any) -> None:
    base, _ = live_server
    red = signed_up(browser, base, "ckred")
    black = signed_up(browser, base, "ckblack")
    # The rook to d1 checks the general on d9 (将军).
    gid = new_game(red, kind="xiangqi", ruleset="casual", fen="3k5/9/9/9/9/9/9/9/4R4/4K4 w")
    api(black, "POST", f"/api/games/{gid}/join")
    black.goto(f"{base}/games/{gid}")
    black.wait_for_selector('#board[data-phase="playing"]')
    act(red, gid, type="move", ply=1, move="e1d1")
    black.wait_for_selector('#board[data-ply="1"]')
    black.wait_for_selector('#sound-toggle[data-last="check"]')
    assert black.get_attribute("#sound-toggle", "data-played") == "check"


def test_a_rated_game_offers_no_takeback(live_server: tuple[str, Path], browser: Any,
                                         shots: Path) -> None:
    base, _ = live_server
    red = signed_up(browser, base, "rtred")
    black = signed_up(browser, base, "rtblack")
    gid = new_game(red, kind="xiangqi", ruleset="casual", rated=True)
    api(black, "POST", f"/api/games/{gid}/join")
    red.goto(f"{base}/games/{gid}")
    red.wait_for_selector('#board[data-phase="playing"]')
    red.click('#board g[data-square="h2"]')
    red.click('#board g[data-square="e2"]')
    red.wait_for_selector('#board[data-ply="1"]')
    assert red.locator("#comfort").count() == 0
    assert red.locator("#takeback").count() == 0 and red.locator("#rematch").count() == 0
    # Sent anyway (by hand), the server refuses it.
    refused = red.evaluate(
        "async (g) => { try { await qisai.api('POST', `/api/games/${g}/actions`, "
        "{type: 'takeback_offer'}); return ''; } catch (e) { return e.message; } }", gid)
    assert refused.startswith("403") and "Rated games" in refused
    red.screenshot(path=str(shots / "rated-no-takeback.png"))


def test_low_time_and_byoyomi_calls_sound(live_server: tuple[str, Path], browser: Any) -> None:
    base, _ = live_server
    black = signed_up(browser, base, "byblack")
    white = signed_up(browser, base, "bywhite")
    # No main time, Canadian overtime of 8 s for 5 moves: at once under the
    # 10 s mark (low time), then the calls at 5, 4, 3 ... seconds left (读秒).
    gid = new_game(black, kind="go", ruleset="go-casual", size=9,
                   time={"minutes": 0, "byoyomi": {"kind": "canadian", "seconds": 8, "moves": 5}})
    black.goto(f"{base}/games/{gid}")
    api(white, "POST", f"/api/games/{gid}/join")
    black.wait_for_selector('#board[data-phase="playing"]')
    black.wait_for_function(
        "() => (document.getElementById('sound-toggle').dataset.heard || '').includes('byoyomi')",
        timeout=20000)
    heard = (black.get_attribute("#sound-toggle", "data-heard") or "").split()
    assert heard.index("low_time") < heard.index("byoyomi")
