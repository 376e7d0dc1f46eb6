"""Xiangqi commands: ``qisai perft`` and ``qisai show``."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from qisai.xiangqi import Board


def _console() -> Console:
    """A console on standard output (rich is imported when first needed)."""
    from rich.console import Console

    return Console(highlight=False)


def _board_or_exit(fen: str) -> Board:
    """The position of ``fen`` ('startpos' for the start); exit 2 if it is bad."""
    from qisai.xiangqi import STARTING_FEN, Board, XiangqiError

    try:
        return Board(STARTING_FEN if fen == "startpos" else fen)
    except XiangqiError as exc:
        from qisai.cli.say import print_error

        print_error(_console(), f"FEN 有误：{exc.zh}", f"bad FEN: {exc.en}")
        raise typer.Exit(2) from exc


def perft(
    fen: str = typer.Argument("startpos", help="Position in Xiangqi FEN ('startpos' for the start)."),
    depth: int = typer.Argument(3, min=0, max=12, help="Depth in plies."),
    divide: bool = typer.Option(False, "--divide", help="Print the count below each legal move."),
) -> None:
    """Count the leaf nodes of the legal move tree (perft); the count is the last line."""
    board = _board_or_exit(fen)
    start = time.perf_counter()
    if divide and depth >= 1:
        total = 0
        for move in board.legal_moves():
            board.push_unchecked(move)
            n = board.perft(depth - 1)
            board.pop()
            total += n
            print(f"{move.iccs()}: {n}")
    else:
        total = board.perft(depth)
    elapsed = time.perf_counter() - start
    rate = total / elapsed if elapsed > 0 else 0.0
    typer.secho(f"depth {depth}: {elapsed:.3f} s, {rate:,.0f} nodes/s", dim=True)
    print(total)


def show(
    fen: str = typer.Argument("startpos", help="Position in Xiangqi FEN ('startpos' for the start)."),
) -> None:
    """Print a position with Chinese piece names, its checks and its legal-move count."""
    board = _board_or_exit(fen)
    out = _console()
    out.print(board.unicode())
    side = "红方 Red" if board.turn == 1 else "黑方 Black"
    state = ""
    if board.is_checkmate():
        state = " — 将死 checkmated (3.2, 4.1.1)"
    elif board.is_stalemate():
        state = " — 困毙 stalemated (3.2, 4.1.3)"
    elif board.is_check():
        state = " — 照将 in check (3.1)"
    out.print(f"{side} to move{state}; {len(board.legal_moves())} legal moves")
    out.print(board.fen())


def register(app: typer.Typer) -> None:
    """Add the Xiangqi commands to the top-level ``app``."""
    app.command("perft")(perft)
    app.command("show")(show)
