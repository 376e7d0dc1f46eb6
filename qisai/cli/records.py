"""Record commands: ``qisai convert`` (PGN/XQF/CBL/CBR/CBF to PGN) and ``qisai svg``.

The readers in :mod:`qisai.xiangqi` take bytes; opening files is done here,
at the edge.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from qisai.bilingual import en_of, zh_of
from qisai.cli.say import print_error

if TYPE_CHECKING:
    from rich.console import Console

    from qisai.xiangqi.pgn import Game, PgnError


def _err() -> Console:
    """A console on standard error (rich is imported when first needed)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def read_records(path: Path, *, strict: bool = True, encoding: str | None = None,
                 on_error: Callable[[PgnError], None] | None = None) -> Iterator[Game]:
    """The games in a record file, chosen by its suffix (.pgn .xqf .cbl .cbr .cbf).

    ``encoding`` is the text encoding of a PGN file (default: detected over
    the whole file) or of XQF texts (default GB18030); CBL/CBR/CBF say their
    own.  With ``on_error``, a malformed PGN game goes there and reading
    goes on with the next game.

    Raises :class:`~qisai.xiangqi.XiangqiError` subclasses for malformed
    files, :class:`OSError` if the file cannot be read and
    :class:`LookupError` for an unknown ``encoding``.
    """
    from qisai.xiangqi.cbl import iter_cbl, read_cbf, read_cbr
    from qisai.xiangqi.pgn import iter_games
    from qisai.xiangqi.xqf import read_xqf

    suffix = path.suffix.lower()
    if suffix == ".pgn":
        with open(path, "rb") as fh:
            yield from iter_games(fh, encoding, on_error=on_error)
        return
    data = path.read_bytes()
    if suffix == ".xqf":
        yield read_xqf(data, strict=strict, encoding=encoding or "gb18030")
    elif suffix == ".cbl":
        yield from iter_cbl(data, strict=strict)
    elif suffix == ".cbr":
        yield read_cbr(data, strict=strict)
    elif suffix == ".cbf":
        yield read_cbf(data, strict=strict)
    else:
        raise typer.BadParameter(f"{path}：未知的棋谱类型 {suffix!r}（应为 .pgn、.xqf、.cbl、.cbr "
                                 f"或 .cbf） / {path}: unknown record type {suffix!r} "
                                 "(expected .pgn, .xqf, .cbl, .cbr or .cbf)")


def convert(
    source: Path = typer.Argument(..., exists=True, dir_okay=False, help="PGN, XQF, CBL, CBR or CBF file."),
    output: Path | None = typer.Option(None, "--output", "-o", help="PGN file to write (default: stdout)."),
    notation: str = typer.Option("chinese", "--notation", "-n", help="Move text: chinese, wxf or iccs."),
    encoding: str = typer.Option("utf-8", "--encoding", help="Output encoding: utf-8 (default) or gbk."),
    input_encoding: str | None = typer.Option(
        None, "--input-encoding",
        help="Encoding of a PGN source (default: detected over the whole file: UTF-8, GB18030 or Big5) "
             "or of XQF texts (default gb18030)."),
    lenient: bool = typer.Option(False, "--lenient", help="Drop illegal variations instead of failing."),
) -> None:
    """Read every game of SOURCE and write it as Xiangqi PGN.

    A game that cannot be read (PGN) or written (a character the output
    encoding lacks) is skipped with its number and name; the others are
    written.  When no game is written, no output file is made (exit 1).
    """
    import codecs

    from qisai.xiangqi import XiangqiError
    from qisai.xiangqi.notation import NOTATIONS
    from qisai.xiangqi.pgn import dumps

    err = _err()
    if notation not in NOTATIONS or notation == "engine":
        raise typer.BadParameter(f"未知的记谱法 {notation!r}：请用 chinese、wxf 或 iccs / "
                                 f"unknown notation {notation!r}: chinese, wxf or iccs")
    try:
        codecs.lookup(encoding)
        if input_encoding is not None:
            codecs.lookup(input_encoding)
    except LookupError as exc:
        raise typer.BadParameter(f"编码名称有误（{exc}） / {exc}") from None
    fullwidth = output is not None and \
        encoding.lower().replace("-", "") in ("gbk", "gb2312", "gb18030", "cp936")
    count = skipped = 0

    def read_error(exc: Exception) -> None:
        nonlocal skipped
        skipped += 1
        err.print(f"[yellow]skipped:[/yellow] {exc}")

    out = None
    try:
        try:
            games = read_records(source, strict=not lenient, encoding=input_encoding,
                                 on_error=read_error)
            for number, game in enumerate(games, 1):
                for note in game.warnings:
                    err.print(f"[yellow]warning:[/yellow] {note}")
                # A game is written on its own so that one bad record (a CBL
                # section heading with an empty board, a character the output
                # encoding lacks) is reported and skipped, not fatal to the rest.
                try:
                    text = dumps(game, notation, fullwidth=fullwidth)
                    data = text.encode(encoding if output is not None else "utf-8")
                except XiangqiError as exc:
                    skipped += 1
                    err.print(f"[yellow]skipped game {number} ({_name(game)}):[/yellow] {exc}")
                    continue
                except UnicodeEncodeError as exc:
                    skipped += 1
                    bad = exc.object[exc.start:exc.end]
                    err.print(f"[yellow]skipped game {number} ({_name(game)}):[/yellow] "
                              f"{bad!r} (U+{ord(bad[0]):04X}) cannot be written in {encoding}")
                    continue
                if output is None:
                    sys.stdout.write(("\n" if count else "") + text)
                else:
                    if out is None:
                        out = open(output, "wb")  # noqa: SIM115
                    out.write((b"\n" if count else b"") + data)
                count += 1
        finally:
            if out is not None:
                out.close()
    except (XiangqiError, OSError, LookupError) as exc:
        print_error(err, f"{source}：{zh_of(exc)}", f"{source}: {en_of(exc)}")
        raise typer.Exit(1) from exc
    err.print(f"{count} game(s) converted, {skipped} skipped")
    if count == 0 and output is not None:
        print_error(err, f"{source} 没有一局能写出；未生成 {output}",
                    f"no game of {source} could be written; {output} not made")
        raise typer.Exit(1)


def _name(game: Game) -> str:
    """A game's name for messages: its players and event, or its title."""
    h = game.headers
    players = f"{h.get('Red', '?')} - {h.get('Black', '?')}" if "Red" in h or "Black" in h else ""
    parts = [p for p in (players, h.get("Event") or h.get("Title", "")) if p]
    return ", ".join(parts) or "no name"


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
        print_error(err, f"无法画出局面：{zh_of(exc)}", en_of(exc))
        raise typer.Exit(1) from exc
    err.print(f"wrote {output}")


def register(app: typer.Typer) -> None:
    """Add ``convert`` and ``svg`` to the top-level ``app``."""
    app.command("convert")(convert)
    app.command("svg")(svg)
