"""Team events (团体赛, clause 12; scoring 14.2; ranking 15.3-15.5).

* Line-ups (12.1-12.3): :class:`LineupMode`.  Under 分台换人制 the players who
  sit keep the registered order, so with 4 boards and 2 reserves there are
  exactly C(6, 4) = 15 legal line-ups (:func:`legal_lineups`).
* 12.4 全队轮赛制: every player of one team meets every player of the other
  (:func:`all_play_all_schedule`).
* 12.5 队员总分制: teams ranked by the sum of their players' individual places
  (:func:`rank_by_place_sum`, 15.5).
* Colours (13.2, 13.3): the first-listed (or "first-moving") team plays Red
  on odd boards and Black on even boards.
* Scoring (14.2): 局分 per board, 场分 2/1/0 by comparing the 局分 totals; a
  forfeited match '+' is worth 2 (21.4).
"""

from __future__ import annotations

import enum
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from qisai.competition.errors import (
    CompetitionError,
    EventFileError,
    EventStateError,
    LineupError,
    ResultError,
)
from qisai.competition.model import Colour, Outcome, Pairing, Result
from qisai.competition.pairing.berger import berger_table
from qisai.competition.pairing.swiss import SwissPlayer, pair_swiss_round
from qisai.competition.pairing.swiss_options import SwissOptions
from qisai.competition.scoring import CLASSIC, TEAM_MATCH, MatchPoints, ScoringTable
from qisai.competition.tiebreaks import (
    ROUND_ROBIN_TEAM,
    SWISS_TEAM,
    Criterion,
    Encounter,
    Record,
    Standing,
    TiebreakPolicy,
    rank,
)


class LineupMode(enum.Enum):
    """How a team sets its boards (clause 12)."""

    FIXED = "fixed"  # 12.1 分台定人制
    SUBSTITUTES = "substitutes"  # 12.2 分台换人制
    FREE = "free"  # 12.3 临时定台制


@dataclass(slots=True)
class Team:
    """A team: ``roster`` in registered board order (boards first, then the
    reserves, each ordered by rating per 12.1), and the number of boards."""

    name: str
    roster: list[str]
    boards: int
    id: int = 0

    def __post_init__(self) -> None:
        if self.boards < 1:
            raise LineupError(f"队 {self.name!r}：至少要有一台",
                              f"team {self.name!r}: needs at least one board")
        if len(self.roster) < self.boards:
            raise LineupError(f"队 {self.name!r}：{len(self.roster)} 名队员，台数为 {self.boards}",
                              f"team {self.name!r}: {len(self.roster)} players for "
                              f"{self.boards} boards")
        if len(set(self.roster)) != len(self.roster):
            raise LineupError(f"队 {self.name!r}：有队员报名两次",
                              f"team {self.name!r}: a player is registered twice")


def legal_lineups(team: Team, mode: LineupMode = LineupMode.SUBSTITUTES) -> list[tuple[str, ...]]:
    """Return every legal line-up (board 1 first) of ``team`` under ``mode``.

    FIXED: the first ``boards`` players; SUBSTITUTES: any choice that keeps
    the registered order (12.2: "台次顺序不能前后颠倒"); FREE: any ordered
    choice.
    """
    if mode is LineupMode.FIXED:
        return [tuple(team.roster[: team.boards])]
    if mode is LineupMode.SUBSTITUTES:
        return [tuple(c) for c in itertools.combinations(team.roster, team.boards)]
    return [tuple(p) for p in itertools.permutations(team.roster, team.boards)]


def validate_lineup(team: Team, lineup: Sequence[str], mode: LineupMode) -> tuple[str, ...]:
    """Check ``lineup`` (board 1 first) against ``mode``; return it as a tuple.

    Raises :class:`LineupError` saying which rule is broken.
    """
    lu = tuple(lineup)
    if len(lu) != team.boards:
        raise LineupError(f"队 {team.name!r}：出场名单有 {len(lu)} 人，台数为 {team.boards}",
                          f"team {team.name!r}: line-up has {len(lu)} players for "
                          f"{team.boards} boards")
    unknown = [p for p in lu if p not in team.roster]
    if unknown:
        raise LineupError(f"队 {team.name!r}：未报名：{', '.join(unknown)}",
                          f"team {team.name!r}: not registered: {', '.join(unknown)}")
    if len(set(lu)) != len(lu):
        raise LineupError(f"队 {team.name!r}：一名队员排在两个台次",
                          f"team {team.name!r}: a player sits on two boards")
    if mode is LineupMode.FIXED and lu != tuple(team.roster[: team.boards]):
        raise LineupError(f"队 {team.name!r}：12.1 分台定人，台次须为 {', '.join(team.roster[: team.boards])}",
                          f"team {team.name!r}: 12.1 fixed boards must be "
                          f"{', '.join(team.roster[: team.boards])}")
    if mode is LineupMode.SUBSTITUTES:
        idx = [team.roster.index(p) for p in lu]
        if idx != sorted(idx):
            raise LineupError(f"队 {team.name!r}：12.2 报名次序不能颠倒（{' - '.join(lu)}）",
                              f"team {team.name!r}: 12.2 the registered order may not be "
                              f"reversed ({' - '.join(lu)})")
    return lu


