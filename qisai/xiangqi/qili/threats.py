"""What a side can win at once in the repetition code 棋例: the content of a
chase (捉, 28.3, 29.1).

:func:`scan_threats` lists what the side to move can win at once - by a
capture (29.1 "能够直接吃子"), by a complete exchange ("通过完整的交换过程得子")
or by consecutive checks ("通过连续照将吃子") - each a :class:`Threat` with its
:class:`ThreatKind`, and keeps the threats that by 27.1, 27.2, 28.5 and 29.4
are no chase with their :class:`Exclusion`, so that the classifier can say
why.  Material is weighed by :mod:`qisai.xiangqi.qili.material` (25.3).

Every search counts nodes against a budget and, when the budget runs out,
answers "no gain": the conservative answer, which can only make a move
idle, never forbidden.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from qisai.xiangqi.board import Board
from qisai.xiangqi.pieces import Color, Piece, PieceType
from qisai.xiangqi.qili.material import (
    MATED,
    ZERO,
    Vec,
    definite,
    piece_value,
    vec_add,
    vec_max,
    vec_min,
    vec_sub,
)
from qisai.xiangqi.qili.mates import NodeBudget, checking_moves, mate_by_checks
from qisai.xiangqi.qili.pins import rook_pinned_by_horse
from qisai.xiangqi.squares import Move

__all__ = ["Exclusion", "Threat", "ThreatKind", "ThreatScan", "null_move", "scan_threats"]


class ThreatKind(enum.Enum):
    """How a threat wins its target (29.1)."""

    DIRECT = "direct"
    """A capture of a piece without a real root (28.3, 28.16 无根子)."""
    EXCHANGE = "exchange"
    """A capture that wins even after the recaptures: a rook taken by a
    horse, or a complete exchange (25.3, 29.1 "通过完整的交换过程得子")."""
    CHECK = "check"
    """Consecutive checks, then a capture (29.1 "通过连续照将吃子")."""
    JOINT = "joint"
    """The gain needs two pieces capturing on the target's square (联合捉,
    捉少根子, 28.16)."""
    PINNED = "pinned"
    """A rook pinned by a horse, unprotected by the AXF rule (diagrams 39-41;
    :mod:`qisai.xiangqi.qili.pins`)."""


class Exclusion(enum.Enum):
    """Why a threat is no chase although it wins material."""

    NONE = ""
    """It counts: a chase."""
    KING = "king"
    """27.1: the general's own capture (帅（将）本身叫吃，按闲)."""
    PAWN = "pawn"
    """27.2: a soldier's own capture (兵（卒）本身捉吃，按闲), a chase only in a
    mutual perpetual attack (细则 11)."""
    OFFER = "offer"
    """28.5: equal for equal, the target can take the attacker back (兑)."""
    MATED = "mated"
    """29.4, 细则 7: capturing allows an immediate mate."""


def null_move(board: Board) -> Board:
    """Return ``board.passed()``: what the side that just moved threatens is
    asked with the opponent passing.  :func:`scan_threats` never counts a
    capture of the general that such a position may allow."""
    return board.passed()


@dataclass(frozen=True, slots=True)
class Threat:
    """One way the side to move can win material at once (捉 content).

    Attributes:
        target: square of the opponent's piece that is won.
        target_piece: that piece.
        first_move: the first move of the winning line.
        attacker: the piece making the first move.
        gain: the material won, per corner
            (:func:`qisai.xiangqi.qili.material.definite`).
        how: how it wins the target (:class:`ThreatKind`).
        root: whether the target had a legal recapture (有根, 28.16);
            ``false_root``: a protector that attacks the square but cannot
            legally recapture (假根).
        line: the principal line of the gain.
        excluded: why the threat is no chase (:class:`Exclusion`;
            :attr:`Exclusion.NONE` when it is one).
        offer_mated: the target could take the attacker back, equal for
            equal, but would be mated at once: no offer (28.5 with 细则 7).
    """

    target: int
    target_piece: Piece
    first_move: Move
    attacker: Piece
    gain: Vec
    how: ThreatKind
    root: bool
    false_root: bool
    line: tuple[Move, ...]
    excluded: Exclusion = Exclusion.NONE
    offer_mated: bool = False
    unable_roots: frozenset[int] = frozenset()
    """Squares of the opponent's pieces that attack the target's square but
    may not recapture there (pinned, facing generals): its false roots."""


