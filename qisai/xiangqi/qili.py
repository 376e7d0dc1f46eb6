"""The repetition code 棋例: classify the moves of a repeated cycle, rule on
the cycle and explain the ruling in Chinese and English.

Rule text: 象棋竞赛规则 第24条 (待判局面的裁定), 棋例总纲 25-29, 棋例细则 1-13
(``docs/rules``); algorithm after ``docs/specs/qili.md``.  Where the
two disagree this module follows the rule text and says so at the spot.

Entry points:

* :func:`judge` - the ruling on the board's last position, or ``None`` when
  the position has not yet occurred ``occurrences`` times in the reversible
  part of the game;
* :func:`forbidden_moves` - the moves of the side to move that would complete
  a forbidden repetition (UCCI ``banmoves``);
* :func:`first_ruling` - play ICCS moves from a FEN and rule at the first
  position where a ruling applies (what ``qisai judge`` prints);
* :func:`classify_move` - the label of one move (将/杀/捉/闲);
* :func:`side_status` and :func:`decide` - the status of a side's cycle
  (25.2) and the verdict table (24, 26), from :mod:`qisai.xiangqi.qili_verdict`.

Related modules: :mod:`qisai.xiangqi.qili_profiles` (the CXA and AXF rule
profiles, every difference a field), :mod:`qisai.xiangqi.qili_search` (material
values, forcing-gain and mate searches), :mod:`qisai.xiangqi.qili_types` (the
values returned here), :mod:`qisai.xiangqi.qili_limits` (the natural move
limit 4.2.4 and the claim audit of 23.3), :mod:`qisai.xiangqi.qili_pins` (the
AXF rule on a rook pinned by a horse).

>>> from qisai.xiangqi.board import Board, Move
>>> b = Board("4k4/9/4b4/9/9/9/9/9/9/R2K5 w - - 0 1")
>>> for m in "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9".split():
...     b.push(Move.from_iccs(m))
>>> judge(b).verdict
<Verdict.RED_LOSES: 'red_loses'>
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from qisai.xiangqi import notation
from qisai.xiangqi.board import Board, Color, Move, Piece, PieceType, square_name
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.qili_pins import pinned_rook_victims
from qisai.xiangqi.qili_profiles import AXF, CXA, PROFILES, QiliProfile, get_profile
from qisai.xiangqi.qili_search import (
    Threat,
    ThreatScan,
    mate_by_checks,
    null_move,
    piece_value,
    scan_threats,
    vec_ge,
)
from qisai.xiangqi.qili_types import (
    CycleKind,
    Label,
    MoveRuling,
    Nuance,
    Ruling,
    SideStatus,
    Verdict,
)
from qisai.xiangqi.qili_verdict import decide, side_status

__all__ = [
    "AXF",
    "CXA",
    "PROFILES",
    "CycleKind",
    "Label",
    "MoveRuling",
    "Nuance",
    "QiliProfile",
    "Ruling",
    "SideStatus",
    "Verdict",
    "classify_move",
    "decide",
    "side_status",
    "first_ruling",
    "forbidden_moves",
    "get_profile",
    "judge",
    "repetition_window",
]


# ---------------------------------------------------------------- helpers

def _zh(piece: Piece) -> str:
    return piece.chinese()


def _en(piece: Piece) -> str:
    return piece.english()


@dataclass
class _Cache:
    """Memo of threat scans and mate searches, keyed by position, and of move
    classifications, keyed by position and move (one profile's)."""

    scans: dict[int, ThreatScan] = field(default_factory=dict)
    mates: dict[int, bool] = field(default_factory=dict)
    capture_mates: dict[int, bool] = field(default_factory=dict)
    moves: dict[tuple[int, Move], _Classified] = field(default_factory=dict)

    def size(self) -> int:
        return len(self.scans) + len(self.mates) + len(self.capture_mates) + len(self.moves)


_SHARED_LIMIT = 50_000
_shared: dict[QiliProfile, _Cache] = {}


def _cache_for(profile: QiliProfile) -> _Cache:
    """The memo :func:`judge` keeps between calls, per profile.

    A refereed game asks for a ruling each time a cycle recurs (24.3: the
    order to change, then the loss), over the same positions and moves;
    every entry depends only on the position (and move) and the profile, so
    it stays true.  Emptied when it grows past ``_SHARED_LIMIT`` entries.
    """
    cache = _shared.get(profile)
    if cache is None or cache.size() > _SHARED_LIMIT:
        cache = _shared[profile] = _Cache()
    return cache


def _scan(board: Board, profile: QiliProfile, cache: _Cache) -> ThreatScan:
    hit = cache.scans.get(board.key)
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
                           mate_cache=cache.capture_mates,
                           pinned_rooks_unprotected=profile.pinned_rook_chase_first)
        cache.scans[board.key] = hit
    return hit


