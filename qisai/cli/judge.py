"""``qisai judge``: rule on a repetition (棋例) from a position and its moves."""

from __future__ import annotations

import json

import typer


def judge(
    moves: str = typer.Option(..., "--moves", "-m", help="The moves, in ICCS, WXF or Chinese notation."),
    fen: str = typer.Option("startpos", "--fen", help="Position before the first move."),
    profile: str = typer.Option("cxa", "--rules", "--profile", "-r",
                                help="cxa (default, Chinese rules) or axf."),
    occurrences: int | None = typer.Option(None, "--occurrences", help="Occurrence that is ruled on (default 3)."),
    as_json: bool = typer.Option(False, "--json", help="Print the whole ruling as JSON."),
    english: bool = typer.Option(False, "--english", help="Explain in English instead of Chinese."),
) -> None:
    """Play MOVES from FEN and print the first repetition ruling.

    The last line is the verdict alone: red_loses, black_loses, draw,
    red_must_change, black_must_change, or none when no repetition is ruled
    on; the explanation (or with --json the labels, reasons and clauses)
    comes before it.  Exits 0, or 1 for a bad FEN, move or rules name.
    """
    from qisai.xiangqi import STARTING_FEN, Board, XiangqiError
    from qisai.xiangqi.notation import parse_line
    from qisai.xiangqi.qili import first_ruling

    start = STARTING_FEN if fen == "startpos" else fen
    try:
        board = Board(start)
        iccs = [m.iccs() for m in parse_line(board, moves)]
        ruling = first_ruling(start, iccs, profile, occurrences)
    except XiangqiError as exc:
        typer.echo(typer.style("error:", fg="red") + f" {exc}")
        raise typer.Exit(1) from exc
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
