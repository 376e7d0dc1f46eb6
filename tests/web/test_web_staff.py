"""Event staff and the site's roles (issue 14 items 1 and 7, "Also", 13.11).

* Only an event's staff act on it (16.2: its organisers appoint its chief
  arbiter and arbiters): results, corrections, withdrawals, pairing,
  decisions, forfeits, fouls and warnings; staff of another event, players,
  guests and anonymous visitors may not (403/401).
* Nobody rules on a game he plays in (17.4), on any kind of board.
* The arbiters' log names the acting account.
* Roles have a hierarchy: a site administrator above organisers; only
  administrators give roles, and the last one is kept.
* A result entered by hand ends the board's server game with the arbiter's
  ruling: the clocks stop and the loser can no longer move.
* Group, knock-out and team events score by their rule profile's points.

Run on SQLite, and on PostgreSQL when ``QISAI_TEST_POSTGRES_URL`` is set
(the ``client`` fixture's database).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.store import ConflictError, Database, repo
from qisai.store.models import Role
from tests.web.conftest import event_groups


def make_role(client: TestClient, user: dict[str, Any], role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user["user"]["id"], role)


def guest(client: TestClient) -> dict[str, Any]:
    form = client.get("/api/auth/csrf").json()["csrf"]  # the guest route wants the form token
    g = client.post("/api/auth/guest", headers={"X-CSRF-Token": form}).json()
    client.cookies.clear()
    g["headers"] = {"Authorization": f"Bearer {g['token']}"}
    return g


class Cast:
    """Everyone the tests need: the event's organiser, its arbiter, an
    arbiter of this event who also plays in it, another organiser with his
    own event and arbiter, a site arbiter on no staff, a player, a guest."""

    def __init__(self, client: TestClient, register: Any) -> None:
        self.org = register(client, "org")
        self.rival = register(client, "rival")
        for who in (self.org, self.rival):
            make_role(client, who, Role.ORGANISER)
        self.arb = register(client, "arb")
        self.other_arb = register(client, "otherarb")
        self.site_arb = register(client, "sitearb")
        make_role(client, self.site_arb, Role.ARBITER)
        self.player = register(client, "pl")
        self.guest = guest(client)
        # the rival's event, with its own arbiter
        ev = client.post("/api/tournaments", json={"name": "Other", "system": "round_robin"},
                         headers=self.rival["headers"]).json()
        r = client.post(f"/api/tournaments/{ev['id']}/staff", json={"username": "otherarb"},
                        headers=self.rival["headers"])
        assert r.status_code == 200, r.text

    def outsiders(self) -> list[tuple[dict[str, str], int]]:
        """(headers, status) of everyone who may not act on the event."""
        return [({}, 401), (self.guest["headers"], 403), (self.player["headers"], 403),
                (self.rival["headers"], 403), (self.other_arb["headers"], 403),
                (self.site_arb["headers"], 403)]


def appoint(client: TestClient, base: str, cast: Cast, *players: str) -> None:
    """The organiser appoints ``arb`` and the accounts ``players`` arbiters."""
    for name in ("arb", *players):
        r = client.post(f"{base}/staff", json={"username": name},
                        headers=cast.org["headers"])
        assert r.status_code == 200, r.text


def check_board(client: TestClient, cast: Cast, url: str, playing: dict[str, Any],
                base: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everyone but the event's arbiter is refused on ``url``; the arbiter
    who plays on it too (17.4); then the event's arbiter enters it."""
    body = body or {"result": "1-0"}
    for headers, status in cast.outsiders():
        r = client.put(url, json=body, headers=headers)
        assert r.status_code == status, (headers, r.text)
    r = client.put(url, json=body, headers=playing["headers"])
    assert r.status_code == 403 and "17.4" in r.json()["detail"], r.text
    assert "own game" in r.json()["detail"]
    r = client.put(url, json=body, headers=cast.arb["headers"])
    assert r.status_code == 200, r.text
    ev: dict[str, Any] = client.get(base).json()
    assert ev["log"][-1]["by"] == "arb" and ev["log"][-1]["action"] == "result"
    return ev


