"""Record commands: ``qisai convert`` (PGN/XQF/CBL/CBR/CBF to PGN) and ``qisai svg``.

The readers in :mod:`qisai.xiangqi` take bytes; opening files is done here,
at the edge.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from qisai.xiangqi.pgn import Game


def _err() -> Console:
    """A console on standard error (rich is imported when first needed)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def read_records(path: Path, *, strict: bool = True) -> Iterator[Game]:
    """The games in a record file, chosen by its suffix (.pgn .xqf .cbl .cbr .cbf).

    Raises :class:`~qisai.xiangqi.XiangqiError` subclasses for malformed
    files and :class:`OSError` if the file cannot be read.
    """
    from qisai.xiangqi.cbl import iter_cbl, read_cbf, read_cbr
    from qisai.xiangqi.pgn import iter_games
    from qisai.xiangqi.xqf import read_xqf

    suffix = path.suffix.lower()
    if suffix == ".pgn":
        with open(path, "rb") as fh:
            yield from iter_games(fh)
        return
    data = path.read_bytes()
    if suffix == ".xqf":
        yield read_xqf(data, strict=strict)
    elif suffix == ".cbl":
        yield from iter_cbl(data, strict=strict)
    elif suffix == ".cbr":
        yield read_cbr(data, strict=strict)
    elif suffix == ".cbf":
        yield read_cbf(data, strict=strict)
    else:
        raise typer.BadParameter(f"{path}: unknown record type {suffix!r} "
                                 "(expected .pgn, .xqf, .cbl, .cbr or .cbf)")


def convert(
    source: Path = typer.Argument(..., exists=True, dir_okay=False, help="PGN, XQF, CBL, CBR or CBF file."),
    output: Path | None = typer.Option(None, "--output", "-o", help="PGN file to write (default: stdout)."),
    notation: str = typer.Option("chinese", "--notation", "-n", help="Move text: chinese, wxf or iccs."),
    encoding: str = typer.Option("utf-8", "--encoding", help="utf-8 (default) or gbk."),
    lenient: bool = typer.Option(False, "--lenient", help="Drop illegal variations instead of failing."),
) -> None:
    """Read every game of SOURCE and write it as Xiangqi PGN."""
    from qisai.xiangqi import XiangqiError
    from qisai.xiangqi.notation import NOTATIONS
    from qisai.xiangqi.pgn import write

    err = _err()
    if notation not in NOTATIONS or notation == "engine":
        raise typer.BadParameter(f"unknown notation {notation!r}: chinese, wxf or iccs")
    count = skipped = 0
    try:
        out = sys.stdout if output is None else open(output, "wb")  # noqa: SIM115
        try:
            for number, game in enumerate(read_records(source, strict=not lenient), 1):
                try:
                    # A game is written on its own so that one bad record
                    # (e.g. a CBL section heading with an empty board) is
                    # reported and skipped, not fatal to the rest.
                    if output is None:
                        write([game], out, notation=notation)
                    else:
                        write([game], out, notation=notation, encoding=encoding)
                    count += 1
                except XiangqiError as exc:
                    skipped += 1
                    err.print(f"[yellow]skipped game {number}:[/yellow] {exc}")
        finally:
            if output is not None:
                out.close()
    except (XiangqiError, OSError, LookupError) as exc:
        err.print(f"[red]error:[/red] {source}: {exc}")
        raise typer.Exit(1) from exc
    err.print(f"{count} game(s) converted, {skipped} skipped")


def svg(
    fen: str = typer.Argument("startpos", help="Position in FEN ('startpos' for the start)."),
    output: Path = typer.Option(Path("board.svg"), "--output", "-o", help="SVG file to write."),
    last_move: str | None = typer.Option(None, "--last-move", help="ICCS move to mark, e.g. h2e2."),
    flipped: bool = typer.Option(False, "--flip", help="Black at the bottom."),
) -> None:
    """Draw a position as an SVG picture."""
    from qisai.xiangqi import Board, Move, XiangqiError
    from qisai.xiangqi.svg import board_svg

    err = _err()
    try:
        board = Board() if fen == "startpos" else Board(fen)
        mark = Move.from_iccs(last_move) if last_move else None
        output.write_text(board_svg(board, flipped=flipped, last_move=mark), encoding="utf-8")
    except (XiangqiError, OSError) as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc
    err.print(f"wrote {output}")


def register(app: typer.Typer) -> None:
    """Add ``convert`` and ``svg`` to the top-level ``app``."""
    app.command("convert")(convert)
    app.command("svg")(svg)
