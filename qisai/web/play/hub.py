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
from typing import Any

import anyio
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from qisai.engines.pool import EnginePool
from qisai.referee.errors import EventError, GameOverError, NotYourTurnError, RefereeError
from qisai.referee.events import Event, EventType, Notice
from qisai.referee.verdict import Outcome, Reason, Side
from qisai.store import ConflictError, Database, NotFoundError
from qisai.store.models import GameStatus, Role, User
from qisai.web.play import explain
from qisai.web.play.count_limit import DEFAULT_LIMIT as COUNT_LIMIT
from qisai.web.play.count_limit import end_abandoned_counts
from qisai.web.play.engine_turns import EngineTurns
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
from qisai.web.play.threads import ending_limiter, game_limiter
from qisai.web.seats.draws import DEFAULT_MARGIN_CP
from qisai.web.seats.lineup import Offered
from qisai.web.seats.opponents import (
    Seat,
)
from qisai.web.security import RateLimiter

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


class Hub(EngineTurns):
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
                    # a game's end enters its event's result: on threads of
                    # its own, so the games' threads stay free for moves
                    await anyio.to_thread.run_sync(persist, self.db, live, list(new), actor_id,
                                                   plies, self.board_result,
                                                   limiter=ending_limiter() if game.is_over
                                                   else game_limiter())
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
            self._stored_now(live, len(new))
        return game.notices[n_notices:], refusal

    def _stored_now(self, live: LiveGame, count: int) -> None:
        """Note that ``live``'s last ``count`` events were just committed (a
        cluster publishes them to the other processes with the update)."""

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
        :class:`ActionError` with a 4xx status for anything refused, and 503
        when the database does not take the change (nothing was stored; the
        copy is rebuilt from the log and the player may send it again, 30.2).

        An action refused on a copy that may be behind the database (see
        :meth:`_caught_up`) is judged once more on the stored state, so a
        player never loses an action to another process's lag."""
        start = time.perf_counter()
        try:
            try:
                ack = await self._carry_out(game_id, user, action)
            except ActionError as exc:
                if not await self._caught_up(game_id, exc):
                    raise
                ack = await self._carry_out(game_id, user, action)
        except (SQLAlchemyError, OSError) as exc:
            log.warning("game %s: an action could not be stored: %s", game_id, exc)
            raise ActionError(503, f"game {game_id}: not stored -- the database does not "
                                   "answer; send it again in a moment (未能保存：数据库无响应，"
                                   "请稍后重发)") from None
        self._acted(action, ack, time.perf_counter() - start)
        return ack

    async def _caught_up(self, game_id: str, refusal: ActionError) -> bool:
        """Whether ``game_id``'s copy was behind the database when it refused
        an action and is now reloaded (the action is then judged again).  One
        process's copy is the database's: ``False``; a cluster's may lag."""
        return False

    def _acted(self, action: dict[str, Any], ack: dict[str, Any], seconds: float) -> None:
        """Note an action carried out in ``seconds`` (a cluster counts moves)."""

    async def _carry_out(self, game_id: str, user: User, action: dict[str, Any]
                         ) -> dict[str, Any]:
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
