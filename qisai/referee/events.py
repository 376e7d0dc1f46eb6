"""Events a game is driven by, and the notices it emits.

An :class:`Event` is an input with a timestamp (a move, a draw offer, a claim,
an arbiter's decision ...).  A game's event log is a list of events; replaying
it rebuilds the game.  A :class:`Notice` is an output for the UI, speech and
storage (a move was made, a clock call, a foul, the game is over).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from qisai.bilingual import en_of
from qisai.referee.errors import EventError
from qisai.referee.verdict import Outcome, Reason, Side

__all__ = ["ClaimKind", "Event", "EventType", "Notice", "NoticeType"]


class EventType(enum.Enum):
    """What happened."""

    START = "start"
    """The game starts (``absent``: sides not at the board, 21)."""
    ARRIVE = "arrive"
    """A late player arrives (21.2)."""
    MOVE = "move"
    """A move (Xiangqi ICCS ``h2e2``; Go GTP ``D4``)."""
    PASS = "pass"
    """Go: a pass (虚着)."""
    OFFER_DRAW = "offer_draw"
    ACCEPT_DRAW = "accept_draw"
    DECLINE_DRAW = "decline_draw"
    RESIGN = "resign"
    CLAIM = "claim"
    """Xiangqi: claim a draw by the natural limit or a repetition ruling."""
    FLAG = "flag"
    """A reported flag fall (checked against the clock)."""
    TICK = "tick"
    """Time passes; logged only when it ended the game (flag, late arrival)."""
    PAUSE = "pause"
    RESUME = "resume"
    ADJOURN = "adjourn"
    """封棋: the side to move seals ``move``; the clocks stop."""
    FOUL = "foul"
    """Arbiter: a foul (9; touch-move 5 is entered this way)."""
    WARNING = "warning"
    """Arbiter: a warning (Go 8(2), 9; Xiangqi 8.8)."""
    TIME_PENALTY = "time_penalty"
    """Arbiter: deduct ``seconds`` from a side's clock."""
    ADJUDICATE = "adjudicate"
    """Arbiter: end the game (4.2.1, 4.1.10, Go 8(3), 8(4), 12(1) ...)."""
    MARK_DEAD = "mark_dead"
    """Go: mark the groups at ``points`` dead (``dead`` True) or alive
    (False) in the proposal, or toggle each once (``dead`` None)."""
    CONFIRM_DEAD = "confirm_dead"
    """Go: a side confirms the dead stones (4(4))."""
    DISPUTE_DEAD = "dispute_dead"
    """Go: a side disputes the dead stones; play resumes."""


class ClaimKind(enum.Enum):
    """What a Xiangqi player claims."""

    NATURAL_LIMIT = "natural_limit"
    """自然限着 (4.2.4, 23.3)."""
    REPETITION = "repetition"
    """A ruling on a repeated position (待判局面, 24)."""


