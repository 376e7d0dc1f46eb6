"""``qisai tournament ...``: run an event from the command line.

An event is a JSON file the user keeps (until the store lands): ``create``
makes it from a file of entries, ``pair`` pairs the next round, ``result``
enters results, ``standings`` and ``crosstable`` print the tables,
``ratings`` the rating changes.  Errors of the competition layer print one
line to stderr and exit with status 2.  The competition layer is imported
by the commands, not with this module.

Files: a tournament file of its own (round robin, Swiss), or an event file
(:class:`~qisai.competition.events.file.EventFile`: one exported from the
arena, one of ``qisai event``) holding an individual event, which is saved
back whole; a team event file, e.g. a 12.4 全队轮 match made by ``create
--system all-play-all``, is run by :mod:`qisai.cli.tournament_team`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from qisai.cli import say

if TYPE_CHECKING:
    from qisai.competition.events.file import EventFile
    from qisai.competition.events.team_event import TeamEvent
    from qisai.competition.tournament import Player, Tournament

app = typer.Typer(no_args_is_help=True, help="Competitions (比赛): pairings, results, standings.")

T = TypeVar("T")


def _run(fn: Callable[[], T]) -> T:
    from qisai.competition.errors import CompetitionError

    try:
        return fn()
    except CompetitionError as exc:
        problems = getattr(exc, "problems", None)
        if problems:  # one line per bad item (bulk results) or finding (manual pairing)
            from qisai.competition.entries import EntriesError

            if hasattr(exc, "findings"):
                say.error("人工编排被拒绝（--force 只放行重复对阵）：",
                          "manual pairing refused (--force accepts a rematch only):")
                zh = [f.text_zh() for f in exc.findings]
            elif isinstance(exc, EntriesError):
                say.error(f"报名表有 {len(problems)} 行有误，未建比赛：",
                          f"{len(problems)} bad row(s) in the entries, no event made:")
                zh = [p.text_zh() for p in exc.problems]
            else:
                say.error(f"{len(problems)} 项有误，未登记任何成绩：",
                          f"{len(problems)} bad item(s), nothing recorded:")
                zh = [getattr(line, "zh", str(line)) for line in problems]
            for line_zh, line in zip(zh, problems, strict=True):
                typer.echo(f"  {line_zh}", err=True)
                typer.echo(f"  {line}", err=True)
            raise typer.Exit(2) from None
        raise say.refused(exc) from None


_WRAPPED: dict[int, EventFile] = {}
"""Individual events read from an event file (an arena export, a ``qisai
event`` file): the tournament's id -> its file, so that ``_save`` writes the
header, penalties and play-offs back with it."""


def _save(t: Tournament, path: Path) -> None:
    ef = _WRAPPED.get(id(t))
    if ef is not None and ef.event is t:
        ef.save(path)
    else:
        t.save(path)  # atomically: a crash leaves the old file whole


def read_entries(path: Path) -> list[Player]:
    """Read entries from a sheet (CSV or ``.xlsx``, Chinese or English
    headers: 姓名/name, 单位/club, 队名/team, 等级分/rating, ...; read by
    :func:`qisai.competition.entries.read_entries`, which names every bad
    row) or from JSON (a list of objects with the keys of
    :meth:`Player.from_dict`).  Raises :class:`EventFileError` naming the
    file and the row."""
    from qisai.bilingual import en_of, zh_of
    from qisai.competition.errors import EntryError, EventFileError
    from qisai.competition.tournament import Player

    if path.suffix.lower() != ".json":
        from qisai.competition.entries import read_entries as read_sheet

        players = [e.player() for e in read_sheet(path)]
        if not players:
            raise EventFileError(f"{path}：没有参赛者",
                                 f"{path}: no entries")
        return players
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise EventFileError(f"{path}：无法读取（{exc.strerror}）",
                             f"{path}: cannot read ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EventFileError(f"{path}，第 {exc.lineno} 行：不是 JSON（{exc.msg}）",
                             f"{path}, line {exc.lineno}: not JSON ({exc.msg})") from None
    if not isinstance(data, list):
        raise EventFileError(f"{path}：应为参赛者列表",
                             f"{path}: expected a list of entries")
    players = []
    for k, d in enumerate(data, start=1):
        try:
            if isinstance(d, dict) and "rating" in d:
                d = dict(d)
                d["rating"] = int(float(d["rating"]))
            players.append(Player.from_dict(d))
        except (EntryError, ValueError, TypeError) as exc:
            raise EventFileError(f"{path}，第 {k} 名参赛者：{zh_of(exc)}",
                                 f"{path}, entry {k}: {en_of(exc)}") from None
    if not players:
        raise EventFileError(f"{path}：没有参赛者",
                             f"{path}: no entries")
    return players


def _open(event: Path) -> Tournament | EventFile:
    """The event in file ``event``: a tournament file, or an event file (an
    arena export, a ``qisai event`` file) whose individual event is returned
    as a tournament and a team event as the file; exit 2 (with the message)
    if it cannot be read."""
    from qisai.competition.jsonfile import read_object
    from qisai.competition.tournament import Tournament

    def read() -> Tournament | EventFile:
        _WRAPPED.clear()  # one event a command
        data = read_object(event)
        if data.get("format") != "qisai-event":
            return Tournament.from_dict(data, str(event))
        from qisai.competition.events.file import EventFile

        ef = EventFile.from_dict(data, str(event))
        if isinstance(ef.event, Tournament):
            _WRAPPED[id(ef.event)] = ef
            return ef.event
        return ef
    return _run(read)


def _load(event: Path) -> Tournament:
    """The individual event in file ``event``; exit 2 (with the message) if
    it cannot be read or is a team event."""
    from qisai.competition.tournament import Tournament

    t = _open(event)
    if not isinstance(t, Tournament):
        raise say.fail(f"{event} 是 {t.kind} 比赛；这个命令用于循环赛和积分编排赛（见 'qisai event'）",
                       f"{event} is a {t.kind} event; this command is for round robin "
                       "and Swiss events (see 'qisai event')")
    return t


def _as_file(event: Path) -> EventFile:
    """The event in file ``event`` as an event file (a bare tournament file
    wrapped, so that the tables of :mod:`qisai.competition.events.views`
    read it)."""
    from qisai.competition.events.file import EventFile
    from qisai.competition.tournament import Tournament

    obj = _open(event)
    if isinstance(obj, Tournament):
        return _WRAPPED.get(id(obj)) or EventFile("individual", obj)
    return obj


def _split(event: Path) -> tuple[Tournament | None, EventFile | None]:
    """The event in file ``event`` as ``(tournament, None)`` for a round
    robin or Swiss, ``(None, event file)`` for a team event; exit 2 for a
    knock-out or group event (``qisai event`` runs those)."""
    from qisai.competition.tournament import Tournament

    obj = _open(event)
    if isinstance(obj, Tournament):
        return obj, None
    if obj.kind != "team":
        raise say.fail(f"{event} 是 {obj.kind} 比赛：请用 'qisai event' 运行",
                       f"{event} is a {obj.kind} event: run it with 'qisai event'")
    return None, obj


@app.command()
def berger(n: int = typer.Argument(..., help="number of entries"),
           double: bool = typer.Option(False, help="double round robin (colours swapped)")) -> None:
    """Print the Berger table (循环赛对局秩序表) for N entries, one round per
    line (first-listed plays Red; an odd field's bye shows as ``1-(8)``)."""
    from qisai.competition.pairing.berger import berger_table, double_round_robin, format_round

    table = _run(lambda: double_round_robin(n) if double else berger_table(n))
    phantom = n + 1 if n % 2 else None
    for rnd in table:
        typer.echo(format_round(rnd, phantom=phantom))


@app.command()
def cards(n: int = typer.Argument(..., help="number of entries (numbered 1..N)"),
          seed: int = typer.Option(0, help="seed of the draw")) -> None:
    """Card draw of the local rules (cards 1..k twice, K for the bye)."""
    from qisai.competition.pairing.knockout import card_draw

    cd = _run(lambda: card_draw(list(range(1, n + 1)), random.Random(seed)))
    for red, black in cd.pairs:
        typer.echo(f"{red} ({cd.cards[red]}) - {black} ({cd.cards[black]})")
    if cd.bye is not None:
        typer.echo(f"{cd.bye} (K) bye")


@app.command()
def knockout(n: int = typer.Argument(..., help="number of entries (seeds 1..N)"),
             byes: str = typer.Option("seeded", help="seeded (top seeds) or lot"),
             seed: int = typer.Option(0, help="seed of the lots")) -> None:
    """Print the first round of a seeded knock-out bracket (11.1; colours by
    lot, 13.4)."""
    from qisai.competition.pairing.knockout import Knockout

    ko = _run(lambda: Knockout(list(range(1, n + 1)), byes=byes, seed=seed))
    for m in _run(ko.pair_next_round):
        typer.echo(f"{m.red} bye" if m.black is None else f"{m.red}-{m.black}")


@app.command()
def create(event: Path = typer.Argument(..., help="event file to write (JSON)"),
           entries: Path = typer.Option(..., help="entries file: .csv, Excel .xlsx (姓名/name, "
                                                "单位/club, 等级分/rating ...) or .json"),
           name: str = typer.Option("", help="event name"),
           system: str = typer.Option(
               "swiss", help="swiss, round_robin, double_round_robin, or all-play-all "
                             "(12.4 全队轮赛制: two teams from the 队名 column)"),
           boards: int | None = typer.Option(
               None, help="all-play-all: players a side (default: the smaller team)"),
           score_by: str | None = typer.Option(
               None, "--score-by", help="all-play-all: games (total 局分 decides the match, "
                                        "the default) or matches (场分 per round, 15.3)"),
           rounds: int | None = typer.Option(None, help="rounds (required for swiss)"),
           rules: str = typer.Option(
               "cxa", help="rule profile of the games (cxa, cxa-2007, axf, ...); the "
                           "event scores by its points unless --scoring is given"),
           scoring: str | None = typer.Option(
               None, help="classic, 2-1-0, trial-2007 (default: the --rules profile's "
                          "points: cxa 1/0.5/0, cxa-2007 3/0 with draws 1 to Red, 2 to Black)"),
           tiebreaks: str = typer.Option("", help="comma-separated, e.g. 小分,胜局,直胜,犯规"),
           seed: int = typer.Option(0, help="seed of every lot"),
           avoid_rounds: int = typer.Option(0, help="same team/club not paired in rounds 1..k"),
           draw_numbers: bool = typer.Option(
               True, help="numbers by lot (round robin) / seeding by rating (Swiss); "
                          "--no-draw-numbers keeps the file's order"),
           force: bool = typer.Option(False, help="overwrite an existing event file")) -> None:
    """Create an event from a file of entries and draw its numbers."""
    from qisai.competition.pairing.swiss_options import SwissOptions
    from qisai.competition.scoring import preset, table_for_rules
    from qisai.competition.tiebreaks import parse_criteria
    from qisai.competition.tournament import Tournament

    if event.exists() and not force:
        raise say.fail(f"{event} 已存在（覆盖请用 --force）",
                       f"{event} exists (use --force)")
    if system.replace("_", "-") in ("all-play-all", "全队轮", "全队轮赛制"):
        from qisai.cli import tournament_team

        tournament_team.create(event, entries, name, boards, None if scoring else rules, seed,
                               {}, score_by=score_by)
        return
    if score_by is not None:
        raise say.fail("--score-by 只用于 --system all-play-all（全队轮赛制，12.4）",
                       "--score-by is for --system all-play-all (12.4)")

    def make() -> Tournament:
        players = read_entries(entries)
        crit = parse_criteria([c for c in tiebreaks.split(",") if c.strip()]) \
            if tiebreaks else None
        table = preset(scoring) if scoring is not None else table_for_rules(rules)
        t = Tournament(name or entries.stem, system, rounds=rounds, scoring=table, rules=rules,
                       tiebreaks=crit, seed=seed, draw_numbers=draw_numbers,
                       swiss=SwissOptions(avoid_group_rounds=avoid_rounds))
        for p in players:
            t.add_player(p)
        t.start()
        return t

    t = _run(make)
    _save(t, event)
    typer.echo(f"{t.name}: {len(t.players)} entries, {t.rounds_planned} rounds, "
               f"{t.system.value}, rules {t.rules}, scoring {t.scoring.name}")
    for line in t.warnings:
        say.warning(getattr(line, "zh", line), line)
    for p in t.players:
        typer.echo(f"{p.id:4d}  {p.name}  {p.rating or ''}")


def _findings(findings: list[Any]) -> None:
    # a finding prints as "warning: [clause] message" already (manual.Finding),
    # its Chinese first
    for f in findings:
        typer.echo(f.text_zh(), err=True)
        typer.echo(str(f), err=True)


@app.command()
def pair(event: Path = typer.Argument(..., help="event file"),
         explain: bool = typer.Option(False, help="print why each pair was made"),
         manual: str | None = typer.Option(
             None, help="the arbiter's own pairing, e.g. '1-5, 2-6, 7' (Red first; a lone "
                        "number has the bye)"),
         fix: str | None = typer.Option(
             None, help="boards the arbiter fixes, e.g. '3-8'; the pairer pairs the rest"),
         round_no: int | None = typer.Option(
             None, "--round", help="with --manual: re-pair this round (the last one, "
                                   "before any result)"),
         reason: str = typer.Option("", help="why (logged in the round's explanation)"),
         force: bool = typer.Option(False, help="accept a rematch")) -> None:
    """Pair the next round and print it; --manual or --fix for pairings by
    hand, checked against the rules (a rematch is refused unless forced,
    colour limits and score groups are warned about, each with its clause)."""
    from qisai.competition import hand_pairings as hand
    from qisai.competition import output

    t, ef = _split(event)
    if ef is not None:
        if manual is not None or fix is not None:
            raise say.fail("全队轮赛按赛程编排（12.4）；要改一队的出场次序请用 'qisai tournament lineup'",
                           "a 全队轮 match is paired by its schedule (12.4); change a "
                           "team's order with 'qisai tournament lineup'")
        from qisai.cli import tournament_team

        tournament_team.pair(ef, event)
        return
    assert t is not None
    if manual is not None and fix is not None:
        raise say.fail("--manual 与 --fix 只能给一个",
                       "give --manual or --fix, not both")
    if manual is not None:
        boards = _run(lambda: hand.parse_boards(manual))
        _findings(_run(lambda: hand.set_round(t, boards, reason, round_no=round_no,
                                              force=force)))
        rec = t.rounds[-1]
    elif fix is not None:
        fixed = _run(lambda: hand.parse_boards(fix))
        rec, found = _run(lambda: hand.pair_with_fixed(t, fixed, reason, force=force))
        _findings(found)
    else:
        rec = _run(t.pair_next_round)
    _save(t, event)
    typer.echo(output.pairings_text(t, rec.number), nl=False)
    if explain:
        from qisai.cli.explain_text import bilingual

        for line in rec.explanation:  # Chinese and English (issue 32.8)
            zh_en = bilingual(line)
            typer.echo(f"  · {zh_en[0]}")
            for more in zh_en[1:]:
                typer.echo(f"    {more}")


@app.command()
def swap(event: Path = typer.Argument(..., help="event file"),
         a: int = typer.Argument(..., help="entry number"),
         b: int = typer.Argument(..., help="entry number"),
         round_no: int | None = typer.Option(None, "--round", help="round (default: last)"),
         reason: str = typer.Option(..., help="why (logged in the round's explanation)"),
         force: bool = typer.Option(False, help="accept a rematch")) -> None:
    """Swap two entries in a round (each takes the other's board and
    colour); the result is checked against the rules as for --manual."""
    from qisai.competition import hand_pairings as hand
    from qisai.competition import output

    t = _load(event)
    number = round_no or t.current_round
    _findings(_run(lambda: hand.swap(t, number, a, b, reason, force=force)))
    _save(t, event)
    typer.echo(output.pairings_text(t, number), nl=False)


@app.command()
def pairings(event: Path = typer.Argument(..., help="event file"),
             round_no: int = typer.Argument(0, help="round (default: the last)"),
             fmt: str = typer.Option("text", "--format", help="text, csv, json, html"),
             out: Path | None = typer.Option(None, "-o", "--out",
                                             help="write them to a .xlsx or .csv (UTF-8 with "
                                                  "a BOM, for Excel) instead")) -> None:
    """Print a round's pairings and results, or write them as a sheet."""
    from qisai.competition import output

    if out is not None:
        from qisai.competition.events.export import write_tables
        from qisai.competition.events.views import pairings_table, round_count

        whole = _as_file(event)
        number = round_no or round_count(whole)
        _run(lambda: write_tables([pairings_table(whole, number)], out))
        typer.echo(f"{out}: round {number}")
        return

    t, ef = _split(event)
    if ef is not None:
        from qisai.cli import tournament_team
        from qisai.competition.events.views import round_count

        tournament_team.print_round(ef, round_no or round_count(ef), fmt)
        return
    assert t is not None
    r = round_no or t.current_round
    if fmt == "json":
        typer.echo(json.dumps(_run(lambda: output.pairings_rows(t, r)), ensure_ascii=False,
                              indent=1))
        return
    render = {"text": output.pairings_text, "csv": output.pairings_csv,
              "html": output.pairings_html}.get(fmt)
    if render is None:
        raise say.fail(f"未知格式 {fmt!r}",
                       f"unknown format {fmt!r}")
    typer.echo(_run(lambda: render(t, r)), nl=False)


@app.command()
def result(event: Path = typer.Argument(..., help="event file"),
           items: list[str] | None = typer.Argument(
               None, help="ROUND BOARD RESULT (one board), or with --round the items "
                          "'1 1-0, 2 =, 12-7 0-1' (board, or two players: the result "
                          "from the first-named side; 'f=1/0' adds fouls)"),
           round_opt: int | None = typer.Option(
               None, "--round", help="enter many results of this round at once"),
           file: Path | None = typer.Option(
               None, "--file", help="read the items from a file (one or more a line)"),
           by_player: bool = typer.Option(
               False, "--by-player", help="a single number is a player, not a board "
                                          "('12 0-1': player 12 lost)"),
           red_fouls: int = typer.Option(0, help="fouls (犯规) of Red (one board)"),
           black_fouls: int = typer.Option(0, help="fouls of Black (one board)"),
           overwrite: bool = typer.Option(False, help="replace a result already entered"),
           reason: str = typer.Option("", help="why a result is corrected (asked for when a "
                                               "later round is paired; logged)"),
           repair: bool | None = typer.Option(
               None, "--repair/--no-repair", help="after a correction: re-pair the next "
                                                  "round's unplayed boards (Swiss; asked "
                                                  "when not given)"),
           rating_details: bool = typer.Option(
               False, "--rating-details", help="once the round is complete, print every "
                                               "rated player's change (else a summary)")
           ) -> None:
    """Enter results: one board (ROUND BOARD RESULT), or a whole round from
    one command line or file (--round R "1 1-0, 2 =, 3 0-1").  Items are all
    checked first: one bad item records nothing and each is named with its
    board.  Correcting a result after a later round is paired needs a
    reason (logged in the round's record), warns which later boards it
    affects and offers to re-pair the next round's unplayed boards."""
    from qisai.competition.bulk import parse_items, parse_items_checked, record_results

    args = list(items or [])
    t, team_ef = _split(event)
    if team_ef is not None:
        _team_result(team_ef, event, args, round_opt, file, overwrite, rating_details)
        return
    assert t is not None
    if round_opt is None and file is None:
        if len(args) != 3:
            raise say.fail("请给出 轮次 台号 成绩，或用 --round R 加各项成绩",
                           "give ROUND BOARD RESULT, or --round R with the items")
        try:
            round_no, board = int(args[0]), int(args[1])
        except ValueError:
            raise say.fail(f"轮次和台号须为数字，不是 {args[0]!r} {args[1]!r}",
                           f"round and board must be numbers, not {args[0]!r} {args[1]!r}") from None
        rec = t.rounds[round_no - 1] if 1 <= round_no <= len(t.rounds) else None
        if overwrite and rec is not None and board in rec.results \
                and t.current_round > round_no:
            from qisai.cli.desk import correct

            correct(t, round_no, board, args[2], reason, repair, lambda: _save(t, event),
                    red_fouls, black_fouls)
            return
        g = _run(lambda: t.record_result(round_no, board, args[2], red_fouls=red_fouls,
                                         black_fouls=black_fouls, overwrite=overwrite))
        _save(t, event)
        typer.echo(f"round {round_no} board {board}: {g.red} - {g.black} {g.result.value}")
        _rating_after(t, round_no, details=rating_details)
        return
    text = ", ".join(args)
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8-sig") + ("\n" + text if text else "")
        except OSError as exc:
            raise say.fail(f"{file}：无法读取（{exc.strerror}）",
                           f"{file}: cannot read ({exc.strerror})") from None
    number = round_opt if round_opt is not None else t.current_round
    if overwrite and t.current_round > number:
        raise say.fail(f"第 {number + 1} 轮已编排：第 {number} 轮的成绩请逐台更正（轮次 台号 成绩 --overwrite --reason ...），以便每次更正都有记录，并显示它对以后编排的影响",
                       f"round {number + 1} is paired: correct round {number}'s results one "
                       "board at a time (ROUND BOARD RESULT --overwrite --reason ...), so that "
                       "each correction is logged and its effect on later pairings shown")
    # a file's unreadable items and its board errors are reported together (33.6)
    parsed, unread = parse_items_checked(text, by_player=by_player)
    if not parsed and not unread:
        _run(lambda: parse_items(text))  # "no results given"
    games = _run(lambda: record_results(t, number, parsed, overwrite=overwrite,
                                        unread=unread))
    _save(t, event)
    rec = t.rounds[number - 1]
    for g in games:
        board = next(b for b, x in rec.results.items() if x is g)
        typer.echo(f"round {number} board {board}: {g.red} - {g.black} {g.result.value}")
    missing = [p.board for p in rec.pairings if not p.is_bye and p.board not in rec.results]
    typer.echo(f"round {number}: {len(games)} result(s) entered; "
               + (f"still open: board(s) {', '.join(map(str, missing))}" if missing
                  else "complete"))
    _rating_after(t, number, details=rating_details)


def _team_result(ef: EventFile, event: Path, args: list[str], round_opt: int | None,
                 file: Path | None, overwrite: bool, details: bool = False) -> None:
    from qisai.cli import tournament_team
    from qisai.competition.events.views import round_count

    if round_opt is None and file is None:
        if len(args) != 3:
            raise say.fail("请给出 轮次 台号 成绩，或用 --round R 加各项成绩",
                           "give ROUND BOARD RESULT, or --round R with the items")
        if not (args[0].isdigit() and args[1].isdigit()):
            raise say.fail(f"轮次和台号须为数字，不是 {args[0]!r} {args[1]!r}",
                           f"round and board must be numbers, not {args[0]!r} {args[1]!r}")
        round_no, text = int(args[0]), f"{args[1]} {args[2]}"
    else:
        text = ", ".join(args)
        if file is not None:
            try:
                text = file.read_text(encoding="utf-8-sig") + ("\n" + text if text else "")
            except OSError as exc:
                raise say.fail(f"{file}：无法读取（{exc.strerror}）",
                               f"{file}: cannot read ({exc.strerror})") from None
        round_no = round_opt if round_opt is not None else round_count(ef)
    tournament_team.result(ef, event, round_no, text, overwrite)
    _rating_after(ef, round_no, details=details)


def _complete(ev: Tournament | EventFile, round_no: int) -> bool:
    from qisai.competition.tournament import Tournament

    if isinstance(ev, Tournament):
        if not 1 <= round_no <= len(ev.rounds):
            return False
        rec = ev.rounds[round_no - 1]
        return all(p.is_bye or p.board in rec.results for p in rec.pairings)
    from qisai.competition.events.team_event import TeamEvent

    te = ev.event
    if not isinstance(te, TeamEvent) or te.tt is None or not 1 <= round_no <= len(te.tt.rounds):
        return False
    return all(m.black_team is None or m.results or m.forfeit is not None
               for m in te.tt.rounds[round_no - 1])


def _rating_after(ev: Tournament | EventFile, round_no: int, k: float = 20.0,
                  details: bool = False) -> None:
    """Once round ``round_no`` is complete, print a summary of the rating
    changes over rounds 1..``round_no`` (the project's Elo; nothing when no
    player has a rating): how many rated players, the largest gain and
    loss; with ``details`` a line each rated player (issue 33.6: a
    500-player round printed 500 lines)."""
    from qisai.competition.events.ratings import rated_players, rating_rows
    from qisai.competition.tournament import Tournament

    if not _complete(ev, round_no):
        return
    if isinstance(ev, Tournament):
        target: Tournament | TeamEvent = ev
    else:
        from qisai.competition.events.team_event import TeamEvent

        if not isinstance(ev.event, TeamEvent):
            return
        target = ev.event
    if rated_players(target):
        rows = _run(lambda: rating_rows(target, round_no, k))
        head = (f"rating changes after round {round_no} (Elo, K={k:g}, against the ratings "
                f"before the event): {len(rows)} rated player(s)")
        if details:
            typer.echo(head + ":")
            for r in rows:
                typer.echo(f"{r.number:4d}  {r.name}  {r.before} -> {r.after:.0f} "
                           f"({r.change:+.1f}; {r.score:g}/{r.games}, expected "
                           f"{r.expected:.2f})")
            return
        if rows:
            up = max(rows, key=lambda r: r.change)
            down = min(rows, key=lambda r: r.change)
            head += (f"; largest gain {up.change:+.1f} {up.number} {up.name}, largest loss "
                     f"{down.change:+.1f} {down.number} {down.name} (each player: "
                     "--rating-details, or 'qisai tournament ratings')")
        typer.echo(head)


@app.command()
def ratings(event: Path = typer.Argument(..., help="event file"),
            round_no: int = typer.Option(0, "--round", help="through this round (default: "
                                                            "every round)"),
            k: float = typer.Option(20.0, "--k", help="K of the rating list (K > 0)"),
            fmt: str = typer.Option("text", "--format", help="text, csv, json")) -> None:
    """Print each rated player's rating change (等级分变化) for the event:
    rating before, rated games, score, expected score, change, rating
    after (Elo against the ratings before the event; forfeits and byes not
    rated)."""
    import csv
    import io

    from qisai.competition.events.file import EventFile
    from qisai.competition.events.ratings import rating_table
    from qisai.competition.events.views import text_table

    t, ef = _split(event)
    if t is not None:
        ef = _WRAPPED.get(id(t)) or EventFile("individual", t)
    assert ef is not None
    table = _run(lambda: rating_table(ef, round_no or None, k))
    if fmt == "text":
        typer.echo(text_table(table), nl=False)
    elif fmt == "csv":
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows([table.header] + table.rows)
        typer.echo(buf.getvalue(), nl=False)
    elif fmt == "json":
        typer.echo(json.dumps({"event": ef.header.name, "title": table.title,
                               "header": table.header, "rows": table.rows},
                              ensure_ascii=False, indent=1))
    else:
        raise say.fail(f"未知格式 {fmt!r}",
                       f"unknown format {fmt!r}")


@app.command()
def lineup(event: Path = typer.Argument(..., help="全队轮 event file"),
           team: str = typer.Argument(..., help="the team (its name)"),
           order: str = typer.Argument(..., help="its players in board order, 'a,b,c,d'")
           ) -> None:
    """Set a team's order for a 全队轮 match (12.4; before its first result)
    and print every round's boards."""
    from qisai.cli import tournament_team

    _, ef = _split(event)
    if ef is None:
        raise say.fail("出场名单只用于团体赛",
                       "line-ups belong to team events")
    tournament_team.lineup(ef, event, team, order)


@app.command()
def withdraw(event: Path = typer.Argument(..., help="event file"),
             number: int = typer.Argument(..., help="entry number"),
             after: int | None = typer.Option(None, help="last round played (default: now)")) -> None:
    """Withdraw an entry (20.3 round robin, 20.4 Swiss); a team event's
    entry is its team number."""
    t, ef = _split(event)
    if ef is not None:
        from qisai.cli import tournament_team

        tournament_team.withdraw(ef, event, ef.entry_name(number))
        return
    assert t is not None
    _run(lambda: t.withdraw(number, after))
    _save(t, event)
    typer.echo(f"{number} {t.player(number).name} withdrawn after round "
               f"{t.player(number).withdrawn_after}")


@app.command()
def standings(event: Path = typer.Argument(..., help="event file"),
              fmt: str = typer.Option("text", "--format", help="text, csv, json, html"),
              out: Path | None = typer.Option(None, "-o", "--out",
                                              help="write them to a .xlsx or .csv (UTF-8 "
                                                   "with a BOM, for Excel) instead")) -> None:
    """Print the standings with every tie-break column (a team event: 场分
    and 局分, 14.2, ranked by 15.3/15.4), or write them as a sheet."""
    from qisai.competition import output

    if out is not None:
        from qisai.cli.desk import write_standings

        write_standings(_as_file(event), out)
        return
    t, ef = _split(event)
    if ef is not None:
        from qisai.cli import tournament_team

        tournament_team.standings(ef, fmt)
        return
    assert t is not None
    if fmt == "text":
        typer.echo(_run(lambda: output.standings_text(t)), nl=False)
    elif fmt == "csv":
        typer.echo(_run(lambda: output.standings_csv(t)), nl=False)
    elif fmt == "json":
        typer.echo(json.dumps(_run(lambda: output.standings_json(t)), ensure_ascii=False,
                              indent=1))
    elif fmt == "html":
        typer.echo(_run(lambda: output.standings_html(t)), nl=False)
    else:
        raise say.fail(f"未知格式 {fmt!r}",
                       f"unknown format {fmt!r}")


@app.command()
def crosstable(event: Path = typer.Argument(..., help="event file"),
               fmt: str = typer.Option("text", "--format", help="text, csv, html")) -> None:
    """Print the crosstable."""
    from qisai.competition import output

    t, ef = _split(event)
    if ef is not None:
        from qisai.cli import tournament_team

        tournament_team.crosstable(ef)
        return
    assert t is not None
    render = {"text": output.crosstable_text, "csv": output.crosstable_csv,
              "html": output.crosstable_html}.get(fmt)
    if render is None:
        raise say.fail(f"未知格式 {fmt!r}",
                       f"unknown format {fmt!r}")
    typer.echo(render(t), nl=False)


@app.command("export-trf")
def export_trf(event: Path = typer.Argument(..., help="event file"),
               columns: str = typer.Option(
                   "chars", help="chars (positions in characters, as bbpPairings reads "
                                 "UTF-8) or bytes (positions in UTF-8 bytes)")) -> None:
    """Print the event as FIDE TRF-16 (only what TRF can express); the rank
    column holds the places of the standings."""
    from qisai.competition import output

    t = _load(event)
    typer.echo(_run(lambda: output.tournament_trf(t, columns)), nl=False)
