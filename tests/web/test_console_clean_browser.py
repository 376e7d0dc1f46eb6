"""No console noise (issue 32 item 9): the game page (as a player, as a
watcher, Xiangqi and Go), the home page, an event's page and /redoc log no
error in the browser's console, throw no uncaught error, and get no answer
of 400 or more from the arena.  Before: every game page logged two 404s for
``/api/games/ID/group`` (asked though no group plays the game), and /redoc a
logo from a CDN the page's policy blocks.

Playwright driving Debian's chromium against ``qisai serve``; skipped when
either is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.test_web_play_browser import act, api, new_game, signed_up

pytestmark = pytest.mark.slow


def watch(page: Any) -> list[str]:
    """Start collecting the page's console errors, uncaught errors and
    failed answers; the list they go to."""
    noise: list[str] = []
    page.on("console", lambda m: noise.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: noise.append(f"pageerror: {e}"))
    page.on("response", lambda r: noise.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return noise


def settle(page: Any) -> None:
    """Let the page's own requests finish (its scripts load, ask, connect)."""
    page.wait_for_load_state("networkidle")


def test_no_console_error_on_game_home_event_and_redoc(live_server: tuple[str, Path],
                                                       browser: Any) -> None:
    base, data = live_server
    red = signed_up(browser, base, "quietred", width=1280)
    black = signed_up(browser, base, "quietblack", width=1280)
    visitor = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    pages = (red, black, visitor)
    noise = {id(p): watch(p) for p in pages}

    # A Xiangqi game in play, seen by both players and a visitor.
    gid = new_game(red, kind="xiangqi", ruleset="casual", time={"minutes": 10, "increment": 0})
    api(black, "POST", f"/api/games/{gid}/join")
    act(red, gid, type="move", ply=1, move="h2e2")
    for page in pages:
        page.goto(f"{base}/games/{gid}")
        page.wait_for_selector('#board[data-phase="playing"]')
        settle(page)
    act(black, gid, type="move", ply=2, move="h9g7")
    red.wait_for_function("document.getElementById('moves').textContent.includes('7')")
    # A Go game against the built-in engine.
    go = new_game(red, kind="go", size=9, opponent="engine", engine="builtin")
    red.goto(f"{base}/games/{go}")
    red.wait_for_selector('#board[data-phase="playing"]')
    settle(red)

    # An event with a round paired, by an organiser.
    from qisai.store import Database, repo
    from qisai.store.models import Role

    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    with db.session() as s:
        user = repo.find_user(s, "quietred")
        assert user is not None
        repo.set_role(s, user.id, Role.ORGANISER)
    db.dispose()
    red.goto(f"{base}/tournaments")
    red.fill("#t-name", "Quiet Cup")
    red.select_option("#t-system", "knockout")
    red.select_option("#t-series", "single")
    red.click("#create-tournament")
    red.wait_for_url(f"{base}/tournaments/*")
    event = red.url
    for name in ("Wang", "Li"):
        red.fill("#player-name", name)
        red.click("#add-player-button")
        red.wait_for_selector(f"#players li:has-text('{name}')")
    red.click("#start-event")
    red.wait_for_selector("#pair-round")
    red.click("#pair-round")
    red.wait_for_selector('.bracket-round[data-round="1"]')
    for page in pages:
        page.goto(event)
        settle(page)
        page.goto(f"{base}/")
        page.wait_for_selector("main")
        settle(page)
    visitor.goto(f"{base}/tv")
    settle(visitor)
    visitor.goto(f"{base}/redoc")
    visitor.wait_for_selector("li[data-item-id*='operation/']", state="attached", timeout=60_000)
    settle(visitor)

    for page in pages:
        assert noise[id(page)] == [], noise[id(page)]
