"""Values of the repetition code 棋例: move labels, cycle kinds, verdicts and
the ruling with its explanation.  See :mod:`qisai.xiangqi.qili.cycle`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from qisai.xiangqi.pieces import Color
from qisai.xiangqi.squares import Move, square_name

__all__ = ["CycleKind", "Label", "MoveRuling", "Nuance", "Ruling", "SideStatus", "Verdict"]

class Label(enum.Enum):
    """The character of a move (28.1-28.9), heaviest first (27.4)."""

    CHECK = "将"  # 28.1
    MATE_THREAT = "杀"  # 28.2
    CHASE = "捉"  # 28.3
    IDLE = "闲"  # 28.9

    @property
    def english(self) -> str:
        """English name: check, mate threat, chase, idle."""
        return _LABEL_EN[self]


_LABEL_EN = {Label.CHECK: "check", Label.MATE_THREAT: "mate threat", Label.CHASE: "chase",
             Label.IDLE: "idle"}


class Nuance(enum.Enum):
    """A finer description of a move, mostly of idle ones (28.5-28.8)."""

    NONE = ""
    JOINT_CHASE = "联合捉"  # spec 5.5: chase of an under-protected piece
    OFFER = "兑"  # 28.5
    SACRIFICE = "献"  # 28.6
    BLOCK = "拦"  # 28.7
    FOLLOW = "跟"  # 28.8
    KING_EVASION = "应将"  # king move answering check
    KING_OWN = "帅本身捉"  # 27.1
    PAWN_OWN = "兵本身捉"  # 27.2
    OLD_CHASE = "从捉到捉"  # 细则 6
    MATED_AFTER = "吃子被杀"  # 29.4, 细则 7
    KEY_POINT = "占据防守要点"  # 27.3, 细则 13


class CycleKind(enum.Enum):
    """What a side's cycle is (25.2, 28.10-28.12)."""

    ALLOWED = "允许着法"
    PERPETUAL_CHECK = "长将"
    PERPETUAL_MATE_THREAT = "长杀"
    PERPETUAL_CHASE = "长捉"
    # AXF (diagrams 39-41): chasing a rook pinned by a horse weighs more.
    PERPETUAL_CHASE_PINNED_ROOK = "长捉被马牵制的车"
    CHECK_AND_MATE_THREAT = "一将一杀"
    CHECK_AND_CHASE = "一将一捉"
    MATE_THREAT_AND_CHASE = "一杀一捉"
    CHECK_MATE_THREAT_CHASE = "将杀捉交替"

    @property
    def english(self) -> str:
        """English name."""
        return _KIND_EN[self]


_KIND_EN = {
    CycleKind.ALLOWED: "allowed",
    CycleKind.PERPETUAL_CHECK: "perpetual check",
    CycleKind.PERPETUAL_MATE_THREAT: "perpetual mate threat",
    CycleKind.PERPETUAL_CHASE: "perpetual chase",
    CycleKind.PERPETUAL_CHASE_PINNED_ROOK: "perpetual chase of a rook pinned by a horse",
    CycleKind.CHECK_AND_MATE_THREAT: "alternating check and mate threat",
    CycleKind.CHECK_AND_CHASE: "alternating check and chase",
    CycleKind.MATE_THREAT_AND_CHASE: "alternating mate threat and chase",
    CycleKind.CHECK_MATE_THREAT_CHASE: "checks, mate threats and chases in turn",
}


class Verdict(enum.Enum):
    """The ruling on a repeated cycle (24.1-24.3, 26.1-26.4)."""

    DRAW = "draw"
    RED_MUST_CHANGE = "red_must_change"
    BLACK_MUST_CHANGE = "black_must_change"
    RED_LOSES = "red_loses"
    BLACK_LOSES = "black_loses"

    @property
    def loser(self) -> Color | None:
        """The side that loses, or ``None``."""
        return {Verdict.RED_LOSES: Color.RED, Verdict.BLACK_LOSES: Color.BLACK}.get(self)

    @property
    def must_change(self) -> Color | None:
        """The side that must deviate from the cycle, or ``None``."""
        return {Verdict.RED_MUST_CHANGE: Color.RED,
                Verdict.BLACK_MUST_CHANGE: Color.BLACK}.get(self)


@dataclass(frozen=True, slots=True)
class MoveRuling:
    """One move of the window with its label and the reason.

    Attributes:
        ply: index of the move in the game (0 = first move from the root).
        color: the mover.
        move: the move; ``text`` its Chinese notation (7.5), ``iccs`` the
            coordinates, ``wxf`` the WXF notation (used in English).
        label: 将/杀/捉/闲; ``nuance`` a finer note (兑, 献, 联合捉 ...).
        counts_as: the label that the cycle status uses under the profile
            (e.g. a joint chase counts as idle; under AXF a mate threat is idle;
            27.2 a pawn's chase counts as a chase in mutual perpetual attack).
        targets: squares (after the move) of the pieces chased.
        reason_zh / reason_en: why, citing ``clauses``.
    """

    ply: int
    color: Color
    move: Move
    text: str
    iccs: str
    label: Label
    nuance: Nuance
    counts_as: Label
    targets: tuple[int, ...]
    reason_zh: str
    reason_en: str
    clauses: tuple[str, ...]
    wxf: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict of the move ruling."""
        return {
            "ply": self.ply, "color": self.color.name.lower(), "move": self.iccs,
            "text": self.text, "wxf": self.wxf, "label": self.label.value, "label_en": self.label.english,
            "nuance": self.nuance.value, "counts_as": self.counts_as.value,
            "targets": [square_name(s) for s in self.targets],
            "reason_zh": self.reason_zh, "reason_en": self.reason_en,
            "clauses": list(self.clauses),
        }


@dataclass(frozen=True, slots=True)
class SideStatus:
    """One side's cycle: allowed or forbidden, and which kind (25.2)."""

    color: Color
    forbidden: bool
    kind: CycleKind
    labels: tuple[Label, ...]
    reason_zh: str
    reason_en: str
    clause: str

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict of the status."""
        return {"color": self.color.name.lower(), "forbidden": self.forbidden,
                "kind": self.kind.value, "kind_en": self.kind.english,
                "labels": [lb.value for lb in self.labels], "reason_zh": self.reason_zh,
                "reason_en": self.reason_en, "clause": self.clause}


@dataclass(frozen=True, slots=True)
class Ruling:
    """The arbiter's ruling on a repeated position (待判局面, 24).

    Attributes:
        profile: the rule profile's name.
        fen: the repeated position; ``occurrence`` how often it has occurred
            in the reversible part of the game.
        window_start: ply of the window's first move; ``moves`` every move
            from the first occurrence of the position to now, classified.
        red / black: the two sides' statuses.
        verdict / clause: the ruling and its clause.
        explanation_zh / explanation_en: the ruling in words, move by move.
    """

    profile: str
    fen: str
    occurrence: int
    window_start: int
    moves: tuple[MoveRuling, ...]
    red: SideStatus
    black: SideStatus
    verdict: Verdict
    clause: str
    explanation_zh: str
    explanation_en: str

    def status(self, color: Color) -> SideStatus:
        """Return ``color``'s status."""
        return self.red if color is Color.RED else self.black

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict of the whole ruling."""
        return {
            "profile": self.profile, "fen": self.fen, "occurrence": self.occurrence,
            "window_start": self.window_start,
            "moves": [m.to_dict() for m in self.moves],
            "red": self.red.to_dict(), "black": self.black.to_dict(),
            "verdict": self.verdict.value, "clause": self.clause,
            "explanation_zh": self.explanation_zh, "explanation_en": self.explanation_en,
        }
