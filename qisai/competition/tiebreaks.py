"""Ranking and tie-breaks (名次确定, clause 15; 18.4).

Entries are ranked by points; equal points are split by an ordered list of
named criteria, each a :class:`Criterion`.  The lists of the rule book are
the presets:

* 15.1 one-game individual round robin: 小分, 胜局, 直胜, 犯规;
* 15.2 one-game individual Swiss: 对手分, 胜局, 犯规;
* 15.3 team round robin: 全队总局分, 全队胜局, 直胜, 全队犯规;
* 15.4 team Swiss: 团体对手分, 全队总局分, 全队胜场, 全队犯规;
* "无法区分，则名次并列": entries still equal share the place.

18.4: entries penalised under 18.1/18.2 are placed last among those with
equal points, by severity and number of penalties — applied before any
criterion.

Definitions (the research note, docs/specs/tournaments.md §1.2-1.4):

* 小分 = Sonneborn-Berger: "所胜对手的全部积分与所和对手积分的一半之和" —
  the full final points of every opponent beaten plus half those of every
  opponent drawn (the fraction is of a game, whatever the points table).
* 对手分 = the full Buchholz: the sum of the final points of all opponents.
* 累进分 = the sum of the running totals after each round; its cut variant
  drops round 1, then rounds 1-2, ... (2011 14.3.2).
* 直胜 = the points scored in the games among the tied entries; applied only
  when every pair of them has met (or only to two entries, by policy).

How a bye and a forfeit count is the :class:`TiebreakPolicy` of the event.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from qisai.competition.errors import CompetitionError
from qisai.competition.model import Colour, Game, Outcome, Result
from qisai.competition.scoring import ScoringTable


class Criterion(enum.Enum):
    """A tie-break criterion; the value is its English key, :attr:`chinese`
    its name in the rules."""

    SONNEBORN_BERGER = "sonneborn_berger"  # 小分
    WINS = "wins"  # 胜局 (also 全队胜局 for teams: boards won)
    DIRECT_ENCOUNTER = "direct_encounter"  # 直胜
    FOULS = "fouls"  # 犯规 / 全队犯规, fewer is better
    BUCHHOLZ = "buchholz"  # 对手分 / 团体对手分
    CUMULATIVE = "cumulative"  # 累进分
    CUMULATIVE_CUT = "cumulative_cut"  # 累进分, dropping round 1, then 1-2 ...
    BLACK_GAMES = "black_games"  # 后走局数
    BLACK_WINS = "black_wins"  # 后走胜局
    GAME_POINTS = "game_points"  # 全队总局分 (team events)
    MATCH_WINS = "match_wins"  # 全队胜场 / 胜场 (team events)
    PREVIOUS_ROUNDS = "previous_rounds"  # 前一轮成绩, then the round before ... (2011 14.3.1)

    @property
    def chinese(self) -> str:
        """The criterion's name in the rules."""
        return _CHINESE[self]

    @property
    def lower_is_better(self) -> bool:
        """True for criteria where fewer is better (fouls)."""
        return self is Criterion.FOULS

    @classmethod
    def parse(cls, name: str) -> Criterion:
        """Return the criterion named ``name`` (English key or Chinese name).

        Raises :class:`CompetitionError` for an unknown name.
        """
        key = name.strip()
        for c in cls:
            if key in (c.value, c.chinese) or key.lower() == c.name.lower():
                return c
        extra = {"全队犯规": cls.FOULS, "团体对手分": cls.BUCHHOLZ, "全队胜局": cls.WINS,
                 "胜场": cls.MATCH_WINS, "SB": cls.SONNEBORN_BERGER, "BH": cls.BUCHHOLZ,
                 "前一轮成绩": cls.PREVIOUS_ROUNDS}
        if key in extra:
            return extra[key]
        raise CompetitionError(
            f"未知的小分 {name!r}；可选：" + "、".join(f"{c.value}（{c.chinese}）" for c in cls),
            f"unknown tie-break {name!r}; known: "
            + ", ".join(f"{c.value} ({c.chinese})" for c in cls))


