"""Browser test of a 2021-league team board played on the server (issue 33
item 1; seed 001): after a drawn slow game and a drawn rapid game, the
rapid game's Black finds the colour choice on the event page, chooses, and
the page then shows the decider.  Playwright driving Debian's chromium
against ``qisai serve``; the set-up goes through the API.

Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.slow

PASSWORD = "a board of my own"


def test_the_rapid_games_black_chooses_on_the_page(live_server: tuple[str, Path], browser: Any,
                                                   shots: Path) -> None:
    base, data = live_server
    api = httpx.Client(base_url=base, timeout=30)
    heads: dict[str, dict[str, str]] = {}
    ids: dict[str, int] = {}
    for name in ("lgorg", "lgjia", "lgyi"):
        r = api.post("/api/auth/register", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        heads[name] = {"Authorization": f"Bearer {r.json()['token']}"}
        ids[name] = r.json()["user"]["id"]
        api.cookies.clear()
    from qisai.store import Database, repo
    from qisai.store.models import Role

    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    with db.session() as s:
        repo.set_role(s, ids["lgorg"], Role.ORGANISER)
    db.dispose()
    h = heads["lgorg"]
    ev = api.post("/api/tournaments", headers=h, json={
        "name": "象甲 browser", "system": "team_round_robin", "boards": 1,
        "series": "league_2021"}).json()
    url = f"/api/tournaments/{ev['id']}"
    for team, member in (("甲", "lgjia"), ("乙", "lgyi")):
        assert api.post(f"{url}/teams", headers=h, json={
            "name": team, "members": [{"username": member}]}).status_code == 201
    api.post(f"{url}/start", headers=h)
    api.post(f"{url}/rounds", headers=h)
    by_id = {v: k for k, v in ids.items()}
    for _ in ("slow", "rapid"):  # both drawn on the server by agreement (23.1)
        board = api.get(url).json()["rounds"][0]["matches"][0]["boards"][0]
        gid = board["next"]["server"]
        g = api.get(f"/api/games/{gid}").json()
        red = heads[by_id[g["players"]["first"]["id"]]]
        black = heads[by_id[g["players"]["second"]["id"]]]
        act = f"/api/games/{gid}/actions"
        assert api.post(act, headers=red, json={"type": "move", "ply": 1,
                                                "move": "h2e2"}).status_code == 200
        assert api.post(act, headers=red, json={"type": "offer_draw"}).status_code == 200
        assert api.post(act, headers=black, json={"type": "accept_draw"}).status_code == 200
    board = api.get(url).json()["rounds"][0]["matches"][0]["boards"][0]
    chooser = board["chooser"]
    assert chooser == board["red"]  # Black in the rapid game (colours swapped)

    ctx = browser.new_context(locale="zh-CN", viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{base}/login")
    page.fill("#username", chooser)
    page.fill("#password", PASSWORD)
    page.click("#login-button")
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/tournaments/{ev['id']}")
    choice = page.locator('tr[data-choice="1"]')
    choice.wait_for()
    assert chooser in choice.inner_text()
    # he takes Black in the decider: the other player has Red
    choice.locator("button", has_text=board["black"]).click()
    # the page, reloaded, shows the decider due with the chosen colours
    page.wait_for_selector(f'tr[data-games="1"]:has-text("附加赛：{board["black"]}（红）")')
    assert page.locator('tr[data-choice="1"]').count() == 0
    page.screenshot(path=str(shots / "league-colour-choice.png"), full_page=True)
    nxt = api.get(url).json()["rounds"][0]["matches"][0]["boards"][0]["next"]
    assert (nxt["kind"], nxt["red"], nxt["black"]) == ("decider", board["black"], chooser)
    assert nxt["server"]
    api.close()
