"""The replay benchmark runs and its two replays agree on the final positions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from sgfmill import boards

from qisai.go.board import Board
from qisai.go.rules import CHINESE, Color

BENCH = Path(__file__).resolve().parents[2] / "bench" / "go_replay.py"


def load_bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("go_replay_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_both_replays_reach_the_same_positions() -> None:
    bench = load_bench()
    for game in bench.load_games():
        ours = Board(19, CHINESE)
        theirs = boards.Board(19)
        if game["handicap_points"]:
            ours.place_handicap(len(game["handicap_points"]), game["handicap_points"])
            for row, col in game["handicap_points"]:
                theirs.play(row, col, "b")
        for color, point in game["points"]:
            ours.play(point, color)
            if point is not None:
                theirs.play(point[0], point[1], "b" if color is Color.BLACK else "w")
        for row in range(19):
            for col in range(19):
                mine = ours.get((row, col))
                other = theirs.get(row, col)
                assert (mine.letter.lower() if mine else None) == other


def test_bench_prints_ratio(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    monkeypatch.setattr(sys, "argv", ["go_replay.py", "--repeat", "1"])
    bench.main()
    out = capsys.readouterr().out
    assert "ratio qisai/sgfmill:" in out and "legal points" in out and "count a finished" in out
