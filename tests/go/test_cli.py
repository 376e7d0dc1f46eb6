"""``qisai go score`` and ``qisai go replay`` on SGF files."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from qisai.cli import app
from qisai.go.sgf import game_from_board

from .test_scoring import FIXTURES, replay_fixture

runner = CliRunner()


def fixture_file(tmp_path: Path, index: int = 0) -> tuple[Path, dict]:
    game = FIXTURES[index]
    board = replay_fixture(game)
    sgf = game_from_board(board, komi=Fraction(game["komi"]), rules_name="Chinese")
    path = tmp_path / f"game{index}.sgf"
    path.write_text(sgf.to_sgf(), encoding="utf-8")
    return path, game


def test_score_with_gnugo_dead_stones(tmp_path: Path) -> None:
    checked = 0
    for index, game in enumerate(FIXTURES[:12]):
        if game["seki"]:
            continue
        path, game = fixture_file(tmp_path, index)
        dead = " ".join(game["dead"]) or "none"
        result = runner.invoke(app, ["go", "score", str(path), "--dead", dead])
        assert result.exit_code == 0, result.output
        assert result.output.strip().splitlines()[-1] == game["chinese_score"]
        result = runner.invoke(app, ["go", "score", str(path), "--rules", "japanese",
                                     "--dead", " ".join(game["japanese_dead"]) or "none"])
        assert result.output.strip().splitlines()[-1] == game["japanese_score"]
        checked += 1
    assert checked >= 5


def test_score_json_and_komi(tmp_path: Path) -> None:
    path, game = fixture_file(tmp_path, 0)
    result = runner.invoke(app, ["go", "score", str(path), "--json", "--dead", "auto", "--komi", "0"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["komi"] == "0" and data["result"].startswith(("B+", "W+", "0"))
    assert data["result_chinese"] and isinstance(data["dead"], list)
    assert data["black_stones"] + data["white_stones"] + data["black_territory"] + \
        data["white_territory"] + data["shared"] == game["size"] ** 2


def test_replay_reports_first_illegal(tmp_path: Path) -> None:
    good, _game = fixture_file(tmp_path, 1)
    result = runner.invoke(app, ["go", "replay", str(good)])
    assert result.exit_code == 0 and result.output.startswith("ok:")
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1]SZ[9];B[ee];W[ba];B[ff];W[ab];B[aa];W[cc])")
    result = runner.invoke(app, ["go", "replay", str(bad)])
    assert result.exit_code == 1
    assert "move 5" in result.output and "A9" in result.output and "suicide" in result.output


def test_bad_files_and_options(tmp_path: Path) -> None:
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;GM[1]SZ[9];B[ee]")
    for command in (["go", "replay", str(broken)], ["go", "score", str(broken)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and "SGF" in result.output
        assert "Traceback" not in result.output
    missing = runner.invoke(app, ["go", "score", str(tmp_path / "nope.sgf")])
    assert missing.exit_code == 2
    path, _game = fixture_file(tmp_path, 0)
    for options in (["--komi", "x"], ["--dead", "Z99"], ["--dead", "A1 A2 A3 A4 A5 A6 A7 A8 A9"]):
        result = runner.invoke(app, ["go", "score", str(path), *options])
        # an empty point named dead or a bad point is an error, never a crash
        assert result.exit_code in (0, 2), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
