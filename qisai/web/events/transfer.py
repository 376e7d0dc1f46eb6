"""Events between the arena and the desk: export an event as the command
line's event file, import an event file as a new event (issue 16: "the
arena's events and the CLI's files are the same model").

* ``GET /api/tournaments/{id}/export`` — the event as a ``qisai-event``
  file (:class:`~qisai.competition.events.file.EventFile`): the event's
  own JSON (entries, pairings, results; the standings follow from them),
  a header made from the row (name, organiser, game) and what a file
  brought in by import carried besides (dates, venue, 裁判长, penalties
  18.1-18.4, play-offs 15.6, entry details).  ``qisai tournament`` and
  ``qisai event`` open it and go on where the arena stopped.  For the
  event's staff and site administrators only: the file holds rounds not
  yet published.
* ``POST /api/tournaments/import`` — a site organiser makes a new event of
  an event file (``qisai tournament create`` / ``qisai event create``, or
  an export); he is its organiser.  Entries, pairings and results come in
  unchanged; rounds already paired get their boards (mirror rows) so the
  arena continues them, and a started event its numbered entries.  Accounts
  are not in a file: the organiser links players to accounts afterwards, as
  for entries typed in.  422 names what is wrong with a file; the body is
  bounded like every body (1 MiB).
"""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from qisai.competition import CompetitionError, Tournament
from qisai.competition.events.file import EventFile
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.referee.errors import RefereeError
from qisai.store import repo
from qisai.store.models import Tournament as TournamentRow
from qisai.store.models import User
from qisai.web.accounts.deps import OrganiserDep, ViewerDep
from qisai.web.events.event_json import tournament_view
from qisai.web.events.model import (
    LOCK,
    Event,
    download_header,
    event_file,
    load_row,
    log_entry,
    paired_rounds,
    staff,
)
from qisai.web.events.server_games import open_boards
from qisai.web.heavy import HeavyDep
from qisai.web.play import referee_games
from qisai.web.state import AppState, SessionDep, StateDep

__all__ = ["MAX_ENTRIES", "MAX_NAME", "MAX_ROUNDS", "router"]

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

FileBody = Annotated[dict[str, Any], Body(description="an event file (format qisai-event)")]


@router.get("/{tournament_id}/export")
def export(tournament_id: int, s: SessionDep, v: ViewerDep) -> JSONResponse:
    """Download the event as an event file for ``qisai tournament`` /
    ``qisai event``.  401 without a log-in, 403 for anyone not on the
    event's staff (the file holds unpublished rounds)."""
    row = load_row(s, tournament_id)
    if v.user is None:
        raise HTTPException(401, "log in first: an event's file is for its staff")
    if not staff(s, row, v.user):
        raise HTTPException(403, f"only the staff of event {row.id} ({row.name}) may export "
                                 "it: the file holds rounds not yet published")
    try:
        ef = event_file(s, row)
    except CompetitionError as exc:
        raise HTTPException(500, f"event {row.id}: its state cannot be read ({exc})") from None
    return JSONResponse(ef.to_dict(), headers={
        "Content-Disposition": download_header(
            "attachment", f"{row.name[:60]}-{row.id}.json",
            f"{re.sub(r'[^A-Za-z0-9_-]+', '-', row.name).strip('-') or 'event'}-{row.id}.json"),
        "Cache-Control": "private, no-store"})


MAX_ENTRIES = 2000
"""Entries (players; a team event's rostered players) an imported event may
have: each becomes a row, so a file may not make the server write without
end."""
MAX_ROUNDS = 50
"""Rounds an imported event may plan or have paired (as many as an event
made in the arena may plan)."""
MAX_NAME = 200
"""Characters of an event's or an entry's name (as the arena's forms)."""


def _check_bounds(ef: EventFile) -> None:
    """422 for an event larger than the arena takes (:data:`MAX_ENTRIES`,
    :data:`MAX_ROUNDS`, :data:`MAX_NAME`)."""
    names = [p.name for p in ef.players()]
    if len(names) > MAX_ENTRIES:
        raise HTTPException(422, f"import: {len(names)} entries; the arena takes at most "
                                 f"{MAX_ENTRIES}")
    long = next((n for n in names if not 1 <= len(n) <= MAX_NAME), None)
    if long is not None:
        raise HTTPException(422, f"import: an entry's name must have 1 to {MAX_NAME} "
                                 f"characters ({long[:20]!r}...)")
    ev = ef.event
    planned = getattr(ev, "rounds_planned", None) or 0
    if max(planned, paired_rounds(ev)) > MAX_ROUNDS:
        raise HTTPException(422, f"import: more than {MAX_ROUNDS} rounds")