@dataclass(frozen=True)
class Event:
    """One input to a game.  ``at`` is seconds on the game's time source.

    Which fields matter depends on ``type``: ``side`` (who acts), ``move``
    (MOVE, ADJOURN), ``claim`` (CLAIM), ``points`` and ``dead`` (MARK_DEAD:
    ``True`` marks the groups dead, ``False`` alive, ``None`` toggles each
    named group once, as older records and a click on the board do), ``seconds``
    (TIME_PENALTY), ``clause``/``note`` (arbiter events), ``outcome``/
    ``winner``/``reason`` (ADJUDICATE), ``absent`` (START).
    """

    type: EventType
    at: float
    side: Side | None = None
    move: str | None = None
    claim: ClaimKind | None = None
    points: tuple[str, ...] = ()
    seconds: float = 0.0
    clause: str = ""
    note: str = ""
    outcome: Outcome | None = None
    winner: Side | None = None
    reason: Reason | None = None
    absent: tuple[Side, ...] = ()
    dead: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the event as JSON-ready data (only the fields that are set)."""
        out: dict[str, Any] = {"type": self.type.value, "at": self.at}
        if self.side is not None:
            out["side"] = self.side.name.lower()
        if self.move is not None:
            out["move"] = self.move
        if self.claim is not None:
            out["claim"] = self.claim.value
        if self.points:
            out["points"] = list(self.points)
        if self.seconds:
            out["seconds"] = self.seconds
        if self.clause:
            out["clause"] = self.clause
        if self.note:
            out["note"] = self.note
        if self.outcome is not None:
            out["outcome"] = self.outcome.value
        if self.winner is not None:
            out["winner"] = self.winner.name.lower()
        if self.reason is not None:
            out["reason"] = self.reason.value
        if self.absent:
            out["absent"] = [s.name.lower() for s in self.absent]
        if self.dead is not None:
            out["dead"] = self.dead
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        """Return the event ``data`` describes (the inverse of :meth:`to_dict`).

        Raises :class:`EventError` naming the bad field.
        """
        def side(v: Any, name: str) -> Side:
            try:
                return Side[str(v).upper()]
            except KeyError:
                raise EventError(f"event field {name}: {v!r} is not first/second") from None

        try:
            etype = EventType(data["type"])
            at = float(data["at"])
        except (KeyError, ValueError, TypeError) as exc:
            raise EventError(f"event {data!r}: bad or missing type/at ({en_of(exc)})") from None
        try:
            return cls(
                type=etype,
                at=at,
                side=side(data["side"], "side") if "side" in data else None,
                move=str(data["move"]) if "move" in data else None,
                claim=ClaimKind(data["claim"]) if "claim" in data else None,
                points=tuple(str(p) for p in data.get("points", ())),
                seconds=float(data.get("seconds", 0.0)),
                clause=str(data.get("clause", "")),
                note=str(data.get("note", "")),
                outcome=Outcome(data["outcome"]) if "outcome" in data else None,
                winner=side(data["winner"], "winner") if "winner" in data else None,
                reason=Reason(data["reason"]) if "reason" in data else None,
                absent=tuple(side(s, "absent") for s in data.get("absent", ())),
                dead=_flag(data["dead"], "dead") if "dead" in data else None,
            )
        except (ValueError, TypeError) as exc:
            if isinstance(exc, EventError):
                raise
            raise EventError(f"event {data!r}: {en_of(exc)}") from None


def _flag(value: Any, name: str) -> bool:
    """Return ``value`` as a bool (also the text ``true``/``false``, as
    records write it); raises :class:`EventError` for anything else."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "false"):
        return text == "true"
    raise EventError(f"event field {name}: {value!r} is not true/false")


class NoticeType(enum.Enum):
    """What a notice reports."""

    STARTED = "started"
    ARRIVED = "arrived"
    MOVED = "moved"
    PASSED = "passed"
    INVALID_MOVE = "invalid_move"
    """An invalid move was voided (Go 10, 11(1)) or refused with a foul."""
    FOUL = "foul"
    WARNING = "warning"
    DRAW_OFFERED = "draw_offered"
    DRAW_DECLINED = "draw_declined"
    CLAIM_REJECTED = "claim_rejected"
    MUST_CHANGE = "must_change"
    """24.3: the side with the forbidden cycle must change its moves."""
    CLOCK_CALL = "clock_call"
    TIME_CHARGED = "time_charged"
    PAUSED = "paused"
    RESUMED = "resumed"
    ADJOURNED = "adjourned"
    SCORING = "scoring"
    """Go: both passed; dead stones are marked and confirmed."""
    DEAD_MARKED = "dead_marked"
    DEAD_CONFIRMED = "dead_confirmed"
    PLAY_RESUMED = "play_resumed"
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class Notice:
    """One output of a game, with texts in Chinese and English."""

    type: NoticeType
    at: float
    side: Side | None
    text_zh: str
    text_en: str
    clause: str = ""
    data: dict[str, Any] = field(default_factory=dict)
