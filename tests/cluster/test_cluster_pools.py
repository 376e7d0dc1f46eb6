"""Quick-pairing pools shared by several server processes (issues 15 and 22
item 1): with Redis configured the pools live there, under the same rules
as the in-memory pools (tests/web/test_lobby_pools.py).

The rules are checked on :class:`RedisPools` against a real ``redis-server``
with the test's clock (the injected time, as the app's); then two real
``qisai serve`` processes on PostgreSQL and Redis pair two players who
pressed the same button on different processes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx
import pytest

from tests.cluster.conftest import RedisServer, register

pytest.importorskip("redis", reason="the cluster extra (redis) is not installed")

from qisai.web.lobby.pools import PoolError, Pools  # noqa: E402
from qisai.web.lobby.shared import RedisPools  # noqa: E402

T = TypeVar("T")


class Clock:
    """The injected time: moves only when the test says."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def run(redis_server: RedisServer, clock: Clock,
        body: Callable[[RedisPools], Awaitable[T]]) -> T:
    """Run ``body`` with a :class:`RedisPools` on the test's Redis."""

    async def go() -> T:
        pools = RedisPools(redis_server.url, clock)
        try:
            return await body(pools)
        finally:
            await pools.close()

    return asyncio.run(go())


# ----------------------------------------------------- the pools' rules
def test_the_range_widens_with_the_injected_time(redis_server: RedisServer) -> None:
    clock = Clock()

    async def body(p: RedisPools) -> list[Any]:
        await p.join(1, "xq-6.3", 1500, rated=True)
        await p.join(2, "xq-6.3", 1800, rated=True)
        seen = []
        for _ in range(4):  # 0, 5, 10, 15 s: 100, 150, 200, 250 -- 300 apart, not yet
            w = await p.waiting(2)
            assert w is not None and w.others == 1
            seen.append((w.range, await p.pair()))
            await p.waiting(1)
            clock.t += Pools.STEP_SECONDS
        pairs = await p.pair()  # 20 s: the range is 300, the gap 300
        seen.append({(a.user_id, b.user_id) for a, b in pairs})
        seen.append((await p.waiting(1), await p.waiting(2), await p.counts()))
        return seen

    seen = run(redis_server, clock, body)
    assert seen[:4] == [(100, []), (150, []), (200, []), (250, [])]
    assert seen[4] == {(1, 2)}  # the first to wait comes first
    gone1, gone2, counts = seen[5]
    assert gone1 is None and gone2 is None and counts["xq-6.3"] == 0


def test_the_nearest_rating_and_guests_with_guests(redis_server: RedisServer) -> None:
    clock = Clock()

    async def body(p: RedisPools) -> set[tuple[int, int, bool]]:
        await p.join(1, "xq-10+5", 1500, rated=True)
        await p.join(2, "xq-10+5", 1580, rated=True)  # in range, but not the nearest
        await p.join(3, "xq-10+5", 1540, rated=True)
        await p.join(4, "xq-10+5", 1500, rated=False, address="10.0.0.1")  # guests
        await p.join(5, "xq-10+5", 1500, rated=False, address="10.0.0.2")
        return {(a.user_id, b.user_id, a.rated) for a, b in await p.pair()}

    # 1 takes 3 (40 apart, not 2 at 80); guests only meet guests; 2 waits.
    assert run(redis_server, clock, body) == {(1, 3, True), (4, 5, False)}


def test_one_entry_per_user_and_the_same_pool_keeps_the_wait(
        redis_server: RedisServer) -> None:
    clock = Clock()

    async def body(p: RedisPools) -> list[Any]:
        await p.join(1, "xq-6.3", 1500, rated=True)
        clock.t += 7
        await p.join(1, "xq-6.3", 1500, rated=True)  # a second tab: the wait stays
        same = await p.waiting(1)
        await p.join(1, "xq-6.4", 1500, rated=True)  # another button: the entry moves
        moved = await p.waiting(1)
        counts = await p.counts()
        cancelled = (await p.cancel(1), await p.cancel(1))
        return [same, moved, counts, cancelled, await p.size(), await p.counts()]

    same, moved, counts, cancelled, size, after = run(redis_server, clock, body)
    assert same.pool == "xq-6.3" and same.waited == 7
    assert moved.pool == "xq-6.4" and moved.waited == 0
    assert counts["xq-6.3"] == 0 and counts["xq-6.4"] == 1
    assert cancelled == (True, False) and size == 0 and after["xq-6.4"] == 0


