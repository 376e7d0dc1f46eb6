"""``qisai engine xiangqi|go`` and ``qisai match`` through the command line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import typer
from typer.testing import CliRunner

from qisai.cli.engines import register
from qisai.referee.records import xiangqi_from_pgn
from qisai.xiangqi.pgn import parse_pgn

FAKES = Path(__file__).parent / "fakes"


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command("version")
    def _version() -> None:  # a second command keeps "match" a sub-command
        print("test")

    return app


def test_match_command_plays_refereed_games_and_writes_pgn(tmp_path: Path,
                                                          fake: Callable[..., list[str]]) -> None:
    pgn = tmp_path / "out.pgn"
    good = " ".join(fake("xiangqi", "good"))
    bad = " ".join(fake("xiangqi", "garbage"))
    result = CliRunner().invoke(_app(), [
        "match", "--engine", f'name=good cmd="{good}"', "--engine", f'name=bad cmd="{bad}"',
        "--tc", "movetime=0.05", "--games", "2", "--rules", "cxa", "--pgnout", str(pgn),
        "--sprt", "elo0=0 elo1=100"])
    assert result.exit_code == 0, result.output
    assert "good vs bad: +2 =0 -0" in result.output
    assert "Endings: illegal_move 2" in result.output
    assert "SPRT elo0=0 elo1=100" in result.output
    records = parse_pgn(pgn.read_text())
    assert len(records) == 2
    text = pgn.read_text().split("\n\n[")
    game = xiangqi_from_pgn(text[0])
    assert game.result is not None and game.result.reason.value == "illegal_move"


def test_match_command_rejects_bad_settings() -> None:
    runner = CliRunner()
    for args in (["--engine", "name=a"], ["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "soon"],
                 ["--engine", "cmd=a", "--engine", "cmd=b", "--game", "chess"],
                 ["--engine", "cmd=a", "--engine", "cmd=b", "--rules", "japanese"],
                 ["--engine", "cmd=a", "--engine", "cmd=b", "--resign", "moves=3"]):
        result = runner.invoke(_app(), ["match", *args])
        assert result.exit_code == 2, (args, result.output)
        assert "error" in result.output


def test_engine_commands_speak_their_protocols() -> None:
    runner = CliRunner()
    result = runner.invoke(_app(), ["engine", "xiangqi"],
                           input="ucci\nisready\nposition startpos\ngo depth 2\nquit\n")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "ucciok" in lines and "readyok" in lines
    assert any(line.startswith("bestmove ") for line in lines)
    result = runner.invoke(_app(), ["engine", "go", "--playouts", "20", "--seed", "1"],
                           input="boardsize 9\nkomi 7.5\ngenmove b\nquit\n")
    assert result.exit_code == 0
    replies = [b.strip() for b in result.output.split("\n\n") if b.strip()]
    assert replies[:2] == ["=", "="] and replies[2].startswith("= ") and len(replies[2]) > 3
