"""Browser test of simuls, issue 33 item 9 (Playwright in Debian's
chromium): the organiser's form offers the game's own colours in the
page's language (红方/黑方 for Xiangqi, never "white"; 黑方/白方 for Go) and
the host's extra time; the start button is above the entrant list; a
spectator sees the host's name, mini boards with the river and both
palaces, opens a board's game, and reads the results as the host's
胜/负/和.

Screenshots go to ``$QISAI_TEST_ARTIFACTS`` (else the test's temporary
folder).  Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_web_simul_browser import api, make_organiser, signed_up

pytestmark = pytest.mark.slow


def test_form_colours_extra_time_and_what_a_spectator_sees(
        live_server: tuple[str, Path], browser: Any, shots: Path) -> None:
    base, data = live_server
    host = signed_up(browser, base, "huronghua")
    make_organiser(data, "huronghua")
    host.goto(f"{base}/simuls")
    values = host.eval_on_selector_all("#s-colour option", "os => os.map(o => o.value)")
    texts = host.eval_on_selector_all("#s-colour option", "os => os.map(o => o.textContent)")
    assert "white" not in values and texts[1:3] == ["红方", "黑方"]
    host.select_option("#s-game", "go")
    texts = host.eval_on_selector_all("#s-colour option", "os => os.map(o => o.textContent)")
    assert texts[1:3] == ["黑方", "白方"]
    host.select_option("#s-game", "xiangqi")
    host.fill("#s-name", "上海车轮战")
    host.fill("#s-max", "3")
    host.select_option("#s-colour", "red")
    host.fill("#s-minutes", "10")
    host.fill("#s-extra", "2")
    host.fill("#s-extra-board", "20")
    host.click("#create-simul")
    host.wait_for_url(f"{base}/simuls/*")
    sid = int(host.url.rsplit("/", 1)[1])
    entrants = []
    for n in range(1, 4):
        page = signed_up(browser, base, f"shanghai{n}")
        api(page, "POST", f"/api/simuls/{sid}/join", {})
        entrants.append(page)
    host.goto(f"{base}/simuls/{sid}")
    start = host.locator("#start-simul").bounding_box()
    first = host.locator("#entrants li").first.bounding_box()
    assert start is not None and first is not None and start["y"] < first["y"]
    host.click("#start-simul")
    host.wait_for_selector(".mini[data-board='3'][data-ply='0']")
    simul = api(host, "GET", f"/api/simuls/{sid}")
    games = {b["number"]: b["game_id"] for b in simul["boards"]}
    clocks = api(host, "GET", f"/api/games/{games[1]}")["clocks"]
    # the host's clock runs already (Red moves first): within a minute of it
    assert clocks["first"] == pytest.approx(600 + 120 + 20 * 3, abs=60)
    assert clocks["second"] == 600

    spectator = browser.new_context(locale="zh-CN").new_page()
    spectator.set_default_timeout(20000)
    spectator.goto(f"{base}/simuls/{sid}")
    spectator.wait_for_selector(".mini[data-board='3'] .piece")
    assert spectator.inner_text("#simul-host") == "huronghua"
    mini = ".mini[data-board='1'] .grid svg.lines"
    assert spectator.locator(f"{mini} rect.river").count() == 1
    assert spectator.locator(f"{mini} line.palace").count() == 4
    # board 1: the entrant resigns (the host wins); board 2: the host
    # resigns; board 3: a draw agreed after the host's move (23.1)
    api(entrants[0], "POST", f"/api/games/{games[1]}/actions", {"type": "resign"})
    api(host, "POST", f"/api/games/{games[2]}/actions", {"type": "resign"})
    api(host, "POST", f"/api/games/{games[3]}/actions",
        {"type": "move", "ply": 1, "move": "h2e2", "offer_draw": True})
    api(entrants[2], "POST", f"/api/games/{games[3]}/actions", {"type": "accept_draw"})
    for n, tag in ((1, "主将胜"), (2, "主将负"), (3, "和")):
        spectator.wait_for_selector(f".mini[data-board='{n}'] .tag:text-is('{tag}')")
    assert "1-0" not in spectator.inner_text("#boards")
    spectator.screenshot(path=str(shots / "simul-spectator-host-tags.png"))
    spectator.click(".mini[data-board='2'] .open-game")
    spectator.wait_for_url(f"{base}/games/{games[2]}")
    spectator.wait_for_selector("#result:not([hidden])")
