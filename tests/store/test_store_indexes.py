"""The home page's game lists read from the index made for them (migration
0005): the database's own planner (EXPLAIN on SQLite and PostgreSQL) is
asked how it runs ``repo.list_games`` by status, newest first."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import event, update

from qisai.store import Database, repo
from qisai.store.models import Game, GameStatus


def fill(db: Database) -> None:
    """Many finished games, some live, few open (as a busy arena has)."""
    with db.session() as s:
        a = repo.create_user(s, "idx_a", password_hash=None)
        b = repo.create_user(s, "idx_b", password_hash=None)
        start = dt.datetime(2026, 1, 1)
        rows = []
        for n in range(3000):
            status = (GameStatus.WAITING if n % 300 == 0 else
                      GameStatus.ACTIVE if n % 10 == 0 else GameStatus.FINISHED)
            rows.append({"id": f"idx{n:05d}", "kind": "xiangqi", "ruleset": "cxa",
                         "settings": {}, "status": status.value, "first_user_id": a.id,
                         "second_user_id": None if status is GameStatus.WAITING else b.id,
                         "created_at": start + dt.timedelta(minutes=n)})
        s.execute(Game.__table__.insert(), rows)
        s.execute(update(Game).where(Game.id == "idx00000").values(
            created_at=start + dt.timedelta(days=30)))  # dates out of id order too
        s.commit()
    with db.engine.connect() as conn:
        conn.exec_driver_sql("ANALYZE" if db.engine.dialect.name == "sqlite"
                             else "ANALYZE games")
        conn.commit()


def plan(db: Database, status: GameStatus) -> str:
    """Return the planner's plan of ``list_games(status=...)`` as text."""
    seen: list[tuple[str, Any]] = []

    def grab(conn: Any, cursor: Any, statement: str, params: Any, context: Any,
             many: bool) -> None:
        seen.append((statement, params))

    event.listen(db.engine, "before_cursor_execute", grab)
    try:
        with db.session() as s:
            games = repo.list_games(s, status=status, limit=20)
    finally:
        event.remove(db.engine, "before_cursor_execute", grab)
    assert games and all(g.status == status.value for g in games)
    assert [g.created_at for g in games] == sorted((g.created_at for g in games), reverse=True)
    statement, params = seen[0]
    sqlite = db.engine.dialect.name == "sqlite"
    with db.engine.connect() as conn:
        rows = conn.exec_driver_sql(("EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN ")
                                    + statement, params).fetchall()
    return "\n".join(str(r[-1] if sqlite else r[0]) for r in rows)


def test_the_home_pages_lists_seek_the_status_created_index(db: Database) -> None:
    fill(db)
    # The statuses that are few among many games; for the finished games
    # (nine in ten here) walking every game by date is as good, and the
    # planner may take either index.
    for status in (GameStatus.WAITING, GameStatus.ACTIVE):
        text = plan(db, status)
        # A seek by status, never a walk over every game by date ...
        assert "ix_games_status_created_at" in text, text
        assert "ix_games_created_at" not in text, text
        # ... read in the index's order, with no sort (PostgreSQL may
        # rightly sort the 10 open games rather than walk the index).
        if status is not GameStatus.WAITING or db.engine.dialect.name == "sqlite":
            assert "TEMP B-TREE" not in text and "Sort" not in text, text
