"""The character of one move in the repetition code 棋例: 将, 杀, 捉 or 闲
(28.1-28.9), with the reason in Chinese and English and the clauses.

:func:`classify` goes through the clauses in the order the rule book weighs
them (27.4, 细则 12: "从重"): a check (28.1) before a mate threat (28.2)
before a chase (28.3), and for a move that is none of these, the clause that
makes its threats idle (27.1, 27.2, 27.3, 29.2, 29.4, 细则 6, 7, 13) or its
finer kind of idle move (28.5-28.9).  The label depends only on the
position before and after the move (spec 2); :mod:`qisai.xiangqi.qili.cycle`
weighs the labels of a whole cycle.

>>> from qisai.xiangqi.board import Board
>>> from qisai.xiangqi.squares import Move
>>> b = Board("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1")
>>> classify_move(b, Move.from_iccs("a0a9")).label
<Label.CHECK: '将'>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from qisai.xiangqi import notation
from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.pieces import Color, Piece, PieceType
from qisai.xiangqi.qili.material import piece_value, vec_ge
from qisai.xiangqi.qili.mates import mate_by_checks
from qisai.xiangqi.qili.profiles import QiliProfile, get_profile
from qisai.xiangqi.qili.rulings import Label, MoveRuling, Nuance
from qisai.xiangqi.qili.threats import (
    Exclusion,
    Threat,
    ThreatKind,
    ThreatScan,
    null_move,
    scan_threats,
)
from qisai.xiangqi.squares import Move, square_name

__all__ = [
    "Classification",
    "Memo",
    "classify",
    "classify_move",
    "clear_shared_memo",
    "counted_label",
    "move_ruling",
    "shared_memo",
]


def _zh(piece: Piece) -> str:
    return piece.chinese()


def _en(piece: Piece) -> str:
    return piece.english()


@dataclass(frozen=True, slots=True)
class Classification:
    """A move's classification, independent of its place in the window.

    Attributes:
        label: 将/杀/捉/闲 (28.1-28.9); ``nuance`` a finer note.
        reason_zh / reason_en: why, citing ``clauses``.
        chases: the new chases that count (28.3); kept under a check or a
            mate threat too (AXF weighs them, 27.4 explains them).
        pawn_chases: new attacks by a soldier's own capture (27.2): idle,
            but chases in a mutual perpetual attack (细则 11).
        joint: new chases that need two pieces (联合捉, 28.16).
    """

    label: Label
    reason_zh: str
    reason_en: str
    clauses: tuple[str, ...]
    nuance: Nuance = Nuance.NONE
    chases: tuple[Threat, ...] = ()
    pawn_chases: tuple[Threat, ...] = ()
    joint: tuple[Threat, ...] = ()


# ------------------------------------------------------------------ memo

@dataclass
class Memo:
    """Memo of threat scans and mate searches, keyed by position, and of move
    classifications, keyed by position and move (one profile's)."""

    scans: dict[int, ThreatScan] = field(default_factory=dict)
    mates: dict[int, bool] = field(default_factory=dict)
    capture_mates: dict[int, bool] = field(default_factory=dict)
    moves: dict[tuple[int, Move], Classification] = field(default_factory=dict)

    def size(self) -> int:
        """Return the number of entries."""
        return len(self.scans) + len(self.mates) + len(self.capture_mates) + len(self.moves)


_SHARED_LIMIT = 50_000
_shared: dict[QiliProfile, Memo] = {}


def shared_memo(profile: QiliProfile) -> Memo:
    """Return the memo kept between rulings, per profile.

    A refereed game asks for a ruling each time a cycle recurs (24.3: the
    order to change, then the loss), over the same positions and moves;
    every entry depends only on the position (and move) and the profile, so
    it stays true.  Emptied when it grows past ``_SHARED_LIMIT`` entries.
    """
    memo = _shared.get(profile)
    if memo is None or memo.size() > _SHARED_LIMIT:
        memo = _shared[profile] = Memo()
    return memo


def clear_shared_memo() -> None:
    """Forget every shared memo (for tests that change the code under them:
    mutation testing forks from a process that ran the unmutated code)."""
    _shared.clear()


def _scan(board: Board, profile: QiliProfile, memo: Memo) -> ThreatScan:
    hit = memo.scans.get(board.key)
    if hit is None:
        # Without complete exchanges only the capture and its recapture count
        # (and, for a hidden root, the check, the evasion and the recapture).
        plies = profile.forcing_plies if profile.exchange_gains else (
            4 if profile.hidden_roots else 2)
        hit = scan_threats(board, plies=plies,
                           budget=profile.node_budget,
                           check_chains=profile.check_sequence_gains,
                           exchanges=profile.exchange_gains,
                           mate_plies=profile.mate_after_capture_plies,
                           hidden_roots=profile.hidden_roots,
                           square_only=profile.root_by_recapture_only,
                           check_budget=profile.check_node_budget,
                           mate_cache=memo.capture_mates,
                           pinned_rooks_unprotected=profile.pinned_rook_chase_first)
        memo.scans[board.key] = hit
    return hit


def _has_mate(board: Board, profile: QiliProfile, memo: Memo) -> bool:
    hit = memo.mates.get(board.key)
    if hit is None:
        hit = mate_by_checks(board, profile.mate_threat_checks,
                             budget=profile.node_budget) is not None
        memo.mates[board.key] = hit
    return hit


# ------------------------------------------------- which threats are new

_OLD_CHASE = (Exclusion.NONE, Exclusion.PAWN)
"""Threats that make a later one no new chase (细则 6 "从捉到捉"): a chase, or
a soldier's own attack (27.2 makes it idle, not harmless)."""

_WINS_MATERIAL = (Exclusion.NONE, Exclusion.PAWN, Exclusion.KING)
"""Threats that really win the piece, whoever takes it: idle by 27.1 or
27.2 for the capturer, but the piece is lost all the same (not so an offer,
28.5, or a capture that is mated, 29.4)."""


def _is_new(threat: Threat, before: ThreatScan, move: Move, profile: QiliProfile,
            escaping: bool = False) -> bool:
    """29.2 / 细则 2: a chase must arise from the move just made.

    CXA (细则 2, 3, 6): the target was not already won with at least this
    gain before the move, by whichever piece.  AXF (``new_chase_by_attack``):
    the attacking piece (followed if it is the one that moved) could not
    capture the target before the move.  ``escaping`` (AXF,
    ``root_cut_by_escape_is_idle``, issue 13.3): the move takes the mover's
    own piece out of attack; then a threat of a piece that did not move,
    could already capture the target before and met a real root there (the
    move only put or removed a screen and so cut the target's root) is a
    by-product, not new.  Only such a root cut (issue 35.1): when a piece
    that recaptured before still attacks the square but may no longer take
    (the move pinned it: ``Threat.unable_roots``, a false root; AXF diagrams
    83-85, Fairy-Stockfish's "new pins create fake roots"), or had no root
    before and the move takes away its answer instead (it pins the target,
    so a mutual attack, 兑 28.5, becomes one-sided; AXF diagrams 53 and 55),
    the attack on the unprotected piece is new and a chase
    (``tests/data/xiangqi/axf_escape_chase_cases.json``).  What decides the
    exclusion: the AXF rule-book diagrams as reviewed in spec §5.1 (review
    2026-12: a root cut is no chase when the move answers an attack on the
    mover's own piece), Fairy-Stockfish's AXF judge, and the real-game cycle
    of ``test_axf_root_cut_by_an_escape_real_game`` (车6进1 escapes a soldier
    and removes the cannon screen that protected it; Fairy-Stockfish: draw).
    No record of the test data depends on it either way.  A root cut that
    is the move's own purpose stays a chase (``test_axf_root_cut_without_
    escape_is_a_chase``); CXA counts every root cut (fig. 3 "断根捉马").
    """
    if profile.new_chase_by_attack and threat.how is not ThreatKind.CHECK:
        a = threat.first_move.from_square
        old = move.from_square if a == move.to_square else a
        roots = before.roots.get((a, threat.target))
        if (escaping and a != move.to_square and roots
                and not roots & threat.unable_roots):
            # The target had a real root and no protector of it is merely
            # pinned now: the escape cut it through a screen or a line.
            return False
        return not any(b.first_move.from_square == old and b.target == threat.target
                       and vec_ge(b.gain, threat.gain)
                       for b in before.threats if b.excluded in _OLD_CHASE)
    return not any(b.target == threat.target and vec_ge(b.gain, threat.gain)
                   for b in before.threats if b.excluded in _OLD_CHASE)


def _escapes(before: Board, move: Move, profile: QiliProfile, memo: Memo) -> bool:
    """Whether ``move`` takes the mover's piece out of a threat: before it,
    the opponent could win that piece (by any piece, a soldier's or the
    general's own capture included).  Only asked under
    ``root_cut_by_escape_is_idle`` (AXF, issue 13.3)."""
    if not profile.root_cut_by_escape_is_idle:
        return False
    o_scan = _scan(null_move(before), profile, memo)
    return any(t.target == move.from_square and t.excluded in _WINS_MATERIAL
               for t in o_scan.threats)


@dataclass(frozen=True, slots=True)
class _Threats:
    """What the mover threatens after its move (the opponent passing, 29.1),
    against what it threatened before."""

    before: ThreatScan
    after: ThreatScan
    escaping: bool
    """The move takes the mover's own piece out of attack (AXF, 29.2)."""
    new: tuple[Threat, ...]
    """The threats the move itself made (29.2, 细则 2)."""

    @property
    def chases(self) -> tuple[Threat, ...]:
        """New threats that count as chases (28.3), joint ones apart."""
        return tuple(t for t in self.new
                     if t.excluded is Exclusion.NONE and t.how is not ThreatKind.JOINT)

    @property
    def joint(self) -> tuple[Threat, ...]:
        """New chases that need two pieces (联合捉, 捉少根子, 28.16)."""
        return tuple(t for t in self.new
                     if t.excluded is Exclusion.NONE and t.how is ThreatKind.JOINT)

    @property
    def pawn(self) -> tuple[Threat, ...]:
        """New threats by a soldier's own capture (27.2)."""
        return tuple(t for t in self.new if t.excluded is Exclusion.PAWN)

    @property
    def old(self) -> list[Threat]:
        """Threats after the move that would count but are not new (细则 6)."""
        return [t for t in self.after.threats if t.excluded is Exclusion.NONE]

    def new_exclusions(self) -> set[Exclusion]:
        """Why the new threats are no chases."""
        return {t.excluded for t in self.new}


def _threats(before: Board, after: Board, move: Move, profile: QiliProfile,
             memo: Memo) -> _Threats:
    after_scan = _scan(null_move(after), profile, memo)
    before_scan = _scan(before, profile, memo)
    escaping = _escapes(before, move, profile, memo)
    new = tuple(t for t in after_scan.threats
                if _is_new(t, before_scan, move, profile, escaping))
    return _Threats(before_scan, after_scan, escaping, new)


# ------------------------------------------------------- the reasons

def _threat_zh(t: Threat) -> str:
    name = _zh(t.target_piece)
    by = _zh(t.attacker)
    if t.how is ThreatKind.CHECK:
        return f"{by}照将后可得{name}（连续照将得子，29.1）"
    if t.how is ThreatKind.JOINT:
        return f"联合攻击少根{name}（28.16）"
    if t.how is ThreatKind.EXCHANGE:
        return f"{by}攻击{name}，交换后得子（25.3、29.1）"
    if t.how is ThreatKind.PINNED:
        return f"{by}攻击被马牵制的{name}，按无根车论（亚洲象联规则图39-41）"
    root = "假根" if t.false_root else "无根"
    if t.offer_mated:
        return (f"{by}攻击{root}{name}，对方{name}吃回即被将死，不成兑"
                "（28.3、28.5、细则7）")
    return f"{by}攻击{root}{name}（28.3、28.16）"


def _threat_en(t: Threat) -> str:
    name = _en(t.target_piece)
    by = _en(t.attacker)
    if t.how is ThreatKind.CHECK:
        return f"the {by} checks and then wins the {name} (29.1)"
    if t.how is ThreatKind.JOINT:
        return f"two pieces attack the under-protected {name} (28.16)"
    if t.how is ThreatKind.EXCHANGE:
        return f"the {by} attacks the {name} and wins material after the exchange (25.3, 29.1)"
    if t.how is ThreatKind.PINNED:
        return (f"the {by} attacks the {name} pinned by a horse, which counts as unprotected "
                "(AXF diagrams 39-41)")
    root = "falsely protected" if t.false_root else "unprotected"
    if t.offer_mated:
        return (f"the {by} attacks the {root} {name}; taking back would be mated at once, "
                "so it is no exchange offer (28.3, 28.5, rule 7)")
    return f"the {by} attacks the {root} {name} (28.3, 28.16)"


def _names_zh(threats: Sequence[Threat]) -> str:
    return "、".join(_zh(t.target_piece) for t in threats)


def _names_en(threats: Sequence[Threat]) -> str:
    return ", ".join(_en(t.target_piece) for t in threats)


# ----------------------------------------------------- the classifier

def classify(before: Board, move: Move, profile: QiliProfile, memo: Memo) -> Classification:
    """Return the classification of ``move`` in ``before`` under ``profile``.

    The clauses in the order the rule book weighs them; the first that
    applies decides.  Raises :class:`~qisai.xiangqi.errors.XiangqiError`
    when no piece stands on the move's square and
    :class:`~qisai.xiangqi.errors.IllegalMoveError` for an illegal move.
    """
    piece = before.piece_at(move.from_square)
    if piece is None:
        raise XiangqiError(f"{square_name(move.from_square)} 上没有棋子，不能走 {move.iccs()}",
                           f"no piece on {square_name(move.from_square)} for {move.iccs()}")
    after = before.copy(stack=False)
    after.push(move)
    # 28.1 将; 27.4, 细则 12: a check outweighs whatever else the move does.
    if after.is_check():
        return _check(before, after, move, piece, profile, memo)
    # 28.9 read with CXA examples 13 and 17: the general answering a check
    # threatens nothing that counts.
    if before.is_check() and piece.type is PieceType.KING and profile.king_evasion_is_idle:
        return _KING_EVASION
    # 28.2 杀: mate by consecutive checks from the next move on, a threat
    # the move itself made (the mate was not there before it).
    mate_threat = (_has_mate(null_move(after), profile, memo)
                   and not _has_mate(before, profile, memo))
    threats = _threats(before, after, move, profile, memo)
    if mate_threat:
        return _mate_threat(threats)
    chases = threats.chases
    # 27.3, 细则 13: a defensive key point whose chase of an advisor or an
    # elephant is incidental.
    if chases and _defensive_key_point(before, after, move, chases, profile, memo):
        return _key_point(threats)
    # 28.3 捉, new by 29.2 and 细则 2.
    if chases:
        return _chase(threats, piece)
    # 28.16 捉少根子 by two pieces: a chase that does not forbid (25.2).
    if threats.joint:
        return _joint_chase(threats)
    return _idle(before, after, move, threats, profile)


def _check(before: Board, after: Board, move: Move, piece: Piece, profile: QiliProfile,
           memo: Memo) -> Classification:
    """28.1 将 (and 27.4: whatever else the move does)."""
    chases: tuple[Threat, ...] = ()
    zh, en = f"{_zh(piece)}照将（28.1）", f"the {_en(piece)} gives check (28.1)"
    if profile.chase_same_piece_only:
        # AXF: a check that also chases keeps the chase for the "same piece
        # chased on every move" test (one check, one chase of one piece is a
        # perpetual chase; Fairy-Stockfish's AXF code agrees).  The chase
        # content is judged as if the check were answered: the opponent's
        # recaptures (roots, 28.16) and counter-captures (兑, 28.5) count when
        # only this check makes them illegal (issue 13.1;
        # :func:`~qisai.xiangqi.qili.threats.scan_threats`).
        chases = _threats(before, after, move, profile, memo).chases
        if chases:
            zh += "，兼捉" + "、".join(_threat_zh(t) for t in chases) \
                + "（按应将后的局面判断根与兑，28.16、28.5）"
            en += "; it also chases: " + "; ".join(_threat_en(t) for t in chases) \
                + " (roots and offers judged as if the check were answered, 28.16, 28.5)"
    return Classification(Label.CHECK, zh, en, ("28.1",), chases=chases)


_KING_EVASION = Classification(
    Label.IDLE, "走帅（将）应将，产生的捉、杀按闲（28.9）",
    "the general answers check; what it threatens is idle (28.9)", ("28.9",),
    nuance=Nuance.KING_EVASION)


def _mate_threat(threats: _Threats) -> Classification:
    """28.2 杀; 27.4: heavier than the chases it also makes."""
    chases = threats.chases
    zh = "下一着起可连续照将将死对方（28.2）"
    en = "threatens mate by consecutive checks (28.2)"
    if chases:
        zh += "，兼捉" + "、".join(_threat_zh(t) for t in chases) + "，从重按杀（27.4）"
        en += "; also chases: " + "; ".join(_threat_en(t) for t in chases) \
            + "; the heavier label counts (27.4)"
    return Classification(Label.MATE_THREAT, zh, en,
                          ("28.2", "27.4") if chases else ("28.2",),
                          chases=chases, pawn_chases=threats.pawn, joint=threats.joint)


def _own_half(color: Color, sq: int) -> bool:
    return sq // 9 <= 4 if color is Color.RED else sq // 9 >= 5


def _defensive_key_point(before: Board, after: Board, move: Move, chases: Sequence[Threat],
                         profile: QiliProfile, memo: Memo) -> bool:
    """27.3 / 细则13: "占据防守要点，立即构成简明和棋，附带产生的捉士相（象），
    按闲处理".

    The text gives no mechanical test (spec 5.7, Q6); this reading
    (*interpretation*, ``defensive_key_point_idle``) asks for all of:

    * every new chase is of an advisor or elephant (捉士相);
    * the moved piece stands on its own side of the river (防守);
    * before the move the opponent threatened to win material or to mate,
      and after it the opponent threatens neither (the key point at once
      leaves nothing to play for: 立即构成简明和棋).
    """
    if not profile.defensive_key_point_idle:
        return False
    if any(t.target_piece.type not in (PieceType.ADVISOR, PieceType.ELEPHANT) for t in chases):
        return False
    if not _own_half(before.turn, move.to_square):
        return False
    if any(t.excluded is Exclusion.NONE for t in _scan(after, profile, memo).threats) \
            or _has_mate(after, profile, memo):
        return False
    passed = null_move(before)
    return (any(t.excluded in _WINS_MATERIAL for t in _scan(passed, profile, memo).threats)
            or _has_mate(passed, profile, memo))


def _key_point(threats: _Threats) -> Classification:
    """27.3, 细则 13: the incidental chase of a defensive key point is idle."""
    chases = threats.chases
    return Classification(
        Label.IDLE,
        f"占据防守要点，立即构成简明和棋，附带产生的捉{_names_zh(chases)}按闲"
        "（27.3、细则13）",
        f"takes a defensive key point that at once leaves the opponent "
        f"nothing to win; the incidental attack on the {_names_en(chases)} is idle "
        "(27.3, rule 13)", ("27.3", "细则13"),
        nuance=Nuance.KEY_POINT, pawn_chases=threats.pawn, joint=threats.joint)


def _chase(threats: _Threats, piece: Piece) -> Classification:
    """28.3 捉, new by 29.2 and 细则 2; 29.1 how it wins; 27.1 the general's
    help."""
    chases = threats.chases
    zh = "；".join(_threat_zh(t) for t in chases)
    en = "; ".join(_threat_en(t) for t in chases)
    clauses = ["28.3", "29.2"]
    if any(t.how is ThreatKind.CHECK for t in chases):
        clauses.append("29.1")
    if any(t.how is ThreatKind.EXCHANGE for t in chases):
        clauses.append("25.3")
    if any(t.offer_mated for t in chases):
        clauses += ["28.5", "细则7"]
    if piece.type is PieceType.KING:
        # 27.1: other pieces chasing with the general's help is a chase.
        zh += "，借帅（将）之力捉子（27.1）"
        en += ", with the general's help (27.1)"
        clauses.append("27.1")
    return Classification(Label.CHASE, zh + "，为新产生的捉（29.2、细则2）",
                          en + "; the chase is new (29.2, rule 2)", tuple(clauses),
                          chases=chases, pawn_chases=threats.pawn, joint=threats.joint)


def _joint_chase(threats: _Threats) -> Classification:
    """28.16 捉少根子 by two pieces; 25.2: it does not forbid the cycle."""
    joint = threats.joint
    zh = "；".join(_threat_zh(t) for t in joint)
    en = "; ".join(_threat_en(t) for t in joint)
    return Classification(Label.CHASE, zh + "，联合捉少根子，不构成禁止（25.2）",
                          en + "; a joint chase does not make the cycle forbidden (25.2)",
                          ("28.16", "25.2"), nuance=Nuance.JOINT_CHASE,
                          pawn_chases=threats.pawn, joint=joint)


def _idle(before: Board, after: Board, move: Move, threats: _Threats,
          profile: QiliProfile) -> Classification:
    """闲 (28.9): the clause that makes the move's threats idle, in turn."""
    # 27.2: a soldier's own attack.
    pawn = threats.pawn
    if pawn:
        return Classification(Label.IDLE, f"兵（卒）本身捉{_names_zh(pawn)}，按闲（27.2）",
                              "a soldier's own attack is idle (27.2)", ("27.2",),
                              nuance=Nuance.PAWN_OWN, pawn_chases=pawn)
    old = threats.old
    # 29.2 (AXF): an escape that cuts a root on the way chases nothing new.
    cut = [t for t in old if threats.escaping and t.how is not ThreatKind.JOINT
           and _is_new(t, threats.before, move, profile)]
    if cut:
        return Classification(
            Label.IDLE,
            f"走子避开对方的捉，附带断了{_names_zh(cut)}的根，不算新的捉"
            "（亚洲象联规则，29.2）",
            f"the move takes its piece out of attack; that the {_names_en(cut)} "
            "loses its root on the way is no new chase (AXF rules, 29.2)", ("29.2",),
            nuance=Nuance.OLD_CHASE)
    # 细则 6, 29.2: the chase stood before the move (从捉到捉).
    if old:
        return Classification(Label.IDLE, "走子前已存在的捉，走后无新的捉，按闲（细则6、29.2）",
                              "the attack existed before the move; nothing new is chased "
                              "(rule 6, 29.2)", ("细则6", "29.2"), nuance=Nuance.OLD_CHASE)
    excluded = threats.new_exclusions()
    # 27.1: the general's own attack.
    if Exclusion.KING in excluded:
        return Classification(Label.IDLE, "帅（将）本身叫吃，按闲（27.1）",
                              "the general's own attack is idle (27.1)", ("27.1",),
                              nuance=Nuance.KING_OWN)
    # 29.4, 细则 7: the capture would be mated at once.
    if Exclusion.MATED in excluded:
        return Classification(Label.IDLE, "形式上捉子，吃子后立即被将死，按闲（29.4、细则7）",
                              "capturing would allow an immediate mate, so it is idle "
                              "(29.4, rule 7)", ("29.4", "细则7"), nuance=Nuance.MATED_AFTER)
    # 28.5-28.8: offer, sacrifice, block, follow; else plain 28.9.
    nuance, zh, en, clause = _idle_nuance(before, after, move, threats.after)
    if not zh:
        zh, en = "不属将、杀、捉（28.9）", "neither check, mate threat nor chase (28.9)"
    else:
        zh, en = zh + "，属闲（28.9）", en + "; idle (28.9)"
    return Classification(Label.IDLE, zh, en, (clause, "28.9"), nuance=nuance)


def _attack_pairs(board: Board, attacker: Color) -> set[tuple[int, int]]:
    """Pseudo-legal (attacker square, target square) pairs of ``attacker``."""
    out: set[tuple[int, int]] = set()
    for sq in board.pieces(attacker.other):
        for a in board.attackers(attacker, sq):
            out.add((a, sq))
    return out


def _idle_nuance(before: Board, after: Board, move: Move, after_scan: ThreatScan,
                 ) -> tuple[Nuance, str, str, str]:
    """兑/献/拦/跟 of an idle move (28.5-28.8), with reasons and clause."""
    s = before.turn
    o = s.other
    to = move.to_square
    moved = after.piece_at(to)
    assert moved is not None
    for t in after_scan.threats:
        if t.excluded is Exclusion.OFFER and t.first_move.from_square == to:
            return (Nuance.OFFER, f"邀兑{_zh(t.target_piece)}（28.5）",
                    f"offers to exchange with the {_en(t.target_piece)} (28.5)", "28.5")
    if after.legal_attackers(o, to) and not after.protectors(to) \
            and any(piece_value(moved, to)):
        return (Nuance.SACRIFICE, f"{_zh(moved)}送吃（28.6）",
                f"offers the {_en(moved)} (28.6)", "28.6")
    lost = _attack_pairs(before, o) - _attack_pairs(after, o)
    if any(a != to and t != move.from_square for a, t in lost):
        return (Nuance.BLOCK, "阻拦对方棋子（28.7）", "blocks an enemy piece (28.7)", "28.7")
    for sq in after.pieces(o):
        p = after.piece_at(sq)
        if p is None or p.type is PieceType.KING or to not in after.attackers(s, sq):
            continue
        if not any(piece_value(p, sq)):
            # 25.3: a pawn that has not crossed the river is no material.
            return (Nuance.NONE, f"攻击未过河的{_zh(p)}，不算子力（25.3）",
                    f"attacks a {_en(p)} that has not crossed the river, which is "
                    "no material (25.3)", "25.3")
        return (Nuance.FOLLOW, f"盯住有根{_zh(p)}（28.8）",
                f"keeps an eye on the protected {_en(p)} (28.8)", "28.8")
    return Nuance.NONE, "", "", "28.9"


# --------------------------------------------------- a move's ruling

def classify_move(board: Board, move: Move,
                  profile: str | QiliProfile = "cxa") -> MoveRuling:
    """Return the label of ``move`` in ``board`` (将/杀/捉/闲) with its reason.

    The label depends only on the position before and after the move
    (spec 2).  ``counts_as`` is the label's weight under ``profile`` for a
    lone move (the 27.2 mutual-attack rule needs the whole cycle; see
    :func:`qisai.xiangqi.qili.cycle.judge`).  Raises
    :class:`~qisai.xiangqi.errors.IllegalMoveError` if the move is illegal
    and :class:`ValueError` for an unknown profile.
    """
    prof = get_profile(profile)
    c = classify(board, move, prof, Memo())
    return move_ruling(board, move, len(board.move_stack), c, counted_label(c, prof, False))


def counted_label(c: Classification, profile: QiliProfile, mutual: bool) -> Label:
    """Return the label ``c`` counts as in a cycle's status under ``profile``
    (``mutual``: both sides attack on every move, 28.14)."""
    if c.label is Label.MATE_THREAT:
        if profile.mate_threat_is_attack:
            return Label.MATE_THREAT
        # AXF: a mate threat is idle, but a chase it hides still counts.
        return Label.CHASE if c.chases else Label.IDLE
    if c.label is Label.CHASE and c.nuance is Nuance.JOINT_CHASE:
        return Label.IDLE if profile.joint_chase_is_idle else Label.CHASE
    if c.label is Label.IDLE and mutual and c.pawn_chases:
        return Label.CHASE  # 27.2, 细则 11: 互打时兵(卒)叫吃按捉
    return c.label


def move_ruling(board: Board, move: Move, ply: int, c: Classification,
                counts: Label) -> MoveRuling:
    """Return the :class:`MoveRuling` of ``move`` played in ``board`` as the
    game's ``ply``-th move, classified ``c`` and counting as ``counts``."""
    zh, en, clauses = c.reason_zh, c.reason_en, c.clauses
    if counts is not c.label:
        if counts is Label.CHASE and c.label is Label.IDLE:
            zh += "；双方互打，兵（卒）叫吃按捉（27.2、细则11）"
            en += "; in mutual perpetual attack a soldier's attack is a chase (27.2, rule 11)"
            clauses = (*clauses, "27.2", "细则11")
        elif c.label is Label.MATE_THREAT:
            zh += "；本规则下杀不属禁止着法"
            en += "; under these rules a mate threat is not forbidden"
    targets = tuple(sorted({t.target for t in (*c.chases, *c.joint, *c.pawn_chases)}))
    text = notation.format(board, move, "chinese")
    wxf = notation.format(board, move, "wxf")
    return MoveRuling(ply, board.turn, move, text, move.iccs(), c.label, c.nuance, counts,
                      targets, f"{text} {c.label.value}：{zh}",
                      f"{wxf} {c.label.english}: {en}", clauses, wxf)
