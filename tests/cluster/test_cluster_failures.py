"""When a part of the cluster fails mid-game (issue 30): a process that
stored a move and died before publishing it, PostgreSQL away, Redis away,
an engine worker killed while it thinks.  Real ``qisai serve`` processes
on a PostgreSQL schema and a Redis of the test's own (see ``conftest``).

The truth each test checks against is the database's log (what was
stored, hence acknowledged) and the referee's clock rules (4.1.4: the flag
falls at its time; the clock of the side to move runs)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from qisai.store import Database, repo
from tests.cluster.conftest import Socket, register
from tests.cluster.test_cluster_servers import join, new_game, play_line

pytestmark = pytest.mark.slow

CAUGHT_UP = 3.0
"""Seconds a socket may stay behind the database once the part is back
(the issue's "frozen" bound)."""


def store_as_a_dead_process(db_url: str, gid: str, username: str, action: dict[str, Any]
                            ) -> None:
    """Store ``action`` of ``username`` in game ``gid`` the way a server
    process does (the hub's own append, committed), then vanish without
    publishing it: what a process killed between its commit and its
    publish leaves behind."""
    from qisai.store.models import User
    from qisai.web.play.hub import Hub

    async def run() -> None:
        db = Database(db_url)
        hub = Hub(db)
        try:
            with db.session() as s:
                user = s.query(User).filter_by(username=username).one()
                s.expunge(user)
            ack = await hub.act(gid, user, action)
            assert ack["duplicate"] is False
        finally:
            await hub.stop_engines()
            db.dispose()

    asyncio.run(run())


def wait_state(sock: Socket, ply: int, seconds: float = CAUGHT_UP) -> dict[str, Any]:
    """Return the first message (a full state or an update) that shows
    ``ply`` plies on ``sock``, within ``seconds``."""
    deadline = time.monotonic() + seconds
    for msg in sock.seen:
        if msg["type"] in ("state", "update") and msg["state"]["ply"] >= ply:
            return dict(msg["state"])
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"the socket still shows ply "
                                 f"{[m['state']['ply'] for m in sock.seen if 'state' in m][-1:]} "
                                 f"{seconds} s after ply {ply} was stored")
        try:
            sock.next("__none__", timeout=left)
        except (AssertionError, TimeoutError):
            pass
        for msg in sock.seen:
            if msg["type"] in ("state", "update") and msg["state"]["ply"] >= ply:
                return dict(msg["state"])


def test_a_move_stored_but_never_published_reaches_every_socket(cluster: Any) -> None:
    """30.1: the database is the truth.  A resend of the stored ply, the
    relay's own comparison with the database, a reconnect and a REST read
    all find the copy behind and every socket is told, with the right
    clock running."""
    a, b, c = cluster(3)
    red, black = register(a.base, "red"), register(b.base, "black")
    gid = new_game(a.base, red, kind="xiangqi", time={"minutes": 10})
    join(b.base, black, gid)
    wr, wb, spec = Socket(a.ws, gid, red), Socket(b.ws, gid, black), Socket(c.ws, gid)
    for s in (wr, wb, spec):
        s.next("state")
    play_line([wr, wb, spec], [wr, wb], ["h2e2", "h9g7"])

    # Red's third move is stored by a process that dies before publishing.
    store_as_a_dead_process(cluster.db_url, gid, "red",
                            {"type": "move", "ply": 3, "move": "h0g2", "id": "m3"})
    # Red reconnects to B and sends the move again: acknowledged once, and
    # every socket of every process learns of it, Black's clock running.
    again = Socket(b.ws, gid, red)
    assert again.next("state")["state"]["ply"] == 3  # the reconnect: the database's copy
    again.send({"type": "move", "ply": 3, "move": "h0g2", "id": "m3"})
    ack = again.next("ack")
    assert ack["ply"] == 3 and ack["duplicate"] is True
    for s in (wb, spec, wr):
        st = wait_state(s, 3)
        assert st["clocks"]["running"] == "second" and st["to_move"] == "second"
    rest = httpx.get(f"{c.base}/api/games/{gid}", timeout=10).json()
    assert rest["ply"] == 3 and rest["clocks"]["running"] == "second"

    # Black's answer stored the same way, nobody resending or reconnecting:
    # the processes compare their copies with the database on their own.
    store_as_a_dead_process(cluster.db_url, gid, "black",
                            {"type": "move", "ply": 4, "move": "i9h9", "id": "m4"})
    for s in (wr, wb, spec, again):
        st = wait_state(s, 4)
        assert st["clocks"]["running"] == "first"
    # And play goes on across the processes from the database's state.
    wr.send({"type": "move", "ply": 5, "move": "i0h0", "id": "m5"})
    assert wr.next("ack")["duplicate"] is False
    for s in (wb, spec, again):
        wait_state(s, 5)
    db = Database(cluster.db_url)
    try:
        with db.session() as sess:
            plies = [e.ply for e in repo.load_events(sess, gid) if e.kind == "move"]
    finally:
        db.dispose()
    assert plies == [1, 2, 3, 4, 5]
    for s in (wr, wb, spec, again):
        s.close()
