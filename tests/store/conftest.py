"""Fixtures for the storage tests: a fresh, migrated database per test.

Every test runs on an SQLite file in a temporary folder, and again on
PostgreSQL when ``QISAI_TEST_POSTGRES_URL`` is set (each test in a schema of
its own, dropped afterwards).
"""

from __future__ import annotations

import functools
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from qisai.store import Database

PG_URL = os.environ.get("QISAI_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", "postgresql"]


@functools.cache
def postgres_problem() -> str | None:
    """Why the PostgreSQL runs cannot happen here (one line), or None."""
    if not PG_URL:
        return ("PostgreSQL run left out: QISAI_TEST_POSTGRES_URL not set "
                "(.ci/run starts PostgreSQL and sets it; scripts/install-tools installs it)")
    try:
        engine = create_engine(PG_URL)
        try:
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        finally:
            engine.dispose()
    except Exception as exc:  # noqa: BLE001 - any failure means: not reachable
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return f"PostgreSQL at QISAI_TEST_POSTGRES_URL unreachable: {first}"
    return None


def make_database(backend: str, tmp_path: Path) -> tuple[Database, object]:
    """Return an empty database of ``backend`` and a handle to drop it."""
    if backend == "sqlite":
        return Database(f"sqlite:///{tmp_path / 'test.sqlite3'}"), None
    assert PG_URL is not None
    schema = "qisai_test_" + secrets.token_hex(4)
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    db = Database(PG_URL, connect_args={"options": f"-csearch_path={schema}"})
    return db, (admin, schema)


def drop_database(db: Database, handle: object) -> None:
    """Dispose ``db`` and drop its PostgreSQL schema, if any."""
    db.dispose()
    if handle is not None:
        admin, schema = handle  # type: ignore[misc]
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "postgresql" and (problem := postgres_problem()):
        pytest.skip(problem)
    database, handle = make_database(request.param, tmp_path)
    database.upgrade()
    yield database
    drop_database(database, handle)
