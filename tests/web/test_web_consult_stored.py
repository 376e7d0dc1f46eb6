"""A consultation group's ballots and motions are kept in the database
(issue 33 item 7; issue 30: the database is the truth): a vote or a
motion's support taken by one server is counted by a restarted server on
the same database, or by a second server serving the same game, and the
group's move (or resignation, or draw offer) is made when the vote that
decides it arrives there; a ballot whose reserve runs out after a restart
is decided by the restarted server; of two servers writing the same
ballot at once only one write counts."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

from qisai.referee.consultation import Consultation
from qisai.store import Database
from qisai.web.app import create_app
from qisai.web.exhibitions import ballots
from qisai.web.settings import Settings

from .conftest import FakeTime, register_user
from .test_web_consult import group_game, vote


@contextlib.contextmanager
def arena(settings: Settings, clock: FakeTime) -> Iterator[TestClient]:
    """A server on the test's database (another process of the cluster, or
    the same one after a restart: nothing in memory is shared)."""
    with TestClient(create_app(settings, time_source=clock, tick_period=0.05)) as c:
        yield c


def people(c: TestClient) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    return [register_user(c, n) for n in ("jia", "yi", "bing")], register_user(c, "ding")


def game(c: TestClient, gid: str) -> dict[str, Any]:
    out: dict[str, Any] = c.get(f"/api/games/{gid}").json()
    return out


def group(c: TestClient, who: dict[str, Any], gid: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}/group", headers=who["headers"])
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def motion(c: TestClient, who: dict[str, Any], gid: str, kind: str) -> dict[str, Any]:
    r = c.post(f"/api/games/{gid}/group/motions", json={"type": kind}, headers=who["headers"])
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_vote_survives_a_restart_and_the_last_vote_plays_the_move(
        settings: Settings, clock: FakeTime) -> None:
    with arena(settings, clock) as a:
        members, opp = people(a)
        gid = group_game(a, members, opp)
        assert vote(a, members[0], gid, "h2e2").json()["played"] is None
    with arena(settings, clock) as b:  # restarted: nothing in memory
        g = group(b, members[1], gid)
        assert g["tally"] == [["h2e2", 1]] and g["voted"] == [str(members[0]["user"]["id"])]
        # a second vote by the same member is still refused (one vote each)
        assert vote(b, members[0], gid, "b2e2").status_code == 409
        r = vote(b, members[1], gid, "b2e2")
        assert r.json()["played"] is None and r.json()["tally"] == [["h2e2", 1], ["b2e2", 1]]
        assert game(b, gid)["moves"] == []
        # the last member's vote gives h2e2 two of three: played
        r = vote(b, members[2], gid, "h2e2")
        assert r.status_code == 200 and r.json()["played"] == "h2e2"
        assert len(game(b, gid)["moves"]) == 1


def test_a_second_server_counts_the_first_servers_votes_and_resign_motion(
        settings: Settings, clock: FakeTime) -> None:
    with arena(settings, clock) as a, arena(settings, clock) as b:
        members, opp = people(a)
        gid = group_game(a, members, opp)
        assert vote(a, members[0], gid, "h2e2").json()["played"] is None
        assert group(b, members[2], gid)["tally"] == [["h2e2", 1]]  # seen on the other server
        assert vote(b, members[1], gid, "h2e2").json()["played"] == "h2e2"
        assert len(game(b, gid)["moves"]) == 1
        # a's copy has not the move yet (no relay here): a motion counted on its old
        # position would wipe the group's newer ones; it is refused, to be sent again
        r = a.post(f"/api/games/{gid}/group/motions", json={"type": "resign"},
                   headers=members[2]["headers"])
        assert r.status_code == 409 and "moved on" in r.json()["en"]
        # a motion's support, split over the two servers (a second game: without
        # the cluster's relay in this test, a's copy of the first is behind b's)
        other = group_game(a, members, opp)
        first = motion(a, members[0], other, "resign")
        assert first["carried"] is False and first["support"] == 1
        assert group(b, members[1], other)["motions"] == {"resign": 1}
        second = motion(b, members[1], other, "resign")
        assert second["carried"] is True and second["support"] == 2
        assert game(b, other)["result"]["pgn"] == "0-1"  # the group (Red) resigned


def test_a_draw_motion_survives_a_restart(settings: Settings, clock: FakeTime) -> None:
    with arena(settings, clock) as a:
        members, opp = people(a)
        gid = group_game(a, members, opp)
        assert vote(a, members[0], gid, "h2e2").json()["played"] is None
        assert vote(a, members[1], gid, "h2e2").json()["played"] == "h2e2"
        assert a.post(f"/api/games/{gid}/actions", headers=opp["headers"],
                      json={"type": "move", "ply": 2, "move": "h9g7"}).status_code == 200
        assert vote(a, members[0], gid, "b0c2", ply=3).json()["played"] is None
        assert vote(a, members[2], gid, "b0c2", ply=3).json()["played"] == "b0c2"
        # 23.1: the group offers a draw after its own move; one of three so far
        assert motion(a, members[2], gid, "offer_draw")["carried"] is False
        assert game(a, gid)["offer"] is None
    with arena(settings, clock) as b:  # restarted
        assert group(b, members[0], gid)["motions"] == {"offer_draw": 1}
        assert b.post(f"/api/games/{gid}/group/motions", json={"type": "offer_draw"},
                      headers=members[2]["headers"]).status_code == 409  # supports it already
        r = motion(b, members[0], gid, "offer_draw")
        assert r["carried"] is True and r["support"] == 2
        assert b.post(f"/api/games/{gid}/actions", json={"type": "accept_draw"},
                      headers=opp["headers"]).status_code == 200
        assert game(b, gid)["result"]["pgn"] == "1/2-1/2"


def test_a_ballot_whose_reserve_runs_out_after_a_restart_is_decided(
        settings: Settings, clock: FakeTime) -> None:
    with arena(settings, clock) as a:
        members, opp = people(a)
        gid = group_game(a, members, opp, reserve=20)
        assert vote(a, members[0], gid, "h2e2").json()["played"] is None
    with arena(settings, clock) as b:
        assert group(b, members[0], gid)["tally"] == [["h2e2", 1]]  # the page's look
        clock.advance(21)  # the reserve is over: the votes cast decide
        deadline = time.monotonic() + 10  # a hang bound: the tick runs every 0.05 s
        while not game(b, gid)["moves"] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(game(b, gid)["moves"]) == 1


def test_after_a_restart_a_look_at_the_game_is_enough_for_its_ballot_to_be_decided(
        settings: Settings, clock: FakeTime) -> None:
    """The ballot's tick runs from the server's start: a spectator's look
    at the game loads it, and the run-out reserve is decided without any
    member opening the group's panel."""
    with arena(settings, clock) as a:
        members, opp = people(a)
        gid = group_game(a, members, opp, reserve=20)
        assert vote(a, members[0], gid, "h2e2").json()["played"] is None
    with arena(settings, clock) as b:
        assert game(b, gid)["moves"] == []  # loaded by an anonymous look
        clock.advance(21)
        deadline = time.monotonic() + 10  # a hang bound: the tick runs every 0.05 s
        while not game(b, gid)["moves"] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(game(b, gid)["moves"]) == 1


def test_of_two_writes_of_the_same_ballot_only_one_counts(settings: Settings,
                                                          clock: FakeTime) -> None:
    with arena(settings, clock) as a:
        members, opp = people(a)
        gid = group_game(a, members, opp)
        assert vote(a, members[0], gid, "h2e2").status_code == 200
    setting = Consultation(tuple(str(m["user"]["id"]) for m in members))
    db = Database(settings.database_url)
    with db.session() as s1, db.session() as s2:
        one = ballots.load(s1, gid, "first", setting)
        two = ballots.load(s2, gid, "first", setting)
        assert one.ballot is not None and two.ballot is not None
        one.ballot.vote(setting.members[1], "b2e2")
        two.ballot.vote(setting.members[1], "h2e2")
        assert ballots.save(s1, gid, "first", one) is True
        assert ballots.save(s2, gid, "first", two) is False  # read before the first write
    with db.session() as s:
        stored = ballots.load(s, gid, "first", setting)
    assert stored.ballot is not None
    assert list(stored.ballot.votes.items()) == [(setting.members[0], "h2e2"),
                                                 (setting.members[1], "b2e2")]
    db.dispose()
