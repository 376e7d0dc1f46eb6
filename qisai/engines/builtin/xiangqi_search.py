"""The search of qisai's built-in Xiangqi engine.

Principal-variation alpha-beta with iterative deepening, a transposition
table, check extension, late-move reductions, killer and history move
ordering, and a captures-only quiescence search; it plays to a time budget
and can be stopped from another thread.

Moves are generated pseudo-legally and tested for legality only when they
are searched (most are cut off first): for that the searcher drives the
board's public integer fast path (``pseudo_codes``/``push_code``/``pop_code``,
moves as ``from << 7 | to``), which is several times quicker than building
:class:`~qisai.xiangqi.squares.Move` values.  ``tests/engines`` checks that the
moves it considers legal are exactly ``Board.legal_moves()``.

Every loss of the game (mate and stalemate, 4.1.1/4.1.3) scores as a loss;
a repeated position scores as a draw inside the search, and at the root the
moves the 棋例 forbid (:func:`qisai.xiangqi.qili.cycle.forbidden_moves`) and any
moves banned by the GUI are never played.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from qisai.engines.builtin.xiangqi_eval import MATERIAL, TABLE
from qisai.xiangqi.board import Board
from qisai.xiangqi.pieces import KING
from qisai.xiangqi.squares import Move

__all__ = ["MATE", "SearchInfo", "SearchLimits", "SearchResult", "XiangqiSearcher", "legal_ints"]

MATE = 30000
_INF = 32000
_MATE_BOUND = MATE - 500
_EXACT, _LOWER, _UPPER = 0, 1, 2
_VICTIM = [0] + [MATERIAL[k] for k in range(1, 8)]
_VICTIM[KING] = 2000


class _Stop(Exception):
    """Raised inside the search when time or the stop flag says so."""


@dataclass
class SearchLimits:
    """When to stop.  Deadlines are :func:`time.monotonic` values.

    ``soft_deadline``: do not start another iteration after it;
    ``hard_deadline``: abort the iteration in progress.  ``None`` = no limit.
    """

    soft_deadline: float | None = None
    hard_deadline: float | None = None
    depth: int | None = None
    nodes: int | None = None


@dataclass
class SearchInfo:
    """Progress after one completed iteration."""

    depth: int
    score: int
    nodes: int
    elapsed: float
    pv: list[Move]

    @property
    def mate_in(self) -> int | None:
        """Moves to mate (negative: being mated), or ``None``."""
        if abs(self.score) < _MATE_BOUND:
            return None
        plies = MATE - abs(self.score)
        moves = (plies + 1) // 2
        return moves if self.score > 0 else -moves


@dataclass
class SearchResult:
    """The move chosen (``None``: no legal move) and the last iteration's info."""

    move: Move | None
    ponder: Move | None
    info: SearchInfo | None
    iterations: list[SearchInfo] = field(default_factory=list)


def legal_ints(board: Board) -> list[int]:
    """Return the legal moves as move codes ``from << 7 | to``, by the
    searcher's own test: make each pseudo-legal move and keep it if the
    mover's general is not attacked.  This is the rule itself, without the
    board's shortcut for moves that cannot expose the general, so the tests
    hold :meth:`Board.legal_codes` against it."""
    c = int(board.turn)
    out = []
    for m in board.pseudo_codes(c):
        board.push_code(m)
        if not board.general_attacked(c):
            out.append(m)
        board.pop_code()
    return out