def test_an_entry_not_asked_about_expires(redis_server: RedisServer) -> None:
    clock = Clock()

    async def body(p: RedisPools) -> list[Any]:
        await p.join(1, "go9-cn5", 1500, rated=True)
        await p.join(2, "go9-cn5", 1500, rated=True)
        # Pools are paired only when asked; here nobody pairs: 1's page
        # keeps asking, 2's page was closed.
        clock.t += Pools.TTL - 1
        await p.waiting(1)
        clock.t += 2
        kept = await p.waiting(1)
        gone = await p.expire()
        return [kept, gone, await p.waiting(2), await p.pair()]

    kept, gone, two, pairs = run(redis_server, clock, body)
    assert kept is not None and gone == 1 and two is None and pairs == []


def test_the_bounds_hold(redis_server: RedisServer) -> None:
    clock = Clock()

    async def body(p: RedisPools) -> list[int]:
        p.MAX_PER_POOL, p.MAX_TOTAL = 2, 3
        refused = []
        await p.join(1, "xq-6.1", 1000, rated=True)
        await p.join(2, "xq-6.1", 3000, rated=True)
        for uid, pool in ((3, "xq-6.1"), (3, "xq-6.2"), (4, "xq-6.2")):
            try:
                await p.join(uid, pool, 2000, rated=True)
            except PoolError as exc:
                refused.append(exc.status)
        p.MAX_PER_POOL = p.MAX_TOTAL = 100
        await p.join(10, "xq-6.4", 1500, rated=False, address="192.0.2.7")
        await p.join(11, "xq-6.4", 1500, rated=False, address="192.0.2.7")
        try:
            await p.join(12, "xq-6.4", 1500, rated=False, address="192.0.2.7")
        except PoolError as exc:
            refused.append(exc.status)
        try:
            await p.join(13, "no-such", 1500, rated=True)
        except PoolError as exc:
            refused.append(exc.status)
        return refused

    # pool full; (3 into 6.2 is fine: 3 in all); all full; a third guest of
    # one address; an unknown pool.
    assert run(redis_server, clock, body) == [503, 503, 429, 404]


def test_two_processes_pairing_at_once_never_pair_a_player_twice(
        redis_server: RedisServer) -> None:
    clock = Clock()

    async def body(p: RedisPools) -> list[list[Any]]:
        other = RedisPools(redis_server.url, clock)  # a second process's pools
        try:
            for uid in range(1, 41):  # 40 players, all in range of one another
                await p.join(uid, "xq-10+5", 1500 + uid, rated=True)
            # Both read the same entries and find the same 20 pairs; each
            # pair is taken by one of them only.
            first, second = await asyncio.gather(p.pair(), other.pair())
            return [first, second, [await p.size()]]
        finally:
            await other.close()

    first, second, (left,) = run(redis_server, clock, body)
    users = [e.user_id for pair in first + second for e in pair]
    assert len(users) == len(set(users)) == 40 and left == 0


def test_a_player_taken_for_a_game_is_told_waiting_until_the_game_is_made(
        redis_server: RedisServer) -> None:
    # Between a process taking a pair and making its game, the players'
    # pages (perhaps on other processes) must not read "idle": the page
    # stops asking on idle and would never learn of the game.
    from qisai.web.lobby.service import Matched

    clock = Clock()

    async def body(p: RedisPools) -> list[Any]:
        await p.join(1, "xq-15+10", 1500, rated=True)
        await p.join(2, "xq-15+10", 1510, rated=True)
        clock.t += 3
        pairs = await p.pair()
        during = [await p.waiting(1), await p.pending(1), await p.told(1), await p.pending(2)]
        await p.tell(1, Matched("g1", "xq-15+10", clock.t), 300)
        after = [await p.pending(1), await p.told(1), await p.told(1)]
        return [pairs, during, after]

    pairs, during, after = run(redis_server, clock, body)
    assert [(a.user_id, b.user_id) for a, b in pairs] == [(1, 2)]
    in_pool, pending, told, other = during
    assert in_pool is None and told is None
    assert pending is not None and (pending.pool, pending.waited, pending.range) == (
        "xq-15+10", 3, 100)
    assert other is not None and other.rating == 1510
    assert after[0] is None and after[1] == Matched("g1", "xq-15+10", clock.t)
    assert after[2] is None  # told once


