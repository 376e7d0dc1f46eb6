"""The verdict of the repetition code 棋例: each side's cycle status (25.2,
28.10-28.12) and the verdict table (24.1-24.3, 26.1-26.4), with the AXF
ordering for a rook pinned by a horse (:mod:`qisai.xiangqi.qili.pins`).

Used by :mod:`qisai.xiangqi.qili.cycle`.
"""

from __future__ import annotations

from collections.abc import Sequence

from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.qili.profiles import QiliProfile, get_profile
from qisai.xiangqi.qili.rulings import CycleKind, Label, SideStatus, Verdict

__all__ = ["decide", "side_status"]


def side_status(color: Color, counts: Sequence[Label], chases: Sequence[frozenset[int]],
                profile: str | QiliProfile = "cxa",
                pinned: Sequence[frozenset[int]] | None = None) -> SideStatus:
    """Return ``color``'s cycle status from the labels its moves count as
    (25.2, 28.10-28.12).

    ``chases`` gives, per move, the identities of the pieces it chases (used
    when the profile needs one piece chased on every move, AXF); ``pinned``
    those of them that are rooks pinned by a horse (AXF diagrams 39-41:
    chasing one on every move is :attr:`CycleKind.PERPETUAL_CHASE_PINNED_ROOK`).
    Raises :class:`ValueError` for an unknown profile or mismatched lengths.
    """
    profile = get_profile(profile)
    if len(chases) != len(counts):
        raise XiangqiError("每着需要一组被捉的子", "one chased set per move is needed")
    labels = tuple(counts)
    who_zh = color.chinese + "方"
    who_en = color.name.capitalize()
    if not labels:
        return SideStatus(color, False, CycleKind.ALLOWED, labels, f"{who_zh}无着法",
                          f"{who_en} made no move", "25.2")
    attacks = {lb for lb in labels if lb is not Label.IDLE}
    all_attack = Label.IDLE not in labels
    kind = CycleKind.ALLOWED
    if all_attack:
        if attacks == {Label.CHECK}:
            kind = CycleKind.PERPETUAL_CHECK
        elif attacks == {Label.MATE_THREAT}:
            kind = CycleKind.PERPETUAL_MATE_THREAT
        elif attacks == {Label.CHASE}:
            kind = CycleKind.PERPETUAL_CHASE
            if profile.chase_same_piece_only and not frozenset.intersection(*chases):
                # AXF: 长捉 only when one and the same piece is chased every move.
                kind = CycleKind.ALLOWED
            elif (profile.pinned_rook_chase_first and pinned is not None
                  and len(pinned) == len(labels) and frozenset.intersection(*pinned)):
                # AXF diagrams 39-41: the chased piece is a rook pinned by a horse.
                kind = CycleKind.PERPETUAL_CHASE_PINNED_ROOK
        elif profile.chase_same_piece_only and attacks == {Label.CHECK, Label.CHASE}:
            # AXF: checks and chases in turn are allowed unless every move,
            # the checks included, chases one and the same piece.
            if frozenset.intersection(*chases):
                kind = CycleKind.CHECK_AND_CHASE
        elif profile.mixed_attacks_forbidden:
            kind = {
                frozenset({Label.CHECK, Label.MATE_THREAT}): CycleKind.CHECK_AND_MATE_THREAT,
                frozenset({Label.CHECK, Label.CHASE}): CycleKind.CHECK_AND_CHASE,
                frozenset({Label.MATE_THREAT, Label.CHASE}): CycleKind.MATE_THREAT_AND_CHASE,
            }.get(frozenset(attacks), CycleKind.CHECK_MATE_THREAT_CHASE)
    seq = "、".join(lb.value for lb in labels)
    if kind is CycleKind.ALLOWED:
        if all_attack:
            zh = f"{who_zh}着法为{seq}，本规则下不属禁止着法，为允许着法"
            en = (f"{who_en}'s moves ({', '.join(lb.english for lb in labels)}) are not "
                  "forbidden under these rules: allowed")
            return SideStatus(color, False, kind, labels, zh, en, "25.2")
        zh = f"{who_zh}着法为{seq}，中间有闲着，为允许着法（25.2）"
        en = (f"{who_en}'s moves ({', '.join(lb.english for lb in labels)}) include an idle "
              "move: allowed (25.2)")
        return SideStatus(color, False, kind, labels, zh, en, "25.2")
    clause = {CycleKind.PERPETUAL_CHECK: "28.10", CycleKind.PERPETUAL_MATE_THREAT: "28.11",
              CycleKind.PERPETUAL_CHASE: "28.12",
              CycleKind.PERPETUAL_CHASE_PINNED_ROOK: "28.12"}.get(kind, "25.2")
    zh = f"{who_zh}着法为{seq}，构成{kind.value}，为禁止着法（25.2、{clause}）"
    en = f"{who_en} plays {kind.english} on every move: forbidden (25.2, {clause})"
    if clause == "25.2":
        zh = f"{who_zh}着法为{seq}，构成{kind.value}，为禁止着法（25.2）"
        en = f"{who_en} plays {kind.english}: forbidden (25.2)"
    return SideStatus(color, True, kind, labels, zh, en, clause)