# ------------------------------------------------------------ individual
def test_individual_event_only_its_staff_act_never_on_their_own_game(
        register: Any, client: TestClient) -> None:
    cast = Cast(client, register)
    people = {n: register(client, n) for n in ("wang", "li", "zhao", "qian")}
    wang = people["wang"]
    h = cast.org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Club", "system": "round_robin",
                                               "time": {"minutes": 10}}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    # only the event's organisers (or an administrator) appoint its staff
    for headers, status in cast.outsiders():
        r = client.post(f"{base}/staff", json={"username": "arb"}, headers=headers)
        assert r.status_code == status, r.text
    appoint(client, base, cast, "wang")  # wang arbitrates, and plays
    staff = client.get(f"{base}/staff").json()
    assert [(m["username"], m["role"]) for m in staff] == [
        ("org", "organiser"), ("arb", "arbiter"), ("wang", "arbiter")]
    assert client.post(f"{base}/staff", json={"username": "org"}, headers=h).status_code == 409
    for name in people:
        assert client.post(f"{base}/entries", json={"username": name},
                           headers=h).status_code == 201
    # an arbiter neither registers nor starts: that is the organisers'
    assert client.post(f"{base}/start", headers=cast.arb["headers"]).status_code == 403
    assert client.post(f"{base}/start", headers=h).status_code == 200
    # pairing: the organisers and the chief arbiter, nobody else
    for headers, status in [*cast.outsiders(), (cast.arb["headers"], 403)]:
        assert client.post(f"{base}/rounds", headers=headers).status_code == status
    r = client.post(f"{base}/staff", json={"username": "arb", "role": "chief_arbiter"},
                    headers=h)
    assert r.status_code == 200
    ev = client.post(f"{base}/rounds", headers=cast.arb["headers"]).json()
    assert ev["log"][-1] == {**ev["log"][-1], "by": "arb", "action": "pair"}
    (board,) = [b for b in ev["rounds"][0]["boards"] if "wang" in (b["red_name"],
                                                                     b["black_name"])]
    assert board["game"], "both have accounts: a server game"
    gid = board["game"]
    url = f"{base}/rounds/1/boards/{board['board']}"
    # wang is Red or Black of this board: he may not rule on it.  Black
    # wins: Red, who moves first, may no longer move.
    loser = people[board["red_name"]]
    result = "0-1"
    away = next(n for n in people if n not in (board["red_name"], board["black_name"]))
    ev = check_board(client, cast, url, wang, base, {"result": result})
    # the server game ends with the arbiter's ruling: clocks stopped, no move
    g = client.get(f"/api/games/{gid}").json()
    assert g["status"] == "finished" and g["result"]["reason"] == "adjudication"
    assert g["result"]["clause"] == "17.5" and g["result"]["pgn"] == result
    assert g["clocks"] is not None and g["clocks"]["running"] is None  # the clocks stopped
    r = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 1,
                                                       "move": "h2e2"},
                    headers=loser["headers"])
    assert r.status_code in (403, 409), r.text
    assert gid not in [x["id"] for x in client.get("/api/games?status=active").json()]
    # a correction: the same people, and a reason
    other = "1-0" if result == "0-1" else "0-1"
    for headers, status in cast.outsiders():
        r = client.put(url, json={"result": other, "reason": "scoresheet"}, headers=headers)
        assert r.status_code == status
    r = client.put(url, json={"result": other, "reason": "scoresheet"}, headers=wang["headers"])
    assert r.status_code == 403 and "17.4" in r.json()["detail"]
    r = client.put(url, json={"result": other, "reason": "scoresheet"},
                   headers=cast.arb["headers"])
    assert r.status_code == 200 and r.json()["log"][-1]["action"] == "correction"
    assert r.json()["log"][-1]["by"] == "arb"
    # withdrawals
    body = {"name": away, "reason": "ill"}
    for headers, status in cast.outsiders():
        assert client.post(f"{base}/withdrawals", json=body, headers=headers).status_code \
            == status
    r = client.post(f"{base}/withdrawals", json=body, headers=cast.arb["headers"])
    assert r.status_code == 200 and r.json()["log"][-1]["by"] == "arb"
    # removed from the staff, the arbiter may no longer act
    r = client.delete(f"{base}/staff/{cast.arb['user']['id']}", headers=h)
    assert r.status_code == 200 and [m["username"] for m in r.json()] == ["org", "wang"]
    r = client.put(url, json={"result": result, "reason": "back"}, headers=cast.arb["headers"])
    assert r.status_code == 403
    assert client.delete(f"{base}/staff/{cast.org['user']['id']}", headers=h).status_code == 409