_CHINESE = {
    Criterion.SONNEBORN_BERGER: "小分",
    Criterion.WINS: "胜局",
    Criterion.DIRECT_ENCOUNTER: "直胜",
    Criterion.FOULS: "犯规",
    Criterion.BUCHHOLZ: "对手分",
    Criterion.CUMULATIVE: "累进分",
    Criterion.CUMULATIVE_CUT: "累进分逐轮去除",
    Criterion.BLACK_GAMES: "后走局数",
    Criterion.BLACK_WINS: "后走胜局",
    Criterion.GAME_POINTS: "全队总局分",
    Criterion.MATCH_WINS: "全队胜场",
    Criterion.PREVIOUS_ROUNDS: "前轮成绩",
}

# 15.1 一局循环制个人赛: 小分.胜局.直胜.犯规
ROUND_ROBIN_INDIVIDUAL = (Criterion.SONNEBORN_BERGER, Criterion.WINS,
                          Criterion.DIRECT_ENCOUNTER, Criterion.FOULS)
# 15.2 一局积分编排制个人赛: 对手分，胜局.犯规
SWISS_INDIVIDUAL = (Criterion.BUCHHOLZ, Criterion.WINS, Criterion.FOULS)
# 2011 rules 14.3.1 (Swiss, option 1): 对手分、胜局、犯规、后走局数, then 前一轮成绩 back
# round by round
SWISS_INDIVIDUAL_2011_BUCHHOLZ = (Criterion.BUCHHOLZ, Criterion.WINS, Criterion.FOULS,
                                  Criterion.BLACK_GAMES, Criterion.PREVIOUS_ROUNDS)
# 2011 rules 14.3.2 (Swiss, option 2): 累进分、胜局、犯规、后走局数, then drop round 1,
# then rounds 1-2 ...
SWISS_INDIVIDUAL_2011_CUMULATIVE = (Criterion.CUMULATIVE, Criterion.WINS, Criterion.FOULS,
                                    Criterion.BLACK_GAMES, Criterion.CUMULATIVE_CUT)
# 15.3 一局循环制团体赛: 全队总局分.全队胜局.直胜.全队犯规
ROUND_ROBIN_TEAM = (Criterion.GAME_POINTS, Criterion.WINS, Criterion.DIRECT_ENCOUNTER,
                    Criterion.FOULS)
# 15.4 一局积分编排制团体赛: 团体对手分.全队总局分.全队胜场.全队犯规
SWISS_TEAM = (Criterion.BUCHHOLZ, Criterion.GAME_POINTS, Criterion.MATCH_WINS,
              Criterion.FOULS)


class ByePolicy(enum.Enum):
    """What a bye adds to 对手分 and 小分."""

    # 2011 14.4: 其对手分按有分棋手中的最低得分处理
    LOWEST_WITH_POINTS = "lowest_with_points"
    # WXF supplement: "the same as the lowest player from all"
    LOWEST = "lowest"
    # Go (CWA 2024): 不计对手分
    NONE = "none"


class DirectEncounterMode(enum.Enum):
    """How 直胜 treats a tie of more than two entries (the rules are silent)."""

    MINI_TABLE = "mini_table"  # points among the tied, if all of them have met
    PAIR_ONLY = "pair_only"  # only when exactly two are tied


