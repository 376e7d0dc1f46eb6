"""Durability: every event acknowledged by a writer survives ``kill -9``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from qisai.store import Database, repo

WRITER = textwrap.dedent("""
    import sys, time
    from qisai.store import Database
    from qisai.store import repo
    db = Database(sys.argv[1])
    game_id = sys.argv[2]
    with db.session() as s:
        n = repo.get_game(s, game_id).event_count
        while True:
            repo.append_events(s, game_id, n, [repo.NewEvent(
                "move", at_ms=int(time.time() * 1000), side=n % 2, ply=n + 1,
                data={"n": n + 1})], move_count=n + 1)
            n += 1
            print(n, flush=True)  # acknowledged only after the commit returned
""")


def test_acknowledged_events_survive_kill_9(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'd.sqlite3'}"
    db = Database(url)
    db.upgrade()
    with db.session() as s:
        u = repo.create_user(s, "a", password_hash=None)
        g = repo.create_game(s, kind="xiangqi", ruleset="casual", settings={},
                             first_user_id=u.id, second_user_id=None, created_by_id=u.id)
    db.dispose()
    env = dict(os.environ)
    proc = subprocess.Popen([sys.executable, "-c", WRITER, url, g.id], stdout=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdout is not None
    acked = 0
    for line in proc.stdout:
        acked = int(line)
        if acked >= 200:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    db = Database(url)
    with db.session() as s:
        events = repo.load_events(s, g.id)
        game = repo.get_game(s, g.id)
    # Every acknowledged event is there, numbered without gaps, and the cached
    # counters agree with the log (nothing half-written).
    assert len(events) >= acked
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert [e.data["n"] for e in events] == list(range(1, len(events) + 1))
    assert game.event_count == len(events) == game.move_count
    db.dispose()
