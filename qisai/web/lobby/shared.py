"""Quick-pairing pools shared by the server processes of one arena (issues
15 and 22): with ``QISAI_REDIS_URL`` set, the pools live in Redis, so two
players who press the same button on different processes meet.

The rules are those of :class:`~qisai.web.lobby.pools.Pools` (its range
widening, one entry per user, guests casual, bounds, expiry after
:attr:`Pools.TTL` seconds unasked); only where the entries are kept
differs.  Keys (one hash tag, so a Redis cluster keeps them together):

* ``{qisai:pools}:entries`` — user id → the entry (JSON: pool, rating,
  rated, since, address); one field per user is the one-entry rule;
* ``{qisai:pools}:seen`` — a sorted set of user ids by when the page last
  asked (apart from the entry, so that a page's question does not change
  the entry a pairing read; sorted, so that expiry reads only the expired);
* ``{qisai:pools}:counts`` — pool → entries, ``@address`` → a guest
  address's entries (the bounds are checked against them);
* ``{qisai:pools}:told:USER`` — the game a pair was given, until the
  player asks (expires after :attr:`Lobby.MATCH_KEEP` seconds); while the
  game is being made, ``P`` and the entry taken (the player's page is told
  it still waits, and keeps asking, rather than "idle").

Every change is one Lua script, so it is atomic whatever the other
processes do.  A pairing pass reads the entries, pairs them in Python by
the same code as the in-memory pools, and takes each pair with a script
that removes both players only if both entries are still exactly as read:
two processes pairing at once can never give one player two games (the
second finds the entries gone and skips the pair).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from redis import asyncio as aioredis
from redis.exceptions import RedisError

from qisai.store import Database
from qisai.store.models import User
from qisai.web.lobby.controls import CONTROLS
from qisai.web.lobby.pools import Entry, PoolError, Pools, Waiting
from qisai.web.lobby.service import Lobby, Matched
from qisai.web.play.hub import Hub

__all__ = ["UNREACHABLE", "RedisPools", "SharedLobby"]

UNREACHABLE = ("quick pairing is unavailable for a moment (the arena's Redis cannot be "
               "reached); try again shortly, or open a custom game")
"""What a player is told when Redis is away (a 503: the request is refused,
the server carries on; games in play are not affected)."""

PREFIX = "{qisai:pools}:"
ENTRIES = PREFIX + "entries"
SEEN = PREFIX + "seen"
COUNTS = PREFIX + "counts"
TOLD = PREFIX + "told:"

# Removes one user's entry and keeps the counts with it (prepended to the
# scripts that remove: Lua scripts cannot call one another).
_REMOVE = """
local function remove(uid)
  local raw = redis.call('hget', KEYS[1], uid)
  if not raw then return false end
  local e = cjson.decode(raw)
  redis.call('hincrby', KEYS[3], e.p, -1)
  if e.a ~= cjson.null and e.a ~= nil then
    redis.call('hincrby', KEYS[3], '@' .. e.a, -1)
  end
  redis.call('hdel', KEYS[1], uid)
  redis.call('zrem', KEYS[2], uid)
  return true
end
"""

# ARGV: uid, pool, entry JSON, now, max per pool, max total, max per address,
# address ('' for none).  Returns {'same'|'new'} or an error word.
_JOIN = _REMOVE + """
local uid, pool, entry, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local old = redis.call('hget', KEYS[1], uid)
if old and cjson.decode(old).p == pool then
  redis.call('zadd', KEYS[2], now, uid)
  return 'same'
end
if tonumber(redis.call('hget', KEYS[3], pool) or '0') >= tonumber(ARGV[5]) then
  return 'pool-full'
end
if not old and redis.call('hlen', KEYS[1]) >= tonumber(ARGV[6]) then
  return 'full'
end
local addr = ARGV[8]
if addr ~= '' and not old and
   tonumber(redis.call('hget', KEYS[3], '@' .. addr) or '0') >= tonumber(ARGV[7]) then
  return 'address'
end
remove(uid)
redis.call('hset', KEYS[1], uid, entry)
redis.call('zadd', KEYS[2], now, uid)
redis.call('hincrby', KEYS[3], pool, 1)
if addr ~= '' then redis.call('hincrby', KEYS[3], '@' .. addr, 1) end
return 'new'
"""

# ARGV: user ids.  Returns how many had an entry.
_CANCEL = _REMOVE + """
local n = 0
for i = 1, #ARGV do
  if remove(ARGV[i]) then n = n + 1 end
