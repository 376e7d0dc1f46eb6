"""Points systems (成绩计算) as data.

* 14.1 (1999 text): win 1, draw 0.5, loss 0 — :data:`CLASSIC`.
* 2011 text: win 2, draw 1, loss 0 — :data:`CXA_2011`.
* 2007 trial 贴分制 (001): win 3, loss 0, draw 1 to Red and 2 to Black —
  :data:`TRIAL_2007`.
* 14.2 team events: 局分 per board, 场分 2/1/0 by comparing the 局分 totals —
  :class:`MatchPoints` / :data:`TEAM_MATCH`.
* 21.4: a forfeit '+' is worth 1 for individuals and 2 (a match win) for
  teams; '-' is worth 0.

An event's table defaults to its rule profile's points
(:func:`table_for_rules`: ``cxa-2007`` scores 3/0 with draws 1 to Red and 2
to Black); a table named by the organiser overrides it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from qisai.competition.errors import CompetitionError
from qisai.competition.model import Colour, Game, Outcome, Result

if TYPE_CHECKING:
    from qisai.referee.rulesets import GoRules, XiangqiRules


@dataclass(frozen=True, slots=True)
class ScoringTable:
    """Points for each outcome; a draw may be worth different points to Red
    and Black (2007 trial).

    ``bye`` is what the holder of a bye gets (2011 14.4: scored as a win).
    """

    name: str
    win: float
    draw_red: float
    draw_black: float
    loss: float = 0.0
    forfeit_win: float | None = None  # None: same as win (21.4)
    forfeit_loss: float = 0.0  # 21.4: '-' is 0
    bye: float | None = None  # None: same as win

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise CompetitionError(f"计分表的名称须为文字，不是 {self.name!r}",
                                   f"scoring table name must be text, not {self.name!r}")
        for field in ("win", "draw_red", "draw_black", "loss", "forfeit_loss",
                      "forfeit_win", "bye"):
            value = getattr(self, field)
            if value is None and field in ("forfeit_win", "bye"):
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise CompetitionError(
                    f"计分表 {self.name!r}：{field} 须为不小于 0 的数，实为 {value!r}",
                    f"scoring table {self.name!r}: {field} must be a number >= 0, got {value!r}")
        if self.win < max(self.draw_red, self.draw_black, self.loss):
            raise CompetitionError(f"计分表 {self.name!r}：胜局的分须最高",
                                   f"scoring table {self.name!r}: a win must be worth the most")

    @property
    def colour_neutral(self) -> bool:
        """True when a draw is worth the same to both sides."""
        return self.draw_red == self.draw_black

    def points(self, outcome: Outcome, colour: Colour | None = None) -> float:
        """Return the points of ``outcome``; ``colour`` matters only for a
        draw under a colour-dependent table (then it is required).

        Raises :class:`CompetitionError` if a colour is needed and missing.
        """
        if outcome is Outcome.WIN:
            return self.win
        if outcome is Outcome.LOSS:
            return self.loss
        if outcome is Outcome.DRAW:
            if self.colour_neutral:
                return self.draw_red
            if colour is None:
                raise CompetitionError(
                    f"计分表 {self.name!r}：和局须知道先后手才能计分",
                    f"scoring table {self.name!r}: a draw needs the colour to be scored")
            return self.draw_red if colour is Colour.RED else self.draw_black
        if outcome is Outcome.FORFEIT_WIN:
            return self.win if self.forfeit_win is None else self.forfeit_win
        if outcome is Outcome.FORFEIT_LOSS:
            return self.forfeit_loss
        if outcome is Outcome.BYE:
            return self.win if self.bye is None else self.bye
        return 0.0  # ABSENT

    def game_points(self, game: Game, player: int) -> float:
        """Return the points ``player`` earned in ``game``."""
        colour = game.colour_of(player)
        return self.points(game.result.outcome(colour), colour)

    def to_dict(self) -> dict[str, Any]:
        """Return the table as a JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScoringTable:
        """Build a table from :meth:`to_dict` output.

        Raises :class:`CompetitionError` on unknown or missing keys.
        """
        try:
            return cls(**data)
        except TypeError as exc:
            raise CompetitionError(f"计分表有误 {data!r}：{exc}",
                                   f"bad scoring table {data!r}: {exc}") from None


