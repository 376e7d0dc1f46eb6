"""Browser tests (Playwright, Debian's chromium, ``qisai serve``): the
arbiter's controls on the game page, and Go against the built-in engine
from the home page.  Screenshots go to ``$QISAI_TEST_ARTIFACTS`` (else the
test's temporary folder), as in :mod:`test_web_browser`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_web_browser import signed_up, wait_ply

pytestmark = pytest.mark.slow


def set_role(data: Path, name: str, role: str) -> None:
    from qisai.store import Database, repo
    from qisai.store.models import Role

    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    try:
        with db.session() as s:
            user = repo.find_user(s, name)
            assert user is not None
            repo.set_role(s, user.id, Role(role))
    finally:
        db.dispose()


def test_arbiter_records_a_warning_a_foul_and_a_decision(live_server: tuple[str, Path],
                                                         browser: Any, shots: Path) -> None:
    base, data = live_server
    red = signed_up(browser, base, "hongfang")
    black = signed_up(browser, base, "heifang")
    arb = signed_up(browser, base, "caipan", "zh-CN")
    set_role(data, "caipan", "arbiter")
    gid = red.evaluate("""async () => (await qisai.api('POST', '/api/games',
        {kind: 'xiangqi', ruleset: 'cxa', color: 'first', time: {minutes: 10}})).id""")
    black.goto(f"{base}/games/{gid}")
    black.click("#join-button")
    red.goto(f"{base}/games/{gid}")
    red.wait_for_selector('#board[data-phase="playing"]')
    assert red.locator("#arbiter").count() == 0  # players get no arbiter controls
    arb.goto(f"{base}/games/{gid}")
    arb.wait_for_selector('#board[data-phase="playing"]')
    assert not arb.is_visible("#actions")  # not a player here: no resign or draw buttons
    assert red.is_visible("#actions")
    # A warning to Red under 8.8, then a foul to Black under 9.1.
    arb.select_option("#arb-side", "first")
    arb.fill("#arb-clause", "8.8")
    arb.fill("#arb-note", "phone rang")
    arb.click("#arb-warning")
    red.wait_for_selector('#rulings li[data-kind="warning"]')
    assert "8.8" in red.inner_text('#rulings li[data-kind="warning"] .clause')
    assert "phone rang" in red.inner_text("#rulings")
    arb.select_option("#arb-side", "second")
    arb.fill("#arb-clause", "9.1")
    arb.fill("#arb-note", "touch-move")
    arb.click("#arb-foul")
    black.wait_for_selector('#rulings li[data-kind="foul"]')
    assert "9.1" in black.inner_text('#rulings li[data-kind="foul"] .clause')
    # The arbiter's page gets the foul by its own socket, maybe after Black's.
    arb.wait_for_selector('#rulings li[data-kind="foul"]')
    assert arb.locator("#rulings li").count() == 2
    arb.screenshot(path=str(shots / "arbiter-controls.png"), full_page=True)
    # A decision without a clause is not sent; with one it ends the game.
    arb.fill("#arb-clause", "")
    arb.select_option("#arb-outcome", "win:first")
    arb.click("#arb-decide")
    assert "条款" in arb.inner_text("#notice")
    assert arb.locator("#result").is_hidden()
    arb.select_option("#arb-reason", "misconduct")
    arb.fill("#arb-clause", "4.1.10")
    arb.fill("#arb-note", "refused to continue")
    arb.click("#arb-decide")
    for page in (red, black, arb):
        page.wait_for_selector("#result:not([hidden])")
    assert red.inner_text("#result-tag") == "1-0"
    assert red.inner_text("#result-clause") == "4.1.10"
    assert red.inner_text("#result-reason") == "Misconduct (4.1.10)"  # its name, not the code
    assert "refused to continue" in red.inner_text("#result-text")
    assert arb.locator("#arb-warning").is_disabled()  # nothing more to rule on
    red.screenshot(path=str(shots / "arbiter-decision.png"), full_page=True)


def test_go_against_the_built_in_engine_from_the_home_page(live_server: tuple[str, Path],
                                                           browser: Any, shots: Path) -> None:
    base, _ = live_server
    page = signed_up(browser, base, "kisi")
    page.click("#custom-game > summary")
    page.select_option("#kind", "go")
    page.wait_for_selector('#opponent option[value="engine:builtin"]', state="attached")
    page.select_option("select[name=size]", "9")
    page.select_option("#opponent", "engine:builtin")
    page.select_option("select[name=color]", "first")
    page.click("#create-game")
    page.wait_for_url(f"{base}/games/*")
    page.wait_for_selector('#board[data-phase="playing"]')
    # The Go rules have no draw offers: the page has no such buttons.
    assert page.locator("#offer-draw").count() == 0 and page.locator("#pass").count() == 1
    page.click('#board g[data-point="E5"]')
    wait_ply(page, 2)  # the engine answered
    assert page.locator("#moves .mv").count() == 2 and page.locator("#moves li").count() == 1
    assert page.locator("#board circle.white").count() == 1
    page.screenshot(path=str(shots / "go-against-the-engine.png"), full_page=True)
