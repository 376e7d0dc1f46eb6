"""``qisai event ...``: run an event of any format from the command line.

One JSON event file holds the event (:class:`qisai.competition.events.file.EventFile`):
``create`` makes it from an entries sheet (CSV or Excel, Chinese or English
headers), then ``pair``, ``result`` (and ``lineup``, ``choose``, ``decide``)
round after round, ``withdraw`` and ``penalty`` as things happen,
``standings`` / ``crosstable`` / ``bracket`` at any time, ``ties`` and
``playoff`` for the places 15.6 wants settled, and ``papers`` prints PDFs.

Formats: round robin, double round robin, 积分编排制, McMahon (Go),
knock-out (bracket or card draw, single or double, each match one game,
two games, best of three or the 2021 league format), group round robin with
a final, team round robin and team Swiss with line-ups (12.1-12.5).

Errors of the competition layer print one line to stderr and exit with
status 2.  The competition modules are imported inside the commands so that
``qisai --help`` does not load them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer

from qisai.cli import say

if TYPE_CHECKING:
    from qisai.competition.events.file import EventFile

app = typer.Typer(no_args_is_help=True, help="Events of every format (赛事): create, pair, "
                                             "results, standings, papers.")

T = TypeVar("T")


def _run(fn: Callable[[], T]) -> T:
    from qisai.competition.errors import CompetitionError

    try:
        return fn()
    except CompetitionError as exc:
        raise say.refused(exc) from None


def _load(path: Path) -> EventFile:
    from qisai.competition.events.file import EventFile

    return _run(lambda: EventFile.load(path))


def _numbers(text: str) -> list[int]:
    try:
        return [int(x) for x in text.replace("，", ",").split(",") if x.strip()]
    except ValueError:
        raise say.fail(f"{text!r} 不是一串号码",
                       f"{text!r} is not a list of numbers") from None


_LEAGUE_KIND = {"slow": "慢棋 slow", "rapid": "超快棋 rapid", "decider": "附加赛 decider"}


def _names(text: str) -> list[str]:
    return [x.strip() for x in text.replace("，", ",").split(",") if x.strip()]


@app.command()
def create(
    event: Path = typer.Argument(..., help="event file to write (JSON)"),
    entries: Path = typer.Option(..., help="entries sheet: .csv or .xlsx (姓名/name, 单位/club, "
                                           "队名/team, 等级分/rating, 性别/sex, 组别/group, 段位/rank)"),
    fmt: str = typer.Option("swiss", "--format", help="round-robin, double-round-robin, swiss, "
                            "mcmahon, knockout, groups, team-round-robin, team-swiss, "
                            "team-all-play-all"),
    name: str = typer.Option("", help="event name (default: the entries file's name)"),
    date: str = typer.Option("", help="dates, as printed on the papers"),
    venue: str = typer.Option("", help="venue (地点)"),
    arbiter: str = typer.Option("", help="chief arbiter (裁判长)"),
    organiser: str = typer.Option("", help="organiser (主办)"),
    game: str = typer.Option("xiangqi", help="xiangqi (红/黑) or go (黑/白)"),
    section: str = typer.Option("", "--section", help="only the entries of this 组别/group"),
    rounds: int | None = typer.Option(None, help="rounds (Swiss, McMahon, team Swiss)"),
    rules: str | None = typer.Option(None, help="rule profile (cxa, cxa-2007, chinese, ...)"),
    scoring: str | None = typer.Option(None, help="classic, 2-1-0, trial-2007"),
    tiebreaks: str = typer.Option("", help="comma-separated, e.g. 小分,胜局,直胜,犯规"),
    seed: int = typer.Option(0, help="seed of every lot"),
    avoid_rounds: int = typer.Option(0, help="Swiss: same team/club not paired in rounds 1..k"),
    draw_numbers: bool = typer.Option(True, help="numbers by lot / seeding by rating"),
    series: str = typer.Option("single", help="knock-out match: single, two_games, "
                                              "best_of_three, league_2021; team events: each "
                                              "board single or league_2021 (001: slow, rapid, "
                                              "decider until decided)"),
    decider_drawn: str = typer.Option("lot", help="league_2021: a drawn deciding game is "
                                                  "settled by lot (抽签) or black (its Black "
                                                  "wins, armageddon); 001 does not say"),
    time_slow: str = typer.Option("", help="league_2021 teams: slow game time control "
                                           "(seconds, e.g. 1200 = 001's 20 minutes)"),
    time_rapid: str = typer.Option("", help="league_2021 teams: rapid game (default 6.3 "
                                            "40/600:30/300)"),
    time_decider: str = typer.Option("", help="league_2021 teams: deciding game (default 6.4 "
                                              "30/300)"),
    draw: str = typer.Option("bracket", help="knock-out draw: bracket or cards"),
    byes: str = typer.Option("seeded", help="knock-out byes: seeded or lot"),
    double: bool = typer.Option(False, help="double elimination"),
    seeding: str = typer.Option("rating", help="knock-out seeding: rating, order, lot"),
    tied: str = typer.Option("extra_game", help="a level best of three: extra_game (加赛一局, "
                                                "then a lot) or lot (抽签), local rules 6"),
    groups: int = typer.Option(2, help="groups (分组循环)"),
    grouping: str = typer.Option("snake", help="groups by snake seeding or lot"),
    advance: int = typer.Option(2, help="entries of each group that go to the final"),
    final: str = typer.Option("round_robin", help="final stage: round_robin or none"),
    boards: int = typer.Option(4, help="boards of a team match"),
    lineup_mode: str = typer.Option("substitutes", help="12.1 fixed, 12.2 substitutes, "
                                                        "12.3 free"),
    bar: str = typer.Option("3d", help="McMahon bar"),
    floor: str = typer.Option("20k", help="McMahon floor"),
    start_by: str = typer.Option("rank", help="McMahon start from the 段位 rank or rating"),
    score_by: str | None = typer.Option(
        None, "--score-by", help="team-all-play-all (12.4): games (total 局分 decides, the "
                                 "default) or matches (场分 per round, 15.3)"),
    start: bool = typer.Option(True, help="start now (numbers drawn); --no-start leaves the "
                                          "entries open for add-entry / withdraw (20.2)"),
    force: bool = typer.Option(False, help="overwrite an existing event file"),
) -> None:
    """Create an event from an entries sheet and start it (numbers drawn)."""
    from qisai.competition.entries import read_entries
    from qisai.competition.events.create import EventOptions, create_event
    from qisai.competition.events.file import Header

    if event.exists() and not force:
        raise say.fail(f"{event} 已存在（覆盖请用 --force）",
                       f"{event} exists (use --force)")
    times = {k: v for k, v in (("slow", time_slow), ("rapid", time_rapid),
                               ("decider", time_decider)) if v} or None
    opts = EventOptions(fmt, rounds, rules, scoring, tiebreaks, seed, draw_numbers,
                        avoid_rounds, series, draw, byes, double, seeding, tied, decider_drawn,
                        times, groups, grouping, advance, final, boards, lineup_mode, bar,
                        floor, start_by, score_by)

    def make() -> EventFile:
        rows = read_entries(entries)
        if section:
            rows = [e for e in rows if e.group == section]
        header = Header(name or entries.stem, date, venue, arbiter, organiser, game)
        return create_event(rows, opts, header, start=start)

    ef = _run(make)
    ef.save(event)
    if not ef.started:
        typer.echo(f"{ef.header.name}: {fmt}, not started; entries: "
                   + ", ".join(p.name for p in ef.players()))
        return
    numbered = ef.numbered()
    typer.echo(f"{ef.header.name}: {fmt}, {len(numbered)} "
               f"{'teams' if ef.kind == 'team' else 'entries'}")
    for number, who in numbered.items():
        typer.echo(f"{number:4d}  {who}")


@app.command("start")
def start_event(event: Path = typer.Argument(..., help="event file")) -> None:
    """Close the entries and draw the numbers (制签)."""
    ef = _load(event)
    _run(ef.start)
    ef.save(event)
    for number, who in ef.numbered().items():
        typer.echo(f"{number:4d}  {who}")


@app.command("add-entry")
def add_entry(event: Path = typer.Argument(..., help="event file (not started)"),
              name: str = typer.Argument(..., help="the entry's name"),
              rating: int = typer.Option(0, help="等级分"),
              club: str = typer.Option("", help="单位"),
              team: str = typer.Option("", help="team event: the team it joins as a reserve")
              ) -> None:
    """Add an entry before the start (20.2: a Swiss may make the number even)."""
    from qisai.competition.tournament import Player

    ef = _load(event)
    msg = _run(lambda: ef.add_entry(Player(name, rating, club=club, team=team), team))
    ef.save(event)
    typer.echo(msg)


@app.command("check-entries")
def check_entries(sheet: Path = typer.Argument(..., help="entries sheet (.csv or .xlsx)")) -> None:
    """Read an entries sheet and list it, or every bad row (file, row, column)."""
    from qisai.competition.entries import read_entries

    for e in _run(lambda: read_entries(sheet)):
        extra = "  ".join(x for x in (e.club, e.team, str(e.rating or ""), e.sex, e.group,
                                      e.rank) if x)
        typer.echo(f"row {e.row:3d}  {e.name}  {extra}".rstrip())


@app.command("export-entries")
def export_entries(event: Path = typer.Argument(..., help="event file"),
                   out: Path = typer.Option(..., "-o", "--out", help=".csv or .xlsx to write"),
                   english: bool = typer.Option(False, help="English headers")) -> None:
    """Write the event's entries, with their numbers, as CSV or Excel."""
    from qisai.competition.entries import Entry, write_entries

    ef = _load(event)
    rows = []
    for p in ef.players():
        x = ef.extras.get(p.name, {})
        rows.append(Entry(p.name, p.club, p.team, p.rating, x.get("sex", ""), x.get("group", ""),
                          x.get("rank", ""), p.title, p.federation))
    _run(lambda: write_entries(rows, out, chinese=not english, numbers=True))
    typer.echo(f"{len(rows)} entries written to {out}")


