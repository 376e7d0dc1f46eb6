"""Storage: migrations, users, sessions, games and their event log, ratings,
tournaments."""

from __future__ import annotations

import datetime as dt

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from qisai.store import ConflictError, Database, NotFoundError, repo
from qisai.store.models import Base, GameStatus, Role


def test_migrations_produce_the_models(db: Database) -> None:
    with db.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(ctx, Base.metadata)
    assert diff == []


def test_downgrade_to_base_and_up_again(db: Database) -> None:
    db.downgrade("base")
    assert "games" not in inspect(db.engine).get_table_names()
    db.upgrade()
    assert {"users", "games", "game_events", "pairings"} <= set(inspect(db.engine).get_table_names())


def test_user_names_are_unique_case_insensitively(db: Database) -> None:
    with db.session() as s:
        u = repo.create_user(s, "Wang", password_hash="x")
        assert u.role == Role.PLAYER.value
        with pytest.raises(ConflictError, match="taken"):
            repo.create_user(s, "wang", password_hash="y")
        assert repo.find_user(s, "WANG") is not None
        assert repo.find_user(s, "li") is None
        with pytest.raises(NotFoundError):
            repo.get_user(s, 999)


def test_guest_has_no_password_and_guest_role(db: Database) -> None:
    with db.session() as s:
        g = repo.create_guest(s)
        assert g.password_hash is None and g.role_enum is Role.GUEST
        assert g.username.startswith("guest-")
        assert not Role.GUEST.allows(Role.PLAYER)
        assert Role.ORGANISER.allows(Role.ARBITER)


def test_sessions_store_only_a_hash_and_expire(db: Database) -> None:
    with db.session() as s:
        u = repo.create_user(s, "zhang", password_hash="x")
        token, csrf = repo.create_session(s, u.id, dt.timedelta(hours=1))
        found = repo.session_user(s, token)
        assert found is not None and found[0].id == u.id and found[1] == csrf
        assert repo.session_user(s, token + "x") is None
        repo.delete_session(s, token)
        assert repo.session_user(s, token) is None
        old, _ = repo.create_session(s, u.id, dt.timedelta(seconds=-1))
        assert repo.session_user(s, old) is None
        keyed, _ = repo.create_session(s, u.id, dt.timedelta(hours=1), pepper=b"k1")
        assert repo.session_user(s, keyed) is None  # the hash is keyed
        assert repo.session_user(s, keyed, pepper=b"k2") is None
        assert repo.session_user(s, keyed, pepper=b"k1") is not None
    with db.engine.connect() as conn:
        from sqlalchemy import text
        stored = [r[0] for r in conn.execute(text("SELECT token_hash FROM sessions"))]
    assert token not in stored and old not in stored


def test_a_seat_can_be_taken_only_once(db: Database) -> None:
    with db.session() as s:
        a = repo.create_user(s, "a", password_hash="x")
        b = repo.create_user(s, "b", password_hash="x")
        c = repo.create_user(s, "c", password_hash="x")
        g = repo.create_game(s, kind="xiangqi", ruleset="casual", settings={},
                             first_user_id=a.id, second_user_id=None, created_by_id=a.id)
        assert g.status == GameStatus.WAITING.value
        g2 = repo.seat_player(s, g.id, 1, b.id)
        assert g2.status == GameStatus.ACTIVE.value and g2.second_user_id == b.id
        with pytest.raises(ConflictError, match="seat 1"):
            repo.seat_player(s, g.id, 1, c.id)
        with pytest.raises(NotFoundError, match="nope"):
            repo.seat_player(s, "nope", 1, c.id)


