"""12.4 全队轮赛制: a match between two teams in which every player of one
team meets every player of the other ("一方所有队员与另一方所有队员逐一对弈").

With ``n`` players a side the match takes ``n`` rounds of ``n`` boards.
Each team hands in its order (出场顺序) before the first round; in round
``r`` (0-based) the ``i``-th player of the team numbered 1 meets player
``(i + r) mod n`` of team 2, so that over the ``n`` rounds every pair meets
exactly once and nobody sits out.

Colours follow 13.2 (循环制团体比赛): the first-listed team of a round has
Red on the odd boards and Black on the even ones.  The rule book says no
more for 12.4, so the boards and the first-listed team are chosen to share
the colours fairly (:func:`board_pairs`):

* ``n`` even: team 1's players keep their boards and the first-listed team
  changes every second round (1, 1, 2, 2, 1, 1, ...); every player has Red
  ``n/2`` times when ``n`` is a multiple of 4, and one team's players one
  Red too many or too few otherwise (two a side: whatever the schedule,
  some player has one colour twice);
* ``n`` odd: team 1 is first-listed throughout and the games move up
  ``(n+1)/2`` boards a round; every player's Reds and Blacks differ by one.

Scoring and ranking (``score_by``): the rule book says how a 场 is won
(14.2: "每场棋结果，局分多者为胜") and how teams of a round robin are ranked
(15.3), but not what decides a 对抗赛 (12.4).  Two readings are offered:

* ``"games"`` (总比分, the default for new events): the whole match is one
  meeting of the two teams, decided on the total 局分 of all ``n * n``
  games (14.1: win 1, draw 0.5; or the rule profile's points), then
  全队胜局, then 全队犯规; 直胜 is skipped (between two teams that meet in
  every round it says nothing the totals do not); whatever stays level is
  a shared place (15.6: a play-off for the title).  A forfeited round
  (20.3, a team gone) counts every one of its games won by the opponent.
* ``"matches"`` (场分): every round is one 场 worth 2/1/0 (14.2), the teams
  ranked as in a one-game round robin of teams (15.3): 场分, then 全队总局分,
  全队胜局, 直胜, 全队犯规.  This is how the event scored before the option;
  an event file without the ``score_by`` key reads as ``"matches"`` so its
  standings do not change.

Why ``"games"`` is the default (docs/rules/, 12.x, 14.x, 15.x): 12.4 calls
the format an 对抗赛 between two teams, one order per team for the whole
match; 12.2 and 12.3 tie the choice of order to a 场 ("每场比赛各队可以
从中自选一种", "在每一场比赛开始前"), so the one order marks the whole
match as the one 场 of the two teams, and 14.2 decides a 场 on 局分, the
sum over all its games.  15.3 is written for "一局循环制的团体比赛", where
each team meets each other team once; a 全队轮 match is not that (the same
two teams meet in every round), and 15.3's 直胜 has no meaning in it.
Ranking by 场分 per round can also hand the match to the team with fewer
局分 (three narrow round wins against one wide loss), against 14.2's own
rule that more 局分 wins.  No clause rules it out, so ``"matches"`` stays
an option (``qisai tournament create --score-by matches``).

The event is a :class:`~qisai.competition.events.team_event.TeamEvent`, so
board results, forfeits, withdrawals, standings, crosstables and papers
work the same; what differs is the pairing (fixed by the schedule above)
and the line-up (one order for the whole match, not one per round).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from qisai.competition.errors import CompetitionError, EventStateError, LineupError
from qisai.competition.events.common import match_key
from qisai.competition.events.team_event import TeamEvent
from qisai.competition.model import Colour, Outcome
from qisai.competition.scoring import CLASSIC, table_for_rules
from qisai.competition.teams import LineupMode, Team, TeamMatch, TeamTournament
from qisai.competition.tiebreaks import ROUND_ROBIN_TEAM, Criterion, Encounter, Record

__all__ = ["DEFAULT_SCORE_BY", "FORMAT", "SCORE_BY", "AllPlayAllEvent", "board_pairs"]

FORMAT = "qisai-team-allplay"
"""The ``format`` key of :meth:`AllPlayAllEvent.to_dict`."""

SCORE_BY: dict[str, tuple[str, str]] = {
    "games": ("按全队总局分（总比分）定胜负，再比全队胜局、全队犯规",
              "decided on total game points (局分) of all games, then games won, then fouls"),
    "matches": ("按各轮场分定胜负（15.3：场分、全队总局分、全队胜局、直胜、全队犯规）",
                "decided on match points (场分) per round, then 15.3's tie-breaks"),
}
"""The two readings of a 全队轮 match's result: key -> (Chinese, English)
line saying which one ranks (shown under the standings and on the papers)."""

DEFAULT_SCORE_BY = "games"
"""The reading of new events (see the module notes for why)."""

_LEGACY_SCORE_BY = "matches"
"""The reading of an event file written before ``score_by`` existed."""

# 全队胜局, 全队犯规: 15.3's order less 全队总局分 (it is the score now) and 直胜
GAMES_TIEBREAKS = (Criterion.WINS, Criterion.FOULS)


def board_pairs(first: Sequence[str], second: Sequence[str], round_no: int
                ) -> tuple[bool, list[tuple[str, str]]]:
    """Return who meets whom in round ``round_no`` (1-based) of a 全队轮
    match: ``(first_listed_is_team_1, [(player of team 1, player of team 2)
    on board 1, board 2, ...])`` (see the module notes for the plan).
    Raises :class:`LineupError` for orders of different lengths or a round
    outside 1..n."""
    n = len(first)
    if n == 0 or len(second) != n:
        raise LineupError("12.4 全队轮赛制须有两份长度相同且不为零的出场次序",
                          "12.4 全队轮赛制 needs two orders of the same non-zero length")
    if not 1 <= round_no <= n:
        raise LineupError(f"每方 {n} 人的全队轮赛共 1..{n} 轮，没有第 {round_no} 轮",
                          f"a 全队轮 match of {n} a side has rounds 1..{n}, not {round_no}")
    r = round_no - 1
    games = [(first[i], second[(i + r) % n]) for i in range(n)]
    if n % 2 == 0:
        return (r // 2) % 2 == 0, games
    # odd: game i goes to board i + r(n+1)/2 (mod n), so that a player's board,
    # and with it his colour, changes parity from round to round
    step = r * (n + 1) // 2
    boards: list[tuple[str, str]] = [("", "")] * n
    for i, g in enumerate(games):
        boards[(i + step) % n] = g
    return True, boards


class AllPlayAllEvent(TeamEvent):
    """A 全队轮赛制 match (12.4) between exactly two teams of ``boards``
    players each (a roster may hold reserves; the order names who plays).

    Numbers: the two teams are numbered by lot at the start (制签); team 1
    is first-listed (Red on odd boards) in round 1.
    """

    def __init__(self, name: str, *, boards: int = 4, seed: int = 0,
                 rules: str | None = None, score_by: str = DEFAULT_SCORE_BY) -> None:
        """``score_by`` is ``"games"`` (total 局分 decides) or ``"matches"``
        (场分 per round, 15.3).  Raises :class:`CompetitionError` for a bad
        option."""
        if score_by not in SCORE_BY:
            raise CompetitionError(f"score_by 须为 games（总局分）或 matches（场分），不是 {score_by!r}",
                                   f"score_by must be games (总局分) or matches (场分), "
                                   f"not {score_by!r}")
        self.score_by = score_by
        super().__init__(name, system="round_robin", rounds=boards, boards=boards,
                         lineup_mode="free", seed=seed, rules=rules)
        self.system = "all_play_all"
        self.orders: dict[str, list[str]] = {}
        """Per team name: its order for the whole match (board 1 first)."""
        self.ratings: dict[str, int] = {}
        """Per player name: the rating (等级分) entered, 0 or absent if unrated."""

    def add_team(self, name: str, roster: Sequence[str]) -> Team:
        """Register one of the two teams.  Raises :class:`CompetitionError`
        for a third team or what :meth:`TeamEvent.add_team` raises."""
        if len(self.teams) >= 2 and not self.started:
            raise CompetitionError(f"{self.name}：12.4 全队轮赛制是两队之间的比赛；现已报名 {', '.join(t.name for t in self.teams)}",
                                   f"{self.name}: 12.4 全队轮赛制 is a match between two teams; "
                                   f"{', '.join(t.name for t in self.teams)} are entered")
        return super().add_team(name, roster)

    def start(self) -> None:
        """Number the two teams by lot and fix the match's rounds (one per
        player a side).  Raises :class:`CompetitionError` unless exactly two
        teams are entered."""
        if self.started:
            raise EventStateError(f"{self.name}：比赛已开始",
                                  f"{self.name}: already started")
        if len(self.teams) != 2:
            raise CompetitionError(f"{self.name}：12.4 全队轮赛制须恰有两支队，不是 {len(self.teams)} 支",
                                   f"{self.name}: 12.4 全队轮赛制 needs exactly two teams, "
                                   f"not {len(self.teams)}")
        ordered = list(self.teams)
        random.Random(f"{self.seed}:numbers").shuffle(ordered)
        # TeamTournament's round robin would pair the two teams once; the
        # rounds are appended here instead (pair_next_round), so its table
        # is never asked for round 2.
        self.tt = TeamTournament(self.name, ordered, system="round_robin", rounds=self.boards,
                                 lineup_mode=LineupMode.FREE, seed=self.seed,
                                 scoring=CLASSIC if self.rules is None
                                 else table_for_rules(self.rules),
                                 tiebreaks=self._tiebreaks())
        self.teams = self.tt.teams
        self.rounds_planned = self.boards
        for t in self.teams:
            self.orders.setdefault(t.name, list(t.roster[: self.boards]))

    def set_order(self, team: str, order: Sequence[str]) -> list[str]:
        """Set team ``team``'s order for the whole match (board 1 first in
        round 1); allowed until the first board result.  Returns the order.
        Raises :class:`CompetitionError` for an unknown team, a player not
        on its roster or named twice, the wrong number of players, or
        results already in."""
        names = [t.name for t in (self.tt.teams if self.tt else self.teams)]
        if team not in names:
            raise CompetitionError(f"{self.name}：没有名为 {team!r} 的队",
                                   f"{self.name}: no team named {team!r}")
        if any(st["results"] for st in self.matches.values()) or (
                self.tt is not None and any(m.forfeit is not None
                                            for rnd in self.tt.rounds for m in rnd)):
            raise EventStateError(f"{self.name}：已有成绩，出场次序不能再改（12.4：全部对阵都由它决定）",
                                  f"{self.name}: results are in; the order is fixed "
                                  "(12.4: every pairing of the match is set by it)")
        roster = next(t for t in (self.tt.teams if self.tt else self.teams)
                      if t.name == team).roster
        order = [x.strip() for x in order]
        if len(order) != self.boards:
            raise LineupError(f"{team}：出场次序列了 {len(order)} 人；12.4 须列出全部 {self.boards} 名出场队员",
                              f"{team}: the order names {len(order)} players; 12.4 needs all "
                              f"{self.boards} who play")
        unknown = [x for x in order if x not in roster]
        if unknown:
            raise LineupError(f"{team}：{', '.join(unknown)} 不在报名名单上",
                              f"{team}: {', '.join(unknown)} not on the roster")
        if len(set(order)) != len(order):
            raise LineupError(f"{team}：有队员列了两次",
                              f"{team}: a player is named twice")
        self.orders[team] = order
        if self.tt is not None:  # rounds already paired take the new order
            for k, rnd in enumerate(self.tt.rounds, start=1):
                for m in rnd:
                    self.matches[match_key(k, m.board)]["lineups"] = self._lineups(k)
        return order

    def _lineups(self, round_no: int) -> list[list[str]]:
        tt = self.team_tournament()
        one, two = (self.orders[t.name] for t in tt.teams)
        one_first, pairs = board_pairs(one, two, round_no)
        a = [x for x, _ in pairs]
        b = [y for _, y in pairs]
        return [a, b] if one_first else [b, a]

    def pair_next_round(self) -> int:
        """Pair the next round by the 12.4 schedule; return its number.
        Raises :class:`CompetitionError` when every round is paired or the
        previous round is not complete."""
        tt = self.team_tournament()
        if len(tt.rounds) >= self.boards:
            raise EventStateError(f"{self.name}：全队轮赛的 {self.boards} 轮均已编排",
                                  f"{self.name}: all {self.boards} rounds of the 全队轮 match "
                                  "are paired")
        if tt.rounds and any(not m.results and m.forfeit is None for m in tt.rounds[-1]):
            raise EventStateError(f"{self.name}：第 {len(tt.rounds)} 轮尚未赛完",
                                  f"{self.name}: round {len(tt.rounds)} is not complete")
        number = len(tt.rounds) + 1
        one_first, _ = board_pairs(self.orders[tt.teams[0].name],
                                   self.orders[tt.teams[1].name], number)
        red, black = (1, 2) if one_first else (2, 1)
        tt.rounds.append([TeamMatch(number, 1, red, black)])
        self.matches[match_key(number, 1)] = {"lineups": self._lineups(number),
                                              "results": {}, "fouls": {}}
        if self.withdrawn:  # a team gone: the rest of the match is forfeited (20.3)
            from qisai.competition.events.common import forfeit_against

            tt.record_forfeit(number, 1, forfeit_against(red in self.withdrawn,
                                                         black in self.withdrawn))
        return number

    def set_lineups(self, round_no: int, match: int, red: Sequence[str],
                    black: Sequence[str]) -> None:
        """Refused: under 12.4 the boards of every round follow from the
        teams' orders (:meth:`set_order`).  Raises :class:`LineupError`."""
        raise LineupError("12.4 全队轮赛制：每轮的对阵由两队的出场次序决定；请改一队的次序",
                          "12.4 全队轮赛制: the boards of each round follow from the teams' "
                          "orders; set a team's order instead")

    def _tiebreaks(self) -> tuple[Criterion, ...]:
        return GAMES_TIEBREAKS if self.score_by == "games" else ROUND_ROBIN_TEAM

    def scoring_note(self) -> tuple[str, str]:
        """Return the line (Chinese, English) saying which reading ranks."""
        zh, en = SCORE_BY[self.score_by]
        return f"12.4 全队轮赛制：{zh}", f"12.4 all-play-all: {en}"

    def match_records(self) -> dict[int, Record]:
        """Return the per-team records with 场分 as points (14.2), one
        encounter a round, whatever the reading."""
        return super().records()

    def records(self) -> dict[int, Record]:
        """Return the per-team records the ranking works on: under
        ``"matches"`` 场分 per round (14.2); under ``"games"`` each round's
        局分 as its points, a forfeited round (20.3/21.4) counting all its
        games won by the opponent."""
        recs = self.match_records()
        if self.score_by == "matches":
            return recs
        tt = self.team_tournament()
        won_game = tt.scoring.points(Outcome.FORFEIT_WIN, Colour.RED)
        out: dict[int, Record] = {}
        for tid, rec in recs.items():
            encs = []
            for e in rec.encounters:
                gp, wins = e.game_points, e.game_wins
                if e.outcome is Outcome.FORFEIT_WIN:
                    gp, wins = self.boards * won_game, self.boards
                encs.append(Encounter(e.round, e.opponent, e.outcome, gp, e.colour, e.fouls,
                                      gp, wins))
            out[tid] = Record(rec.entry, encs, rec.penalty)
        return out

    def crosstable(self) -> list[list[str]]:
        """Return the match's crosstable: under ``"matches"`` as
        :meth:`TeamEvent.crosstable`; under ``"games"`` per opponent each
        round's ``局分 [场分]`` and the total 局分 that ranks."""
        if self.score_by == "matches":
            return super().crosstable()
        tt = self.team_tournament()
        by_match = {tid: {e.round: e for e in r.encounters}
                    for tid, r in self.match_records().items()}
        rows = [["序号", "队名", "1", "2", "局分"]]
        for tid, rec in sorted(self.records().items()):
            marks = []
            for e in rec.encounters:
                if e.outcome.value.startswith("forfeit"):
                    marks.append(f"{e.points:g} " + ("(+)" if e.outcome is Outcome.FORFEIT_WIN
                                                     else "(-)"))
                elif e.opponent is not None:
                    marks.append(f"{e.points:g} [{by_match[tid][e.round].points:g}]")
            cells = ["x" if q == tid else " ".join(marks) for q in (1, 2)]
            rows.append([str(tid), tt.team(tid).name, *cells, f"{rec.points:g}"])
        return rows

    def annulled_teams(self) -> set[int]:
        """No team's results are struck out: a two-team match has no other
        opponents to keep (a withdrawal forfeits the rest, 20.3)."""
        return set()

    # -- persistence
    def to_dict(self) -> dict[str, Any]:
        """Return the event as JSON-ready data."""
        data = super().to_dict()
        data.update({"format": FORMAT, "system": "all_play_all", "orders": self.orders,
                     "ratings": self.ratings, "score_by": self.score_by})
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AllPlayAllEvent:
        """Inverse of :meth:`to_dict`.  Raises :class:`CompetitionError`."""
        inner = dict(data)
        inner["system"] = "round_robin"
        base = TeamEvent.from_dict(inner)
        try:
            ev = cls(base.name, boards=base.boards, seed=base.seed, rules=base.rules,
                     score_by=str(data.get("score_by", _LEGACY_SCORE_BY)))
            ev.teams, ev.tt, ev.matches, ev.withdrawn = base.teams, base.tt, base.matches, \
                base.withdrawn
            ev.orders = {str(k): [str(x) for x in v] for k, v in data.get("orders", {}).items()}
            ev.ratings = {str(k): int(v) for k, v in data.get("ratings", {}).items()}
        except (TypeError, ValueError, AttributeError) as exc:
            raise CompetitionError(f"全队轮赛数据有误（{exc!r}）",
                                   f"bad 全队轮 event data ({exc!r})") from None
        if ev.tt is not None and len(ev.orders) != 2:
            raise CompetitionError("全队轮赛数据有误：已开始的比赛须有两队的出场次序",
                                   "bad 全队轮 event data: a started match needs both orders")
        if ev.tt is not None:  # the reading fixes the tie-breaks, whatever the file lists
            ev.tt.tiebreaks = ev._tiebreaks()
        return ev