def _print_round(ef: EventFile, round_no: int) -> None:
    from qisai.competition.events.views import round_rows

    typer.echo(f"{ef.header.name} — round {round_no}")
    for r in _run(lambda: round_rows(ef, round_no)):
        if r.is_bye:
            typer.echo(f"{r.board:>6}  {r.red_no} {r.red_name}  —  bye (轮空)")
            continue
        note = f"  [{r.note}]" if r.note else ""
        typer.echo(f"{r.board:>6}  {r.red_no} {r.red_name} ({ef.header.colour_names[0]})  -  "
                   f"{r.black_no} {r.black_name} ({ef.header.colour_names[1]})  "
                   f"{r.result}{note}".rstrip())


@app.command()
def pair(event: Path = typer.Argument(..., help="event file")) -> None:
    """Pair the next round (every group's, the final's, a knock-out round)."""
    from qisai.competition.events.views import round_count

    ef = _load(event)
    ev = ef.event

    def go() -> None:
        ev.pair_next_round()
    _run(go)
    ef.save(event)
    _print_round(ef, round_count(ef))


@app.command()
def show(event: Path = typer.Argument(..., help="event file"),
         round_no: int = typer.Argument(0, help="round (default: the last)"),
         out: Path | None = typer.Option(None, "-o", "--out",
                                         help="write the pairings to a .xlsx or .csv (UTF-8 "
                                              "with a BOM, for Excel) instead")) -> None:
    """Print a round's boards and results (or write them as a sheet)."""
    from qisai.competition.events.views import round_count

    ef = _load(event)
    number = round_no or round_count(ef)
    if out is not None:
        from qisai.competition.events.export import write_tables
        from qisai.competition.events.views import pairings_table

        table = _run(lambda: pairings_table(ef, number))
        _run(lambda: write_tables([table], out))
        typer.echo(f"{out}: round {number}, {len(table.rows)} board(s)")
        return
    _print_round(ef, number)