class XiangqiSearcher:
    """An alpha-beta searcher; keeps its transposition table between moves.

    ``hash_entries`` bounds the table (it is cleared when full).
    """

    def __init__(self, hash_entries: int = 1 << 20) -> None:
        self.hash_entries = hash_entries
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.history: list[int] = [0] * (90 << 7)
        self.nodes = 0

    def clear(self) -> None:
        """Forget everything learnt (new game)."""
        self.tt.clear()
        self.history = [0] * (90 << 7)

    # --------------------------------------------------------------- root
    def search(
        self,
        board: Board,
        limits: SearchLimits,
        *,
        banned: Iterable[Move] = (),
        stop: threading.Event | None = None,
        on_iteration: Callable[[SearchInfo], None] | None = None,
    ) -> SearchResult:
        """Search ``board`` (which is used and restored) and return the best move.

        ``banned`` moves are never chosen (unless they are the only moves,
        in which case the first of them is returned so the caller still has
        a move to play).  Returns a result with ``move=None`` when there is
        no legal move.
        """
        self._board = board
        self._stop = stop or threading.Event()
        self._limits = limits
        self.nodes = 0
        self._start = time.monotonic()
        self.killers = [[0, 0] for _ in range(128)]
        if len(self.tt) > self.hash_entries:
            self.tt.clear()
        self.history = [h >> 2 for h in self.history]
        root_moves = legal_ints(board)
        if not root_moves:
            return SearchResult(None, None, None)
        banned_ints = {m.from_square << 7 | m.to_square for m in banned}
        allowed = [m for m in root_moves if m not in banned_ints] or root_moves[:1]
        # Keys of the reversible part of the game: repeating one is a draw.
        self._path = board.history_keys()[-(board.halfmove_clock + 1):]
        self._eval = self._evaluate_red()
        best = allowed[0]
        result = SearchResult(Move.from_code(best), None, None)
        depth = 0
        max_depth = limits.depth or 64
        while depth < max_depth:
            depth += 1
            self._partial: tuple[int, int] | None = None
            try:
                score, move = self._root(allowed, depth, best)
            except _Stop:
                # An unfinished iteration still counts if, after the previous
                # best move was searched, another move proved better.
                if self._partial is not None and self._partial[0] != best:
                    best = self._partial[0]
                    result = SearchResult(Move.from_code(best), None, result.info, result.iterations)
                break
            best = move
            pv = self._pv(best, depth)
            info = SearchInfo(depth, score, self.nodes, time.monotonic() - self._start,
                              [Move.from_code(m) for m in pv])
            result = SearchResult(Move.from_code(best), Move.from_code(pv[1]) if len(pv) > 1 else None, info,
                                  result.iterations + [info])
            if on_iteration is not None:
                on_iteration(info)
            if len(allowed) == 1 and depth >= 2:
                break
            if abs(score) >= _MATE_BOUND and depth > MATE - abs(score) + 2:
                break
            if limits.soft_deadline is not None and time.monotonic() >= limits.soft_deadline:
                break
            if self._stop.is_set():
                break
        return result

    def _root(self, moves: list[int], depth: int, previous: int) -> tuple[int, int]:
        board = self._board
        c = int(board.turn)
        alpha, beta = -_INF, _INF
        best, best_score = previous, -_INF
        ordered = sorted(moves, key=lambda m: (m != previous, -self._order_key(m, 0, 0)))
        first = True
        for m in ordered:
            self._make(m)
            if board.general_attacked(c):
                self._unmake(m)
                continue
            try:
                if first:
                    score = -self._negamax(depth - 1, -beta, -alpha, 1)
                else:
                    score = -self._negamax(depth - 1, -alpha - 1, -alpha, 1)
                    if score > alpha:
                        score = -self._negamax(depth - 1, -beta, -alpha, 1)
            finally:
                self._unmake(m)
            first = False
            if score > best_score:
                best_score, best = score, m
                if score > alpha:
                    alpha = score
                    self._partial = (best, best_score)
        self.tt[board.key] = (depth, _EXACT, best_score, best)
        return best_score, best

    def _pv(self, first: int, depth: int) -> list[int]:
        board = self._board
        pv = [first]
        board.push_code(first)
        seen = {board.key}
        for _ in range(depth + 4):
            entry = self.tt.get(board.key)
            if entry is None or not entry[3]:
                break
            m = entry[3]
            if m not in board.pseudo_codes(int(board.turn)):
                break
            c = int(board.turn)
            board.push_code(m)
            if board.general_attacked(c) or board.key in seen:
                board.pop_code()
                break
            seen.add(board.key)
            pv.append(m)
        for _ in pv:
            board.pop_code()
        return pv

    # ------------------------------------------------------------ helpers
    def _evaluate_red(self) -> int:
        b = self._board
        return sum(TABLE[b.piece_value_at(sq) + 7][sq] for sq in range(90) if b.piece_value_at(sq))

    def _make(self, m: int) -> None:
        board = self._board
        f, t = m >> 7, m & 127
        p = board.piece_value_at(f)
        q = board.piece_value_at(t)
        row = TABLE[p + 7]
        self._eval += row[t] - row[f] - TABLE[q + 7][t]
        board.push_code(m)
        self._path.append(board.key)

    def _unmake(self, m: int) -> None:
        board = self._board
        self._path.pop()
        board.pop_code()
        f, t = m >> 7, m & 127
        p = board.piece_value_at(f)
        q = board.piece_value_at(t)
        row = TABLE[p + 7]
        self._eval -= row[t] - row[f] - TABLE[q + 7][t]

    def _check_time(self) -> None:
        lim = self._limits
        if self._stop.is_set():
            raise _Stop
        if lim.hard_deadline is not None and time.monotonic() >= lim.hard_deadline:
            raise _Stop
        if lim.nodes is not None and self.nodes >= lim.nodes:
            raise _Stop

    def _order_key(self, m: int, tt_move: int, ply: int) -> int:
        if m == tt_move:
            return 1 << 30
        b = self._board
        victim = b.piece_value_at(m & 127)
        if victim:
            attacker = abs(b.piece_value_at(m >> 7))
            return (1 << 24) + _VICTIM[abs(victim)] * 16 - _VICTIM[attacker] // 16
        killers = self.killers[ply] if ply < 128 else (0, 0)
        if m == killers[0]:
            return 1 << 23
        if m == killers[1]:
            return (1 << 23) - 1
        return self.history[m]

    # ------------------------------------------------------------- search
    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 511:
            self._check_time()
        board = self._board
        key = board.key
        path = self._path
        # A position already on the path (since the last capture) repeats.
        if key in path[-(board.halfmove_clock + 1):-1]:
            return 0
        c = int(board.turn)
        in_check = board.general_attacked(c)
        if in_check:
            depth += 1
        if depth <= 0:
            return self._quiesce(alpha, beta, ply)
        # Mate-distance pruning.
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        tt_move = 0
        entry = self.tt.get(key)
        if entry is not None:
            e_depth, flag, e_score, tt_move = entry
            if e_depth >= depth and beta - alpha == 1:
                if flag == _EXACT or (flag == _LOWER and e_score >= beta) or \
                        (flag == _UPPER and e_score <= alpha):
                    return e_score
        moves = board.pseudo_codes(c)
        order = self._order_key
        moves.sort(key=lambda m: order(m, tt_move, ply), reverse=True)
        best_score = -_INF
        best_move = 0
        original_alpha = alpha
        searched = 0
        pv_node = beta - alpha > 1
        for m in moves:
            capture = board.piece_value_at(m & 127) != 0
            self._make(m)
            if board.general_attacked(c):
                self._unmake(m)
                continue
            try:
                if searched == 0:
                    score = -self._negamax(depth - 1, -beta, -alpha, ply + 1)
                else:
                    reduce = 0
                    if depth >= 3 and searched >= 3 and not capture and not in_check:
                        reduce = 1 if searched < 10 or pv_node else 2
                    score = -self._negamax(depth - 1 - reduce, -alpha - 1, -alpha, ply + 1)
                    if score > alpha and (reduce or beta - alpha > 1):
                        score = -self._negamax(depth - 1, -beta, -alpha, ply + 1)
            finally:
                self._unmake(m)
            searched += 1
            if score > best_score:
                best_score = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not capture:
                            k = self.killers[ply] if ply < 128 else [0, 0]
                            if k[0] != m:
                                k[1] = k[0]
                                k[0] = m
                            self.history[m] += depth * depth
                        break
        if searched == 0:
            # No legal move: mate or stalemate, both lose (4.1.1, 4.1.3).
            return -MATE + ply
        if best_score <= original_alpha:
            flag = _UPPER
        elif best_score >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        self.tt[key] = (depth, flag, best_score, best_move)
        return best_score

    def _quiesce(self, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 511:
            self._check_time()
        board = self._board
        c = int(board.turn)
        stand = self._eval * c
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        if ply > 40:
            return stand
        captures = []
        for m in board.pseudo_codes(c):
            victim = board.piece_value_at(m & 127)
            if victim:
                gain = _VICTIM[abs(victim)]
                if stand + gain + 150 < alpha:
                    continue  # delta pruning: cannot reach alpha
                captures.append((gain * 16 - _VICTIM[abs(board.piece_value_at(m >> 7))] // 16, m))
        captures.sort(reverse=True)
        for _, m in captures:
            self._make(m)
            if board.general_attacked(c):
                self._unmake(m)
                continue
            try:
                score = -self._quiesce(-beta, -alpha, ply + 1)
            finally:
                self._unmake(m)
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    return alpha
        return alpha