@dataclass
class ThreatScan:
    """All threats of the side to move in one position."""

    color: Color
    threats: list[Threat] = field(default_factory=list)
    captures: frozenset[tuple[int, int]] = frozenset()
    """Every legal capture (from, to) of the side to move, whatever it gains."""
    roots: dict[tuple[int, int], frozenset[int]] = field(default_factory=dict)
    """For each legal capture (from, to) of material after which the
    opponent has a legal recapture on ``to`` (a real root, 28.16), the
    squares of the pieces that may recapture."""

    def counting(self, *, pawn: bool = False) -> list[Threat]:
        """Return the threats that count as chases (pawn threats if ``pawn``)."""
        ok = (Exclusion.NONE, Exclusion.PAWN) if pawn else (Exclusion.NONE,)
        return [t for t in self.threats if t.excluded in ok]


def _takes_ignoring(board: Board, color: Color, a: int, t: int,
                    checkers: frozenset[int]) -> bool:
    """Whether ``color``'s piece on ``a`` may capture on ``t`` if the check
    given by the pieces on ``checkers`` were answered.

    Used for the chase content of a check under AXF (the opponent is
    treated as no longer in check): the capture must not expose
    ``color``'s general to any other attack, nor face the generals
    (4.1.2); a general's own capture must be safe from every piece.
    """
    turn, moved = board.turn, board.piece_at(a)
    board.push_code(a << 7 | t)
    try:
        if board.generals_face():
            return False
        k = board.king_square(color)
        if moved is not None and moved.type is PieceType.KING:
            return not board.is_attacked_by(color.other, k)
        return all(x in checkers for x in board.attackers(color.other, k))
    finally:
        board.pop_code()
        board.turn = turn


def _takers(board: Board, color: Color, t: int, checkers: frozenset[int]) -> list[int]:
    """``board.legal_attackers(color, t)``, or with ``checkers`` the
    captures that would be legal once their check were answered."""
    if not checkers:
        return board.legal_attackers(color, t)
    return [a for a in board.attackers(color, t)
            if _takes_ignoring(board, color, a, t, checkers)]


def _counter_capture_mated(board: Board, t: int, a: int, mate_plies: int,
                           mates: dict[int, bool]) -> bool:
    """Whether the opponent's piece on ``t`` taking the side to move's piece
    on ``a`` lets the side to move mate within ``mate_plies`` moves.

    细则7 ("一旦吃子立即会被对方将死") read for the offer of 28.5: a
    counter-capture that is mated at once is not really available, so the
    mutual attack is no exchange offer (兑) but a chase.  ``mates`` memoises
    the mate test by position.  ``False`` when ``mate_plies`` is 0.
    """
    if mate_plies <= 0:
        return False
    turn = board.turn
    board.push_code(t << 7 | a)
    try:
        hit = mates.get(board.key)
        if hit is None:
            hit = mate_by_checks(board, mate_plies, budget=200) is not None
            mates[board.key] = hit
        return hit
    finally:
        board.pop_code()
        board.turn = turn


