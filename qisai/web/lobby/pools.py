"""Quick-pairing pools: who waits for a game on which time control, and
who is paired with whom.

A player presses a control's button and waits in its pool.  Two waiting
players are paired when their ratings differ by no more than the wider of
their two ranges; a range starts at :attr:`Pools.BASE_RANGE` and widens by
:attr:`Pools.STEP` every :attr:`Pools.STEP_SECONDS` of waiting, up to
:attr:`Pools.MAX_RANGE` (the page shows it).  Of the players in range the
nearest in rating is taken, then the one who has waited longest.

Registered players are paired with registered players for a rated game;
guests with guests for a casual game (guests play casual games only, as
everywhere in the arena).

One entry per user: pressing another button moves the entry; pressing the
same one again keeps the first entry and its waiting time (two tabs, a
reload).  An entry lives while its page asks about it: one not asked about
for :attr:`Pools.TTL` seconds is dropped, so nobody is paired with a closed
page, and a reload within that time finds the entry still there.

Bounds (a public server): at most :attr:`Pools.MAX_PER_POOL` entries in a
pool and :attr:`Pools.MAX_TOTAL` in all; guests at most
:attr:`Pools.MAX_GUESTS_PER_ADDRESS` entries from one address.

This object holds no game: :mod:`.routes` makes the game of a pair.  Time
comes from the injected source (the hub's), so tests drive it.  The pools
are kept in this process's memory; an arena of several processes keeps
them in Redis instead, under these same rules (:mod:`.shared`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from qisai.web.lobby.controls import CONTROLS

__all__ = ["Entry", "Pools", "PoolError", "Waiting"]


class PoolError(Exception):
    """A refused pool request: the HTTP ``status`` and a ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Entry:
    """One player waiting in one pool."""

    user_id: int
    pool: str
    rating: float
    rated: bool
    """Registered player (a rated game); ``False`` for a guest (casual)."""
    since: float
    seen: float
    """When the player's page last asked (see :attr:`Pools.TTL`)."""
    address: str | None = None
    """A guest's address (guests are also bounded by address)."""


@dataclass(frozen=True)
class Waiting:
    """What the page shows of an entry: the pool, seconds waited, the
    current rating range (±), and how many others wait in the pool."""

    pool: str
    waited: float
    range: int
    rating: float
    others: int


