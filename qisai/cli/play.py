"""``qisai play``: a game in the terminal against the built-in engine or a
friend, refereed under the casual rules (Xiangqi) or the Chinese Go rules.

The boards are drawn with Rich: Red's pieces in red and Black's in black on
a light disc, and, so that the text reads without colour too, each side in
its customary characters (Red 帥仕相俥傌炮兵, Black 將士象車馬砲卒).  The Go
game lives in :mod:`qisai.cli.play_go`.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from qisai.xiangqi import Board

__all__ = ["BLACK_PIECE_STYLE", "RED_PIECE_STYLE", "play", "xiangqi_board"]

RED_PIECE_STYLE = "bold red on white"
"""Rich style of Red's pieces."""
BLACK_PIECE_STYLE = "bold black on white"
"""Rich style of Black's pieces."""
_EMPTY_STYLE = "dim"

# Red's and Black's characters, by FEN letter (upper case: Red).
_CHARACTERS = {
    "K": "帥", "A": "仕", "B": "相", "N": "傌", "R": "俥", "C": "炮", "P": "兵",
    "k": "將", "a": "士", "b": "象", "n": "馬", "r": "車", "c": "砲", "p": "卒",
}
_FILES_BLACK = "１２３４５６７８９"  # Black counts files from its right (Red's left)
_FILES_RED = "九八七六五四三二一"    # Red counts files from its right
_FILES_ICCS = "ａｂｃｄｅｆｇｈｉ"


def xiangqi_board(board: Board) -> Text:
    """The position as Rich text: Black's side on top, rank digits 0-9 (ICCS)
    on the left, each side's file numbers (Black's 1-9 above, Red's 九-一
    below) and the ICCS file letters.  Returns the text (print it on a
    Rich console; its plain form reads without colour)."""
    from rich.text import Text

    text = Text()
    text.append("  " + _FILES_BLACK + "\n", style=_EMPTY_STYLE)
    for rank in range(9, -1, -1):
        text.append(f"{rank} ")
        for file in range(9):
            piece = board.piece_at(rank * 9 + file)
            if piece is None:
                text.append("＋", style=_EMPTY_STYLE)
                continue
            letter = piece.symbol()
            style = RED_PIECE_STYLE if letter.isupper() else BLACK_PIECE_STYLE
            text.append(_CHARACTERS[letter], style=style)
        text.append("\n")
        if rank == 5:
            text.append("  " + "～" * 9 + " 楚河 汉界\n", style=_EMPTY_STYLE)
    text.append("  " + _FILES_RED + "\n", style=_EMPTY_STYLE)
    text.append("  " + _FILES_ICCS, style=_EMPTY_STYLE)
    return text


def _fail(out: Console, zh: str, en: str) -> typer.Exit:
    """Print ``错误：ZH`` and ``error: EN`` (issue 32.8) and return the exit
    (status 2) to raise."""
    from qisai.cli.say import print_error

    print_error(out, zh, en)
    return typer.Exit(2)