@app.command()
def result(
    event: Path = typer.Argument(..., help="event file"),
    round_no: int = typer.Argument(..., help="round"),
    board: int = typer.Argument(..., help="board; knock-out and team events: the match"),
    res: str = typer.Argument(..., help="1-0, 0-1, =, +- , -+, --; a team match: one per "
                                        "board, comma-separated"),
    group: int | None = typer.Option(None, help="group event: the group (0 = the final)"),
    on_board: int | None = typer.Option(None, "--board", help="team match: one board only"),
    game: int | None = typer.Option(None, help="knock-out, or a 2021-league team board: game "
                                               "of the series (default the next)"),
    match_forfeit: bool = typer.Option(False, help="team: the whole match is forfeited (21.4)"),
    red_fouls: int = typer.Option(0, help="fouls (犯规) of Red"),
    black_fouls: int = typer.Option(0, help="fouls of Black"),
    overwrite: bool = typer.Option(False, help="correct a result already entered"),
    reason: str = typer.Option("", help="why a result is corrected (asked for when a later "
                                        "round is paired; logged)"),
    repair: bool | None = typer.Option(
        None, "--repair/--no-repair", help="after a correction: re-pair the next round's "
                                           "unplayed boards (Swiss; asked when not given)"),
) -> None:
    """Enter a result: a board, a game of a knock-out series, a team match.
    Correcting a result of a round robin or Swiss after a later round is
    paired needs a reason, warns which later boards it affects and offers to
    re-pair the next round's unplayed boards."""
    from qisai.competition.events.group_event import GroupEvent
    from qisai.competition.events.knockout_event import KnockoutEvent
    from qisai.competition.events.team_event import TeamEvent
    from qisai.competition.tournament import Tournament

    ef = _load(event)
    ev = ef.event
    if isinstance(ev, Tournament) and overwrite and ev.current_round > round_no >= 1 \
            and board in ev.rounds[round_no - 1].results:
        from qisai.cli.desk import correct

        correct(ev, round_no, board, res, reason, repair, lambda: ef.save(event), red_fouls,
                black_fouls)
        return

    def enter() -> str:
        if isinstance(ev, KnockoutEvent):
            idx = board - 1
            n = game or len(ev.games.get(f"{round_no}:{idx}", [])) + 1
            ev.record_game(round_no, idx, n, res, overwrite=overwrite)
            m = ev.match(round_no, idx)
            won = f"; winner {m.winner} {ev.player(m.winner).name}" if m.winner else ""
            return f"round {round_no} match {board} game {n}: {res}{won}"
        if isinstance(ev, GroupEvent):
            parts = [g for g, _, _ in ev.round_parts(round_no)]
            g = group if group is not None else (parts[0] if len(parts) == 1 else None)
            if g is None:
                from qisai.competition.errors import ResultError
                raise ResultError(f"第 {round_no} 轮分 {', '.join(map(str, parts))} 组进行：请给出 --group",
                                  f"round {round_no} is played in groups "
                                  f"{', '.join(map(str, parts))}: give --group")
            ev.record_result(round_no, g, board, res, red_fouls=red_fouls,
                             black_fouls=black_fouls, overwrite=overwrite)
            return f"round {round_no} group {g} board {board}: {res}"
        if isinstance(ev, TeamEvent):
            if match_forfeit:
                ev.record_forfeit(round_no, board, res)
                return f"round {round_no} match {board}: forfeit {res}"
            if on_board is not None:
                ev.record_board(round_no, board, on_board, res, red_fouls=red_fouls,
                                black_fouls=black_fouls, overwrite=overwrite, game=game)
                entered = [on_board]
            else:
                from qisai.competition.errors import ResultError

                results = [x.strip() for x in res.replace("，", ",").split(",")]
                if len(results) != ev.boards:
                    raise ResultError(f"第 {round_no} 轮第 {board} 场：{len(results)} 个成绩，台数为 {ev.boards}（或给出 --board）",
                                      f"round {round_no} match {board}: {len(results)} results "
                                      f"for {ev.boards} boards (or give --board)")
                if ev.series == "single" and not all(results):
                    raise ResultError(f"第 {round_no} 轮第 {board} 场：每台都须有成绩（或给出 --board）",
                                      f"round {round_no} match {board}: a result for every "
                                      "board (or give --board)")
                entered = []
                for b, r in enumerate(results, start=1):
                    if r:  # 2021 league: an empty item leaves a decided board alone
                        ev.record_board(round_no, board, b, r, overwrite=overwrite)
                        entered.append(b)
            lines = []
            if ev.series == "league_2021":
                for b in entered:
                    line = f"round {round_no} match {board} board {b}: " \
                           f"{ev.board_note(round_no, board, b)}"
                    nxt = ev.next_board_game(round_no, board, b)
                    if nxt is not None:
                        line += f"; next: {_LEAGUE_KIND[nxt['kind']]} {nxt['red']} (红) - " \
                                f"{nxt['black']} (黑), time {nxt['time']}"
                    chooser = ev.awaiting_choice(round_no, board, b)
                    if chooser is not None:
                        line += f"; {chooser} chooses the colours: qisai event choose " \
                                f"EVENT {round_no} {board} PLAYER --board {b}"
                    lines.append(line)
            tm = ev.match(round_no, board)
            if tm.results:
                gp = tm.board_points(ev.team_tournament().scoring)
                lines.append(f"round {round_no} match {board}: 局分 {gp[0]:g}:{gp[1]:g}")
            elif not lines:
                lines.append(f"round {round_no} match {board}: board results entered")
            return "\n".join(lines)
        rec = ev.record_result(round_no, board, res, red_fouls=red_fouls,
                               black_fouls=black_fouls, overwrite=overwrite)
        return f"round {round_no} board {board}: {rec.red} - {rec.black} {rec.result.value}"

    msg = _run(enter)
    ef.save(event)
    typer.echo(msg)


