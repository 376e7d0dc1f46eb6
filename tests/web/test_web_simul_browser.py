"""Browser test of issue 21 items 1 and 2 (Playwright in Debian's chromium):
a host with 6 boards, two of them blindfold, walks the ring with "next
board" and plays a move on every board; the score updates on the host's
and a spectator's page; the blindfold entrant's board has no piece
elements, shows "第三台，炮二平五" and plays a typed 马8进7 after a typo that
shows the parser's message and plays nothing.  On the game page a blindfold
seat draws no pieces and everyone sees that the seat is blindfold.

Screenshots go to ``$QISAI_TEST_ARTIFACTS`` (else the test's temporary
folder).  Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def signed_up(browser: Any, base: str, name: str, lang: str = "zh-CN") -> Any:
    ctx = browser.new_context(locale=lang, viewport={"width": 1200, "height": 900})
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


def make_organiser(data: Path, name: str) -> None:
    from qisai.store import Database, repo
    from qisai.store.models import Role

    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    with db.session() as s:
        user = repo.find_user(s, name)
        assert user is not None
        repo.set_role(s, user.id, Role.ORGANISER)
    db.dispose()


# the host's move on each board (any notation the parser reads)
HOST_MOVES = {1: "h2e2", 2: "炮二平五", 3: "炮二平五", 4: "C2.5", 5: "炮25", 6: "兵七进一"}


def test_host_walks_six_boards_two_blindfold(live_server: tuple[str, Path], browser: Any,
                                             shots: Path) -> None:
    base, data = live_server
    host = signed_up(browser, base, "liudahua")
    make_organiser(data, "liudahua")
    host.goto(f"{base}/")
    host.click("#simuls-link")
    host.fill("#s-name", "成都车轮战")
    host.fill("#s-max", "6")
    host.click("#create-simul")
    host.wait_for_url(f"{base}/simuls/*")
    sid = int(host.url.rsplit("/", 1)[1])
    entrants = []
    for n in range(1, 7):
        page = signed_up(browser, base, f"amateur{n}")
        api(page, "POST", f"/api/simuls/{sid}/join", {"blindfold": n in (3, 5)})
        entrants.append(page)
    late = signed_up(browser, base, "late1")
    late.goto(f"{base}/simuls/{sid}")
    late.click("#join-simul")
    late.wait_for_selector("#simul-error:has-text('已满')")  # the 7th: full

    host.goto(f"{base}/simuls/{sid}")
    host.click("#start-simul")
    host.wait_for_selector(".mini[data-board='6'][data-ply='0']")
    spectator = browser.new_context(locale="en-US").new_page()
    spectator.set_default_timeout(20000)
    spectator.goto(f"{base}/simuls/{sid}")
    spectator.wait_for_selector(".mini[data-board='6']")
    blind = entrants[2]
    blind.goto(f"{base}/simuls/{sid}")
    blind.wait_for_selector(".mini[data-board='3'] .grid.blind")
    assert blind.locator("#boards .piece").count() == 0  # no piece elements at all
    assert blind.locator(".mini").count() == 1  # his own board only

    # boards waiting for the host first; both blindfold seats are shown
    assert "蒙目" in host.inner_text(".mini[data-board='3'] .head")
    assert "蒙目" in host.inner_text(".mini[data-board='5'] .head")
    assert "蒙目" not in host.inner_text(".mini[data-board='4'] .head")
    assert host.locator(".mini[data-board='1'] .piece").count() == 32
    host.wait_for_selector("#current-label[data-board='1']")
    for n in range(1, 7):
        assert host.get_attribute("#current-label", "data-board") == str(n)
        if n == 1:  # by clicks on the board: the cannon h2 to e2
            host.click(".mini[data-board='1'] .sq[data-square='h2']")
            host.click(".mini[data-board='1'] .sq[data-square='e2']")
        else:
            host.fill("#typed-move", HOST_MOVES[n])
            host.press("#typed-move", "Enter")
        host.wait_for_selector(f".mini[data-board='{n}'][data-ply='1'][data-waiting='entrant']")
        host.evaluate("document.activeElement.blur()")
        if n == 4:
            host.click("#next-board")
        else:
            host.keyboard.press("n" if n % 2 else " ")
    host.wait_for_selector("#current-label[data-board='']")  # no board waits for the host
    spectator.wait_for_selector(".mini[data-board='6'][data-ply='1']")
    host.screenshot(path=str(shots / "simul-host-ring.png"))

    # the blindfold entrant hears board 3's move, types a typo, then 马8进7
    blind.wait_for_selector("#announce:has-text('第三台，炮二平五')")
    assert blind.locator("#boards .piece").count() == 0
    g3 = api(host, "GET", f"/api/simuls/{sid}")["boards"][2]["game_id"]
    events = len(api(host, "GET", f"/api/games/{g3}/events"))
    blind.fill("#typed-move", "马8进9九")
    blind.press("#typed-move", "Enter")
    blind.wait_for_selector("#simul-notice[data-code='typed_move']")
    said = blind.inner_text("#simul-notice")  # issue 31.7: no square, no legal moves
    assert "盲棋" in said or "blindfold" in said
    assert len(api(host, "GET", f"/api/games/{g3}/events")) == events  # nothing played
    blind.fill("#typed-move", "马8进7")
    blind.press("#typed-move", "Enter")
    blind.wait_for_selector(".mini[data-board='3'][data-ply='2']")
    assert blind.locator("#boards .piece").count() == 0
    blind.screenshot(path=str(shots / "simul-blindfold-entrant.png"))
    host.wait_for_selector(".mini[data-board='3'][data-ply='2'][data-waiting='host']")
    host.wait_for_selector("#boards .mini:first-child[data-board='3']")  # waiting first
    assert api(host, "GET", f"/api/games/{g3}")["moves"][1]["move"] == "h9g7"

    # board 6's entrant resigns: the running score on every page
    g6 = api(host, "GET", f"/api/simuls/{sid}")["boards"][5]["game_id"]
    api(entrants[5], "POST", f"/api/games/{g6}/actions", {"type": "resign"})
    host.wait_for_selector("#score:has-text('1胜0和0负')")
    spectator.wait_for_selector("#score:has-text('1 wins, 0 draws, 0 losses')")
    spectator.screenshot(path=str(shots / "simul-spectator.png"))

    # the game page of board 5: the blindfold seat draws no pieces, and the
    # host (and anyone) sees that the seat is blindfold
    g5 = api(host, "GET", f"/api/simuls/{sid}")["boards"][4]["game_id"]
    five = entrants[4]
    five.goto(f"{base}/games/{g5}")
    five.wait_for_selector("#bf-announce:has-text('炮二平五')")
    assert five.locator("#board [data-piece]").count() == 0
    assert five.locator("#board .piece").count() == 0
    five.fill("#bf-move", "马8进7")
    five.press("#bf-move", "Enter")
    five.wait_for_selector('#board[data-ply="2"]')
    host.goto(f"{base}/games/{g5}")
    host.wait_for_selector("#blindfold-seats:has-text('蒙目')")
    assert host.locator("#board [data-piece]").count() == 32


def test_clock_calls_are_announced_for_a_player_who_turns_it_on(
        live_server: tuple[str, Path], browser: Any) -> None:
    """The same announcer reads the Go byo-yomi calls (the seed's
    "开始读秒" ... ) for any player who turns it on, blindfold or not."""
    base, _ = live_server
    black = signed_up(browser, base, "callsblack")
    white = signed_up(browser, base, "callswhite")
    time = {"minutes": 0.05, "byoyomi": {"kind": "chinese", "periods": 1, "seconds": 60}}
    gid = api(black, "POST", "/api/games", {"kind": "go", "ruleset": "chinese", "size": 9,
                                            "color": "first", "time": time})["id"]
    black.goto(f"{base}/games/{gid}")
    black.check("#speak-calls")
    assert black.locator("#bf-move").count() == 0  # not blindfold: no typing box
    api(white, "POST", f"/api/games/{gid}/join")  # the clock starts: 3 s, then byo-yomi
    black.wait_for_selector("#bf-announce:has-text('开始读秒')", timeout=30000)
    assert black.locator("#board circle.black").count() == 0  # nothing was played
