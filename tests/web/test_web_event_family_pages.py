"""Knock-out, team and group events' pages and JSON do not grow with the
field (issue 29.2): one round in detail, the first lines of the entries
and of the standings or placings, the viewer's own lines and a search, a
group event one group at a time; the rest by the paged routes
(qisai.web.events.paged_families), which show a round not yet published
only to the event's staff.

The events are built with qisai.competition (a 256-entry knock-out with
round 1 played, a 100-team 4-board team Swiss with round 1 played, 16
groups of 16 with round 1 played) and brought in by the import route."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.competition.events.file import EventFile
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.competition.tournament import Player, Tournament
from qisai.store import repo
from qisai.store.models import Role

LIMIT = 300 * 1024
"""Issue 29's bound on an event page (and its JSON)."""
GROWTH = 3 * 1024
"""What a page may grow by from the smaller field to the bigger: the
entry count's digits, the longer list of rounds or groups (the shown parts
are full at both sizes)."""


def _knockout(n: int) -> dict[str, Any]:
    ev = KnockoutEvent(f"KO {n}", series="single")
    ev.players = [Player(f"棋手{i:04d}", 2600 - i) for i in range(1, n + 1)]
    ev.start()
    for m in ev.pair_next_round():
        if m.black is not None:
            ev.record_game(1, m.index, 1, "1-0")
    return EventFile("knockout", ev).to_dict()


def _teams(n: int, *, rounds: int = 1) -> dict[str, Any]:
    ev = TeamEvent(f"Teams {n}", system="swiss", rounds=7, boards=4)
    for i in range(1, n + 1):
        ev.add_team(f"队{i:03d}", [f"队{i:03d}-{j}" for j in range(1, 6)])
    ev.start()
    for r in range(1, rounds + 1):
        ev.pair_next_round()
        assert ev.tt is not None
        for m in ev.tt.rounds[r - 1]:
            if m.black_team is not None and r == 1:
                for b in range(1, 5):
                    ev.record_board(r, m.board, b, "1-0")
    return EventFile("team", ev).to_dict()


def _groups(groups: int) -> dict[str, Any]:
    ev = GroupEvent(f"Groups {groups}", groups=groups, advance=2)
    ev.players = [Player(f"棋手{i:04d}", 2600 - i) for i in range(1, 16 * groups + 1)]
    ev.start()
    ev.pair_next_round()
    for g, t, _ in ev.round_parts(1):
        for p in t.rounds[0].pairings:
            if p.black is not None:
                ev.record_result(1, g, p.board, "1-0")
    return EventFile("groups", ev).to_dict()


@pytest.fixture()
def org(client: TestClient, register: Any) -> dict[str, Any]:
    o = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, o["user"]["id"], Role.ORGANISER)
    return dict(o)


def _import(client: TestClient, org: dict[str, Any], data: dict[str, Any],
            users: dict[str, int] | None = None, hidden: list[int] | None = None) -> int:
    r = client.post("/api/tournaments/import", json=data, headers=org["headers"])
    assert r.status_code == 201, r.text[:300]
    tid = int(r.json()["id"])
    if users or hidden:
        with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
            row = repo.get_tournament(s, tid)
            settings = dict(row.settings)
            settings["users"] = users or {}
            settings["hidden"] = hidden or []
            repo.save_tournament(s, tid, settings=settings)
    return tid


def _sizes(client: TestClient, tid: int, headers: dict[str, str] | None = None
           ) -> tuple[int, int]:
    page = client.get(f"/tournaments/{tid}", headers=headers or {})
    api = client.get(f"/api/tournaments/{tid}", headers=headers or {})
    assert page.status_code == 200 and api.status_code == 200
    return len(page.content), len(api.content)


@pytest.mark.parametrize("build, small, big", [
    (_knockout, 64, 256),  # round 1 shows 32 of 32 and of 128 matches
    (_teams, 64, 100),  # round 1 shows 32 of 32 and of 50 matches
    (_groups, 4, 16),  # groups of 16: 32 of 32 and of 128 boards a round
], ids=["knockout", "team-swiss", "groups"])
def test_page_and_json_do_not_grow_with_the_field(client: TestClient, org: dict[str, Any],
                                                  build: Any, small: int, big: int) -> None:
    a = _import(client, org, build(small))
    b = _import(client, org, build(big))
    for headers in (None, org["headers"]):  # the public, the organiser with his controls
        (page_a, api_a), (page_b, api_b) = _sizes(client, a, headers), _sizes(client, b, headers)
        assert page_b < LIMIT and api_b < LIMIT
        assert page_b - page_a < GROWTH, (page_a, page_b)
        assert api_b - api_a < GROWTH, (api_a, api_b)


