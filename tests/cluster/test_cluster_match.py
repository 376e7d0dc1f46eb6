"""``qisai match ... --queue`` (issue 15 item 4): the games of a match are
played by ``qisai worker`` processes, and the runner keeps the books (the
referee's verdicts, the PGN, the score table)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.test_cluster_worker import start_worker, stop

pytestmark = pytest.mark.slow


def test_match_games_played_by_two_workers(redis_server: Any, tmp_path: Path) -> None:
    workers = [start_worker(redis_server.url, "--matches", "1") for _ in range(2)]
    pgn = tmp_path / "games.pgn"
    try:
        run = subprocess.run(
            [sys.executable, "-m", "qisai", "match", "--game", "xiangqi",
             "--engine", "name=left cmd=builtin", "--engine", "name=right cmd=builtin",
             "--tc", "movetime=0.02", "--games", "4", "--concurrency", "2", "--maxplies", "24",
             "--pgnout", str(pgn), "--queue", redis_server.url],
            capture_output=True, text=True, timeout=300)
    finally:
        for w in workers:
            stop(w)
    assert run.returncode == 0, run.stderr
    # The score table of the four games, each colour twice.
    m = re.search(r"left vs right: \+(\d+) =(\d+) -(\d+)", run.stdout)
    assert m is not None, run.stdout
    assert sum(int(x) for x in m.groups()) == 4
    text = pgn.read_text(encoding="utf-8")
    results = re.findall(r'\[Result "([^"]+)"\]', text)
    assert len(results) == 4 and all(r in ("1-0", "0-1", "1/2-1/2") for r in results)
    # The runner's settings travelled with the games: none over 24 plies.
    for game in text.split("[Event ")[1:]:
        moves = re.sub(r"\{[^}]*\}", "", game.split("\n\n", 1)[-1])  # without comments
        numbers = [int(n) for n in re.findall(r"(?:^|\s)(\d+)\.", moves)]
        assert numbers and max(numbers) <= 12, moves[:200]
    assert "Endings:" in run.stdout


def test_match_queue_refuses_a_bad_url(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "qisai", "match", "--game", "xiangqi",
         "--engine", "name=a cmd=builtin", "--engine", "name=b cmd=builtin",
         "--queue", "http://example.invalid/"],
        capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "not a Redis URL" in run.stderr