def test_event_games_are_ruled_by_the_events_staff(register: Any, client: TestClient) -> None:
    cast = Cast(client, register)
    wang = register(client, "wang")
    register(client, "li")
    h = cast.org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Live", "system": "round_robin",
                                               "time": {"minutes": 10}}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    appoint(client, base, cast, "wang")  # wang arbitrates this event, and plays in it
    for name in ("wang", "li"):
        client.post(f"{base}/entries", json={"username": name}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    gid = ev["rounds"][0]["boards"][0]["game"]
    foul = {"type": "foul", "side": "first", "clause": "9.1", "note": "touch-move"}
    for who in (cast.site_arb, cast.other_arb, cast.rival, cast.player):
        r = client.post(f"/api/games/{gid}/actions", json=foul, headers=who["headers"])
        assert r.status_code == 403, r.text
    r = client.post(f"/api/games/{gid}/actions", json=foul, headers=wang["headers"])
    assert r.status_code == 403 and "17.4" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/actions", json=foul, headers=cast.arb["headers"])
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/actions", json={"type": "warning", "side": "second",
                                                       "clause": "8.8"},
                    headers=cast.arb["headers"])
    assert r.status_code in (200, 400), r.text  # a warning's refusal is the referee's


# ----------------------------------------------------- every kind of board
def _accounts(client: TestClient, register: Any, names: list[str]) -> dict[str, Any]:
    return {n: register(client, n) for n in names}


def test_group_board_only_its_staff(register: Any, client: TestClient) -> None:
    cast = Cast(client, register)
    people = _accounts(client, register, ["ga", "gb", "gc", "gd"])
    h = cast.org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Groups", "system": "group_round_robin",
                                               "groups": 2, "advance": 1}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    appoint(client, base, cast, "ga", "gb", "gc", "gd")
    for n in people:
        client.post(f"{base}/entries", json={"username": n}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    b = ev["rounds"][0]["boards"][0]
    url = f"{base}/rounds/1/groups/{b['group']}/boards/{b['board']}"
    ev = check_board(client, cast, url, people[b["black_name"]], base)
    assert client.get(f"/api/games/{b['game']}").json()["status"] == "finished"
    r = client.post(f"{base}/withdrawals", json={"name": "gd", "reason": "ill"},
                    headers=cast.rival["headers"])
    assert r.status_code == 403


def test_knockout_game_and_decision_only_its_staff(register: Any, client: TestClient) -> None:
    cast = Cast(client, register)
    people = _accounts(client, register, ["ka", "kb"])
    h = cast.org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Cup", "system": "knockout",
                                               "series": "single"}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    appoint(client, base, cast, "ka", "kb")
    for n in people:
        client.post(f"{base}/entries", json={"username": n}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    (m,) = ev["rounds"][0]["matches"]
    url = f"{base}/rounds/1/matches/{m['match']}/games/1"
    ev = check_board(client, cast, url, people[m["red_name"]], base, {"result": "="})
    decision = f"{base}/rounds/1/matches/{m['match']}/decision"
    body = {"winner": m["red"], "reason": "armageddon over the board"}
    for headers, status in cast.outsiders():
        assert client.post(decision, json=body, headers=headers).status_code == status
    r = client.post(decision, json=body, headers=people[m["black_name"]]["headers"])
    assert r.status_code == 403 and "17.4" in r.json()["detail"]
    r = client.post(decision, json=body, headers=cast.arb["headers"])
    assert r.status_code == 200 and r.json()["log"][-1]["by"] == "arb"


def test_team_board_and_forfeit_only_its_staff(register: Any, client: TestClient) -> None:
    cast = Cast(client, register)
    people = _accounts(client, register, ["ta1", "ta2", "tb1", "tb2"])
    h = cast.org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Clubs", "system": "team_round_robin",
                                               "boards": 2, "lineup_mode": "fixed"},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    appoint(client, base, cast, "ta1")
    for team, members in (("A", ["ta1", "ta2"]), ("B", ["tb1", "tb2"])):
        r = client.post(f"{base}/teams", json={"name": team, "members": [
            {"username": n} for n in members]}, headers=h)
        assert r.status_code == 201, r.text
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    (m,) = [x for x in ev["rounds"][0]["matches"] if not x["bye"]]
    b = next(x for x in m["boards"] if "ta1" in (x["red"], x["black"]))
    url = f"{base}/rounds/1/matches/{m['match']}/boards/{b['board']}"
    check_board(client, cast, url, people["ta1"], base)
    forfeit = f"{base}/rounds/1/matches/{m['match']}/forfeit"
    body = {"result": "+--", "reason": "team B absent"}
    for headers, status in cast.outsiders():
        assert client.put(forfeit, json=body, headers=headers).status_code == status
    r = client.put(forfeit, json=body, headers=people["ta1"]["headers"])
    assert r.status_code == 403 and "17.4" in r.json()["detail"]


