"""One event model: every format's event behind one row.

An event row (:class:`~qisai.store.models.Tournament`) keeps its format's
event object as JSON in ``settings["event"]``; :func:`load_event` gives it
back as the format's class (:data:`Event`) and :func:`save` stores it.
Around it the row keeps the entries' accounts (``users``), the rounds not
yet published (``hidden``), the mirror map of server boards (``mirror``)
and the log of every act (``log``).  The checks every route makes (who may
act, which family of event, whether a round is open) are here too.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

from fastapi import HTTPException
from sqlalchemy.orm import Session

from qisai.competition import (
    Result,
    Tournament,
)
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.mcmahon_event import McMahonTournament
from qisai.competition.events.team_event import TeamEvent
from qisai.store import NotFoundError, repo
from qisai.store.models import Role, User
from qisai.store.models import Tournament as TournamentRow

__all__ = [
    "Event", "GROUP", "INDIVIDUAL", "KNOCKOUT", "LOCK", "TEAM", "check_open", "correction",
    "family", "group_label", "hidden_rounds", "load_event", "load_row", "log_entry",
    "member_key", "need", "own", "paired_rounds", "round_has_results", "save", "source_of",
    "staff"
]


LOCK = threading.Lock()  # read-modify-write of an event's state in this process

INDIVIDUAL = ("round_robin", "double_round_robin", "swiss")
KNOCKOUT = ("knockout", "double_knockout")
TEAM = ("team_round_robin", "team_swiss")
GROUP = ("group_round_robin",)
Event = Tournament | KnockoutEvent | TeamEvent | GroupEvent
"""An event of any format: individual (a competition-layer
:class:`~qisai.competition.Tournament`, McMahon included), knock-out, team
or group."""


def family(row: TournamentRow) -> str:
    """Return ``individual``, ``knockout``, ``team`` or ``group`` for an
    event row."""
    return "knockout" if row.format in KNOCKOUT else "team" if row.format in TEAM \
        else "group" if row.format in GROUP else "individual"


def load_event(row: TournamentRow) -> Event:
    """Return the event object of ``row``, as its format's class."""
    data = row.settings["event"]
    fam = family(row)
    if fam == "knockout":
        return KnockoutEvent.from_dict(data)
    if fam == "team":
        return TeamEvent.from_dict(data)
    if fam == "group":
        return GroupEvent.from_dict(data)
    if row.format == "mcmahon":
        return McMahonTournament.from_dict(data, source=f"tournament {row.id}")
    return Tournament.from_dict(data, source=f"tournament {row.id}")


def save(s: Session, row: TournamentRow, ev: Event, status: str | None = None,
         **extra: Any) -> None:
    """Store ``ev`` in its row (with ``extra`` settings: ``log``, ``users``,
    ``hidden``); the row is ``finished`` once the event is."""
    settings = dict(row.settings)
    settings["event"] = ev.to_dict()
    settings.update(extra)
    if status is None and ev.started and ev.finished:
        status = "finished"
    repo.save_tournament(s, row.id, settings=settings, status=status)


def load_row(s: Session, tournament_id: int) -> TournamentRow:
    """Return event row ``tournament_id``; 404 if there is none."""
    try:
        return repo.get_tournament(s, tournament_id)
    except NotFoundError as exc:
        raise HTTPException(404, str(exc)) from None


def log_entry(row: TournamentRow, user: User | None, action: str, what: str,
              reason: str | None = None) -> list[dict[str, Any]]:
    """Return the row's log with one more entry: when, by whom
    (``None``: the server), what and why."""
    entry = {"at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
             "by": None if user is None else user.username, "action": action, "what": what}
    if reason:
        entry["reason"] = reason
    return [*row.settings.get("log", []), entry]


def own(row: TournamentRow, user: User) -> None:
    """403 unless ``user`` organises this event."""
    if row.organiser_id != user.id:
        raise HTTPException(403, f"only the event's organiser (user #{row.organiser_id}) may "
                                 "do this")


def need(row: TournamentRow, *families: str) -> None:
    """409 unless the event is of one of ``families``."""
    if family(row) not in families:
        raise HTTPException(409, f"a {row.format} event has no such action "
                                 f"(it is for {' or '.join(families)} events)")


def hidden_rounds(row: TournamentRow) -> set[int]:
    """The rounds not yet published."""
    return set(row.settings.get("hidden", []))


def member_key(team: str, name: str) -> str:
    """The key of a team member in the row's ``users``."""
    return f"{team}/{name}"


def staff(user: User | None) -> bool:
    """Whether ``user`` is an arbiter or organiser."""
    return user is not None and user.role_enum.allows(Role.ARBITER)


def paired_rounds(ev: Event) -> int:
    """The number of rounds paired so far."""
    if isinstance(ev, Tournament | KnockoutEvent):
        return len(ev.rounds)
    if isinstance(ev, GroupEvent):
        return ev.paired_rounds
    return 0 if ev.tt is None else len(ev.tt.rounds)


def round_has_results(ev: Event, round_no: int) -> bool:
    """Whether round ``round_no`` has a result (a bye's aside): its
    pairings then stand."""
    if isinstance(ev, Tournament):
        rec = ev.rounds[round_no - 1]
        return any(g.result is not Result.BYE for g in rec.results.values())
    if isinstance(ev, KnockoutEvent):
        return any(ev.games.get(f"{round_no}:{m.index}") or ev.decisions.get(
            f"{round_no}:{m.index}") for m in ev.rounds[round_no - 1])
    if isinstance(ev, GroupEvent):
        return any(g.result is not Result.BYE for _, t, local in ev.round_parts(round_no)
                   for g in t.rounds[local - 1].results.values())
    assert ev.tt is not None
    return any(m.results or m.forfeit is not None or
               (m.black_team is not None and ev.matches[f"{round_no}:{m.board}"]["results"])
               for m in ev.tt.rounds[round_no - 1])


def source_of(user: User) -> str:
    """The source of a result a user enters: ``arbiter`` or ``otb``."""
    return "arbiter" if user.role == Role.ARBITER.value else "otb"


def check_open(row: TournamentRow, round_no: int) -> None:
    """409 unless round ``round_no`` is published."""
    if round_no in hidden_rounds(row):
        raise HTTPException(409, f"round {round_no} is not published yet: publish it first")


def correction(old: str | None, new: str, reason: str | None, where: str) -> str:
    """The log's action for a result entry; 422 for a correction without a reason."""
    if old is None:
        return "result"
    if old != new and not (reason and reason.strip()):
        raise HTTPException(422, f"reason: {where} already has the result {old}; say why it "
                                 "is corrected")
    return "correction"


def group_label(group: int) -> str:
    """A group in words: ``group 2``, or ``final`` for group 0."""
    return "final" if group == 0 else f"group {group}"