@app.command()
def lineup(event: Path = typer.Argument(..., help="team event file"),
           round_no: int = typer.Argument(..., help="round"),
           match: int = typer.Argument(..., help="match"),
           red: str = typer.Option(..., help="first-listed team, board 1 first: a,b,c,d"),
           black: str = typer.Option(..., help="other team, board 1 first")) -> None:
    """Set both line-ups of a team match (checked under 12.1-12.3)."""
    from qisai.competition.events.team_event import TeamEvent

    ef = _load(event)
    ev = ef.event
    if not isinstance(ev, TeamEvent):
        raise say.fail("出场名单只用于团体赛",
                       "line-ups belong to team events")
    _run(lambda: ev.set_lineups(round_no, match, _names(red), _names(black)))
    ef.save(event)
    for b, r, k in ev.board_players(round_no, match):
        typer.echo(f"{round_no}.{match}.{b}  {r} - {k}")


@app.command()
def choose(event: Path = typer.Argument(..., help="knock-out or team event file"),
           round_no: int = typer.Argument(...), match: int = typer.Argument(...),
           red: str = typer.Argument(..., help="who takes Red in the decider: the entry "
                                               "number (knock-out) or the player (team)"),
           on_board: int | None = typer.Option(None, "--board", help="team match: the board")
           ) -> None:
    """2021 league: the rapid game's Black chooses the decider's colours (001)."""
    from qisai.competition.events.knockout_event import KnockoutEvent
    from qisai.competition.events.team_event import TeamEvent

    ef = _load(event)
    ev = ef.event
    if isinstance(ev, TeamEvent):
        if on_board is None:
            raise say.fail("团体赛的一场：请用 --board 指明是哪一台的决胜局",
                           "a team match: give the --board whose decider it is")
        board = on_board
        chooser = _run(lambda: ev.choose_colour(round_no, match, board, red.strip()))
        ef.save(event)
        typer.echo(f"round {round_no} match {match} board {board}: {chooser} (Black in the "
                   f"rapid game) chose: {red.strip()} has Red in the decider (附加赛)")
        nxt = ev.next_board_game(round_no, match, board)
        if nxt is not None:
            typer.echo(f"next: {_LEAGUE_KIND[nxt['kind']]} {nxt['red']} (红) - {nxt['black']} "
                       f"(黑), time {nxt['time']}")
        return
    if not isinstance(ev, KnockoutEvent):
        raise say.fail("选择先后手只用于淘汰赛和团体赛",
                       "colour choices belong to knock-out and team events")
    number = _numbers(red)
    if len(number) != 1:
        raise say.fail(f"{red!r} 不是参赛者编号",
                       f"{red!r} is not an entry number")
    _run(lambda: ev.choose_colour(round_no, match - 1, number[0]))
    ef.save(event)
    typer.echo(f"round {round_no} match {match}: {number[0]} has Red in the decider")


