"""``qisai go ...`` commands: score and replay SGF games.

This module does the I/O (reading files, printing); the rules live in
:mod:`qisai.go`, imported by the commands (so that ``qisai --help`` and the
other commands do not pay for it).
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from qisai.bilingual import en_of, zh_of
from qisai.cli import say

if TYPE_CHECKING:
    from fractions import Fraction

    from qisai.go.board import Board
    from qisai.go.rules import Rules
    from qisai.go.sgf import SgfGame

app = typer.Typer(no_args_is_help=True)


class RulesName(StrEnum):
    """Rule sets the CLI offers."""

    chinese = "chinese"
    japanese = "japanese"
    katago_territory = "katago-territory"
    ing = "ing"
    aga = "aga"
    tromp_taylor = "tromp-taylor"


def _load(path: Path) -> SgfGame:
    from qisai.go.errors import GoError
    from qisai.go.sgf import read_sgf

    try:
        data = path.read_bytes()
    except OSError as err:
        raise say.fail(f"无法读取 {path}：{err.strerror}",
                       f"cannot read {path}: {err.strerror}") from None
    try:
        return read_sgf(data)
    except GoError as err:
        raise say.fail(f"{path}：{zh_of(err)}",
                       f"{path}: {en_of(err)}") from None


def _rules(name: RulesName) -> Rules:
    from qisai.go.rules import PRESETS

    return PRESETS[name.value]


def _komi(option: str | None, game: SgfGame) -> Fraction | None:
    """Return the komi to count with: ``--komi`` if given, else the file's
    ``KM`` (read by its ``RU``), else None: the rules decide by the handicap
    (胜负判别 2: a Chinese handicap game has no komi)."""
    from fractions import Fraction

    if option is not None:
        try:
            return Fraction(option)
        except (ValueError, ZeroDivisionError):
            raise say.fail(f"--komi {option!r} 不是数字",
                           f"--komi {option!r} is not a number") from None
    return game.komi


def _points(value: Fraction) -> str:
    """Return a count as players write it: ``37.5``, ``40`` (never ``75/2``)."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


@app.command("score")
def score_command(
    file: Path = typer.Argument(..., help="SGF file of the game (main line)."),
    rules: RulesName = typer.Option(RulesName.chinese, "--rules", help="chinese (数子), japanese (数目, teire deducted), katago-territory (数目, every enclosed point), ing, aga, tromp-taylor."),
    komi: str | None = typer.Option(None, "--komi", help="Komi in points (default: the file's KM, else the rules': none in a Chinese handicap game)."),
    dead: str = typer.Option("auto", "--dead", help='"auto", "none", or points such as "D4 Q16" (whole groups).'),
    as_json: bool = typer.Option(False, "--json", help="Print counts, dead stones and both result forms as JSON."),
    playouts: int = typer.Option(64, "--playouts", help="Random playouts for --dead auto."),
) -> None:
    """Replay FILE, remove the dead stones and print the result (last line: SGF RE form)."""
    from qisai.go.coords import gtp_name, parse_gtp
    from qisai.go.errors import GoError, IllegalMoveError
    from qisai.go.scoring import score as count
    from qisai.go.sgf import replay as replay_game

    game = _load(file)
    the_rules = _rules(rules)
    try:
        komi_value = _komi(komi, game)
        notes: list[str] = []
        board = replay_game(game, the_rules, strict_turn=False, notes=notes)
        for note in notes:
            typer.echo(f"note: {note}", err=True)
    except IllegalMoveError as err:
        raise say.fail(f"{file}：{zh_of(err)}",
                       f"{file}: {en_of(err)}", 1) from None
    except GoError as err:
        raise say.fail(f"{file}：{zh_of(err)}",
                       f"{file}: {en_of(err)}") from None
    try:
        if dead == "auto":
            from qisai.go.deadstones import estimate_dead

            dead_points = sorted(estimate_dead(board, playouts=playouts))
        elif dead == "none":
            dead_points = []
        else:
            dead_points = []
            for word in dead.replace(",", " ").split():
                point = parse_gtp(word, board.size)
                if point is None or board.get(point) is None:
                    raise say.fail(f"--dead {word}：{word.upper()} 处没有棋子",
                                   f"--dead {word}: {word.upper()} names no stone")
                dead_points.append(point)
        result = count(board, dead_points, rules=the_rules, komi=komi_value)
    except GoError as err:
        raise say.fail(f"--dead {dead!r}：{zh_of(err)}",
                       f"--dead {dead!r}: {en_of(err)}") from None
    if as_json:
        typer.echo(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
        return
    size = board.size
    dead_names = sorted({gtp_name(p, size) for p in result.dead})
    typer.echo(f"rules: {the_rules.name}, komi {_points(result.komi)} points, "
               f"handicap {result.handicap}")
    typer.echo(f"dead: {' '.join(dead_names) if dead_names else '(none)'}")
    typer.echo(f"black: {_points(result.black_count)}  white: {_points(result.white_count)}")
    typer.echo(result.result.chinese())
    typer.echo(result.result.sgf())


@app.command("replay")
def replay_command(
    file: Path = typer.Argument(..., help="SGF file to check move by move."),
    rules: RulesName = typer.Option(RulesName.chinese, "--rules", help="chinese (positional superko), japanese (simple ko), katago-territory, ing, aga, tromp-taylor."),
) -> None:
    """Check every move of FILE against the rules; report the first illegal one."""
    from qisai.go.errors import GoError, IllegalMoveError
    from qisai.go.sgf import replay as replay_game

    game = _load(file)
    the_rules = _rules(rules)
    notes: list[str] = []
    try:
        board: Board = replay_game(game, the_rules, notes=notes)
    except IllegalMoveError as err:
        for note in notes:
            typer.echo(f"note: {note}", err=True)
        typer.echo(f"illegal: {err}")
        raise typer.Exit(1) from None
    except GoError as err:
        raise say.fail(f"{file}：{zh_of(err)}",
                       f"{file}: {en_of(err)}") from None
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    typer.echo(f"ok: {board.move_number} moves, all legal ({the_rules.name} rules)")
