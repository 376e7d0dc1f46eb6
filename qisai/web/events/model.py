"""One event model: every format's event behind one row.

An event row (:class:`~qisai.store.models.Tournament`) keeps its format's
event object as JSON in ``settings["event"]``; :func:`load_event` gives it
back as the format's class (:data:`Event`) and :func:`save` stores it.
Around it the row keeps the entries' accounts (``users``), the rounds not
yet published (``hidden``), the mirror map of server boards (``mirror``)
and the log of every act (``log``).  The checks every route makes (who may
act, which family of event, whether a round is open) are here too.

Who may act on an event is the event's staff (:func:`authorise`), never a
site role alone: its organisers (its creator, and those appointed), its
chief arbiter (裁判长) and arbiters (16.2: the organising body appoints the
arbiters of its event), and the site's administrators.  Nobody rules on a
game he plays in (17.4: the arbiter rules impartially).
"""

from __future__ import annotations

import datetime as dt
import enum
import threading
from collections import OrderedDict
from collections.abc import Collection
from typing import Any

from fastapi import HTTPException
from sqlalchemy.orm import Session

from qisai.competition import (
    Result,
    Tournament,
)
from qisai.competition.events.file import EventFile
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.mcmahon_event import McMahonTournament
from qisai.competition.events.team_event import TeamEvent
from qisai.store import NotFoundError, repo
from qisai.store.models import Role, StaffRole, User, new_revision
from qisai.store.models import Tournament as TournamentRow
from qisai.web.events.handover import hand_over

__all__ = [
    "Act", "Event", "GROUP", "INDIVIDUAL", "KNOCKOUT", "LOCK", "OWN_GAME", "TEAM", "authorise",
    "check_open", "correction", "download_header", "event_file", "staff_role",
    "family", "group_label", "hidden_rounds", "load_event", "load_row", "log_entry",
    "member_key", "need", "own", "paired_rounds", "read_event", "round_has_results", "save",
    "source_of",
    "staff"
]


LOCK = threading.Lock()  # read-modify-write of an event's state in this process

INDIVIDUAL = ("round_robin", "double_round_robin", "swiss")
KNOCKOUT = ("knockout", "double_knockout")
TEAM = ("team_round_robin", "team_swiss", "team_all_play_all")
"""Team formats; ``team_all_play_all`` (12.4 全队轮赛制) comes in by import
(:mod:`.transfer`) from ``qisai tournament``."""
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


_WORKING: OrderedDict[int, Event] = OrderedDict()
"""Events this process saved last, by row id (at most :data:`WORKING`):
see :func:`load_event`."""
_WORKING_LOCK = threading.Lock()
WORKING = 8
"""Events whose last saved object a process keeps for the next change."""


def load_event(row: TournamentRow) -> Event:
    """Return the event object of ``row``, as its format's class.

    Reading a 500-entry event from its JSON takes 15 ms of CPU (2.6 times
    writing it back), and every finished server board of a round reads and
    writes it (issue 29).  So the object this process saved last is kept
    and given back, once, when it still writes exactly the stored JSON
    (2 ms): a change made elsewhere (another process, a failed save, a
    caller that changed the object without saving) fails that comparison
    and the JSON is read afresh."""
    data = row.settings["event"]
    with _WORKING_LOCK:
        kept = _WORKING.pop(row.id, None)
    if kept is not None and kept.to_dict() == data:
        return kept
    return read_event(row, data)


def read_event(row: TournamentRow, data: dict[str, Any]) -> Event:
    """Return the event of ``row`` read from ``data`` (its stored
    ``settings["event"]``) as its format's class.  Raises
    :class:`~qisai.competition.CompetitionError` if it cannot be read."""
    fam = family(row)
    if fam == "knockout":
        return KnockoutEvent.from_dict(data)
    if fam == "team" and row.format == "team_all_play_all":
        from qisai.competition.events.allplay_event import AllPlayAllEvent

        return AllPlayAllEvent.from_dict(data)
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
    # the revision token written with this state, in the same UPDATE (set here,
    # the column's own default is not used): the hand-over's key below
    revision = row.revision = new_revision()
    repo.save_tournament(s, row.id, settings=settings, status=status)
    with _WORKING_LOCK:  # kept for the next change (load_event); stored, so committed
        _WORKING[row.id] = ev
        _WORKING.move_to_end(row.id)
        while len(_WORKING) > WORKING:
            _WORKING.popitem(last=False)
    # this process's next page of the event is made from what it just stored
    hand_over(row.id, revision, settings, ev)


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


class Act(enum.StrEnum):
    """What a member of an event's staff does; each needs a part in it."""

    RUN = "run"
    """Entries, teams, the start, line-ups, the staff: the event's organisers."""
    PAIR = "pair"
    """Pairing and publishing rounds: organisers and the chief arbiter."""
    RULE = "rule"
    """Results, corrections, withdrawals, decisions, forfeits, fouls and
    warnings, colour choices for a player: every member of the staff."""


