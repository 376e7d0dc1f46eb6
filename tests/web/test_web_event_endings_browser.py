"""Browser tests of an event's server games and staff: Playwright driving
Debian's chromium against ``qisai serve`` (issue 14 "Also", issue 17 item 6).

* An arbiter of the event enters a board's result on the event's page while
  its two players have the game open: the server game ends with the
  arbiter's ruling (17.5) on the players' page, and it is no longer in play.
* The event's organiser creates an event played over the board, then
  appoints a chief arbiter on its staff page and removes him again.

The accounts and the event are set up through the API (as any client
could); what is under test is done through the pages.  Screenshots go to
``$QISAI_TEST_ARTIFACTS`` (else the test's temporary folder).

Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from qisai.store import Database, repo
from qisai.store.models import Role

pytestmark = pytest.mark.slow

PASSWORD = "a board of my own"


def account(base: str, name: str) -> dict[str, str]:
    r = httpx.post(f"{base}/api/auth/register", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def make_organiser(data: Path, name: str) -> None:
    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    try:
        with db.session() as s:
            user = repo.find_user(s, name)
            assert user is not None
            repo.set_role(s, user.id, Role.ORGANISER)
    finally:
        db.dispose()


def log_in(browser: Any, base: str, name: str) -> Any:
    ctx = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{base}/login")
    page.fill("#username", name)
    page.fill("#password", PASSWORD)
    page.click("#login-button")
    page.wait_for_url(f"{base}/")
    return page


def test_an_arbiters_result_ends_the_events_server_game(live_server: tuple[str, Path],
                                                        browser: Any, shots: Path) -> None:
    base, data = live_server
    org = account(base, "endorg")
    make_organiser(data, "endorg")
    account(base, "endarb")
    players = {n: account(base, n) for n in ("endred", "endblack")}
    r = httpx.post(f"{base}/api/tournaments", headers=org,
                   json={"name": "Evening", "system": "round_robin", "time": {"minutes": 10}})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    api = f"{base}/api/tournaments/{tid}"
    assert httpx.post(f"{api}/staff", json={"username": "endarb"}, headers=org).is_success
    for name in players:
        assert httpx.post(f"{api}/entries", json={"username": name}, headers=org).is_success
    assert httpx.post(f"{api}/start", headers=org).is_success
    (board,) = httpx.post(f"{api}/rounds", headers=org).json()["rounds"][0]["boards"]
    gid = board["game"]
    assert gid, "both players have accounts and the event plays on the server"
    red = board["red_name"]
    # Red has the game open and plays his first move; the clocks run
    red_page = log_in(browser, base, red)
    red_page.goto(f"{base}/games/{gid}")
    assert red_page.locator("#arbiter").count() == 0  # a player gets no arbiter controls
    r = httpx.post(f"{base}/api/games/{gid}/actions", headers=players[red],
                   json={"type": "move", "ply": 1, "move": "h2e2"})
    assert r.status_code == 200, r.text
    assert httpx.get(f"{base}/api/games/{gid}").json()["status"] == "active"
    # the event's arbiter enters Black's win over the board on the event's page
    arb_page = log_in(browser, base, "endarb")
    arb_page.goto(f"{base}/tournaments/{tid}")
    arb_page.select_option('select.result-select[data-round="1"][data-board="1"]', "0-1")
    arb_page.wait_for_function(
        "() => document.querySelector('select.result-select[data-round=\"1\"]"
        "[data-board=\"1\"]')?.dataset.current === '0-1'")
    # Red's page shows the ruling at once: the game is over, with its clause
    red_page.wait_for_selector("#result:not([hidden])")
    assert red_page.inner_text("#result-clause") == "17.5"
    red_page.screenshot(path=str(shots / "event-result-ends-game.png"), full_page=True)
    g = httpx.get(f"{base}/api/games/{gid}").json()
    assert g["status"] == "finished" and g["result"]["pgn"] == "0-1"
    assert g["result"]["reason"] == "adjudication"
    assert g["clocks"]["running"] is None
    assert gid not in [x["id"] for x in httpx.get(f"{base}/api/games?status=active").json()]
    r = httpx.post(f"{base}/api/games/{gid}/actions", headers=players[red],
                   json={"type": "move", "ply": 3, "move": "b2e2"})
    assert r.status_code in (403, 409), r.text
    arb_page.screenshot(path=str(shots / "event-result-entered.png"), full_page=True)


def test_the_organiser_appoints_and_removes_an_arbiter(live_server: tuple[str, Path],
                                                      browser: Any, shots: Path) -> None:
    base, data = live_server
    account(base, "stafforg")
    make_organiser(data, "stafforg")
    account(base, "staffarb")
    page = log_in(browser, base, "stafforg")
    # the organiser creates an event played over the board (issue 17.6):
    # its boards get no server games, the arbiters enter the results
    page.goto(f"{base}/tournaments")
    page.fill("#t-name", "Autumn")
    page.select_option("#t-system", "swiss")
    page.fill('#new-tournament input[name="rounds"]', "3")
    page.select_option('#new-tournament select[name="online"]', "otb")
    page.click("#create-tournament")
    page.wait_for_url(f"{base}/tournaments/*")
    tid = int(page.url.rsplit("/", 1)[1])
    assert httpx.get(f"{base}/api/tournaments/{tid}").json()["online"] is False
    assert "Over the board" in page.inner_text("#tournament")
    page.click("#staff-link")
    page.wait_for_url(f"{base}/tournaments/{tid}/staff")
    page.fill("#appoint-username", "nobody-here")
    page.click("#appoint-button")
    page.wait_for_selector("#t-error:has-text('no user')")  # a clear refusal on the page
    page.fill("#appoint-username", "staffarb")
    page.select_option("#appoint-role", "chief_arbiter")
    page.click("#appoint-button")
    row = page.locator("#staff tr:has-text('staffarb')")
    row.wait_for()
    assert "Chief arbiter" in row.inner_text()
    staff = httpx.get(f"{base}/api/tournaments/{tid}/staff").json()
    assert ("staffarb", "chief_arbiter") in [(m["username"], m["role"]) for m in staff]
    page.screenshot(path=str(shots / "event-staff.png"), full_page=True)
    # the chief arbiter sees the staff but not the controls
    arb = log_in(browser, base, "staffarb")
    arb.goto(f"{base}/tournaments/{tid}/staff")
    assert arb.locator("#appoint").count() == 0 and arb.locator("[data-remove]").count() == 0
    row.locator("[data-remove]").click()
    page.wait_for_selector("#staff tr:has-text('staffarb')", state="detached")
    staff = httpx.get(f"{base}/api/tournaments/{tid}/staff").json()
    assert [m["username"] for m in staff] == ["stafforg"]
