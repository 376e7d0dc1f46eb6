"""The database handle: engine, sessions and migrations.

SQLite files are opened in WAL mode with ``synchronous=NORMAL`` by default:
a committed transaction is in the write-ahead log before ``commit`` returns,
so it survives the server process being killed (``kill -9``).  Set
``QISAI_SQLITE_SYNC=FULL`` to survive power loss as well, at the cost of one
``fsync`` per commit.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

__all__ = ["MIGRATIONS", "Database"]

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
            kwargs["pool_pre_ping"] = True
            kwargs["pool_size"] = 10
            kwargs["max_overflow"] = 20
        self.engine: Engine = create_engine(url, connect_args=args, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

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
