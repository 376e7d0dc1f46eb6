"""``qisai tournament`` on a team event file: 12.4 全队轮赛制 (and any other
team event file the commands are given).

``qisai tournament create --system all-play-all`` makes the event from an
entries sheet with a team column (队名); ``lineup`` sets a team's order,
``pair`` pairs the next round by the 12.4 schedule, ``result`` enters
board results (one board, or a round's boards in one line), ``standings``,
``pairings`` and ``crosstable`` print the tables (场分 and 局分, 14.2;
ranked by total 局分 or by 场分 and 15.3, as the event's ``score_by`` says)
and ``papers`` prints them.  The functions here are called
by :mod:`qisai.cli.tournament` when the file it reads is a team event.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer

from qisai.cli import say

if TYPE_CHECKING:
    from qisai.competition.events.file import EventFile

T = TypeVar("T")


def _run(fn: Callable[[], T]) -> T:
    from qisai.competition.errors import CompetitionError

    try:
        return fn()
    except CompetitionError as exc:
        problems = getattr(exc, "problems", None)
        if not problems:
            raise say.refused(exc) from None
        say.error(f"{len(problems)} 项有误，未登记任何成绩：",
                  f"{len(problems)} bad item(s), nothing recorded:")
        for line in problems:
            typer.echo(f"  {getattr(line, 'zh', line)}", err=True)
            typer.echo(f"  {line}", err=True)
        raise typer.Exit(2) from None


def create(event: Path, entries: Path, name: str, boards: int | None, rules: str | None,
           seed: int, header: dict[str, str], *, score_by: str | None = None) -> None:
    """Make and save a 全队轮 match from ``entries`` (two teams, by the 队名
    column; each roster in rating order, 12.1) decided by ``score_by``
    (``games`` or ``matches``; None: the default) and print the teams and
    the reading that ranks."""
    from qisai.competition.entries import read_entries
    from qisai.competition.errors import EntryError
    from qisai.competition.events.create import EventOptions, create_event
    from qisai.competition.events.file import Header

    def make() -> EventFile:
        rows = read_entries(entries)
        teams: dict[str, int] = {}
        for e in rows:
            if not e.team:
                raise EntryError(f"第 {e.row} 行：{e.name} 没有队名（队名）；12.4 全队轮赛制是队与队之间的比赛",
                                 f"row {e.row}: {e.name} has no team (队名); 12.4 全队轮赛制 "
                                 "is played between teams")
            teams[e.team] = teams.get(e.team, 0) + 1
        n = boards or min(teams.values(), default=0)
        # 12.1: higher rating first, unrated after the rated (stable: file order otherwise)
        rows = sorted(rows, key=lambda e: (0, -e.rating) if e.rating else (1, 0))
        head = Header(name or entries.stem, header.get("date", ""), header.get("venue", ""),
                      header.get("arbiter", ""), header.get("organiser", ""))
        return create_event(rows, EventOptions("team-all-play-all", rules=rules, seed=seed,
                                               boards=n, score_by=score_by), head)

    from qisai.competition.events.allplay_event import AllPlayAllEvent

    ef = _run(make)
    ef.save(event)
    ev = ef.event
    assert isinstance(ev, AllPlayAllEvent)
    typer.echo(f"{ef.header.name}: 全队轮赛制 (12.4), {ev.boards} players a side, "
               f"{ev.boards} rounds")
    typer.echo(" / ".join(ev.scoring_note()))
    for number, team in ef.numbered().items():
        order = ev.orders.get(team, [])
        typer.echo(f"{number:4d}  {team}: {', '.join(order)}")


def lineup(ef: EventFile, path: Path, team: str, order: str) -> None:
    """Set a team's order (全队轮) and print the whole schedule."""
    from qisai.competition.events.allplay_event import AllPlayAllEvent, board_pairs

    ev = ef.event
    if not isinstance(ev, AllPlayAllEvent):
        raise say.fail("这个团体赛每场单独定出场名单：请用 'qisai event lineup'",
                       "this team event sets line-ups per match: use "
                       "'qisai event lineup'")
    names = [x.strip() for x in order.replace("，", ",").split(",") if x.strip()]
    _run(lambda: ev.set_order(team, names))
    ef.save(path)
    tt = ev.team_tournament()
    one, two = (ev.orders[t.name] for t in tt.teams)
    for r in range(1, ev.boards + 1):
        one_first, pairs = board_pairs(one, two, r)
        games = []
        for b, (x, y) in enumerate(pairs, start=1):
            red_first = (b % 2 == 1) == one_first  # 13.2: first-listed Red on odd boards
            games.append(f"{b}. {x}-{y}" if red_first else f"{b}. {y}-{x}")
        typer.echo(f"round {r}: " + "  ".join(games))


def print_round(ef: EventFile, round_no: int, fmt: str = "text") -> None:
    """Print a round's boards (Red first) and results."""
    from qisai.competition.events.views import round_rows

    rows = _run(lambda: round_rows(ef, round_no))
    if fmt == "json":
        typer.echo(json.dumps([{"board": r.board, "red": r.red_name, "red_team": r.red_club,
                                "black": r.black_name, "black_team": r.black_club,
                                "result": r.result} for r in rows],
                              ensure_ascii=False, indent=1))
        return
    typer.echo(f"{ef.header.name} — round {round_no}")
    for r in rows:
        typer.echo(f"{r.board:>6}  {r.red_name} ({r.red_club}, 红)  -  {r.black_name} "
                   f"({r.black_club}, 黑)  {r.result}".rstrip())


