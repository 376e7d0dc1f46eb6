"""Browser test of the events pages: Playwright driving Debian's chromium
against ``qisai serve``.  An organiser signs up through the log-in form
(a plain form post with its CSRF token), creates a 4-player knock-out and
runs it to the final through the pages; the final's drawn game is decided
by the arbiter with a reason.  Screenshots go to ``$QISAI_TEST_ARTIFACTS``
(else the test's temporary folder).

Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def test_organiser_runs_a_knockout_to_the_final(live_server: tuple[str, Path], browser: Any,
                                                shots: Path) -> None:
    base, data = live_server
    ctx = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{base}/login")
    page.fill("#username", "koboss")
    page.fill("#password", "a board of my own")
    page.click("#register-button")
    page.wait_for_url(f"{base}/")
    from qisai.store import Database, repo
    from qisai.store.models import Role

    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    with db.session() as s:
        user = repo.find_user(s, "koboss")
        assert user is not None
        repo.set_role(s, user.id, Role.ORGANISER)
    db.dispose()
    page.goto(f"{base}/tournaments")
    page.fill("#t-name", "Spring Cup")
    page.select_option("#t-system", "knockout")
    page.select_option("#t-series", "single")
    assert page.is_hidden("#t-boards")  # team options are hidden for a knock-out
    page.click("#create-tournament")
    page.wait_for_url(f"{base}/tournaments/*")
    for name, rating in (("Wang", 2400), ("Li", 2300), ("Zhao", 2200), ("Sun", 2100)):
        page.fill("#player-name", name)
        page.fill("#player-rating", str(rating))
        page.click("#add-player-button")
        page.wait_for_selector(f"#players li:has-text('{name}')")
    page.click("#start-event")
    page.wait_for_selector("#pair-round")
    page.click("#pair-round")
    page.wait_for_selector('.bracket-round[data-round="1"]')
    # seeds 1 v 4 and 2 v 3 (bracket order); the first-listed side wins each
    for match in (1, 2):
        sel = f'select.result-select[data-round="1"][data-match="{match}"][data-game="1"]'
        page.select_option(sel, "1-0")
        page.wait_for_selector(f'.bracket-round[data-round="1"] .ko-match[data-match="{match}"]'
                               '.decided')
    page.click("#pair-round")
    page.wait_for_selector('.bracket-round[data-round="2"]')
    final = '.bracket-round[data-round="2"] .ko-match[data-match="1"]'
    page.select_option('select.result-select[data-round="2"][data-match="1"][data-game="1"]',
                       "=-=")
    page.wait_for_selector(f"{final} .how:has-text('drawn')")
    # the drawn final goes to an armageddon played over the board: the arbiter decides
    page.once("dialog", lambda d: d.accept("won the armageddon"))
    page.locator(f"{final} .decide button").first.click()
    page.wait_for_selector("#champion")
    champion = page.inner_text("#champion")
    first_side = page.locator(f"{final} .ko-side").first.inner_text()
    assert champion == first_side.replace("✓", "").strip()
    rows = page.locator("#placements tr").all_inner_texts()
    assert [r.split("\t")[0] for r in rows[1:]] == ["1", "2", "3=", "3="]
    assert page.inner_text("#t-status") == "finished"
    assert "won the armageddon" in page.inner_text("#event-log")
    page.screenshot(path=str(shots / "knockout-final.png"), full_page=True)
    ctx.close()
