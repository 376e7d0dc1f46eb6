"""Persistence for qisai: SQLAlchemy 2 models, Alembic migrations, repositories.

SQLite in the data folder is the default (no set-up); PostgreSQL is used when
``QISAI_DATABASE_URL`` names it.  Every write a player is told about is
committed first: :func:`qisai.store.repo.append_events` commits before it
returns, so an acknowledged move survives ``kill -9``.

>>> from qisai.store import Database
>>> db = Database("sqlite://")          # in memory
>>> db.upgrade()                        # Alembic: create or migrate the schema
"""

from qisai.store.config import data_dir, database_url
from qisai.store.db import Database
from qisai.store.errors import ConflictError, NotFoundError, StoreError

__all__ = ["ConflictError", "Database", "NotFoundError", "StoreError", "data_dir", "database_url"]
