"""The page socket of the home page and of TV: ``/ws/lobby``.

One socket for a page, whatever the number of boards on it.  The page
sends ``{"type": "watch", "games": ["id", ...]}`` (at most
:data:`~qisai.web.lobby.live_boards.MAX_BOARDS` ids; a new ``watch`` replaces
the set) and ``{"type": "ping"}``.  The server answers a ``watch`` with
``{"type": "watching", "games": [...], "refused": [{"id", "message"}]}``
and then sends ``{"type": "boards", "boards": [...]}`` with the boards that
changed, coalesced (see :mod:`.feed`).  Anybody may watch a started game,
as anybody may open its page; nobody can watch, or learn anything of, a
game not started (an open seek) through it.

Bounds: a message is JSON text of at most :data:`MAX_LOBBY_FRAME` bytes
(1009 closes the socket above it, 1003 on a binary frame, 1007 on JSON
nested deeper than 4); a client address has at most
:data:`PER_ADDRESS` lobby sockets open and the process
:data:`MAX_SOCKETS` (1013, try again later); a socket from another site's
page is refused (4403).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from qisai.web.bounds import next_message
from qisai.web.lobby.feed import LobbyFeed, WatchError
from qisai.web.play.deps import hub_of
from qisai.web.state import AppState, spawn

__all__ = ["MAX_LOBBY_FRAME", "MAX_SOCKETS", "PER_ADDRESS", "router"]

router = APIRouter()

MAX_LOBBY_FRAME = 4096
"""Bytes of one message from the page (a ``watch`` of 12 ids is ~300)."""
PER_ADDRESS = 8
"""Lobby sockets open at once from one client address."""
MAX_SOCKETS = 2000
"""Lobby sockets open at once in this process."""

_open: Counter[str] = Counter()


def _same_origin(ws: WebSocket) -> bool:
    """The Origin, when a browser sends it, must be this host."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    return origin.split("://", 1)[-1].rstrip("/") == ws.headers.get("host", "")


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    """Follow the live boards a page asks for (see the module)."""
    st: AppState = ws.app.state.qisai
    hub = hub_of(st)
    if not _same_origin(ws):
        await ws.close(code=4403, reason="cross-site socket refused")
        return
    address = ws.client.host if ws.client else "?"
    if _open[address] >= PER_ADDRESS or sum(_open.values()) >= MAX_SOCKETS:
        await ws.close(code=1013, reason="too many live-board sockets; try again later")
        return
    _open[address] += 1
    try:
        await ws.accept()
        await _serve(ws, LobbyFeed(hub, ws.send_text))
    finally:
        _open[address] -= 1
        if _open[address] <= 0:
            del _open[address]


async def _serve(ws: WebSocket, feed: LobbyFeed) -> None:
    async def send(msg: dict[str, Any]) -> None:
        await ws.send_text(json.dumps(msg, ensure_ascii=False))

    pusher = spawn(feed.run())
    try:
        while (msg := await next_message(ws, send, max_bytes=MAX_LOBBY_FRAME,
                                         max_depth=4)) is not None:
            kind = msg.get("type")
            if kind == "ping":
                await send({"type": "pong"})
            elif kind == "watch":
                try:
                    await send(await feed.watch(msg.get("games")))
                except WatchError as exc:
                    await send({"type": "error", "status": exc.status, "message": exc.message})
            else:
                await send({"type": "error", "status": 400,
                            "message": "expected {\"type\": \"watch\", \"games\": [...]} or ping"})
    except WebSocketDisconnect:
        pass
    finally:
        pusher.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pusher
        feed.close()