def board_colour(board: int, first_listed: bool) -> Colour:
    """Colour on ``board`` (1-based) for the first-listed team (13.2/13.3:
    odd boards Red, even boards Black) or the other team."""
    first = Colour.RED if board % 2 == 1 else Colour.BLACK
    return first if first_listed else first.other


def all_play_all_schedule(a: Sequence[str], b: Sequence[str]) -> list[list[tuple[str, str]]]:
    """12.4 全队轮赛制: every player of ``a`` meets every player of ``b``.

    Returns rounds of (red, black) games; in round r player i of ``a`` meets
    player (i + r) mod n of ``b``; ``a`` has Red on odd boards in odd rounds,
    and colours swap every round.
    Raises :class:`LineupError` if the teams differ in size.
    """
    if len(a) != len(b) or not a:
        raise LineupError("全队轮赛制须有两支人数相同且不为零的队",
                          "全队轮赛制 needs two teams of the same non-zero size")
    n = len(a)
    rounds = []
    for r in range(n):
        games = []
        for i in range(n):
            x, y = a[i], b[(i + r) % n]
            red_a = (i % 2 == 0) == (r % 2 == 0)
            games.append((x, y) if red_a else (y, x))
        rounds.append(games)
    return rounds


@dataclass(slots=True)
class TeamMatch:
    """A team match: ``red_team`` is the first-listed team (Red on odd
    boards), line-ups and board results (from the first-listed team's board
    colour: ``Result.RED_WIN`` means Red on that board won)."""

    round: int
    board: int
    red_team: int
    black_team: int | None
    red_lineup: tuple[str, ...] = ()
    black_lineup: tuple[str, ...] = ()
    results: list[Result] = field(default_factory=list)
    fouls: list[tuple[int, int]] = field(default_factory=list)
    forfeit: Result | None = None  # whole-match forfeit (21.4)

    def board_points(self, scoring: ScoringTable) -> tuple[float, float]:
        """Return (局分 of red_team, 局分 of black_team)."""
        first = second = 0.0
        for k, res in enumerate(self.results, start=1):
            c = board_colour(k, True)
            first += scoring.points(res.outcome(c), c)
            second += scoring.points(res.outcome(c.other), c.other)
        return first, second

    def board_wins(self) -> tuple[int, int]:
        """Return the boards won by each team."""
        first = second = 0
        for k, res in enumerate(self.results, start=1):
            c = board_colour(k, True)
            if res.outcome(c) in (Outcome.WIN, Outcome.FORFEIT_WIN):
                first += 1
            elif res.outcome(c.other) in (Outcome.WIN, Outcome.FORFEIT_WIN):
                second += 1
        return first, second


