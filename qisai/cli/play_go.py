"""``qisai play --game go``: Go in the terminal, refereed by
:class:`qisai.referee.go_game.GoGame` under the casual Chinese profile
(``go-casual``: area counting, the profile's komi, illegal moves refused).

The built-in engine is :class:`qisai.engines.builtin.go_server.GoServer`,
spoken to in GTP in this process.  After two passes the players name stones
to mark (or unmark) their groups dead, may take the engine's (or, between
friends, the Go core's) proposal, and say ``done``; the referee then counts.
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from qisai.go.board import Board
    from qisai.go.coords import Point
    from qisai.referee.go_game import GoGame
    from qisai.referee.verdict import Side

__all__ = ["BLACK_STONE_STYLE", "WHITE_STONE_STYLE", "go_board", "play_go"]

BLACK_STONE_STYLE = "bold black on yellow"
"""Rich style of Black's stones (the board is yellow, like wood)."""
WHITE_STONE_STYLE = "bold bright_white on yellow"
"""Rich style of White's stones."""
_GRID_STYLE = "black on yellow"
_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP: no I

_HELP_PLAY = "moves: a point such as D4 (letters without I), pass, resign, quit"
_HELP_DEAD = ("name stones to mark their groups dead (name one again to unmark it); "
              "'suggest' takes the proposal, 'done' counts, 'resume' plays on, 'quit' leaves")


