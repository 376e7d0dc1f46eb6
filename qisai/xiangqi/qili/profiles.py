"""Rule profiles of the repetition code 棋例: CXA (default) and AXF.

Every point where the Chinese Xiangqi Association text (棋例总纲 25-29,
棋例细则 1-13, arbiter clause 24) and the Asian Xiangqi Federation rules
differ is one field of :class:`QiliProfile`; the code asks the profile and
never compares a profile's name.

>>> CXA.mate_threat_is_attack, AXF.mate_threat_is_attack
(True, False)
>>> get_profile("axf") is AXF
True
"""

from __future__ import annotations

from dataclasses import dataclass

from qisai.xiangqi.errors import XiangqiError

__all__ = ["AXF", "CXA", "PROFILES", "QiliProfile", "get_profile"]


@dataclass(frozen=True, slots=True)
class QiliProfile:
    """One rule set for judging repetitions.

    Attributes:
        name: short name (``"cxa"``, ``"axf"``).
        title_zh / title_en: the rule book, for explanations.
        occurrences: the occurrence of the repeated position at which the
            arbiter rules (24: "循环反复三次"; 4.2.3).
        extra_cycles_to_lose: after a "must change" ruling, how many more
            repetitions of the cycle lose (24.3: "若再重复一次循环，即判负").
        mate_threat_is_attack: 杀 counts as an attack (打, 28.4) that makes a
            cycle forbidden (25.2 长杀).  AXF: mate threats are idle.
        mixed_attacks_forbidden: a cycle mixing 将/杀/捉 with no idle move
            (一将一捉, 一将一杀, 一杀一捉) is forbidden (25.2).  AXF: allowed.
        chase_same_piece_only: 长捉 needs the same victim on every move (AXF,
            victim tracked as it moves).  CXA 28.12: "追捉一子或数子".
        new_chase_by_attack: a chase is new only if the attacking piece could
            not win the target before the move (AXF: a chasing move creates
            an attack or takes away a real root).  CXA 细则 2, 3, 6: new if the move creates
            a *gain* that did not exist ("从没捉到捉", "预计下一着能在子力价值上
            构成得子"), whichever piece realises it.
        root_cut_by_escape_is_idle: a move that takes the mover's own piece
            out of attack and thereby puts or removes a screen, so that a
            piece already attacked by the same enemy piece loses its root,
            is no new chase (AXF rule-book diagrams and Fairy-Stockfish, spec
            §5.1 review 2026-12; issue 13.3).  Only a root cut by a screen
            or line the move changed: a false root made by a new pin, or an
            exchange offer made one-sided, stays a chase (issue 35.1).  CXA:
            a root cut is a chase (CXA fig. 3 "断根捉马").
        hidden_roots: a protection by a check that wins the capturer back
            counts (28.16 "包括暗根").  AXF: a real root must recapture.
        root_by_recapture_only: weigh a capture against recaptures on the
            square only (AXF "real root": the protector takes the captor).
            CXA weighs the whole forcing reply (25.3 得子 is a material
            balance), so an answer that wins other material counts too.
        check_sequence_gains: winning material by consecutive checks counts as
            a chase (28.3, 29.1 "能够通过连续照将吃子").  AXF: no such notion.
        exchange_gains: winning material through a complete exchange counts
            (28.3, 29.1 "能够通过完整的交换过程得子").  When off, only the
            capture and the immediate recapture are weighed.
        joint_chase_is_idle: a chase that needs two of the chaser's pieces
            (联合捉, 捉少根子) counts as idle for the cycle status (spec 5.5,
            interpretation of the CXA examples; AXF: a real root is no chase).
        pawn_chase_in_mutual_attack: a pawn's own attacks count as chases when
            both sides attack perpetually (27.2, 细则 11).  AXF: never.
        pinned_rook_chase_first: AXF's rule on a rook pinned by a horse
            (diagrams 39-41, 105; :mod:`qisai.xiangqi.qili.pins`): such a
            rook counts as unprotected, and when both sides chase
            perpetually, the side chasing it must change.  CXA: no such
            clause.
        defensive_key_point_idle: 27.3 / 细则13: a move that takes a
            defensive key point and at once leaves the opponent nothing to
            win, whose only new chases are of advisors or elephants, is idle
            (see ``qisai.xiangqi.qili.classify._defensive_key_point`` for the reading).  AXF: no
            such clause.
        king_evasion_is_idle: a king move answering check is idle whatever it
            threatens (spec 6, CXA examples 13 and 17).
        mate_after_capture_plies: a capture after which the opponent mates
            within this many of its own moves is no chase (29.4, 细则 7:
            "立即会被对方将死"); 1 = mate in one; 0 = not applied (AXF has no
            such clause; Fairy-Stockfish's AXF code neither).
        forcing_plies: depth of the forcing-gain search (spec 3.2, Q3).
        mate_threat_checks: how many consecutive checks a mate threat may
            take (28.2 "连续照将"; spec 6, Q3).
        node_budget: nodes per search, so no position makes a ruling hang.
        check_node_budget: nodes per consecutive-check search (29.1).
    """

    name: str
    title_zh: str
    title_en: str
    occurrences: int = 3
    extra_cycles_to_lose: int = 1
    mate_threat_is_attack: bool = True
    mixed_attacks_forbidden: bool = True
    chase_same_piece_only: bool = False
    new_chase_by_attack: bool = False
    root_cut_by_escape_is_idle: bool = False
    hidden_roots: bool = True
    root_by_recapture_only: bool = False
    check_sequence_gains: bool = True
    exchange_gains: bool = True
    joint_chase_is_idle: bool = True
    pawn_chase_in_mutual_attack: bool = True
    pinned_rook_chase_first: bool = False
    defensive_key_point_idle: bool = True
    king_evasion_is_idle: bool = True
    mate_after_capture_plies: int = 1
    forcing_plies: int = 8
    mate_threat_checks: int = 4
    node_budget: int = 400
    check_node_budget: int = 150

    def __post_init__(self) -> None:
        if self.occurrences < 2:
            raise XiangqiError(f"重复次数至少为 2，不是 {self.occurrences}",
                               f"occurrences must be at least 2, not {self.occurrences}")
        if self.extra_cycles_to_lose < 0:
            raise XiangqiError("extra_cycles_to_lose（判负前多容许的循环数）不能为负",
                               "extra_cycles_to_lose must not be negative")
        if self.mate_after_capture_plies < 0:
            raise XiangqiError("mate_after_capture_plies（吃子后成杀的步数）不能为负",
                               "mate_after_capture_plies must not be negative")
        if (self.forcing_plies < 1 or self.mate_threat_checks < 1 or self.node_budget < 1
                or self.check_node_budget < 1):
            raise XiangqiError("搜索深度和节点预算应为正数",
                               "search depths and the node budget must be positive")


