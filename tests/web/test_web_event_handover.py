"""The page after a result (issue 29.2): the process that stores a result
hands its event and standings to its own pages
(:mod:`qisai.web.events.handover`), so the first page after it reads
nothing, and shows the result and the new standings (clause 15's points
and tie-breaks, checked against a full ranking of the event read back
from the database, as another process reads it); a kept state is never
stale: a later write by another process is on the next page, and the
copy a page holds does not change with the writer's next result."""

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
from qisai.competition.model import Pairing
from qisai.competition.tiebreaks import rank
from qisai.competition.tournament import Player, Tournament
from qisai.store import Database, repo
from qisai.store.models import Role
from qisai.web.events import handover
from qisai.web.events import snapshot as snapshots
from qisai.web.events.model import LOCK
from qisai.web.events.results import IndividualBoard, enter_result


def ok(r: Any, code: int = 200) -> Any:
    assert r.status_code == code, r.text[:500]
    return r.json()


def swiss(n: int, played: int) -> dict[str, Any]:
    """A Swiss of ``n`` entries, ``played`` rounds with results (random
    boards and results), round ``played + 1`` paired with no result yet."""
    rng = random.Random(29)
    t = Tournament(f"Open {n}", "swiss", rounds=played + 2, seed=29)
    for i in range(n):
        t.add_player(Player(f"棋手{i + 1:04d}", rng.randint(1200, 2600)))
    t.start()
    for r in range(1, played + 2):
        ids = list(range(1, n + 1))
        rng.shuffle(ids)
        rec = t.install_round(r, [Pairing(ids[2 * k], ids[2 * k + 1], k + 1)
                                  for k in range(n // 2)])
        for p in rec.pairings if r <= played else ():
            x = rng.random()
            t.record_result(r, p.board, "1-0" if x < 0.4 else "=" if x < 0.7 else "0-1")
    return EventFile("individual", t, Header(t.name)).to_dict()


@pytest.fixture
def org(client: TestClient, register: Any) -> dict[str, Any]:
    o = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, o["user"]["id"], Role.ORGANISER)
    return dict(o)


@pytest.fixture
def tid(client: TestClient, org: dict[str, Any]) -> int:
    """A 40-entry Swiss, round 3 paired and open; its page seen once."""
    t = int(ok(client.post("/api/tournaments/import", json=swiss(40, 2),
                           headers=org["headers"]), 201)["id"])
    assert client.get(f"/tournaments/{t}").status_code == 200
    return t


def stored(client: TestClient, tid: int) -> Tournament:
    """The event as stored, read afresh (as another process reads it)."""
    with Database(client.app.state.qisai.db.url).session() as s:  # type: ignore[attr-defined]
        return Tournament.from_dict(repo.get_tournament(s, tid).settings["event"])


def ranked(t: Tournament) -> list[tuple[int, int, bool, float, float, int]]:
    """A full ranking of ``t`` (tiebreaks.rank of its records): number, place,
    shared, points, 对手分 (15.2), 胜局."""
    return [(s.entry, s.rank, s.shared, s.points, s.values[t.tiebreaks[0]],
             s.values[t.tiebreaks[1]]) for s in rank(t.records(), t.tiebreaks, t.policy)]


def shown(rows: list[dict[str, Any]]) -> list[tuple[int, int, bool, float, float, int]]:
    return [(r["number"], r["place"], r["shared"], r["points"], r["buchholz"], r["wins"])
            for r in rows]


@contextmanager
def reads(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Count the events read from their stored form and the statements that
    read an event's settings while the block runs."""
    seen: Counter[str] = Counter()
    real = Tournament.__dict__["from_dict"].__func__

    def spy(klass: Any, *a: Any, **k: Any) -> Any:
        seen["from_dict"] += 1
        return real(klass, *a, **k)

    monkeypatch.setattr(Tournament, "from_dict", classmethod(spy))
    engine = client.app.state.qisai.db.engine  # type: ignore[attr-defined]

    def statement(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        if re.search(r"tournaments\.settings", sql):
            seen["settings read"] += 1

    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        monkeypatch.undo()


def open_board(client: TestClient, tid: int) -> dict[str, Any]:
    boards = ok(client.get(f"/api/tournaments/{tid}/rounds/3/boards"))["boards"]
    return next(b for b in boards if b["result"] is None)


def points_on_page(client: TestClient, tid: int, number: int) -> tuple[str, str]:
    """The points and the round's result of entry ``number`` in the event
    page's search line."""
    page = client.get(f"/tournaments/{tid}", params={"q": str(number)}).text
    line = re.search(rf'<tr data-entry="{number}">(.*?)</tr>', page, re.S)
    assert line, page[:2000]
    cells = re.findall(r"<td>(.*?)</td>", line.group(1), re.S)
    return cells[3], cells[6]


def test_the_page_after_an_arbiters_result_shows_it_and_the_new_standings(
        client: TestClient, org: dict[str, Any], tid: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    first = open_board(client, tid)  # the writer reads the event once, then keeps it
    ok(client.put(f"/api/tournaments/{tid}/rounds/3/boards/{first['board']}",
                  json={"result": "0-1"}, headers=org["headers"]))
    board = open_board(client, tid)
    before = {s[0]: s[3] for s in ranked(stored(client, tid))}
    with reads(client, monkeypatch) as seen:  # the entry, its answer and the pages
        ok(client.put(f"/api/tournaments/{tid}/rounds/3/boards/{board['board']}",
                      json={"result": "1-0"}, headers=org["headers"]))
        points, result = points_on_page(client, tid, board["red"])
        rows = ok(client.get(f"/api/tournaments/{tid}/standings", params={"limit": 200}))
        boards = ok(client.get(f"/api/tournaments/{tid}/rounds/3/boards"))["boards"]
    assert seen["from_dict"] == 0  # handed over: neither the answer nor a page reads it
    assert next(b for b in boards if b["board"] == board["board"])["result"] == "1-0"
    assert float(points) == before[board["red"]] + 1 and result.strip()  # 14.1: a win is 1
    assert shown(rows["rows"]) == ranked(stored(client, tid))


def test_the_page_after_a_server_games_result_shows_it(
        client: TestClient, tid: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub's path (a finished server game, no user, no answer): the
    first page after it reads nothing and shows it."""
    board = open_board(client, tid)
    db = client.app.state.qisai.db  # type: ignore[attr-defined]
    with LOCK, db.session() as s:
        done = enter_result(s, repo.get_tournament(s, tid),
                            IndividualBoard((3, board["board"])), "=", user=None)
    assert done.entered
    with reads(client, monkeypatch) as seen:
        rows = ok(client.get(f"/api/tournaments/{tid}/standings", params={"limit": 200}))
        page = client.get(f"/tournaments/{tid}").text
    assert seen["from_dict"] == 0 and seen["settings read"] == 0
    assert 'data-round="3"' in page
    truth = stored(client, tid)
    assert truth.rounds[2].results[board["board"]].result.value == "=-="
    assert shown(rows["rows"]) == ranked(truth)


def test_a_handed_over_page_is_the_page_a_fresh_read_gives(
        client: TestClient, org: dict[str, Any], tid: int) -> None:
    """What the writer hands over is what another process reads from the
    database: every part of the page and the paged API, equal."""
    for k, b in enumerate(ok(client.get(f"/api/tournaments/{tid}/rounds/3/boards"))["boards"]
                          [:3]):
        ok(client.put(f"/api/tournaments/{tid}/rounds/3/boards/{b['board']}",
                      json={"result": ("1-0", "=", "0-1")[k], "red_fouls": k},
                      headers=org["headers"]))
    api = f"/api/tournaments/{tid}"
    urls = [api, api + "?q=棋手001", api + "/standings?limit=200", api + "/crosstable?limit=200",
            api + "/entries?limit=200", api + "/rounds/3/boards?limit=200"]

    def everything() -> list[Any]:
        return [ok(client.get(u, headers=h)) for u in urls for h in ({}, org["headers"])]

    handed = everything()
    handover.forget()
    snapshots.forget()  # as a process that has read nothing
    assert everything() == handed


def test_another_process_writing_after_the_hand_over_is_read(
        client: TestClient, org: dict[str, Any], tid: int) -> None:
    board = open_board(client, tid)
    ok(client.put(f"/api/tournaments/{tid}/rounds/3/boards/{board['board']}",
                  json={"result": "1-0"}, headers=org["headers"]))
    other = Database(client.app.state.qisai.db.url)  # type: ignore[attr-defined]
    try:
        with other.session() as s:  # corrected by another process before any page
            row = repo.get_tournament(s, tid)
            t = Tournament.from_dict(row.settings["event"])
            t.record_result(3, board["board"], "0-1", overwrite=True)
            repo.save_tournament(s, tid, settings={**row.settings, "event": t.to_dict()})
    finally:
        other.dispose()
    boards = ok(client.get(f"/api/tournaments/{tid}/rounds/3/boards"))["boards"]
    assert next(b for b in boards if b["board"] == board["board"])["result"] == "0-1"
    rows = ok(client.get(f"/api/tournaments/{tid}/standings", params={"limit": 200}))["rows"]
    assert shown(rows) == ranked(stored(client, tid))


def test_a_kept_copy_does_not_change_with_the_writer(
        client: TestClient, org: dict[str, Any], tid: int) -> None:
    boards = ok(client.get(f"/api/tournaments/{tid}/rounds/3/boards"))["boards"]
    ok(client.put(f"/api/tournaments/{tid}/rounds/3/boards/{boards[0]['board']}",
                  json={"result": "1-0"}, headers=org["headers"]))
    db = client.app.state.qisai.db  # type: ignore[attr-defined]
    with db.session() as s:
        snap = snapshots.snapshot(s, snapshots.light_row(s, tid))  # type: ignore[arg-type]
    state, standings = snap.individual.to_dict(), [dict(r) for r in snap.standings]
    ok(client.put(f"/api/tournaments/{tid}/rounds/3/boards/{boards[1]['board']}",
                  json={"result": "0-1"}, headers=org["headers"]))
    ok(client.put(f"/api/tournaments/{tid}/rounds/3/boards/{boards[0]['board']}",
                  json={"result": "=", "reason": "misread"}, headers=org["headers"]))
    assert snap.individual.to_dict() == state and snap.standings == standings
    assert snap.individual.rounds[2].results[boards[0]["board"]].result.value == "1-0"
