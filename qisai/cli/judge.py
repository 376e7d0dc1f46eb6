"""``qisai judge``: rule on a repetition (棋例) from a position and its moves."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer

from qisai.cli import say

if TYPE_CHECKING:
    from qisai.xiangqi import Board
    from qisai.xiangqi.qili.rulings import Ruling


def _start_board(fen: str, setup: bool) -> tuple[Board, str | None]:
    """Return the board of ``fen`` and, for a set-up position that play
    cannot reach, why (``None`` when it is reachable).

    Without ``setup`` an unreachable placement is an error that suggests
    ``--setup``.  Raises :class:`XiangqiError` (a :class:`FenError`) for a
    FEN that even the lenient check refuses.
    """
    from qisai.xiangqi import Board, XiangqiError

    try:
        return Board(fen), None
    except XiangqiError as strict:
        lenient = Board(fen, setup=True)  # raises for what no diagram may have
        if not setup:
            raise XiangqiError(f"{strict.zh}；排局（如规则书中的图）请加 --setup 裁决",
                               f"{strict.en}; a set-up diagram (e.g. from a rule book) "
                               "is judged with --setup") from strict
        return lenient, strict.en


def _first_ruling_from(board: Board, iccs: list[str], profile: str,
                       occurrences: int | None) -> Ruling | None:
    """:func:`qisai.xiangqi.qili.cycle.first_ruling` from a board (which may be a
    set-up position): the ruling at the first position where one applies."""
    from qisai.xiangqi.qili.cycle import judge as qili_judge
    from qisai.xiangqi.squares import Move

    b = board.copy()
    for text in iccs:
        b.push(Move.from_iccs(text))
        r = qili_judge(b, profile, occurrences)
        if r is not None:
            return r
    return None


def judge(
    moves: str = typer.Option(..., "--moves", "-m", help="The moves, in ICCS, WXF or Chinese notation."),
    fen: str = typer.Option("startpos", "--fen", help="Position before the first move."),
    profile: str = typer.Option("cxa", "--rules", "--profile", "-r",
                                help="cxa (default, Chinese rules) or axf."),
    occurrences: int | None = typer.Option(None, "--occurrences", help="Occurrence that is ruled on (default 3)."),
    as_json: bool = typer.Option(False, "--json", help="Print the whole ruling as JSON."),
    english: bool = typer.Option(False, "--english", help="Explain in English instead of Chinese."),
    setup: bool = typer.Option(
        False, "--setup", help="Accept a set-up position that play cannot reach (a rule-book "
        "diagram): advisors, elephants and soldiers on any point; piece counts and the "
        "generals in their palaces are still checked.  A warning says so."),
) -> None:
    """Play MOVES from FEN and print the first repetition ruling.

    The last line is the verdict alone: red_loses, black_loses, draw,
    red_must_change, black_must_change, or none when no repetition is ruled
    on; the explanation (or with --json the labels, reasons and clauses)
    comes before it.  With --setup a position play cannot reach is judged
    too, with a warning on stderr.  Exits 0, or 1 for a bad FEN, move or
    rules name.
    """
    from qisai.xiangqi import STARTING_FEN, XiangqiError
    from qisai.xiangqi.notation import parse_line
    from qisai.xiangqi.qili.cycle import first_ruling

    start = STARTING_FEN if fen == "startpos" else fen
    try:
        board, unreachable = _start_board(start, setup)
        if unreachable is not None:
            typer.echo(typer.style("warning:", fg="yellow") + " the position is not reachable "
                       f"in play ({unreachable}); judged as a set-up diagram / "
                       "此局面在实战中不可能出现，按排局裁决", err=True)
        iccs = [m.iccs() for m in parse_line(board, moves)]
        if setup:
            ruling = _first_ruling_from(board, iccs, profile, occurrences)
        else:
            ruling = first_ruling(start, iccs, profile, occurrences)
    except XiangqiError as exc:
        raise say.refused(exc, 1, "局面或着法不合规则：") from exc
    if ruling is None:
        print("none")
        return
    if as_json:
        print(json.dumps(ruling.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(ruling.explanation_en if english else ruling.explanation_zh)
    print(ruling.clause)
    print(ruling.verdict.value)


def register(app: typer.Typer) -> None:
    """Add ``judge`` to the top-level ``app``."""
    app.command("judge")(judge)
