"""The one place the web layer builds referee games from stored settings
(rule profiles, time controls), and the JSON forms of results and notices.

Nothing here decides anything: results and clocks come from the referee.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from qisai.referee.clock import (
    Byoyomi,
    ByoyomiKind,
    SideTimeControl,
    Stage,
    TimeControl,
    scheme_6_1,
    scheme_6_2,
    scheme_6_3,
    scheme_6_4,
)
from qisai.referee.errors import RefereeError, RulesetError, TimeControlError
from qisai.referee.events import Notice
from qisai.referee.game import Game as RefereeGame
from qisai.referee.go_game import GoGame
from qisai.referee.rulesets import PRESETS, GoRules, XiangqiRules, ruleset
from qisai.referee.time_families import family_of
from qisai.referee.verdict import Side
from qisai.referee.xiangqi_game import XiangqiGame

__all__ = [
    "ServerGame",
    "family_of_settings",
    "jsonable",
    "new_referee_game",
    "notice_data",
    "parse_time_control",
    "profiles_for",
    "result_data",
    "safe_family",
    "same_move",
]

_SCHEMES: dict[str, Callable[[], SideTimeControl]] = {
    "6.1": scheme_6_1, "6.2": scheme_6_2, "6.3": scheme_6_3, "6.4": scheme_6_4,
}


def jsonable(value: Any) -> Any:
    """Return ``value`` with enums, fractions and tuples made JSON-ready."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.name.lower() if isinstance(value, Side) else value.value
    if isinstance(value, Fraction):
        return float(value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def profiles_for(kind: str) -> list[str]:
    """Return the names of the rule profiles of game ``kind``."""
    want = XiangqiRules if kind == "xiangqi" else GoRules
    return [name for name, p in PRESETS.items() if isinstance(p, want)]


def parse_time_control(spec: dict[str, Any] | None) -> TimeControl | None:
    """Return the time control a game's ``settings["time"]`` describes.

    Forms: ``None`` (no clock); ``{"scheme": "6.1"}`` (6.1-6.4);
    ``{"minutes": 10, "increment": 5}`` (sudden death 6.5, Fischer);
    with ``"byoyomi": {"kind": "chinese"|"japanese"|"canadian", "periods": 5,
    "seconds": 60, "moves": 1}``; any of them with ``"extra": {"first": 600}``
    (seconds added to one side's first stage: a simul host's extra time).
    Raises :class:`TimeControlError` naming the bad field.
    """
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise TimeControlError(f"time: expected an object, not {spec!r}")
    if "extra" in spec:
        return _with_extra(parse_time_control({k: v for k, v in spec.items() if k != "extra"}),
                           spec["extra"])
    if "scheme" in spec:
        maker = _SCHEMES.get(str(spec["scheme"]))
        if maker is None:
            raise TimeControlError(f"time.scheme: {spec['scheme']!r} is not one of "
                                   f"{', '.join(_SCHEMES)}")
        return TimeControl.both(maker())
    try:
        minutes = float(spec.get("minutes", 0))
        increment = float(spec.get("increment", 0))
    except (TypeError, ValueError):
        raise TimeControlError(f"time: minutes and increment must be numbers: {spec!r}") from None
    if not 0 <= minutes <= 24 * 60:
        raise TimeControlError(f"time.minutes: {minutes} is not in 0..1440")
    by = spec.get("byoyomi")
    byoyomi = None
    if by is not None:
        if not isinstance(by, dict):
            raise TimeControlError(f"time.byoyomi: expected an object, not {by!r}")
        try:
            byoyomi = Byoyomi(ByoyomiKind(str(by.get("kind", "japanese"))),
                              periods=int(by.get("periods", 1)),
                              period_seconds=float(by.get("seconds", 60)),
                              moves=int(by.get("moves", 1)))
        except (TypeError, ValueError) as exc:
            raise TimeControlError(f"time.byoyomi: {exc}") from None
    elif minutes <= 0:
        raise TimeControlError("time.minutes: must be positive without byo-yomi")
    return TimeControl.both(SideTimeControl((Stage(None, minutes * 60),), increment=increment,
                                            byoyomi=byoyomi))


MAX_EXTRA = 24 * 3600
"""The most extra seconds one side may be given."""


def _with_extra(tc: TimeControl | None, extra: Any) -> TimeControl:
    """Return ``tc`` with ``extra`` (``{"first": s, "second": s}``) seconds
    added to each named side's first stage.  Raises :class:`TimeControlError`."""
    if tc is None:
        raise TimeControlError("time.extra: needs a clock to add time to")
    if not isinstance(extra, dict) or not set(extra) <= {"first", "second"}:
        raise TimeControlError(f"time.extra: expected {{'first': s, 'second': s}}, not {extra!r}")
    sides = {"first": tc.first, "second": tc.second}
    for side, add in extra.items():
        if isinstance(add, bool) or not isinstance(add, int | float) \
                or not 0 <= add <= MAX_EXTRA:
            raise TimeControlError(f"time.extra.{side}: {add!r} is not 0..{MAX_EXTRA} seconds")
        control = sides[side]
        head = control.stages[0]
        sides[side] = replace(control, stages=(Stage(head.moves, head.seconds + float(add)),
                                               *control.stages[1:]))
    return TimeControl(sides["first"], sides["second"])


def make_rules(kind: str, name: str, settings: Mapping[str, Any]) -> XiangqiRules | GoRules:
    """Return the rule profile ``name`` with the game's overrides (time
    control, ``settings["rules"]`` fields).

    Raises :class:`RulesetError` or :class:`TimeControlError` naming the
    bad field or value.
    """
    if name not in profiles_for(kind):
        raise RulesetError(f"{name!r} is not a {kind} rule profile; known: "
                           f"{', '.join(profiles_for(kind))}")
    overrides = dict(settings.get("rules") or {})
    if not isinstance(overrides, dict):
        raise RulesetError("rules: expected an object of field overrides")
    if "time" in settings:
        overrides["time_control"] = parse_time_control(settings["time"])
    if kind == "go" and "size" in settings:
        overrides["board_size"] = settings["size"]
    return ruleset(name, **overrides)


ServerGame = XiangqiGame | GoGame
"""The referee game a server game holds."""


def new_referee_game(kind: str, name: str, settings: Mapping[str, Any],
                     now: Callable[[], float] | None) -> ServerGame:
    """Return a new referee game of ``kind`` under profile ``name`` with the
    stored ``settings``.

    Raises :class:`~qisai.referee.errors.RefereeError` for a bad setting.
    """
    rules = make_rules(kind, name, settings)
    if kind == "xiangqi":
        assert isinstance(rules, XiangqiRules)
        return XiangqiGame(rules, fen=settings.get("fen"), now=now)
    assert isinstance(rules, GoRules)
    return GoGame(rules, now=now)


def same_move(recorded: str, given: str, kind: str) -> bool:
    """Return whether ``given`` names the move ``recorded`` in the record."""
    def norm(s: str) -> str:
        return s.strip().lower().replace("-", "")
    return norm(recorded) == norm(given)


def result_data(game: RefereeGame) -> dict[str, Any] | None:
    """Return the referee's result as JSON-ready data, or ``None``."""
    r = game.result
    if r is None:
        return None
    return {
        "outcome": r.outcome.value,
        "winner": None if r.winner is None else r.winner.name.lower(),
        "reason": r.reason.value,
        "clause": r.clause,
        "zh": r.explanation_zh,
        "en": r.explanation_en,
        "pgn": r.pgn_result,
        "sgf": r.sgf_result,
        "tag": r.pgn_result,
        "margin": None if r.margin is None else str(r.margin),
        "unit": r.unit,
    }


def notice_data(n: Notice) -> dict[str, Any]:
    """Return a referee notice as JSON-ready data."""
    return {"type": n.type.value, "at": n.at, "side": None if n.side is None else n.side.name.lower(),
            "zh": n.text_zh, "en": n.text_en, "clause": n.clause, "data": jsonable(n.data)}


def family_of_settings(kind: str, ruleset: str, settings: dict[str, Any]) -> str:
    """Return the family of a game stored with ``kind``, rule profile
    ``ruleset`` and ``settings`` (its own time, else the profile's).

    Raises :class:`~qisai.referee.errors.RefereeError` for bad settings."""
    profile = make_rules(kind, ruleset, settings)
    return family_of(profile.time_control)


def safe_family(kind: str, ruleset: str, settings: dict[str, Any]) -> str | None:
    """Return :func:`family_of_settings`, or ``None`` for settings no
    profile accepts (never raises)."""
    try:
        return family_of_settings(kind, ruleset, settings)
    except RefereeError:
        return None