def _format(ef: EventFile) -> str:
    """The arena's format of an event file's event."""
    ev = ef.event
    if isinstance(ev, KnockoutEvent):
        return "double_knockout" if ev.double else "knockout"
    if isinstance(ev, GroupEvent):
        return "group_round_robin"
    if isinstance(ev, TeamEvent):
        return f"team_{ev.system}"
    if ef.kind == "mcmahon":
        return "mcmahon"
    assert isinstance(ev, Tournament)
    return ev.system.value


def _entries(s: Session, row: TournamentRow, ev: Event) -> None:
    """Register a started event's numbered entries, as the start does (in
    one transaction)."""
    if not ev.started:
        return
    if isinstance(ev, TeamEvent):
        tt = ev.team_tournament()
        repo.add_entries(s, row.id, [(number, name, None, tt.team(tid).name)
                                     for (tid, name), number in ev.member_numbers().items()])
        return
    repo.add_entries(s, row.id, [(p.id, p.name, p.rating, None) for p in ev.players])


def _boards(s: Session, row: TournamentRow, ev: Event) -> None:
    """Give every paired round its boards (mirror rows), with the results
    already in, so that the arena continues the event (an individual
    event's rounds in one transaction)."""
    if isinstance(ev, Tournament):
        rounds = []
        for rec in ev.rounds:
            boards = []
            for p in sorted(rec.pairings, key=lambda p: p.board):
                g = rec.results.get(p.board)
                boards.append((p.red, p.black,
                               None if g is None or g.black is None else g.result.value))
            rounds.append((rec.number, boards))
        repo.create_rounds(s, row.id, rounds, "otb")
        return
    for number in range(1, paired_rounds(ev) + 1):
        open_boards(s, row, ev, number, None)
        s.refresh(row)


@router.post("/import", status_code=201)
async def import_file(st: StateDep, heavy: HeavyDep, user: OrganiserDep, body: FileBody
                      ) -> dict[str, Any]:
    """Make a new event of an event file (site organisers).  422 for a file
    that is not an event file or whose event, name, game or rule profile is
    wrong; 503 with ``Retry-After`` while the server runs as many imports
    (and papers) as it takes at once (:mod:`qisai.web.heavy`)."""
    return await heavy.run("import", _import, st, user, body)


def _import(st: AppState, user: User, body: dict[str, Any]) -> dict[str, Any]:
    try:
        ef = EventFile.from_dict(body, source="the file")
    except CompetitionError as exc:
        raise HTTPException(422, f"import: {exc}") from None
    name = ef.header.name.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise HTTPException(422, f"import: the event's name must have 1 to {MAX_NAME} "
                                 "characters")
    _check_bounds(ef)
    kind = ef.header.game
    ev = ef.event
    ruleset = getattr(ev, "rules", None) or ("chinese" if kind == "go" else "cxa")
    fmt = _format(ef)
    if fmt == "mcmahon" and kind != "go":
        raise HTTPException(422, "import: McMahon is a Go pairing system; the file's game is "
                                 f"{kind}")
    settings: dict[str, Any] = {"online": True, "publish": "auto"}
    try:
        referee_games.make_rules(kind, ruleset, settings)
    except (RefereeError, CompetitionError) as exc:
        raise HTTPException(422, f"import: rule profile {ruleset!r}: {exc}") from None
    settings.update(event=ev.to_dict(), users={}, desk={
        "header": {k: v for k, v in asdict(ef.header).items() if k not in ("name", "game")},
        "penalties": [asdict(p) for p in ef.penalties],
        "playoffs": [asdict(p) for p in ef.playoffs], "extras": ef.extras})
    with LOCK, st.db.session() as s:
        row = repo.create_tournament(s, name=name, kind=kind, format=fmt, ruleset=ruleset,
                                     organiser_id=user.id, settings=settings)
        what = f"imported from an event file: {paired_rounds(ev)} round(s) paired"
        status = "finished" if ev.started and ev.finished else "running" if ev.started \
            else None
        settings = dict(row.settings)
        settings["log"] = log_entry(row, user, "import", what)
        repo.save_tournament(s, row.id, settings=settings, status=status)
        _entries(s, row, ev)
        _boards(s, row, ev)
        s.refresh(row)
        return tournament_view(s, row, user)