# ------------------------------------------- two real server processes
def test_two_players_on_two_processes_land_in_one_game(cluster: Any) -> None:
    a_srv, b_srv = cluster(2)
    alice, bob = register(a_srv.base, "alice"), register(b_srv.base, "bob")
    r = httpx.post(f"{a_srv.base}/api/pools/xq-6.3", headers=alice["headers"], timeout=10)
    assert r.status_code == 200 and r.json()["status"] == "waiting"
    # The other process sees alice waiting (the pools' counts are shared).
    counts = httpx.get(f"{b_srv.base}/api/pools", timeout=10).json()["pools"]
    assert {p["id"]: p["waiting"] for p in counts}["xq-6.3"] == 1
    r = httpx.post(f"{b_srv.base}/api/pools/xq-6.3", headers=bob["headers"], timeout=10)
    second = r.json()
    assert r.status_code == 200 and second["status"] == "matched"
    first = httpx.get(f"{a_srv.base}/api/pools/me", headers=alice["headers"],
                      timeout=10).json()
    assert first == second  # told on alice's process, once
    assert httpx.get(f"{b_srv.base}/api/pools/me", headers=alice["headers"],
                     timeout=10).json() == {"status": "idle"}
    game = httpx.get(f"{a_srv.base}/api/games/{second['game']}", headers=alice["headers"],
                     timeout=10).json()
    assert game["status"] == "active" and game["ruleset"] == "cxa"
    assert {game["players"]["first"]["name"], game["players"]["second"]["name"]} == {
        "alice", "bob"}
    # 6.3: 10 minutes for the first 40 moves; the game started at once, so
    # the first player's clock runs and the second's stands full.
    clocks = game["clocks"]
    assert clocks["running"] == "first" and clocks["second"] == 600 and clocks["first"] <= 600


def test_a_player_cancels_on_another_process(cluster: Any) -> None:
    a_srv, b_srv = cluster(2)
    carol = register(a_srv.base, "carol")
    assert httpx.post(f"{a_srv.base}/api/pools/xq-6.4", headers=carol["headers"],
                      timeout=10).json()["status"] == "waiting"
    # Only one's own entry: another player's cancel leaves it.
    dave = register(b_srv.base, "dave")
    assert httpx.delete(f"{b_srv.base}/api/pools/me", headers=dave["headers"],
                        timeout=10).json() == {"status": "idle", "cancelled": False}
    assert httpx.get(f"{b_srv.base}/api/pools/me", headers=carol["headers"],
                     timeout=10).json()["status"] == "waiting"
    assert httpx.delete(f"{b_srv.base}/api/pools/me", headers=carol["headers"],
                        timeout=10).json() == {"status": "idle", "cancelled": True}
    assert httpx.delete(f"{a_srv.base}/api/pools/me", timeout=10).status_code == 401
    assert httpx.get(f"{a_srv.base}/api/pools/me", headers=carol["headers"],
                     timeout=10).json() == {"status": "idle"}


def test_redis_away_refuses_quick_pairing_with_a_clear_message(cluster: Any) -> None:
    a_srv, b_srv = cluster(2)
    erin = register(a_srv.base, "erin")
    assert httpx.post(f"{a_srv.base}/api/pools/xq-6.4", headers=erin["headers"],
                      timeout=10).json()["status"] == "waiting"
    cluster.redis.stop()
    for r in (httpx.post(f"{b_srv.base}/api/pools/xq-6.4", headers=erin["headers"],
                         timeout=10),
              httpx.get(f"{a_srv.base}/api/pools/me", headers=erin["headers"], timeout=10),
              httpx.delete(f"{a_srv.base}/api/pools/me", headers=erin["headers"],
                           timeout=10)):
        assert r.status_code == 503 and "Redis" in r.json()["detail"]
    # The catalogue is still shown (with nobody counted), and the server
    # still serves the rest.
    r = httpx.get(f"{a_srv.base}/api/pools", timeout=10)
    assert r.status_code == 200 and all(p["waiting"] == 0 for p in r.json()["pools"])
    assert httpx.get(f"{a_srv.base}/healthz", timeout=10).status_code == 200
    cluster.redis.start()  # back: the entry (in Redis' memory, lost with it) is gone
    assert httpx.get(f"{b_srv.base}/api/pools/me", headers=erin["headers"],
                     timeout=10).json() == {"status": "idle"}