# ------------------------------------------------------------------ roles
def test_only_administrators_give_roles_and_the_last_is_kept(register: Any,
                                                              client: TestClient) -> None:
    boss, org, org2 = register(client, "boss"), register(client, "org"), register(client, "org2")
    make_role(client, boss, Role.ADMIN)
    make_role(client, org, Role.ORGANISER)
    make_role(client, org2, Role.ORGANISER)

    def put(who: dict[str, Any], target: dict[str, Any], role: str) -> Any:
        return client.put(f"/api/users/{target['user']['id']}/role", json={"role": role},
                          headers=who["headers"])

    # an organiser demotes no organiser, not even himself, and makes no admin
    assert put(org, org2, "player").status_code == 403
    assert put(org, org, "player").status_code == 403
    assert put(org, org, "admin").status_code == 403
    # the administrator does
    assert put(boss, org2, "player").json()["role"] == "player"
    # the last administrator cannot leave the site without one
    r = put(boss, boss, "organiser")
    assert r.status_code == 409 and "last administrator" in r.json()["detail"]
    assert put(boss, org, "admin").json()["role"] == "admin"
    assert put(org, boss, "organiser").json()["role"] == "organiser"  # two admins: one may go
    r = put(org, org, "player")
    assert r.status_code == 409
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        with pytest.raises(ConflictError):
            repo.set_role(s, org["user"]["id"], Role.PLAYER)
        assert repo.count_role(s, Role.ADMIN) == 1


def test_casual_games_are_ruled_by_site_arbiters_and_admins_only(register: Any,
                                                                  client: TestClient) -> None:
    red, black = register(client, "hong"), register(client, "hei")
    org, arb, boss = register(client, "org"), register(client, "arb"), register(client, "boss")
    make_role(client, org, Role.ORGANISER)
    make_role(client, arb, Role.ARBITER)
    make_role(client, boss, Role.ADMIN)
    r = client.post("/api/games", json={"kind": "xiangqi", "color": "first",
                                        "time": {"minutes": 10}}, headers=red["headers"])
    gid = r.json()["id"]
    client.post(f"/api/games/{gid}/join", headers=black["headers"])
    pause = {"type": "pause", "note": "noise"}
    r = client.post(f"/api/games/{gid}/actions", json=pause, headers=org["headers"])
    assert r.status_code == 403 and "arbiter" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/actions", json=pause, headers=arb["headers"])
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/actions", json={"type": "resume"},
                    headers=boss["headers"])
    assert r.status_code == 200, r.text
    make_role(client, red, Role.ADMIN)  # an administrator playing rules on nothing here
    r = client.post(f"/api/games/{gid}/actions", json={"type": "adjudicate", "outcome": "win",
                                                       "winner": "first",
                                                       "reason": "adjudication",
                                                       "clause": "4.1.10"},
                    headers=red["headers"])
    assert r.status_code == 403 and "17.4" in r.json()["detail"]


