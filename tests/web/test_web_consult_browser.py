"""Browser test of consultation boards (issue 21 item 3; Playwright in
Debian's chromium): a side of three members plays a majority move from the
group panel of the game page; a second vote is refused in the page's
language; the opponent sees the move but no group panel.

Screenshots go to ``$QISAI_TEST_ARTIFACTS`` (else the test's temporary
folder).  Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_web_play_browser import api, signed_up

pytestmark = pytest.mark.slow


def test_three_members_play_a_majority_move(live_server: tuple[str, Path], browser: Any,
                                            shots: Path) -> None:
    base, _ = live_server
    pages = [signed_up(browser, base, n, lang) for n, lang in
             (("hui1", "zh-CN"), ("hui2", "en-US"), ("hui3", "zh-CN"))]
    opp = signed_up(browser, base, "duishou")
    ids = [api(p, "GET", "/api/me")["id"] for p in pages]
    gid = api(pages[0], "POST", "/api/consultations",
              {"kind": "xiangqi", "color": "first", "members": ids, "mode": "majority",
               "reserve": 600, "time": {"minutes": 10}})["id"]
    for p in pages[1:]:  # each member joins by his own answer (issue 31)
        api(p, "POST", f"/api/games/{gid}/group/answer", {"accept": True})
    api(opp, "POST", f"/api/games/{gid}/join")
    for p in pages + [opp]:
        p.goto(f"{base}/games/{gid}")
        p.wait_for_selector('#board[data-phase="playing"]')
    pages[0].wait_for_selector("#group-panel")
    assert "hui1、hui2、hui3" in pages[0].inner_text("#group-members")
    # The opponent is no member: no panel (the server refuses him the group).
    opp.wait_for_timeout(500)
    assert opp.locator("#group-panel").count() == 0

    def vote(page: Any, move: str) -> None:
        page.wait_for_selector("#group-move")
        page.fill("#group-move", move)
        page.click("#group-vote")

    vote(pages[0], "h2e2")
    pages[0].wait_for_selector('#group-tally li[data-move="h2e2"]')
    # Voting twice is refused in the page's language and changes nothing.
    vote(pages[0], "b2e2")
    pages[0].wait_for_selector('#group-notice[data-code="group"]')
    assert "你已经投过票" in pages[0].inner_text("#group-notice")
    vote(pages[1], "b2e2")
    pages[1].wait_for_selector('#group-tally li[data-move="b2e2"]')
    assert api(opp, "GET", f"/api/games/{gid}")["ply"] == 0
    pages[2].screenshot(path=str(shots / "consult-before-majority.png"))
    vote(pages[2], "h2e2")  # two of three: the majority move is played
    pages[2].wait_for_selector('#group-notice[data-code="played"]')
    for p in pages + [opp]:
        p.wait_for_selector('#board[data-ply="1"]')
    st = api(opp, "GET", f"/api/games/{gid}")
    assert [m["move"] for m in st["moves"]] == ["h2e2"]
    opp.screenshot(path=str(shots / "consult-opponent-after-majority.png"))
