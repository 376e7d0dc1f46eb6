"""Browser test of consultation boards that end (issue 33 item 7;
Playwright in Debian's chromium): the game is made with the consultation
form; the members' pages say their group plays (not 观战中) and count the
reserve down; a vote in Chinese notation is tallied in the page's notation;
two of three members resign with the page's button and the game ends 0-1.

Screenshots go to ``$QISAI_TEST_ARTIFACTS`` (else the test's temporary
folder).  Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_web_play_browser import api, signed_up

pytestmark = pytest.mark.slow


def test_a_group_made_by_the_form_votes_in_chinese_and_resigns(
        live_server: tuple[str, Path], browser: Any, shots: Path) -> None:
    base, _ = live_server
    pages = [signed_up(browser, base, n, "zh-CN") for n in ("zu1", "zu2", "zu3")]
    opp = signed_up(browser, base, "zudui")
    first = pages[0]
    first.goto(f"{base}/consultations/new")
    assert first.inner_text("#c-colour option[value=first]") == "红方"
    first.select_option("#c-kind", "go")
    assert first.inner_text("#c-colour option[value=second]") == "白方"
    first.select_option("#c-kind", "xiangqi")
    first.fill("#c-members", "zu1, zu2, zu3")
    first.fill("#c-reserve", "600")
    first.click("#create-consultation")
    first.wait_for_url(f"{base}/games/*")
    gid = first.url.rsplit("/", 1)[1]
    for p in pages[1:]:
        api(p, "POST", f"/api/games/{gid}/group/answer", {"accept": True})
    api(opp, "POST", f"/api/games/{gid}/join")
    for p in pages + [opp]:
        p.goto(f"{base}/games/{gid}")
        p.wait_for_selector('#board[data-phase="playing"]')
    for p in pages:
        p.wait_for_selector("#group-panel")
        p.wait_for_function("document.getElementById('status').textContent.includes('本组')")
        assert "观战中" not in p.inner_text("#status")
        assert p.is_visible("#actions #resign")
    assert "观战中" not in opp.inner_text("#status") and opp.locator("#group-panel").count() == 0
    # The reserve counts down from 600 (the clock has 10 minutes: not capped).
    first.wait_for_selector("#group-reserve:not([hidden])")
    left = int(first.get_attribute("#group-reserve", "data-left") or 0)
    assert 590 <= left <= 600
    first.fill("#group-move", "炮二平五")
    first.click("#group-vote")
    first.wait_for_selector('#group-tally li[data-move="h2e2"]')
    assert "炮二平五" in first.inner_text("#group-tally")
    first.select_option("#notation", "move")
    first.wait_for_function(
        "document.getElementById('group-tally').textContent.includes('h2e2')")
    first.screenshot(path=str(shots / "consult-chinese-vote.png"))
    pages[0].once("dialog", lambda d: d.accept())
    pages[0].click("#actions #resign")  # one of three: the group's support, not yet carried
    pages[2].wait_for_selector('#group-motions li[data-motion="resign"]')
    assert "1/3" in pages[2].inner_text("#group-motions")
    assert api(opp, "GET", f"/api/games/{gid}")["result"] is None
    pages[1].once("dialog", lambda d: d.accept())
    pages[1].click("#actions #resign")
    opp.wait_for_selector("#result:not([hidden])")
    assert opp.inner_text("#result-tag") == "0-1"
    assert api(opp, "GET", f"/api/games/{gid}")["result"]["pgn"] == "0-1"
    opp.screenshot(path=str(shots / "consult-group-resigned.png"))