def test_event_log_appends_in_order_and_rejects_a_stale_writer(db: Database) -> None:
    with db.session() as s:
        a = repo.create_user(s, "a", password_hash="x")
        g = repo.create_game(s, kind="xiangqi", ruleset="casual", settings={},
                             first_user_id=a.id, second_user_id=None, created_by_id=a.id)
        seqs = repo.append_events(s, g.id, 0, [
            repo.NewEvent("start", at_ms=1000),
            repo.NewEvent("move", at_ms=2000, side=0, ply=1, actor_id=a.id, data={"move": "h2e2"}),
        ], move_count=1)
        assert seqs == [1, 2]
    # A second writer that has seen only the first event loses the race.
    with db.session() as s2:
        with pytest.raises(ConflictError, match="past event 1"):
            repo.append_events(s2, g.id, 1, [repo.NewEvent("move", at_ms=3000, side=0, ply=1)])
        repo.append_events(s2, g.id, 2, [repo.NewEvent("move", at_ms=3000, side=1, ply=2,
                                                       data={"move": "h9g7"})],
                           move_count=2, status=GameStatus.FINISHED,
                           result={"reason": "resignation"}, result_code="0-1")
    with db.session() as s3:
        events = repo.load_events(s3, g.id)
        assert [(e.seq, e.kind, e.ply) for e in events] == [(1, "start", None), (2, "move", 1),
                                                           (3, "move", 2)]
        assert events[1].data == {"move": "h2e2"}
        assert [e.seq for e in repo.load_events(s3, g.id, after_seq=2)] == [3]
        game = repo.get_game(s3, g.id)
        assert (game.event_count, game.move_count, game.status, game.result_code) == (
            3, 2, "finished", "0-1")
        assert game.ended_at is not None
        assert [x.id for x in repo.list_games(s3, user_id=a.id)] == [g.id]
        assert repo.list_games(s3, status=GameStatus.ACTIVE) == []
        with pytest.raises(NotFoundError):
            repo.append_events(s3, "missing", 0, [repo.NewEvent("start", at_ms=1)])


def test_elo_and_rating_history(db: Database) -> None:
    assert repo.elo_update(1500, 1500, 1.0) == (1510.0, 1490.0)
    hi, lo = repo.elo_update(1900, 1500, 0.0)
    assert hi < 1900 - 18 and lo > 1500 + 18  # an upset moves ratings a lot
    with db.session() as s:
        a = repo.create_user(s, "a", password_hash="x")
        b = repo.create_user(s, "b", password_hash="x")
        g = repo.create_game(s, kind="go", ruleset="chinese", settings={}, rated=True,
                             first_user_id=a.id, second_user_id=b.id, created_by_id=a.id)
        repo.record_ratings(s, g.id, 0.5)
        assert repo.get_user(s, a.id).rating == 1500.0
        repo.record_ratings(s, g.id, 1.0)
        hist = repo.rating_history(s, a.id)
        assert [(h.before, h.after) for h in hist] == [(1500.0, 1500.0), (1500.0, 1510.0)]
        assert repo.get_user(s, b.id).rating == 1490.0


def test_tournament_entries_rounds_and_results(db: Database) -> None:
    with db.session() as s:
        org = repo.create_user(s, "org", password_hash="x", role=Role.ORGANISER)
        t = repo.create_tournament(s, name="Club RR", kind="xiangqi", format="round_robin",
                                   ruleset="cxa", organiser_id=org.id)
        for name in ["A", "B", "C"]:
            repo.add_entry(s, t.id, name, team="East" if name != "C" else None)
        u = repo.create_user(s, "d", password_hash="x")
        repo.add_entry(s, t.id, "D", user_id=u.id)
        with pytest.raises(ConflictError, match="already registered"):
            repo.add_entry(s, t.id, "D again", user_id=u.id)
        assert [e.number for e in repo.list_entries(s, t.id)] == [1, 2, 3, 4]
        rnd = repo.create_round(s, t.id, 1, [(1, 4), (2, 3)])
        with pytest.raises(ConflictError, match="round 1 exists"):
            repo.create_round(s, t.id, 1, [(1, 2)])
        with pytest.raises(NotFoundError, match="entry number 9"):
            repo.create_round(s, t.id, 2, [(1, 9)])
        rounds = repo.list_rounds(s, t.id)
        assert len(rounds) == 1 and rounds[0][0].id == rnd.id
        p = rounds[0][1][0]
        repo.set_pairing_result(s, p.id, "1-0", "otb")
        again = repo.list_rounds(s, t.id)[0][1][0]
        assert (again.result, again.result_source) == ("1-0", "otb")
        with pytest.raises(NotFoundError):
            repo.get_tournament(s, 12345)
