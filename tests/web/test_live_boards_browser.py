"""Browser tests of issue 22 items 2 and 3 (Playwright in Debian's
chromium against ``qisai serve``): the home page's live board moves after a
move is played in its game (one page socket for the page); a player
registers for an event from the calendar and is listed in it; a 棋例
verdict's clause link opens that clause in the manual.  Screenshots of the
home page at desktop width and at 390 px go to ``$QISAI_TEST_ARTIFACTS``
(else the test's temporary folder).

Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from qisai.store import Database, repo
from qisai.store.models import Role

pytestmark = pytest.mark.slow

CASES = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "repetition_basic.json"
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
    e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def signed_up(browser: Any, base: str, name: str, lang: str = "en-US",
              width: int = 1280) -> Any:
    ctx = browser.new_context(locale=lang, viewport={"width": width, "height": 900})
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


def home_with(page: Any, base: str, selector: str) -> None:
    """Open the home page until ``selector`` is on it (the page's choice of
    boards and events is kept a few seconds)."""
    for _ in range(40):
        page.goto(f"{base}/")
        if page.query_selector(selector) is not None:
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"{selector} never appeared on the home page")


def set_role(data: Path, name: str, role: Role) -> None:
    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    with db.session() as s:
        user = repo.find_user(s, name)
        assert user is not None
        repo.set_role(s, user.id, role)
    db.dispose()


def test_the_home_pages_live_board_moves_with_its_game(live_server: tuple[str, Path],
                                                       browser: Any, shots: Path) -> None:
    base, _ = live_server
    red, black = signed_up(browser, base, "hongqi"), signed_up(browser, base, "heiqi")
    gid = api(red, "POST", "/api/games", {"kind": "xiangqi", "color": "first",
                                          "time": {"minutes": 10, "increment": 5}})["id"]
    api(black, "POST", f"/api/games/{gid}/join")
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    ctx.add_init_script(WATCH_CSP)  # the page's script and styles run under the site's CSP
    viewer = ctx.new_page()
    viewer.set_default_timeout(20000)
    console: list[str] = []
    viewer.on("console", lambda m: console.append(m.text))
    sockets: list[str] = []
    viewer.on("websocket", lambda ws: sockets.append(ws.url))
    board = f'[data-live-board="{gid}"]'
    home_with(viewer, base, board)
    viewer.wait_for_selector(f'{board}[data-ply="0"] .lb-position [data-piece]')
    assert "hongqi" in viewer.inner_text(board) and "(1500)" in viewer.inner_text(board)
    # Red's cannon stands on h2 (the start position), nothing on e2.
    def piece(sq: str) -> str | None:
        found = viewer.locator(f'{board} .lb-position [data-square="{sq}"]')
        return found.get_attribute("data-piece") if found.count() else None
    assert piece("h2") == "C" and piece("e2") is None
    # Chinese notation's file numbers (issue 32.3): Red's 二 under file h, Black's 8 above it.
    assert viewer.locator(f'{board} .coord.red-file[data-file="h"]').text_content() == "二"
    assert viewer.locator(f'{board} .coord.black-file[data-file="h"]').text_content() == "8"
    api(red, "POST", f"/api/games/{gid}/actions", {"type": "move", "ply": 1, "move": "h2e2"})
    viewer.wait_for_selector(f'{board}[data-ply="1"]')
    assert piece("e2") == "C" and piece("h2") is None
    assert viewer.locator(f'{board} .lb-position [data-last="e2"]').count() == 1
    assert [u for u in sockets if u.endswith("/ws/lobby")] == sockets and len(sockets) == 1
    viewer.screenshot(path=str(shots / "home-live-board-desktop.png"), full_page=True)
    assert viewer.evaluate("window.__csp") == []
    assert not [m for m in console if "Refused to" in m or "Content Security Policy" in m]
    # TV: the featured game, larger, on its own page socket; it moves too.
    tv = ctx.new_page()
    tv.set_default_timeout(20000)
    tv.goto(f"{base}/tv")
    # (the only running game of this server so far, so the featured one)
    assert tv.get_attribute("#tv .live-board.big", "data-live-board") == gid
    tv.wait_for_selector('#tv .live-board.big[data-ply="1"]')
    api(black, "POST", f"/api/games/{gid}/actions", {"type": "move", "ply": 2, "move": "h9g7"})
    tv.wait_for_selector('#tv .live-board.big[data-ply="2"]')
    tv.close()
    # Clicking the board opens the game.
    viewer.click(board)
    viewer.wait_for_url(f"{base}/games/{gid}")


def test_register_from_the_calendar(live_server: tuple[str, Path], browser: Any,
                                    shots: Path) -> None:
    base, data = live_server
    org = signed_up(browser, base, "saishi")
    set_role(data, "saishi", Role.ORGANISER)
    ev = api(org, "POST", "/api/tournaments", {"name": "城市公开赛", "system": "swiss",
                                                "rounds": 5, "time": {"scheme": "6.2"}})
    tid = ev["id"]
    api(org, "PUT", f"/api/tournaments/{tid}/listing",
        {"starts": "2027-05-01", "ends": "2027-05-02", "venue": "文化宫",
         "groups": ["公开组", "女子组"], "min_rating": 1000, "max_rating": 2000,
         "registration": "open"})
    player = signed_up(browser, base, "xiaoli", lang="zh-CN", width=390)
    form = f'form[data-register="{tid}"]'
    home_with(player, base, form)
    row = player.locator(f'.cal-event[data-event="{tid}"]')
    assert "文化宫" in row.inner_text() and "规则 6.2" in row.inner_text()
    assert row.locator(".cal-entries").inner_text() == "0"
    player.screenshot(path=str(shots / "home-390px.png"), full_page=True)
    player.select_option(f"{form} select[name=group]", "女子组")
    player.click(f"{form} button[type=submit]")
    player.wait_for_selector(f'.cal-event[data-event="{tid}"] .cal-done')
    assert row.locator(".cal-entries").inner_text() == "1"
    player.goto(f"{base}/tournaments/{tid}")
    player.wait_for_selector("#players li:has-text('xiaoli')")
    # The organiser's calendar lists the event as his own, with its papers.
    home_with(org, base, f'#calendar-mine .cal-event[data-event="{tid}"]')
    assert org.query_selector(f'a.cal-papers[href="/tournaments/{tid}#papers"]') is not None
    org.screenshot(path=str(shots / "home-desktop.png"), full_page=True)


def test_a_qili_verdicts_clause_link_opens_the_clause(live_server: tuple[str, Path],
                                                      browser: Any, shots: Path) -> None:
    pytest.importorskip("material", reason="mkdocs-material is not installed (pip install -e "
                                           "'.[docs]')")
    pytest.importorskip("opencc", reason="opencc is not installed (pip install -e '.[docs]')")
    from qisai.web.manual import builder, manual_dir

    base, data = live_server
    if not (manual_dir(data) / "index.html").is_file():  # the package's copy, else build one
        builder.build(data / "manual")  # /manual looks for it on each request
    case = json.loads(CASES.read_text(encoding="utf-8"))[0]  # perpetual check by Red
    red, black = signed_up(browser, base, "changjiang", "zh-CN"), signed_up(browser, base, "duishou")
    gid = api(red, "POST", "/api/games", {"kind": "xiangqi", "ruleset": "cxa",
                                          "color": "first", "fen": case["fen"]})["id"]
    api(black, "POST", f"/api/games/{gid}/join")
    for ply, move in enumerate(case["moves"], start=1):
        if api(red, "GET", f"/api/games/{gid}")["result"]:
            break
        api(red if ply % 2 else black, "POST", f"/api/games/{gid}/actions",
            {"type": "move", "ply": ply, "move": move})
    red.goto(f"{base}/games/{gid}")
    link = red.locator("#result-clause a.clause-link").first
    link.wait_for()
    assert link.inner_text() == "24.1"
    with red.context.expect_page() as opened:
        link.click()
    clause_page = opened.value
    clause_page.wait_for_load_state()
    assert clause_page.url.endswith("/manual/zh/rules/xiangqi.html#c-24-1")
    clause = clause_page.locator("#c-24-1")
    assert clause.is_visible() and "长将" in clause.inner_text()
    red.screenshot(path=str(shots / "qili-verdict-clause-link.png"))