end
return n
"""

# ARGV: now, ttl, now - ttl.  Drops the entries not asked about for ttl seconds
# (more than ttl: the same test as Pools.expire, on the few read).
_EXPIRE = _REMOVE + """
local now, ttl = tonumber(ARGV[1]), tonumber(ARGV[2])
local old = redis.call('zrangebyscore', KEYS[2], '-inf', '(' .. ARGV[3])
local gone = 0
for i = 1, #old do
  if now - tonumber(redis.call('zscore', KEYS[2], old[i])) > ttl then
    remove(old[i])
    gone = gone + 1
  end
end
return gone
"""

# ARGV: uid, now, touch ('1' or '0').  Returns {entry JSON, waiting in its
# pool} or nil.
_WAITING = """
local raw = redis.call('hget', KEYS[1], ARGV[1])
if not raw then return nil end
if ARGV[3] == '1' then redis.call('zadd', KEYS[2], ARGV[2], ARGV[1]) end
local pool = cjson.decode(raw).p
return {raw, redis.call('hget', KEYS[3], pool) or '0'}
"""

# KEYS[4..]: the told keys of uid a, uid b of each pair.  ARGV: the pending
# marks' life (ms), then uid a, entry a, uid b, entry b, ... (as read).
# Takes each pair whose two entries are still exactly as read, marking both
# players pending; returns the 1-based pair numbers taken.
_TAKE = _REMOVE + """
local taken = {}
for i = 2, #ARGV, 4 do
  if redis.call('hget', KEYS[1], ARGV[i]) == ARGV[i + 1] and
     redis.call('hget', KEYS[1], ARGV[i + 2]) == ARGV[i + 3] then
    local n = (i + 2) / 4
    remove(ARGV[i])
    remove(ARGV[i + 2])
    redis.call('set', KEYS[2 + 2 * n], 'P' .. ARGV[i + 1], 'PX', ARGV[1])
    redis.call('set', KEYS[3 + 2 * n], 'P' .. ARGV[i + 3], 'PX', ARGV[1])
    taken[#taken + 1] = n
  end
end
return taken
"""

# Returns the told key's value, deleting it unless it is a pending mark.
_TOLD = """
local v = redis.call('get', KEYS[1])
if v and string.sub(v, 1, 1) ~= 'P' then redis.call('del', KEYS[1]) end
return v
"""


def _encode(e: Entry) -> str:
    return json.dumps({"u": e.user_id, "p": e.pool, "r": e.rating, "k": e.rated,
                       "s": e.since, "a": e.address}, separators=(",", ":"))


def _decode(raw: str, seen: float) -> Entry:
    d = json.loads(raw)
    return Entry(int(d["u"]), str(d["p"]), float(d["r"]), bool(d["k"]), float(d["s"]),
                 seen, d["a"])


class RedisPools:
    """The pools of :class:`Pools`, kept in the Redis at ``url``.

    The bounds and the range rules are :class:`Pools`'s (class attributes
    here too, so one server can be set like the other).  Every method may
    raise :class:`redis.exceptions.RedisError` when Redis is unreachable.
    """

    BASE_RANGE = Pools.BASE_RANGE
    STEP = Pools.STEP
    STEP_SECONDS = Pools.STEP_SECONDS
    MAX_RANGE = Pools.MAX_RANGE
    TTL = Pools.TTL
    MAX_PER_POOL = Pools.MAX_PER_POOL
    MAX_TOTAL = Pools.MAX_TOTAL
    MAX_GUESTS_PER_ADDRESS = Pools.MAX_GUESTS_PER_ADDRESS
    MAX_TAKE = 256
    PENDING = Pools.TTL
    """Seconds a taken player is told "waiting" while the game is made
    (should the making process die, the page says idle after that)."""
    """Pairs taken by one script call (a long call would hold Redis up)."""

    def __init__(self, url: str, now: Callable[[], float]) -> None:
        self.now = now
        self.redis = aioredis.Redis.from_url(url, decode_responses=True, socket_timeout=2.0,
                                             socket_connect_timeout=2.0)
        self._join = self.redis.register_script(_JOIN)
        self._cancel = self.redis.register_script(_CANCEL)
        self._expire = self.redis.register_script(_EXPIRE)
        self._waiting = self.redis.register_script(_WAITING)
        self._take = self.redis.register_script(_TAKE)
        self._told = self.redis.register_script(_TOLD)
        self._keys = [ENTRIES, SEEN, COUNTS]

    def _rules(self) -> Pools:
        # The in-memory pools' pairing code, with this object's bounds.
        rules = Pools(self.now)
        rules.BASE_RANGE, rules.STEP = self.BASE_RANGE, self.STEP
        rules.STEP_SECONDS, rules.MAX_RANGE = self.STEP_SECONDS, self.MAX_RANGE
        return rules

    def range_after(self, waited: float) -> int:
        """Return the rating range (±) after ``waited`` seconds."""
        return self._rules().range_after(waited)

    async def close(self) -> None:
        """Close the connections."""
        await self.redis.aclose()

    async def join(self, user_id: int, pool: str, rating: float, *, rated: bool,
                   address: str | None = None, since: float | None = None) -> None:
        """Put ``user_id`` in ``pool`` (:meth:`Pools.join`'s rules; ``since``
        keeps a restored entry's waiting time).  Raises :class:`PoolError`:
        404 unknown pool, 503 full, 429 beyond a guest address's entries."""
        if pool not in CONTROLS:
            raise PoolError(404, f"pool {pool!r}: there is no such quick-pairing pool")
        await self.expire()
        now = self.now()
        entry = Entry(user_id, pool, rating, rated, now if since is None else since, now,
                      address)
        verdict = await self._join(keys=self._keys, args=[
            user_id, pool, _encode(entry), repr(now), self.MAX_PER_POOL, self.MAX_TOTAL,
            self.MAX_GUESTS_PER_ADDRESS, address or ""])
        if verdict == "pool-full":
            raise PoolError(503, f"pool {pool}: full ({self.MAX_PER_POOL} waiting); "
                                 "try again in a minute or choose another time control")
        if verdict == "full":
            raise PoolError(503, f"the pools are full ({self.MAX_TOTAL} waiting); "
                                 "try again in a minute")
        if verdict == "address":
            raise PoolError(429, f"at most {self.MAX_GUESTS_PER_ADDRESS} guests of one "
                                 "address may wait at once; register to play more")

    async def cancel(self, user_id: int) -> bool:
        """Take ``user_id`` out of its pool; return whether it was in one."""
        return bool(await self._cancel(keys=self._keys, args=[user_id]))

    async def expire(self) -> int:
        """Drop the entries no page asked about for :attr:`TTL` seconds;
        return how many."""
        now = self.now()
        return int(await self._expire(keys=self._keys,
                                      args=[repr(now), self.TTL, repr(now - self.TTL)]))

    async def waiting(self, user_id: int, *, touch: bool = True) -> Waiting | None:
        """Return what the page shows of ``user_id``'s entry (``None`` if it
        has none); ``touch`` keeps the entry alive."""
        now = self.now()
        got = await self._waiting(keys=self._keys,
                                  args=[user_id, repr(now), "1" if touch else "0"])
        if got is None:
            return None
        e = _decode(got[0], now)
        waited = now - e.since
        return Waiting(e.pool, waited, self.range_after(waited), e.rating, int(got[1]) - 1)

    async def counts(self) -> dict[str, int]:
        """Return how many wait in each pool (every pool, zeros too)."""
        raw = await self.redis.hgetall(COUNTS)
        return {p: max(0, int(raw.get(p, 0))) for p in CONTROLS}

    async def size(self) -> int:
        """Return how many wait in all pools."""
        return int(await self.redis.hlen(ENTRIES))

    async def pair(self) -> list[tuple[Entry, Entry]]:
        """Take the pairs that can play out of the pools and return them,
        the longest waiting first (:meth:`Pools.pair`'s rules).  A pair
        another process took meanwhile is left out."""
        await self.expire()
        now = self.now()
        raw: dict[str, str] = await self.redis.hgetall(ENTRIES)
        groups: dict[tuple[str, bool], list[Entry]] = {}
        text: dict[int, str] = {}
        for value in raw.values():
            e = _decode(value, now)
            text[e.user_id] = value
            groups.setdefault((e.pool, e.rated), []).append(e)
        rules = self._rules()
        found: list[tuple[Entry, Entry]] = []
        for group in groups.values():
            found += rules._pair_group(group, now)
        found.sort(key=lambda p: p[0].since)
        pairs: list[tuple[Entry, Entry]] = []
        for start in range(0, len(found), self.MAX_TAKE):
            chunk = found[start:start + self.MAX_TAKE]
            args: list[Any] = [int(self.PENDING * 1000)]
            keys = list(self._keys)
            for a, b in chunk:
                args += [a.user_id, text[a.user_id], b.user_id, text[b.user_id]]
                keys += [f"{TOLD}{a.user_id}", f"{TOLD}{b.user_id}"]
            taken = await self._take(keys=keys, args=args)
            pairs += [chunk[int(i) - 1] for i in taken]
        return pairs

    async def tell(self, user_id: int, m: Matched, keep: float) -> None:
        """Keep ``m`` for ``user_id`` for ``keep`` seconds."""
        await self.redis.set(f"{TOLD}{user_id}", json.dumps([m.game_id, m.pool, m.at]),
                             px=max(1, int(keep * 1000)))

    async def told(self, user_id: int) -> Matched | None:
        """Return (and forget) the game kept for ``user_id``, or ``None``
        (also while its game is being made: see :meth:`pending`)."""
        raw = await self._told(keys=[f"{TOLD}{user_id}"])
        if raw is None or raw.startswith("P"):
            return None
        game_id, pool, at = json.loads(raw)
        return Matched(str(game_id), str(pool), float(at))

    async def pending(self, user_id: int) -> Waiting | None:
        """Return what the page shows while ``user_id``'s game is being
        made (the entry as taken: still waiting), or ``None``."""
        raw = await self.redis.get(f"{TOLD}{user_id}")  # read only: a game told stays
        if raw is None or not raw.startswith("P"):
            return None
        now = self.now()
        e = _decode(raw[1:], now)
        return Waiting(e.pool, now - e.since, self.range_after(now - e.since), e.rating, 0)

    async def forget(self, user_id: int) -> None:
        """Drop the game kept for ``user_id`` (a new request)."""
        await self.redis.delete(f"{TOLD}{user_id}")


class SharedLobby(Lobby):
    """The :class:`Lobby` of a server among several: the pools and the
    games told to their players are in Redis (:class:`RedisPools`)."""

    def __init__(self, db: Database, hub: Hub, now: Callable[[], float], url: str) -> None:
        super().__init__(db, hub, now)
        self.shared = RedisPools(url, now)

    async def close(self) -> None:
        """Close the Redis connections."""
        await self.shared.close()

    async def join(self, user: User, pool: str, address: str | None) -> dict[str, Any]:
        """:meth:`Lobby.join`; also raises :class:`PoolError` 503 when Redis
        cannot be reached."""
        try:
            return await super().join(user, pool, address)
        except RedisError:
            raise PoolError(503, UNREACHABLE) from None

    async def status(self, user_id: int, *, settle: bool = True) -> dict[str, Any]:
        """:meth:`Lobby.status`; also raises :class:`PoolError` 503 when
        Redis cannot be reached."""
        try:
            return await super().status(user_id, settle=settle)
        except RedisError:
            raise PoolError(503, UNREACHABLE) from None

    async def cancel(self, user_id: int) -> dict[str, Any]:
        """Take ``user_id`` out of its pool (on whichever process it was
        put); return ``{"status": "idle", "cancelled": bool}``.  Raises
        :class:`PoolError` 503 when Redis cannot be reached."""
        try:
            return {"status": "idle", "cancelled": await self.shared.cancel(user_id)}
        except RedisError:
            raise PoolError(503, UNREACHABLE) from None

    async def counts(self) -> dict[str, int]:
        """Return how many wait in each pool, over all processes (zeros
        while Redis cannot be reached: the catalogue is still shown)."""
        try:
            return await self.shared.counts()
        except RedisError:
            return dict.fromkeys(CONTROLS, 0)

    async def _enter(self, user_id: int, pool: str, rating: float, *, rated: bool,
                     address: str | None) -> None:
        await self.shared.forget(user_id)  # a new request: an old game is not news
        await self.shared.join(user_id, pool, rating, rated=rated, address=address)

    async def _told(self, user_id: int) -> Matched | None:
        return await self.shared.told(user_id)

    async def _waiting(self, user_id: int) -> Waiting | None:
        # Taken from the pools by some process, its game not made yet: the
        # page is told it still waits, so that it keeps asking.
        return await self.shared.waiting(user_id) or await self.shared.pending(user_id)

    async def _take_pairs(self) -> list[tuple[Entry, Entry]]:
        return await self.shared.pair()

    async def _restore(self, entries: tuple[Entry, ...]) -> None:
        for e in entries:
            await self.shared.forget(e.user_id)  # no longer pending
            try:
                await self.shared.join(e.user_id, e.pool, e.rating, rated=e.rated,
                                       address=e.address, since=e.since)
            except PoolError:  # the pool filled meanwhile: the page says idle
                pass

    async def _tell(self, user_ids: tuple[int, ...], m: Matched) -> None:
        for uid in user_ids:
            await self.shared.tell(uid, m, self.MATCH_KEEP)
