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

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from qisai.store.models import Game, GameStatus

__all__ = ["Quota", "QuotaError"]

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
        ids = self._by_address.get(address)
        if not ids:
            return 0, 0
        rows = s.execute(select(Game.id, Game.engine, Game.status, Game.created_at).where(
            Game.id.in_(list(ids)))).all()
        since = self._seek_since()
        live = {r.id for r in rows if r.status in _OPEN}
        # Forget the finished ones, so the list stays short.
        for gid in [g for g in ids if g not in live]:
            ids.remove(gid)
        engine = sum(1 for r in rows if r.status in _OPEN and r.engine is not None)
        seeks = sum(1 for r in rows if r.status == GameStatus.WAITING.value
                    and r.engine is None and _naive_utc(r.created_at) >= since)
        return engine, seeks

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
