"""The socket of a simultaneous display: ``/ws/simuls/{id}``.

One socket carries every board of the display, so that the host's page
(up to :data:`~qisai.competition.simul.MAX_BOARDS` small boards) needs no
socket per board.  Per display and process one :class:`Relay` follows each
board's game once (as one subscriber of the hub) and fans the updates out:

* the host and spectators get every board: ``{"type": "board", "board": 3,
  "msg": {...}}`` where ``msg`` is the game socket's own message (``state``
  on connect, then ``update``);
* an entrant gets his own board the same way, and for the others only
  ``{"type": "progress", "board": n, "ply": p, "host_to_move": false,
  "over": false}``: the board the host last moved on (his progress round
  the ring), at most every quarter second;
* everyone gets ``{"type": "score", ...}`` (the display's view with the
  running score) whenever a board ends.

The client sends a board's actions with its number: ``{"type": "move",
"board": 3, "ply": 1, "move": "h2e2", "id": "c1"}``, or a typed move
``{"type": "typed", "board": 3, "ply": 1, "text": "炮二平五"}``, or a
group member's ``group_vote`` / ``group_confirm`` / ``group_talk`` as on
the game socket (only the board's group members may: 403 otherwise); the hub
decides the side from the account, so only the host moves for the host and
an entrant only on his own board.  Answers are ``ack`` / ``error`` with the
board's number.  Frames are bounded as on the game socket.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from qisai.store import ConflictError
from qisai.store.models import User
from qisai.web.bounds import next_message
from qisai.web.exhibitions import simuls, store
from qisai.web.exhibitions.blindfold import typed_move
from qisai.web.play import explain
from qisai.web.play.deps import hub_of
from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError, LiveGame
from qisai.web.play.socket import socket_user
from qisai.web.state import AppState, spawn

__all__ = ["router", "Relay"]

router = APIRouter()

_RELAYS: weakref.WeakKeyDictionary[Hub, dict[int, Relay]] = weakref.WeakKeyDictionary()


class Listener:
    """One socket of the display: ``board`` None follows every board (host,
    spectator), else only that board in full and the others' progress."""

    def __init__(self, send: Any, board: int | None, blind: bool = False) -> None:
        self.send = send
        self.board = board
        self.blind = blind
        """Its own board's seat plays blindfold: that board's updates come
        without the position (:func:`qisai.web.play.explain.blind_position`)."""


class Relay:
    """Follows every board game of one display and fans the updates out."""

    def __init__(self, app: AppState, hub: Hub, st: store.StoredSimul) -> None:
        self.app, self.hub, self.id = app, hub, st.id
        self.host_id = st.host_id
        self.boards = {b.game_id: b.number for b in st.simul.boards if b.game_id}
        self.listeners: set[Listener] = set()
        self.subs: list[tuple[LiveGame, int]] = []
        self.over: set[int] = {b.number for b in st.simul.boards if b.result is not None}
        self._progress: str | None = None
        self._flusher: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Subscribe once to every board's game."""
        for game_id, number in self.boards.items():
            self.subs.append(await self.hub.subscribe(game_id, None, self._sender(number)))

    def close(self) -> None:
        """Unsubscribe from the games (the last listener left)."""
        if self._flusher is not None:
            self._flusher.cancel()
        for live, key in self.subs:
            self.hub.unsubscribe(live, key)
        self.subs.clear()

    def _sender(self, number: int) -> Any:
        async def send(text: str) -> None:
            await self._fan_out(number, text)
        return send

    async def _fan_out(self, number: int, text: str) -> None:
        full = f'{{"type":"board","board":{number},"msg":{text}}}'
        state = json.loads(text).get("state", {})
        host_seat = (state.get("players") or {}).get(state.get("to_move") or "", {}) or {}
        over = state.get("result") is not None
        progress = json.dumps({"type": "progress", "board": number, "ply": state.get("ply"),
                               "host_to_move": host_seat.get("id") == self.host_id and not over,
                               "over": over})
        # Entrants hear of the other boards only when the host has moved
        # there (his progress round the ring), not of every entrant's reply,
        # and at most every PROGRESS_PERIOD seconds (the latest only): one
        # message to every entrant per host move would cost the most.
        if not over and host_seat.get("id") != self.host_id:
            self._progress = progress
            if self._flusher is None or self._flusher.done():
                self._flusher = spawn(self._flush())
        blind = full
        if not over and any(lis.blind and lis.board == number for lis in self.listeners):
            data = json.loads(text)
            explain.blind_position(data.get("state") or {})
            blind = json.dumps({"type": "board", "board": number, "msg": data},
                               ensure_ascii=False)
        await asyncio.gather(*[self._safe(lis, blind if lis.blind else full)
                               for lis in list(self.listeners) if lis.board in (None, number)])
        if over and number not in self.over:
            self.over.add(number)
            await self.score()

    PROGRESS_PERIOD = 0.25

    async def _flush(self) -> None:
        await asyncio.sleep(self.PROGRESS_PERIOD)
        text, self._progress = self._progress, None
        if text is not None:
            await asyncio.gather(*[self._safe(lis, text) for lis in list(self.listeners)
                                   if lis.board is not None])

    async def _safe(self, lis: Listener, text: str) -> None:
        try:
            await lis.send(text)
        except Exception:  # a dead socket: its own loop removes it
            self.listeners.discard(lis)

    async def score(self) -> None:
        """Copy the finished boards' results into the display and send
        everyone the new view (the running score)."""
        def sync() -> store.StoredSimul:
            with self.app.db.session() as s:
                st = store.load(s, self.id)
                try:
                    store.sync_results(s, st)
                except ConflictError:
                    st = store.load(s, self.id)
                return st
        st = await run_in_threadpool(sync)
        text = json.dumps({"type": "score", "simul": simuls.view(st, None)}, ensure_ascii=False)
        await asyncio.gather(*[self._safe(lis, text) for lis in list(self.listeners)])


