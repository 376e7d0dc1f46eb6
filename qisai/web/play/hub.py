"""Live games: the referee's :class:`~qisai.referee.game.Game` behind a lock,
its event log in the database, and the WebSockets that follow it.

How a player's action goes through (the durability rule of the issue):

1. the action becomes a referee :class:`~qisai.referee.events.Event` with the
   server's time and the player's own side (a client never names its side);
2. the referee applies it or raises (nothing is stored then);
3. the new events are appended to the log and **committed**;
4. only then are the notices broadcast and the action acknowledged.

If the commit fails the in-memory game is dropped and rebuilt from the log,
so memory never runs ahead of the database.  Moves carry their ply number:
a repeated submission of the ply already played is acknowledged again
without being applied twice (exactly once).

Several processes may serve one database: appends are conditional on the
events seen (:func:`qisai.store.repo.append_events`), a race's loser reloads
and retries; :mod:`qisai.web.cluster.cluster_hub` relays notices (issue 15)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Any

import anyio
from sqlalchemy.orm import Session

from qisai.engines.errors import EngineMoveError
from qisai.engines.pool import EnginePool
from qisai.referee.errors import EventError, GameOverError, NotYourTurnError, RefereeError
from qisai.referee.events import Event, EventType, Notice
from qisai.referee.verdict import Outcome, Reason, Side
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.store import ConflictError, Database, NotFoundError
from qisai.store.models import GameStatus, Role, User
from qisai.web.play import explain
from qisai.web.play.count_limit import DEFAULT_LIMIT as COUNT_LIMIT
from qisai.web.play.count_limit import end_abandoned_counts
from qisai.web.play.fanout import FanOut
from qisai.web.play.live import (
    ARBITER_ACTIONS,
    PLAYER_ACTIONS,
    ActionError,
    LiveGame,
    Send,
)
from qisai.web.play.quota import Quota
from qisai.web.play.referee_games import notice_data, same_move
from qisai.web.play.resources import default_processes
from qisai.web.play.storage import LoopWriter, WriteBusy, load_live, persist
from qisai.web.play.threads import game_limiter
from qisai.web.seats.draws import DEFAULT_MARGIN_CP, accepts_draw
from qisai.web.seats.lineup import Offered, make_seat
from qisai.web.seats.opponents import (
    BUILTIN,
    GoRequest,
    Seat,
    XiangqiRequest,
    agreement_actions,
    agreement_due,
    fault_verdict,
    go_time_left,
)
from qisai.web.security import RateLimiter
from qisai.web.state import spawn

__all__ = ["ActionHandler", "BoardResult", "BoardStaff", "Hub"]

log = logging.getLogger("qisai.web")

BoardResult = Callable[[Session, int, str], None]
"""Enters a finished server game's result into its event: called with the
game's database session (in the same transaction), the pairing id and the
PGN result.  The events domain provides it (the app wires it in), so that
play never imports events."""

ActionHandler = Callable[["Hub", str, User, dict[str, Any]], Awaitable[dict[str, Any]]]
"""Carries out an action the referee does not know (takeback, a group's vote):
returns the ack, raises :class:`ActionError`; registered at the app's start
(:meth:`Hub.handle`), so that play imports none of those domains."""

FirstLook = Callable[["Hub", str, User, dict[str, Any]], Awaitable["dict[str, Any] | None"]]
"""Looks first at a referee action (:meth:`Hub.intercept`): the ack if it
takes the action, ``None`` to leave it to the referee."""

BoardStaff = Callable[[Session, int, User], "str | None"]
"""Whether a user may rule on (pause, foul, warn, adjudicate) the game of an
event board: called with a database session, the pairing id and the user;
returns ``None`` if he may, else the reason he may not (he is not on the
event's staff, or plays on the board).  The events domain provides it."""


def _now() -> float:
    return time.time()


class Hub:
    """The live games of this process.

    ``time_source`` is the clock the referee games read (seconds; default the
    wall clock, so that times in the log stay meaningful across restarts).
    """

    def __init__(self, db: Database, *, time_source: Callable[[], float] = _now,
                 moves_per_second: int = 10, engine_think: float = 1.0,
                 engines: dict[str, str] | None = None, engine_timeout: float = 60.0,
                 board_result: BoardResult | None = None,
                 engine_pool: EnginePool | None = None, quota: Quota | None = None,
                 board_staff: BoardStaff | None = None) -> None:
        self.db = db
        self.now = time_source
        self.games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._loop_writer = LoopWriter.open(db)  # SQLite appends on the loop, never waiting
        self._next_sub = 0
        self._ticker: asyncio.Task[None] | None = None
        self._engine_tasks: set[asyncio.Task[None]] = set()
        self.fan_out = FanOut()
        self.engine_think = engine_think
        self.engines: dict[str, str] = dict(engines or {})
        """External engines by name: ``gtp:CMD`` (Go), ``[ucci:|uci:]CMD``
        (Xiangqi); see :mod:`qisai.web.seats.opponents`."""
        self.levels: dict[str, Offered] = {}
        """Engines found at start-up, by level (:mod:`qisai.web.seats.lineup`)."""
        self.engine_timeout = engine_timeout
        """Seconds an engine may think in a game without clocks before it
        has failed (with clocks: until its flag falls)."""
        self._seats: dict[str, Seat] = {}  # game id -> its engine
        self._engine_running: dict[str, asyncio.Task[None]] = {}
        self._engine_wake: dict[str, int] = {}
        self._engine_thinking: dict[str, asyncio.Future[Any]] = {}
        self.board_result = board_result
        self.board_staff = board_staff
        """Says who rules on an event's games (see :data:`BoardStaff`);
        ``None``: the site's arbiters, as for casual games."""
        """Enters the result of a game played for an event (see
        :data:`BoardResult`); ``None``: such results are not entered."""
        self.count_limit = COUNT_LIMIT
        """Seconds a Go count waits for a confirmation before the server
        counts it (:mod:`qisai.web.play.count_limit`)."""
        self.draw_margin_cp = DEFAULT_MARGIN_CP
        """An engine accepts a draw offer in an ending when its score is
        within this of level (centipawns; see :mod:`qisai.web.seats.draws`)."""
        self.move_limiter = RateLimiter(moves_per_second, 1.0, burst=2 * moves_per_second)
        self.pool = engine_pool if engine_pool is not None else EnginePool(default_processes())
        """The engine processes every engine seat leases from (qisai's own
        engines too: no engine searches in this process)."""
        self.quota = quota if quota is not None else Quota()
        """How many engine games and open seeks a player may have."""
        self.handlers: dict[str, ActionHandler] = {}  # by action type: see handle
        self.first_looks: list[tuple[frozenset[str], FirstLook]] = []  # see intercept

    def handle(self, kinds: Iterable[str], handler: ActionHandler) -> None:
        """Let ``handler`` carry out the actions of types ``kinds`` through
        :meth:`act`.  Raises :class:`ValueError` for a type the referee or
        another handler already takes (one handler per action type)."""
        kinds = frozenset(kinds)
        taken = kinds & (PLAYER_ACTIONS | ARBITER_ACTIONS | set(self.handlers))
        if taken:
            raise ValueError(f"action types already handled: {', '.join(sorted(taken))}")
        self.handlers.update(dict.fromkeys(kinds, handler))

    def intercept(self, kinds: Iterable[str], handler: FirstLook) -> None:
        """Let ``handler`` look first at the referee's actions of types
        ``kinds``: it returns the acknowledgement when it takes the action
        (a consultation member's resignation is his support for his group's
        motion), ``None`` to leave it to the referee."""
        self.first_looks.append((frozenset(kinds), handler))

    # ------------------------------------------------------------- loading
    def _load_sync(self, game_id: str) -> LiveGame:
        return load_live(self.db, game_id, self.now)

    async def get(self, game_id: str) -> LiveGame:
        """Return the live game ``game_id``, loading and replaying it from the
        database on first use.  Raises :class:`ActionError` (404) if unknown."""
        live = self.games.get(game_id)
        if live is not None:
            if live.stale:  # a failed append left it ahead of the log (30.2)
                async with live.lock:
                    if live.stale:
                        await self._reload(live)
            return live
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            live = self.games.get(game_id)
            if live is None:
                try:
                    live = await anyio.to_thread.run_sync(self._load_sync, game_id,
                                                          limiter=game_limiter())
                except NotFoundError as exc:
                    raise ActionError(404, str(exc)) from None
                self.games[game_id] = live
                fresh = True
            else:
                fresh = False
        self._loading.pop(game_id, None)
        if fresh and live.status == GameStatus.ACTIVE.value and live.game.phase.value == "waiting":
            # Both seats were filled but the start was never logged (a crash
            # in between): start it now.
            await self.start_if_ready(game_id)
        elif fresh:
            self.engine_turn(live)
        return live

    async def _reload(self, live: LiveGame) -> LiveGame:
        """Replace ``live`` by a fresh copy from the database (keeping its
        subscribers); call with ``live.lock`` held."""
        fresh = await anyio.to_thread.run_sync(self._load_sync, live.id, limiter=game_limiter())
        live.game, live.event_count, live.status = fresh.game, fresh.event_count, fresh.status
        live.first_user_id, live.second_user_id = fresh.first_user_id, fresh.second_user_id
        live.players, live.engine = fresh.players, fresh.engine
        live.stale = False
        return live

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (it reloads from the database on next use)."""
        self.games.pop(game_id, None)

    # ------------------------------------------------------------ writing
    def _persist_sync(self, live: LiveGame, new: list[Event], actor_id: int | None,
                      plies: list[int | None]) -> None:
        persist(self.db, live, new, actor_id, plies, self.board_result)

    async def _apply(self, live: LiveGame, event: Event, actor_id: int | None
                     ) -> tuple[list[Notice], EventError | None]:
        """Apply ``event`` to ``live`` and commit what the referee accepted
        (also a flag fall ruled before a refused event).  Call with the lock
        held.  Returns the notices and the referee's refusal, if any."""
        game = live.game
        n_events, n_notices, n_moves = len(game.events), len(game.notices), len(game.moves)
        refusal: EventError | None = None
        try:
            game.apply(event)
        except EventError as exc:
            refusal = exc
        except RefereeError as exc:  # a clock or rules error on a bad input
            refusal = EventError(str(exc))
        new = game.events[n_events:]
        if new:
            plies: list[int | None] = []
            ply = n_moves
            for e in new:
                if e.type in (EventType.MOVE, EventType.PASS):
                    ply += 1
                    plies.append(ply)
                else:
                    plies.append(None)
            try:
                try:
                    # An SQLite append takes well under a millisecond: on the
                    # loop it saves a thread hop per move, but it must never
                    # wait there for the write lock (WriteBusy: to a thread).
                    if self._loop_writer is None or game.is_over:
                        raise WriteBusy("in a worker thread")
                    self._loop_writer.append(live, list(new), actor_id, plies)
                except WriteBusy:
                    await anyio.to_thread.run_sync(self._persist_sync, live, list(new),
                                                   actor_id, plies, limiter=game_limiter())
            except ConflictError:
                # Another process wrote first: our copy is stale.  Reload and
                # let the caller retry with the fresh game.
                await self._reload(live)
                raise
            except Exception:
                # Memory ran ahead of the log: rebuilt in place, its sockets
                # kept; with the database away, before its next use (30.2).
                live.stale = True
                with contextlib.suppress(Exception):
                    await self._reload(live)
                raise
            live.event_count += len(new)
        return game.notices[n_notices:], refusal

    async def broadcast(self, live: LiveGame, notices: list[Notice]) -> None:
        """Send an update (notices, new state) to every socket of ``live``.

        The message is the same for players and spectators (each socket
        learnt its own side, ``you``, from the full state on connect), so it
        is encoded once.
        """
        await self._broadcast_notes(live, [notice_data(n) for n in notices])

    async def _broadcast_notes(self, live: LiveGame, notes: list[dict[str, Any]]) -> None:
        if not live.subscribers:
            return
        state = live.snapshot(None, moves=False)
        del state["you"]
        text = json.dumps({"type": "update", "notices": notes, "state": state},
                          ensure_ascii=False)
        await self.send_local(live, text)

    async def send_local(self, live: LiveGame, text: str) -> None:
        """Send ``text`` to every socket of ``live`` on this process
        (:class:`~qisai.web.play.fanout.FanOut`: the players' at once, the
        spectators' from a task)."""
        await self.fan_out.send(live, text)

    # ------------------------------------------------------------ actions
    async def act(self, game_id: str, user: User, action: dict[str, Any]) -> dict[str, Any]:
        """Carry out ``action`` (``{"type": "move", "ply": 1, "move": "h2e2"}``
        ...) for ``user`` in ``game_id``, the one way in for every action
        (others' by :meth:`handle`); returns the acknowledgement.  Raises
        :class:`ActionError` with a 4xx status for anything refused."""
        kind = action.get("type")
        handler = self.handlers.get(kind) if isinstance(kind, str) else None
        if handler is not None:
            return await handler(self, game_id, user, action)
        if not isinstance(kind, str) or kind not in PLAYER_ACTIONS | ARBITER_ACTIONS:
            known = PLAYER_ACTIONS | ARBITER_ACTIONS | set(self.handlers)
            raise ActionError(400, f"unknown action type {kind!r}; expected one of "
                                   f"{', '.join(sorted(known))}")
        for kinds, first in self.first_looks:
            if kind in kinds and (taken := await first(self, game_id, user, action)) is not None:
                return taken
        if kind in ("move", "pass") and self.move_limiter.hit(f"u{user.id}") > 0:
            raise ActionError(429, "too many moves; slow down")
        live = await self.get(game_id)
        for attempt in range(3):
            async with live.lock:
                try:
                    ack, notices = await self._act_locked(live, user, kind, action)
                except ConflictError:
                    if attempt == 2:
                        raise ActionError(409, f"game {game_id}: busy, try again") from None
                    continue
                if notices:
                    await self.broadcast(live, notices)
            self.engine_turn(live)
            return ack
        raise ActionError(409, f"game {game_id}: busy, try again")  # pragma: no cover

    async def _act_locked(self, live: LiveGame, user: User, kind: str, action: dict[str, Any]
                          ) -> tuple[dict[str, Any], list[Notice]]:
        game = live.game
        where = f"game {live.id}"
        if live.status == GameStatus.WAITING.value:
            raise ActionError(409, f"{where}: the game has not started (waiting for an opponent)",
                              explain.text("not_started"))
        if kind in ARBITER_ACTIONS:
            refused = await self.may_rule(live, user, kind)
            if refused is not None:
                raise ActionError(403, f"{where}: {refused}")
            data = {k: v for k, v in action.items() if k not in ("type", "at", "ply", "id")}
            side: Side | None = None
        else:
            side = live.side_of(user.id)
            if side is None:
                raise ActionError(403, f"{where}: you are not a player of this game",
                                  explain.text("not_a_player"))
            data = {k: v for k, v in action.items()
                    if k in ("move", "claim", "points")}
        if kind in ("move", "pass"):
            ply = action.get("ply")
            if not isinstance(ply, int) or isinstance(ply, bool) or ply < 1:
                raise ActionError(400, f"{where}: a {kind} needs its ply number ('ply': 1, 2, ...)")
            move_text = str(action.get("move", "pass" if kind == "pass" else ""))
            if kind == "move" and not move_text:
                raise ActionError(400, f"{where}: ply {ply}: no move given")
            played = len(game.moves)
            if ply > played + 1:
                # Maybe another process took the moves in between: reload once.
                await self._reload(live)
                game = live.game
                played = len(game.moves)
            if ply <= played:
                rec = game.moves[ply - 1]
                if rec.side is side and same_move(rec.move, move_text, kind):
                    return {"type": "ack", "id": action.get("id"), "ply": ply,
                            "duplicate": True}, []
                raise ActionError(409, f"{where}: ply {ply} was already played "
                                       f"({rec.move}); the next ply is {played + 1}")
            if ply != played + 1:
                raise ActionError(409, f"{where}: ply {ply} is ahead of the game; "
                                       f"the next ply is {played + 1}")
        payload: dict[str, Any] = {"type": kind, "at": self.now(), **data}
        if side is not None:
            payload["side"] = side.name.lower()
        elif "side" in action:
            payload["side"] = action["side"]
        try:
            event = Event.from_dict(payload)
        except EventError as exc:
            raise ActionError(400, f"{where}: {exc}") from None
        notices, refusal = await self._apply(live, event, user.id)
        if refusal is not None:
            if notices:  # a flag fall ruled before the refused action
                await self.broadcast(live, notices)
            # Out of turn and after the end are conflicts with the game's
            # state (409); anything else is a bad action (400).
            status = 409 if isinstance(refusal, NotYourTurnError | GameOverError) else 400
            if status == 400 and kind in ("move", "pass") and explain.blind_seat(live, side):
                blind = explain.text("blind_illegal")  # names no square, lists no move
                raise ActionError(400, f"{where}: {blind['en']}", blind)
            raise ActionError(status, f"{where}: {refusal}",
                              explain.refusal(live, side, kind, action, str(refusal)))
        if (kind in ("move", "pass") and side is not None and action.get("offer_draw") is True
                and "offer_draw" not in explain.allowed_now(live)[side.name.lower()]):
            # 23.1: a draw offered with the move, right after it (so that an
            # engine cannot answer by moving before the offer is made).
            more, _ = await self._apply(live, Event(EventType.OFFER_DRAW, self.now(), side),
                                        user.id)
            notices = [*notices, *more]
        ack = {"type": "ack", "id": action.get("id"), "duplicate": False,
               "ply": len(game.moves) if kind in ("move", "pass") else None,
               "event_count": live.event_count}
        return ack, notices

    async def may_rule(self, live: LiveGame, user: User, kind: str) -> str | None:
        """Return why ``user`` may not take the arbiter's action ``kind``
        in ``live``, or ``None`` if he may (the game page shows the
        arbiter's controls by it).  Nobody rules on a game he plays in
        (17.4); an event's game is ruled on by the event's staff
        (:attr:`board_staff`), a casual game by a site arbiter or
        administrator (an organiser as such rules on no game)."""
        if live.pairing_id is not None and self.board_staff is not None:
            check, pairing_id = self.board_staff, live.pairing_id

            def ask() -> str | None:
                with self.db.session() as s:
                    return check(s, pairing_id, user)
            refused = await anyio.to_thread.run_sync(ask, limiter=game_limiter())
            if refused is not None:
                return refused
        elif user.role not in (Role.ARBITER.value, Role.ADMIN.value):
            return (f"{kind} needs the arbiter role (a site arbiter or administrator rules on "
                    "casual games)")
        if live.plays_in(user.id):  # a seat, or a member of a group side (会商)
            return ("you play in this game: an arbiter may not rule on his own game (17.4); "
                    "another arbiter must rule on it")
        return None

    async def rule(self, game_id: str, pgn_result: str, clause: str, note: str = "",
                   actor_id: int | None = None) -> bool:
        """End game ``game_id``, if still in play, with an arbiter's ruling
        (the referee's ADJUDICATE: reason ``adjudication`` and ``clause``):
        ``pgn_result`` ``1-0`` (the first mover wins), ``0-1`` or
        ``1/2-1/2``.  The clocks stop and no side may move any more.  The
        event's result path calls it when an arbiter enters the result of a
        board whose server game is in play.  Returns whether it ended the game."""
        winner = {"1-0": Side.FIRST, "0-1": Side.SECOND}.get(pgn_result)
        if winner is None and pgn_result != "1/2-1/2":
            raise ValueError(f"rule: {pgn_result!r} is not a PGN result")
        try:
            live = await self.get(game_id)
        except ActionError:
            return False
        notices: list[Notice] = []
        for _ in range(3):
            async with live.lock:
                try:
                    await self._reload(live)
                    if live.game.is_over or live.status not in (GameStatus.ACTIVE.value,
                                                                GameStatus.WAITING.value):
                        return False
                    if live.game.phase.value == "waiting":
                        started, _refused = await self._apply(
                            live, Event(EventType.START, self.now()), None)
                        notices += started
                    event = Event(EventType.ADJUDICATE, self.now(), winner=winner,
                                  outcome=Outcome.WIN if winner is not None else Outcome.DRAW,
                                  reason=Reason.ADJUDICATION, clause=clause, note=note)
                    new, refusal = await self._apply(live, event, actor_id)
                except ConflictError:
                    continue
                notices += new
                if notices:
                    await self.broadcast(live, notices)
            self.engine_turn(live)
            return refusal is None
        return False

    async def start_if_ready(self, game_id: str) -> None:
        """Start the referee game (the START event) once both seats are
        taken; does nothing if it has started."""
        live = await self.get(game_id)
        async with live.lock:
            await self._reload(live)
            if live.game.phase.value != "waiting":
                return
            if live.status != GameStatus.ACTIVE.value:
                return
            if any(len(g.get("members", ())) < 2 or g.get("invited")
                   for g in live.settings.groups.values()):
                return  # a consultation side plays once all invited answered, two in (会商)
            try:
                notices, refusal = await self._apply(live, Event(EventType.START, self.now()),
                                                     None)
            except ConflictError:
                return  # another process started it; our copy has reloaded
            if refusal is not None:  # pragma: no cover - a fresh game always starts
                raise ActionError(409, f"game {game_id}: {refusal}")
        await self.broadcast(live, notices)
        self.engine_turn(live)

    # ------------------------------------------------------------- engine
    # The engine of a game is driven by one task at a time (a GTP or UCI
    # process answers one command at a time).  The task takes steps while
    # the engine has something to do: a move in its turn, or its part of
    # the dead-stone agreement (Go 4(4)).  It thinks outside the game's lock,
    # then applies its answer only if the game is still where it was.

    ENGINE_STEPS = 20
    """Steps one engine task may take before it yields (it never spins)."""
    ENGINE_GRACE = 2.0
    """Seconds past its flag time a silent engine gets before it has failed
    (the ticker rules the flag fall itself)."""

    def _engine_due(self, live: LiveGame) -> bool:
        game = live.game
        side = live.engine_side
        if side is None or game.is_over:
            return False
        phase = game.phase.value
        if phase == "playing":
            return game.to_move is side
        # Go 4(4): in the dead-stone phase the engine marks and confirms;
        # the agreement step says whether it has anything to do now.
        return phase == "scoring"

    def engine_turn(self, live: LiveGame) -> None:
        """Let the engine of ``live`` act if it is due (in the background);
        stop its process once the game is over."""
        running = self._engine_running.get(live.id)
        if live.game.is_over:
            # Ended while the engine thought or waited (a resignation, a
            # flag, the arbiter): its answer is not wanted and its process
            # is no longer needed (the task closes it as it stops).
            thinking = self._engine_thinking.get(live.id)
            if thinking is not None:
                thinking.cancel()  # the task then stops and closes the seat
            elif running is None and live.id in self._seats:
                task = spawn(self._close_seat(live.id))
                self._engine_tasks.add(task)
                task.add_done_callback(self._engine_tasks.discard)
            return
        if not self._engine_due(live):
            return
        if running is not None and not running.done():
            # It is busy: make it look again before it stops.
            self._engine_wake[live.id] = self._engine_wake.get(live.id, 0) + 1
            return
        task = spawn(self._engine_loop(live))
        self._engine_running[live.id] = task
        self._engine_tasks.add(task)
        task.add_done_callback(self._engine_tasks.discard)

    async def _engine_loop(self, live: LiveGame) -> None:
        try:
            for _ in range(self.ENGINE_STEPS):
                wake = self._engine_wake.get(live.id, 0)
                acted = await self._engine_step(live)
                if not acted and self._engine_wake.get(live.id, 0) == wake:
                    break
        finally:
            self._engine_running.pop(live.id, None)
            self._engine_wake.pop(live.id, None)
            if live.game.is_over:
                await self._close_seat(live.id)

    def _seat(self, live: LiveGame) -> Seat:
        """Return the engine seat of ``live`` (made on first use).  Raises
        :class:`RuntimeError` for an engine this server does not know."""
        seat = self._seats.get(live.id)
        if seat is not None:
            return seat
        seat = make_seat(live.engine or BUILTIN, live.kind, self.engines, self.levels,
                         self.pool, live.id)
        seat.on_wait = lambda waiting: self._engine_waiting(live, waiting)
        self._seats[live.id] = seat
        return seat

    ENGINE_WAITING: dict[str, Any] = {"type": "engine_waiting", "at": None, "side": None,
        "zh": "引擎忙，等待中", "en": "engine busy, waiting", "clause": None, "data": {}}
    ENGINE_READY: dict[str, Any] = {"type": "engine_ready", "at": None, "side": None,
        "zh": "引擎已就绪，思考中", "en": "engine free, thinking", "clause": None, "data": {}}

    def _engine_waiting(self, live: LiveGame, waiting: bool) -> None:
        """The engine of ``live`` starts (or stops) waiting for a free
        engine process: say so on the game's sockets (the page shows the
        notice) and in its state (``engine_status``)."""
        live.engine_status = "waiting" if waiting else None
        note = self.ENGINE_WAITING if waiting else self.ENGINE_READY
        task = spawn(self._broadcast_notes(live, [note]))
        self._engine_tasks.add(task)
        task.add_done_callback(self._engine_tasks.discard)

    def _request(self, live: LiveGame, side: Side) -> GoRequest | XiangqiRequest:
        """What the engine needs to move, copied under the game's lock."""
        game = live.game
        now = self.now()
        think = self.engine_think
        clock = game.clock_reading(side)
        if clock is not None:
            think = min(think, max(0.05, clock / 30))
        deadline = game.clock.deadline() if game.clock is not None else None
        if deadline is not None:
            timeout = max(0.0, deadline - now) + self.ENGINE_GRACE
        else:
            timeout = max(self.engine_timeout, think * 3)
        if isinstance(game, XiangqiGame):
            return XiangqiRequest(game.board.copy(), think, timeout)
        try:
            left = go_time_left(game, side, now)
        except RefereeError:  # a clock read at an instant it has passed
            left = None
        return GoRequest(game.board.copy(), game.grules, side, think, timeout, left)

    async def _engine_step(self, live: LiveGame) -> bool:
        """Let the engine take one action; return whether it acted (or the
        game moved on while it thought, so it must look again)."""
        async with live.lock:
            if not self._engine_due(live):
                return False
            side = live.engine_side
            assert side is not None
            game = live.game
            scoring = game.phase.value == "scoring"
            if scoring and not agreement_due(game, side):
                # It has confirmed, or the opponent is marking and confirms
                # first (4(4)): nothing to do until he does.
                return False
            where = (live.event_count, len(game.moves), game.phase)
            # 23.1: a draw offer is answered before the engine moves.
            offered = not scoring and game.pending_offer is side.other
            try:
                seat = self._seat(live)
            except (RuntimeError, ValueError) as exc:
                seat, failure = None, exc
            request = self._request(live, side)
        if seat is None:
            await self._engine_failed(live, side, failure)
            return False
        own: frozenset[Any] = frozenset()
        answer = ""
        accept = False
        if offered:
            asked: asyncio.Future[Any] = asyncio.ensure_future(
                accepts_draw(seat, request, side, live.kind, self.draw_margin_cp))
        elif scoring:
            assert isinstance(request, GoRequest)
            asked = asyncio.ensure_future(seat.dead_stones(request))
        else:
            asked = asyncio.ensure_future(seat.move(request))
        # Held apart from this task, so that the end of the game can stop the
        # wait (and nothing else: never a write in progress).
        self._engine_thinking[live.id] = asked
        try:
            if offered:
                accept = bool(await asked)
            elif scoring:
                own = await asked
            else:
                answer = await asked
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if asked.cancelled() and task is not None and not task.cancelling():
                return False  # the game ended while the engine thought
            raise
        except Exception as exc:  # any failure of the engine is ruled, never raised
            await self._engine_failed(live, side, exc)
            return False
        finally:
            self._engine_thinking.pop(live.id, None)
        async with live.lock:
            game = live.game
            now = (live.event_count, len(game.moves), game.phase)
            if now != where or not self._engine_due(live):
                return True  # the game moved on meanwhile: look again
            if offered:
                events = [Event(EventType.ACCEPT_DRAW if accept else EventType.DECLINE_DRAW, 0.0,
                                side)]
            elif scoring:
                events = agreement_actions(game, side, own)
            elif answer == "resign":
                events = [Event(EventType.RESIGN, 0.0, side)]
            elif answer == "pass" and live.kind == "go":
                events = [Event(EventType.PASS, 0.0, side)]
            else:
                events = [Event(EventType.MOVE, 0.0, side, move=answer)]
            notices: list[Notice] = []
            for template in events:
                event = replace(template, at=self.now())
                try:
                    new, refusal = await self._apply(live, event, None)
                except ConflictError:
                    return True  # another process wrote first; reloaded
                notices += new
                if refusal is not None:
                    if not game.is_over and not scoring and not offered:
                        # The referee refused the engine's move (casual
                        # rules reject illegal moves): it loses for it
                        # (4.1.6; Go 12(1)).
                        ruling = fault_verdict(game, side, EngineMoveError(
                            f"illegal move {answer}: {refusal}", answer), self.now())
                        ruling = replace(ruling, reason=Reason.ILLEGAL_MOVE)
                        try:
                            new, _ = await self._apply(live, ruling, None)
                        except ConflictError:
                            return True
                        notices += new
                    elif not game.is_over:
                        log.error("engine %s: %s refused in game %s: %s", live.engine,
                                  event.type.value, live.id, refusal)
                    break
            if notices:
                await self.broadcast(live, notices)
            return bool(events)

    async def _engine_failed(self, live: LiveGame, side: Side, exc: BaseException) -> None:
        """Rule the failure ``exc`` of the engine playing ``side``: the game
        is lost for it (see :func:`~qisai.web.seats.opponents.fault_verdict`),
        unless it has ended already (a flag fall while it was silent)."""
        log.warning("engine %s failed in game %s: %s: %s", live.engine, live.id,
                    type(exc).__name__, exc)
        notices: list[Notice] = []
        async with live.lock:
            game = live.game
            if not game.is_over and live.engine_side is side:
                try:
                    notices, refusal = await self._apply(
                        live, fault_verdict(game, side, exc, self.now()), None)
                except ConflictError:  # another process wrote first; it rules
                    refusal = None
                if refusal is not None and not game.is_over:  # pragma: no cover
                    log.error("engine failure ruling refused in game %s: %s", live.id, refusal)
        if notices:
            await self.broadcast(live, notices)
        await self._close_seat(live.id)

    async def _close_seat(self, game_id: str) -> None:
        seat = self._seats.get(game_id)
        if seat is None:
            return
        await seat.close()
        # Forgotten only once closed: a close cut short (shutdown) is done
        # again by stop_engines.
        if self._seats.get(game_id) is seat:
            del self._seats[game_id]

    async def stop_engines(self) -> None:
        """Cancel engine searches still waiting to move and stop external
        engine processes (shutdown)."""
        for task in list(self._engine_tasks):
            task.cancel()
        for task in list(self._engine_tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for game_id in list(self._seats):
            await self._close_seat(game_id)
        await self.pool.close()

    # -------------------------------------------------------- subscribers
    async def subscribe(self, game_id: str, viewer: int | None, send: Send) -> tuple[LiveGame, int]:
        """Register a socket; returns the game and the key to unsubscribe."""
        live = await self.get(game_id)
        self._next_sub += 1
        key = ((viewer or 0) << 20) | (self._next_sub & 0xFFFFF)
        live.subscribers[key] = send
        return live, key

    def unsubscribe(self, live: LiveGame, key: int) -> None:
        """Forget a socket."""
        live.subscribers.pop(key, None)

    # -------------------------------------------------------------- ticks
    async def tick_all(self) -> None:
        """Let time pass in every running game: flag falls end games (and are
        stored), clock calls (读秒) go out to the sockets.  Engine processes
        idle too long are stopped."""
        self.pool.reap()
        now = self.now()
        for live in self.tick_candidates():
            if live.stale:  # rebuilt from the log first: a flag is ruled on the truth
                with contextlib.suppress(Exception):
                    await self.get(live.id)
                if live.stale:
                    continue
            game = live.game
            if game.is_over or game.clock is None or game.clock.running is None:
                continue
            deadline = game.clock.deadline()
            running = game.clock.running
            if (deadline is not None and deadline - now > 5
                    and game.clock.control.of(running).byoyomi is None):
                # No overtime, so no calls (读秒); and no flag can fall
                # before the next tick.
                continue
            async with live.lock:
                try:
                    notices, _ = await self._apply(live, Event(EventType.TICK, self.now()), None)
                except ConflictError:
                    continue
            if notices:
                await self.broadcast(live, notices)
                self.engine_turn(live)
        await end_abandoned_counts(self)  # counts left unconfirmed (issue 32.4)

    def tick_candidates(self) -> list[LiveGame]:
        """The loaded games this process ticks (all: it is alone)."""
        return list(self.games.values())

    async def _tick_forever(self, period: float) -> None:
        while True:
            await asyncio.sleep(period)
            try:
                await self.tick_all()
            except Exception:  # keep ticking; the error is logged
                log.exception("clock tick failed")

    def start_ticker(self, period: float = 0.5) -> None:
        """Start the background task that calls :meth:`tick_all`."""
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick_forever(period))

    async def stop_ticker(self) -> None:
        """Stop the background ticker (at shutdown: the loop's write connections close too)."""
        if self._loop_writer is not None:
            await self._loop_writer.close()
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._ticker = None
