"""Standings kept from one change of an event to the next (issue 29).

Ranking a 2,000-entry, 50-round event afresh (clause 15's points and
tie-breaks, 18.4's penalties) reads 100,000 encounters and takes over half
a second, and during a round it is asked after every result.  A result
changes little: the record of its two entries, and, when their points
change, the 对手分 and 小分 of their opponents (15.2: both sum opponents'
final points) and, if the lowest score changes, what a bye counts (2011
14.4).  A :class:`Ranker` keeps each entry's record, points and criterion
values, and when asked again works out which games were added or went
(by object, then by value), recomputes only the entries they touch, and
places the whole field again (:func:`~qisai.competition.tiebreaks.place`:
a sort, and 直胜 for each tied group).

Each value is computed exactly as :func:`~qisai.competition.tiebreaks.rank`
computes it, from the entry's whole record in round order, so the kept
standings are always the ones a full ranking gives (tested against it
over random events).  Anything else that changes (the entries, their
penalties, the points table, the criteria, the policy: the ``setup``)
ranks afresh.  Pure: no I/O.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import replace
from typing import Any

from qisai.competition.model import Game, Outcome
from qisai.competition.tiebreaks import (
    Criterion,
    FieldContext,
    Record,
    Standing,
    TiebreakPolicy,
    entry_values,
    place,
)

__all__ = ["RecordsOf", "Ranker"]

RecordsOf = Callable[[Collection[int], Sequence[Game], bool], dict[int, Record]]
"""How an event makes records: ``(entries, games, strict)`` -> the records
of ``entries`` from ``games`` (strict: a game naming another entry is an
error; else only the sides of ``entries`` are read)."""

_FRESH = 4
"""A change touching more than a ``1/_FRESH`` share of the games ranks afresh
(a reloaded event whose games are all new objects, a round robin's 20.3)."""


class Ranker:
    """One event's standings, kept and updated (see the module).  One event
    object's; asked from several threads (pages share a kept event), it
    works for one at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._setup: Hashable | None = None
        self._games: dict[int, Game] = {}
        """The games ranked, by ``id``: kept alive, so an id stays its game's."""
        self._of: dict[int, dict[int, Game]] = {}
        """Entry -> its games by id."""
        self._records: dict[int, Record] = {}
        self._score: dict[int, float] = {}
        self._values: dict[int, dict[Criterion, Any]] = {}
        self._byes: set[int] = set()
        """Entries with a bye (what a bye adds to 对手分 follows the lowest score)."""
        self._bye_value = 0.0
        self._standings: list[Standing] | None = None

    def __reduce__(self) -> tuple[type[Ranker], tuple[()]]:
        # a pickled or deep-copied event (a paper drawn in a worker process)
        # gets a fresh ranker: the games it keeps are known by their ids,
        # which a copy's games do not have
        return (Ranker, ())

    def copy(self) -> Ranker:
        """A ranker with this one's state that shares nothing it changes
        (records, games and values are replaced, never changed in place)."""
        new = Ranker()
        with self._lock:
            new._setup, new._bye_value = self._setup, self._bye_value
            new._games = dict(self._games)
            new._of = {e: dict(g) for e, g in self._of.items()}
            new._records, new._score = dict(self._records), dict(self._score)
            new._values, new._byes = dict(self._values), set(self._byes)
            new._standings = self._standings
        return new

    def standings(self, setup: Hashable, entries: Sequence[int], games: Sequence[Game],
                  records_of: RecordsOf, criteria: Sequence[Criterion],
                  policy: TiebreakPolicy) -> list[Standing]:
        """The standings of ``entries`` after ``games`` (as
        :func:`~qisai.competition.tiebreaks.rank` of ``records_of(entries,
        games, True)`` gives them), best first; each call returns its own
        copy.  ``setup`` is everything else the records and the ranking
        read (compared with ``==``: a change ranks afresh), including
        ``entries``, ``criteria`` and ``policy``.

        Raises :class:`~qisai.competition.CompetitionError` if a game
        names an entry not in ``entries``.
        """
        with self._lock:
            return self._standings_of(setup, entries, games, records_of, criteria, policy)

    def _standings_of(self, setup: Hashable, entries: Sequence[int], games: Sequence[Game],
                      records_of: RecordsOf, criteria: Sequence[Criterion],
                      policy: TiebreakPolicy) -> list[Standing]:
        pos = {id(g): k for k, g in enumerate(games)}
        if setup != self._setup or self._standings is None or len(pos) != len(games):
            return self._fresh(setup, entries, games, records_of, criteria, policy)
        added = [g for g in games if id(g) not in self._games]
        gone = [g for k, g in self._games.items() if k not in pos]
        if not added and not gone:
            return _copied(self._standings)
        if len(added) + len(gone) > len(games) // _FRESH + 2:
            return self._fresh(setup, entries, games, records_of, criteria, policy)
        # a game gone and one added with the same value (the same result in
        # a reloaded round) changes no record: only the kept object changes
        same: dict[Game, list[Game]] = {}
        for g in gone:
            same.setdefault(g, []).append(g)
        really_added = []
        for g in added:
            twin = same.get(g)
            if twin:
                self._swap(twin.pop(), g)
            else:
                really_added.append(g)
        really_gone = [g for twins in same.values() for g in twins]
        touched = {pid for g in (*really_added, *really_gone) for pid in (g.red, g.black)
                   if pid is not None}
        if not touched <= self._records.keys():
            return self._fresh(setup, entries, games, records_of, criteria, policy)
        for g in really_gone:
            self._drop(g)
        for g in really_added:
            self._add(g)
        return self._update(touched, pos, records_of, criteria, policy)

    # -- the parts ---------------------------------------------------------------
    def _fresh(self, setup: Hashable, entries: Sequence[int], games: Sequence[Game],
               records_of: RecordsOf, criteria: Sequence[Criterion],
               policy: TiebreakPolicy) -> list[Standing]:
        records = records_of(entries, games, True)  # raises for an unknown entry
        self._setup = None  # set again once all is made (a raise leaves no half state)
        self._games = {id(g): g for g in games}
        self._of = {e: {} for e in records}
        for g in games:
            for pid in (g.red, g.black):
                if pid is not None:
                    self._of[pid][id(g)] = g
        self._records = records
        ctx = FieldContext(records, policy)
        self._score, self._bye_value = ctx.score, ctx.bye_value
        self._values = {e: entry_values(rec, criteria, ctx) for e, rec in records.items()}
        self._byes = {e for e, rec in records.items() if _has_bye(rec)}
        self._standings = place(records, self._score, self._values, criteria, policy)
        self._setup = setup
        return _copied(self._standings)

    def _swap(self, old: Game, new: Game) -> None:
        del self._games[id(old)]
        self._games[id(new)] = new
        for pid in (old.red, old.black):
            if pid is not None:
                del self._of[pid][id(old)]
                self._of[pid][id(new)] = new

    def _drop(self, g: Game) -> None:
        del self._games[id(g)]
        for pid in (g.red, g.black):
            if pid is not None:
                del self._of[pid][id(g)]

    def _add(self, g: Game) -> None:
        self._games[id(g)] = g
        for pid in (g.red, g.black):
            if pid is not None:
                self._of[pid][id(g)] = g

    def _update(self, touched: set[int], pos: dict[int, int], records_of: RecordsOf,
                criteria: Sequence[Criterion], policy: TiebreakPolicy) -> list[Standing]:
        # the touched entries' records, from their games in the order a full
        # ranking reads them (the event's game order), so every sum is the same
        for e in touched:
            mine = sorted(self._of[e].values(), key=lambda g: pos[id(g)])
            self._records[e] = records_of((e,), mine, False)[e]
        moved = set()
        for e in touched:
            points = self._records[e].points
            if points != self._score[e]:
                moved.add(e)
            self._score[e] = points
            if _has_bye(self._records[e]):
                self._byes.add(e)
            else:
                self._byes.discard(e)
        ctx = FieldContext(self._records, policy, self._score)
        # 对手分 and 小分 sum the opponents' points (15.1, 15.2)
        again = set(touched)
        for e in moved:
            again.update(x.opponent for x in self._records[e].encounters
                         if x.opponent is not None and x.opponent in self._records)
        if ctx.bye_value != self._bye_value:  # what a bye adds (2011 14.4)
            again |= self._byes
            self._bye_value = ctx.bye_value
        for e in again:
            self._values[e] = entry_values(self._records[e], criteria, ctx)
        self._standings = place(self._records, self._score, self._values, criteria, policy)
        return _copied(self._standings)


def _has_bye(rec: Record) -> bool:
    return any(x.outcome is Outcome.BYE for x in rec.encounters)


def _copied(standings: list[Standing]) -> list[Standing]:
    """The caller's copy: lines and their values are its own."""
    return [replace(s, values=dict(s.values)) for s in standings]