# 14.1: 胜者 1 分，负者 0 分，和棋各记 0.5 分
CLASSIC = ScoringTable("1/0.5/0", win=1.0, draw_red=0.5, draw_black=0.5)
# 2011 rules 13.1: win 2, draw 1, loss 0
CXA_2011 = ScoringTable("2/1/0", win=2.0, draw_red=1.0, draw_black=1.0)
# 2007 trial 贴分: 胜方3分，负方0分；红方和局1分，黑方和局2分
TRIAL_2007 = ScoringTable("3/0, draw red 1 black 2", win=3.0, draw_red=1.0, draw_black=2.0)

PRESETS: dict[str, ScoringTable] = {
    "classic": CLASSIC,
    "2-1-0": CXA_2011,
    "trial-2007": TRIAL_2007,
}


def preset(name: str) -> ScoringTable:
    """Return the named preset (``classic``, ``2-1-0``, ``trial-2007``).

    Raises :class:`CompetitionError` for an unknown name.
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise CompetitionError(
            f"未知的计分方法 {name!r}；可选 {', '.join(PRESETS)}",
            f"unknown scoring {name!r}; choose one of {', '.join(PRESETS)}") from None


def table_for_rules(rules: str | XiangqiRules | GoRules) -> ScoringTable:
    """Return the scoring table of a rule profile (a name or a profile): its
    points (:class:`qisai.referee.rulesets.PointScheme`: 14.1, or the 2007
    trial 贴分 win 3, loss 0, draw 1 to Red and 2 to Black).

    A preset with the same points is returned as itself (``cxa`` gives
    :data:`CLASSIC`, ``cxa-2007`` :data:`TRIAL_2007`).  Raises
    :class:`CompetitionError` for an unknown profile name.
    """
    # imported here: the referee is not needed to read an event (CLI start-up)
    from qisai.referee.errors import RulesetError
    from qisai.referee.rulesets import ruleset

    if isinstance(rules, str):
        try:
            profile = ruleset(rules)
        except RulesetError as exc:
            raise CompetitionError(f"计分：{exc}",
                                   f"scoring: {exc}") from None
    else:
        profile = rules
    pts = profile.points
    table = ScoringTable(f"rules {profile.name}", win=float(pts.win),
                         draw_red=float(pts.draw_first), draw_black=float(pts.draw_second),
                         loss=float(pts.loss))
    for known in PRESETS.values():
        if (known.win, known.draw_red, known.draw_black, known.loss) == \
                (table.win, table.draw_red, table.draw_black, table.loss) and \
                known.forfeit_win is None and known.bye is None and known.forfeit_loss == 0:
            return known
    return table


@dataclass(frozen=True, slots=True)
class MatchPoints:
    """场分 of a team match from its 局分 (14.2): more board points wins."""

    win: float = 2.0
    draw: float = 1.0
    loss: float = 0.0
    forfeit_win: float = 2.0  # 21.4: '+' worth 2 when the absent side is a team

    def of(self, own_board_points: float, other_board_points: float) -> float:
        """Return the match points for a side with ``own_board_points``."""
        if own_board_points > other_board_points:
            return self.win
        if own_board_points < other_board_points:
            return self.loss
        return self.draw


TEAM_MATCH = MatchPoints()


def score_of(player: int, games: list[Game] | tuple[Game, ...], table: ScoringTable) -> float:
    """Return the total points of ``player`` over ``games`` (games without the
    player are skipped)."""
    total = 0.0
    for g in games:
        if player == g.red or player == g.black:
            total += table.game_points(g, player)
    return total


def points_of_result(result: Result, table: ScoringTable) -> tuple[float, float]:
    """Return (Red's points, Black's points) for ``result`` under ``table``."""
    red = table.points(result.outcome(Colour.RED), Colour.RED)
    black = table.points(result.outcome(Colour.BLACK), Colour.BLACK)
    return red, black
