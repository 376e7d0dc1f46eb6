"""Values the home page keeps a few seconds, refreshed behind the requests.

The home page's live boards and events calendar are the same for every
visitor for a few seconds; :class:`Kept` holds such a value per database
and, once it is older than its time to live, hands out the old value while
one worker thread makes the new one (no visitor waits for it).  Only the
very first request of a process makes the value while it waits.  A value
is at most ``ttl`` plus the time to make it old.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from sqlalchemy.orm import Session

__all__ = ["Kept"]

T = TypeVar("T")
log = logging.getLogger("qisai.web")


class Kept(Generic[T]):
    """A value per database, made by ``make(session)``, kept ``ttl`` seconds."""

    def __init__(self, make: Callable[[Session], T], ttl: float) -> None:
        self.make = make
        self.ttl = ttl
        self._values: dict[str, tuple[float, T]] = {}
        self._refreshing: set[str] = set()
        self._lock = threading.Lock()

    def _made(self, s: Session, key: str) -> T:
        value = self.make(s)
        with self._lock:
            self._values[key] = (time.monotonic(), value)
        return value

    def _refresh(self, s: Session, key: str) -> None:
        try:
            # A session of its own: the caller's ends with its request.  (The
            # request's own path makes the value in the request's session:
            # a second one would hold two connections at once, issue 29.1.)
            with Session(bind=s.get_bind()) as own:
                self._made(own, key)
        except Exception:  # the old value stays; the next request tries again
            log.exception("refreshing the home page's %s failed", self.make.__name__)
        finally:
            with self._lock:
                self._refreshing.discard(key)

    def get(self, s: Session, *, fresh: bool = False) -> T:
        """Return the value for the database of ``s``: the kept one (and
        start making a new one in a worker thread when it is older than
        ``ttl``), or, the first time or with ``fresh``, a new one made now."""
        key = str(s.get_bind().engine.url)
        with self._lock:
            hit = None if fresh else self._values.get(key)
            stale = hit is not None and time.monotonic() - hit[0] >= self.ttl
            start = stale and key not in self._refreshing
            if start:
                self._refreshing.add(key)
        if hit is None:
            return self._made(s, key)
        if start:
            threading.Thread(target=self._refresh, args=(s, key), daemon=True,
                             name="qisai-home-refresh").start()
        return hit[1]

    def forget(self) -> None:
        """Drop every kept value (the next request makes a new one)."""
        with self._lock:
            self._values.clear()
