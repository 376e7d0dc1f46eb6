"""The arena's server games in the database: a game loaded and replayed from
its event log, and new events appended with the game's status, result and
ratings (blocking calls, which the hub runs in worker threads; an SQLite
append may run on the event loop through a :class:`LoopWriter`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import anyio
from sqlalchemy import event, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, aliased

from qisai.referee.events import Event
from qisai.store import Database, repo
from qisai.store.models import Game as GameRow
from qisai.store.models import GameStatus, User
from qisai.web.play.game_settings import GameSettings
from qisai.web.play.live import LiveGame, game_summary
from qisai.web.play.referee_games import ServerGame, new_referee_game, result_data
from qisai.web.play.takeback import replay
from qisai.web.play.threads import game_limiter
from qisai.web.state import spawn

__all__ = ["CHECKPOINT_EVERY", "LOOP_WAIT_MS", "LoopWriter", "WriteBusy", "build_game",
           "event_counts", "game_listing", "load_live", "nowait_database", "persist",
           "stored_event_count"]

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 200
"""Appends on the event loop between two checkpoints of SQLite's write-ahead
log, made in a worker thread (see :class:`LoopWriter`)."""


class WriteBusy(Exception):
    """Another connection holds SQLite's write lock: nothing was written
    (the transaction was rolled back); write again from a worker thread."""


LOOP_WAIT_MS = 5
"""Milliseconds an append on the event loop waits for SQLite's write lock
before it gives up (:class:`WriteBusy`) and goes to a worker thread.

Another connection holds that lock only for its commit, a few milliseconds,
and SQLite sleeps in its busy handler with the interpreter lock released,
so that writer's thread runs meanwhile.  Without the wait (0), 2-4 % of an
event day's moves found the lock taken, while boards were finishing and
their results entered, and waited 0.1-2.5 s for one of the games' worker
threads, all four taken by those results (issue 29.4, measured with
``bench/event_day.py``): the moves' round-trip tail."""


def nowait_database(db: Database) -> Database | None:
    """Return a second handle on ``db``'s SQLite file whose connections wait
    at most :data:`LOOP_WAIT_MS` for the write lock (a write that would wait
    longer fails, :func:`persist` raises :class:`WriteBusy`), for appends
    made on the event loop, which must never sleep long on a lock that a
    worker thread holds.  Nor do they checkpoint the write-ahead log
    (``wal_autocheckpoint=0``): the commit that crosses SQLite's threshold
    would copy the log into the database and sync it, 10-25 ms on the loop
    every few hundred moves; :class:`LoopWriter` has a worker thread do
    it.  Its connections serve those appends only.  ``None`` for another
    database or an in-memory one (a second handle would be another
    database)."""
    if not db.is_sqlite or db.url in ("sqlite://", "sqlite:///:memory:"):
        return None
    fast = Database(db.url)

    def no_wait(dbapi_conn: Any, _record: Any) -> None:  # after the store's own pragmas
        dbapi_conn.execute(f"PRAGMA busy_timeout={int(LOOP_WAIT_MS)}")
        dbapi_conn.execute("PRAGMA wal_autocheckpoint=0")

    event.listen(fast.engine, "connect", no_wait)
    return fast


@contextlib.contextmanager
def _busy_is_write_busy() -> Iterator[None]:
    try:
        yield
    except OperationalError as exc:
        if "locked" in str(exc.orig) or "busy" in str(exc.orig):
            raise WriteBusy(str(exc.orig)) from None  # the session rolls back
        raise


def build_game(row: GameRow, events: list[dict[str, Any]], now: Callable[[], float]
               ) -> ServerGame:
    """Return the referee game of ``row`` with its logged ``events`` replayed
    (with agreed takebacks; see :mod:`qisai.web.play.takeback`)."""
    return replay(lambda: new_referee_game(row.kind, row.ruleset, row.settings, now), events)