class _Search:
    """The forcing-gain search of spec 3.2 for one position, one side S."""

    def __init__(self, board: Board, *, plies: int, budget: int, check_chains: bool,
                 mate_plies: int, recaptures: bool = True, hidden_roots: bool = True,
                 square_only: bool = False, mate_cache: dict[int, bool] | None = None,
                 checkers: frozenset[int] = frozenset(),
                 offers: frozenset[tuple[int, int]] = frozenset()) -> None:
        self.b = board
        # Captures (from, to) that stood as offers (兑, 28.5) at the root.
        self.offers = offers
        # S's pieces giving a check that the opponent is taken to have
        # answered (the chase content of a check, AXF); moved with the line.
        self.checkers = checkers
        self.square_only = square_only
        self.recaptures = recaptures
        self.hidden_roots = hidden_roots
        self.s = board.turn
        self.plies = plies
        self.budget = NodeBudget(budget)
        self.check_chains = check_chains
        self.mate_plies = mate_plies
        self._mate_cache: dict[int, bool] = {} if mate_cache is None else mate_cache

    def opponent_mates(self) -> bool:
        """After S's capture (O to move): can O mate at once (29.4)?"""
        if self.mate_plies <= 0:
            return False
        key = self.b.key
        hit = self._mate_cache.get(key)
        if hit is None:
            hit = mate_by_checks(self.b, self.mate_plies, budget=200) is not None
            self._mate_cache[key] = hit
        return hit

    def s_root(self, m: Move, forbid: int) -> tuple[Vec, list[Move]]:
        """Play S's first move ``m`` and return the gain of the best line."""
        b = self.b
        t = m.to_square
        val = piece_value(b.piece_at(t), t)
        took = bool(b.piece_value_at(t))
        saved = self.checkers
        if m.from_square in saved:
            self.checkers = (saved - {m.from_square}) | {t}
        b.push_unchecked(m)
        gives = b.is_check()
        child, line = self.o_node(1, gives, took, frozenset({t}), frozenset(), forbid,
                                  first_reply=took)
        b.pop()
        self.checkers = saved
        return vec_add(val, child), [m, *line]

    def s_node(self, ply: int, chain: bool, captured: bool, s_moved: frozenset[int],
               o_moved: frozenset[int], forbid: int) -> tuple[Vec, list[Move]]:
        b = self.b
        if not self.budget.take():
            return ZERO, []
        in_check = b.is_check() and not self.square_only
        # The horizon: a side in check is searched two plies further, so a
        # check is never judged by its mere appearance.
        if ply >= self.plies + (2 if in_check else 0):
            return ZERO, []
        best: Vec | None
        pv: list[Move]
        moves: list[Move]
        if in_check:
            moves = b.legal_moves()
            if not moves:
                return MATED, []
            best, pv = None, []
        elif captured:
            # After the first capture only the exchange goes on: recaptures
            # of the opponent's pieces that moved in the line.
            best, pv = ZERO, []
            moves = [] if not self.recaptures else [
                Move(a, t) for t in o_moved if t != forbid and b.piece_value_at(t)
                for a in b.legal_attackers(self.s, t)]
        else:
            best, pv = ZERO, []
            legal = b.legal_moves()
            moves = [m for m in legal
                     if b.piece_value_at(m.to_square) and m.to_square != forbid
                     and not self._idle_capture(m)]
            if chain and self.check_chains:
                moves.extend(x for x in checking_moves(b, legal)
                             if not b.piece_value_at(x.to_square))
        for m in moves:
            t = m.to_square
            val = piece_value(b.piece_at(t), t)
            took = bool(b.piece_value_at(t))
            b.push_unchecked(m)
            if took and self.opponent_mates():
                b.pop()
                continue
            gives = b.is_check()
            child, line = self.o_node(ply + 1, chain and gives, captured or took,
                                      (s_moved - {m.from_square}) | {t}, o_moved - {t},
                                      forbid, first_reply=took and not captured)
            b.pop()
            total = vec_add(val, child)
            if best is None or total[0] > best[0] or (total[0] == best[0] and not pv):
                pv = [m, *line]
            best = total if best is None else vec_max(best, total)
        return (best if best is not None else MATED), pv

    def _idle_capture(self, m: Move) -> bool:
        """Whether S's first capture ``m`` on a check line wins nothing
        because made directly it would be idle (29.1 read with 27.1, 27.2
        and 28.5): the general's or a soldier's own capture, or an equal
        piece taken in a mutual attack that stood before the checks (兑: the
        checks did not make that capture winnable)."""
        b = self.b
        a = b.piece_at(m.from_square)
        if a is None or a.type is PieceType.KING or a.type is PieceType.PAWN:
            return True
        return (m.from_square, m.to_square) in self.offers

    def o_node(self, ply: int, chain: bool, captured: bool, s_moved: frozenset[int],
               o_moved: frozenset[int], forbid: int, *, first_reply: bool
               ) -> tuple[Vec, list[Move]]:
        b = self.b
        if not self.budget.take():
            return ZERO, []
        # square_only (AXF): only recaptures on the square count (a real
        # root), whatever else the opponent could do.
        in_check = b.is_check() and not self.square_only
        if in_check and ply == 1 and self.checkers and all(
                x in self.checkers for x in b.attackers(self.s, b.king_square(self.s.other))):
            in_check = False  # the check is taken as answered (AXF chase content)
        if ply >= self.plies + (2 if in_check else 0):
            return ZERO, []
        worst: Vec | None
        pv: list[Move]
        moves: list[Move]
        if in_check:
            moves = b.legal_moves()
            if not moves:
                # Mates are not material; they are 将/杀 matters (spec 3.2).
                return ZERO, []
            worst, pv = None, []
        else:
            worst, pv = ZERO, []
            o = self.s.other
            checkers = self.checkers if ply == 1 else frozenset()
            moves = [Move(a, t) for t in s_moved if b.piece_value_at(t)
                     for a in _takers(b, o, t, checkers)]
            if first_reply and self.hidden_roots:
                # 28.16 暗根: a check that wins the capturer back protects.
                caps = set(moves)
                moves.extend(x for x in checking_moves(b) if x not in caps)
        explored = 0
        for m in moves:
            t = m.to_square
            val = piece_value(b.piece_at(t), t)
            b.push_unchecked(m)
            child, line = self.s_node(ply + 1, chain, captured, s_moved - {t},
                                      (o_moved - {m.from_square}) | {t}, forbid)
            b.pop()
            if self.budget.left < 0:
                break
            explored += 1
            total = vec_sub(child, val)
            if worst is None or total[0] < worst[0]:
                pv = [m, *line]
            worst = total if worst is None else vec_min(worst, total)
        if explored < len(moves):
            # Budget gone with replies unexplored: claim no gain (conservative).
            return ZERO, []
        return (worst if worst is not None else ZERO), pv


