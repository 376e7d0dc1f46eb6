"""The relay's order (issue 15 item 1), without a Redis: the messages one
process publishes reach another's copy of the game out of order, late, or
not at all; its sockets still get every update once, in the log's order,
or the full state from the database."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis", reason="the cluster extra (redis) is not installed")

from qisai.store import Database, repo  # noqa: E402
from qisai.web.cluster.cluster_hub import ClusterHub  # noqa: E402
from qisai.web.cluster.relay import Relay  # noqa: E402


class Captured:
    """Stands in for the sending process's relay: keeps what it publishes."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def publish(self, live: Any, first: int, events: list[Any], text: str) -> None:
        self.messages.append({"g": live.id, "f": first, "ev": [e.to_dict() for e in events],
                              "t": text})

    def tick_candidates(self) -> list[Any]:
        return []


def _setup(tmp_path: Path) -> tuple[str, Any, Any, str]:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    db = Database(url)
    db.upgrade()
    with db.session() as s:
        red = repo.create_user(s, "red", password_hash=None)
        black = repo.create_user(s, "black", password_hash=None)
        g = repo.create_game(s, kind="xiangqi", ruleset="casual", settings={},
                             first_user_id=red.id, second_user_id=black.id, created_by_id=red.id)
    db.dispose()
    return url, red, black, g.id


def _run(tmp_path: Path, order: list[int], drop: int | None = None) -> tuple[list[Any], Any]:
    url, red, black, gid = _setup(tmp_path)
    now = [1000.0]

    def clock() -> float:
        now[0] += 1
        return now[0]

    async def scenario() -> tuple[list[Any], Any]:
        a, b = ClusterHub(Database(url), time_source=clock), ClusterHub(Database(url),
                                                                        time_source=clock)
        sent = Captured()
        a.relay = sent  # type: ignore[assignment]
        relay = Relay(b, "redis://127.0.0.1:1/0")  # never connected: messages are fed in
        relay.GAP_WAIT = 0.05
        b.relay = relay
        got: list[Any] = []

        async def sock(text: str) -> None:
            got.append(json.loads(text))

        await a.get(gid)
        await b.subscribe(gid, None, sock)
        sent.messages.clear()  # the start, before the moves
        for ply, (who, mv) in enumerate([(red, "h2e2"), (black, "h9g7"), (red, "h0g2"),
                                         (black, "i9h9")], start=1):
            await a.act(gid, who, {"type": "move", "ply": ply, "move": mv})
        for i in order:
            if i != drop:
                await relay.on_message(sent.messages[i])
        await asyncio.sleep(0.2)  # a gap is given up after GAP_WAIT
        return got, b.games[gid]

    return asyncio.run(scenario())


def _moves(got: list[Any]) -> list[str]:
    return [n["data"]["move"] for m in got if m["type"] == "update" for n in m["notices"]
            if n["type"] == "moved"]


def test_in_order(tmp_path: Path) -> None:
    got, live = _run(tmp_path, [0, 1, 2, 3])
    assert _moves(got) == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert [m.move for m in live.game.moves] == ["h2e2", "h9g7", "h0g2", "i9h9"]


def test_out_of_order_is_put_back_in_order(tmp_path: Path) -> None:
    got, live = _run(tmp_path, [1, 0, 3, 2])
    assert _moves(got) == ["h2e2", "h9g7", "h0g2", "i9h9"]  # each once, in the log's order
    assert live.event_count == 5 and len(live.game.moves) == 4


def test_a_repeat_is_dropped(tmp_path: Path) -> None:
    got, _ = _run(tmp_path, [0, 0, 1, 1, 2, 3, 2])
    assert _moves(got) == ["h2e2", "h9g7", "h0g2", "i9h9"]


def test_a_lost_message_is_made_good_from_the_database(tmp_path: Path) -> None:
    got, live = _run(tmp_path, [0, 1, 2, 3], drop=1)
    # Ply 2's update never came: after the wait the copy reloads and the
    # socket gets the full state (all four moves), then nothing twice.
    assert _moves(got) == ["h2e2"]
    states = [m for m in got if m["type"] == "state"]
    assert len(states) == 1 and [m["move"] for m in states[0]["state"]["moves"]] == [
        "h2e2", "h9g7", "h0g2", "i9h9"]
    assert len(live.game.moves) == 4
