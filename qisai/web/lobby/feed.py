"""One page socket's feed of live boards: the games it watches, multiplexed.

A :class:`LobbyFeed` follows up to :data:`~qisai.web.lobby.live_boards.MAX_BOARDS`
games through the hub's own subscriptions (the hub calls it after every
stored change of a game, as it calls a game's sockets).  It does not pass
the hub's updates on: it marks the game changed and, at most once every
``interval`` seconds, sends one ``boards`` message with the small view of
every game changed since the last one (:func:`~.live_boards.board_view`).  So a
page with twelve boards gets at most ``1 / interval`` messages a second
(4 by default) however fast the games go, and a board that changed five
times in that time is sent once, as it is now.

Only started games are watched (``active`` and ``finished``): a game still
waiting for its second player, or an id that is no game, is refused with
the same message, so the socket cannot be used to probe open seeks.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import select

from qisai.store.models import Game, GameStatus
from qisai.web.lobby.live_boards import MAX_BOARDS, board_view
from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError, LiveGame
from qisai.web.security import RateLimiter

__all__ = ["DEFAULT_INTERVAL", "GAME_ID", "LobbyFeed", "WatchError"]

DEFAULT_INTERVAL = 0.25
"""Seconds between two ``boards`` messages of one socket, at least."""
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
"""What a game id looks like (anything else is refused unread)."""
WATCHABLE = frozenset({GameStatus.ACTIVE.value, GameStatus.FINISHED.value})
NOT_WATCHABLE = "not a started game"
"""The one refusal for an unknown id and for a game not started yet."""


class WatchError(Exception):
    """A ``watch`` request refused as a whole: ``status`` (400 bad request,
    429 too many) and ``message`` (English, short)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class LobbyFeed:
    """The live boards of one page socket (see the module).

    ``send`` sends one text frame; ``interval`` is the least time between
    two ``boards`` messages; ``watches_per_minute`` bounds how often the set
    of games may be changed.
    """

    def __init__(self, hub: Hub, send: Callable[[str], Awaitable[None]], *,
                 interval: float = DEFAULT_INTERVAL, watches_per_minute: int = 20) -> None:
        self.hub = hub
        self.send = send
        self.interval = interval
        self.watched: dict[str, tuple[LiveGame, int]] = {}
        self.dirty: set[str] = set()
        self.wake = asyncio.Event()
        self.messages = 0
        """``boards`` messages sent so far (the bench reads it)."""
        self._limiter = RateLimiter(watches_per_minute, 60.0, burst=5)

    def _changed(self, game_id: str) -> Callable[[str], Awaitable[None]]:
        async def mark(_text: str) -> None:  # the hub's update itself is not passed on
            self.dirty.add(game_id)
            self.wake.set()
        return mark

    def _statuses(self, ids: list[str]) -> dict[str, str]:
        with self.hub.db.session() as s:
            rows = s.execute(select(Game.id, Game.status).where(Game.id.in_(ids)))
            return {gid: status for gid, status in rows}

    async def watch(self, ids: Any) -> dict[str, Any]:
        """Watch the games ``ids`` (a list of at most :data:`MAX_BOARDS` game
        ids) instead of those watched so far; their views follow in the next
        ``boards`` message.  Returns the answer to send: ``watching`` (the
        ids now watched) and ``refused`` (``{id, message}`` for each id that
        is not a started game).  Raises :class:`WatchError` for a list that
        is not one or too long, an id that is not one, or too many requests."""
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise WatchError(400, "games: a list of game ids")
        if len(ids) > MAX_BOARDS:
            raise WatchError(400, f"games: at most {MAX_BOARDS} games on one socket")
        bad = next((i for i in ids if not GAME_ID.match(i)), None)
        if bad is not None:
            raise WatchError(400, "games: not a game id")
        if self._limiter.hit("watch") > 0:
            raise WatchError(429, "too many watch requests; wait a little")
        wanted = list(dict.fromkeys(ids))
        statuses = await asyncio.to_thread(self._statuses, wanted) if wanted else {}
        ok = [i for i in wanted if statuses.get(i) in WATCHABLE]
        refused = [{"id": i, "message": NOT_WATCHABLE} for i in wanted if i not in ok]
        for gid in [g for g in self.watched if g not in ok]:
            live, key = self.watched.pop(gid)
            self.hub.unsubscribe(live, key)
            self.dirty.discard(gid)
        for gid in ok:
            if gid in self.watched:
                continue
            try:
                self.watched[gid] = await self.hub.subscribe(gid, None, self._changed(gid))
            except ActionError:  # gone meanwhile
                refused.append({"id": gid, "message": NOT_WATCHABLE})
                continue
            self.dirty.add(gid)
        if self.dirty:
            self.wake.set()
        return {"type": "watching", "games": [g for g in ok if g in self.watched],
                "refused": refused}

    async def views(self) -> list[dict[str, Any]]:
        """Return the views of the changed games and forget that they changed."""
        ids, self.dirty = self.dirty, set()
        out = []
        for gid in ids:
            entry = self.watched.get(gid)
            if entry is None:
                continue
            live = entry[0]
            async with live.lock:
                out.append(board_view(live))
        return out

    async def run(self) -> None:
        """Send the changed boards, one message at most every ``interval``
        seconds, until cancelled."""
        loop = asyncio.get_running_loop()
        while True:
            await self.wake.wait()
            self.wake.clear()
            started = loop.time()
            boards = await self.views()
            if boards:
                await self.send(json.dumps({"type": "boards", "boards": boards},
                                           ensure_ascii=False))
                self.messages += 1
            # Whatever changes meanwhile waits for the next message (coalesced).
            await asyncio.sleep(max(0.0, self.interval - (loop.time() - started)))

    def close(self) -> None:
        """Stop following every game."""
        for live, key in self.watched.values():
            self.hub.unsubscribe(live, key)
        self.watched.clear()
        self.dirty.clear()
