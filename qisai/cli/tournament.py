"""``qisai tournament ...``: run an event from the command line.

An event is a JSON file the user keeps (until the store lands): ``create``
makes it from a file of entries, ``pair`` pairs the next round, ``result``
enters results, ``standings`` and ``crosstable`` print the tables.  Errors
of the competition layer print one line to stderr and exit with status 2.
The competition layer is imported by the commands, not with this module.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

if TYPE_CHECKING:
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

            head = ("manual pairing refused (--force accepts a rematch only)"
                    if hasattr(exc, "findings") else
                    f"{len(problems)} bad row(s) in the entries, no event made"
                    if isinstance(exc, EntriesError) else
                    f"{len(problems)} bad item(s), nothing recorded")
            typer.echo(f"error: {head}:", err=True)
            for line in problems:
                typer.echo(f"  {line}", err=True)
        else:
            typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _save(t: Tournament, path: Path) -> None:
    t.save(path)  # atomically: a crash leaves the old file whole


def read_entries(path: Path) -> list[Player]:
    """Read entries from a sheet (CSV or ``.xlsx``, Chinese or English
    headers: 姓名/name, 单位/club, 队名/team, 等级分/rating, ...; read by
    :func:`qisai.competition.entries.read_entries`, which names every bad
    row) or from JSON (a list of objects with the keys of
    :meth:`Player.from_dict`).  Raises :class:`EventFileError` naming the
    file and the row."""
    from qisai.competition.errors import EntryError, EventFileError
    from qisai.competition.tournament import Player

    if path.suffix.lower() != ".json":
        from qisai.competition.entries import read_entries as read_sheet

        players = [e.player() for e in read_sheet(path)]
        if not players:
            raise EventFileError(f"{path}: no entries")
        return players
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise EventFileError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EventFileError(f"{path}, line {exc.lineno}: not JSON ({exc.msg})") from None
    if not isinstance(data, list):
        raise EventFileError(f"{path}: expected a list of entries")
    players = []
    for k, d in enumerate(data, start=1):
        try:
            if isinstance(d, dict) and "rating" in d:
                d = dict(d)
                d["rating"] = int(float(d["rating"]))
            players.append(Player.from_dict(d))
        except (EntryError, ValueError, TypeError) as exc:
            raise EventFileError(f"{path}, entry {k}: {exc}") from None
    if not players:
        raise EventFileError(f"{path}: no entries")
    return players


def _load(event: Path) -> Tournament:
    """The event in file ``event``; exit 2 (with the message) if it cannot be read."""
    from qisai.competition.tournament import Tournament

    return _run(lambda: Tournament.load(event))


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
           entries: Path = typer.Option(..., help="entries file (CSV or JSON)"),
           name: str = typer.Option("", help="event name"),
           system: str = typer.Option("swiss", help="swiss, round_robin, double_round_robin"),
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
    from qisai.competition.pairing.swiss import SwissOptions
    from qisai.competition.scoring import preset, table_for_rules
    from qisai.competition.tiebreaks import parse_criteria
    from qisai.competition.tournament import Tournament

    if event.exists() and not force:
        typer.echo(f"error: {event} exists (use --force)", err=True)
        raise typer.Exit(2)

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
        typer.echo(f"warning: {line}", err=True)
    for p in t.players:
        typer.echo(f"{p.id:4d}  {p.name}  {p.rating or ''}")


def _findings(findings: list[Any]) -> None:
    for f in findings:
        typer.echo(f"warning: {f}", err=True)


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
    from qisai.competition import manual as hand
    from qisai.competition import output

    t = _load(event)
    if manual is not None and fix is not None:
        typer.echo("error: give --manual or --fix, not both", err=True)
        raise typer.Exit(2)
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
        for line in rec.explanation:
            typer.echo(f"  · {line}")


@app.command()
def swap(event: Path = typer.Argument(..., help="event file"),
         a: int = typer.Argument(..., help="entry number"),
         b: int = typer.Argument(..., help="entry number"),
         round_no: int | None = typer.Option(None, "--round", help="round (default: last)"),
         reason: str = typer.Option(..., help="why (logged in the round's explanation)"),
         force: bool = typer.Option(False, help="accept a rematch")) -> None:
    """Swap two entries in a round (each takes the other's board and
    colour); the result is checked against the rules as for --manual."""
    from qisai.competition import manual as hand
    from qisai.competition import output

    t = _load(event)
    number = round_no or t.current_round
    _findings(_run(lambda: hand.swap(t, number, a, b, reason, force=force)))
    _save(t, event)
    typer.echo(output.pairings_text(t, number), nl=False)


@app.command()
def pairings(event: Path = typer.Argument(..., help="event file"),
             round_no: int = typer.Argument(0, help="round (default: the last)"),
             fmt: str = typer.Option("text", "--format", help="text, csv, json, html")) -> None:
    """Print a round's pairings and results."""
    from qisai.competition import output

    t = _load(event)
    r = round_no or t.current_round
    if fmt == "json":
        typer.echo(json.dumps(_run(lambda: output.pairings_rows(t, r)), ensure_ascii=False,
                              indent=1))
        return
    render = {"text": output.pairings_text, "csv": output.pairings_csv,
              "html": output.pairings_html}.get(fmt)
    if render is None:
        typer.echo(f"error: unknown format {fmt!r}", err=True)
        raise typer.Exit(2)
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
           overwrite: bool = typer.Option(False, help="replace a result already entered")) -> None:
    """Enter results: one board (ROUND BOARD RESULT), or a whole round from
    one command line or file (--round R "1 1-0, 2 =, 3 0-1").  Items are all
    checked first: one bad item records nothing and each is named with its
    board."""
    from qisai.competition.bulk import parse_items, record_results

    args = list(items or [])
    if round_opt is None and file is None:
        if len(args) != 3:
            typer.echo("error: give ROUND BOARD RESULT, or --round R with the items",
                       err=True)
            raise typer.Exit(2)
        try:
            round_no, board = int(args[0]), int(args[1])
        except ValueError:
            typer.echo(f"error: round and board must be numbers, not {args[0]!r} {args[1]!r}",
                       err=True)
            raise typer.Exit(2) from None
        t = _load(event)
        g = _run(lambda: t.record_result(round_no, board, args[2], red_fouls=red_fouls,
                                         black_fouls=black_fouls, overwrite=overwrite))
        _save(t, event)
        typer.echo(f"round {round_no} board {board}: {g.red} - {g.black} {g.result.value}")
        return
    text = ", ".join(args)
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8-sig") + ("\n" + text if text else "")
        except OSError as exc:
            typer.echo(f"error: {file}: cannot read ({exc.strerror})", err=True)
            raise typer.Exit(2) from None
    t = _load(event)
    number = round_opt if round_opt is not None else t.current_round
    parsed = _run(lambda: parse_items(text, by_player=by_player))
    games = _run(lambda: record_results(t, number, parsed, overwrite=overwrite))
    _save(t, event)
    rec = t.rounds[number - 1]
    for g in games:
        board = next(b for b, x in rec.results.items() if x is g)
        typer.echo(f"round {number} board {board}: {g.red} - {g.black} {g.result.value}")
    missing = [p.board for p in rec.pairings if not p.is_bye and p.board not in rec.results]
    typer.echo(f"round {number}: {len(games)} result(s) entered; "
               + (f"still open: board(s) {', '.join(map(str, missing))}" if missing
                  else "complete"))


