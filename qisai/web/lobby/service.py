"""The lobby of a running arena: the pools, the games made of their pairs,
and what each waiting player's page is told.

:class:`Lobby` wraps :class:`~qisai.web.lobby.pools.Pools` (who waits) with
what needs the database and the live-game hub: a pair becomes a game with
both seats taken (colours by lot), stored with its pool's settings, and
started at once, so its clock runs from the first move exactly as in a
custom game.  Each player of the pair is told the game on their next
question (:meth:`Lobby.status`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi.concurrency import run_in_threadpool

from qisai.store import Database, repo
from qisai.store.models import Role, User
from qisai.web.lobby.controls import CONTROLS
from qisai.web.lobby.pools import Entry, PoolError, Pools, Waiting
from qisai.web.play.hub import Hub
from qisai.web.security import RateLimiter

__all__ = ["Lobby", "Matched"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Matched:
    """A pair's game, kept for its players until they are told of it."""

    game_id: str
    pool: str
    at: float


class Lobby:
    """The pools and the games made of their pairs (one per app)."""

    MATCH_KEEP = 300.0
    """Seconds a made game is kept for a player who has not asked yet."""
    SETTLE_EVERY = 0.5
    """Seconds (of the injected time) between pairings on a status question
    (a join always pairs): who can be paired changes only with a join or
    with time (ranges widen, entries expire), so pairing on every question
    of every waiting page would only repeat the work."""
    JOINS_PER_MINUTE = 20

    def __init__(self, db: Database, hub: Hub, now: Callable[[], float]) -> None:
        self.db = db
        self.hub = hub
        self.now = now
        self.pools = Pools(now)
        self.matched: dict[int, Matched] = {}
        self.lock = asyncio.Lock()
        self.joins = RateLimiter(self.JOINS_PER_MINUTE, 60.0)
        self._settled = float("-inf")

    # ------------------------------------------------------------ player
    async def join(self, user: User, pool: str, address: str | None) -> dict[str, Any]:
        """Put ``user`` in ``pool``, pair, and return its status.

        Raises :class:`PoolError` (404 unknown pool, 429 too many joins or
        guests of one address, 503 full)."""
        if pool not in CONTROLS:
            raise PoolError(404, f"pool {pool!r}: there is no such quick-pairing pool")
        if self.joins.hit(f"u{user.id}") > 0:
            raise PoolError(429, f"at most {self.JOINS_PER_MINUTE} quick-pairing requests a "
                                 "minute; wait a moment")
        guest = user.role == Role.GUEST.value
        await self._enter(user.id, pool, float(user.rating), rated=not guest,
                          address=address if guest else None)
        await self.settle(force=True)
        return await self.status(user.id, settle=False)

    async def cancel(self, user_id: int) -> dict[str, Any]:
        """Take ``user_id`` out of its pool; return ``{"status": "idle",
        "cancelled": bool}``."""
        async with self.lock:
            was = self.pools.cancel(user_id)
        return {"status": "idle", "cancelled": was}

    async def status(self, user_id: int, *, settle: bool = True) -> dict[str, Any]:
        """Return the player's lobby status: ``idle``; ``waiting`` with the
        pool, seconds waited, the rating range (±) and how many others wait;
        or ``matched`` with the game (told once)."""
        if settle:
            await self.settle()
        m = await self._told(user_id)
        if m is not None:
            return {"status": "matched", "game": m.game_id, "pool": m.pool}
        w = await self._waiting(user_id)
        if w is None:
            return {"status": "idle"}
        return {"status": "waiting", "pool": w.pool, "waited": round(w.waited, 1),
                "range": w.range, "rating": round(w.rating), "others": w.others,
                "low": round(w.rating - w.range), "high": round(w.rating + w.range)}

    async def counts(self) -> dict[str, int]:
        """Return how many wait in each pool (every pool, zeros too)."""
        return self.pools.counts()

    async def close(self) -> None:
        """Let go of what the lobby holds (nothing in memory)."""

    # ------------------------------------------------- where entries live
    # The in-memory pools of this process; a lobby shared by several
    # processes (:mod:`.shared`) keeps them in Redis behind the same hooks.
    async def _enter(self, user_id: int, pool: str, rating: float, *, rated: bool,
                     address: str | None) -> None:
        async with self.lock:
            self.matched.pop(user_id, None)  # a new request: an old game is not news
            self.pools.join(user_id, pool, rating, rated=rated, address=address)

    async def _told(self, user_id: int) -> Matched | None:
        async with self.lock:
            return self.matched.pop(user_id, None)

    async def _waiting(self, user_id: int) -> Waiting | None:
        async with self.lock:
            return self.pools.waiting(user_id)

    async def _take_pairs(self) -> list[tuple[Entry, Entry]]:
        async with self.lock:
            pairs = self.pools.pair()
            now = self.now()
            for uid in [u for u, m in self.matched.items() if now - m.at > self.MATCH_KEEP]:
                del self.matched[uid]
        return pairs

    async def _restore(self, entries: tuple[Entry, ...]) -> None:
        async with self.lock:
            for e in entries:
                try:
                    self.pools.join(e.user_id, e.pool, e.rating, rated=e.rated,
                                    address=e.address)
                except PoolError:  # the pool filled meanwhile: the page says idle
                    pass

    async def _tell(self, user_ids: tuple[int, ...], m: Matched) -> None:
        async with self.lock:
            for uid in user_ids:
                self.matched[uid] = m

    # ------------------------------------------------------------ pairing
    async def settle(self, *, force: bool = False) -> int:
        """Pair who can play and start their games; return how many games
        were made.  Without ``force`` it pairs at most every
        :attr:`SETTLE_EVERY` seconds."""
        clock = self.now()
        if not force and 0 <= clock - self._settled < self.SETTLE_EVERY:
            return 0
        self._settled = clock
        made = 0
        for a, b in await self._take_pairs():
            try:
                game_id = await self._start(a, b)
            except Exception:  # noqa: BLE001 - a failed game must not lose the players
                log.exception("quick pairing: the game of pool %s could not be made", a.pool)
                await self._restore((a, b))
                continue
            made += 1
            await self._tell((a.user_id, b.user_id), Matched(game_id, a.pool, self.now()))
        return made

    async def _start(self, a: Entry, b: Entry) -> str:
        ctl = CONTROLS[a.pool]
        first, second = (a, b) if secrets.randbelow(2) == 0 else (b, a)
        settings = ctl.settings()
        settings["family"] = ctl.family
        settings["pool"] = ctl.id

        def make() -> str:
            with self.db.session() as s:
                g = repo.create_game(s, kind=ctl.kind, ruleset=ctl.ruleset, settings=settings,
                                     first_user_id=first.user_id,
                                     second_user_id=second.user_id,
                                     created_by_id=None, rated=a.rated and b.rated)
                return g.id

        game_id = await run_in_threadpool(make)
        await self.hub.start_if_ready(game_id)
        return game_id
