"""The ruling on a repeated cycle in the repetition code 棋例 (待判局面, 24):
find the repetition, classify every move of the cycle, weigh each side's
cycle (25.2) and give the verdict (24, 26) with its explanation.

Entry points:

* :func:`judge` - the ruling on the board's last position, or ``None`` when
  the position has not yet occurred ``occurrences`` times in the reversible
  part of the game;
* :func:`forbidden_moves` - the moves of the side to move that would complete
  a forbidden repetition (UCCI ``banmoves``);
* :func:`first_ruling` - play ICCS moves from a FEN and rule at the first
  position where a ruling applies (what ``qisai judge`` prints);
* :func:`repetition_window` - where the repetition starts and how often the
  position occurred.

>>> from qisai.xiangqi.board import Board
>>> from qisai.xiangqi.squares import Move
>>> b = Board("4k4/9/4b4/9/9/9/9/9/9/R2K5 w - - 0 1")
>>> for m in "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9".split():
...     b.push(Move.from_iccs(m))
>>> judge(b).verdict
<Verdict.RED_LOSES: 'red_loses'>
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.qili.classify import (
    Classification,
    classify,
    counted_label,
    move_ruling,
    shared_memo,
)
from qisai.xiangqi.qili.pins import pinned_rook_victims
from qisai.xiangqi.qili.profiles import QiliProfile, get_profile
from qisai.xiangqi.qili.rulings import Label, MoveRuling, Ruling
from qisai.xiangqi.qili.verdict import decide, side_status
from qisai.xiangqi.squares import Move

__all__ = ["first_ruling", "forbidden_moves", "judge", "repetition_window"]


def _reversible_history(board: Board) -> tuple[Board, list[Move], list[int], int]:
    """Root board, moves, position keys and the index of the first position
    after the last capture (the reversible window, spec 2.2)."""
    root = board.root()
    moves = list(board.move_stack)
    keys = board.history_keys()
    start = 0
    b = root.copy(stack=False)
    for i, m in enumerate(moves):
        if b.is_capture(m):
            start = i + 1
        b.push_unchecked(m)
    return root, moves, keys, start


def repetition_window(board: Board) -> tuple[int, int]:
    """Return ``(first_ply, occurrence)`` for the board's last position.

    ``occurrence`` is how many times the position (placement and side to
    move) has occurred since the last capture, counting now; ``first_ply``
    is the index of its first occurrence there (the window's first move).
    """
    _, _, keys, start = _reversible_history(board)
    now = keys[-1]
    hits = [i for i in range(start, len(keys)) if keys[i] == now]
    return hits[0], len(hits)


def judge(board: Board, profile: str | QiliProfile = "cxa",
          occurrences: int | None = None) -> Ruling | None:
    """Rule on the board's last position if it is a repetition (待判局面, 24).

    The position (placement and side to move) must have occurred at least
    ``occurrences`` times (default: the profile's, 3) since the last capture;
    every move from its first occurrence to now is classified (将/杀/捉/闲),
    each side's cycle is allowed or forbidden (25.2) and the verdict follows
    26.1-26.4 and 24.1-24.3.  Once the forbidden side has had to change
    (``occurrences`` reached) and the cycle recurs ``extra_cycles_to_lose``
    more times, it loses (24.3).

    Returns the :class:`Ruling`, or ``None`` when there is no such repetition.
    Raises :class:`ValueError` for an unknown profile or ``occurrences < 2``.
    """
    prof = get_profile(profile)
    need = prof.occurrences if occurrences is None else occurrences
    if need < 2:
        raise XiangqiError(f"重复次数至少为 2，不是 {need}",
                           f"occurrences must be at least 2, not {need}")
    root, moves, keys, start = _reversible_history(board)
    now = keys[-1]
    hits = [i for i in range(start, len(keys)) if keys[i] == now]
    if len(hits) < need:
        return None
    return _rule_window(root, moves, hits[0], len(hits), prof, need)


@dataclass(frozen=True, slots=True)
class _Step:
    """One move of the window, classified.

    ``victims`` and ``pinned_victims`` are identities of the pieces it
    chases (the square each stood on when the window opened, so that a
    victim is followed as it moves: AXF 长捉 of one and the same piece), the
    latter those that are rooks pinned by a horse (AXF diagrams 39-41).
    """

    before: Board
    move: Move
    ply: int
    classified: Classification
    victims: frozenset[int]
    pinned_victims: frozenset[int]


def _steps(root: Board, moves: list[Move], first: int, profile: QiliProfile,
           ) -> tuple[list[_Step], Board]:
    """Classify every move of the window from ply ``first`` on (memoised);
    return the steps and the board after the last move."""
    b = root.copy(stack=False)
    for m in moves[:first]:
        b.push_unchecked(m)
    memo = shared_memo(profile)
    steps: list[_Step] = []
    ident = {sq: sq for sq in range(90) if b.piece_at(sq) is not None}
    for ply in range(first, len(moves)):
        m = moves[ply]
        key = (b.key, m)
        c = memo.moves.get(key)
        if c is None:
            c = classify(b, m, profile, memo)
            memo.moves[key] = c
        mover_id = ident.pop(m.from_square, m.from_square)
        ident.pop(m.to_square, None)
        ident[m.to_square] = mover_id
        victims = frozenset(ident[t.target] for t in c.chases if t.target in ident)
        before = b.copy(stack=False)
        b.push_unchecked(m)
        pinned = frozenset(
            ident[t] for t in pinned_rook_victims(b, tuple(t.target for t in c.chases))
            if t in ident) if profile.pinned_rook_chase_first else frozenset()
        steps.append(_Step(before, m, ply, c, victims, pinned))
    return steps, b


def _rule_window(root: Board, moves: list[Move], first: int, occurrence: int,
                 profile: QiliProfile, need: int) -> Ruling:
    steps, last = _steps(root, moves, first, profile)
    fen = last.fen()
    # 27.2 / 细则 11: when both sides attack on every move counting the
    # soldiers' own attacks (相互长打, 28.14), those attacks are chases.
    mutual = False
    if profile.pawn_chase_in_mutual_attack and any(s.classified.pawn_chases for s in steps):
        mutual = all(counted_label(s.classified, profile, True) is not Label.IDLE
                     for s in steps)
    rulings: list[MoveRuling] = []
    labels: dict[Color, list[Label]] = {Color.RED: [], Color.BLACK: []}
    chased: dict[Color, list[frozenset[int]]] = {Color.RED: [], Color.BLACK: []}
    pinned: dict[Color, list[frozenset[int]]] = {Color.RED: [], Color.BLACK: []}
    for s in steps:
        counts = counted_label(s.classified, profile, mutual)
        rulings.append(move_ruling(s.before, s.move, s.ply, s.classified, counts))
        mover = s.before.turn
        labels[mover].append(counts)
        # 28.12 长捉 (and AXF's one-check-one-chase) follow the pieces that
        # checking and chasing moves attack; other moves attack none.
        attack = counts in (Label.CHASE, Label.CHECK)
        chased[mover].append(s.victims if attack else frozenset())
        pinned[mover].append(s.pinned_victims if attack else frozenset())
    red = side_status(Color.RED, labels[Color.RED], chased[Color.RED], profile,
                      pinned=pinned[Color.RED])
    black = side_status(Color.BLACK, labels[Color.BLACK], chased[Color.BLACK], profile,
                        pinned=pinned[Color.BLACK])
    verdict, clause, vzh, ven = decide(red, black, occurrence, profile, need)
    zh_lines = [f"局面第{occurrence}次出现（循环反复，24）。按{profile.title_zh}："]
    en_lines = [f"The position has occurred {occurrence} times (24). Under the "
                f"{profile.title_en}:"]
    # Each move of the loop once: the window repeats it (occurrence - 1) times.
    told: set[tuple[int, Move]] = set()
    for s, mr in zip(steps, rulings, strict=True):
        if (s.before.key, s.move) in told:
            continue
        told.add((s.before.key, s.move))
        zh_lines.append(f"  {mr.reason_zh}")
        en_lines.append(f"  {mr.reason_en}")
    zh_lines += [red.reason_zh + "；", black.reason_zh + "。", "裁定：" + vzh]
    en_lines += [red.reason_en + ".", black.reason_en + ".", "Ruling: " + ven]
    return Ruling(profile.name, fen, occurrence, first, tuple(rulings), red, black, verdict,
                  clause, "\n".join(zh_lines), "\n".join(en_lines))


def forbidden_moves(board: Board, profile: str | QiliProfile = "cxa",
                    occurrences: int | None = None) -> list[Move]:
    """Return the legal moves of the side to move that would complete a
    repetition in which that side must change or loses (UCCI ``banmoves``).

    A move is listed when after it the position has occurred ``occurrences``
    times (default: the profile's) since the last capture and
    :func:`judge` rules against the mover.  Raises :class:`ValueError` for
    an unknown profile.
    """
    prof = get_profile(profile)
    need = prof.occurrences if occurrences is None else occurrences
    mover = board.turn
    _, _, keys, start = _reversible_history(board)
    seen: dict[int, int] = {}
    for k in keys[start:]:
        seen[k] = seen.get(k, 0) + 1
    out: list[Move] = []
    b = board.copy()
    for m in b.legal_moves():
        if b.is_capture(m):
            continue
        b.push_unchecked(m)
        try:
            if seen.get(b.key, 0) + 1 >= need:
                r = judge(b, prof, need)
                if r is not None and mover in (r.verdict.loser, r.verdict.must_change):
                    out.append(m)
        finally:
            b.pop()
    return out


def first_ruling(fen: str, moves: Iterable[str], profile: str | QiliProfile = "cxa",
                 occurrences: int | None = None) -> Ruling | None:
    """Play ICCS ``moves`` from ``fen`` and return the ruling at the first
    position where :func:`judge` gives one, or ``None``.

    Raises :class:`~qisai.xiangqi.errors.FenError`,
    :class:`~qisai.xiangqi.errors.InvalidMoveError` or
    :class:`~qisai.xiangqi.errors.IllegalMoveError` for bad input.
    """
    b = Board(fen)
    for text in moves:
        b.push(Move.from_iccs(text))
        r = judge(b, profile, occurrences)
        if r is not None:
            return r
    return None
