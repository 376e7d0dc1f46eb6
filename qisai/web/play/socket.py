"""The WebSocket of a game: ``/ws/games/{id}``.

On connect the server sends ``{"type": "state", "state": {...}}`` (the full
state: the reconnect resumes from it).  The client sends actions
(``{"type": "move", "ply": 7, "move": "h2e2", "id": "c1"}``, ``resign``,
``offer_draw`` ...), ``{"type": "sync"}`` for the full state again, or
``{"type": "ping"}``.  The server answers each action with ``ack`` or
``error`` (``status`` 400/403/404/409/429, a ``message`` in English without
game ids or timestamps, and the reason as ``code``, ``zh``, ``en`` and
``clause`` for the page's language), and sends every
socket an ``update`` (the referee's notices and the new state, without the
socket's own ``you``, which the first ``state`` gave) after each stored
change.  Spectators connect the same way and only receive.

A client's message is JSON text of at most 64 KiB nested at most 32 deep
(:mod:`qisai.web.bounds`); the socket is closed with 1003 on a binary
frame, 1009 on a message too big and 1007 on JSON nested too deep.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from qisai.store import repo
from qisai.store.models import User
from qisai.web.accounts.deps import token_from
from qisai.web.bounds import next_message
from qisai.web.play import explain
from qisai.web.play.deps import hub_of
from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError, LiveGame
from qisai.web.play.threads import lookup_limiter
from qisai.web.state import AppState

__all__ = ["router"]

router = APIRouter()

def _origin_ok(ws: WebSocket) -> bool:
    """Refuse cross-site sockets that ride on the cookie: the Origin, when
    sent, must be this host."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    host = ws.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") == host


async def socket_user(ws: WebSocket) -> tuple[bool, User | None]:
    """Return ``(admitted, user)`` for a socket before it is accepted: the
    account of its session token (header or cookie; ``None`` for a
    spectator without one), looked up off the event loop with the sockets'
    own thread limit.  A cross-site socket riding on the cookie is closed
    (4403) and not admitted."""
    st: AppState = ws.app.state.qisai
    token, via = token_from(ws.headers, ws.cookies)
    if via == "cookie" and not _origin_ok(ws):
        await ws.close(code=4403, reason="cross-site socket refused")
        return False, None
    if not token:
        return True, None

    def lookup() -> User | None:
        with st.db.session() as s:
            found = repo.session_user(s, token, st.settings.pepper)
            return None if found is None else found[0]
    return True, await anyio.to_thread.run_sync(lookup, limiter=lookup_limiter())


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    """Follow and play game ``game_id``."""
    st: AppState = ws.app.state.qisai
    hub: Hub = hub_of(st)  # the one way in for its actions: Hub.act
    admitted, user = await socket_user(ws)
    if not admitted:
        return
    await ws.accept()

    async def send_text(text: str) -> None:
        try:
            await ws.send_text(text)
        except RuntimeError as exc:
            # The client left before or while we answered (uvicorn then
            # refuses the send with a RuntimeError): the same as a disconnect.
            raise WebSocketDisconnect(1006) from exc

    async def send(msg: dict[str, Any]) -> None:
        await send_text(json.dumps(msg, ensure_ascii=False))

    seen: dict[str, LiveGame] = {}

    async def send_update(text: str) -> None:
        # The hub encodes one update for every socket; a blindfold seat's own
        # socket gets it without the position (as its page shows none).
        live = seen.get("live")
        if user is not None and live is not None and not live.game.is_over \
                and explain.blind_seat(live, live.side_of(user.id)):
            data = json.loads(text)
            if isinstance(data.get("state"), dict):
                explain.blind_position(data["state"])
                text = json.dumps(data, ensure_ascii=False)
        await send_text(text)

    try:
        live, key = await hub.subscribe(game_id, user.id if user else None, send_update)
        seen["live"] = live
    except ActionError as exc:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # the client may be gone
            await send({"type": "error", "status": exc.status, "message": exc.message})
            await ws.close(code=4404)
        return
    try:
        async with live.lock:
            snap = live.snapshot(user.id if user else None)
        await send({"type": "state", "state": snap})
        while (msg := await next_message(ws, send)) is not None:
            kind = msg.get("type")
            if kind == "ping":
                await send({"type": "pong", "id": msg.get("id")})
                continue
            if kind == "sync":
                async with live.lock:
                    snap = live.snapshot(user.id if user else None)
                await send({"type": "state", "state": snap})
                continue
            if user is None:
                await send({"type": "error", "status": 401, "id": msg.get("id"),
                            "message": "spectators cannot act; log in or start a guest session"})
                continue
            try:
                # moves, offers, casual comfort (takeback, rematch), a
                # consultation group's votes and talk (会商): all through the hub
                ack = await hub.act(game_id, user, msg)
            except ActionError as exc:
                body = exc.body()
                await send({"type": "error", "status": exc.status, "message": body.pop("detail"),
                            "id": msg.get("id"), **body})
                continue
            await send(ack)
    except WebSocketDisconnect:
        pass
    finally:
        hub.unsubscribe(live, key)