ADMIN = "admin"
"""The part of a site administrator who is not on an event's staff: he may
do anything an organiser of it may."""
PARTS: dict[Act, frozenset[str]] = {
    Act.RUN: frozenset({StaffRole.ORGANISER.value, ADMIN}),
    Act.PAIR: frozenset({StaffRole.ORGANISER.value, StaffRole.CHIEF_ARBITER.value, ADMIN}),
    Act.RULE: frozenset({StaffRole.ORGANISER.value, StaffRole.CHIEF_ARBITER.value,
                         StaffRole.ARBITER.value, ADMIN}),
}
WHO: dict[Act, str] = {
    Act.RUN: "the event's organisers",
    Act.PAIR: "the event's organisers and chief arbiter",
    Act.RULE: "the event's staff (organisers, chief arbiter, arbiters)",
}
OWN_GAME = ("you play in this game: an arbiter may not rule on his own game (17.4: the "
            "arbiter rules impartially); another arbiter of the event must")
"""The refusal when a member of the staff would rule on his own game."""


def staff_role(s: Session, row: TournamentRow, user: User | None) -> str | None:
    """The part of ``user`` in event ``row``: a :class:`StaffRole` value,
    ``admin`` for a site administrator not on its staff, or ``None``."""
    if user is None or user.role == Role.GUEST.value:
        return None
    if row.organiser_id == user.id:
        return StaffRole.ORGANISER.value
    for member in repo.event_staff(s, row.id):
        if member.user_id == user.id:
            return member.role
    return ADMIN if user.role == Role.ADMIN.value else None


def authorise(s: Session, row: TournamentRow, user: User | None, act: Act,
              players: Collection[int] = ()) -> str:
    """Return ``user``'s part in event ``row`` if it allows ``act``; 401
    without a user, 403 for anyone else, and 403 when he plays in the game
    (``players``: its accounts) he would rule on."""
    if user is None:
        raise HTTPException(401, "log in first")
    part = staff_role(s, row, user)
    if part not in PARTS[act]:
        raise HTTPException(403, f"only {WHO[act]} may do this in event {row.id} "
                                 f"({row.name}); you are not on its staff"
                            if part is None else
                            f"only {WHO[act]} may do this in event {row.id} ({row.name}); "
                            f"you are its {part.replace('_', ' ')}")
    if user.id in players:
        raise HTTPException(403, OWN_GAME)
    return part


def own(s: Session, row: TournamentRow, user: User) -> None:
    """403 unless ``user`` organises this event (or administers the site)."""
    authorise(s, row, user, Act.RUN)


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


def staff(s: Session, row: TournamentRow, user: User | None) -> bool:
    """Whether ``user`` is on the staff of event ``row`` (or administers the site)."""
    return staff_role(s, row, user) is not None


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


def source_of(part: str) -> str:
    """The source of a result a member of the staff (his ``part``) enters:
    ``arbiter`` or ``otb`` (an organiser's entry of an over-the-board result)."""
    return "arbiter" if part in (StaffRole.ARBITER.value, StaffRole.CHIEF_ARBITER.value) \
        else "otb"


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


_FILE_KINDS = {"knockout": "knockout", "team": "team", "group": "groups"}


def event_file(s: Session, row: TournamentRow) -> EventFile:
    """The event of ``row`` as an event file, the one model of the arena's
    papers, its export and the command line (issue 33.4): its event, a
    header from the row (and the dates, venue, 裁判长 and 主办 an imported
    file brought; else the organiser's display name as 主办), and the
    penalties (18.1-18.4), play-offs and entry details kept from an import.
    Raises :class:`CompetitionError` if the stored event cannot be read."""
    fam = family(row)
    kind = _FILE_KINDS.get(fam) or ("mcmahon" if row.format == "mcmahon" else "individual")
    desk: dict[str, Any] = row.settings.get("desk", {})
    try:
        organiser = repo.get_user(s, row.organiser_id).display_name
    except NotFoundError:
        organiser = ""
    head = dict(desk.get("header", {}))
    head.update(name=row.name, game="go" if row.kind == "go" else "xiangqi")
    if not head.get("organiser"):
        head["organiser"] = organiser
    data = {"format": "qisai-event", "version": 1, "kind": kind, "header": head,
            "penalties": desk.get("penalties", []), "playoffs": desk.get("playoffs", []),
            "extras": desk.get("extras", {}), "event": row.settings["event"]}
    return EventFile.from_dict(data, source=f"tournament {row.id}")


def download_header(disposition: str, name: str, fallback: str) -> str:
    """A ``Content-Disposition`` value for a file called ``name`` (the
    event's own name, Chinese and all): RFC 6266 ``filename*`` in UTF-8
    (RFC 5987), with the ASCII ``fallback`` as ``filename`` for old
    clients.  Characters a file name may not hold (``/ \\ " : * ? < > |``,
    control characters) become ``-``."""
    import re
    from urllib.parse import quote

    clean = re.sub(r'[\x00-\x1f\x7f/\\":*?<>|]+', "-", name).strip(" .-") or fallback
    plain = re.sub(r'[^A-Za-z0-9_.-]+', "-", fallback).strip("-") or "event"
    return f"{disposition}; filename=\"{plain}\"; filename*=UTF-8''{quote(clean, safe='')}"