@app.command()
def withdraw(event: Path = typer.Argument(..., help="event file"),
             number: int = typer.Argument(..., help="entry number"),
             after: int | None = typer.Option(None, help="last round played (default: now)")) -> None:
    """Withdraw an entry (20.3 round robin, 20.4 Swiss)."""
    t = _load(event)
    _run(lambda: t.withdraw(number, after))
    _save(t, event)
    typer.echo(f"{number} {t.player(number).name} withdrawn after round "
               f"{t.player(number).withdrawn_after}")


@app.command()
def standings(event: Path = typer.Argument(..., help="event file"),
              fmt: str = typer.Option("text", "--format", help="text, csv, json, html")) -> None:
    """Print the standings with every tie-break column."""
    from qisai.competition import output

    t = _load(event)
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
        typer.echo(f"error: unknown format {fmt!r}", err=True)
        raise typer.Exit(2)


@app.command()
def crosstable(event: Path = typer.Argument(..., help="event file"),
               fmt: str = typer.Option("text", "--format", help="text, csv, html")) -> None:
    """Print the crosstable."""
    from qisai.competition import output

    t = _load(event)
    render = {"text": output.crosstable_text, "csv": output.crosstable_csv,
              "html": output.crosstable_html}.get(fmt)
    if render is None:
        typer.echo(f"error: unknown format {fmt!r}", err=True)
        raise typer.Exit(2)
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