def _first_capture(board: Board, line: list[Move]) -> tuple[int, Piece] | None:
    """Square and piece of the first capture by the line's first mover."""
    b = board.copy(stack=False)
    for i, m in enumerate(line):
        p = b.piece_at(m.to_square)
        if i % 2 == 0 and p is not None:
            return m.to_square, p
        b.push_unchecked(m)
    return None


def scan_threats(board: Board, *, plies: int = 8, budget: int = 600,
                 check_chains: bool = True, exchanges: bool = True,
                 mate_plies: int = 1, hidden_roots: bool = True,
                 square_only: bool = False, check_budget: int | None = None,
                 mate_cache: dict[int, bool] | None = None,
                 pinned_rooks_unprotected: bool = False) -> ThreatScan:
    """Return every immediate material threat of the side to move.

    For each legal capture of a piece that is material (25.3) the forcing
    search weighs the capture with its recaptures; for each check (when
    ``check_chains``) it follows consecutive checks to a capture.  Threats
    whose capture lets the opponent mate within ``mate_plies`` moves are
    dropped (29.4).  ``hidden_roots``: the opponent may answer a capture
    with a check that wins the capturer back (暗根, 28.16).  ``square_only``:
    weigh only recaptures on the target's square (a real root), as AXF
    does.  ``check_budget`` bounds each consecutive-check search (default
    ``budget``); ``mate_cache`` memoises the mate-in-N tests across calls
    (keyed by position).  Threats by the general's or a pawn's own capture and
    same-value mutual attacks are kept with ``excluded`` set so the caller
    can explain them.  ``budget`` bounds the nodes of each search.
    ``pinned_rooks_unprotected`` (AXF, diagrams 39-41): a rook pinned by a
    horse counts as unprotected, its capture a gain of the whole rook
    (:attr:`ThreatKind.PINNED`; :mod:`qisai.xiangqi.qili.pins`).
    """
    b = board.copy(stack=False)
    s = b.turn
    o = s.other
    scan = ThreatScan(s)
    mates: dict[int, bool] = {} if mate_cache is None else mate_cache
    if check_budget is None:
        check_budget = budget
    if b.is_check():
        return scan
    checkers: frozenset[int] = frozenset(b.attackers(s, b.king_square(o)))
    if checkers:
        # A "pass" after a check (used for the chase content of checks, AXF):
        # capturing the general is no material, and the search below must
        # not start from a position where a general can be taken.  The
        # opponent's roots and offers are judged as if the check were
        # answered: a recapture that leaves only this check standing counts
        # (issue 13.1; otherwise every root would look false and every
        # exchange offer would be lost).
        check_chains = False
    legal = b.legal_moves()
    scan.captures = frozenset((m.from_square, m.to_square) for m in legal
                              if b.piece_value_at(m.to_square))
    offers: set[tuple[int, int]] = set()
    roots: dict[tuple[int, int], frozenset[int]] = {}
    for m in legal:
        t = m.to_square
        victim = b.piece_at(t)
        if victim is None:
            continue
        attacker = b.piece_at(m.from_square)
        assert attacker is not None
        value = piece_value(victim, t)
        if not definite(value):
            continue  # 25.3: the general and uncrossed pawns are not material
        excluded = Exclusion.NONE
        offer_mated = False
        if attacker.type is PieceType.KING:
            excluded = Exclusion.KING  # 27.1: 帅(将)本身叫吃, 按闲
        elif attacker.type is PieceType.PAWN:
            excluded = Exclusion.PAWN  # 27.2: 兵(卒)本身捉吃, 按闲 (unless 互打)
        elif (piece_value(attacker, m.from_square) == value
              and t in _takers(b, o, m.from_square, checkers)):
            if _counter_capture_mated(b, t, m.from_square, mate_plies, mates):
                # 细则7: taking back would be mated at once: no real offer.
                offer_mated = True
            else:
                # 28.5 兑: the target can take the attacker back, equal for equal.
                excluded = Exclusion.OFFER
                offers.add((m.from_square, t))
        moved_checkers = (checkers - {m.from_square}) | {t} \
            if m.from_square in checkers else checkers
        b.push_unchecked(m)
        # 28.16: a root is a legal recapture; a protector that attacks the
        # square but may not take (pinned, facing generals) is a false root.
        takers = frozenset(_takers(b, o, t, moved_checkers))
        unable = frozenset(b.attackers(o, t)) - takers
        root = bool(takers)
        false_root = not root and bool(unable)
        if root:
            roots[(m.from_square, t)] = takers
        mated = False
        if mate_plies > 0:
            hit = mates.get(b.key)
            if hit is None:
                hit = mate_by_checks(b, mate_plies, budget=200) is not None
                mates[b.key] = hit
            mated = hit
        b.pop()
        if mated and excluded is Exclusion.NONE:
            excluded = Exclusion.MATED  # 29.4, 细则 7
        # First the capture weighed against recaptures on the square only.
        single = _Search(b, plies=plies, budget=budget, check_chains=False,
                         mate_plies=mate_plies, recaptures=exchanges,
                         hidden_roots=hidden_roots, square_only=square_only,
                         mate_cache=mates, checkers=checkers)
        gain, line = single.s_root(m, forbid=t)
        how = ThreatKind.EXCHANGE if root else ThreatKind.DIRECT
        if not definite(gain) and exchanges:
            full = _Search(b, plies=plies, budget=budget, check_chains=False,
                           mate_plies=mate_plies, hidden_roots=hidden_roots,
                           mate_cache=mates, checkers=checkers)
            gain, line = full.s_root(m, forbid=-1)
            how = ThreatKind.JOINT
        if (pinned_rooks_unprotected and not definite(gain)
                and rook_pinned_by_horse(b, t) is not None):
            gain, line, how = value, [m], ThreatKind.PINNED
        if definite(gain):
            scan.threats.append(Threat(t, victim, m, attacker, gain, how, root, false_root,
                                       tuple(line), excluded, offer_mated, unable))
    scan.roots = roots
    if check_chains:
        for m in checking_moves(b, legal):
            if b.piece_value_at(m.to_square):
                continue  # a checking capture is weighed above
            search = _Search(b, plies=plies, budget=check_budget, check_chains=True,
                             mate_plies=mate_plies, hidden_roots=hidden_roots,
                             mate_cache=mates, offers=frozenset(offers))
            gain, line = search.s_root(m, forbid=-1)
            if not definite(gain):
                continue
            first = _first_capture(b, line)
            if first is None:
                continue
            attacker = b.piece_at(m.from_square)
            assert attacker is not None
            scan.threats.append(Threat(first[0], first[1], m, attacker, gain, ThreatKind.CHECK,
                                       False, False, tuple(line)))
    return scan