def _star_points(size: int) -> set[tuple[int, int]]:
    """The star points (星位) of a ``size`` board, as (row, col)."""
    if size < 7:
        return set()
    edge = 3 if size >= 13 else 2
    lines = {edge, size - 1 - edge}
    if size % 2:
        lines.add(size // 2)
    return {(r, c) for r in lines for c in lines}


def go_board(board: Board, dead: Iterable[Point] = ()) -> Text:
    """The position as Rich text: GTP column letters above and below, row
    numbers on both sides, Black ``●``, White ``○``, stones marked dead
    ``×`` (in their colour), star points ``+``.  Returns the text; its plain
    form reads without colour."""
    from rich.text import Text

    from qisai.go.rules import Color

    size = board.size
    dead_set = set(dead)
    stars = _star_points(size)
    letters = "   " + " ".join(_COLUMNS[:size]) + "\n"
    text = Text(letters)
    for row in range(size - 1, -1, -1):
        text.append(f"{row + 1:>2} ")
        for col in range(size):
            color = board.get((row, col))
            if color is None:
                text.append("+" if (row, col) in stars else "·", style=_GRID_STYLE)
            else:
                style = BLACK_STONE_STYLE if color is Color.BLACK else WHITE_STONE_STYLE
                mark = "×" if (row, col) in dead_set else ("●" if color is Color.BLACK else "○")
                text.append(mark, style=style)
            if col < size - 1:
                text.append(" ", style=_GRID_STYLE)
        text.append(f" {row + 1}\n")
    text.append(letters.rstrip("\n"))
    return text


class _BuiltinEngine:
    """qisai's Go engine, kept in step with the referee's board by GTP."""

    def __init__(self, size: int, komi: str, seconds: float, playouts: int | None,
                 seed: int | None) -> None:
        from qisai.engines.builtin.go_server import GoServer

        self._server = GoServer(io.StringIO(), io.StringIO(), seconds=seconds, playouts=playouts,
                                seed=seed)
        self._gtp("boardsize", str(size))
        self._gtp("komi", komi)

    def _gtp(self, command: str, *args: str) -> str:
        return self._server.handle(command, list(args)).strip()

    def tell(self, color: str, move: str) -> None:
        """Play ``move`` (GTP vertex or ``pass``) for ``color`` (``b``/``w``)."""
        self._gtp("play", color, move)

    def genmove(self, color: str) -> str:
        """Return the engine's move for ``color``: a vertex, ``pass`` or ``resign``."""
        return self._gtp("genmove", color)

    def dead(self) -> list[str]:
        """Return the stones the engine holds dead (GTP names)."""
        return self._gtp("final_status_list", "dead").split()


def _ask(prompt: str) -> str:
    try:
        return input(prompt).strip()
    except EOFError:
        return "quit"


def _reason(exc: Exception) -> str:
    """The referee's message without its leading timestamp (with the Chinese
    term for an illegal move)."""
    from qisai.referee.go_game import InvalidGoMoveError

    if isinstance(exc, InvalidGoMoveError):
        return f"{exc.reason.value} / {exc.reason.english}"
    text = str(exc)
    return text.split(": ", 1)[1] if text.startswith(("move at ", "mark dead at ")) else text


def play_go(out: Console, *, size: int, opponent: str, human_color: str, think: float,
            playouts: int | None = None, seed: int | None = None) -> None:
    """Play one Go game at the terminal (prompts on standard input, board and
    messages on ``out``) until it is counted, resigned or left with ``quit``.

    ``opponent`` is ``"engine"`` (the built-in engine, thinking ``think``
    seconds or ``playouts`` playouts a move) or ``"friend"``;
    ``human_color`` (``"black"``/``"white"``) is the human's colour against
    the engine.  Raises :class:`ValueError` for a board size the rules do
    not allow, and :class:`typer.Exit` (status 0) on ``quit``.
    """
    from qisai.referee.errors import EventError, RulesetError
    from qisai.referee.game import Phase
    from qisai.referee.go_game import GoGame
    from qisai.referee.rulesets import GoRules, ruleset
    from qisai.referee.verdict import Side

    try:
        rules = ruleset("go-casual", board_size=size)
    except RulesetError as exc:
        raise ValueError(str(exc)) from None
    assert isinstance(rules, GoRules)
    komi = rules.komi
    game = GoGame(rules, now=time.monotonic)
    game.start()
    engine = None
    if opponent == "engine":
        engine = _BuiltinEngine(size, f"{float(komi):g}", think, playouts, seed)
        human = {Side.FIRST if human_color == "black" else Side.SECOND}
    else:
        human = {Side.FIRST, Side.SECOND}
    names = {Side.FIRST: "黑方 Black", Side.SECOND: "白方 White"}
    letters = {Side.FIRST: "b", Side.SECOND: "w"}
    out.print(f"{rules.title_zh} ({rules.title_en}): {size}x{size}, area counting (数子), "
              f"komi {float(komi):g}; {_HELP_PLAY}", markup=False)
    while not game.is_over:
        if game.phase is Phase.SCORING:
            _settle_dead(out, game, engine, next(iter(human)))
            continue
        out.print(go_board(game.board))
        side = game.to_move
        if side in human:
            text = _ask(f"{names[side]} > ")
            word = text.lower()
            if word in ("quit", "exit"):
                out.print("bye")
                raise typer.Exit(0)
            if word == "resign":
                game.resign(side)
                break
            try:
                if word == "pass":
                    game.pass_move(side)
                else:
                    game.move(side, text.upper())
            except EventError as exc:
                out.print(f"{text}: {_reason(exc)} ({_HELP_PLAY})", style="red", markup=False)
                continue
            played = game.moves[-1].move
            if engine is not None:
                engine.tell(letters[side], played)
        else:
            assert engine is not None
            played = engine.genmove(letters[side])
            if played == "resign":
                game.resign(side)
                out.print(f"{names[side]}: resign")
                break
            if played == "pass":
                game.pass_move(side)
            else:
                game.move(side, played)
        out.print(f"{names[side]}: {played}")
    _print_result(out, game)


def _settle_dead(out: Console, game: GoGame, engine: _BuiltinEngine | None, human: Side) -> None:
    """The dead-stone phase (4(4)): marks from the terminal until ``done``
    (both sides confirm, the referee counts) or ``resume`` (play goes on)."""
    from qisai.go.coords import gtp_name, parse_gtp
    from qisai.referee.errors import EventError
    from qisai.referee.game import Phase

    board = game.board
    if engine is not None:
        proposal, by = engine.dead(), "the engine"
    else:
        proposal, by = game.suggest_dead(), "qisai's estimate"
    out.print(f"双方停一手，终局：确认死子 / both passed: mark the dead stones.  {by} proposes: "
              f"{' '.join(proposal) or 'none'}; {_HELP_DEAD}", markup=False)
    while game.phase is Phase.SCORING:
        out.print(go_board(board, game.dead))
        shown = sorted(gtp_name(p, board.size) for p in game.dead)
        out.print(f"dead: {' '.join(shown) or 'none'}", markup=False)
        text = _ask("dead stones > ")
        word = text.lower()
        side = game.to_move if engine is None else human
        try:
            if word in ("quit", "exit"):
                out.print("bye")
                raise typer.Exit(0)
            if word == "done":
                first = game.to_move
                game.confirm_dead(first)
                game.confirm_dead(first.other)
                return
            if word == "resume":
                game.dispute_dead(side)
                out.print("play resumes")
                return
            if word in ("suggest", "accept"):
                wanted: set[Point] = set()
                for name in proposal:
                    point = parse_gtp(name, board.size)
                    if point is not None:
                        wanted |= board.group(point)
                toggles = _toggles(board, set(game.dead), wanted)
                if toggles:
                    game.mark_dead(side, toggles, dead=None)  # each group once
                continue
            if text:
                game.mark_dead(side, text.upper().replace(",", " ").split(), dead=None)
        except EventError as exc:
            out.print(f"{text}: {_reason(exc)}", style="red", markup=False)


def _toggles(board: Board, dead: set[Point], wanted: set[Point]) -> list[str]:
    """One stone of each group whose dead mark must flip to turn ``dead``
    into ``wanted`` (the referee flips a whole group per named stone)."""
    from qisai.go.coords import gtp_name

    out: list[str] = []
    seen: set[Point] = set()
    for point in sorted(dead ^ wanted):
        if point in seen:
            continue
        group = board.group(point)
        seen |= group
        out.append(gtp_name(point, board.size))
    return out


def _print_result(out: Console, game: GoGame) -> None:
    """The final board, the count (if counted) and the result; the last line
    is the SGF result (``B+1.5``, ``W+R``, ``0``)."""
    out.print(go_board(game.board, game.dead))
    score = game.final_score
    if score is not None:
        out.print(f"黑 Black {float(score.black_count):g}, 白 White {float(score.white_count):g} "
                  f"(area: stones and territory; komi {float(score.komi):g})", markup=False)
    result = game.result
    if result is not None:
        out.print(result.explanation_zh, markup=False)
        out.print(result.explanation_en, markup=False)
        out.print(result.sgf_result, markup=False)
