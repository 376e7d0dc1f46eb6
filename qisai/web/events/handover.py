"""The event a process has just stored, handed to its own pages (issue 29).

Every result gives the event row a new revision, so the first page after
it cannot use the kept :class:`~qisai.web.events.snapshot.Snapshot`: it
used to read the settings again (a 2,000-entry, 50-round event's JSON,
``from_dict``) and rank the whole field, seconds during a round.  But the
process that wrote the result already holds the event it stored.  When
:func:`~qisai.web.events.model.save` stores an individual event it hands
over here, under the revision token it wrote in the same UPDATE as the
settings, a copy of the event (:meth:`~qisai.competition.Tournament.clone`:
the writer goes on changing its own object) and its standings, ranked
once per change in the writer (kept from the last change:
:class:`~qisai.competition.ranking.Ranker`); the next page of that
revision is made from them with nothing read.

Never stale: a hand-over is found only under the exact revision it was
written with, and that revision names exactly the state it holds; a change
by another process (or any other write of the row) gives the row another
revision, and the page reads the event from the database as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from qisai.competition import CompetitionError, Tournament
from qisai.competition.events.mcmahon_event import McMahonTournament
from qisai.competition.output import standings_rows

__all__ = ["KEPT", "HandedOver", "forget", "hand_over", "standings_view", "take"]

KEPT = 8
"""Events whose last stored state a process keeps for its pages."""


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


@dataclass(frozen=True)
class HandedOver:
    """An individual event as stored at ``revision``: the row's
    ``settings`` as written, a copy of the event (``event``, for readers
    only) and its standings (:func:`standings_view`)."""

    revision: str
    settings: dict[str, Any]
    event: Tournament
    standings: list[dict[str, Any]]


_KEPT: OrderedDict[int, HandedOver] = OrderedDict()
_LOCK = threading.Lock()


def hand_over(tournament_id: int, revision: str, settings: dict[str, Any],
              event: object) -> None:
    """Keep the state just stored in row ``tournament_id`` under
    ``revision`` (the token written with it): ``settings`` (not changed
    afterwards by the caller) and ``event``, copied here, with its
    standings.  Other families are not kept (their pages read the row)."""
    if not isinstance(event, Tournament):
        return
    try:
        rows = standings_view(event)  # on the writer's object: its ranking is kept
    except CompetitionError:
        # stored, but not rankable: nothing kept, the page reads the row and says why
        return
    kept = HandedOver(revision, settings, event.clone(), rows)
    with _LOCK:
        _KEPT[tournament_id] = kept
        _KEPT.move_to_end(tournament_id)
        while len(_KEPT) > KEPT:
            _KEPT.popitem(last=False)


def take(tournament_id: int, revision: str) -> HandedOver | None:
    """The state of row ``tournament_id`` handed over under ``revision``,
    or ``None`` (another revision, or none kept)."""
    with _LOCK:
        kept = _KEPT.get(tournament_id)
    return kept if kept is not None and kept.revision == revision else None


def forget() -> None:
    """Drop every hand-over (as a process that wrote nothing)."""
    with _LOCK:
        _KEPT.clear()