class Pools:
    """The waiting players of every pool (one entry per user)."""

    BASE_RANGE = 100
    STEP = 50
    STEP_SECONDS = 5.0
    MAX_RANGE = 800
    TTL = 30.0
    MAX_PER_POOL = 200
    MAX_TOTAL = 2000
    MAX_GUESTS_PER_ADDRESS = 2

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self._entries: dict[int, Entry] = {}
        self._counts: Counter[str] = Counter()
        """Entries by pool, kept with them (every waiting page asks each second)."""

    # ----------------------------------------------------------- queries
    def range_after(self, waited: float) -> int:
        """Return the rating range (±) after ``waited`` seconds."""
        steps = int(max(0.0, waited) // self.STEP_SECONDS)
        return min(self.MAX_RANGE, self.BASE_RANGE + self.STEP * steps)

    def entry(self, user_id: int) -> Entry | None:
        """Return the entry of ``user_id``, or ``None``."""
        return self._entries.get(user_id)

    def waiting(self, user_id: int, *, touch: bool = True) -> Waiting | None:
        """Return what the page shows of ``user_id``'s entry (``None`` if it
        has none); ``touch`` keeps the entry alive (see :attr:`TTL`)."""
        e = self._entries.get(user_id)
        if e is None:
            return None
        now = self.now()
        if touch:
            e.seen = now
        others = self._counts[e.pool] - 1
        return Waiting(e.pool, now - e.since, self.range_after(now - e.since), e.rating, others)

    def counts(self) -> dict[str, int]:
        """Return how many wait in each pool (every pool, zeros too)."""
        return {p: self._counts[p] for p in CONTROLS}

    def __len__(self) -> int:
        return len(self._entries)

    # ----------------------------------------------------------- changes
    def join(self, user_id: int, pool: str, rating: float, *, rated: bool,
             address: str | None = None) -> Entry:
        """Put ``user_id`` in ``pool``; return the entry.

        The same pool again keeps the entry (and its waiting time); another
        pool moves it.  Raises :class:`PoolError`: 404 for an unknown pool,
        503 when the pool or all pools are full, 429 beyond a guest
        address's entries.
        """
        if pool not in CONTROLS:
            raise PoolError(404, f"pool {pool!r}: there is no such quick-pairing pool")
        self.expire()
        now = self.now()
        old = self._entries.get(user_id)
        if old is not None and old.pool == pool:
            old.seen = now
            return old
        if self._counts[pool] >= self.MAX_PER_POOL:
            raise PoolError(503, f"pool {pool}: full ({self.MAX_PER_POOL} waiting); "
                                 "try again in a minute or choose another time control")
        if old is None and len(self._entries) >= self.MAX_TOTAL:
            raise PoolError(503, f"the pools are full ({self.MAX_TOTAL} waiting); "
                                 "try again in a minute")
        if address is not None and old is None:
            same = sum(1 for e in self._entries.values() if e.address == address)
            if same >= self.MAX_GUESTS_PER_ADDRESS:
                raise PoolError(429, f"at most {self.MAX_GUESTS_PER_ADDRESS} guests of one "
                                     "address may wait at once; register to play more")
        entry = Entry(user_id, pool, rating, rated, now, now, address)
        self._remove(user_id)
        self._entries[user_id] = entry
        self._counts[pool] += 1
        return entry

    def _remove(self, user_id: int) -> Entry | None:
        e = self._entries.pop(user_id, None)
        if e is not None:
            self._counts[e.pool] -= 1
        return e

    def cancel(self, user_id: int) -> bool:
        """Take ``user_id`` out of its pool; return whether it was in one."""
        return self._remove(user_id) is not None

    def expire(self) -> list[int]:
        """Drop the entries no page asked about for :attr:`TTL` seconds;
        return their users."""
        now = self.now()
        gone = [u for u, e in self._entries.items() if now - e.seen > self.TTL]
        for u in gone:
            self._remove(u)
        return gone

    def pair(self) -> list[tuple[Entry, Entry]]:
        """Take the pairs that can play out of the pools and return them,
        the longest waiting first: each with the nearest rating within the
        wider of the two ranges, of the same pool and the same ``rated``."""
        self.expire()
        now = self.now()
        groups: dict[tuple[str, bool], list[Entry]] = {}
        for e in self._entries.values():
            groups.setdefault((e.pool, e.rated), []).append(e)
        pairs: list[tuple[Entry, Entry]] = []
        for group in groups.values():
            pairs += self._pair_group(group, now)
        for a, b in pairs:
            self._remove(a.user_id)
            self._remove(b.user_id)
        pairs.sort(key=lambda p: p[0].since)
        return pairs

    def _pair_group(self, group: list[Entry], now: float) -> list[tuple[Entry, Entry]]:
        # One pool, one kind of game (rated or casual).  No range is wider
        # than MAX_RANGE, so each player's candidates are found by bisection
        # in the list sorted by rating: a pool's waiting players are mostly
        # far apart (the near ones were paired at once), so few are looked at.
        order = sorted(group, key=lambda e: (e.since, e.user_id))
        by_rating = sorted(group, key=lambda e: e.rating)
        ratings = [e.rating for e in by_rating]
        reach = {e.user_id: self.range_after(now - e.since) for e in order}
        taken: set[int] = set()
        pairs: list[tuple[Entry, Entry]] = []
        for a in order:
            if a.user_id in taken:
                continue
            lo = bisect_left(ratings, a.rating - self.MAX_RANGE)
            hi = bisect_right(ratings, a.rating + self.MAX_RANGE)
            best: Entry | None = None
            best_key: tuple[float, float, int] | None = None
            for b in by_rating[lo:hi]:
                if b.user_id == a.user_id or b.user_id in taken:
                    continue
                gap = abs(a.rating - b.rating)
                if gap > max(reach[a.user_id], reach[b.user_id]):
                    continue
                key = (gap, b.since, b.user_id)
                if best_key is None or key < best_key:
                    best, best_key = b, key
            if best is not None:
                taken.update((a.user_id, best.user_id))
                pairs.append((a, best))
        return pairs
