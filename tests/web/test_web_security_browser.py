"""Browser tests of issue 14 items 5 and 8 (Playwright driving Debian's
chromium against ``qisai serve``): the main pages run under the
Content-Security-Policy with no violation (no ``securitypolicyviolation``
event, no "Refused to" console message) while a game is played over the
socket; a player whose display name is hostile markup (``<!--<script>``,
``</script><script>...``) does not break the game page for its viewers; and
no other site can frame the game page.

Skipped when playwright or /usr/bin/chromium is missing.  (Here rather than
in tests/security because the live server and browser fixtures are in
tests/web/conftest.py.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
    e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def watched_page(browser: Any, messages: list[str]) -> Any:
    ctx = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
    ctx.add_init_script(WATCH_CSP)
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.on("console", lambda m: messages.append(m.text))
    return page


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/login")
    page.fill("#username", name)
    page.fill("#password", "a board of my own")
    page.click("#register-button")
    page.wait_for_url(f"{base}/")


def violations(page: Any, messages: list[str]) -> list[str]:
    found = list(page.evaluate("window.__csp || []"))
    found += [m for m in messages if "Refused to" in m or "Content Security Policy" in m]
    return found


def set_display_name(data: Path, username: str, display_name: str) -> None:
    from sqlalchemy import update

    from qisai.store import Database, repo
    from qisai.store.models import User

    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    with db.session() as s:
        user = repo.find_user(s, username)
        assert user is not None
        s.execute(update(User).where(User.id == user.id).values(display_name=display_name))
        s.commit()
    db.dispose()


def test_main_pages_have_no_csp_violation(live_server: tuple[str, Path], browser: Any) -> None:
    base, data = live_server
    red_log: list[str] = []
    black_log: list[str] = []
    red, black = watched_page(browser, red_log), watched_page(browser, black_log)
    for path in ("/", "/login", "/tournaments"):
        red.goto(base + path)
        red.wait_for_load_state("load")
        assert violations(red, red_log) == [], path
    sign_up(red, base, "cspred")
    sign_up(black, base, "cspblack")
    red.click("#custom-game > summary")
    red.select_option("select[name=color]", "first")
    red.click("#create-game")
    red.wait_for_url(f"{base}/games/*")
    black.goto(red.url)
    black.click("#join-button")
    red.wait_for_selector('#board[data-phase="playing"]')  # the socket connected
    red.click('#board g[data-square="h2"]')
    red.click('#board g[data-square="e2"]')
    black.wait_for_selector('#board[data-ply="1"]')
    assert red.locator("#moves li").count() == 1
    red.click("#me")  # the profile page
    red.wait_for_load_state("load")
    for page, log in ((red, red_log), (black, black_log)):
        assert violations(page, log) == []
    # an event page (tournament.js) as its organiser
    from qisai.store import Database, repo
    from qisai.store.models import Role

    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    with db.session() as s:
        user = repo.find_user(s, "cspred")
        assert user is not None
        repo.set_role(s, user.id, Role.ORGANISER)
    db.dispose()
    red.goto(f"{base}/tournaments")
    red.fill("#t-name", "CSP Cup")
    red.click("#create-tournament")
    red.wait_for_url(f"{base}/tournaments/*")
    red.fill("#player-name", "Wang")
    red.click("#add-player-button")
    red.wait_for_selector("#players li:has-text('Wang')")
    assert violations(red, red_log) == []
    # the API docs run under their own policy
    red.goto(f"{base}/docs")
    red.wait_for_selector(".swagger-ui .info")
    assert violations(red, red_log) == []


@pytest.mark.parametrize("hostile", ["<!--<script>",
                                     "</script><script>window.pwned=1</script>&amp;\u2028"])
def test_a_hostile_display_name_does_not_break_the_game_page(
        live_server: tuple[str, Path], browser: Any, hostile: str) -> None:
    base, data = live_server
    log: list[str] = []
    player = watched_page(browser, log)
    username = "villain" + str(len(hostile))
    sign_up(player, base, username)
    set_display_name(data, username, hostile)
    gid = player.evaluate("""async () => (await qisai.api('POST', '/api/games',
        {kind: 'xiangqi', color: 'first'})).id""")
    viewer_log: list[str] = []
    viewer = watched_page(browser, viewer_log)
    viewer.goto(f"{base}/games/{gid}")
    viewer.wait_for_selector("#board[data-phase]")  # game.js ran and drew the board
    assert viewer.locator("#board g[data-square]").count() == 90
    first = viewer.evaluate(
        "JSON.parse(document.getElementById('game-data').textContent).players.first")
    assert hostile in (first.get("display_name"), first["name"])
    names = viewer.inner_text("#name-top") + viewer.inner_text("#name-bottom")
    # the page shows its player by the display name (issue 32.8), as plain text
    assert hostile in names
    assert viewer.evaluate("window.pwned") is None
    assert violations(viewer, viewer_log) == []
    raw = viewer.evaluate("document.getElementById('game-data').textContent")
    assert hostile in json.loads(raw)["players"]["first"].values()


def test_no_other_site_can_frame_the_game_page(live_server: tuple[str, Path],
                                               browser: Any) -> None:
    base, _ = live_server
    log: list[str] = []
    page = watched_page(browser, log)
    sign_up(page, base, "framed")
    gid = page.evaluate("""async () => (await qisai.api('POST', '/api/games',
        {kind: 'xiangqi', color: 'first'})).id""")
    other = browser.new_context().new_page()
    other.set_content(f'<iframe id="f" src="{base}/games/{gid}" width="800" height="600">'
                      "</iframe>")
    other.wait_for_timeout(1500)
    framed = [f for f in other.frames if f != other.main_frame]
    assert framed, "the iframe element exists"
    for frame in framed:
        assert frame.query_selector("#resign") is None  # the page did not load in the frame
    # and the watch of the other tests sees a violation when there is one
    assert violations(page, log) == []
    page.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.inlineRan = 1'; document.body.appendChild(s); }""")
    page.wait_for_timeout(300)
    assert page.evaluate("window.inlineRan") is None
    assert violations(page, log) != []


def test_the_manual_runs_under_its_policy(live_server: tuple[str, Path], browser: Any) -> None:
    pytest.importorskip("material", reason="mkdocs-material is not installed (pip install -e '.[docs]')")
    pytest.importorskip("opencc", reason="opencc is not installed (pip install -e '.[docs]')")
    from qisai.web.manual import builder, manual_dir

    base, data = live_server
    if not (manual_dir(data) / "index.html").is_file():  # the package's copy, else build one
        builder.build(data / "manual")
    log: list[str] = []
    page = watched_page(browser, log)
    page.goto(f"{base}/manual/en/index.html")
    page.wait_for_selector("input.md-search__input")
    page.locator("input.md-search__input").click()
    page.locator("input.md-search__input").press_sequentially("Swiss")
    page.wait_for_selector(".md-search-result__item", timeout=30000)  # the search worker ran
    assert violations(page, log) == []
