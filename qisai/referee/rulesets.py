"""Rule profiles: one frozen dataclass per game, named presets, overrides.

Where rule books differ (illegal move loses or is a foul, two or three fouls,
the natural move limit, the repetition code and count, komi, ko rule, what an
unbreakable Go cycle gives ...) the difference is a field here.  The referee
asks the fields; it never compares a profile's name.

Presets (:data:`PRESETS`):

* Xiangqi ``cxa`` (the national rules of seeds 000/001), ``cxa-2007`` (the
  2007 trial rules: time odds and point odds), ``cxa-local`` (the local rules
  at the start of seed 000: two technical fouls lose, an illegal or extra
  move is a foul, a per-move limit), ``axf`` (Asian Xiangqi Federation
  repetition code) and ``casual`` (illegal moves are simply refused);
* Go ``chinese`` (area counting, komi 3¾ stones, positional superko; core
  :data:`qisai.go.rules.CHINESE`), ``japanese`` and ``korean`` (territory
  counting, komi 6.5, teire deducted; core :data:`~qisai.go.rules.JAPANESE`),
  ``ing`` (:data:`~qisai.go.rules.ING`: area by filling, 8 points komi, ties
  to Black), ``aga`` (:data:`~qisai.go.rules.AGA`: pass stones, White passes
  last), ``tromp-taylor`` (:data:`~qisai.go.rules.TROMP_TAYLOR`, engines),
  ``go-casual`` (core ``CHINESE``).

Example::

    >>> rules = ruleset("cxa", natural_limit=40, foul_limit=2)
    >>> rules.natural_limit, rules.foul_limit
    (40, 2)
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from qisai.go import rules as go_rules
from qisai.referee.clock import (
    SideTimeControl,
    Stage,
    TimeControl,
    chinese_byoyomi,
    scheme_6_1,
)
from qisai.referee.errors import RulesetError
from qisai.referee.verdict import GameKind, Outcome, Result, Side

__all__ = [
    "GoRules",
    "Penalty",
    "PointScheme",
    "PRESETS",
    "RepetitionCode",
    "Rules",
    "XiangqiRules",
    "ruleset",
]


class Penalty(enum.Enum):
    """What an irregular action costs."""

    LOSS = "loss"
    """The game is lost (4.1.6; Go 8(1))."""
    FOUL = "foul"
    """The action is undone and a foul is recorded (seed 000 local rule 8)."""
    WARNING = "warning"
    """The action is undone and a warning is recorded (Go: an invalid move
    is void, counts as a pass *and* earns a warning, for events whose local
    rules want that; the rule text's 10 and 11(1) give no warning)."""
    VOID = "void"
    """Go 10, 11(1): 判着手无效，弃权一次 — the move is void and counts as a
    pass; nothing else is recorded."""
    REJECT = "reject"
    """The action is refused with an error and nothing is recorded (casual)."""


class RepetitionCode(enum.Enum):
    """Which repetition code (棋例) rules a cycle."""

    CXA = "cxa"
    """The Chinese Xiangqi Association code (seeds, chapter 6-7)."""
    AXF = "axf"
    """The Asian Xiangqi Federation code (see docs/specs/qili.md §8.2)."""


@dataclass(frozen=True)
class PointScheme:
    """Points for one game: a win, a loss, and a draw for each side.

    The usual scheme is 1 / 0 / ½ (14.1); the 2007 trial rules give 3 / 0 and
    a draw 1 to Red, 2 to Black (贴分).
    """

    win: Fraction = Fraction(1)
    loss: Fraction = Fraction(0)
    draw_first: Fraction = Fraction(1, 2)
    draw_second: Fraction = Fraction(1, 2)

    def points(self, result: Result) -> tuple[Fraction, Fraction]:
        """Return (first side's, second side's) points for ``result``.

        A no-result gives nothing to either side (the game is replayed); a
        double forfeit gives both the loss points.
        """
        if result.winner is Side.FIRST:
            return (self.win, self.loss)
        if result.winner is Side.SECOND:
            return (self.loss, self.win)
        if result.is_draw:
            return (self.draw_first, self.draw_second)
        if result.outcome is Outcome.DOUBLE_FORFEIT:
            return (self.loss, self.loss)
        return (Fraction(0), Fraction(0))


class _Profile:
    """Shared behaviour of rule profiles (override, validation)."""

    kind: ClassVar[GameKind]
    name: str

    def with_overrides(self, **overrides: Any) -> Any:
        """Return a copy with fields replaced (strings convert to enums,
        numbers to :class:`~fractions.Fraction` where the field wants one).

        Raises :class:`RulesetError` for an unknown field or a bad value.
        """
        fields = {f.name: f for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        changes: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in fields:
                raise RulesetError(f"rule profile {self.name!r} has no field {key!r}; "
                                   f"fields: {', '.join(sorted(fields))}")
            current = getattr(self, key)
            changes[key] = _convert(self.name, key, current, value)
        try:
            return dataclasses.replace(self, **changes)  # type: ignore[type-var]
        except (TypeError, ValueError) as exc:
            if isinstance(exc, RulesetError):
                raise
            raise RulesetError(f"rule profile {self.name!r}: {exc}") from exc


def _convert(name: str, key: str, current: Any, value: Any) -> Any:
    try:
        if isinstance(current, enum.Enum) and not isinstance(value, enum.Enum):
            return type(current)(value)
        if isinstance(current, Fraction) and not isinstance(value, Fraction):
            return Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    except (ValueError, TypeError) as exc:
        raise RulesetError(f"rule profile {name!r}: {key}={value!r} is not valid: {exc}") from exc
    if isinstance(current, bool) and not isinstance(value, bool):
        raise RulesetError(f"rule profile {name!r}: {key} must be true or false, not {value!r}")
    return value


@dataclass(frozen=True)
class XiangqiRules(_Profile):
    """A Xiangqi rule profile.

    Fields and the clauses they carry:

    * ``illegal_move`` (4.1.6): LOSS in official play, FOUL under the local
      rules of seed 000 (8(五)), REJECT in casual play.
    * ``out_of_turn`` (5.8 → 4.1.6; local rule 8(五) "多走一步").
    * ``foul_limit`` (4.1.8: three fouls lose; seed 000: two technical fouls);
      ``None``: no limit.  ``foul_clause`` is the clause the loss cites.
    * ``natural_limit`` (4.2.4): rounds without a capture, 60, "也可根据比赛等级酌减";
      ``None`` switches it off.  ``natural_limit_automatic``: the arbiter may
      declare it without a claim (23.3 last sentence).
      ``natural_limit_check_cap``: a claimant's checks count at most 10 moves
      (23.3).  ``false_claim_seconds``: a false claim costs 5 minutes (23.3)
      and is a foul (9.1.4).
    * ``repetition_code``, ``repetition_count`` (4.2.3: three times),
      ``repetition_automatic`` (23.2: the arbiter may rule without a claim).
    * ``draw_offers`` (4.2.2, 23.1), ``repeat_offer_is_foul`` (9.1.3).
    * ``late_limit``: seconds after the start beyond which an absent player
      loses (4.1.5, 21), when the event sets one; ``None``: the limit comes
      from the time control (21.1-21.3: the first period's time; a lone
      late player's running clock enforces it, and when both are late each
      one's late time counts from the start, both beyond it: 双方弃权).
    * ``time_control`` (6); ``None`` plays without clocks.
    * ``points`` (14.1; the 2007 point odds).
    """

    kind: ClassVar[GameKind] = GameKind.XIANGQI

    name: str = "cxa"
    title_zh: str = "中国象棋竞赛规则"
    title_en: str = "Chinese Xiangqi Association competition rules"
    illegal_move: Penalty = Penalty.LOSS
    out_of_turn: Penalty = Penalty.LOSS
    foul_limit: int | None = 3
    foul_clause: str = "4.1.8"
    natural_limit: int | None = 60
    natural_limit_automatic: bool = True
    natural_limit_check_cap: int = 10
    false_claim_seconds: float = 300.0
    false_claim_is_foul: bool = True
    repetition_code: RepetitionCode = RepetitionCode.CXA
    repetition_count: int = 3
    repetition_automatic: bool = True
    draw_offers: bool = True
    repeat_offer_is_foul: bool = True
    late_limit: float | None = None
    time_control: TimeControl | None = field(default_factory=lambda: TimeControl.both(scheme_6_1()))
    points: PointScheme = field(default_factory=PointScheme)

    def __post_init__(self) -> None:
        if self.foul_limit is not None and self.foul_limit < 1:
            raise RulesetError(f"{self.name}: foul_limit must be at least 1, not {self.foul_limit}")
        if self.natural_limit is not None and self.natural_limit < 1:
            raise RulesetError(f"{self.name}: natural_limit must be at least 1 round")
        if self.natural_limit_check_cap < 0:
            raise RulesetError(f"{self.name}: natural_limit_check_cap must not be negative")
        if self.repetition_count < 2:
            raise RulesetError(f"{self.name}: repetition_count must be at least 2")
        if self.false_claim_seconds < 0:
            raise RulesetError(f"{self.name}: false_claim_seconds must not be negative")
        if self.late_limit is not None and self.late_limit < 0:
            raise RulesetError(f"{self.name}: late_limit must not be negative")
        if self.out_of_turn is Penalty.WARNING or self.illegal_move is Penalty.WARNING:
            raise RulesetError(f"{self.name}: Xiangqi records fouls, not warnings, for moves")
        if Penalty.VOID in (self.out_of_turn, self.illegal_move):
            raise RulesetError(f"{self.name}: a void move (弃权一次) is a Go rule, not a Xiangqi one")


@dataclass(frozen=True)
class GoRules(_Profile):
    """A Go rule profile.

    * ``core``: the Go core's rules (ko rule, suicide, scoring, komi in
      points, handicap komi and give-back); ``komi``, ``handicap_komi``,
      ``ko``, ``scoring``, ``suicide_allowed`` and ``handicap_giveback`` may
      be overridden by name.  An explicit ``komi`` sets the handicap komi
      too (it is never dropped) unless ``handicap_komi`` is named as well.
    * ``board_size``; ``handicap``: 0 (分先, with komi), 1 (让先: Black
      first, no stones) or 2..9 stones; handicap games use
      ``core.handicap_komi`` instead of the komi (胜负判别 2: 让先不贴目，
      让子要贴还让子数的一半: the give-back is ``core.handicap_giveback``).
    * ``invalid_move`` (10, 11(1)): VOID (the default, as the text says:
      判着手无效，弃权一次 — the move is void and counts as a pass, no
      warning); WARNING = void, a pass and a warning, for events that want
      one (12(2) then counts it); REJECT in casual play; LOSS is allowed too.
      Warnings otherwise come only from the arbiter (8(2), 9).
    * ``out_of_turn`` (8(1)): moving twice in a row loses.
    * ``warning_limit`` (12(2)): two warnings in one game lose.
    * ``cycle_outcome`` (11(3)): an unbreakable cycle (only possible under
      the simple ko rule) is a draw or no result (replay).
    * ``draw_offers``: the Go rules have no draw by agreement; an event may
      allow it (offers then follow the Xiangqi procedure of 23.1 without the
      foul unless ``repeat_offer_is_foul``).
    * ``cycle_repetitions``: how many times a whole-board position (with the
      player to move) must occur before a cycle is ruled (11(3)).
    * ``time_control`` (§3), ``points``; ``sgf_rules`` is the SGF ``RU`` name.
    """

    kind: ClassVar[GameKind] = GameKind.GO

    name: str = "chinese"
    title_zh: str = "中国围棋竞赛规则"
    title_en: str = "Chinese Weiqi competition rules"
    core: go_rules.Rules = go_rules.CHINESE
    board_size: int = 19
    handicap: int = 0
    invalid_move: Penalty = Penalty.VOID
    out_of_turn: Penalty = Penalty.LOSS
    warning_limit: int | None = 2
    cycle_outcome: Outcome = Outcome.DRAW
    cycle_repetitions: int = 3
    draw_offers: bool = False
    repeat_offer_is_foul: bool = False
    time_control: TimeControl | None = field(default_factory=lambda: TimeControl.both(
        SideTimeControl((Stage(None, 2 * 3600),), byoyomi=chinese_byoyomi(5))))
    points: PointScheme = field(default_factory=PointScheme)
    late_limit: float | None = None
    sgf_rules: str = "Chinese"

    def __post_init__(self) -> None:
        if not 2 <= self.board_size <= 25:
            raise RulesetError(f"{self.name}: board size {self.board_size} is not in 2..25")
        if not 0 <= self.handicap <= 9:
            raise RulesetError(f"{self.name}: handicap must be 0..9, not {self.handicap}")
        if self.warning_limit is not None and self.warning_limit < 1:
            raise RulesetError(f"{self.name}: warning_limit must be at least 1")
        if self.cycle_repetitions < 2:
            raise RulesetError(f"{self.name}: cycle_repetitions must be at least 2")
        if self.cycle_outcome not in (Outcome.DRAW, Outcome.NO_RESULT):
            raise RulesetError(f"{self.name}: cycle_outcome must be draw or no_result")
        if self.out_of_turn is Penalty.FOUL or self.invalid_move is Penalty.FOUL:
            raise RulesetError(f"{self.name}: Go records warnings, not fouls")
        if self.out_of_turn is Penalty.VOID:
            raise RulesetError(f"{self.name}: moving out of turn (8(1)) cannot be a void move")

    def with_overrides(self, **overrides: Any) -> Any:
        """Return a copy with fields replaced; the Go core's fields (``komi``,
        ``ko``, ``scoring``, ``suicide_allowed``, ``handicap_giveback``) may be
        named directly.  Raises :class:`RulesetError` for an unknown field or
        a bad value."""
        core_names = {f.name for f in dataclasses.fields(go_rules.Rules)} - {"name"}
        core_changes = {k: overrides.pop(k) for k in list(overrides) if k in core_names}
        if "komi" in core_changes and "handicap_komi" not in core_changes:
            core_changes["handicap_komi"] = core_changes["komi"]  # an explicit komi wins
        profile = self
        if core_changes:
            converted = {k: _convert(self.name, k, getattr(self.core, k), v)
                         for k, v in core_changes.items()}
            profile = dataclasses.replace(self, core=dataclasses.replace(self.core, **converted))
        return _Profile.with_overrides(profile, **overrides)

    @property
    def komi(self) -> Fraction:
        """Return the komi in points (目) this game counts with: the core's
        komi in an even game, its ``handicap_komi`` in a handicap game
        (胜负判别 2)."""
        return self.core.komi_for(self.handicap)


Rules = XiangqiRules | GoRules
"""Either kind of profile."""


def _time_odds_2007() -> TimeControl:
    # 2007 trial rules (seed 001): Red 80 min + 30 s a move, Black 40 min + 30 s.
    return TimeControl(
        SideTimeControl((Stage(None, 80 * 60),), increment=30),
        SideTimeControl((Stage(None, 40 * 60),), increment=30),
    )


PRESETS: dict[str, XiangqiRules | GoRules] = {
    p.name: p
    for p in (
        XiangqiRules(),
        XiangqiRules(
            name="cxa-2007",
            title_zh="中国象棋竞赛规则（2007试行：贴时贴分）",
            title_en="CXA rules, 2007 trial: time and point odds",
            time_control=_time_odds_2007(),
            points=PointScheme(Fraction(3), Fraction(0), Fraction(1), Fraction(2)),
        ),
        XiangqiRules(
            name="cxa-local",
            title_zh="本次比赛规则（三局两胜，技术犯规两次判负）",
            title_en="Seed 000 local rules: two technical fouls lose",
            illegal_move=Penalty.FOUL,
            out_of_turn=Penalty.FOUL,
            foul_limit=2,
            foul_clause="本次比赛规则 4(四)",
            # Local rule 2 limits each move, but the source lost the number of
            # seconds; the event sets it (SideTimeControl.move_limit).
            time_control=None,
        ),
        XiangqiRules(
            name="axf",
            title_zh="亚洲象棋规则",
            title_en="Asian Xiangqi Federation rules",
            repetition_code=RepetitionCode.AXF,
        ),
        XiangqiRules(
            name="casual",
            title_zh="休闲对局",
            title_en="Casual game",
            illegal_move=Penalty.REJECT,
            out_of_turn=Penalty.REJECT,
            foul_limit=None,
            time_control=None,
        ),
        GoRules(),
        GoRules(
            name="japanese",
            title_zh="日本围棋规则（数目法）",
            title_en="Japanese rules (territory counting)",
            core=go_rules.JAPANESE,
            cycle_outcome=Outcome.NO_RESULT,
            sgf_rules="Japanese",
        ),
        GoRules(
            name="korean",
            title_zh="韩国围棋规则（数目法）",
            title_en="Korean rules (territory counting)",
            core=dataclasses.replace(go_rules.JAPANESE, name="korean"),
            cycle_outcome=Outcome.NO_RESULT,
            sgf_rules="Korean",
        ),
        GoRules(
            name="ing",
            title_zh="应氏围棋规则（计点制）",
            title_en="Ing rules (area counting by filling)",
            core=go_rules.ING,
            sgf_rules="GOE",
        ),
        GoRules(
            name="aga",
            title_zh="美国围棋协会规则（AGA）",
            title_en="AGA rules",
            core=go_rules.AGA,
            sgf_rules="AGA",
        ),
        GoRules(
            name="tromp-taylor",
            title_zh="Tromp-Taylor 规则（程序对局）",
            title_en="Tromp-Taylor rules (engines)",
            core=go_rules.TROMP_TAYLOR,
            sgf_rules="Tromp-Taylor",
        ),
        GoRules(
            name="go-casual",
            title_zh="休闲围棋",
            title_en="Casual Go",
            invalid_move=Penalty.REJECT,
            out_of_turn=Penalty.REJECT,
            warning_limit=None,
            time_control=None,
        ),
    )
}
"""The named rule profiles."""


def ruleset(name: str, **overrides: Any) -> XiangqiRules | GoRules:
    """Return the preset ``name`` with ``overrides`` applied.

    Raises :class:`RulesetError` for an unknown name or field or a bad value.
    """
    try:
        base = PRESETS[name]
    except KeyError:
        raise RulesetError(f"unknown rule profile {name!r}; known: {', '.join(PRESETS)}") from None
    if not overrides:
        return base
    profile: XiangqiRules | GoRules = base.with_overrides(**overrides)
    return profile
