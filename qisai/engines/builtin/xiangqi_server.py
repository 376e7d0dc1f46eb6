"""``qisai engine xiangqi``: the built-in Xiangqi engine on standard input and
output, speaking UCI (ranks 0-9, as Pikafish) or UCCI, whichever the GUI
opens with.

Supported: ``uci``/``ucci``, ``isready``, ``setoption`` (``Hash``,
``Rules``), ``ucinewgame``/``uccinewgame``, ``position [startpos|fen F]
[moves ...]``, ``banmoves`` (UCCI), ``go`` with ``wtime btime winc binc
movestogo movetime depth nodes infinite ponder searchmoves`` (UCI) or ``time
increment opptime oppincrement movestogo depth nodes infinite ponder``
(UCCI), ``stop``, ``ponderhit``, ``quit``.  The search runs in a thread so
``stop`` and ``ponderhit`` are read while it thinks.

Besides the GUI's banned moves the engine itself never plays a move the
棋例 forbids under the ``Rules`` option (``cxa`` or ``axf``).

UCCI as its specification (version 3.0) has it: ``quit`` is answered with
``bye``; ``info`` lines read ``info depth D score S time T nodes N pv ...``
with ``score`` a bare number (a mate in n plies is ``±(10000 - n)``, the
convention of ElephantEye, the protocol's reference engine); the ``go``
times (``time increment opptime oppincrement``) are milliseconds while the
option ``usemillisec`` is true (the default this engine announces) and
seconds after ``setoption usemillisec false``.  A ``position`` command that
is rejected leaves the engine without a position (it says why in an
``info string``), and a ``go`` then answers ``info string no position`` and
``nobestmove`` (UCI: ``bestmove (none)``) instead of searching a stale one.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass
from typing import TextIO

from qisai.engines.builtin.xiangqi_search import MATE, SearchInfo, SearchLimits, XiangqiSearcher
from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.fen import STARTING_FEN
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.qili.cycle import forbidden_moves
from qisai.xiangqi.squares import Move

__all__ = ["NAME", "XiangqiServer", "main"]

NAME = "qisai-xiangqi 0.1"
_OVERHEAD = 0.02  # seconds kept back for the GUI's and the pipe's latency
UCCI_MATE = 10000
"""A UCCI mate score: ``UCCI_MATE - plies`` (ElephantEye's convention)."""


@dataclass
class _Go:
    ponder: bool = False
    infinite: bool = False
    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None
    mine: float | None = None
    inc: float = 0.0
    moves_to_go: int | None = None
    searchmoves: tuple[str, ...] = ()


def budget(mine: float | None, inc: float, moves_to_go: int | None,
           movetime: float | None) -> tuple[float, float] | None:
    """Return (soft, hard) seconds to think, or ``None`` for no time limit.

    With a fixed move time the engine uses nearly all of it; with a clock it
    spends a share of what is left (more when few moves remain in the stage)
    plus most of the increment, never so much that the flag could fall.
    """
    if movetime is not None:
        hard = max(0.01, min(movetime - _OVERHEAD, movetime * 0.92))
        return hard * 0.6, hard
    if mine is None:
        return None
    moves = moves_to_go if moves_to_go else 30
    share = mine / min(moves, 30) + inc * 0.8
    cap = max(0.01, mine * 0.5 - _OVERHEAD) if moves > 1 else max(0.01, mine - _OVERHEAD * 2)
    hard = max(0.01, min(share * 2.5, cap))
    return min(share, hard) * 0.7, hard


class XiangqiServer:
    """The protocol loop: reads commands from ``stdin``, writes to ``stdout``."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self._in = stdin
        self._out = stdout
        self._lock = threading.Lock()
        self.board: Board | None = Board()
        self.no_position = ""
        """Why there is no position (a rejected ``position`` command)."""
        self.banned: list[Move] = []
        self.ucci = False
        self.millis = True
        """UCCI ``usemillisec``: go times in milliseconds (else seconds)."""
        self.rules = "cxa"
        self.searcher = XiangqiSearcher()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._limits = SearchLimits()
        self._pending_budget: tuple[float, float] | None = None
        self._pondering = False

    # ------------------------------------------------------------- output
    def send(self, line: str) -> None:
        """Write one line and flush (thread-safe)."""
        with self._lock:
            self._out.write(line + "\n")
            self._out.flush()

    def _fmt(self, move: Move) -> str:
        return move.iccs()

    # -------------------------------------------------------------- loop
    def run(self) -> None:
        """Serve until ``quit`` or the end of the input."""
        for raw in self._in:
            line = raw.strip()
            if not line:
                continue
            if not self.handle(line):
                break
        self._halt()

    def handle(self, line: str) -> bool:
        """Handle one command; return ``False`` on ``quit``."""
        words = line.split()
        cmd = words[0]
        if cmd in ("uci", "ucci"):
            self.ucci = cmd == "ucci"
            self.send(f"id name {NAME}")
            self.send("id author the qisai developers")
            if self.ucci:
                self.send("option usemillisec type check default true")
                self.send("option Hash type spin default 64 min 1 max 1024")
                self.send("option Rules type combo default cxa var cxa var axf")
            else:
                self.send("option name Hash type spin default 64 min 1 max 1024")
                self.send("option name Rules type combo default cxa var cxa var axf")
                self.send("option name Ponder type check default false")
            self.send(cmd + "ok")
        elif cmd == "isready":
            self.send("readyok")
        elif cmd == "setoption":
            self._setoption(words[1:])
        elif cmd in ("ucinewgame", "uccinewgame"):
            self._halt()
            self.searcher.clear()
        elif cmd == "position":
            self._halt()
            self._position(words[1:])
        elif cmd == "banmoves":
            self.banned = [m for m in (self._parse(w) for w in words[1:]) if m is not None]
        elif cmd == "go":
            self._halt()
            self._go(words[1:])
        elif cmd == "stop":
            self._stop.set()
            self._join()
        elif cmd == "ponderhit":
            self._ponderhit()
        elif cmd == "quit":
            if self.ucci:
                self.send("bye")
            return False
        elif cmd == "probe":
            if self.board is None:
                self.send(f"info string no position: {self.no_position}")
            else:
                self.send(f"info string key {self.board.key:016x} fen {self.board.fen()}")
        else:
            self.send(f"info string unknown command {cmd}")
        return True

    def _parse(self, text: str) -> Move | None:
        try:
            return Move.from_iccs(text)
        except XiangqiError:
            return None

    def _setoption(self, words: list[str]) -> None:
        if words and words[0] == "name":
            words = words[1:]
        if "value" in words:
            i = words.index("value")
            name, value = " ".join(words[:i]), " ".join(words[i + 1:])
        else:
            name, value = " ".join(words[:-1]), (words[-1] if words else "")
        key = name.lower()
        if key == "hash":
            try:
                self.searcher.hash_entries = max(1, int(value)) * 16384
            except ValueError:
                self.send(f"info string bad Hash value {value}")
        elif key == "rules" and value.lower() in ("cxa", "axf"):
            self.rules = value.lower()
        elif key == "usemillisec":
            if value.lower() in ("true", "false"):
                self.millis = value.lower() == "true"
            else:
                self.send(f"info string bad usemillisec value {value!r} (true or false)")

    def _position(self, words: list[str]) -> None:
        self.banned = []
        # A rejected command leaves no position: a later 'go' must not
        # search the previous one (its answer would be a move of the wrong game).
        self.board = None
        if not words:
            self.no_position = "'position' without startpos or fen"
            self.send(f"info string bad position: {self.no_position}")
            return
        try:
            if words[0] == "startpos":
                board = Board(STARTING_FEN)
                rest = words[1:]
            elif words[0] == "fen":
                end = words.index("moves") if "moves" in words else len(words)
                # A GUI's FEN may carry chess-style fields: read leniently.
                board = Board(" ".join(words[1:end]), strict=False)
                rest = words[end:]
            else:
                raise XiangqiError(f"unknown position form {words[0]!r}")
            if rest and rest[0] == "moves":
                for text in rest[1:]:
                    board.push(Move.from_iccs(text))
        except XiangqiError as exc:
            self.no_position = f"the last 'position' was rejected: {exc}"
            self.send(f"info string bad position: {exc}")
            return
        self.board = board
        self.no_position = ""

    def _go(self, words: list[str]) -> None:
        if self.board is None:
            self.send(f"info string no position: {self.no_position}")
            self.send("nobestmove" if self.ucci else "bestmove (none)")
            return
        go = _Go()
        i = 0
        turn_red = self.board.turn is Color.RED

        def seconds(k: int) -> float:
            try:
                return max(0.0, int(words[k]) / 1000)
            except (IndexError, ValueError):
                return 0.0

        def ucci_seconds(k: int) -> float:
            """A UCCI time: milliseconds, or seconds with usemillisec false."""
            try:
                value = float(words[k])
            except (IndexError, ValueError):
                return 0.0
            return max(0.0, value / 1000 if self.millis else value)

        def integer(k: int) -> int | None:
            try:
                return int(words[k])
            except (IndexError, ValueError):
                return None

        while i < len(words):
            w = words[i]
            if w == "ponder":
                go.ponder = True
            elif w == "infinite":
                go.infinite = True
            elif w == "movetime":
                go.movetime = seconds(i + 1)
                i += 1
            elif w in ("wtime", "btime"):
                if (w == "wtime") == turn_red:
                    go.mine = seconds(i + 1)
                i += 1
            elif w in ("winc", "binc"):
                if (w == "winc") == turn_red:
                    go.inc = seconds(i + 1)
                i += 1
            elif w == "time":
                go.mine = ucci_seconds(i + 1)
                i += 1
            elif w == "increment":
                go.inc = ucci_seconds(i + 1)
                i += 1
            elif w in ("opptime", "oppincrement"):
                i += 1
            elif w == "movestogo":
                go.moves_to_go = integer(i + 1)
                i += 1
            elif w == "depth":
                go.depth = integer(i + 1)
                i += 1
            elif w == "nodes":
                go.nodes = integer(i + 1)
                i += 1
            elif w == "searchmoves":
                go.searchmoves = tuple(words[i + 1:])
                break
            i += 1
        banned = list(self.banned)
        board = self.board.copy()
        if go.searchmoves:
            allowed = {m for m in (self._parse(t) for t in go.searchmoves) if m is not None}
            banned += [m for m in board.legal_moves() if m not in allowed]
        try:
            banned += forbidden_moves(board, self.rules)
        except ValueError as exc:
            self.send(f"info string cannot apply the repetition rules: {exc}")
        times = None if go.infinite else budget(go.mine, go.inc, go.moves_to_go, go.movetime)
        now = time.monotonic()
        limits = SearchLimits(depth=go.depth, nodes=go.nodes)
        if go.ponder:
            self._pending_budget = times
            self._pondering = True
        elif times is not None:
            limits.soft_deadline, limits.hard_deadline = now + times[0], now + times[1]
        self._limits = limits
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._think, args=(board, limits, banned, go.infinite or go.ponder),
            daemon=True)
        self._thread.start()

    def _ponderhit(self) -> None:
        if not self._pondering:
            return
        self._pondering = False
        times = self._pending_budget
        if times is not None:
            now = time.monotonic()
            self._limits.soft_deadline, self._limits.hard_deadline = now + times[0], now + times[1]

    def _think(self, board: Board, limits: SearchLimits, banned: list[Move], wait: bool) -> None:
        def report(info: SearchInfo) -> None:
            pv = " ".join(self._fmt(m) for m in info.pv)
            if self.ucci:
                # UCCI: "info depth D score S time T nodes N pv ...", S a number.
                self.send(f"info depth {info.depth} score {ucci_score(info)} "
                          f"time {int(info.elapsed * 1000)} nodes {info.nodes} pv {pv}")
                return
            mate = info.mate_in
            score = f"mate {mate}" if mate is not None else f"cp {info.score}"
            nps = int(info.nodes / info.elapsed) if info.elapsed > 0 else 0
            self.send(f"info depth {info.depth} score {score} nodes {info.nodes} nps {nps} "
                      f"time {int(info.elapsed * 1000)} pv {pv}")

        result = self.searcher.search(board, limits, banned=banned, stop=self._stop,
                                      on_iteration=report)
        # 'infinite' and 'ponder' searches answer only after stop (or ponderhit).
        while wait and not self._stop.is_set() and (self._pondering or limits.hard_deadline is None):
            self._stop.wait(0.005)
        if result.move is None:
            self.send("nobestmove" if self.ucci else "bestmove (none)")
            return
        line = "bestmove " + self._fmt(result.move)
        if result.ponder is not None:
            line += " ponder " + self._fmt(result.ponder)
        self.send(line)

    def _join(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _halt(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._stop.set()
        self._join()


def ucci_score(info: SearchInfo) -> int:
    """The UCCI ``score`` of a search result: centipawns, or for a mate
    ``±(UCCI_MATE - plies to mate)``."""
    if info.mate_in is None:
        return info.score
    plies = MATE - abs(info.score)
    return (UCCI_MATE - plies) if info.score > 0 else -(UCCI_MATE - plies)


def main(stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Run the engine on standard input/output (or the given streams)."""
    XiangqiServer(stdin or sys.stdin, stdout or sys.stdout).run()


if __name__ == "__main__":
    main()