class TeamTournament:
    """A team event: round robin (Berger, 13.2) or 积分编排制 (13.3) between
    teams, each match on ``boards`` boards, ranked by 场分 then 15.3/15.4."""

    def __init__(self, name: str, teams: Sequence[Team], *, system: str = "round_robin",
                 rounds: int | None = None, lineup_mode: LineupMode = LineupMode.SUBSTITUTES,
                 scoring: ScoringTable = CLASSIC, match_points: MatchPoints = TEAM_MATCH,
                 tiebreaks: Sequence[Criterion] | None = None,
                 policy: TiebreakPolicy | None = None, seed: int = 0) -> None:
        """Create the event; teams get numbers 1..n in the given order.

        Raises :class:`CompetitionError` for an unknown system, fewer than
        two teams, or teams with different board counts.
        """
        if system not in ("round_robin", "swiss"):
            raise CompetitionError(f"团体赛赛制须为 round_robin（循环）或 swiss（积分编排），不是 {system!r}",
                                   f"team system must be round_robin or swiss, not {system!r}")
        if len(teams) < 2:
            raise CompetitionError("团体赛至少要有两支队",
                                   "a team event needs at least two teams")
        if len({t.boards for t in teams}) != 1:
            raise CompetitionError("各队的台数须相同",
                                   "all teams must play on the same number of boards")
        self.name = name
        self.teams = list(teams)
        for k, t in enumerate(self.teams, start=1):
            t.id = k
        self.system = system
        n = len(teams)
        table_rounds = (n if n % 2 == 0 else n + 1) - 1
        if system == "swiss" and rounds is None:
            raise CompetitionError("团体积分编排赛须定轮数",
                                   "a team Swiss needs a number of rounds")
        self.rounds_planned = rounds or table_rounds
        self.lineup_mode = lineup_mode
        self.scoring = scoring
        self.match_points = match_points
        self.tiebreaks = tuple(tiebreaks) if tiebreaks is not None else (
            SWISS_TEAM if system == "swiss" else ROUND_ROBIN_TEAM)
        self.policy = policy or TiebreakPolicy()
        self.seed = seed
        self.rounds: list[list[TeamMatch]] = []

    def team(self, tid: int) -> Team:
        """Return team number ``tid``. Raises :class:`CompetitionError`."""
        if not 1 <= tid <= len(self.teams):
            raise CompetitionError(f"{self.name}：没有编号为 {tid} 的队",
                                   f"{self.name}: no team number {tid}")
        return self.teams[tid - 1]

    def pair_next_round(self) -> list[TeamMatch]:
        """Pair the next round of team matches and return them.

        Raises :class:`EventStateError` when finished or the previous round
        is incomplete; :class:`PairingError` if Swiss pairing fails.
        """
        if len(self.rounds) >= self.rounds_planned:
            raise EventStateError(f"{self.name}：所有轮次均已编排",
                                  f"{self.name}: all rounds are paired")
        if self.rounds and any(not m.results and m.forfeit is None and m.black_team is not None
                               for m in self.rounds[-1]):
            raise EventStateError(f"{self.name}：第 {len(self.rounds)} 轮尚未赛完",
                                  f"{self.name}: round {len(self.rounds)} is not complete")
        number = len(self.rounds) + 1
        if self.system == "round_robin":
            pairings = berger_table(len(self.teams))[number - 1]
        else:
            recs = self.records()
            states = []
            for t in self.teams:
                rec = recs[t.id]
                opps = frozenset(e.opponent for e in rec.encounters if e.opponent is not None)
                cols = tuple(e.colour for e in rec.encounters if e.colour is not None)
                byes = sum(1 for e in rec.encounters if e.outcome is Outcome.BYE)
                states.append(SwissPlayer(t.id, rec.points, t.id, opps, cols, byes))
            res = pair_swiss_round(states, number, SwissOptions(),
                                   random.Random(f"{self.seed}:team:{number}"))
            pairings = res.pairings
        matches = []
        for p in pairings:
            if p.is_bye and self.system == "round_robin":
                continue  # odd round robin: the bye is a rest round
            matches.append(TeamMatch(number, p.board, p.red, p.black))
        self.rounds.append(matches)
        return matches

    def _match(self, round_no: int, board: int) -> TeamMatch:
        if not 1 <= round_no <= len(self.rounds):
            raise ResultError(f"{self.name}：第 {round_no} 轮尚未编排",
                              f"{self.name}: round {round_no} has not been paired")
        for m in self.rounds[round_no - 1]:
            if m.board == board:
                return m
        raise ResultError(f"{self.name}：第 {round_no} 轮没有第 {board} 场",
                          f"{self.name}: round {round_no} has no match {board}")

    def record_match(self, round_no: int, board: int, red_lineup: Sequence[str],
                     black_lineup: Sequence[str], results: Sequence[Result | str],
                     fouls: Sequence[tuple[int, int]] | None = None) -> TeamMatch:
        """Enter a team match: both line-ups (board 1 first) and the board
        results (from the board's Red side).  Returns the match.

        Raises :class:`LineupError` for an illegal line-up and
        :class:`ResultError` for a wrong number of results or a bye match.
        """
        m = self._match(round_no, board)
        if m.black_team is None:
            raise ResultError(f"第 {round_no} 轮第 {board} 场为轮空",
                              f"round {round_no} match {board} is a bye")
        red_team, black_team = self.team(m.red_team), self.team(m.black_team)
        lu_r = validate_lineup(red_team, red_lineup, self.lineup_mode)
        lu_b = validate_lineup(black_team, black_lineup, self.lineup_mode)
        res = [Result.parse(r) if isinstance(r, str) else r for r in results]
        if len(res) != red_team.boards:
            raise ResultError(f"第 {round_no} 轮第 {board} 场：{len(res)} 个成绩，台数为 {red_team.boards}",
                              f"round {round_no} match {board}: {len(res)} results for "
                              f"{red_team.boards} boards")
        if any(r is Result.BYE for r in res):
            raise ResultError(f"第 {round_no} 轮第 {board} 场：一台不能轮空",
                              f"round {round_no} match {board}: a board cannot be a bye")
        m.red_lineup, m.black_lineup, m.results = lu_r, lu_b, res
        m.fouls = list(fouls) if fouls is not None else [(0, 0)] * len(res)
        m.forfeit = None
        return m

    def record_forfeit(self, round_no: int, board: int, result: Result) -> TeamMatch:
        """A whole match forfeited (21.4: '+' worth 2 match points).

        Raises :class:`ResultError` if ``result`` is not a forfeit.
        """
        if result not in (Result.RED_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN,
                          Result.DOUBLE_FORFEIT):
            raise ResultError(f"{result.value} 不是弃权",
                              f"{result.value} is not a forfeit")
        m = self._match(round_no, board)
        m.forfeit, m.results = result, []
        return m

    def records(self) -> dict[int, Record]:
        """Per-team records: 场分 as points, 局分 and boards won per match."""
        recs = {t.id: Record(t.id) for t in self.teams}
        mp = self.match_points
        for rnd in self.rounds:
            for m in rnd:
                if m.black_team is None:
                    recs[m.red_team].encounters.append(
                        Encounter(m.round, None, Outcome.BYE, mp.win, None, 0))
                    continue
                if m.forfeit is not None:
                    for tid, c in ((m.red_team, Colour.RED), (m.black_team, Colour.BLACK)):
                        out = m.forfeit.outcome(c)
                        pts = mp.forfeit_win if out is Outcome.FORFEIT_WIN else 0.0
                        opp = m.black_team if tid == m.red_team else m.red_team
                        recs[tid].encounters.append(Encounter(m.round, opp, out, pts))
                    continue
                if not m.results:
                    continue
                gp_r, gp_b = m.board_points(self.scoring)
                w_r, w_b = m.board_wins()
                f_r = sum(f[0] if k % 2 == 1 else f[1] for k, f in enumerate(m.fouls, start=1))
                f_b = sum(f[1] if k % 2 == 1 else f[0] for k, f in enumerate(m.fouls, start=1))
                for tid, opp, own, oth, wins, fouls, col in (
                        (m.red_team, m.black_team, gp_r, gp_b, w_r, f_r, Colour.RED),
                        (m.black_team, m.red_team, gp_b, gp_r, w_b, f_b, Colour.BLACK)):
                    pts = mp.of(own, oth)
                    out = (Outcome.WIN if own > oth else
                           Outcome.LOSS if own < oth else Outcome.DRAW)
                    recs[tid].encounters.append(
                        Encounter(m.round, opp, out, pts, col, fouls, own, wins))
        return recs

    def standings(self) -> list[Standing]:
        """Rank the teams by 场分, then the event's list (15.3 / 15.4)."""
        return rank(self.records(), self.tiebreaks, self.policy)

    def to_dict(self) -> dict[str, Any]:
        """Return the event as JSON-ready data."""
        return {
            "format": "qisai-team-tournament", "name": self.name, "system": self.system,
            "rounds_planned": self.rounds_planned, "lineup_mode": self.lineup_mode.value,
            "scoring": self.scoring.to_dict(), "match_points": asdict(self.match_points),
            "tiebreaks": [c.value for c in self.tiebreaks], "policy": self.policy.to_dict(),
            "seed": self.seed,
            "teams": [{"name": t.name, "roster": t.roster, "boards": t.boards}
                      for t in self.teams],
            "rounds": [[{"board": m.board, "red_team": m.red_team,
                         "black_team": m.black_team, "red_lineup": list(m.red_lineup),
                         "black_lineup": list(m.black_lineup),
                         "results": [r.value for r in m.results],
                         "fouls": [list(f) for f in m.fouls],
                         "forfeit": None if m.forfeit is None else m.forfeit.value}
                        for m in rnd] for rnd in self.rounds],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<team event>") -> TeamTournament:
        """Rebuild an event from :meth:`to_dict` output.

        Raises :class:`EventFileError` naming ``source`` and the problem.
        """
        try:
            if data.get("format") != "qisai-team-tournament":
                raise EventFileError(f"{source}：不是 qisai 的团体赛文件（format 键）",
                                     f"{source}: not a qisai team tournament (format key)")
            teams = [Team(t["name"], list(t["roster"]), int(t["boards"])) for t in data["teams"]]
            ev = cls(str(data["name"]), teams, system=data["system"],
                     rounds=data.get("rounds_planned"),
                     lineup_mode=LineupMode(data["lineup_mode"]),
                     scoring=ScoringTable.from_dict(dict(data["scoring"])),
                     match_points=MatchPoints(**data["match_points"]),
                     tiebreaks=[Criterion(c) for c in data["tiebreaks"]],
                     policy=TiebreakPolicy.from_dict(data.get("policy", {})),
                     seed=int(data.get("seed", 0)))
            for k, rnd in enumerate(data["rounds"], start=1):
                matches = []
                for m in rnd:
                    for tid in (m["red_team"], m["black_team"]):
                        if tid is not None:
                            ev.team(int(tid))
                    matches.append(TeamMatch(
                        k, int(m["board"]), int(m["red_team"]),
                        None if m["black_team"] is None else int(m["black_team"]),
                        tuple(m["red_lineup"]), tuple(m["black_lineup"]),
                        [Result(r) for r in m["results"]],
                        [(int(a), int(b)) for a, b in m["fouls"]],
                        None if m["forfeit"] is None else Result(m["forfeit"])))
                ev.rounds.append(matches)
        except EventFileError:
            raise
        except CompetitionError as exc:
            raise EventFileError(f"{source}：{exc.zh}",
                                 f"{source}: {exc.en}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise EventFileError(f"{source}：字段有误或缺失（{exc!r}）",
                                 f"{source}: bad or missing field ({exc!r})") from None
        return ev


def team_totals(points: Mapping[str, float], teams: Sequence[Team]) -> dict[str, float]:
    """12.5 队员总分制: a team's result is the sum of its players' points in the
    individual event ("按照各队棋手参加个人赛成绩之和来计算团体赛成绩").

    ``points`` maps player name to individual points; returns team name to
    total.  Raises :class:`CompetitionError` if a rostered player is missing.
    """
    out = {}
    for t in teams:
        missing = [p for p in t.roster if p not in points]
        if missing:
            raise CompetitionError(f"队 {t.name!r}：{', '.join(missing)} 没有个人成绩",
                                   f"team {t.name!r}: no individual result for "
                                   f"{', '.join(missing)}")
        out[t.name] = float(sum(points[p] for p in t.roster))
    return out


def rank_by_place_sum(places: Mapping[str, int], teams: Sequence[Team],
                      fouls: Mapping[str, int] | None = None,
                      counted: int | None = None) -> list[tuple[int, str, int]]:
    """15.5 队员总分制: rank teams by the sum of their players' individual
    places (fewer is better); on equal sums by 最高个人名次 (the best place),
    次高个人名次 (the second best), then 全队犯规 (fewer team fouls first); "无法
    区分，则名次并列": teams still equal share the place -- the third and later
    places are not compared (15.5 names only the two best).

    ``places`` maps player name to individual place; ``counted`` limits the
    sum to each team's best ``counted`` players.  Returns (place, team name,
    sum of places) best first.
    Raises :class:`CompetitionError` if a team has no placed player.
    """
    keyed = []
    for t in teams:
        ps = sorted(places[p] for p in t.roster if p in places)
        if not ps:
            raise CompetitionError(f"队 {t.name!r} 没有排出名次的队员",
                                   f"team {t.name!r} has no placed player")
        if counted is not None:
            ps = ps[:counted]
        team_fouls = sum((fouls or {}).get(p, 0) for p in t.roster)
        # 15.5: sum, best place, second best place (a one-player team has
        # none: it comes after any team that has one), team fouls
        second = ps[1] if len(ps) > 1 else len(places) + 1
        keyed.append(((sum(ps), ps[0], second, team_fouls), t.name, sum(ps)))
    keyed.sort(key=lambda k: (k[0], k[1]))
    out: list[tuple[int, str, int]] = []
    for k, (key, name, total) in enumerate(keyed):
        if out and keyed[k - 1][0] == key:
            out.append((out[-1][0], name, total))
        else:
            out.append((k + 1, name, total))
    return out


def team_pairing_colours(p: Pairing, boards: int) -> list[tuple[Colour, Colour]]:
    """Return, per board, (colour of p.red's team player, colour of p.black's
    team player) for a team pairing (13.2/13.3)."""
    return [(board_colour(k, True), board_colour(k, False)) for k in range(1, boards + 1)]
