"""Issue 22 item 1: quick pairing.  The pools' API (pairing by rating, the
range widening with the test clock, cancel, guests casual, one entry per
user, abuse bounds, who may do what) and the clocks of the games made,
checked against the rule book's numbers (clause 6.1-6.5, the 2007 trial
odds of seed 001, Go §3 读秒)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.referee.clock import ByoyomiKind, chinese_byoyomi
from qisai.store import repo
from qisai.web.lobby.controls import CONTROLS
from qisai.web.lobby.pools import Pools
from qisai.web.play.referee_games import family_of_settings, make_rules

from .conftest import FakeTime
from .test_web_staff import guest


def set_rating(client: TestClient, user: dict[str, Any], rating: float) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.get_user(s, user["user"]["id"]).rating = rating
        s.commit()


def join(client: TestClient, who: dict[str, Any], pool: str) -> Any:
    return client.post(f"/api/pools/{pool}", headers=who["headers"])


def me(client: TestClient, who: dict[str, Any]) -> dict[str, Any]:
    r = client.get("/api/pools/me", headers=who["headers"])
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def stored(client: TestClient, game_id: str) -> Any:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        g = repo.get_game(s, game_id)
        s.expunge(g)
        return g


# ------------------------------------------------------------ catalogue
def test_the_catalogue_names_the_rule_books_controls() -> None:
    xq = {c.id: c for c in CONTROLS.values() if c.kind == "xiangqi"}
    assert [c.clause for c in xq.values() if c.group == "rules"] == [
        "6.1", "6.2", "6.3", "6.4", "6.5", "2007 试行规则"]
    assert [c.en for c in xq.values() if c.group == "online"] == [
        "5 min + 3 s", "10 min + 5 s", "15 min + 10 s"]
    go = [c for c in CONTROLS.values() if c.kind == "go"]
    assert sorted({c.size for c in go}) == [9, 13, 19]
    for size in (9, 13, 19):
        kinds = [make_rules("go", c.ruleset, c.settings()).time_control for c in go
                 if c.size == size]
        assert [None if k is None or k.first.byoyomi is None else k.first.byoyomi.kind
                for k in kinds] == [None, ByoyomiKind.CHINESE, ByoyomiKind.CHINESE,
                                    ByoyomiKind.JAPANESE, ByoyomiKind.CANADIAN]
        # Go §3: national events keep 5 minutes for 读秒, club events 1.
        assert kinds[1] is not None and kinds[1].first.byoyomi == chinese_byoyomi(5)
        assert kinds[2] is not None and kinds[2].first.byoyomi == chinese_byoyomi(1)
        assert make_rules("go", "chinese", go[0].settings()).board_size in (9, 13, 19)


def test_families_follow_the_rule_book() -> None:
    # 6.3 and 6.4 are "适用于快棋赛" (for rapid events); 6.1 and 6.2 are slow.
    assert {i: CONTROLS[i].family for i in ("xq-6.1", "xq-6.2", "xq-6.3", "xq-6.4")} == {
        "xq-6.1": "classical", "xq-6.2": "classical", "xq-6.3": "rapid", "xq-6.4": "rapid"}
    # 2007 odds: Red 80 min + 40 x 30 s is a slow game.
    assert CONTROLS["xq-2007"].family == "classical"
    assert CONTROLS["xq-5+3"].family == "blitz"
    assert family_of_settings("xiangqi", "casual", {}) == "untimed"
    assert family_of_settings("xiangqi", "cxa", {"time": {"minutes": 1}}) == "bullet"


# ------------------------------------------------------------- pairing
@pytest.mark.parametrize(("pool", "ruleset", "clocks"), [
    ("xq-6.1", "cxa", (5400, 5400)),      # 6.1: 90 minutes for the first 40 moves
    ("xq-6.3", "cxa", (600, 600)),        # 6.3: 10 minutes for the first 40 moves
    ("xq-6.4", "cxa", (300, 300)),        # 6.4: 5 minutes for every 30 moves
    ("xq-2007", "cxa-2007", (4800, 2400)),  # 2007 trial: Red 80 min, Black 40 min
    ("xq-10+5", "cxa", (600, 600)),
    # 10 minutes, then the 5 minutes kept for 读秒 (§3): 15 on the clock.
    ("go9-cn5", "chinese", (900, 900)),
])
def test_two_players_of_one_pool_land_in_one_game_with_its_clock(
        client: TestClient, register: Any, pool: str, ruleset: str,
        clocks: tuple[int, int]) -> None:
    a, b = register(client, "alice"), register(client, "bob")
    first = join(client, a, pool).json()
    assert first["status"] == "waiting" and first["pool"] == pool and first["range"] == 100
    second = join(client, b, pool).json()
    assert second["status"] == "matched"
    assert me(client, a) == second  # told once ...
    assert me(client, a) == {"status": "idle"} == me(client, b)  # ... then idle
    game = client.get(f"/api/games/{second['game']}", headers=a["headers"]).json()
    assert game["status"] == "active" and game["phase"] == "playing"
    assert game["ruleset"] == ruleset and stored(client, second["game"]).rated is True
    assert {game["players"]["first"]["name"], game["players"]["second"]["name"]} == {
        "alice", "bob"}
    assert (game["clocks"]["first"], game["clocks"]["second"]) == clocks
    row = stored(client, second["game"])
    assert row.settings["family"] == CONTROLS[pool].family and row.settings["pool"] == pool
    if pool == "xq-2007":  # 2007 trial point odds: win 3, draw Red 1 / Black 2
        points = make_rules("xiangqi", "cxa-2007", {}).points
        assert (points.win, points.draw_first, points.draw_second) == (3, 1, 2)


def test_a_far_rating_waits_until_the_range_widens(client: TestClient, register: Any,
                                                   clock: FakeTime) -> None:
    low, high = register(client, "low"), register(client, "high")
    set_rating(client, high, 1800)
    assert join(client, low, "xq-6.3").json()["status"] == "waiting"
    w = join(client, high, "xq-6.3").json()
    assert w["status"] == "waiting" and (w["range"], w["low"], w["high"]) == (100, 1700, 1900)
    assert w["others"] == 1
    ranges = []
    for _ in range(3):
        clock.advance(Pools.STEP_SECONDS)
        s = me(client, high)
        assert s["status"] == "waiting"
        ranges.append(s["range"])
        me(client, low)
    assert ranges == [150, 200, 250]  # +50 every 5 s; 300 apart: not yet
    clock.advance(Pools.STEP_SECONDS)  # 20 s: the range is 300, the gap 300
    s = me(client, high)
    assert s["status"] == "matched"
    assert me(client, low) == s


def test_the_nearest_rating_is_taken(client: TestClient, register: Any) -> None:
    a, b, c = register(client, "mid"), register(client, "near"), register(client, "far")
    set_rating(client, b, 1540)
    set_rating(client, c, 1580)
    join(client, c, "xq-6.4")
    join(client, b, "xq-6.4")  # b and c are 40 apart: paired at once
    s = join(client, a, "xq-6.4").json()
    assert s["status"] == "waiting"
    d = register(client, "near2")
    set_rating(client, d, 1460)
    s = join(client, d, "xq-6.4").json()
    assert s["status"] == "matched"
    assert me(client, a)["game"] == s["game"]


def test_the_range_stops_at_its_bound() -> None:
    pools = Pools(FakeTime())
    assert pools.range_after(0) == Pools.BASE_RANGE
    assert pools.range_after(10_000) == Pools.MAX_RANGE


def test_cancel_leaves_the_pool(client: TestClient, register: Any) -> None:
    a, b = register(client, "quitter"), register(client, "stayer")
    join(client, a, "xq-6.3")
    r = client.delete("/api/pools/me", headers=a["headers"])
    assert r.status_code == 200 and r.json() == {"status": "idle", "cancelled": True}
    assert me(client, a) == {"status": "idle"}
    assert join(client, b, "xq-6.3").json()["status"] == "waiting"
    assert client.delete("/api/pools/me", headers=a["headers"]).json()["cancelled"] is False


def test_one_entry_per_user_and_the_same_pool_keeps_the_wait(client: TestClient,
                                                             register: Any,
                                                             clock: FakeTime) -> None:
    a = register(client, "onlyone")
    join(client, a, "xq-6.3")
    clock.advance(3)
    again = join(client, a, "xq-6.3").json()  # a second tab, or a reload
    assert again["status"] == "waiting" and again["waited"] == 3
    moved = join(client, a, "go19-jp").json()  # another button moves the entry
    assert moved["pool"] == "go19-jp" and moved["waited"] == 0
    counts = {p["id"]: p["waiting"] for p in client.get("/api/pools").json()["pools"]}
    assert counts["xq-6.3"] == 0 and counts["go19-jp"] == 1 and sum(counts.values()) == 1


def test_an_entry_survives_a_reload_but_not_a_closed_page(client: TestClient, register: Any,
                                                          clock: FakeTime) -> None:
    a, b = register(client, "reloader"), register(client, "gone")
    join(client, a, "xq-6.2")
    clock.advance(20)
    assert me(client, a)["waited"] == 20  # the page came back: still waiting
    clock.advance(Pools.TTL + 1)  # nobody asks for more than the TTL: dropped
    assert me(client, a) == {"status": "idle"}
    assert join(client, b, "xq-6.2").json()["status"] == "waiting"


def test_guests_play_casual_games_with_guests(client: TestClient, register: Any) -> None:
    g1, g2 = guest(client), guest(client)
    p = register(client, "member")
    assert join(client, g1, "go9-sd").json()["status"] == "waiting"
    # A registered player is not paired with a guest (their game would be rated).
    assert join(client, p, "go9-sd").json()["status"] == "waiting"
    s = join(client, g2, "go9-sd").json()
    assert s["status"] == "matched"
    assert stored(client, s["game"]).rated is False
    assert me(client, p)["status"] == "waiting"


# ------------------------------------------------------------- bounds
def test_unknown_and_malformed_pools_are_refused(client: TestClient, register: Any) -> None:
    a = register(client, "prober")
    r = join(client, a, "xq-9.9")
    assert r.status_code == 404 and "no such quick-pairing pool" in r.json()["detail"]
    assert join(client, a, "x" * 17).status_code == 422
    assert join(client, a, "%3Cscript%3E").status_code == 422
    assert me(client, a) == {"status": "idle"}


def test_a_full_pool_and_full_pools_are_refused(client: TestClient, register: Any) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    lobby.pools.MAX_PER_POOL = 2
    lobby.pools.MAX_TOTAL = 3
    users = [register(client, f"filler{i}") for i in range(4)]
    for i, u in enumerate(users[:2]):
        set_rating(client, u, 1000 + 500 * i)  # far apart: nobody is paired
    for u in users[:2]:
        assert join(client, u, "xq-6.1").json()["status"] == "waiting"
    r = join(client, users[2], "xq-6.1")
    assert r.status_code == 503 and "full" in r.json()["detail"]
    set_rating(client, users[2], 2500)
    assert join(client, users[2], "xq-6.2").json()["status"] == "waiting"
    r = join(client, users[3], "xq-6.4")
    assert r.status_code == 503 and "pools are full" in r.json()["detail"]


def test_guests_of_one_address_are_bounded(client: TestClient) -> None:
    guests = [guest(client) for _ in range(Pools.MAX_GUESTS_PER_ADDRESS + 1)]
    pools = ["xq-6.1", "xq-6.2", "xq-6.4"]
    for g, pool in zip(guests[:-1], pools, strict=False):
        assert join(client, g, pool).json()["status"] == "waiting"
    r = join(client, guests[-1], pools[-1])
    assert r.status_code == 429 and "guests of one address" in r.json()["detail"]


def test_joins_are_rate_limited(client: TestClient, register: Any) -> None:
    a = register(client, "hammer")
    codes = [join(client, a, "xq-6.3" if i % 2 else "xq-6.4").status_code for i in range(25)]
    assert codes[:20] == [200] * 20 and set(codes[20:]) == {429}


# ------------------------------------------------------ who may do what
def test_anonymous_callers_may_look_but_not_join(client: TestClient) -> None:
    assert client.get("/api/pools").status_code == 200
    assert client.get("/api/pools/me").json() == {"status": "idle"}
    assert client.post("/api/pools/xq-6.3").status_code == 401
    assert client.delete("/api/pools/me").status_code == 401


def test_a_cookie_session_needs_the_csrf_token(client: TestClient) -> None:
    r = client.post("/api/auth/register", json={"username": "cookieman",
                                                "password": "correct horse"})
    csrf = r.json()["csrf"]
    assert client.post("/api/pools/xq-6.3").status_code == 403
    assert client.post("/api/pools/xq-6.3", headers={"X-CSRF-Token": csrf}).status_code == 200
    assert client.delete("/api/pools/me").status_code == 403
    assert client.get("/api/pools/me").json()["status"] == "waiting"


def test_a_player_only_touches_their_own_entry(client: TestClient, register: Any) -> None:
    a, b = register(client, "owner"), register(client, "meddler")
    set_rating(client, b, 2400)
    join(client, a, "xq-6.3")
    assert client.delete("/api/pools/me", headers=b["headers"]).json()["cancelled"] is False
    assert me(client, a)["status"] == "waiting"
    # Nothing of another player's entry is shown but the count.
    assert me(client, b) == {"status": "idle"}


def test_a_game_that_cannot_be_made_keeps_both_players_waiting(
        client: TestClient, register: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from qisai.store import ConflictError

    a, b = register(client, "unlucky1"), register(client, "unlucky2")

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise ConflictError("the database refused the game")

    join(client, a, "xq-6.3")
    monkeypatch.setattr(repo, "create_game", refuse)
    r = join(client, b, "xq-6.3")
    assert r.status_code == 200 and r.json()["status"] == "waiting"
    assert me(client, a)["status"] == "waiting"
    monkeypatch.undo()
    clock = client.app.state.lobby.now  # type: ignore[attr-defined]
    clock.advance(1)  # the next question pairs them again
    s = me(client, a)
    assert s["status"] == "matched" and me(client, b) == s