@app.command()
def decide(event: Path = typer.Argument(..., help="knock-out event file"),
           round_no: int = typer.Argument(...), match: int = typer.Argument(...),
           winner: int = typer.Argument(..., help="winning entry"),
           reason: str = typer.Option("arbiter's decision", help="why")) -> None:
    """The arbiter decides a knock-out match (a lot, an armageddon, 20.4)."""
    from qisai.competition.events.knockout_event import KnockoutEvent

    ef = _load(event)
    ev = ef.event
    if not isinstance(ev, KnockoutEvent):
        raise say.fail("裁决只用于淘汰赛",
                       "decisions belong to knock-out events")
    _run(lambda: ev.decide(round_no, match - 1, winner, reason))
    ef.save(event)
    typer.echo(f"round {round_no} match {match}: {winner} goes through ({reason})")


@app.command()
def withdraw(event: Path = typer.Argument(..., help="event file"),
             who: str = typer.Argument(..., help="entry number or name (team: its name)"),
             after: int | None = typer.Option(None, help="last round played (individual)"),
             before_start: bool = typer.Option(False, help="20.2: remove before the start")
             ) -> None:
    """Withdraw an entry (20.2 before the start; 20.3 round robin; 20.4 Swiss)."""
    ef = _load(event)
    msg = _run(lambda: ef.remove_entry(who) if before_start else ef.withdraw(who, after))
    ef.save(event)
    typer.echo(msg)