def _has_mate(board: Board, profile: QiliProfile, cache: _Cache) -> bool:
    hit = cache.mates.get(board.key)
    if hit is None:
        hit = mate_by_checks(board, profile.mate_threat_checks,
                             budget=profile.node_budget) is not None
        cache.mates[board.key] = hit
    return hit


@dataclass(frozen=True, slots=True)
class _Classified:
    """A move's classification, independent of its place in the window."""

    label: Label
    nuance: Nuance
    chases: tuple[Threat, ...]
    pawn_chases: tuple[Threat, ...]
    joint: tuple[Threat, ...]
    mate_threat: bool
    reason_zh: str
    reason_en: str
    clauses: tuple[str, ...]


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
    83-85, Fairy-Stockfish's "new pins create fake roots"), or had no root before and the move takes away its
    answer instead (it pins the target, so a mutual attack, 兑 28.5, becomes
    one-sided; AXF diagrams 53 and 55), the attack on the unprotected
    piece is new and a chase (``tests/data/xiangqi/axf_escape_chase_cases.
    json``).  What decides the exclusion: the AXF rule-book diagrams as reviewed in spec §5.1 (review
    2026-12: a root cut is no chase when the move answers an attack on the
    mover's own piece), Fairy-Stockfish's AXF judge, and the real-game cycle
    of ``test_axf_root_cut_by_an_escape_real_game`` (车6进1 escapes a soldier
    and removes the cannon screen that protected it; Fairy-Stockfish: draw).
    No record of the test data depends on it either way.  A root cut that
    is the move's own purpose stays a chase (``test_axf_root_cut_without_
    escape_is_a_chase``); CXA counts every root cut (fig. 3 "断根捉马").
    """
    if profile.new_chase_by_attack and threat.how != "check":
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
                       for b in before.threats if b.excluded in ("", "pawn"))
    return not any(b.target == threat.target and vec_ge(b.gain, threat.gain)
                   for b in before.threats if b.excluded in ("", "pawn"))


def _escapes(before: Board, move: Move, profile: QiliProfile, cache: _Cache) -> bool:
    """Whether ``move`` takes the mover's piece out of a threat: before it,
    the opponent could win that piece (by any piece, a soldier's or the
    general's own capture included).  Only asked under
    ``root_cut_by_escape_is_idle`` (AXF, issue 13.3)."""
    if not profile.root_cut_by_escape_is_idle:
        return False
    o_scan = _scan(null_move(before), profile, cache)
    return any(t.target == move.from_square and t.excluded in ("", "pawn", "king")
               for t in o_scan.threats)


def _own_half(color: Color, sq: int) -> bool:
    return sq // 9 <= 4 if color is Color.RED else sq // 9 >= 5


def _defensive_key_point(before: Board, after: Board, move: Move, chases: Sequence[Threat],
                         profile: QiliProfile, cache: _Cache) -> bool:
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
    if any(t.excluded == "" for t in _scan(after, profile, cache).threats) \
            or _has_mate(after, profile, cache):
        return False
    passed = null_move(before)
    return (any(t.excluded in ("", "pawn", "king") for t in _scan(passed, profile, cache).threats)
            or _has_mate(passed, profile, cache))


def _threat_zh(t: Threat) -> str:
    name = _zh(t.target_piece)
    by = _zh(t.attacker)
    if t.how == "check":
        return f"{by}照将后可得{name}（连续照将得子，29.1）"
    if t.how == "joint":
        return f"联合攻击少根{name}（28.16）"
    if t.how == "exchange":
        return f"{by}攻击{name}，交换后得子（25.3、29.1）"
    if t.how == "pinned":
        return f"{by}攻击被马牵制的{name}，按无根车论（亚洲象联规则图39-41）"
    root = "假根" if t.false_root else "无根"
    if t.offer_mated:
        return (f"{by}攻击{root}{name}，对方{name}吃回即被将死，不成兑"
                "（28.3、28.5、细则7）")
    return f"{by}攻击{root}{name}（28.3、28.16）"


def _threat_en(t: Threat) -> str:
    name = _en(t.target_piece)
    by = _en(t.attacker)
    if t.how == "check":
        return f"the {by} checks and then wins the {name} (29.1)"
    if t.how == "joint":
        return f"two pieces attack the under-protected {name} (28.16)"
    if t.how == "exchange":
        return f"the {by} attacks the {name} and wins material after the exchange (25.3, 29.1)"
    if t.how == "pinned":
        return (f"the {by} attacks the {name} pinned by a horse, which counts as unprotected "
                "(AXF diagrams 39-41)")
    root = "falsely protected" if t.false_root else "unprotected"
    if t.offer_mated:
        return (f"the {by} attacks the {root} {name}; taking back would be mated at once, "
                "so it is no exchange offer (28.3, 28.5, rule 7)")
    return f"the {by} attacks the {root} {name} (28.3, 28.16)"


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
        if t.excluded == "offer" and t.first_move.from_square == to:
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


def _classify(before: Board, move: Move, profile: QiliProfile, cache: _Cache) -> _Classified:
    piece = before.piece_at(move.from_square)
    if piece is None:
        raise XiangqiError(f"no piece on {square_name(move.from_square)} for {move.iccs()}")
    was_in_check = before.is_check()
    after = before.copy(stack=False)
    after.push(move)
    if after.is_check():
        # 28.1; 27.4 / 细则 12: a check is the heaviest label whatever else it does.
        chases: tuple[Threat, ...] = ()
        zh, en = f"{_zh(piece)}照将（28.1）", f"the {_en(piece)} gives check (28.1)"
        if profile.chase_same_piece_only:
            # AXF: a check that also chases keeps the chase for the "same
            # piece chased on every move" test (one check, one chase of one
            # piece is a perpetual chase; Fairy-Stockfish's AXF code agrees).
            # The chase content is judged as if the check were answered:
            # the opponent's recaptures (roots, 28.16) and counter-captures
            # (兑, 28.5) count when only this check makes them illegal
            # (issue 13.1; :func:`~qisai.xiangqi.qili_search.scan_threats`).
            after_scan = _scan(null_move(after), profile, cache)
            before_scan = _scan(before, profile, cache)
            escaping = _escapes(before, move, profile, cache)
            chases = tuple(t for t in after_scan.threats if t.excluded == ""
                           and t.how != "joint"
                           and _is_new(t, before_scan, move, profile, escaping))
            if chases:
                zh += "，兼捉" + "、".join(_threat_zh(t) for t in chases) \
                    + "（按应将后的局面判断根与兑，28.16、28.5）"
                en += "; it also chases: " + "; ".join(_threat_en(t) for t in chases) \
                    + " (roots and offers judged as if the check were answered, 28.16, 28.5)"
        return _Classified(Label.CHECK, Nuance.NONE, chases, (), (), False, zh, en, ("28.1",))
    if was_in_check and piece.type is PieceType.KING and profile.king_evasion_is_idle:
        # CXA examples 13, 17: threats created by the king answering check are idle.
        return _Classified(Label.IDLE, Nuance.KING_EVASION, (), (), (), False,
                           "走帅（将）应将，产生的捉、杀按闲（28.9）",
                           "the general answers check; what it threatens is idle (28.9)",
                           ("28.9",))
    passed = null_move(after)
    mate_threat = _has_mate(passed, profile, cache) and not _has_mate(before, profile, cache)
    after_scan = _scan(passed, profile, cache)
    before_scan = _scan(before, profile, cache)
    escaping = _escapes(before, move, profile, cache)
    new = [t for t in after_scan.threats if _is_new(t, before_scan, move, profile, escaping)]
    chases = tuple(t for t in new if t.excluded == "" and t.how != "joint")
    joint = tuple(t for t in new if t.excluded == "" and t.how == "joint")
    pawn = tuple(t for t in new if t.excluded == "pawn")
    if mate_threat:
        zh = "下一着起可连续照将将死对方（28.2）"
        en = "threatens mate by consecutive checks (28.2)"
        if chases:
            zh += "，兼捉" + "、".join(_threat_zh(t) for t in chases) + "，从重按杀（27.4）"
            en += "; also chases: " + "; ".join(_threat_en(t) for t in chases) \
                + "; the heavier label counts (27.4)"
        return _Classified(Label.MATE_THREAT, Nuance.NONE, chases, pawn, joint, True, zh, en,
                           ("28.2", "27.4") if chases else ("28.2",))
    if chases and _defensive_key_point(before, after, move, chases, profile, cache):
        names = "、".join(_zh(t.target_piece) for t in chases)
        names_en = ", ".join(_en(t.target_piece) for t in chases)
        return _Classified(Label.IDLE, Nuance.KEY_POINT, (), pawn, joint, False,
                           f"占据防守要点，立即构成简明和棋，附带产生的捉{names}按闲"
                           "（27.3、细则13）",
                           f"takes a defensive key point that at once leaves the opponent "
                           f"nothing to win; the incidental attack on the {names_en} is idle "
                           "(27.3, rule 13)", ("27.3", "细则13"))
    if chases:
        zh = "；".join(_threat_zh(t) for t in chases)
        en = "; ".join(_threat_en(t) for t in chases)
        clauses = ["28.3", "29.2"]
        if any(t.how == "check" for t in chases):
            clauses.append("29.1")
        if any(t.how == "exchange" for t in chases):
            clauses.append("25.3")
        if any(t.offer_mated for t in chases):
            clauses += ["28.5", "细则7"]
        if piece.type is PieceType.KING:
            # 27.1: other pieces chasing with the general's help is a chase.
            zh += "，借帅（将）之力捉子（27.1）"
            en += ", with the general's help (27.1)"
            clauses.append("27.1")
        return _Classified(Label.CHASE, Nuance.NONE, chases, pawn, joint, False,
                           zh + "，为新产生的捉（29.2、细则2）",
                           en + "; the chase is new (29.2, rule 2)", tuple(clauses))
    if joint:
        zh = "；".join(_threat_zh(t) for t in joint)
        en = "; ".join(_threat_en(t) for t in joint)
        return _Classified(Label.CHASE, Nuance.JOINT_CHASE, (), pawn, joint, False,
                           zh + "，联合捉少根子，不构成禁止（25.2）",
                           en + "; a joint chase does not make the cycle forbidden (25.2)",
                           ("28.16", "25.2"))
    # Idle: say why the threats that exist do not count.
    counting_after = [t for t in after_scan.threats if t.excluded == ""]
    if pawn:
        names = "、".join(_zh(t.target_piece) for t in pawn)
        return _Classified(Label.IDLE, Nuance.PAWN_OWN, (), pawn, (), False,
                           f"兵（卒）本身捉{names}，按闲（27.2）",
                           "a soldier's own attack is idle (27.2)", ("27.2",))
    cut = [t for t in counting_after if escaping and t.how != "joint"
           and _is_new(t, before_scan, move, profile)]
    if cut:
        names = "、".join(_zh(t.target_piece) for t in cut)
        names_en = ", ".join(_en(t.target_piece) for t in cut)
        return _Classified(Label.IDLE, Nuance.OLD_CHASE, (), (), (), False,
                           f"走子避开对方的捉，附带断了{names}的根，不算新的捉"
                           "（亚洲象联规则，29.2）",
                           f"the move takes its piece out of attack; that the {names_en} "
                           "loses its root on the way is no new chase (AXF rules, 29.2)",
                           ("29.2",))
    if counting_after:
        return _Classified(Label.IDLE, Nuance.OLD_CHASE, (), (), (), False,
                           "走子前已存在的捉，走后无新的捉，按闲（细则6、29.2）",
                           "the attack existed before the move; nothing new is chased "
                           "(rule 6, 29.2)", ("细则6", "29.2"))
    kinds = {t.excluded for t in after_scan.threats
             if _is_new(t, before_scan, move, profile, escaping)}
    if "king" in kinds:
        return _Classified(Label.IDLE, Nuance.KING_OWN, (), (), (), False,
                           "帅（将）本身叫吃，按闲（27.1）",
                           "the general's own attack is idle (27.1)", ("27.1",))
    if "mated" in kinds:
        return _Classified(Label.IDLE, Nuance.MATED_AFTER, (), (), (), False,
                           "形式上捉子，吃子后立即被将死，按闲（29.4、细则7）",
                           "capturing would allow an immediate mate, so it is idle "
                           "(29.4, rule 7)", ("29.4", "细则7"))
    nuance, zh, en, clause = _idle_nuance(before, after, move, after_scan)
    if not zh:
        zh, en = "不属将、杀、捉（28.9）", "neither check, mate threat nor chase (28.9)"
    else:
        zh, en = zh + "，属闲（28.9）", en + "; idle (28.9)"
    return _Classified(Label.IDLE, nuance, (), (), (), False, zh, en, (clause, "28.9"))


def _move_text(board: Board, move: Move) -> str:
    return notation.format(board, move, "chinese")


def classify_move(board: Board, move: Move,
                  profile: str | QiliProfile = "cxa") -> MoveRuling:
    """Return the label of ``move`` in ``board`` (将/杀/捉/闲) with its reason.

    The label depends only on the position before and after the move
    (spec 2).  ``counts_as`` is the label's weight under ``profile`` for a
    lone move (the 27.2 mutual-attack rule needs the whole cycle; see
    :func:`judge`).  Raises :class:`~qisai.xiangqi.errors.IllegalMoveError`
    if the move is illegal and :class:`ValueError` for an unknown profile.
    """
    prof = get_profile(profile)
    c = _classify(board, move, prof, _Cache())
    return _ruling(board, move, len(board.move_stack), c, _counts(c, prof, False))


def _counts(c: _Classified, profile: QiliProfile, mutual: bool) -> Label:
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


def _ruling(board: Board, move: Move, ply: int, c: _Classified, counts: Label,
            targets: tuple[int, ...] | None = None) -> MoveRuling:
    zh, en, clauses = c.reason_zh, c.reason_en, c.clauses
    if counts is not c.label:
        if counts is Label.CHASE and c.label is Label.IDLE:
            zh += "；双方互打，兵（卒）叫吃按捉（27.2、细则11）"
            en += "; in mutual perpetual attack a soldier's attack is a chase (27.2, rule 11)"
            clauses = (*clauses, "27.2", "细则11")
        elif c.label is Label.MATE_THREAT:
            zh += "；本规则下杀不属禁止着法"
            en += "; under these rules a mate threat is not forbidden"
    if targets is None:
        targets = tuple(sorted({t.target for t in (*c.chases, *c.joint, *c.pawn_chases)}))
    text = _move_text(board, move)
    wxf = notation.format(board, move, "wxf")
    return MoveRuling(ply, board.turn, move, text, move.iccs(), c.label, c.nuance, counts,
                      targets, f"{text} {c.label.value}：{zh}",
                      f"{wxf} {c.label.english}: {en}", clauses, wxf)


# ------------------------------------------------------------ the window

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
        raise XiangqiError(f"occurrences must be at least 2, not {need}")
    root, moves, keys, start = _reversible_history(board)
    now = keys[-1]
    hits = [i for i in range(start, len(keys)) if keys[i] == now]
    if len(hits) < need:
        return None
    return _rule_window(root, moves, hits[0], len(hits), prof, need)


def _rule_window(root: Board, moves: list[Move], first: int, occurrence: int,
                 profile: QiliProfile, need: int) -> Ruling:
    b = root.copy(stack=False)
    for m in moves[:first]:
        b.push_unchecked(m)
    cache = _cache_for(profile)
    entries: list[tuple[Board, Move, int, _Classified, frozenset[int]]] = []
    pinned: list[frozenset[int]] = []  # chased rooks pinned by a horse (AXF)
    # Piece identities so a victim is tracked as it moves (AXF 长捉 of one piece).
    ident = {sq: sq for sq in range(90) if b.piece_at(sq) is not None}
    for ply in range(first, len(moves)):
        m = moves[ply]
        key = (b.key, m)
        c = cache.moves.get(key)
        if c is None:
            c = _classify(b, m, profile, cache)
            cache.moves[key] = c
        mover_id = ident.pop(m.from_square, m.from_square)
        ident.pop(m.to_square, None)
        ident[m.to_square] = mover_id
        victims = frozenset(ident[t.target] for t in c.chases if t.target in ident)
        entries.append((b.copy(stack=False), m, ply, c, victims))
        b.push_unchecked(m)
        pinned.append(frozenset(
            ident[t] for t in pinned_rook_victims(b, tuple(t.target for t in c.chases))
            if t in ident) if profile.pinned_rook_chase_first else frozenset())
    fen = b.fen()
    # 27.2 / 细则 11: when both sides attack on every move counting the
    # soldiers' own attacks (相互长打, 28.14), those attacks are chases.
    mutual = False
    if profile.pawn_chase_in_mutual_attack and any(e[3].pawn_chases for e in entries):
        mutual = all(_counts(e[3], profile, True) is not Label.IDLE for e in entries)
    rulings: list[MoveRuling] = []
    per_side: dict[Color, tuple[list[Label], list[frozenset[int]], list[frozenset[int]]]] = {
        Color.RED: ([], [], []), Color.BLACK: ([], [], [])}
    for (before, m, ply, c, victims), pins in zip(entries, pinned, strict=True):
        counts = _counts(c, profile, mutual)
        mr = _ruling(before, m, ply, c, counts)
        rulings.append(mr)
        labels, chased, pinned_chased = per_side[before.turn]
        labels.append(counts)
        attack = counts in (Label.CHASE, Label.CHECK)
        chased.append(victims if attack else frozenset())
        pinned_chased.append(pins if attack else frozenset())
    red = side_status(Color.RED, *per_side[Color.RED][:2], profile,
                      pinned=per_side[Color.RED][2])
    black = side_status(Color.BLACK, *per_side[Color.BLACK][:2], profile,
                        pinned=per_side[Color.BLACK][2])
    verdict, clause, vzh, ven = decide(red, black, occurrence, profile, need)
    zh_lines = [f"局面第{occurrence}次出现（循环反复，24）。按{profile.title_zh}："]
    en_lines = [f"The position has occurred {occurrence} times (24). Under the "
                f"{profile.title_en}:"]
    # Each move of the loop once: the window repeats it (occurrence - 1) times.
    told: set[tuple[int, Move]] = set()
    for (before, m, _, _, _), mr in zip(entries, rulings, strict=True):
        if (before.key, m) in told:
            continue
        told.add((before.key, m))
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
