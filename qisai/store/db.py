"""The database handle: engine, sessions and migrations.

SQLite files are opened in WAL mode with ``synchronous=NORMAL`` by default:
a committed transaction is in the write-ahead log before ``commit`` returns,
so it survives the server process being killed (``kill -9``).  Set
``QISAI_SQLITE_SYNC=FULL`` to survive power loss as well, at the cost of one
``fsync`` per commit.
"""

from __future__ import annotations

import contextvars
import logging
import os
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

__all__ = ["MIGRATIONS", "Database", "Scope"]

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
"""The Alembic script folder shipped inside the package."""

_SYNC_MODES = {"OFF", "NORMAL", "FULL", "EXTRA"}


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    sync = os.environ.get("QISAI_SQLITE_SYNC", "NORMAL").upper()
    if sync not in _SYNC_MODES:
        sync = "NORMAL"
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute(f"PRAGMA synchronous={sync}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def _pool_timeout() -> float:
    """Seconds a unit of work waits for a pooled connection before the pool
    gives up (``QISAI_DB_POOL_TIMEOUT``, default 5).  SQLAlchemy's default of
    30 s turned a busy moment into a 30 s hang for everyone (issue 29.1); a
    short wait lets the arena answer 503 at once and the client retry."""
    try:
        value = float(os.environ.get("QISAI_DB_POOL_TIMEOUT", "5"))
    except ValueError:
        return 5.0
    return value if value > 0 else 5.0


@dataclass
class Scope:
    """One unit of work that should never hold two pooled connections at
    once: an HTTP request or a socket message (issue 29.1).

    ``held`` is how many connections it holds now; ``nested`` how many times
    it asked for one while it already held one.  A request that holds a
    connection while it waits for a second can starve the pool: with N such
    requests at once, every connection is held by a request waiting for
    another, and all of them wait for the pool's time-out.
    """

    held: int = 0
    nested: int = 0
    closed: bool = False


_SCOPE: ContextVar[Scope | None] = ContextVar("qisai_db_scope", default=None)


class Database:
    """A database reached by an SQLAlchemy URL.

    ``sqlite://`` (memory) keeps one shared connection, so tests can use it
    from several threads.  :meth:`upgrade` brings the schema to the newest
    migration; :meth:`session` opens a unit of work.
    """

    def __init__(self, url: str, *, echo: bool = False, connect_args: dict[str, Any] | None = None
                 ) -> None:
        self.url = url
        args: dict[str, Any] = dict(connect_args or {})
        kwargs: dict[str, Any] = {"echo": echo, "future": True}
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            args.setdefault("check_same_thread", False)
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
            else:
                # An SQLite connection is a file handle: enough of them for
                # every worker thread of the server (anyio's 40 and the
                # games' and look-ups' own), so that a thread never waits
                # for the pool, only, when it writes, for SQLite's lock.
                kwargs["pool_size"] = 20
                kwargs["max_overflow"] = 40
                kwargs["pool_timeout"] = _pool_timeout()
        else:
            kwargs["pool_pre_ping"] = True
            kwargs["pool_size"] = 10
            kwargs["max_overflow"] = 20
            kwargs["pool_timeout"] = _pool_timeout()
        self.engine: Engine = create_engine(url, connect_args=args, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.nested_checkouts = 0
        """How many times a :class:`Scope` asked for a second connection
        while it held one (0 in a healthy server; tests assert it)."""
        self._count_lock = threading.Lock()
        event.listen(self.engine, "checkout", self._on_checkout)
        event.listen(self.engine, "checkin", self._on_checkin)

    @staticmethod
    @contextmanager
    def scope() -> Iterator[Scope]:
        """Count the connections of one unit of work (a request, a socket
        message) while the block runs; yield its :class:`Scope`.  Work
        started inside the block (threads, tasks) counts towards it until
        the block ends."""
        sc = Scope()
        token = _SCOPE.set(sc)
        try:
            yield sc
        finally:
            sc.closed = True
            _SCOPE.reset(token)

    @staticmethod
    def unscoped_context() -> contextvars.Context:
        """Return a copy of the current context outside any :class:`Scope`:
        for a task that runs beside the unit of work that starts it, or
        outlives it (a checkpoint, an engine's loop), whose connections are
        its own and not the request's second."""
        ctx = contextvars.copy_context()
        ctx.run(_SCOPE.set, None)
        return ctx

    def _on_checkout(self, _dbapi: Any, record: Any, _proxy: Any) -> None:
        sc = _SCOPE.get()
        if sc is None or sc.closed:
            return
        with self._count_lock:
            if sc.held:
                sc.nested += 1
                self.nested_checkouts += 1
                # Where in qisai it happened (SQLAlchemy's own frames say nothing).
                ours = [f for f in traceback.extract_stack()
                        if "/qisai/" in f.filename and not f.filename.endswith("store/db.py")]
                where = "".join(traceback.format_list(ours[-6:]))
                log.warning("a unit of work asked for a second database connection while "
                            "holding one (it can starve the pool):\n%s", where)
            sc.held += 1
        record.info["qisai_scope"] = sc

    def _on_checkin(self, _dbapi: Any, record: Any) -> None:
        sc = record.info.pop("qisai_scope", None)
        if sc is not None:
            with self._count_lock:
                sc.held -= 1

    def alembic_config(self) -> Config:
        """Return the Alembic configuration for this database."""
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        return cfg

    def upgrade(self, revision: str = "head") -> None:
        """Migrate the schema to ``revision`` (default the newest).

        Raises :class:`sqlalchemy.exc.SQLAlchemyError` if the database cannot
        be reached or a migration fails (the failed migration is rolled back
        where the backend allows it).
        """
        cfg = self.alembic_config()
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # Several server processes start at once (issue 15): one
                # migrates, the others wait for it in this transaction-wide
                # lock and then find nothing left to do.
                conn.execute(text("SELECT pg_advisory_xact_lock(7101155)"))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)

    def downgrade(self, revision: str) -> None:
        """Migrate the schema back to ``revision`` (``"base"``: empty)."""
        cfg = self.alembic_config()
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, revision)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """Open a session; rolled back if the block raises, closed after.

        The block commits explicitly (repositories commit what they write).
        """
        s = self._sessions()
        try:
            yield s
        except BaseException:
            s.rollback()
            raise
        finally:
            s.close()

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