@dataclass(frozen=True, slots=True)
class TiebreakPolicy:
    """Per-event treatment of byes and forfeits in the tie-breaks."""

    bye: ByePolicy = ByePolicy.LOWEST_WITH_POINTS
    forfeits_count: bool = True  # a forfeit game counts its opponent in 对手分/小分
    direct: DirectEncounterMode = DirectEncounterMode.MINI_TABLE
    # 2011 14.4 scores a bye "按胜局"; whether it also counts in 胜局 is the event's call
    bye_counts_as_win: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the policy as a JSON-ready dict."""
        return {"bye": self.bye.value, "forfeits_count": self.forfeits_count,
                "direct": self.direct.value, "bye_counts_as_win": self.bye_counts_as_win}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TiebreakPolicy:
        """Inverse of :meth:`to_dict`. Raises :class:`CompetitionError`."""
        try:
            return cls(ByePolicy(data.get("bye", "lowest_with_points")),
                       bool(data.get("forfeits_count", True)),
                       DirectEncounterMode(data.get("direct", "mini_table")),
                       bool(data.get("bye_counts_as_win", False)))
        except (ValueError, TypeError, AttributeError) as exc:
            raise CompetitionError(f"小分规则有误 {data!r}：{exc}",
                                   f"bad tie-break policy {data!r}: {exc}") from None


@dataclass(frozen=True, slots=True)
class Encounter:
    """One round of one entry: opponent (None for a bye or absence), outcome,
    the points it earned, its colour, fouls, and for team events the board
    points (局分) and boards won of the match."""

    round: int
    opponent: int | None
    outcome: Outcome
    points: float
    colour: Colour | None = None
    fouls: int = 0
    game_points: float = 0.0
    game_wins: int = 0


@dataclass(slots=True)
class Record:
    """Everything the ranking needs about one entry."""

    entry: int
    encounters: list[Encounter] = field(default_factory=list)
    penalty: int = 0  # 18.4: weight of 18.1/18.2 penalties (more = placed lower)

    @property
    def points(self) -> float:
        """Total points."""
        return sum(e.points for e in self.encounters)


_Side = tuple[Outcome, float, "Colour | None", int]
"""One side of a result in a record: outcome, points, colour if played, win."""


def records_from_games(entries: Iterable[int], games: Iterable[Game], scoring: ScoringTable,
                       penalties: Mapping[int, int] | None = None, *,
                       strict: bool = True) -> dict[int, Record]:
    """Build one :class:`Record` per entry from individual games.  Without
    ``strict`` only the sides of ``entries`` are read (the records of some
    entries, from their games: :class:`~qisai.competition.ranking.Ranker`).

    Raises :class:`CompetitionError` if a game names an unknown entry
    (``strict`` only).
    """
    recs = {e: Record(e, [], (penalties or {}).get(e, 0)) for e in entries}
    # a side's outcome, points, colour (played games) and win follow from the
    # result and its colour alone: worked out once per result, not once per
    # game (100,000 games in a 2,000-entry, 50-round event)
    sides: dict[Result, tuple[_Side, _Side]] = {}

    def side(result: Result, colour: Colour) -> _Side:
        outcome = result.outcome(colour)
        return (outcome, scoring.points(outcome, colour), colour if result.played else None,
                int(outcome in (Outcome.WIN, Outcome.FORFEIT_WIN)))

    for g in games:
        both = sides.get(g.result)
        if both is None:
            both = sides[g.result] = (side(g.result, Colour.RED), side(g.result, Colour.BLACK))
        for pid, (outcome, points, played, win), opponent, fouls in (
                (g.red, both[0], g.black, g.red_fouls), (g.black, both[1], g.red, g.black_fouls)):
            if pid is None:
                continue
            rec = recs.get(pid)
            if rec is None:
                if not strict:
                    continue
                raise CompetitionError(f"第 {g.round} 轮：对局中有未知的参赛者 {pid}",
                                       f"round {g.round}: game names unknown entry {pid}")
            rec.encounters.append(Encounter(g.round, opponent, outcome, points, played,
                                            fouls, points, win))
    return recs


_SB_FRACTION = {Outcome.WIN: 1.0, Outcome.FORFEIT_WIN: 1.0, Outcome.DRAW: 0.5,
                Outcome.BYE: 1.0}


class FieldContext:
    """Values that depend on the whole field (final scores, bye value)."""

    def __init__(self, records: Mapping[int, Record], policy: TiebreakPolicy,
                 score: dict[int, float] | None = None) -> None:
        self.records = records
        self.policy = policy
        # ``score``: the records' points, when the caller keeps them (Ranker)
        self.score = {e: r.points for e, r in records.items()} if score is None else score
        with_points = [s for s in self.score.values() if s > 0]
        everyone = list(self.score.values())
        if policy.bye is ByePolicy.LOWEST_WITH_POINTS:
            self.bye_value: float = min(with_points) if with_points else 0.0
        elif policy.bye is ByePolicy.LOWEST:
            self.bye_value = min(everyone) if everyone else 0.0
        else:
            self.bye_value = 0.0

    def _counted(self, e: Encounter) -> bool:
        if e.opponent is None:
            return False
        if e.outcome in (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS):
            return self.policy.forfeits_count
        return True

    def buchholz(self, rec: Record) -> float:
        """对手分: the sum of the final points of all opponents (+ bye value)."""
        total = 0.0
        for e in rec.encounters:
            if self._counted(e):
                assert e.opponent is not None
                total += self.score.get(e.opponent, 0.0)
            elif e.outcome is Outcome.BYE:
                total += self.bye_value
        return total

    def sonneborn_berger(self, rec: Record) -> float:
        """小分: beaten opponents' points plus half the drawn opponents' points."""
        total = 0.0
        for e in rec.encounters:
            frac = _SB_FRACTION.get(e.outcome, 0.0)
            if not frac:
                continue
            if self._counted(e):
                assert e.opponent is not None
                total += frac * self.score.get(e.opponent, 0.0)
            elif e.outcome is Outcome.BYE:
                total += frac * self.bye_value
        return total


def cumulative(rec: Record, skip: int = 0) -> float:
    """累进分: the sum of the running totals after each round, counting only
    rounds after ``skip`` (the cut of 2011 14.3.2)."""
    by_round: dict[int, float] = {}
    for e in rec.encounters:
        by_round[e.round] = by_round.get(e.round, 0.0) + e.points
    if not by_round:
        return 0.0
    running = 0.0
    total = 0.0
    for r in range(skip + 1, max(by_round) + 1):
        running += by_round.get(r, 0.0)
        total += running
    return total


def previous_rounds(rec: Record) -> tuple[float, ...]:
    """前一轮成绩 (2011 14.3.1, "比较前一轮成绩，以此类推，直至区分"): the score
    after the round before the last, then after the one before that, back to
    round 1.

    The text is open to two readings (docs/specs/tournaments.md §1.3):
    the score *after* the previous round, or the previous round's game alone.
    qisai reads it as the standing after each earlier round, because the
    clause ranks players tied on the total and the total after the previous
    round is what the pairing of the last round rested on; the compared
    values are the running totals, latest first.
    """
    by_round: dict[int, float] = {}
    for e in rec.encounters:
        by_round[e.round] = by_round.get(e.round, 0.0) + e.points
    if not by_round:
        return ()
    running: list[float] = []
    total = 0.0
    for r in range(1, max(by_round) + 1):
        total += by_round.get(r, 0.0)
        running.append(total)
    return tuple(reversed(running[:-1]))


def value(criterion: Criterion, rec: Record, ctx: FieldContext) -> Any:
    """Return the value of ``criterion`` for one entry (not 直胜, which
    depends on the tied group)."""
    if criterion is Criterion.SONNEBORN_BERGER:
        return ctx.sonneborn_berger(rec)
    if criterion is Criterion.BUCHHOLZ:
        return ctx.buchholz(rec)
    if criterion is Criterion.WINS:
        # 胜局 counts games (boards, for teams) won, forfeit wins included; a bye
        # only when the event's policy says so
        byes = sum(1 for e in rec.encounters if e.outcome is Outcome.BYE) \
            if ctx.policy.bye_counts_as_win else 0
        return byes + sum(e.game_wins for e in rec.encounters if e.outcome is not Outcome.BYE)
    if criterion is Criterion.FOULS:
        return sum(e.fouls for e in rec.encounters)
    if criterion is Criterion.CUMULATIVE:
        return cumulative(rec)
    if criterion is Criterion.CUMULATIVE_CUT:
        last = max((e.round for e in rec.encounters), default=0)
        return tuple(cumulative(rec, k) for k in range(1, last))
    if criterion is Criterion.PREVIOUS_ROUNDS:
        return previous_rounds(rec)
    if criterion is Criterion.BLACK_GAMES:
        return sum(1 for e in rec.encounters if e.colour is Colour.BLACK)
    if criterion is Criterion.BLACK_WINS:
        return sum(1 for e in rec.encounters
                   if e.colour is Colour.BLACK and e.outcome is Outcome.WIN)
    if criterion is Criterion.GAME_POINTS:
        return sum(e.game_points for e in rec.encounters)
    if criterion is Criterion.MATCH_WINS:
        return sum(1 for e in rec.encounters
                   if e.outcome in (Outcome.WIN, Outcome.FORFEIT_WIN))
    raise CompetitionError(f"{criterion.value} 需要同分的一组",
                           f"{criterion.value} needs the tied group")


def direct_encounter(group: Sequence[int], records: Mapping[int, Record],
                     mode: DirectEncounterMode) -> dict[int, float] | None:
    """直胜: points each tied entry scored against the others of ``group``.

    Returns None when the criterion does not apply (more than two tied under
    ``PAIR_ONLY``, or some pair of the group has not met).
    """
    if len(group) < 2 or (mode is DirectEncounterMode.PAIR_ONLY and len(group) != 2):
        return None
    members = set(group)
    met: set[frozenset[int]] = set()
    pts = dict.fromkeys(group, 0.0)
    for e in group:
        for enc in records[e].encounters:
            if enc.opponent in members:
                met.add(frozenset((e, enc.opponent)))
                pts[e] += enc.points
    if len(met) < len(group) * (len(group) - 1) // 2:
        return None
    return pts


@dataclass(slots=True)
class Standing:
    """One line of the standings: shared rank (名次并列), entry, points, and the
    value of every criterion in the list (直胜 only where it was applied)."""

    rank: int
    entry: int
    points: float
    penalty: int
    values: dict[Criterion, Any]
    shared: bool = False


def rank(records: Mapping[int, Record], criteria: Sequence[Criterion],
         policy: TiebreakPolicy | None = None) -> list[Standing]:
    """Rank the entries of ``records`` by points, 18.4 penalties, then each
    criterion in turn; entries still equal share the place.

    Returns the standings, best first; ties are listed by entry number.
    """
    policy = policy or TiebreakPolicy()
    ctx = FieldContext(records, policy)
    values = {e: entry_values(rec, criteria, ctx) for e, rec in records.items()}
    return place(records, ctx.score, values, criteria, policy)


def entry_values(rec: Record, criteria: Sequence[Criterion], ctx: FieldContext
                 ) -> dict[Criterion, Any]:
    """The value of every criterion of ``criteria`` for one entry but 直胜
    (which depends on the tied group: :func:`place` applies it)."""
    return {c: value(c, rec, ctx) for c in criteria if c is not Criterion.DIRECT_ENCOUNTER}


def place(records: Mapping[int, Record], score: Mapping[int, float],
          values: Mapping[int, Mapping[Criterion, Any]], criteria: Sequence[Criterion],
          policy: TiebreakPolicy) -> list[Standing]:
    """Rank the entries of ``records`` from their points (``score``) and
    criteria ``values`` (:func:`entry_values`): points, 18.4 penalties, then
    each criterion in turn (直胜 worked out for each tied group); entries
    still equal share the place.  Returns the standings, best first, ties
    by entry number; each line's values are its own copy."""
    own = {e: dict(values[e]) for e in records}

    def split(group: list[int], keyf: Any) -> list[list[int]]:
        group = sorted(group, key=lambda e: (keyf(e), e))
        out: list[list[int]] = []
        for e in group:
            if out and keyf(out[-1][0]) == keyf(e):
                out[-1].append(e)
            else:
                out.append([e])
        return out

    # points first (more is better), then 18.4 penalties (fewer is better)
    groups = split(list(records), lambda e: (-score[e], records[e].penalty))
    for c in criteria:
        refined: list[list[int]] = []
        for g in groups:
            if len(g) == 1:
                refined.append(g)
                continue
            if c is Criterion.DIRECT_ENCOUNTER:
                de = direct_encounter(g, records, policy.direct)
                if de is None:
                    refined.append(g)
                    continue
                for e in g:
                    own[e][c] = de[e]
                refined.extend(split(g, lambda e, de=de: -de[e]))
            elif c.lower_is_better:
                refined.extend(split(g, lambda e, c=c: own[e][c]))
            else:
                refined.extend(split(g, lambda e, c=c: _neg(own[e][c])))
        groups = refined
    out: list[Standing] = []
    at = 1
    for g in groups:
        for e in sorted(g):
            out.append(Standing(at, e, score[e], records[e].penalty, own[e],
                                shared=len(g) > 1))
        at += len(g)
    return out


def needs_playoff(standings: Sequence[Standing], places: int = 1) -> list[list[int]]:
    """15.6: 冠军或不宜并列的名次，应安排加赛 — return the groups of entries that
    still share one of the first ``places`` places (each group needs a play-off
    or a rule of the event's supplement)."""
    groups: dict[int, list[int]] = {}
    for s in standings:
        if s.shared and s.rank <= places:
            groups.setdefault(s.rank, []).append(s.entry)
    return [groups[r] for r in sorted(groups)]


def _neg(v: Any) -> Any:
    if isinstance(v, tuple):
        return tuple(-x for x in v)
    return -v


def parse_criteria(names: Iterable[str]) -> tuple[Criterion, ...]:
    """Parse a list of criterion names (English or Chinese).

    Raises :class:`CompetitionError` for an unknown name.
    """
    return tuple(Criterion.parse(n) for n in names)
