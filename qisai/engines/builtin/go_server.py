"""``qisai engine go``: the built-in Go engine speaking GTP version 2 on
standard input and output.

The game itself is kept on a :class:`qisai.go.board.Board` (positional
superko, Chinese area counting, komi), so the engine only ever offers moves
that board allows; the search (:mod:`qisai.engines.builtin.go_search`) runs on
a copy in its own fast form.  The engine passes when the opponent has passed
and the count (with the dead stones qisai's own estimate proposes) is in its
favour, when it has no sensible move left, or when the opponent has passed
and its playouts see no way to win; it never passes first while moves
remain.  It resigns a hopeless game only when told it may (``--resign``).

Time: without a clock, ``--seconds`` a move (the match runner's
``movetime``); with a clock (``time_settings``/``time_left``), the time
left over about a third of the empty points (the moves still to come for
one side), at least eight, plus most of a byo-yomi period.  ``final_status_list dead`` and
``final_score`` use :func:`qisai.go.deadstones.estimate_dead`, the same
proposal the match runner's arbiter uses.

``kgs-rules chinese|japanese|korean|aga|new_zealand`` sets the board's rules
(ko, suicide, counting) and clears it; the default is Chinese.

GTP lets a controller play one colour twice (``play b D5; play b E5``, or
``genmove w`` twice).  The engine then records who is to move as a set-up
of the board (no stones change), never a hidden pass: a pass would count
towards the end of the game and make the engine think the opponent passed.
``undo`` takes back one GTP move together with that turn change, so it stays
in step with the controller.  Failures answer with the GTP specification's
error texts ("syntax error", "unacceptable size", "illegal move", "board not
empty", "invalid number of stones", "bad vertex list", "cannot undo").

Extra commands: ``qisai-playouts N`` (a fixed number of playouts per move
instead of time), ``qisai-seconds S`` (time per move when no clock is set).
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from typing import TextIO

from qisai.engines.builtin.go_playout import PASS, Playout
from qisai.engines.builtin.go_search import MctsSearcher, SearchOutcome
from qisai.go.board import Board
from qisai.go.coords import Point, gtp_name, parse_gtp
from qisai.go.deadstones import estimate_dead
from qisai.go.errors import GoError
from qisai.go.move import Move
from qisai.go.rules import AGA, CHINESE, JAPANESE, TROMP_TAYLOR, Color, Rules
from qisai.go.scoring import score

__all__ = ["NAME", "GoServer", "main"]

NAME = "qisai-go"
VERSION = "0.1"

COMMANDS = (
    "protocol_version", "name", "version", "known_command", "list_commands", "quit",
    "boardsize", "clear_board", "komi", "play", "genmove", "undo", "fixed_handicap",
    "place_free_handicap", "set_free_handicap", "time_settings", "kgs-time_settings",
    "time_left", "final_score", "final_status_list", "showboard", "qisai-playouts",
    "qisai-seconds", "kgs-rules",
)

KGS_RULES = {"chinese": CHINESE, "aga": AGA, "japanese": JAPANESE, "korean": JAPANESE,
             "new_zealand": TROMP_TAYLOR, "tromp-taylor": TROMP_TAYLOR}
"""The rules ``kgs-rules NAME`` sets (counting, ko, suicide)."""


class GtpFailure(Exception):
    """A command that must be answered with ``? message``."""


class GoServer:
    """The GTP loop over a :class:`qisai.go.board.Board`."""

    def __init__(self, stdin: TextIO, stdout: TextIO, *, seconds: float = 1.0,
                 playouts: int | None = None, resign: bool = False, seed: int | None = None,
                 log: TextIO | None = None) -> None:
        self._in = stdin
        self._out = stdout
        self.size = 19
        self.komi = Fraction(15, 2)
        self.rules: Rules = CHINESE
        self.board = Board(self.size, CHINESE)
        self.searcher = MctsSearcher(seed)
        self.seconds = seconds
        self.playouts = playouts
        self.resign = resign
        self.main_time = 0.0
        self.byo_time = 0.0
        self.byo_stones = 0
        self.time_left: dict[Color, tuple[float, int]] = {}
        self.last_outcome: SearchOutcome | None = None
        self.log = log
        self.count_seconds = 0.0
        """How long the last count (the dead-stone estimate) took."""
        self.steps: list[int] = []
        """Board history entries of each GTP move (a move, after a turn
        change when one colour moved twice), for ``undo``."""

    # --------------------------------------------------------------- loop
    def run(self) -> None:
        """Serve until ``quit`` or the end of the input."""
        for raw in self._in:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            ident = ""
            if words[0].isdigit():
                ident = words.pop(0)
                if not words:
                    continue
            try:
                reply = self.handle(words[0], words[1:])
                self._out.write(f"={ident} {reply}".rstrip() + "\n\n")
            except GtpFailure as exc:
                self._out.write(f"?{ident} {exc}\n\n")
            self._out.flush()
            if words[0] == "quit":
                break

    def handle(self, cmd: str, args: list[str]) -> str:
        """Return the answer to one command; raise :class:`GtpFailure` to fail it."""
        if cmd == "protocol_version":
            return "2"
        if cmd == "name":
            return NAME
        if cmd == "version":
            return VERSION
        if cmd == "known_command":
            return "true" if args and args[0] in COMMANDS else "false"
        if cmd == "list_commands":
            return "\n".join(COMMANDS)
        if cmd == "quit":
            return ""
        if cmd == "boardsize":
            try:
                size = int(args[0])
            except (IndexError, ValueError):
                raise GtpFailure("syntax error") from None
            try:
                Board(size, CHINESE)
            except (ValueError, GoError):
                raise GtpFailure("unacceptable size") from None
            self.size = size
            self._clear()
            return ""
        if cmd == "clear_board":
            self._clear()
            return ""
        if cmd == "komi":
            try:
                self.komi = Fraction(args[0])
            except (IndexError, ValueError):
                raise GtpFailure("syntax error") from None
            return ""
        if cmd == "play":
            color, point = self._color_vertex(args)
            self._play(color, point)
            return ""
        if cmd in ("genmove", "kgs-genmove_cleanup"):
            color = self._color(args)
            return self._genmove(color)
        if cmd == "undo":
            if not self.steps:
                raise GtpFailure("cannot undo")
            for _ in range(self.steps.pop()):
                self.board.undo()
            return ""
        if cmd in ("fixed_handicap", "place_free_handicap"):
            try:
                stones = int(args[0])
            except (IndexError, ValueError):
                raise GtpFailure("syntax error") from None
            self._check_empty()
            try:
                points = self.board.place_handicap(stones)
            except (ValueError, GoError):
                raise GtpFailure("invalid number of stones") from None
            return " ".join(gtp_name(p, self.size) for p in points)
        if cmd == "set_free_handicap":
            try:
                free = [parse_gtp(a, self.size) for a in args]
            except (ValueError, GoError):
                raise GtpFailure("bad vertex list") from None
            self._check_empty()
            if not 2 <= len(free) <= self.size * self.size - 1:
                raise GtpFailure("invalid number of stones")
            if any(p is None for p in free) or len(set(free)) != len(free):
                raise GtpFailure("bad vertex list")
            try:
                self.board.place_handicap(len(free), [p for p in free if p is not None])
            except (ValueError, GoError):
                raise GtpFailure("bad vertex list") from None
            return ""
        if cmd == "time_settings":
            try:
                self.main_time, self.byo_time, self.byo_stones = (float(args[0]), float(args[1]),
                                                                  int(args[2]))
            except (IndexError, ValueError):
                raise GtpFailure("syntax error") from None
            return ""
        if cmd == "kgs-time_settings":
            return self._kgs_time(args)
        if cmd == "time_left":
            try:
                color = self._color(args)
                self.time_left[color] = (float(args[1]), int(args[2]))
            except (IndexError, ValueError):
                raise GtpFailure("syntax error") from None
            return ""
        if cmd == "final_score":
            return self._final_score()
        if cmd == "final_status_list":
            return self._status_list(args[0] if args else "")
        if cmd == "kgs-rules":
            try:
                self.rules = KGS_RULES[args[0].lower()]
            except (IndexError, KeyError):
                raise GtpFailure("unknown rules") from None
            self._clear()
            return ""
        if cmd == "showboard":
            return "\n" + str(self.board)
        if cmd == "qisai-playouts":
            try:
                self.playouts = int(args[0]) or None
            except (IndexError, ValueError):
                raise GtpFailure("syntax error") from None
            return ""
        if cmd == "qisai-seconds":
            try:
                self.seconds = float(args[0])
            except (IndexError, ValueError):
                raise GtpFailure("syntax error") from None
            return ""
        raise GtpFailure("unknown command")

    # ------------------------------------------------------------ helpers
    def _clear(self) -> None:
        self.board = Board(self.size, self.rules.with_komi(self.komi))
        self.time_left.clear()
        self.steps.clear()

    def _check_empty(self) -> None:
        if self.board.history or self.board.stones(Color.BLACK) or self.board.stones(Color.WHITE):
            raise GtpFailure("board not empty")

    def _color(self, args: list[str]) -> Color:
        try:
            return Color.from_letter(args[0])
        except (IndexError, ValueError):
            raise GtpFailure("syntax error") from None

    def _color_vertex(self, args: list[str]) -> tuple[Color, Point | None]:
        color = self._color(args)
        try:
            return color, parse_gtp(args[1], self.size)
        except (IndexError, ValueError, GoError):
            raise GtpFailure("syntax error") from None

    def _turn(self, color: Color) -> int:
        """Make ``color`` the player to move (a controller may move one colour
        twice): a set-up entry that names the player, not a pass.  Returns
        the number of board entries added (0 or 1)."""
        if self.board.to_move is color:
            return 0
        self.board.setup(to_move=color)
        return 1

    def _last_real_move(self) -> Move | None:
        """The last move or pass, set-ups (turn changes, handicap) skipped."""
        return next((m for m in reversed(self.board.history) if not m.setup), None)

    def _play(self, color: Color, point: Point | None) -> None:
        board = self.board
        turn = self._turn(color)
        try:
            if point is None:
                board.pass_move()
            else:
                board.play(point)
        except GoError:
            for _ in range(turn):
                board.undo()
            raise GtpFailure("illegal move") from None
        self.steps.append(turn + 1)

    def _kgs_time(self, args: list[str]) -> str:
        try:
            system = args[0].lower()
            if system == "none":
                self.main_time, self.byo_time, self.byo_stones = 0.0, 0.0, 0
            elif system == "absolute":
                self.main_time, self.byo_time, self.byo_stones = float(args[1]), 0.0, 0
            elif system == "byoyomi":
                self.main_time, self.byo_time, self.byo_stones = float(args[1]), float(args[2]), 1
            elif system == "canadian":
                self.main_time, self.byo_time, self.byo_stones = (float(args[1]), float(args[2]),
                                                                  int(args[3]))
            else:
                raise GtpFailure("unknown time system")
        except (IndexError, ValueError):
            raise GtpFailure("syntax error") from None
        return ""

    def _budget(self, color: Color) -> float:
        """Seconds to think: a share of the clock if one is known."""
        left = self.time_left.get(color)
        empties = len(self.board.empty_points())
        # About a third of the empty points are still to be played by us
        # (on 9x9: 27 moves at the start); never plan for fewer than 8.
        moves_left = max(8, empties // 3)
        if left is None:
            if self.main_time <= 0 and self.byo_time <= 0:
                return self.seconds
            if self.main_time > 0:
                return min(self.seconds * 5, self.main_time / moves_left)
            return self.byo_time / max(1, self.byo_stones) * 0.8
        seconds, stones = left
        if stones > 0:  # in byo-yomi: share the period among its stones
            return max(0.05, seconds / stones * 0.75 - 0.15)
        # Overtime follows the main time, so a move may use most of one
        # overtime share on top of its part of what is left.
        spare = self.byo_time / max(1, self.byo_stones) * 0.8 if self.byo_time > 0 else 0
        return max(0.05, min(seconds / moves_left, seconds * 0.3) + spare)

    def _position(self) -> Playout:
        pos = Playout(self.size)
        for color in (Color.BLACK, Color.WHITE):
            for row, col in self.board.stones(color):
                pos.cells[pos.index(row, col)] = int(color)
        pos.resync()
        pos.to_move = int(self.board.to_move)
        ko = self.board.ko_point
        pos.ko = pos.index(*ko) if ko is not None else 0
        # The last two moves steer the playouts' and priors' local replies.
        recent = [m for m in self.board.history if not m.setup][-2:]
        points = [PASS if m.point is None else pos.index(*m.point) for m in recent]
        pos.last = points[-1] if points else PASS
        pos.last2 = points[-2] if len(points) > 1 else PASS
        return pos

    def _count(self) -> Fraction:
        """Black's lead with qisai's dead-stone proposal."""
        dead = estimate_dead(self.board)
        return score(self.board, dead, komi=self.komi).margin

    def _genmove(self, color: Color) -> str:
        started = time.monotonic()
        board = self.board
        turn = self._turn(color)
        budget = self._budget(color)
        last = self._last_real_move()
        sign = 1 if color is Color.BLACK else -1
        opponent_passed = last is not None and last.is_pass and last.color is not color
        # The count costs time (a second or more on 19x19): skip it when it
        # would eat most of the move's budget, and play on instead.
        if opponent_passed and self.count_seconds <= 0.4 * budget:
            margin = self._count()
            self.count_seconds = time.monotonic() - started
            if sign * margin > 0:
                # The game ends with the count in our favour (终局: both pass).
                board.pass_move()
                self.steps.append(turn + 1)
                self._note(color, "pass", None, started)
                return "pass"
        pos = self._position()
        legal = {pos.index(r, c) for (r, c) in board.legal_points()}
        left = max(0.05, budget - (time.monotonic() - started))
        outcome = self.searcher.search(pos, float(self.komi), allowed=legal,
                                       seconds=left if self.playouts is None else 1e9,
                                       max_playouts=self.playouts)
        self.last_outcome = outcome
        if outcome.move == PASS or (opponent_passed and outcome.playouts >= 30
                                    and outcome.winrate < 0.1):
            # Nothing to play, or the opponent has stopped and neither the
            # count nor our playouts see a way back: more moves only delay.
            board.pass_move()
            self.steps.append(turn + 1)
            self._note(color, "pass", outcome, started)
            return "pass"
        if self.resign and outcome.playouts >= 200 and outcome.winrate < 0.03 and \
                len(board.history) > self.size * 2:
            for _ in range(turn):  # resigning is no move: the board stays as it was
                board.undo()
            self._note(color, "resign", outcome, started)
            return "resign"
        point = pos.point(outcome.move)
        assert point is not None
        board.play(point)
        self.steps.append(turn + 1)
        name = gtp_name(point, self.size)
        self._note(color, name, outcome, started)
        return name

    def _note(self, color: Color, move: str, outcome: SearchOutcome | None,
              started: float) -> None:
        """Write one line about the move to the log, if there is one."""
        if self.log is None:
            return
        spent = time.monotonic() - started
        playouts = outcome.playouts if outcome is not None else 0
        winrate = f"{outcome.winrate:.3f}" if outcome is not None else "-"
        reused = outcome.reused if outcome is not None else 0
        self.log.write(f"move {len(self.board.history)} {color.name.lower()} {move} "
                       f"playouts {playouts} seconds {spent:.3f} winrate {winrate} "
                       f"reused {reused}\n")
        self.log.flush()

    def _final_score(self) -> str:
        margin = self._count()
        if margin == 0:
            return "0"
        letter = "B" if margin > 0 else "W"
        value = abs(margin)
        text = f"{float(value):g}" if value.denominator in (1, 2) else f"{float(value):.2f}"
        return f"{letter}+{text}"

    def _status_list(self, status: str) -> str:
        dead = estimate_dead(self.board)
        if status == "dead":
            points = sorted(dead)
        elif status == "alive":
            points = [p for c in (Color.BLACK, Color.WHITE) for p in self.board.stones(c)
                      if p not in dead]
        elif status == "seki":
            points = []
        else:
            raise GtpFailure("syntax error")
        return " ".join(gtp_name(p, self.size) for p in points)


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> None:
    """Run the engine: ``--seconds S`` per move without a clock,
    ``--playouts N`` instead of time, ``--resign`` to allow resigning,
    ``--log FILE`` to record each move's search."""
    parser = argparse.ArgumentParser(prog="qisai engine go", description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--resign", action="store_true")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--log", default=None,
                        help="append a line per generated move (playouts, time, win rate)")
    args = parser.parse_args(argv)
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    try:
        GoServer(stdin or sys.stdin, stdout or sys.stdout, seconds=args.seconds,
                 playouts=args.playouts, resign=args.resign, seed=args.seed, log=log).run()
    finally:
        if log is not None:
            log.close()


if __name__ == "__main__":
    main()
