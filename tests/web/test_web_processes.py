"""Two server processes on one database (simulated by two hubs): neither
overwrites the other's events; a stale copy reloads from the log."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from qisai.store import Database, repo
from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError


def test_two_hubs_share_one_game(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    db = Database(url)
    db.upgrade()
    with db.session() as s:
        red = repo.create_user(s, "red", password_hash=None)
        black = repo.create_user(s, "black", password_hash=None)
        g = repo.create_game(s, kind="xiangqi", ruleset="casual", settings={},
                             first_user_id=red.id, second_user_id=black.id, created_by_id=red.id)
    now = [1000.0]

    def clock() -> float:
        now[0] += 1
        return now[0]

    async def scenario() -> None:
        a, b = Hub(Database(url), time_source=clock), Hub(Database(url), time_source=clock)
        await a.get(g.id)  # starts the game (both seats were filled)
        await b.get(g.id)  # loads it, already started
        await a.act(g.id, red, {"type": "move", "ply": 1, "move": "h2e2"})
        # Hub b has not seen ply 1; black's ply 2 makes it reload first.
        await b.act(g.id, black, {"type": "move", "ply": 2, "move": "h9g7"})
        # Hub a is stale now: red's ply 3 through a must not overwrite ply 2.
        await a.act(g.id, red, {"type": "move", "ply": 3, "move": "h0g2"})
        with pytest.raises(ActionError) as err:
            await b.act(g.id, black, {"type": "move", "ply": 3, "move": "i9h9"})
        assert err.value.status == 409
        for hub in (a, b):
            hub.forget(g.id)
        fresh = await a.get(g.id)
        assert [m.move for m in fresh.game.moves] == ["h2e2", "h9g7", "h0g2"]

    asyncio.run(scenario())
    with db.session() as s:
        events = repo.load_events(s, g.id)
    assert [(e.seq, e.kind, e.ply) for e in events] == [
        (1, "start", None), (2, "move", 1), (3, "move", 2), (4, "move", 3)]
