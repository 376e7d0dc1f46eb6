"""An event read once and kept while it does not change (issue 29).

Reading a 2,000-entry, 50-round event from its row (the JSON of
``settings``, :meth:`~qisai.competition.Tournament.from_dict`) and ranking
it takes seconds; the event page, its paged parts and the searches are
asked far more often than the event changes.  A :class:`Snapshot` is the
row's settings as read, the event object (any family: individual,
knock-out, team, group) and what is derived from it once (an individual
event's standings and indexes; any other result by :meth:`Snapshot.memo`).

It is kept per process, keyed on the row's :attr:`revision
<qisai.store.models.Tournament.revision>`, a token every write of the row
replaces (in the same UPDATE, by whichever process writes): a page reads
that short column with the row's other small ones and never the settings
text while the event is unchanged, and any change (a result, a
correction, a withdrawal, a round paired or published, an account
linked, by this process or another) gives the next read a new snapshot,
so a kept snapshot is never stale.  A snapshot is read-only: the routes
that change an event load their own copy
(:func:`~qisai.web.events.model.load_event`).

The first page after a change this process wrote reads nothing either:
the writer handed over, under the revision it wrote, a copy of the
individual event and its standings (:mod:`qisai.web.events.handover`);
a change by another process is read from the row.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import inspect as sa_inspect
from sqlalchemy import select
from sqlalchemy.orm import Session, defer
from sqlalchemy.orm.attributes import set_committed_value

from qisai.competition import Tournament
from qisai.competition.model import Colour
from qisai.store.models import Tournament as TournamentRow
from qisai.web.events.handover import standings_view, take
from qisai.web.events.model import Event, family, read_event

__all__ = ["KEEP", "Snapshot", "forget", "light_row", "snapshot"]

KEEP = 6
"""Events a process keeps read (the most recently asked)."""

_MARK = {"win": "1", "draw": "=", "loss": "0", "forfeit_win": "+", "forfeit_loss": "-",
         "bye": "轮空"}

T = TypeVar("T")


@dataclass
class Snapshot:
    """One event as stored at ``revision``: ``settings`` (the row's,
    parsed) and ``event`` (its family's object).  An individual event's
    :attr:`standings` (best first) and :attr:`place_of` are made with it;
    the other families' derived parts are kept by :meth:`memo`."""

    tournament_id: int
    revision: str
    settings: dict[str, Any]
    event: Event
    standings: list[dict[str, Any]] = field(default_factory=list)
    place_of: dict[int, int] = field(default_factory=dict)
    """Entry number -> index of its line in :attr:`standings`."""
    _lines: dict[int, list[tuple[int, int | None, str, str]]] | None = None
    _memo: dict[Any, Any] = field(default_factory=dict)
    _lock: threading.RLock = field(default_factory=threading.RLock)

    @property
    def individual(self) -> Tournament:
        """The event as an individual one; :class:`TypeError` for another family."""
        if not isinstance(self.event, Tournament):
            raise TypeError(f"event {self.tournament_id} is not an individual event")
        return self.event

    @property
    def users(self) -> dict[str, int]:
        """The entries' accounts: name (a team member's key) -> user id."""
        users: dict[str, int] = self.settings.get("users", {})
        return users

    @property
    def hidden(self) -> set[int]:
        """The rounds not yet published."""
        return set(self.settings.get("hidden", []))

    def memo(self, key: Any, make: Callable[[], T]) -> T:
        """``make()``, computed once for this snapshot under ``key`` (the
        event does not change while the snapshot is kept).  One at a time:
        the event objects' own lazy parts are not made for threads."""
        with self._lock:
            if key not in self._memo:
                self._memo[key] = make()
            value: T = self._memo[key]
            return value

    def own_entries(self, user_id: int | None) -> list[int]:
        """The entry numbers of ``user_id``'s entries (none for ``None``)."""
        if user_id is None:
            return []

        def index() -> dict[int, list[int]]:  # once a snapshot: O(entries)
            out: dict[int, list[int]] = {}
            for p in self.individual.players:
                uid = self.users.get(p.name)
                if uid is not None:
                    out.setdefault(uid, []).append(p.id)
            return out

        return list(self.memo("own", index).get(user_id, []))

    def search(self, text: str) -> list[int]:
        """Entry numbers whose name contains ``text`` (case folded), or whose
        number is ``text``, in number order."""
        key = text.strip().casefold()
        if not key:
            return []
        return [p.id for p in self.individual.players
                if key in p.name.casefold() or key == str(p.id)]

    def lines(self, entry: int) -> list[tuple[int, int | None, str, str]]:
        """Entry ``entry``'s games by round: ``(round, opponent or None,
        colour 红/黑 or '', mark)`` (marks as the crosstable's: ``1 = 0 + -``,
        ``轮空`` for a bye).  Indexed once for every entry (O(games))."""
        with self._lock:
            if self._lines is None:
                t = self.individual
                index: dict[int, list[tuple[int, int | None, str, str]]] = {
                    p.id: [] for p in t.players}
                for g in t.games():
                    for pid in (g.red, g.black):
                        if pid is None:
                            continue
                        colour = "" if g.black is None else \
                            "红" if g.colour_of(pid) is Colour.RED else "黑"
                        index[pid].append((g.round, g.opponent_of(pid), colour,
                                           _MARK.get(g.outcome_of(pid).value, "")))
                self._lines = index
        return self._lines.get(entry, [])


_CACHE: OrderedDict[int, Snapshot] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_BUILDING: dict[int, threading.Lock] = {}
"""One build at a time per event: three views of a changed event build once."""


def light_row(s: Session, tournament_id: int) -> TournamentRow | None:
    """Event row ``tournament_id`` without its settings read (they are the
    event's whole state, megabytes for a big event): :func:`snapshot` gives
    them from the kept snapshot while its revision is the row's.  None if
    there is no such row."""
    return s.get(TournamentRow, tournament_id, options=[defer(TournamentRow.settings)])


def _kept(tournament_id: int, revision: str) -> Snapshot | None:
    with _CACHE_LOCK:
        kept = _CACHE.get(tournament_id)
        if kept is not None and kept.revision == revision:
            _CACHE.move_to_end(tournament_id)
            return kept
    return None


def snapshot(s: Session, row: TournamentRow) -> Snapshot:
    """The snapshot of event ``row`` as stored now: the kept one if the
    row's revision (as read with ``row``) is the kept one's, else a new one
    (kept in its place).  Raises :class:`ValueError` if the row is gone and
    :class:`~qisai.competition.CompetitionError` if its state cannot be
    read."""
    state = sa_inspect(row)
    if "revision" in state.unloaded:  # expired by a commit: read again (a small column)
        s.refresh(row, ["revision"])
    kept = _kept(row.id, row.revision)
    if kept is not None:
        return _settled(row, kept)
    with _CACHE_LOCK:
        gate = _BUILDING.setdefault(row.id, threading.Lock())
    with gate:
        kept = _kept(row.id, row.revision)
        if kept is not None:
            return _settled(row, kept)
        handed = take(row.id, row.revision)
        if handed is not None:  # stored by this process: its copy, ranked by the writer
            snap = Snapshot(row.id, handed.revision, handed.settings, handed.event,
                            handed.standings)
            snap.place_of = {r["number"]: k for k, r in enumerate(snap.standings)}
            return _settled(row, _keep(snap))
        if "settings" not in state.unloaded and not state.modified:
            # read with the row, unchanged since: the two are of one read
            revision, settings = row.revision, row.settings
        else:
            found = s.execute(select(TournamentRow.revision, TournamentRow.settings)
                              .where(TournamentRow.id == row.id)).first()
            if found is None:  # the row went between the two reads
                raise ValueError(f"event {row.id} is gone")
            revision, settings = found
        return _settled(row, _keep(_build(row, str(revision), settings)))


def _keep(snap: Snapshot) -> Snapshot:
    with _CACHE_LOCK:
        _CACHE[snap.tournament_id] = snap
        _CACHE.move_to_end(snap.tournament_id)
        while len(_CACHE) > KEEP:
            gone, _ = _CACHE.popitem(last=False)
            _BUILDING.pop(gone, None)
    return snap


def forget() -> None:
    """Drop every kept snapshot (as a process that has read nothing yet)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def _build(row: TournamentRow, revision: str, settings: dict[str, Any]) -> Snapshot:
    ev = read_event(row, settings["event"])
    snap = Snapshot(row.id, revision, settings, ev)
    if family(row) == "individual":
        assert isinstance(ev, Tournament)
        snap.standings = standings_view(ev)
        snap.place_of = {r["number"]: k for k, r in enumerate(snap.standings)}
    return snap


def _settled(row: TournamentRow, snap: Snapshot) -> Snapshot:
    """Give a row read without its settings (:func:`light_row`) the
    snapshot's, as if loaded (not as a change: nothing is written back).
    The row's revision may be older than the snapshot's (a write between
    the two reads): the snapshot is then the newer state, and is what the
    page shows."""
    if "settings" in sa_inspect(row).unloaded:
        set_committed_value(row, "settings", snap.settings)
    return snap
