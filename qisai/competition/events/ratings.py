"""Rating changes (等级分变化) of an event's players, round by round.

The rules are the project's Elo (:mod:`qisai.competition.elo`): each
player's games of the event are rated against the ratings entered before
the event (R' = R + K (S - E), E = 1 / (1 + 10^((R_opp - R) / 400)),
K = 20 unless the list says otherwise); games not played over the board
(byes, forfeits, 21.4) are not rated, and a player without a rating
(等级分 0 or none) is left out together with his games.

Individual events rate their games; a team event rates its board games
when it knows its players' ratings (a 12.4 全队轮 match made from an
entries sheet keeps them).  ``through`` limits the games to rounds
1..``through``, so the desk can show the change after each round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from qisai.competition.elo import expected, update
from qisai.competition.errors import CompetitionError
from qisai.competition.model import Colour, Game, Result
from qisai.competition.tournament import Tournament

if TYPE_CHECKING:  # the event file and team events are imported where used (CLI start-up)
    from qisai.competition.events.file import EventFile
    from qisai.competition.events.team_event import TeamEvent
    from qisai.competition.events.views import Table


__all__ = ["RatingRow", "rated_players", "rating_rows", "rating_table"]

_SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One player's rating change: entry number, name, club or team, rating
    before the event, rated games, their score and expected score, the
    change and the rating after."""

    number: int
    name: str
    club: str
    before: int
    games: int
    score: float
    expected: float
    change: float
    after: float


def rated_players(ev: Tournament | TeamEvent) -> dict[int, tuple[str, str, int]]:
    """Return the rated players of event ``ev``: number -> (name, club or
    team, rating); a team event numbers its players in team and roster
    order (:meth:`TeamEvent.member_numbers`).  Empty when the event knows
    no ratings."""
    if isinstance(ev, Tournament):
        return {p.id: (p.name, p.club or p.team, p.rating) for p in ev.players if p.rating > 0}
    ratings: dict[str, int] = getattr(ev, "ratings", {})
    if ev.tt is None:
        return {}
    return {n: (name, ev.tt.team(tid).name, ratings[name])
            for (tid, name), n in ev.member_numbers().items() if ratings.get(name, 0) > 0}


def _games(ev: Tournament | TeamEvent, through: int) -> list[Game]:
    if isinstance(ev, Tournament):
        return [g for g in ev.games(annul=False) if g.round <= through]
    if ev.tt is None:
        return []
    number = ev.member_numbers()
    tt = ev.tt
    out = []
    for r, rnd in enumerate(tt.rounds[:through], start=1):
        for tm in rnd:
            state = ev.matches.get(f"{r}:{tm.board}")
            if tm.black_team is None or tm.forfeit is not None or state is None:
                continue
            teams = (tm.red_team, tm.black_team)
            for board, red, black in ev.board_players(r, tm.board):
                value = state["results"].get(str(board))
                if value is None:
                    continue
                # the board's Red and Black belong to one team each; find whose
                rid = next(number[(t, red)] for t in teams if (t, red) in number)
                bid = next(number[(t, black)] for t in teams if (t, black) in number)
                out.append(Game(r, rid, bid, Result(value)))
    return out


def rating_rows(ev: Tournament | TeamEvent, through: int | None = None,
                k: float = 20.0) -> list[RatingRow]:
    """Return every rated player's change over rounds 1..``through``
    (default: every round), in entry-number order.  Raises
    :class:`CompetitionError` for an event without rated players or K <= 0."""
    if k <= 0:
        raise CompetitionError(f"K 须为正数，不是 {k}",
                               f"K must be positive, not {k}")
    rated = rated_players(ev)
    if not rated:
        raise CompetitionError(f"{ev.name}：没有棋手有等级分；无从计算",
                               f"{ev.name}: no player has a rating (等级分); nothing to rate")
    limit = through if through is not None else 10**6
    games = [g for g in _games(ev, limit)
             if g.result.played and g.black is not None and g.red in rated and g.black in rated]
    before = {n: float(r) for n, (_, _, r) in rated.items()}
    # each player's games as (opponent's rating before, score), gathered
    # once and rated as rate_games rates them (every player of these games
    # is rated); each result's two scores worked out once
    played: dict[int, list[tuple[float, float]]] = {n: [] for n in rated}
    scores = {res: (_SCORE[res.outcome(Colour.RED).value],
                    _SCORE[res.outcome(Colour.BLACK).value])
              for res in (Result.RED_WIN, Result.DRAW, Result.BLACK_WIN)}
    for g in games:
        assert g.black is not None
        red, black = scores[g.result]
        played[g.red].append((before[g.black], red))
        played[g.black].append((before[g.red], black))
    after = {n: update(before[n], res, k) if res else before[n] for n, res in played.items()}
    rows = []
    for n in sorted(rated):
        name, club, rating = rated[n]
        res = played[n]
        rows.append(RatingRow(n, name, club, rating, len(res), sum(s for _, s in res),
                              sum(expected(before[n], o) for o, _ in res),
                              after[n] - before[n], after[n]))
    return rows


def rating_table(ef: EventFile, through: int | None = None, k: float = 20.0) -> Table:
    """Return the rating changes as a table (等级分变化表) for the desk and
    the papers: number, name, club, rating before, rated games, score,
    expected score, change (signed, one decimal) and the rating after
    (rounded).  Raises what :func:`rating_rows` raises, and
    :class:`CompetitionError` for a knock-out or group event."""
    from qisai.competition.events.team_event import TeamEvent
    from qisai.competition.events.views import Table

    ev = ef.event
    if not isinstance(ev, Tournament | TeamEvent):
        raise CompetitionError(f"{ef.header.name}：等级分变化只用于循环赛、积分编排赛和团体赛",
                               f"{ef.header.name}: rating changes are shown for round robin, "
                               "Swiss and team events")
    rows = rating_rows(ev, through, k)
    upto = "" if through is None else f"（第{through}轮后）"
    head = ["编号", "姓名", "单位", "赛前等级分", "局数", "得分", "期望得分", "等级分变化",
            "赛后等级分"]
    body = [[str(r.number), r.name, r.club, str(r.before), str(r.games), f"{r.score:g}",
             f"{r.expected:.2f}", f"{r.change:+.1f}", str(round(r.after))] for r in rows]
    return Table(f"{ef.header.name} 等级分变化{upto} K={k:g}", head, body)
