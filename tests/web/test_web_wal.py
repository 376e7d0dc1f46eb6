"""The games' SQLite appends made on the event loop never checkpoint the
write-ahead log there (a checkpoint copies the log into the database and
syncs it: 10-25 ms in which no game moves); a worker thread does it every
``CHECKPOINT_EVERY`` appends (issue 14: no one slows the server for all)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from qisai.store import Database, repo
from qisai.web import Settings, create_app
from qisai.web.play import storage

# 25 points of a 9x9 board, none next to another: no capture, 25 moves.
POINTS = [f"{c}{r}" for r in (1, 3, 5, 7, 9) for c in "ACEGJ"]


@pytest.fixture
def sqlite_client(tmp_path: Path, clock: Any) -> Iterator[TestClient]:
    """An app on an SQLite file whatever database the other tests use: the
    appends on the loop are for SQLite only (PostgreSQL's go to threads)."""
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'wal.sqlite3'}")
    with TestClient(create_app(settings, time_source=clock, tick_period=0.05)) as c:
        yield c


def test_loop_appends_leave_checkpoints_to_a_worker_thread(
        register: Any, sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    client = sqlite_client
    hub = client.app.state.qisai.hub  # type: ignore[attr-defined]
    writer = hub._loop_writer
    assert writer is not None
    monkeypatch.setattr(storage, "CHECKPOINT_EVERY", 10)
    with writer.fast.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == storage.LOOP_WAIT_MS
    with writer.db.engine.connect() as conn:  # the worker threads' connections keep SQLite's
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
    black, white = register(client, "kuro"), register(client, "shiro")
    r = client.post("/api/games", json={"kind": "go", "ruleset": "go-casual", "size": 9,
                                        "color": "first"}, headers=black["headers"])
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=white["headers"]).status_code == 200
    for ply, point in enumerate(POINTS, start=1):
        who = black if ply % 2 else white
        a = client.post(f"/api/games/{gid}/actions", headers=who["headers"],
                        json={"type": "move", "ply": ply, "move": point})
        assert a.status_code == 200, a.text
    deadline = time.monotonic() + 30  # a hang bound: the checkpoint runs in a thread
    while writer.checkpoints < 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert 1 <= writer.checkpoints <= 2  # 25 appends, one every 10, one at a time
    # Every move is in the database, read by a connection of its own.
    other = Database(writer.db.url)
    try:
        with other.session() as s:
            moves = [e.data["move"] for e in repo.load_events(s, gid) if e.kind == "move"]
            wal = s.connection().exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
    finally:
        other.dispose()
    assert moves == POINTS
    assert wal[0] == 0 and wal[1] == wal[2]  # the log is all in the database now


def _holder(path: Path) -> sqlite3.Connection:
    """Another connection of the file holding its write lock (an open
    ``BEGIN IMMEDIATE``), as a worker thread's commit does."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO t VALUES (1)")
    return other


def test_loop_appends_wait_for_a_commit_and_give_up_past_their_bound(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write on the loop's handle waits for the write lock another
    connection holds for its commit (no trip to a worker thread, issue
    29.4), and fails at once past :data:`storage.LOOP_WAIT_MS` (the hub then
    writes from a thread), never waiting for SQLite's usual time-out."""
    path = tmp_path / "busy.sqlite3"
    db = Database(f"sqlite:///{path}")
    with db.engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (x INTEGER)")
    # a bound far beyond the holder's commit: the write waits, then succeeds
    monkeypatch.setattr(storage, "LOOP_WAIT_MS", 30_000)
    fast = storage.nowait_database(db)
    assert fast is not None
    other = _holder(path)
    commit = threading.Timer(0.05, other.execute, ("COMMIT",))
    commit.start()
    try:
        with fast.engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO t VALUES (2)")
    finally:
        commit.join()
        other.close()
        fast.dispose()
    # a lock held past the bound: the write fails, nothing written
    monkeypatch.setattr(storage, "LOOP_WAIT_MS", 20)
    fast = storage.nowait_database(db)
    assert fast is not None
    other = _holder(path)
    try:
        with pytest.raises(OperationalError, match="locked"), fast.engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO t VALUES (3)")
    finally:
        other.execute("COMMIT")
        other.close()
        fast.dispose()
    with db.engine.connect() as conn:
        assert sorted(conn.exec_driver_sql("SELECT x FROM t").scalars()) == [1, 1, 2]
    db.dispose()
