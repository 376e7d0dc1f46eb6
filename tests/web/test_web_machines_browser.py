"""Browser test of a man-vs-machine event (人机大战, issue 21 item 4;
Playwright in Debian's chromium against ``qisai serve``): a round robin of
two accounts, Fairy-Stockfish and qisai's engine runs to standings; the
engine games are played by the server's engine pool and the game page
names the engine with its level.

Screenshots go to ``$QISAI_TEST_ARTIFACTS`` (else the test's temporary
folder).  Skipped when playwright, chromium or Fairy-Stockfish is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_web_play_browser import api, signed_up

pytestmark = pytest.mark.slow


def test_round_robin_of_people_and_engines_to_standings(
        fairy: str, live_server: tuple[str, Path], browser: Any, shots: Path) -> None:
    base, data = live_server
    org = signed_up(browser, base, "rjboss", width=1200)
    people = {name: signed_up(browser, base, name, "zh-CN") for name in ("rjwang", "rjli")}
    from qisai.store import Database, repo
    from qisai.store.models import Role

    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    with db.session() as s:
        user = repo.find_user(s, "rjboss")
        assert user is not None
        repo.set_role(s, user.id, Role.ORGANISER)
    db.dispose()
    tid = api(org, "POST", "/api/tournaments",
              {"name": "人机大战", "system": "round_robin", "time": {"minutes": 10}})["id"]
    ev_path = f"/api/tournaments/{tid}"
    for name in people:
        api(org, "POST", f"{ev_path}/entries", {"username": name})
    api(org, "POST", f"{ev_path}/engines", {"engine": "builtin", "name": "qisai"})
    api(org, "POST", f"{ev_path}/engines", {"engine": "fairy-stockfish-skill-0", "name": "FSF"})
    api(org, "POST", f"{ev_path}/start")
    ids = {api(p, "GET", "/api/me")["id"]: p for p in people.values()}
    for rnd in (1, 2, 3):
        ev = api(org, "POST", f"{ev_path}/rounds")
        for b in ev["rounds"][rnd - 1]["boards"]:
            gid = b["game"]
            g = api(org, "GET", f"/api/games/{gid}")
            if all(p.get("id") not in ids for p in g["players"].values()):
                # Engine against engine: both play from the pool (the second
                # through its engine account); the arbiter then enters a draw.
                org.goto(f"{base}/games/{gid}")
                org.wait_for_function(
                    "() => Number(document.querySelector('#board').dataset.ply) >= 4",
                    timeout=60000)
                org.screenshot(path=str(shots / "machines-engine-v-engine.png"))
                api(org, "PUT", f"{ev_path}/rounds/{rnd}/boards/{b['board']}",
                    {"result": "1/2-1/2"})
                continue
            first, second = g["players"]["first"], g["players"]["second"]
            if first.get("id") in ids and second.get("id") in ids:
                api(ids[first["id"]], "POST", f"/api/games/{gid}/actions", {"type": "resign"})
                continue
            human = first if first.get("id") in ids else second
            page = ids[human["id"]]
            page.goto(f"{base}/games/{gid}")
            page.wait_for_selector('#board[data-phase="playing"]')
            if human is first:
                page.click('#board g[data-square="h2"]')
                page.click('#board g[data-square="e2"]')
                page.wait_for_selector('#board[data-ply="2"]', timeout=60000)
            else:
                page.wait_for_selector('#board[data-ply="1"]', timeout=60000)
            engine = second if human is first else first
            # The engine's own name and version, and its level in the page's language.
            body = page.inner_text("body")
            assert (engine.get("title") or engine["name"]) in body
            if engine.get("level"):
                assert engine["level"]["zh"] in body
            if rnd == 1:
                page.screenshot(path=str(shots / f"machines-r1-b{b['board']}.png"))
            api(page, "POST", f"/api/games/{gid}/actions", {"type": "resign"})
    org.goto(f"{base}/tournaments/{tid}")
    org.wait_for_selector("#standings")
    ev = api(org, "GET", ev_path)
    assert ev["status"] == "finished"
    table = {r["name"]: r["points"] for r in ev["standings"]}
    assert table["qisai"] == table["FSF"] == 2.5
    org.screenshot(path=str(shots / "machines-standings.png"))