def load_live(db: Database, game_id: str, now: Callable[[], float]) -> LiveGame:
    """Load game ``game_id`` and replay its log (blocking: call it in a
    worker thread).  Raises :class:`NotFoundError` if there is none."""
    with db.session() as s:
        row = repo.get_game(s, game_id)
        events = [e.data for e in repo.load_events(s, game_id)]
        players = {}
        for u in (row.first_user, row.second_user):
            if u is not None:
                players[u.id] = {"id": u.id, "name": u.username,  # unique; shown first
                                  "display_name": u.display_name, "rating": round(u.rating)}
        game = build_game(row, events, now)
        return LiveGame(id=row.id, kind=row.kind, ruleset=row.ruleset,
                        settings=GameSettings.read(row.settings),
                        status=row.status, first_user_id=row.first_user_id,
                        second_user_id=row.second_user_id, players=players, game=game,
                        event_count=len(events), engine=row.engine,
                        pairing_id=row.pairing_id, rated=bool(row.rated))


def event_counts(db: Database, game_ids: list[str]) -> dict[str, tuple[int, str]]:
    """Return ``{game id: (events stored, status)}`` for the ``game_ids`` the
    database holds, in one query (blocking: call it in a worker thread);
    a game deleted meanwhile is left out.  Raises SQLAlchemy's errors when
    the database cannot be read."""
    out: dict[str, tuple[int, str]] = {}
    with db.session() as s:
        for start in range(0, len(game_ids), 500):  # bounded IN lists
            chunk = game_ids[start:start + 500]
            rows = s.execute(select(GameRow.id, GameRow.event_count, GameRow.status)
                             .where(GameRow.id.in_(chunk)))
            for gid, count, status in rows:
                out[gid] = (int(count or 0), str(status))
    return out


_FIRST, _SECOND = aliased(User), aliased(User)
_LISTING = (select(GameRow.id, GameRow.kind, GameRow.ruleset, GameRow.status, GameRow.rated,
                   GameRow.engine, GameRow.settings, GameRow.move_count, GameRow.result_code,
                   GameRow.result, GameRow.created_at,
                   _FIRST.id, _FIRST.username, _FIRST.display_name,
                   _SECOND.id, _SECOND.username, _SECOND.display_name)
            .outerjoin(_FIRST, GameRow.first_user_id == _FIRST.id)
            .outerjoin(_SECOND, GameRow.second_user_id == _SECOND.id)
            .order_by(GameRow.created_at.desc()))
"""The columns of :func:`game_listing`, built once (building the statement
took half the list's time)."""