def test_knockout_round_matches_paged_and_own_line(client: TestClient, register: Any,
                                                   org: dict[str, Any]) -> None:
    player = register(client, "pawn")
    tid = _import(client, org, _knockout(256), users={"棋手0200": player["user"]["id"]})
    base = f"/api/tournaments/{tid}"
    ev = client.get(base, headers=player["headers"]).json()
    (r1,) = ev["rounds"]
    assert r1["number"] == 1 and r1["matches_total"] == 128 and len(r1["matches"]) == 32
    assert len(ev["players"]) == 32 and ev["entries_total"] == 256
    assert ev["ranking_total"] == 128 and len(ev["placements"]) == 32  # round 1's losers
    (own,) = ev["own"]
    assert own["name"] == "棋手0200" and own["number"] == 200
    # every match once over the pages, in order, as the event has them
    seen = []
    for offset in range(0, 128, 50):
        page = client.get(f"{base}/rounds/1/matches", params={"offset": offset, "limit": 50})
        assert page.status_code == 200
        seen += [m["match"] for m in page.json()["matches"]]
    assert seen == list(range(1, 129))
    # the page's second page of matches, a search, and the placings from line 100
    html = client.get(f"/tournaments/{tid}", params={"from": 32}).text
    assert 'data-match="33"' in html and 'data-match="1"' not in html
    hits = client.get(base, params={"q": "棋手012"}).json()["search"]["hits"]
    assert [h["number"] for h in hits] == list(range(120, 130))
    rows = client.get(f"{base}/ranking", params={"offset": 100, "limit": 50}).json()
    assert rows["total"] == 128 and len(rows["rows"]) == 28
    field = client.get(f"{base}/field", params={"q": "0256"}).json()
    assert field["total"] == 1 and field["entries"][0]["number"] == 256


def test_group_event_one_group_at_a_time(client: TestClient, register: Any,
                                         org: dict[str, Any]) -> None:
    player = register(client, "pawn")
    tid = _import(client, org, _groups(16), users={"棋手0100": player["user"]["id"]})
    base = f"/api/tournaments/{tid}"
    anon = client.get(base).json()
    assert anon["group_shown"] == 1 and [g["group"] for g in anon["groups"]] == [1]
    assert len(anon["group_links"]) == 16
    # the player sees his own group by default; any group by ?group=
    mine = client.get(base, headers=player["headers"]).json()
    (g,) = mine["groups"]
    assert "棋手0100" in {p["name"] for p in g["players"]} and len(g["players"]) == 16
    (g7,) = client.get(base, params={"group": 7}).json()["groups"]
    assert g7["group"] == 7 and len(g7["standings"]) == 16 and len(g7["crosstable"]) == 17
    boards = client.get(base, params={"group": 7, "round": 1}).json()["rounds"][0]["boards"]
    assert {b["group"] for b in boards} == {7} and len(boards) == 8
    html = client.get(f"/tournaments/{tid}", params={"group": 7}).text
    assert 'id="group-7-standings"' in html and 'id="group-1-standings"' not in html
    every = client.get(f"{base}/rounds/1/matches", params={"limit": 200}).json()
    assert every["matches_total"] == 128 and len(every["boards"]) == 128


