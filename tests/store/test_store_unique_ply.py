"""The database itself stores a ply once per game (issue 15, migration
0003): even a writer that gets past the log's conditional append (here one
that writes the events table directly, as a buggy second process could)
cannot store a second event of the same ply, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from qisai.store import ConflictError, Database, repo
from qisai.store.models import GameEvent


def test_a_ply_is_stored_once_per_game(db: Database) -> None:
    with db.session() as s:
        a = repo.create_user(s, "a", password_hash="x")
        g = repo.create_game(s, kind="xiangqi", ruleset="casual", settings={},
                             first_user_id=a.id, second_user_id=None, created_by_id=a.id)
        h = repo.create_game(s, kind="xiangqi", ruleset="casual", settings={},
                             first_user_id=a.id, second_user_id=None, created_by_id=a.id)
        repo.append_events(s, g.id, 0, [repo.NewEvent("start", at_ms=1000),
                                        repo.NewEvent("move", at_ms=2000, side=0, ply=1)])
    with db.session() as s, pytest.raises(IntegrityError):
        s.execute(insert(GameEvent).values(game_id=g.id, seq=3, kind="move", side=0, ply=1,
                                           at_ms=3000, data={}))
        s.commit()
    # Through the store a duplicate ply is a conflict (the loser reloads).
    with db.session() as s, pytest.raises(ConflictError):
        repo.append_events(s, g.id, 2, [repo.NewEvent("move", at_ms=3000, side=0, ply=1)])
    with db.session() as s:
        # Events without a ply never collide, and another game has its own ply 1.
        repo.append_events(s, g.id, 2, [repo.NewEvent("offer_draw", at_ms=3000, side=1),
                                        repo.NewEvent("decline_draw", at_ms=3100, side=0)])
        repo.append_events(s, h.id, 0, [repo.NewEvent("start", at_ms=1000),
                                        repo.NewEvent("move", at_ms=2000, side=0, ply=1)])
        assert [(e.seq, e.ply) for e in repo.load_events(s, g.id)] == [
            (1, None), (2, 1), (3, None), (4, None)]
