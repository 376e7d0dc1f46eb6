"""The referee: one game under one rule book, for Xiangqi and Go.

Only the referee decides a result.  Public API::

    from qisai.referee import new_game, ruleset, Side, ManualTime

    game = new_game("cxa", now=time.monotonic)   # or "chinese" for Go
    game.start()
    game.move(Side.FIRST, "h2e2")                 # Go: "D4" / "pass"
    game.tick()                                   # clock calls, flag falls
    game.result                                   # Result: outcome, winner, reason, clause, texts

Modules: :mod:`~qisai.referee.rulesets` (rule profiles), :mod:`~qisai.referee.clock`
(time controls), :mod:`~qisai.referee.verdict` (results), :mod:`~qisai.referee.game`
(the shared Game), :mod:`~qisai.referee.xiangqi_game`, :mod:`~qisai.referee.go_game`,
:mod:`~qisai.referee.repetition` (棋例 interface), :mod:`~qisai.referee.records`
(PGN/SGF with clocks).
"""

from __future__ import annotations

from typing import Any

from qisai.referee.clock import (
    Byoyomi,
    ByoyomiKind,
    Clock,
    ManualTime,
    SideTimeControl,
    Stage,
    TimeControl,
    TimeSource,
    chinese_byoyomi,
)
from qisai.referee.errors import (
    ClockError,
    EventError,
    GameOverError,
    NotYourTurnError,
    RecordError,
    RefereeError,
    RulesetError,
    TimeControlError,
)
from qisai.referee.events import ClaimKind, Event, EventType, Notice, NoticeType
from qisai.referee.game import Game, Infraction, MoveRecord, Phase
from qisai.referee.go_game import GoGame
from qisai.referee.records import go_from_sgf, go_to_sgf, xiangqi_from_pgn, xiangqi_to_pgn
from qisai.referee.rulesets import PRESETS, GoRules, Penalty, PointScheme, XiangqiRules, ruleset
from qisai.referee.verdict import GameKind, Outcome, Reason, Result, Side
from qisai.referee.xiangqi_game import XiangqiGame

__all__ = [
    "PRESETS",
    "Byoyomi",
    "ByoyomiKind",
    "ClaimKind",
    "Clock",
    "ClockError",
    "Event",
    "EventError",
    "EventType",
    "Game",
    "GameKind",
    "GameOverError",
    "GoGame",
    "GoRules",
    "Infraction",
    "ManualTime",
    "MoveRecord",
    "NotYourTurnError",
    "Notice",
    "NoticeType",
    "Outcome",
    "Penalty",
    "Phase",
    "PointScheme",
    "Reason",
    "RecordError",
    "RefereeError",
    "Result",
    "RulesetError",
    "Side",
    "SideTimeControl",
    "Stage",
    "TimeControl",
    "TimeControlError",
    "TimeSource",
    "XiangqiGame",
    "XiangqiRules",
    "chinese_byoyomi",
    "go_from_sgf",
    "go_to_sgf",
    "new_game",
    "ruleset",
    "xiangqi_from_pgn",
    "xiangqi_to_pgn",
]


def new_game(profile: str | XiangqiRules | GoRules, now: TimeSource | None = None,
             **kwargs: Any) -> XiangqiGame | GoGame:
    """Return a new game under ``profile`` (a preset name or a profile).

    ``kwargs`` go to the game (Xiangqi: ``fen``, ``judge``).  Raises
    :class:`RulesetError` for an unknown profile name.
    """
    rules = ruleset(profile) if isinstance(profile, str) else profile
    if isinstance(rules, GoRules):
        return GoGame(rules, now=now, **kwargs)
    return XiangqiGame(rules, now=now, **kwargs)
