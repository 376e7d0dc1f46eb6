"""How many engine games and open seeks a player may have at once.

One player must not take every engine process, nor fill the lobby: a
player (an account, or a guest session, which is a guest account of its
own) has at most :attr:`Quota.engine_games` games against an engine that are
not finished, and at most :attr:`Quota.seeks` open seeks (games waiting for
an opponent) made in the last :attr:`Quota.seek_minutes` minutes.  As a
guest can start a new session at will, guests are also counted per address:
at most :attr:`Quota.address_engine_games` engine games and
:attr:`Quota.address_seeks` open seeks among all the guests of one address.
Beyond that, creating a game is refused with 429 and a message that says
which limit and what to do.

Counts come from the database (games of the player that are not finished);
the address of a guest's game is kept in memory, so after a restart the
per-address count starts again (the per-player one does not).  Checks and
creations of one player (and one guest address) are serialised, so two
requests at once cannot both take the last place.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from qisai.store.models import Game, GameStatus

__all__ = ["Quota", "QuotaError", "SharedQuota"]

_OPEN = (GameStatus.WAITING.value, GameStatus.ACTIVE.value)


def _naive_utc(when: dt.datetime) -> dt.datetime:
    """``when`` in UTC without a zone: SQLite gives naive UTC times,
    PostgreSQL zone-aware ones, and the two must compare."""
    return when if when.tzinfo is None else when.astimezone(dt.UTC).replace(tzinfo=None)


class QuotaError(Exception):
    """Creating the game would pass a limit; ``message`` says which."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Quota:
    """The limits, and the guests' games by address."""

    engine_games: int = 2
    seeks: int = 3
    address_engine_games: int = 4
    address_seeks: int = 6
    seek_minutes: float = 60.0
    _by_address: dict[str, collections.deque[str]] = field(default_factory=dict)
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    # -------------------------------------------------------------- counts
    def _seek_since(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(
            minutes=self.seek_minutes)

    def player_counts(self, s: Session, user_id: int) -> tuple[int, int]:
        """Return (unfinished engine games, open seeks) of ``user_id``."""
        engine = s.scalar(select(func.count()).select_from(Game).where(
            Game.engine.is_not(None), Game.status.in_(_OPEN),
            # the creator of a consultation game holds no seat (the group does)
            or_(Game.first_user_id == user_id, Game.second_user_id == user_id,
                Game.created_by_id == user_id)))
        seeks = s.scalar(select(func.count()).select_from(Game).where(
            Game.engine.is_(None), Game.status == GameStatus.WAITING.value,
            Game.pairing_id.is_(None), Game.created_by_id == user_id,
            Game.created_at >= self._seek_since()))
        return int(engine or 0), int(seeks or 0)

    def address_counts(self, s: Session, address: str) -> tuple[int, int]:
        """Return (unfinished engine games, open seeks) of the guests of
        ``address`` (games this process saw them make)."""
        ids = self._address_ids(address)
        if not ids:
            return 0, 0
        rows = s.execute(select(Game.id, Game.engine, Game.status, Game.created_at).where(
            Game.id.in_(ids))).all()
        since = self._seek_since()
        live = {r.id for r in rows if r.status in _OPEN}
        # Forget the finished ones, so the list stays short.
        self._forget_ids(address, [g for g in ids if g not in live])
        engine = sum(1 for r in rows if r.status in _OPEN and r.engine is not None)
        seeks = sum(1 for r in rows if r.status == GameStatus.WAITING.value
                    and r.engine is None and _naive_utc(r.created_at) >= since)
        return engine, seeks

    def _address_ids(self, address: str) -> list[str]:
        """The games the guests of ``address`` made (maybe finished)."""
        return list(self._by_address.get(address) or ())

    def _forget_ids(self, address: str, game_ids: list[str]) -> None:
        ids = self._by_address.get(address)
        for gid in game_ids:
            if ids is not None and gid in ids:
                ids.remove(gid)

    # -------------------------------------------------------------- checks
    def check(self, s: Session, user_id: int, address: str | None, *, engine: bool) -> None:
        """Raise :class:`QuotaError` if ``user_id`` (a guest when
        ``address`` is given) may not create another engine game
        (``engine``) or open seek."""
        games, seeks = self.player_counts(s, user_id)
        if engine and games >= self.engine_games:
            raise QuotaError(
                f"too many engine games at once: you have {games} unfinished game(s) against "
                f"an engine (limit {self.engine_games}); finish or resign one first")
        if not engine and seeks >= self.seeks:
            raise QuotaError(
                f"too many open seeks: you have {seeks} game(s) waiting for an opponent "
                f"(limit {self.seeks}); wait until one is taken (seeks older than "
                f"{self.seek_minutes:g} minutes no longer count)")
        if address is None:
            return
        games, seeks = self.address_counts(s, address)
        if engine and games >= self.address_engine_games:
            raise QuotaError(
                f"too many engine games from your address: guests there have {games} "
                f"unfinished (limit {self.address_engine_games}); finish one, or register "
                f"and log in")
        if not engine and seeks >= self.address_seeks:
            raise QuotaError(
                f"too many open seeks from your address: guests there have {seeks} waiting "
                f"for an opponent (limit {self.address_seeks}); register and log in, or wait")

    def remember(self, game_id: str, address: str | None) -> None:
        """Count ``game_id`` for the guests of ``address`` (``None``: not a guest)."""
        if address is None:
            return
        ids = self._by_address.setdefault(address, collections.deque())
        ids.append(game_id)
        while len(ids) > 4 * max(self.address_engine_games, self.address_seeks) + 64:
            ids.popleft()  # the oldest, surely finished by now
        if len(self._by_address) > 100_000:
            self._by_address.pop(next(iter(self._by_address)))

    @contextlib.asynccontextmanager
    async def serialised(self, keys: Iterable[str]) -> AsyncIterator[None]:
        """Hold the locks of ``keys`` (in order) for a check and a creation."""
        async with contextlib.AsyncExitStack() as stack:
            for key in sorted(set(keys)):
                lock = self._locks.setdefault(key, asyncio.Lock())
                await stack.enter_async_context(lock)
            try:
                yield
            finally:
                if len(self._locks) > 10_000:
                    for k in [k for k, lk in self._locks.items() if not lk.locked()]:
                        del self._locks[k]


@dataclass
class SharedQuota(Quota):
    """A :class:`Quota` for a cluster (issue 30.5): the check and creation
    of one player (one guest address) hold a lock in Redis, so requests on
    different processes cannot all take the last place, and the guests'
    games by address are kept in Redis, seen by every process.  While
    Redis fails it falls back to the process's own locks and lists."""

    url: str = ""
    LOCK_SECONDS = 10.0
    """Longest a lock is held (a process killed holding one frees it then)."""

    def __post_init__(self) -> None:
        import redis
        from redis import asyncio as aioredis

        self._sync = redis.Redis.from_url(self.url, socket_timeout=0.5,
                                          socket_connect_timeout=0.5)
        self._async = aioredis.Redis.from_url(self.url, socket_timeout=2.0,
                                              socket_connect_timeout=2.0)

    @classmethod
    def like(cls, quota: Quota, url: str) -> SharedQuota:
        """Return a shared quota with the limits of ``quota``."""
        return cls(engine_games=quota.engine_games, seeks=quota.seeks,
                   address_engine_games=quota.address_engine_games,
                   address_seeks=quota.address_seeks, seek_minutes=quota.seek_minutes, url=url)

    @staticmethod
    def _key(address: str) -> str:
        return "qisai:quota:address:" + address[:100]

    def _address_ids(self, address: str) -> list[str]:
        try:
            found: list[bytes] = self._sync.lrange(self._key(address), 0, -1)  # type: ignore[assignment]
            return [g.decode() for g in found]
        except Exception:  # Redis away: this process's own list
            return super()._address_ids(address)

    def _forget_ids(self, address: str, game_ids: list[str]) -> None:
        super()._forget_ids(address, game_ids)
        with contextlib.suppress(Exception):
            pipe = self._sync.pipeline(transaction=False)
            for gid in game_ids:
                pipe.lrem(self._key(address), 0, gid)
            pipe.execute()

    def remember(self, game_id: str, address: str | None) -> None:
        """Count ``game_id`` for the guests of ``address`` in the cluster."""
        super().remember(game_id, address)
        if address is None:
            return
        keep = 4 * max(self.address_engine_games, self.address_seeks) + 64
        with contextlib.suppress(Exception):
            pipe = self._sync.pipeline(transaction=False)
            pipe.rpush(self._key(address), game_id)
            pipe.ltrim(self._key(address), -keep, -1)
            pipe.expire(self._key(address), 2 * 86400)
            pipe.execute()

    @contextlib.asynccontextmanager
    async def serialised(self, keys: Iterable[str]) -> AsyncIterator[None]:
        """Hold the cluster's locks of ``keys`` (in order; and this
        process's) for a check and a creation."""
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(super().serialised(keys))
            for key in sorted(set(keys)):
                lock = self._async.lock("qisai:quota:lock:" + key[:120],
                                        timeout=self.LOCK_SECONDS,
                                        blocking_timeout=self.LOCK_SECONDS)
                try:
                    got = await lock.acquire()
                except Exception:  # Redis away: this process's lock only
                    continue
                if got:
                    stack.push_async_callback(_release, lock)
            yield


async def _release(lock: Any) -> None:
    with contextlib.suppress(Exception):  # expired meanwhile, or Redis away
        await lock.release()
