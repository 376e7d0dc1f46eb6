"""A move's write never makes the server's event loop wait for SQLite's
write lock (issue 14 item 2: no one client can slow the server for all).

While another connection holds the write lock (a sign-up or a new game
being written in a worker thread, another process), a move's append does
not sleep on the loop for the lock (``busy_timeout``, 10 s): it goes to a
worker thread and completes once the lock is free, and meanwhile the loop
serves everyone else.  Without a lock held the append stays on the loop
(no thread hop), and the game's log is the same either way.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from qisai.store import Database, repo
from qisai.store.models import Game, User
from qisai.web.play.hub import Hub
from qisai.web.play.threads import GAME_THREADS, game_limiter


def _casual_game(path: Path) -> tuple[Database, User, User, Game]:
    """A fresh SQLite arena at ``path`` with two players and their casual
    Xiangqi game (not yet started)."""
    db = Database(f"sqlite:///{path}")
    db.upgrade()
    with db.session() as s:
        red = repo.create_user(s, "red", password_hash=None)
        black = repo.create_user(s, "black", password_hash=None)
        g = repo.create_game(s, kind="xiangqi", ruleset="casual", settings={},
                             first_user_id=red.id, second_user_id=black.id, created_by_id=red.id)
    return db, red, black, g


def test_a_move_waits_for_the_write_lock_off_the_loop(tmp_path: Path) -> None:
    path = tmp_path / "arena.sqlite3"
    db, red, black, g = _casual_game(path)
    now = [1000.0]

    def clock() -> float:
        now[0] += 1
        return now[0]

    async def scenario() -> None:
        hub = Hub(Database(f"sqlite:///{path}"), time_source=clock)
        await hub.get(g.id)  # starts the game
        await hub.act(g.id, red, {"type": "move", "ply": 1, "move": "h2e2"})  # no lock held
        holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        try:
            move = asyncio.ensure_future(
                hub.act(g.id, black, {"type": "move", "ply": 2, "move": "h9g7"}))
            # the loop goes on serving while the move waits for the lock
            ticks = 0
            for _ in range(20):
                await asyncio.sleep(0.01)
                ticks += 1
                assert not move.done(), "the move was written while the lock was held?"
            assert ticks == 20
        finally:
            holder.rollback()  # the other writer is done
            holder.close()
        ack = await move
        assert ack["ply"] == 2 and ack["duplicate"] is False
        await hub.act(g.id, red, {"type": "move", "ply": 3, "move": "h0g2"})
        hub.forget(g.id)
        fresh = await hub.get(g.id)
        assert [m.move for m in fresh.game.moves] == ["h2e2", "h9g7", "h0g2"]

    asyncio.run(scenario())
    with db.session() as s:
        events = repo.load_events(s, g.id)
    assert [(e.seq, e.kind, e.ply) for e in events] == [
        (1, "start", None), (2, "move", 1), (3, "move", 2), (4, "move", 3)]


def test_a_games_end_is_written_while_the_games_threads_are_taken(tmp_path: Path) -> None:
    """A finished game's last write (with it an event's board result, which
    may wait for the event) runs on threads of its own: with every thread
    of the games taken, a resignation is still stored (issue 29.4)."""
    path = tmp_path / "arena.sqlite3"
    db, red, black, g = _casual_game(path)

    async def scenario() -> None:
        hub = Hub(Database(f"sqlite:///{path}"))
        await hub.get(g.id)
        await hub.act(g.id, red, {"type": "move", "ply": 1, "move": "h2e2"})
        games = game_limiter()
        holders = [object() for _ in range(GAME_THREADS)]
        for holder in holders:  # every game thread busy (say, loading games)
            await games.acquire_on_behalf_of(holder)
        try:
            # bounded only so that a regression fails instead of hanging
            ack = await asyncio.wait_for(hub.act(g.id, black, {"type": "resign"}), 60)
        finally:
            for holder in holders:
                games.release_on_behalf_of(holder)
        assert ack["duplicate"] is False
        assert hub.games[g.id].game.is_over

    asyncio.run(scenario())
    with db.session() as s:
        kinds = [e.kind for e in repo.load_events(s, g.id)]
        assert kinds[:2] == ["start", "move"] and "resign" in kinds[2:]
        assert repo.get_game(s, g.id).status == "finished"