def pair(ef: EventFile, path: Path) -> None:
    """Pair the next round and print it."""
    from qisai.competition.events.views import round_count

    _run(ef.event.pair_next_round)
    ef.save(path)
    print_round(ef, round_count(ef))


def result(ef: EventFile, path: Path, round_no: int, text: str, overwrite: bool,
           match: int = 1) -> None:
    """Enter board results of ``match`` (the 全队轮 round's only match) in
    round ``round_no``: items ``'1 1-0, 2 =, 3 0-1'`` (board, result from
    that board's Red), all checked before any is recorded."""
    from qisai.competition.bulk import BulkResultError, parse_items
    from qisai.competition.events.team_event import TeamEvent

    ev = ef.event
    assert isinstance(ev, TeamEvent)
    items = _run(lambda: parse_items(text))
    problems = [f"{it.text!r}: name the board, not players, in a team match"
                for it in items if it.board is None]
    boards = [it.board for it in items if it.board is not None]
    problems += [f"board {b}: given twice" for b in sorted(set(boards)) if boards.count(b) > 1]
    state = ev.matches.get(f"{round_no}:{match}")
    for it in items:
        if it.board is None:
            continue
        if not 1 <= it.board <= ev.boards:
            problems.append(f"{it.text!r}: no board {it.board} (1..{ev.boards})")
        elif state is not None and str(it.board) in state["results"] and not overwrite:
            problems.append(f"board {it.board}: result already entered "
                            f"({state['results'][str(it.board)]}; --overwrite corrects it)")
    if state is None:
        problems.append(f"round {round_no} has no match {match} (is it paired?)")
    if problems:
        _run(lambda: _raise(BulkResultError(problems)))

    def enter() -> None:
        for it in items:
            assert it.board is not None
            rf, bf = it.fouls or (0, 0)
            ev.record_board(round_no, match, it.board, it.result, red_fouls=rf, black_fouls=bf,
                            overwrite=overwrite)
    _run(enter)
    ef.save(path)
    tm = ev.match(round_no, match)
    done = sorted(int(b) for b in ev.matches[f"{round_no}:{match}"]["results"])
    if tm.results:
        tt = ev.team_tournament()
        gp = tm.board_points(tt.scoring)
        red, black = tt.team(tm.red_team).name, tt.team(tm.black_team or 0).name
        typer.echo(f"round {round_no}: {red} {gp[0]:g} : {gp[1]:g} {black} (局分, 14.2); "
                   "complete")
    else:
        left = [b for b in range(1, ev.boards + 1) if b not in done]
        typer.echo(f"round {round_no}: {len(items)} result(s) entered; still open: board(s) "
                   + ", ".join(map(str, left)))


def _raise(exc: Exception) -> None:
    raise exc


def standings(ef: EventFile, fmt: str, who: str = "teams") -> None:
    """Print the standings of ``ef`` as ``fmt`` (text, csv or json): for a
    team file 场分, 局分 and the 15.3/15.4 tie-breaks; any event file's own
    table otherwise (``qisai event standings``; ``who`` names the entries
    in the 15.6 play-off line).  A group event (11.3) prints every group's
    table (and the final's) from its first round on, then its placings
    once they are known.  Exits with 2 for an unknown format."""
    from qisai.competition.events.group_event import GroupEvent
    from qisai.competition.events.views import group_tables, standings_table, text_table

    table = _run(lambda: standings_table(ef))
    groups = _run(lambda: group_tables(ef)) if isinstance(ef.event, GroupEvent) \
        and ef.started else []
    if fmt == "text":
        for g in groups:
            typer.echo(text_table(g))
        if not groups or table.rows:
            typer.echo(text_table(table), nl=False)
        if table.note:
            typer.echo(table.note)
        tie = _run(lambda: ef.ties(1)) if ef.event.finished else []
        for group in tie:
            typer.echo(f"15.6: {who} {', '.join(map(str, group))} share first place: a "
                       "play-off is needed (qisai event playoff)")
    elif fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        for g in groups:
            w.writerows([[g.title], g.header, *g.rows, []])
        if groups:
            w.writerow([table.title])
        w.writerows([table.header] + table.rows)
        typer.echo(buf.getvalue(), nl=False)
    elif fmt == "json":
        out: dict[str, object] = {"event": ef.header.name, "header": table.header,
                                  "rows": table.rows}
        if groups:
            out["groups"] = [{"title": g.title, "header": g.header, "rows": g.rows}
                             for g in groups]
        if table.note:
            out["note"] = table.note
        typer.echo(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        raise say.fail(f"未知格式 {fmt!r}",
                       f"unknown format {fmt!r}")


def crosstable(ef: EventFile) -> None:
    """Print the team crosstable."""
    from qisai.competition.events.views import crosstable_table, text_table

    typer.echo(text_table(_run(lambda: crosstable_table(ef))), nl=False)


def withdraw(ef: EventFile, path: Path, team: str) -> None:
    """Withdraw a team (its open and later matches forfeited, 20.3/20.4)."""
    msg = _run(lambda: ef.withdraw(team))
    ef.save(path)
    typer.echo(msg)