def play(
    game: str = typer.Option("xiangqi", "--game", help="xiangqi or go."),
    opponent: str = typer.Option("engine", "--opponent", help="'engine' (built-in) or 'friend' "
                                 "(two players at one terminal)."),
    color: str | None = typer.Option(
        None, "--color", help="Your colour against the engine: red or black (Xiangqi, default "
                              "red), black or white (Go, default black)."),
    think: float = typer.Option(1.0, "--think", min=0.05, max=60.0,
                                help="Engine thinking time per move, seconds."),
    notation_name: str = typer.Option("chinese", "--notation",
                                      help="Xiangqi move display: chinese, wxf or iccs."),
    fen: str | None = typer.Option(None, "--fen", help="Xiangqi start position (FEN)."),
    size: int = typer.Option(9, "--size", min=2, max=25, help="Go board size."),
    playouts: int = typer.Option(0, "--playouts", min=0,
                                 help="Go engine: fixed playouts a move instead of --think."),
    seed: int = typer.Option(-1, "--seed", help="Go engine random seed (-1: from the system)."),
) -> None:
    """Play Xiangqi or Go in the terminal, against the built-in engine or a friend.

    Xiangqi (casual rules): moves in Chinese notation (炮二平五), WXF (C2.5)
    or ICCS (h2e2); 'resign', 'draw' or 'quit'.  Go (Chinese rules, area
    counting, the profile's komi): points like D4 (GTP letters, no I),
    'pass', 'resign' or 'quit'; after two passes name stones to mark their
    groups dead, then 'done' for the count.  Exit 0 when the game ends or
    on 'quit', 2 for a bad option.
    """
    from rich.console import Console

    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    if game not in ("xiangqi", "go"):
        raise _fail(err, f"--game {game!r}：请用 xiangqi（象棋）或 go（围棋）",
                    f"--game {game!r}: use xiangqi or go")
    if opponent not in ("engine", "friend"):
        raise _fail(err, f"--opponent {opponent!r}：请用 engine（电脑）或 friend（朋友）",
                    f"--opponent {opponent!r}: use engine or friend")
    if game == "go":
        from qisai.cli.play_go import play_go

        if color not in (None, "black", "white"):
            raise _fail(err, f"--color {color!r}：请用 black（黑）或 white（白）",
                        f"--color {color!r}: use black or white")
        try:
            play_go(out, size=size, opponent=opponent, human_color=color or "black", think=think,
                    playouts=playouts or None, seed=None if seed < 0 else seed)
        except ValueError as exc:
            raise _fail(err, f"不能开局：{exc}", str(exc)) from None
        sys.stdout.flush()
        return
    if color not in (None, "red", "black"):
        raise _fail(err, f"--color {color!r}：请用 red（红）或 black（黑）",
                    f"--color {color!r}: use red or black")
    if notation_name not in ("chinese", "wxf", "iccs"):
        raise _fail(err, f"--notation {notation_name!r}：请用 chinese（中文纵线）、wxf 或 iccs",
                    f"--notation {notation_name!r}: use chinese, wxf or iccs")
    _play_xiangqi(out, err, opponent=opponent, human_red=color != "black", think=think,
                  notation_name=notation_name, fen=fen)
    sys.stdout.flush()


def _play_xiangqi(out: Console, err: Console, *, opponent: str, human_red: bool, think: float,
                  notation_name: str, fen: str | None) -> None:
    """The Xiangqi loop: read the human's moves, let the engine answer,
    print the board after each move and the result at the end."""
    from qisai.referee.errors import EventError
    from qisai.referee.rulesets import ruleset
    from qisai.referee.verdict import Side
    from qisai.referee.xiangqi_game import XiangqiGame
    from qisai.xiangqi import notation

    try:
        game = XiangqiGame(ruleset("casual"), fen=fen, now=time.monotonic)  # type: ignore[arg-type]
    except EventError as exc:
        raise _fail(err, f"不能开局：{exc}", str(exc)) from exc
    game.start()
    human = {Side.FIRST, Side.SECOND} if opponent == "friend" else (
        {Side.FIRST} if human_red else {Side.SECOND})
    searcher = None
    if opponent == "engine":
        from qisai.engines.builtin.xiangqi_search import SearchLimits, XiangqiSearcher

        searcher = XiangqiSearcher(hash_entries=1 << 18)
    while not game.is_over:
        board = game.board
        out.print(xiangqi_board(board))
        side = game.to_move
        who = "红方 Red" if side is Side.FIRST else "黑方 Black"
        if side in human:
            try:
                text = input(f"{who} {'(将军!) ' if board.is_check() else ''}> ").strip()
            except EOFError:
                text = "quit"
            if text in ("quit", "exit"):
                out.print("bye")
                raise typer.Exit(0)
            if text == "resign":
                game.resign(side)
                break
            if text == "draw":
                if opponent == "engine":
                    out.print("the engine plays on (it takes no draw offers)")
                    continue
                game.offer_draw(side)
                game.accept_draw(side.other)
                break
            try:
                move = notation.parse(board, text)
            except ValueError as exc:
                out.print(str(exc), style="red", markup=False)
                continue
            shown = notation.format(board, move, notation_name)
            try:
                game.move(side, move.iccs())
            except EventError as exc:
                out.print(str(exc), style="red", markup=False)
                continue
            out.print(f"{who}: {shown}")
        else:
            assert searcher is not None
            now = time.monotonic()
            result = searcher.search(board.copy(), SearchLimits(soft_deadline=now + think,
                                                                hard_deadline=now + 2 * think))
            if result.move is None:  # no legal move: the referee has ruled already
                break
            shown = notation.format(board, result.move, notation_name)
            game.move(side, result.move.iccs())
            out.print(f"{who}: {shown}")
    out.print(xiangqi_board(game.board))
    if game.result is not None:
        out.print(f"{game.result.pgn_result}  {game.result.explanation_zh}  "
                  f"{game.result.explanation_en}", markup=False)