def test_team_crosstable_and_standings_paged(client: TestClient, org: dict[str, Any]) -> None:
    tid = _import(client, org, _teams(100))
    base = f"/api/tournaments/{tid}"
    ev = client.get(base).json()
    assert ev["crosstable"] == [] and ev["crosstable_total"] == 100
    assert len(ev["standings"]) == 32 and ev["ranking_total"] == 100
    assert len(ev["teams"]) == 32 and ev["entries_total"] == 100
    grid = client.get(f"{base}/team-crosstable", params={"offset": 90, "limit": 50}).json()
    assert grid["total"] == 100 and len(grid["rows"]) == 10
    assert len(grid["header"]) == 103  # number, name, a column a team, points
    assert [r[0] for r in grid["rows"]] == [str(k) for k in range(91, 101)]
    ranking = client.get(f"{base}/ranking", params={"offset": 0, "limit": 200}).json()
    # round 1: Red won every board; the colours alternate board by board, so
    # every match was 2:2, a draw: 1 match point each
    assert len(ranking["rows"]) == 100 and {r["points"] for r in ranking["rows"]} == {1.0}
    assert [t["name"] for t in client.get(f"{base}/field", params={"q": "队09"}).json()[
        "entries"]] == [f"队{k:03d}" for k in range(90, 100)]


def test_paged_routes_who_may(client: TestClient, register: Any, org: dict[str, Any]) -> None:
    """Round 2 paired but not published: the public neither sees it on the
    page nor in the JSON nor by the paged route; the organiser does."""
    stranger = register(client, "stranger")
    tid = _import(client, org, _teams(20, rounds=2), hidden=[2])
    base = f"/api/tournaments/{tid}"
    for headers in ({}, stranger["headers"]):
        ev = client.get(base, params={"round": 2}, headers=headers).json()
        assert [x["number"] for x in ev["round_links"]] == [1]
        assert ev["rounds"][0]["number"] == 1  # round 2 asked: the latest visible instead
        assert client.get(f"{base}/rounds/2/matches", headers=headers).status_code == 404
        assert client.get(f"{base}/rounds/1/matches", headers=headers).status_code == 200
        html = client.get(f"/tournaments/{tid}", params={"round": 2}, headers=headers).text
        assert 'data-round="2"' not in html and 'id="publish-2"' not in html
    ev = client.get(base, headers=org["headers"]).json()
    assert ev["rounds"][0]["number"] == 2 and not ev["rounds"][0]["published"]
    r = client.get(f"{base}/rounds/2/matches", headers=org["headers"])
    assert r.status_code == 200 and r.json()["published"] is False
    assert 'id="publish-2"' in client.get(f"/tournaments/{tid}", headers=org["headers"]).text
    # bounds and families
    assert client.get(f"{base}/rounds/3/matches", headers=org["headers"]).status_code == 404
    assert client.get(f"{base}/field", params={"limit": 201}).status_code == 422
    assert client.get("/api/tournaments/9999/ranking").status_code == 404
    ind = Tournament("solo", "swiss", rounds=3)
    for k in range(4):
        ind.add_player(Player(f"P{k}", 2000))
    solo = _import(client, org, EventFile("individual", ind).to_dict())
    for route in ("field", "ranking", "team-crosstable", "rounds/1/matches"):
        assert client.get(f"/api/tournaments/{solo}/{route}").status_code in (404, 409)
    ko = _import(client, org, _knockout(8))
    assert client.get(f"/api/tournaments/{ko}/team-crosstable").status_code == 409


def test_knockout_controls_only_on_the_latest_round(client: TestClient,
                                                    org: dict[str, Any]) -> None:
    """The organiser's result entry and decisions are on the latest round
    (its r.latest flag), whichever round the page shows; an earlier round
    shows its results."""
    ev = KnockoutEvent("KO 8", series="single")
    ev.players = [Player(f"P{i}", 2600 - i) for i in range(1, 9)]
    ev.start()
    for m in ev.pair_next_round():
        ev.record_game(1, m.index, 1, "1-0")
    ev.pair_next_round()
    tid = _import(client, org, EventFile("knockout", ev).to_dict())
    latest = client.get(f"/tournaments/{tid}", headers=org["headers"]).text
    assert f"/api/tournaments/{tid}/rounds/2/matches/1/decision" in latest
    assert f'data-url="/api/tournaments/{tid}/rounds/2/matches/1/games/1"' in latest
    first = client.get(f"/tournaments/{tid}", params={"round": 1}, headers=org["headers"]).text
    assert 'data-round="1"' in first and "/rounds/1/matches/1/decision" not in first
    assert f'data-url="/api/tournaments/{tid}/rounds/1/matches/1/games/1"' not in first
    assert "1-0" in first  # round 1's results, as text