def test_migration_makes_the_earliest_organiser_admin(tmp_path: Any) -> None:
    import datetime as dt

    from sqlalchemy import text

    db = Database(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    db.upgrade("0001")
    with db.engine.begin() as conn:
        for uid, name, role, day in ((1, "p", "player", 1), (2, "late", "organiser", 3),
                                     (3, "early", "organiser", 2)):
            conn.execute(text("INSERT INTO users (id, username, display_name, role, rating, "
                              "created_at) VALUES (:i, :n, :n, :r, 1500, :c)"),
                         {"i": uid, "n": name, "r": role,
                          "c": dt.datetime(2026, 1, day, tzinfo=dt.UTC)})
    db.upgrade()
    with db.session() as s:
        roles = {u: repo.find_user(s, u).role for u in ("p", "late", "early")}  # type: ignore
    assert roles == {"p": "player", "late": "organiser", "early": "admin"}
    db.downgrade("0001")
    with db.session() as s:
        assert s.execute(text("SELECT role FROM users WHERE username='early'")).scalar() \
            == "organiser"
    db.dispose()


# ---------------------------------------------------------- 13.11 scoring
def test_cxa_2007_group_event_scores_by_the_profile(register: Any, client: TestClient) -> None:
    org = register(client, "org")
    make_role(client, org, Role.ORGANISER)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Trial", "system": "group_round_robin",
                                               "ruleset": "cxa-2007", "groups": 2,
                                               "advance": 1, "grouping": "snake"},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name, rating in (("A", 2400), ("B", 2300), ("C", 2200), ("D", 2100)):
        client.post(f"{base}/entries", json={"name": name, "rating": rating}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    boards = ev["rounds"][0]["boards"]
    assert len(boards) == 2
    first, second = boards
    # a draw: 1 to Red, 2 to Black; a win: 3, a loss: 0
    client.put(f"{base}/rounds/1/groups/{first['group']}/boards/{first['board']}",
               json={"result": "="}, headers=h)
    ev = client.put(f"{base}/rounds/1/groups/{second['group']}/boards/{second['board']}",
                    json={"result": "1-0"}, headers=h).json()
    points = {row["name"]: row["points"] for g in event_groups(client, base, h)
              for row in g["standings"]}
    assert points == {first["red_name"]: 1, first["black_name"]: 2,
                      second["red_name"]: 3, second["black_name"]: 0}


# ------------------------------------------------- every route, refused
ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("POST", "entries", {"name": "X"}),
    ("POST", "teams", {"name": "T", "members": [{"name": "a"}]}),
    ("POST", "start", None),
    ("POST", "rounds", None),
    ("POST", "rounds/1/publish", None),
    ("POST", "rounds/1/unpublish", None),
    ("PUT", "rounds/1/boards/1", {"result": "1-0"}),
    ("PUT", "rounds/1/groups/1/boards/1", {"result": "1-0"}),
    ("PUT", "rounds/1/matches/1/games/1", {"result": "1-0"}),
    ("PUT", "rounds/1/matches/1/boards/1", {"result": "1-0", "reason": "x"}),
    ("POST", "rounds/1/matches/1/decision", {"winner": 1, "reason": "x"}),
    ("PUT", "rounds/1/matches/1/forfeit", {"result": "+--", "reason": "x"}),
    ("PUT", "rounds/1/matches/1/lineups", {"red": ["a"], "black": ["b"]}),
    ("POST", "withdrawals", {"name": "A", "reason": "x"}),
    ("POST", "staff", {"username": "rival"}),
    ("DELETE", "staff/1", None),
]
"""Every route that changes an event (but its creation, and the colour
choice of a 2021 decider, which is the entitled player's own), with a body
that passes validation: the refusal must be the authorisation's."""


@pytest.mark.parametrize("kind", ["round_robin", "knockout", "team_round_robin",
                                  "group_round_robin"])
def test_every_event_route_refuses_outsiders(kind: str, register: Any,
                                             client: TestClient) -> None:
    cast = Cast(client, register)
    h = cast.org["headers"]
    ev = client.post("/api/tournaments", json={"name": "E", "system": kind, "boards": 2},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for method, path, body in ROUTES:
        for headers, status in cast.outsiders():
            r = client.request(method, f"{base}/{path}", json=body, headers=headers)
            assert r.status_code == status, (method, path, r.text)
            if status == 403:
                assert "staff" in r.json()["detail"] or "administrator" in r.json()["detail"] \
                    or "organiser" in r.json()["detail"], (method, path, r.text)


def test_qisai_role_makes_an_admin_and_keeps_the_last(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from qisai.cli import app

    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    db = Database(url)
    db.upgrade()
    with db.session() as s:
        repo.create_user(s, "boss", password_hash=None)
    db.dispose()
    runner = CliRunner()
    r = runner.invoke(app, ["role", "boss", "admin", "--database-url", url])
    assert r.exit_code == 0 and r.output.strip().splitlines()[-1] == "boss: admin"
    r = runner.invoke(app, ["role", "boss", "player", "--database-url", url])
    assert r.exit_code == 2 and "last administrator" in r.output
