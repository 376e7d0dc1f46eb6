"""Event pages read a kept event, checked by a short revision (issue 29.2).

A process keeps each event it shows read once (its
:class:`~qisai.web.events.snapshot.Snapshot`) and checks, before each page,
only the row's ``revision``, a token every write replaces.  So:

* once kept, a page of a big event costs the same database and parse work
  as one of a small event: no event read (no ``from_dict``), no statement
  that reads the settings, the same number of statements, for every
  family (individual, knock-out, team, group);
* a kept event is never stale: a change written by this process or by
  another one (a second engine on the same database, as a second server
  process) is on the next page;
* who sees what is unchanged: a round not yet published stays hidden from
  the public after the staff's own views put it in the kept event.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from qisai.competition.events.file import EventFile, Header
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.competition.model import Pairing
from qisai.competition.tournament import Player, Tournament
from qisai.store import Database, repo
from qisai.store.models import Role
from qisai.web.events.handover import standings_view


def ok(r: Any, code: int = 200) -> Any:
    assert r.status_code == code, r.text[:500]
    return r.json()


def individual(n: int, rounds: int, seed: int = 3) -> dict[str, Any]:
    """A Swiss of ``n`` entries with ``rounds`` rounds played (random
    boards and results) of ``rounds + 2`` planned."""
    rng = random.Random(seed)
    t = Tournament(f"Open {n}", "swiss", rounds=rounds + 2, seed=seed)
    for i in range(n):
        t.add_player(Player(f"棋手{i + 1:04d}", rng.randint(1200, 2600)))
    t.start()
    for r in range(1, rounds + 1):
        ids = list(range(1, n + 1))
        rng.shuffle(ids)
        rec = t.install_round(r, [Pairing(ids[2 * k], ids[2 * k + 1], k + 1)
                                  for k in range(n // 2)])
        for p in rec.pairings:
            x = rng.random()
            t.record_result(r, p.board, "1-0" if x < 0.4 else "=" if x < 0.7 else "0-1")
    return EventFile("individual", t, Header(t.name)).to_dict()


def knockout(n: int) -> dict[str, Any]:
    ev = KnockoutEvent(f"KO {n}", series="single")
    ev.players = [Player(f"棋手{i:04d}", 2600 - i) for i in range(1, n + 1)]
    ev.start()
    for m in ev.pair_next_round():
        if m.black is not None:
            ev.record_game(1, m.index, 1, "1-0")
    return EventFile("knockout", ev).to_dict()


def teams(n: int, rounds: int = 1) -> dict[str, Any]:
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


def groups(count: int) -> dict[str, Any]:
    ev = GroupEvent(f"Groups {count}", groups=count, advance=2)
    ev.players = [Player(f"棋手{i:04d}", 2600 - i) for i in range(1, 8 * count + 1)]
    ev.start()
    ev.pair_next_round()
    for g, t, _ in ev.round_parts(1):
        for p in t.rounds[0].pairings:
            if p.black is not None:
                ev.record_result(1, g, p.board, "1-0")
    return EventFile("groups", ev).to_dict()


@pytest.fixture
def org(client: TestClient, register: Any) -> dict[str, Any]:
    o = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, o["user"]["id"], Role.ORGANISER)
    return dict(o)


def imported(client: TestClient, org: dict[str, Any], data: dict[str, Any],
             **extra: Any) -> int:
    """Import ``data``; then set ``extra`` settings (``users``, ``hidden``)."""
    tid = int(ok(client.post("/api/tournaments/import", json=data, headers=org["headers"]),
                 201)["id"])
    if extra:
        with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
            row = repo.get_tournament(s, tid)
            repo.save_tournament(s, tid, settings={**row.settings, **extra})
    return tid


READS = (Tournament, KnockoutEvent, TeamEvent, GroupEvent)


@contextmanager
def counted(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Count, while the block runs, the events read from their stored form
    (``from_dict`` of every family), the SQL statements and those that read
    an event's settings."""
    seen: Counter[str] = Counter()
    for cls in READS:
        real = cls.__dict__["from_dict"].__func__

        def spy(klass: Any, *a: Any, _real: Any = real, **k: Any) -> Any:
            seen["from_dict"] += 1
            return _real(klass, *a, **k)

        monkeypatch.setattr(cls, "from_dict", classmethod(spy))
    engine = client.app.state.qisai.db.engine  # type: ignore[attr-defined]

    def statement(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen["statements"] += 1
        if re.search(r"tournaments\.settings", sql):
            seen["settings read"] += 1

    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        monkeypatch.undo()


def views(client: TestClient, tid: int, headers: dict[str, str], family: str) -> None:
    """The pages and paged routes of one event, as the public, a player and
    the organiser read them."""
    page, api = f"/tournaments/{tid}", f"/api/tournaments/{tid}"
    urls = [page, page + "?round=1", page + "?q=棋手0001", api, api + "/log"]
    if family == "individual":
        urls += [api + "/standings?offset=10&limit=20", api + "/rounds/1/boards?limit=20",
                 api + "/crosstable?limit=20", api + "/entries?q=棋手00"]
    else:
        urls += [api + "/rounds/1/matches?limit=20", api + "/field?q=1",
                 api + "/ranking?limit=20"]
    for url in urls:
        for who in ({}, headers):
            assert client.get(url, headers=who).status_code == 200, url


@pytest.mark.parametrize("family, small, big", [
    ("individual", lambda: individual(120, 3), lambda: individual(240, 9)),
    ("knockout", lambda: knockout(16), lambda: knockout(256)),
    ("team", lambda: teams(8), lambda: teams(80)),
    ("group", lambda: groups(2), lambda: groups(24)),
], ids=["individual", "knockout", "team", "group"])
def test_a_kept_page_costs_the_same_at_any_size(client: TestClient, org: dict[str, Any],
                                                register: Any, monkeypatch: pytest.MonkeyPatch,
                                                family: str, small: Any, big: Any) -> None:
    player = register(client, "player")
    costs = []
    for data in (small(), big()):
        tid = imported(client, org, data, users={"棋手0001": player["user"]["id"]})
        views(client, tid, player["headers"], family)  # the first reads the event once
        with counted(client, monkeypatch) as seen:
            views(client, tid, player["headers"], family)
        costs.append(seen)
    # (a small individual event's page shows every round, a query each: both
    # are past paged.SMALL_ENTRIES here)
    small_cost, big_cost = costs
    assert small_cost["from_dict"] == big_cost["from_dict"] == 0
    assert small_cost["settings read"] == big_cost["settings read"] == 0
    assert small_cost["statements"] == big_cost["statements"] > 0


def test_the_first_page_after_a_change_reads_the_event_once(
        client: TestClient, org: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself is sound both ways: a change is read once, by the
    first page after it, and never again while unchanged."""
    tid = imported(client, org, individual(40, 2))
    base = f"/api/tournaments/{tid}"
    assert client.get(f"/tournaments/{tid}").status_code == 200
    ok(client.post(f"{base}/rounds", headers=org["headers"]))  # round 3: a write
    with counted(client, monkeypatch) as seen:
        ok(client.get(f"{base}/standings"))
        assert 'data-round="3"' in client.get(f"/tournaments/{tid}").text
        ok(client.get(f"{base}/rounds/3/boards"))
    # the organiser's answer to his own write read the new state; pages keep it
    assert seen["from_dict"] == 0 and seen["settings read"] == 0


def second_process(client: TestClient) -> Database:
    """Another engine on the arena's database, as a second server process."""
    return Database(client.app.state.qisai.db.url)  # type: ignore[attr-defined]


def test_a_change_by_another_process_is_on_the_next_page(client: TestClient,
                                                         org: dict[str, Any]) -> None:
    tid = imported(client, org, individual(40, 2))
    base = f"/api/tournaments/{tid}"
    page = client.get(f"/tournaments/{tid}").text
    assert 'data-round="2"' in page and 'data-round="3"' not in page
    other = second_process(client)
    try:
        with other.session() as s:  # the other process pairs round 3 and enters a result
            row = repo.get_tournament(s, tid)
            t = Tournament.from_dict(row.settings["event"])
            rec = t.pair_next_round()
            board = next(p for p in rec.pairings if p.black is not None)
            t.record_result(3, board.board, "0-1")
            repo.save_tournament(s, tid, settings={**row.settings, "event": t.to_dict()})
        page = client.get(f"/tournaments/{tid}").text
        assert 'data-round="3"' in page
        fresh = standings_view(t)
        got = ok(client.get(f"{base}/standings", params={"limit": 200}))["rows"]
        assert got == fresh
        boards = ok(client.get(f"{base}/rounds/3/boards"))["boards"]
        assert next(b for b in boards if b["board"] == board.board)["result"] == "0-1"
        with other.session() as s:  # then corrects it and records a withdrawal
            row = repo.get_tournament(s, tid)
            t = Tournament.from_dict(row.settings["event"])
            t.record_result(3, board.board, "1-0", overwrite=True)
            t.withdraw(board.black, after_round=3)  # type: ignore[arg-type]
            repo.save_tournament(s, tid, settings={**row.settings, "event": t.to_dict()})
        boards = ok(client.get(f"{base}/rounds/3/boards"))["boards"]
        assert next(b for b in boards if b["board"] == board.board)["result"] == "1-0"
        assert ok(client.get(f"{base}/standings", params={"limit": 200}))["rows"] == \
            standings_view(t)
        line = ok(client.get(f"{base}/entries", params={"q": str(board.black)}))["entries"]
        assert line[0]["withdrawn_after"] == 3
        with other.session() as s:  # a write of another column alone is a change too
            row = repo.get_tournament(s, tid)
            row.status = "finished"
            s.commit()
        assert 'data-status="finished"' in client.get(f"/tournaments/{tid}").text
    finally:
        other.dispose()


def test_a_family_change_by_another_process_is_on_the_next_page(
        client: TestClient, org: dict[str, Any]) -> None:
    tid = imported(client, org, knockout(16))
    api = f"/api/tournaments/{tid}"
    assert [x["number"] for x in ok(client.get(api))["round_links"]] == [1]
    other = second_process(client)
    try:
        with other.session() as s:  # round 2 paired and its first match played elsewhere
            row = repo.get_tournament(s, tid)
            ko = KnockoutEvent.from_dict(row.settings["event"])
            ko.pair_next_round()
            ko.record_game(2, 0, 1, "0-1")
            repo.save_tournament(s, tid, settings={**row.settings, "event": ko.to_dict()})
        view = ok(client.get(api))
        assert [x["number"] for x in view["round_links"]] == [1, 2]
        first = view["rounds"][0]["matches"][0]
        assert view["rounds"][0]["number"] == 2 and first["winner"] == first["black"]
        matches = ok(client.get(f"{api}/rounds/2/matches"))["matches"]
        assert matches[0]["winner"] == first["black"]
    finally:
        other.dispose()


def test_a_hidden_round_stays_hidden_after_the_staffs_view(client: TestClient,
                                                           org: dict[str, Any],
                                                           register: Any) -> None:
    """The staff's views put the unpublished round into the kept event; the
    public and a stranger still do not see it, on the page nor by the API."""
    stranger = register(client, "stranger")
    ind = imported(client, org, individual(40, 2))
    h = org["headers"]
    base = f"/api/tournaments/{ind}"
    ok(client.post(f"{base}/rounds", headers=h))
    ok(client.post(f"{base}/rounds/3/unpublish", headers=h))
    assert 'data-round="3"' in client.get(f"/tournaments/{ind}", headers=h).text
    assert ok(client.get(f"{base}/rounds/3/boards", headers=h))["boards_total"] == 20
    team = imported(client, org, teams(12, rounds=2), hidden=[2])
    tbase = f"/api/tournaments/{team}"
    assert ok(client.get(tbase, headers=h))["rounds"][0]["number"] == 2
    assert ok(client.get(f"{tbase}/rounds/2/matches", headers=h))["published"] is False
    for who in ({}, stranger["headers"]):
        page = client.get(f"/tournaments/{ind}", params={"round": 3}, headers=who).text
        assert 'data-round="3"' not in page and "?round=3" not in page
        assert client.get(f"{base}/rounds/3/boards", headers=who).status_code == 404
        assert ok(client.get(f"{base}/crosstable", headers=who))["header"][-2] == "2"
        view = ok(client.get(tbase, params={"round": 2}, headers=who))
        assert [x["number"] for x in view["round_links"]] == [1]
        assert client.get(f"{tbase}/rounds/2/matches", headers=who).status_code == 404
        assert 'data-round="2"' not in client.get(f"/tournaments/{team}", headers=who).text


def test_every_write_of_an_event_row_gives_it_a_new_revision(client: TestClient,
                                                             org: dict[str, Any]) -> None:
    tid = imported(client, org, individual(10, 1))
    db = client.app.state.qisai.db  # type: ignore[attr-defined]
    seen = []
    with db.session() as s:
        row = repo.get_tournament(s, tid)
        seen.append(row.revision)
        log = [{"at": "2026-12-04T22:00:00+00:00", "by": None, "action": "note",
                "what": "a settings write"}]
        repo.save_tournament(s, tid, settings={**row.settings, "log": log})
        seen.append(repo.get_tournament(s, tid).revision)
        repo.save_tournament(s, tid, status="finished")
        seen.append(repo.get_tournament(s, tid).revision)
    assert len(set(seen)) == 3 and all(len(r) == 32 for r in seen)
