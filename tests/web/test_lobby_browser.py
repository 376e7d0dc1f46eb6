"""Issue 22 item 1 in Debian's chromium (Playwright): two browsers press the
same quick-pairing button and land in one game with the clock of that
scheme (6.3: 10 minutes for the first 40 moves); a third, rated far away,
waits and sees the range widen as the server's test clock moves (no
sleeps), keeps its place over a reload, and cancels.

The arena runs in this process (uvicorn in a thread) so that the test
drives its clock.  Screenshots of the home page (desktop and 390 px) go to
``$QISAI_TEST_ARTIFACTS`` (else the test's temporary folder).  Skipped
when playwright or chromium is missing.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from qisai.store import repo
from qisai.web import Settings, create_app
from qisai.web.lobby.pools import Pools

from .conftest import FakeTime, free_port
from .test_web_play_browser import signed_up

pytestmark = pytest.mark.slow


@pytest.fixture
def arena(settings: Settings, clock: FakeTime) -> Iterator[tuple[str, Any]]:
    """The arena on a loopback port with the test's clock; yields (URL, app)."""
    import uvicorn

    app = create_app(settings, time_source=clock, tick_period=0.05)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:  # start-up, not a timing assumption of the test
        if time.monotonic() > deadline or not thread.is_alive():
            raise AssertionError("the arena did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def test_quick_pairing_in_three_browsers(arena: tuple[str, Any], browser: Any, clock: FakeTime,
                                         shots: Path) -> None:
    base, app = arena
    a = signed_up(browser, base, "kuaia", "zh-CN", width=1280)
    b = signed_up(browser, base, "kuaib")
    c = signed_up(browser, base, "kuaic", width=390)
    with app.state.qisai.db.session() as s:
        repo.find_user(s, "kuaic").rating = 2300  # type: ignore[union-attr]
        s.commit()
    a.screenshot(path=str(shots / "home-quick-pairing-desktop.png"), full_page=True)
    # The rule book's schemes by name, and the custom game behind a button.
    assert "10分钟40着" in a.inner_text('button[data-pool="xq-6.3"]')
    assert a.locator("#new-game").is_hidden()
    a.click('button[data-pool="xq-6.3"]')
    a.wait_for_selector("#quick-status:not([hidden])")
    assert a.inner_text("#quick-range") == "100"
    assert a.get_attribute('button[data-pool="xq-6.3"]', "aria-pressed") == "true"
    b.click('button[data-pool="xq-6.3"]')
    # The waiting page hears of the game on its next question.  The URL is
    # waited on until the navigation commits and then the board, each with
    # its own time, so a page slow to load on a busy machine only waits.
    b.wait_for_url(f"{base}/games/*", wait_until="commit")
    a.wait_for_url(b.url, wait_until="commit")
    for page in (a, b):
        page.wait_for_selector('#board[data-phase="playing"]')
    gid = b.url.rsplit("/", 1)[1]
    # 6.3: 10 minutes for the first 40 moves, on both clocks (the server's
    # clock is the test's and has not moved).
    clocks = a.evaluate(f"qisai.api('GET', '/api/games/{gid}')")["clocks"]
    assert (clocks["first"], clocks["second"], clocks["running"]) == (600, 600, "first")
    for page in (a, b):
        page.wait_for_selector('#board[data-phase="playing"]')
        shown = {page.inner_text("#clock-top"), page.inner_text("#clock-bottom")}
        # The page counts the running clock down by itself between messages.
        assert "10:00" in shown and all(re.fullmatch(r"10:00|9:[0-5]\d", x) for x in shown)
    names = a.locator(".pname a.player-link")
    assert names.count() == 2
    assert {names.nth(i).inner_text() for i in range(2)} == {"kuaia", "kuaib"}

    # A third player, 800 points away, waits; the range widens with the clock.
    c.click('button[data-pool="xq-6.3"]')
    c.wait_for_selector('#quick-status[data-range="100"]:not([hidden])')
    assert c.inner_text("#quick-low") == "2200" and c.inner_text("#quick-high") == "2400"
    clock.advance(Pools.STEP_SECONDS)
    c.wait_for_selector('#quick-status[data-range="150"]')
    clock.advance(Pools.STEP_SECONDS)
    c.wait_for_selector('#quick-status[data-range="200"]')
    assert c.inner_text("#quick-range") == "200" and c.inner_text("#quick-low") == "2100"
    c.screenshot(path=str(shots / "home-quick-pairing-390.png"), full_page=True)
    # A reload finds the entry still there, with its waiting time.
    c.reload()
    c.wait_for_selector('#quick-status[data-range="200"]:not([hidden])')
    assert int(c.inner_text("#quick-waited")) == 2 * Pools.STEP_SECONDS
    c.click("#quick-cancel")
    c.wait_for_selector("#quick-status[hidden]", state="attached")
    assert c.evaluate("qisai.api('GET', '/api/pools/me')") == {"status": "idle"}
    assert c.get_attribute('button[data-pool="xq-6.3"]', "aria-pressed") == "false"