@app.command()
def penalty(event: Path = typer.Argument(..., help="event file"),
            who: str = typer.Argument(..., help="entry (team) number or name"),
            kind: str = typer.Argument(..., help="warning (18.1), forfeit (18.2: the game is "
                                                 "lost), expel (18.3: a withdrawal)"),
            round_no: int = typer.Option(..., "--round", help="round of the penalty"),
            note: str = typer.Option("", help="what happened")) -> None:
    """Record a penalty; 18.4 places the penalised last among equal points."""
    ef = _load(event)
    msg = _run(lambda: ef.add_penalty(who, kind, round_no, note))
    ef.save(event)
    typer.echo(msg)


@app.command()
def standings(event: Path = typer.Argument(..., help="event file"),
              fmt: str = typer.Option("text", "--format", help="text, csv, json"),
              out: Path | None = typer.Option(None, "-o", "--out",
                                              help="write them to a .xlsx or .csv (UTF-8 "
                                                   "with a BOM, for Excel) instead")) -> None:
    """Print the standings with every tie-break column (场分/局分 for teams;
    every group's table, then placements, for group events; placements for
    knock-out events), or write them as a sheet."""
    from qisai.cli.tournament_team import standings as print_standings

    ef = _load(event)
    if out is not None:
        from qisai.cli.desk import write_standings

        write_standings(ef, out)
        return
    print_standings(ef, fmt, who="entries")


@app.command("team-ranking")
def team_ranking(event: Path = typer.Argument(..., help="individual event file"),
                 by: str = typer.Option("team", help="group the entries by team or club"),
                 counted: int | None = typer.Option(None, help="best N players of each team")
                 ) -> None:
    """12.5 队员总分制: teams ranked by their players' individual places (15.5)."""
    from qisai.competition.events.views import team_ranking_table, text_table

    ef = _load(event)
    typer.echo(text_table(_run(lambda: team_ranking_table(ef, by, counted))), nl=False)


@app.command()
def crosstable(event: Path = typer.Argument(..., help="event file")) -> None:
    """Print the crosstable: opponent, colour and result per round (a group
    event: every group's, then the final's)."""
    from qisai.competition.events.group_event import GroupEvent
    from qisai.competition.events.views import crosstable_table, group_crosstables, text_table

    ef = _load(event)
    if isinstance(ef.event, GroupEvent):
        typer.echo("\n".join(text_table(t) for t in _run(lambda: group_crosstables(ef))),
                   nl=False)
        return
    typer.echo(text_table(_run(lambda: crosstable_table(ef))), nl=False)


