"""``qisai convert`` and ``qisai svg`` on the record files other programs wrote."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from qisai.cli import app
from qisai.xiangqi.pgn import parse_pgn

RECORDS = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "records"
runner = CliRunner()


def test_convert_xqf_to_pgn_replays(tmp_path: Path) -> None:
    out = tmp_path / "game.pgn"
    result = runner.invoke(app, ["convert", str(RECORDS / "test.xqf"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    games = parse_pgn(out.read_bytes())
    assert len(games) == 1
    assert games[0].headers["Red"] == "柳大华"
    assert len(games[0].mainline_moves()) == 110
    assert "兵七进一" in out.read_text(encoding="utf-8")


def test_convert_cbl_skips_empty_headings_and_keeps_games(tmp_path: Path) -> None:
    out = tmp_path / "lib.pgn"
    src = RECORDS / "1989年龙化杯象棋名师邀请赛35局.CBL"
    result = runner.invoke(app, ["convert", str(src), "-o", str(out), "-n", "wxf"])
    assert result.exit_code == 0, result.output
    assert "36 game(s) converted, 2 skipped" in result.output
    assert len(parse_pgn(out.read_bytes())) == 36


def test_convert_bad_file_is_a_clear_error() -> None:
    result = runner.invoke(app, ["convert", str(RECORDS / "BadMoveTest3.xqf")])
    assert result.exit_code == 1
    assert "illegal move" in result.output and "ply" in result.output


def test_svg_writes_a_picture(tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    result = runner.invoke(app, ["svg", "--last-move", "h2e2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<svg")
    bad = runner.invoke(app, ["svg", "not a fen", "-o", str(out)])
    assert bad.exit_code == 1
    assert "ranks" in bad.output
