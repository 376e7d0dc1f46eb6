"""Make an event of any format from a list of entries.

:func:`create_event` takes the entries (:class:`~qisai.competition.entries.Entry`,
as read from a CSV or Excel sheet) and an :class:`EventOptions` naming the
format and returns a started :class:`EventFile`:

==========================  ==================================================
format                      what it makes
==========================  ==================================================
``round-robin``             大循环制 one game (11.2, Berger tables, 13.1)
``double-round-robin``      大循环制 two games (11.2, 13.5)
``swiss``                   积分编排制 (11.4, Appendix 2)
``mcmahon``                 McMahon for Go (start scores from 段位 ranks)
``knockout``                淘汰制 (11.1): a seeded bracket or the card draw
                            of the local rules, single or double elimination,
                            each match one game, two games (13.5), best of
                            three (local rules 6) or the 2021 league format
``groups``                  分组循环制 with a final (11.3)
``team-round-robin``        团体 循环制 (12, 13.2, 14.2, 15.3); each board one
                            game or (``series="league_2021"``) the 2021
                            league's slow / rapid / deciding games (001)
``team-swiss``              团体 积分编排制 (12, 13.3, 14.2, 15.4), boards
                            as for the team round robin
``team-all-play-all``       全队轮赛制 between two teams (12.4, 13.2, 14.2,
                            15.3): ``boards`` players a side, as many rounds;
                            ``score_by`` games (total 局分) or matches (场分)
==========================  ==================================================

A team event's rosters come from the entries' team column (队名), each
team's players in file order, which is its registered board order (12.1:
higher-rated first, the reserves last).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from qisai.competition.entries import Entry
from qisai.competition.errors import CompetitionError, EntryError
from qisai.competition.events.allplay_event import DEFAULT_SCORE_BY, AllPlayAllEvent
from qisai.competition.events.file import EventFile, Header
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.mcmahon_event import McMahonTournament
from qisai.competition.events.team_event import BOARD_SERIES, TeamEvent
from qisai.competition.pairing.swiss_options import SwissOptions
from qisai.competition.scoring import preset, table_for_rules
from qisai.competition.tiebreaks import parse_criteria
from qisai.competition.tournament import Tournament

__all__ = ["FORMATS", "EventOptions", "create_event"]

FORMATS = ("round-robin", "double-round-robin", "swiss", "mcmahon", "knockout", "groups",
           "team-round-robin", "team-swiss", "team-all-play-all")


@dataclass(slots=True)
class EventOptions:
    """Everything :func:`create_event` may need; each format reads its own
    fields and ignores the rest."""

    format: str = "swiss"
    rounds: int | None = None
    rules: str | None = None
    scoring: str | None = None
    tiebreaks: str = ""
    seed: int = 0
    draw_numbers: bool = True
    avoid_rounds: int = 0
    # knock-out
    series: str = "single"
    draw: str = "bracket"
    byes: str = "seeded"
    double: bool = False
    seeding: str = "rating"
    tied: str = "extra_game"
    # 2021 league (001): a drawn decider ("lot" or "black") and the games' time controls
    decider_drawn: str = "lot"
    times: dict[str, str] | None = None
    # groups
    groups: int = 2
    grouping: str = "snake"
    advance: int = 2
    final: str = "round_robin"
    # teams
    boards: int = 4
    lineup_mode: str = "substitutes"
    # McMahon
    bar: str = "3d"
    floor: str = "20k"
    start_by: str = "rank"
    # 12.4 全队轮: "games" (total 局分 decides) or "matches" (场分 per round);
    # None: the event's default (allplay_event.DEFAULT_SCORE_BY)
    score_by: str | None = None


def create_event(entries: Sequence[Entry], options: EventOptions, header: Header, *,
                 start: bool = True) -> EventFile:
    """Make the event and, with ``start``, start it (numbers drawn, entries
    closed); returns its :class:`EventFile`.  Unstarted, entries may still
    come and go (20.2) until :meth:`EventFile.start`.

    Raises :class:`CompetitionError` for an unknown format or option, too
    few entries, a team with fewer players than boards (12.1), and what the
    event model raises at its start.
    """
    o = options
    if o.format not in FORMATS:
        raise CompetitionError(f"未知的比赛形式 {o.format!r}；可选 {', '.join(FORMATS)}",
                               f"unknown format {o.format!r}; use one of {', '.join(FORMATS)}")
    if o.score_by is not None and o.format != "team-all-play-all":
        raise CompetitionError("score_by（games 总局分或 matches 场分）只用于全队轮赛（12.4）",
                               "score_by (games or matches) is an option of team-all-play-all "
                               "(12.4) only")
    if o.series not in ("single", "") and o.format not in (
            "knockout", "team-round-robin", "team-swiss"):
        raise CompetitionError(f"series {o.series!r} 只用于淘汰赛和团体赛，不用于 {o.format}",
                               f"series {o.series!r} is an option of knock-out and team "
                               f"events, not of {o.format}")
    if not entries:
        raise EntryError(f"{header.name}：没有报名者",
                         f"{header.name}: no entries")
    rules = o.rules or ("chinese" if header.game == "go" else "cxa")
    table = preset(o.scoring) if o.scoring else table_for_rules(rules)
    crit = parse_criteria([c for c in o.tiebreaks.split(",") if c.strip()]) \
        if o.tiebreaks.strip() else None
    kind: str
    ev: Tournament | KnockoutEvent | GroupEvent | TeamEvent
    if o.format in ("round-robin", "double-round-robin", "swiss"):
        system = o.format.replace("-", "_")
        t = Tournament(header.name, system, rounds=o.rounds, scoring=table, rules=rules,
                       tiebreaks=crit, seed=o.seed, draw_numbers=o.draw_numbers,
                       swiss=SwissOptions(avoid_group_rounds=o.avoid_rounds))
        for e in entries:
            t.add_player(e.player())
        kind, ev = "individual", t
    elif o.format == "mcmahon":
        m = McMahonTournament(header.name, rounds=o.rounds, scoring=table, rules=rules,
                              seed=o.seed, bar=o.bar, floor=o.floor, start_by=o.start_by,
                              ranks={e.name: e.rank for e in entries if e.rank},
                              swiss=SwissOptions(avoid_group_rounds=o.avoid_rounds))
        if crit is not None:
            m.tiebreaks = crit
        for e in entries:
            m.add_player(e.player())
        kind, ev = "mcmahon", m
    elif o.format == "knockout":
        k = KnockoutEvent(header.name, series=o.series.replace("-", "_"), draw=o.draw,
                          byes=o.byes, double=o.double, seeding=o.seeding, seed=o.seed, tied=o.tied)
        for e in entries:
            k.add_player(e.player())
        kind, ev = "knockout", k
    elif o.format == "groups":
        g = GroupEvent(header.name, groups=o.groups, grouping=o.grouping, advance=o.advance,
                       final=o.final, seed=o.seed)
        for e in entries:
            g.add_player(e.player())
        kind, ev = "groups", g
    elif o.format == "team-all-play-all":
        ap = AllPlayAllEvent(header.name, boards=o.boards, seed=o.seed, rules=o.rules,
                             score_by=o.score_by or DEFAULT_SCORE_BY)
        rosters = _rosters(entries)
        for team, roster in rosters.items():
            ap.add_team(team, roster)
        ap.ratings = {e.name: e.rating for e in entries if e.rating}
        kind, ev = "team", ap
    else:
        system = "round_robin" if o.format == "team-round-robin" else "swiss"
        board_series = o.series.replace("-", "_")
        if board_series not in BOARD_SERIES:
            raise CompetitionError(f"团体赛一台的对局为 {' 或 '.join(BOARD_SERIES)}，不是 {o.series!r}",
                                   f"a team event plays each board as {' or '.join(BOARD_SERIES)}"
                                   f", not {o.series!r}")
        te = TeamEvent(header.name, system=system, rounds=o.rounds, boards=o.boards,
                       lineup_mode=o.lineup_mode, seed=o.seed, series=board_series,
                       decider_drawn=o.decider_drawn, times=o.times,
                       draw_numbers=o.draw_numbers)
        for team, roster in _rosters(entries).items():
            te.add_team(team, roster)
        kind, ev = "team", te
    ef = EventFile(kind, ev, header)
    if start:
        ef.start()
    ef.extras = {e.name: {k: v for k, v in (("sex", e.sex), ("group", e.group),
                                             ("rank", e.rank)) if v}
                 for e in entries if e.sex or e.group or e.rank}
    return ef


def _rosters(entries: Sequence[Entry]) -> dict[str, list[str]]:
    """Each team's roster from the entries' team column, in file order (the
    registered board order, 12.1).  Raises :class:`EntryError` for an entry
    without a team."""
    rosters: dict[str, list[str]] = {}
    for e in entries:
        if not e.team:
            raise EntryError(f"第 {e.row} 行：团体赛中 {e.name} 没有队名（队名）",
                             f"row {e.row}: {e.name} has no team (队名) for a team event")
        rosters.setdefault(e.team, []).append(e.name)
    return rosters