@app.command()
def bracket(event: Path = typer.Argument(..., help="knock-out event file")) -> None:
    """Print the knock-out bracket round by round."""
    from qisai.competition.events.views import bracket_rounds

    ef = _load(event)
    for r, rnd in enumerate(_run(lambda: bracket_rounds(ef)), start=1):
        typer.echo(f"round {r}")
        for k, (a, b, w) in enumerate(rnd, start=1):
            typer.echo(f"  {k}. {a or '?'}  v  {b or '?'}" + (f"  → {w}" if w else ""))


@app.command()
def ties(event: Path = typer.Argument(..., help="event file"),
         places: int = typer.Option(1, help="the first N places may not be shared")) -> None:
    """15.6: list the entries sharing a place that needs a play-off."""
    ef = _load(event)
    found = _run(lambda: ef.ties(places))
    for group in found:
        typer.echo(", ".join(f"{e} {ef.entry_name(e)}" for e in group))
    if not found:
        typer.echo("no shared place needs a play-off")


@app.command()
def playoff(event: Path = typer.Argument(..., help="event file"),
            entries: str = typer.Option(..., help="the tied entries: 3,5"),
            series: str = typer.Option("single", help="two entries: single, two_games, "
                                                      "best_of_three, league_2021"),
            note: str = typer.Option("", help="the rule of the play-off")) -> None:
    """Start a play-off for a shared place (15.6)."""
    ef = _load(event)
    po = _run(lambda: ef.start_playoff(_numbers(entries), series, note))
    ef.save(event)
    s = po.replay()
    nxt = s.next_game() if s is not None else None
    typer.echo(f"play-off {len(ef.playoffs)}: {', '.join(map(str, po.entries))}"
               + (f"; game 1: {nxt.red} (Red) - {nxt.black}" if nxt else
                  "; record its order with playoff-order"))


@app.command("playoff-game")
def playoff_game(event: Path = typer.Argument(..., help="event file"),
                 number: int = typer.Argument(..., help="play-off number"),
                 res: str = typer.Argument(..., help="result of its next game")) -> None:
    """Enter the next game of a two-entry play-off."""
    ef = _load(event)
    po = _run(lambda: ef.playoff_game(number, res))
    ef.save(event)
    order = po.decided_order()
    typer.echo(f"play-off {number}: " + (f"decided, order {', '.join(map(str, order))}"
                                          if order else "not decided yet"))


@app.command("playoff-order")
def playoff_order(event: Path = typer.Argument(..., help="event file"),
                  number: int = typer.Argument(..., help="play-off number"),
                  order: str = typer.Argument(..., help="the entries best first: 5,3,7")) -> None:
    """Record the order a play-off of several entries produced."""
    ef = _load(event)
    _run(lambda: ef.playoff_order(number, _numbers(order)))
    ef.save(event)
    typer.echo(f"play-off {number}: order {order}")


@app.command()
def papers(event: Path = typer.Argument(..., help="event file"),
           kind: str = typer.Option("pairings", help="pairings, standings, crosstable, "
                                                     "slips, lineups, bracket, ratings"),
           round_no: int = typer.Option(0, "--round", help="round (default: the last)"),
           out: Path = typer.Option(..., "-o", "--out", help="PDF to write")) -> None:
    """Print papers as an A4 PDF (Chinese fonts embedded)."""
    from qisai.papers import write_paper

    ef = _load(event)
    pages = _run(lambda: write_paper(ef, kind, out, round_no or None))
    typer.echo(f"{out}: {kind}, {pages} page{'s' if pages != 1 else ''}")


@app.command()
def fonts() -> None:
    """Cut the Chinese font's faces to the common characters for the papers
    (once; a paper does it itself the first time) and say where they are."""
    from qisai.papers.fonts import cache_dir, prepare
    from qisai.papers.pdf import find_font

    spec = _run(lambda: prepare(find_font()))
    typer.echo(f"papers' font faces in {cache_dir()}: {spec.path.name}, "
               f"{spec.bold.name if spec.bold else spec.path.name}")


def register_papers(tournament_app: typer.Typer) -> None:
    """Add ``papers`` to ``qisai tournament`` (it reads those files too)."""
    tournament_app.command("papers")(papers)
