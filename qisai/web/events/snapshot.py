"""An individual event read once and kept while it does not change (issue 29).

Reading a 2,000-entry, 50-round event from its row (the JSON of
``settings``, :meth:`~qisai.competition.Tournament.from_dict`) and ranking
it takes most of a second; the event page, its paged parts and the
searches are asked far more often than the event changes.  A
:class:`Snapshot` is the row's settings as read, the event object, its
standings (computed once) and indexes for paging and search.  It is kept
per process, keyed on a digest of the stored settings text: any change
(a result, a correction, a withdrawal, a round paired or published, an
account linked) changes the text, so the next read builds a new snapshot,
and a snapshot is never stale.  A snapshot is read-only: the routes that
change an event load their own copy (:func:`~qisai.web.events.model.load_event`).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Text, cast, select
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session, defer
from sqlalchemy.orm.attributes import set_committed_value

from qisai.competition import Tournament
from qisai.competition.events.mcmahon_event import McMahonTournament
from qisai.competition.model import Colour
from qisai.competition.output import standings_rows
from qisai.store.models import Tournament as TournamentRow
from qisai.web.events.model import family

__all__ = ["KEEP", "Snapshot", "light_row", "snapshot", "standings_view"]

KEEP = 4
"""Events a process keeps read (the most recently asked)."""

_MARK = {"win": "1", "draw": "=", "loss": "0", "forfeit_win": "+", "forfeit_loss": "-",
         "bye": "轮空"}


def standings_view(t: Tournament) -> list[dict[str, Any]]:
    """The standings of ``t`` as the event page and the API give them
    (:func:`~qisai.competition.output.standings_rows`; a McMahon event's
    lines with the start score and the score made)."""
    if not t.started:
        return []
    rows = standings_rows(t)
    if isinstance(t, McMahonTournament):
        for row in rows:
            # the standings' points are McMahon scores: start + points scored
            row["start"] = t.start_score(row["number"])
            row["score"] = row["points"] - row["start"]
    return rows


@dataclass
class Snapshot:
    """One individual event as stored: ``settings`` (the row's, parsed),
    ``event``, its ``standings`` (best first) and indexes over them."""

    tournament_id: int
    digest: str
    settings: dict[str, Any]
    event: Tournament
    standings: list[dict[str, Any]]
    place_of: dict[int, int] = field(default_factory=dict)
    """Entry number -> index of its line in :attr:`standings`."""
    _lines: dict[int, list[tuple[int, int | None, str, str]]] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def users(self) -> dict[str, int]:
        """The entries' accounts: name -> user id."""
        users: dict[str, int] = self.settings.get("users", {})
        return users

    def own_entries(self, user_id: int | None) -> list[int]:
        """The entry numbers of ``user_id``'s entries (none for ``None``)."""
        if user_id is None:
            return []
        names = {n for n, u in self.users.items() if u == user_id}
        return [p.id for p in self.event.players if p.name in names]

    def search(self, text: str) -> list[int]:
        """Entry numbers whose name contains ``text`` (case folded), or whose
        number is ``text``, in number order."""
        key = text.strip().casefold()
        if not key:
            return []
        return [p.id for p in self.event.players
                if key in p.name.casefold() or key == str(p.id)]

    def lines(self, entry: int) -> list[tuple[int, int | None, str, str]]:
        """Entry ``entry``'s games by round: ``(round, opponent or None,
        colour 红/黑 or '', mark)`` (marks as the crosstable's: ``1 = 0 + -``,
        ``轮空`` for a bye).  Indexed once for every entry (O(games))."""
        with self._lock:
            if self._lines is None:
                index: dict[int, list[tuple[int, int | None, str, str]]] = {
                    p.id: [] for p in self.event.players}
                for g in self.event.games():
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
_BUILD_LOCK = threading.Lock()  # one build at a time: three views of a new event build once


def _stored_text(s: Session, tournament_id: int) -> str | None:
    """The row's settings as stored (JSON text), without parsing them."""
    text = s.scalar(select(cast(TournamentRow.settings, Text))
                    .where(TournamentRow.id == tournament_id))
    return None if text is None else str(text)


def light_row(s: Session, tournament_id: int) -> TournamentRow | None:
    """Event row ``tournament_id`` without its settings read (they are the
    event's whole state, megabytes for a big event): :func:`snapshot` gives
    them from its digest.  None if there is no such row."""
    return s.get(TournamentRow, tournament_id, options=[defer(TournamentRow.settings)])


def snapshot(s: Session, row: TournamentRow) -> Snapshot:
    """The snapshot of individual event ``row`` as stored now: the kept one
    if the stored settings are unchanged, else a new one (kept in its
    place).  Raises :class:`ValueError` for an event of another family and
    :class:`~qisai.competition.CompetitionError` if its state cannot be
    read."""
    if family(row) != "individual":
        raise ValueError(f"a {row.format} event has no individual snapshot")
    text = _stored_text(s, row.id)
    if text is None:  # the row went between the two reads
        raise ValueError(f"event {row.id} is gone")
    digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
    with _CACHE_LOCK:
        kept = _CACHE.get(row.id)
        if kept is not None and kept.digest == digest:
            _CACHE.move_to_end(row.id)
            return _settled(row, kept)
    with _BUILD_LOCK:
        with _CACHE_LOCK:
            kept = _CACHE.get(row.id)
            if kept is not None and kept.digest == digest:
                return _settled(row, kept)
        settings = json.loads(text)
        data = settings["event"]
        source = f"tournament {row.id}"
        t = McMahonTournament.from_dict(data, source=source) if row.format == "mcmahon" \
            else Tournament.from_dict(data, source=source)
        rows = standings_view(t)
        snap = Snapshot(row.id, digest, settings, t, rows,
                        {r["number"]: k for k, r in enumerate(rows)})
        with _CACHE_LOCK:
            _CACHE[row.id] = snap
            _CACHE.move_to_end(row.id)
            while len(_CACHE) > KEEP:
                _CACHE.popitem(last=False)
        return _settled(row, snap)


def _settled(row: TournamentRow, snap: Snapshot) -> Snapshot:
    """Give a row read without its settings (:func:`light_row`) the
    snapshot's, as if loaded (not as a change: nothing is written back)."""
    if "settings" in sa_inspect(row).unloaded:
        set_committed_value(row, "settings", snap.settings)
    return snap