CXA = QiliProfile(
    name="cxa",
    title_zh="中国象棋协会《象棋竞赛规则》棋例",
    title_en="Chinese Xiangqi Association competition rules, repetition code",
)

AXF = QiliProfile(
    name="axf",
    title_zh="亚洲象棋联合会棋例",
    title_en="Asian Xiangqi Federation rules (WXF), repetition rules",
    mate_threat_is_attack=False,
    mixed_attacks_forbidden=False,
    chase_same_piece_only=True,
    new_chase_by_attack=True,
    root_cut_by_escape_is_idle=True,
    hidden_roots=False,
    root_by_recapture_only=True,
    mate_after_capture_plies=0,
    check_sequence_gains=False,
    exchange_gains=False,
    pawn_chase_in_mutual_attack=False,
    pinned_rook_chase_first=True,
    defensive_key_point_idle=False,
)

PROFILES: dict[str, QiliProfile] = {CXA.name: CXA, AXF.name: AXF}


def get_profile(profile: str | QiliProfile) -> QiliProfile:
    """Return the profile named ``profile`` (case-insensitive), or ``profile``
    itself if it already is one.

    Raises :class:`ValueError` for an unknown name.
    """
    if isinstance(profile, QiliProfile):
        return profile
    try:
        return PROFILES[profile.strip().lower()]
    except KeyError:
        raise XiangqiError(
            f"未知的棋例规则集 {profile!r}；已知：{', '.join(PROFILES)}",
            f"unknown repetition rule profile {profile!r}; known: {', '.join(PROFILES)}"
        ) from None