def decide(red: SideStatus, black: SideStatus, occurrence: int,
           profile: str | QiliProfile = "cxa",
           required: int | None = None) -> tuple[Verdict, str, str, str]:
    """Return the verdict on two side statuses: ``(verdict, clause,
    sentence_zh, sentence_en)`` (24.1-24.3, 26.1-26.4).

    ``occurrence`` is how often the position has occurred and ``required``
    the occurrence at which the arbiter rules (default: the profile's); at
    ``required + profile.extra_cycles_to_lose`` a side that had to change
    loses (24.3).  Raises :class:`ValueError` for an unknown profile.
    """
    profile = get_profile(profile)
    need = profile.occurrences if required is None else required
    rc = red.kind is CycleKind.PERPETUAL_CHECK
    bc = black.kind is CycleKind.PERPETUAL_CHECK
    if rc and bc:
        return (Verdict.DRAW, "26.3", "双方均为长将，不变作和（26.3、24.2）",
                "both sides check perpetually: draw (26.3, 24.2)")
    if rc or bc:
        # 26.1: one-sided perpetual check is never allowed; 24.1 it loses at once.
        # 26.3 excludes "一方为长将" from the both-forbidden draw, so this holds
        # even when the other side is also forbidden (spec 8 reads it as a draw).
        loser = Color.RED if rc else Color.BLACK
        v = Verdict.RED_LOSES if rc else Verdict.BLACK_LOSES
        return (v, "26.1", f"{loser.chinese}方单方面长将，判负（26.1、24.1）",
                f"{loser.name.capitalize()} checks perpetually alone and loses (26.1, 24.1)")
    rp = red.kind is CycleKind.PERPETUAL_CHASE_PINNED_ROOK
    bp = black.kind is CycleKind.PERPETUAL_CHASE_PINNED_ROOK
    if red.forbidden and black.forbidden and rp != bp:
        # AXF diagrams 39-41: chasing a rook pinned by a horse weighs more
        # than the other side's chase; that side alone has to change (26.4).
        bad = red if rp else black
        return _must_change(bad, occurrence, need, profile,
                            "长捉被马牵制的车重于对方的长捉（亚洲象联规则图39-41）",
                            "chasing a rook pinned by a horse weighs more than the other "
                            "side's chase (AXF diagrams 39-41)")
    if red.forbidden and black.forbidden:
        return (Verdict.DRAW, "26.3", "双方均为禁止着法，不变作和（26.3、24.2、细则8）",
                "both sides play forbidden moves: draw (26.3, 24.2, rule 8)")
    if not red.forbidden and not black.forbidden:
        return (Verdict.DRAW, "26.2", "双方均为允许着法，不变作和（26.2、24.2）",
                "both sides play allowed moves: draw (26.2, 24.2)")
    return _must_change(red if red.forbidden else black, occurrence, need, profile, "", "")


def _must_change(bad: SideStatus, occurrence: int, need: int, profile: QiliProfile,
                 why_zh: str, why_en: str) -> tuple[Verdict, str, str, str]:
    """The verdict against the one forbidden side ``bad`` (26.4, 24.3)."""
    red = bad.color is Color.RED
    name_zh, name_en = bad.color.chinese + "方", bad.color.name.capitalize()
    pre_zh = why_zh + "，" if why_zh else ""
    pre_en = why_en + "; " if why_en else ""
    if occurrence >= need + profile.extra_cycles_to_lose:
        v = Verdict.RED_LOSES if red else Verdict.BLACK_LOSES
        return (v, "24.3", f"{pre_zh}{name_zh}为禁止着法，裁定变着后仍重复循环，判负（26.4、24.3）",
                f"{pre_en}{name_en} repeated the forbidden cycle again after having to change: "
                "loses (26.4, 24.3)")
    v = Verdict.RED_MUST_CHANGE if red else Verdict.BLACK_MUST_CHANGE
    if why_zh:
        return (v, "26.4", f"{pre_zh}{name_zh}必须变着，若再重复一次循环即判负（26.4、24.3）",
                f"{pre_en}{name_en} must change, and loses if the cycle repeats once more "
                "(26.4, 24.3)")
    return (v, "26.4", f"{name_zh}为禁止着法，对方为允许着法，{name_zh}必须变着，"
            "若再重复一次循环即判负（26.4、24.3）",
            f"{name_en}'s moves are forbidden and the opponent's are allowed: {name_en} "
            "must change, and loses if the cycle repeats once more (26.4, 24.3)")