async def _relay(app: AppState, hub: Hub, st: store.StoredSimul) -> Relay:
    relays = _RELAYS.setdefault(hub, {})
    relay = relays.get(st.id)
    if relay is None or set(relay.boards) != {b.game_id for b in st.simul.boards if b.game_id}:
        if relay is not None:
            relay.close()
        relay = Relay(app, hub, st)
        relays[st.id] = relay
        await relay.open()
    return relay


def _drop(hub: Hub, relay: Relay, lis: Listener) -> None:
    relay.listeners.discard(lis)
    if not relay.listeners:
        relay.close()
        relays = _RELAYS.get(hub, {})
        if relays.get(relay.id) is relay:
            del relays[relay.id]


@router.websocket("/ws/simuls/{simul_id}")
async def simul_socket(ws: WebSocket, simul_id: int) -> None:
    """Follow (and play, as host or entrant) every board of a display."""
    app: AppState = ws.app.state.qisai
    hub = hub_of(app)
    admitted, user = await socket_user(ws)
    if not admitted:
        return
    await ws.accept()

    async def send(msg: dict[str, Any]) -> None:
        await ws.send_text(json.dumps(msg, ensure_ascii=False))

    try:
        st = await run_in_threadpool(simuls.load_synced, app, simul_id)
    except Exception:
        await send({"type": "error", "status": 404, "message": "没有这场车轮战 / no such simul"})
        await ws.close(code=4404)
        return
    own = None if user is None else st.simul.board_of(simuls.user_key(user.id))
    waiting = await simuls.waiting_boards(hub, st) if st.simul.boards else None
    await send({"type": "simul", "simul": simuls.view(st, user, waiting)})
    by_number = {b.number: b.game_id for b in st.simul.boards if b.game_id}
    if not by_number:  # not started: the page reloads when it is
        await ws.close(code=1000)
        return
    relay = await _relay(app, hub, st)
    blind = False
    if own is not None and user is not None and own.game_id:
        mine = await hub.get(own.game_id)
        blind = explain.blind_seat(mine, mine.side_of(user.id))
    lis = Listener(ws.send_text, None if own is None else own.number, blind)
    relay.listeners.add(lis)
    viewer = None if user is None else user.id
    try:
        for number, game_id in by_number.items():
            if lis.board not in (None, number):
                continue
            live = await hub.get(game_id)
            async with live.lock:
                snap = live.snapshot(viewer)
            await send({"type": "board", "board": number, "msg": {"type": "state", "state": snap}})
        while (msg := await next_message(ws, send)) is not None:
            if msg.get("type") == "ping":
                await send({"type": "pong", "id": msg.get("id")})
                continue
            await send(await _act(hub, by_number, user, msg))
    except WebSocketDisconnect:
        pass
    finally:
        _drop(hub, relay, lis)


async def _act(hub: Hub, by_number: dict[int, str], user: User | None,
               msg: dict[str, Any]) -> dict[str, Any]:
    """Carry out one board's action for ``user``; returns the ack or error."""
    number = msg.get("board")
    base = {"id": msg.get("id"), "board": number}
    if user is None:
        return {"type": "error", "status": 401, **base,
                "message": "spectators cannot act; log in first"}
    if not isinstance(number, int) or isinstance(number, bool) or number not in by_number:
        return {"type": "error", "status": 400, **base,
                "message": f"没有第 {number!r} 台 / there is no board {number!r}"}
    game_id = by_number[number]
    action = {k: v for k, v in msg.items() if k != "board"}
    try:
        if action.get("type") == "typed":
            ack = await typed_move(hub, game_id, user, action.get("text"), action.get("ply"),
                                   action.get("id"))
        else:
            ack = await hub.act(game_id, user, action)
    except ActionError as exc:
        body = exc.body()
        return {"type": "error", "status": exc.status, "message": body.pop("detail"),
                **base, **body}
    return {**ack, "board": number}
