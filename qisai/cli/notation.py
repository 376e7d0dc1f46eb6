"""``qisai notation``: convert Xiangqi moves between notations (clause 7.5).

Wire it with ``register(app)``; the conversion itself lives in
:mod:`qisai.xiangqi.notation`, imported when the command runs.
"""

from __future__ import annotations

import typer

from qisai.cli import say

#: The names of :data:`qisai.xiangqi.notation.NOTATIONS` (a test keeps them
#: equal), here so that the help needs no import of the notation module.
NOTATION_NAMES = ("chinese", "wxf", "iccs", "engine")
_NOTATION_HELP = "One of: " + ", ".join(NOTATION_NAMES) + "."


def notation(
    moves: str = typer.Option(
        ..., "--moves", "-m",
        help="The moves, separated by spaces or commas (move numbers like '1.' are skipped), "
             "e.g. 'h2e2 h9g7' or '炮二平五 马8进7'."),
    to: str = typer.Option("chinese", "--to", "-t", help="Notation to write. " + _NOTATION_HELP),
    from_: str = typer.Option(
        "auto", "--from", "-f",
        help="Notation of --moves: 'auto' (detect each move) or " + ", ".join(NOTATION_NAMES) + "."),
    fen: str = typer.Option("startpos", "--fen", help="Start position in Xiangqi FEN "
                            "('startpos' for the start)."),
    lines: bool = typer.Option(False, "--lines", help="Print one move per line instead of "
                               "one line of space-separated moves."),
) -> None:
    """Convert a sequence of moves played from --fen into another notation.

    Reads ICCS (h2e2), the engine form with ranks 1-10 (h3e3), Chinese
    (炮二平五, 马8进7, 前车进一, the short form 炮25, symbol forms 炮2.5) and
    WXF (C2.5, H8+7, R+.3); writes one canonical form (Chinese: Red's
    numbers 一..九, Black's ASCII digits 1..9, as clause 7.5 prints them).  Prints the converted
    moves on one line separated by spaces (or one per line with --lines), so
    the output can be fed back with --moves.  Exits with status 1 and a
    message naming the move if a move cannot be read, is illegal or is
    ambiguous (the candidates are listed in ICCS); 2 for a bad FEN or option.
    """
    from qisai.xiangqi import STARTING_FEN, Board, XiangqiError
    from qisai.xiangqi.notation import NOTATIONS, format_line, parse_line

    if to not in NOTATIONS:
        raise say.fail(f"--to 须为 {', '.join(NOTATIONS)} 之一，不是 {to!r}",
                       f"--to must be one of {', '.join(NOTATIONS)}, not {to!r}")
    if from_ != "auto" and from_ not in NOTATIONS:
        raise say.fail(f"--from 须为 'auto' 或 {', '.join(NOTATIONS)} 之一，不是 {from_!r}",
                       f"--from must be 'auto' or one of {', '.join(NOTATIONS)}, "
                       f"not {from_!r}")
    try:
        board = Board(STARTING_FEN if fen == "startpos" else fen)
    except XiangqiError as exc:
        raise say.refused(exc, 2, "FEN 有误：", "bad FEN: ") from exc
    try:
        parsed = parse_line(board, moves, None if from_ == "auto" else from_)
        out = format_line(board, parsed, to)
    except XiangqiError as exc:
        raise say.refused(exc, 1) from exc
    typer.echo("\n".join(out) if lines else " ".join(out))


def register(app: typer.Typer) -> None:
    """Add ``qisai notation`` to the top-level ``app``."""
    app.command("notation")(notation)