def game_listing(s: Session, *, status: GameStatus | None = None, user_id: int | None = None,
                 kind: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
    """Return games, newest first, filtered by status, player and kind, as
    the lists of games show them (:func:`~qisai.web.play.live.game_summary`).

    Read as plain columns, the players' names joined in: no ORM objects
    (each game and both its players' whole rows).  A burst of these lists
    (twenty clients asking at once, issue 29) took most of the worker
    threads' time, which they take from the event loop that carries the
    moves (the interpreter lock)."""
    q = repo.games_where(_LISTING.limit(limit), status=status, user_id=user_id, kind=kind)
    out = []
    for (gid, gkind, ruleset, gstatus, rated, engine, settings, moves, code, result, created,
         u1, n1, d1, u2, n2, d2) in s.execute(q):
        seat1 = None if u1 is None else SimpleNamespace(id=u1, username=n1, display_name=d1)
        seat2 = None if u2 is None else SimpleNamespace(id=u2, username=n2, display_name=d2)
        out.append(game_summary(SimpleNamespace(
            id=gid, kind=gkind, ruleset=ruleset, status=gstatus, rated=rated, engine=engine,
            settings=settings, move_count=moves, result_code=code, result=result,
            created_at=created, first_user=seat1, second_user=seat2)))
    return out


def stored_event_count(db: Database, game_id: str) -> int:
    """Return how many events of game ``game_id`` the database holds
    (blocking: call it in a worker thread), to tell whether a copy in
    memory is behind.  Raises :class:`NotFoundError` if there is no such
    game, and SQLAlchemy's errors when the database cannot be read."""
    with db.session() as s:
        return repo.get_game(s, game_id).event_count


def persist(db: Database, live: LiveGame, new: list[Event], actor_id: int | None,
            plies: list[int | None], board_result: Callable[..., Any] | None,
            nowait: bool = False) -> None:
    """Append ``new`` (with their plies) to the game's log in one transaction,
    with the game's status, result and ratings; a finished tournament board
    passes its result to ``board_result`` (the events domain).  Raises the
    store's :class:`ConflictError` if another process wrote first; with
    ``nowait`` (``db`` from :func:`nowait_database`) :class:`WriteBusy`,
    nothing written, when another connection is writing."""
    game = live.game
    status = None
    result = None
    code = None
    if game.is_over:
        status = GameStatus.FINISHED
        result = result_data(game)
        code = result["tag"] if result else None
    elif live.status == GameStatus.WAITING.value and game.phase.value != "waiting":
        status = GameStatus.ACTIVE
    rows = [repo.NewEvent(kind=e.type.value, at_ms=int(round(e.at * 1000)),
                          side=None if e.side is None else e.side.value, ply=ply,
                          actor_id=actor_id, data=e.to_dict())
            for e, ply in zip(new, plies, strict=True)]
    with db.session() as s:
        with _busy_is_write_busy() if nowait else contextlib.nullcontext():
            repo.append_events(s, live.id, live.event_count, rows, move_count=len(game.moves),
                               status=status, result=result, result_code=code)
        if status is GameStatus.FINISHED and result is not None:
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result["pgn"])
            if score is not None:
                repo.record_ratings(s, live.id, score)
            row = repo.get_game(s, live.id)
            if row.pairing_id is not None and board_result is not None:
                # a tournament board: the event enters the result
                board_result(s, row.pairing_id, result["pgn"])
    if status is not None:
        live.status = status.value


def checkpoint(db: Database) -> None:
    """Checkpoint ``db``'s write-ahead log without waiting for its readers
    or writers (SQLite's ``PASSIVE`` mode; blocking: call it in a worker
    thread)."""
    with db.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")


class LoopWriter:
    """The games' SQLite appends made on the event loop (a thread hop fewer
    per move), through :func:`nowait_database`, with the write-ahead log
    checkpointed every :data:`CHECKPOINT_EVERY` appends in a worker thread
    of the games (:func:`~qisai.web.play.threads.game_limiter`), one
    checkpoint at a time.  :meth:`open` returns ``None`` for a database
    other than an SQLite file (the hub then writes from worker threads)."""

    def __init__(self, db: Database, fast: Database) -> None:
        self.db = db
        self.fast = fast
        self.checkpoints = 0
        """Checkpoints made so far."""
        self._since = 0
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def open(cls, db: Database) -> LoopWriter | None:
        """Return a writer for ``db``, or ``None`` (see the class)."""
        fast = nowait_database(db)
        return None if fast is None else cls(db, fast)

    def append(self, live: LiveGame, new: list[Event], actor_id: int | None,
               plies: list[int | None]) -> None:
        """:func:`persist` ``new`` on the loop.  Raises :class:`WriteBusy`
        (nothing written) when another connection is writing, and what
        :func:`persist` raises."""
        persist(self.fast, live, new, actor_id, plies, None, True)
        self._since += 1
        if self._since >= CHECKPOINT_EVERY and (self._task is None or self._task.done()):
            self._since = 0
            self._task = spawn(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            await anyio.to_thread.run_sync(checkpoint, self.db, limiter=game_limiter())
            self.checkpoints += 1
        except Exception:  # the next one will try again; SQLite keeps the log
            log.exception("checkpoint of the write-ahead log failed")

    async def close(self) -> None:
        """Wait for a checkpoint under way, then close the connections."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
        self.fast.dispose()
