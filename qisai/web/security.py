"""Passwords, rate limits and the small checks every request needs.

Passwords are hashed with Argon2id (argon2-cffi) at OWASP's first
recommended setting: 19 MiB of memory, 2 passes, 1 lane
(:data:`ARGON2_PARAMS`).  argon2-cffi's own default (64 MiB, 3 passes, 4
lanes) is a desktop's setting: on a server each hash in flight holds its
64 MiB, so a burst of log-ins grew the process by a gigabyte.  A hash says
its own parameters, so the older ones still verify; a log-in that verifies
an older hash stores a new one (:meth:`Passwords.verify`).

Hashing is the one costly thing an anonymous client can make the server
do, so :class:`Passwords` lets at most ``max_active`` hashes run at once
(2) with at most ``max_waiting`` requests queued behind them (8), first
come first served and at most two from one address; past that it raises
:class:`HashBusy` (the API answers 429 with Retry-After) rather than
piling threads.  The log-in gives its database connection back before it
queues, so waiting log-ins hold none of the pool the other requests need.  A log-in for a name that does not exist
verifies against a dummy hash made once at start-up, so it costs the same
one hash as a wrong password and its timing does not tell which names
exist.

Rate limits are token buckets kept in memory per process: behind several
processes each limits on its own, which still bounds guessing.

CSRF: a logged-in session has its own token (kept with the session, sent
back in ``X-CSRF-Token``).  The forms used *before* there is a session (log
in, register, guest) get a token bound to a random per-browser nonce kept in
an HttpOnly cookie: the token is the HMAC of the nonce under the server's
key, so a page on another site can neither read the nonce nor compute the
token (the signed double-submit pattern).  Both are compared with
:func:`constant_time_equal`.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import threading
import time
import weakref
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from qisai.engines.process import lower_priority

__all__ = ["ARGON2_PARAMS", "HashBusy", "HashGate", "LoginGuard", "Passwords", "RateLimiter",
           "check_device", "check_form_token", "constant_time_equal", "device_token",
           "form_token", "new_form_nonce", "new_hasher"]

_T = TypeVar("_T")

ARGON2_PARAMS: dict[str, int] = {"time_cost": 2, "memory_cost": 19 * 1024, "parallelism": 1}
"""Argon2id at OWASP's first recommended setting (m=19 MiB, t=2, p=1): with
two hashes at once the server holds 38 MiB for hashing, not 64 MiB per
thread; t=2 makes up for the smaller memory (OWASP's equivalent settings
trade one for the other)."""

HASH_NICE = 10
"""Steps of niceness of the threads that compute password hashes, over the
thread that starts them (Linux sets it per thread): a flood of log-ins gets
the CPU the event loop leaves, and cannot delay the moves of every game
(issue 14.3).  The gate still bounds how many hashes run at once."""


def _nicer_thread() -> None:
    lower_priority(threading.get_native_id(), HASH_NICE)


def new_hasher() -> PasswordHasher:
    """Return an Argon2id hasher with :data:`ARGON2_PARAMS`."""
    return PasswordHasher(time_cost=ARGON2_PARAMS["time_cost"],
                          memory_cost=ARGON2_PARAMS["memory_cost"],
                          parallelism=ARGON2_PARAMS["parallelism"])


class HashBusy(Exception):
    """Too many password hashes are running or queued: try again shortly."""

    retry_after = 1


class HashGate:
    """At most ``max_active`` password hashes at once; behind them a fair
    queue: first come, first served, at most ``max_waiting`` callers and at
    most ``per_client`` of them from one client (an address), each waiting
    up to ``timeout`` seconds.  Anyone else gets :class:`HashBusy` at once
    (the API answers 429), so a flood of log-ins neither piles up threads
    nor takes the places of other clients in the queue.

    ``active``, ``waiting`` and ``peak`` (the most ever active at once) are
    there for tests and monitoring.
    """

    def __init__(self, max_active: int = 2, max_waiting: int = 8, timeout: float = 5.0,
                 per_client: int = 2) -> None:
        self.max_active = max_active
        self.max_waiting = max_waiting
        self.timeout = timeout
        self.per_client = per_client
        self.active = 0
        self.waiting = 0
        self.peak = 0
        self._cond = threading.Condition()
        self._queue: deque[object] = deque()
        self._by_client: Counter[str] = Counter()

    @contextlib.contextmanager
    def slot(self, client: str = "") -> Iterator[None]:
        """Hold one of the hashing slots for the ``with`` block, after the
        callers queued before this one (``client``: who asks, for the
        per-client bound).

        Raises :class:`HashBusy` when the queue (or this client's share of
        it) is full, or the wait times out.
        """
        with self._cond:
            if self.active >= self.max_active or self._queue:
                if len(self._queue) >= self.max_waiting \
                        or self._by_client[client] >= self.per_client:
                    raise HashBusy
                ticket = object()
                self._queue.append(ticket)
                self._by_client[client] += 1
                self.waiting += 1
                try:
                    ok = self._cond.wait_for(
                        lambda: self._queue[0] is ticket and self.active < self.max_active,
                        self.timeout)
                finally:
                    self._queue.remove(ticket)
                    self._by_client[client] -= 1
                    if not self._by_client[client]:
                        del self._by_client[client]
                    self.waiting -= 1
                    self._cond.notify_all()  # the next in line may be first now
                if not ok:
                    raise HashBusy
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            yield
        finally:
            with self._cond:
                self.active -= 1
                self._cond.notify_all()


class Passwords:
    """The app's password hashing: :data:`ARGON2_PARAMS`, every hash through
    one :class:`HashGate`, and a dummy hash (made once, at start-up) that
    unknown names are checked against."""

    def __init__(self, hasher: PasswordHasher | None = None, gate: HashGate | None = None) -> None:
        self.hasher = hasher or new_hasher()
        self.gate = gate or HashGate()
        self._pool = ThreadPoolExecutor(max_workers=self.gate.max_active,
                                        thread_name_prefix="qisai-argon2",
                                        initializer=_nicer_thread)
        """The hashes run on these few threads only: the C allocator keeps
        a freed Argon2 block in the arena of the thread that used it, so
        hashing on any of the server's 40 worker threads left up to 40
        blocks resident; on ``max_active`` threads it leaves at most that
        many."""
        weakref.finalize(self, self._pool.shutdown, wait=False)
        self.dummy = self._run(self.hasher.hash, secrets.token_hex(16))
        """A hash of a random secret nobody knows: what a log-in with an
        unknown name (or a guest's, who has no password) is checked
        against, so it costs one hash like any other."""

    def _run(self, fn: Callable[..., _T], *args: Any) -> _T:
        return self._pool.submit(fn, *args).result()

    def hash(self, password: str, client: str = "") -> str:
        """Return the hash of ``password`` (``client``: who asks, for the
        gate's fair queue).  Raises :class:`HashBusy`."""
        with self.gate.slot(client):
            return self._run(self.hasher.hash, password)

    def verify(self, stored: str | None, password: str, client: str = ""
               ) -> tuple[bool, str | None]:
        """Check ``password`` against ``stored`` (``None``: no such user, or
        no password); exactly one hash is computed either way.  ``client``:
        who asks, for the gate's fair queue.

        Returns ``(ok, new hash)``: the new hash (to store) when ``ok`` and
        ``stored`` was made with other parameters, else ``None``.
        Raises :class:`HashBusy`.
        """
        with self.gate.slot(client):
            return self._run(self._verify, stored, password)

    def _verify(self, stored: str | None, password: str) -> tuple[bool, str | None]:
        try:
            ok = self.hasher.verify(stored or self.dummy, password) and bool(stored)
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or stored is None or not self.hasher.check_needs_rehash(stored):
            return ok, None
        return True, self.hasher.hash(password)


def constant_time_equal(a: str, b: str) -> bool:
    """Return whether two strings are equal, in time independent of where
    they differ."""
    return hmac.compare_digest(a.encode(), b.encode())


def new_form_nonce() -> str:
    """Return a fresh random nonce for the pre-session form cookie (32 bytes, hex)."""
    return secrets.token_hex(32)


def form_token(key: bytes, nonce: str) -> str:
    """Return the CSRF token of the pre-session forms for cookie ``nonce``:
    HMAC-SHA256 of the nonce under the server's ``key`` (hex)."""
    return hmac.new(key, b"qisai-form-csrf:" + nonce.encode(), hashlib.sha256).hexdigest()


def check_form_token(key: bytes, nonce: str | None, sent: str | None) -> bool:
    """Return whether ``sent`` is the form token of cookie ``nonce`` (both
    present, compared in constant time)."""
    if not nonce or not sent:
        return False
    return constant_time_equal(sent, form_token(key, nonce))


class RateLimiter:
    """Token buckets by key: ``rate`` tokens a ``per`` seconds, at most
    ``burst`` saved up.  Keeps at most ``max_keys`` keys (oldest dropped)."""

    def __init__(self, rate: float, per: float, burst: float | None = None,
                 max_keys: int = 100_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate / per
        self.clock = clock
        """Seconds from any origin; tests pass a clock they drive."""
        self.burst = burst if burst is not None else rate
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def hit(self, key: str, now: float | None = None) -> float:
        """Take one token for ``key``.  Returns 0 if allowed, else the
        seconds to wait before the next token."""
        t = self.clock() if now is None else now
        tokens, last = self._buckets.pop(key, (self.burst, t))
        tokens = min(self.burst, tokens + (t - last) * self.rate)
        if tokens >= 1:
            self._buckets[key] = (tokens - 1, t)
            wait = 0.0
        else:
            self._buckets[key] = (tokens, t)
            wait = (1 - tokens) / self.rate
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return wait


class LoginGuard:
    """The per-account log-in limits that do not lock the owner out
    (OWASP's Authentication Cheat Sheet: lock-outs as a denial of service;
    device cookies).

    * ``pair``: tries for one account from one address (all the time);
    * the app's account limiter (all addresses) still runs; when it is
      empty the account is *held*: a try from an address goes on only
      through ``slow``, its own much slower bucket for that account and
      address, so an owner whose address tried no wrong passwords still
      gets in with his password while the attackers' addresses wait;
    * a *known device* (a browser the account logged in from, with its
      signed cookie: :func:`device_token`) skips the account limiter and
      the slow lane, counted on its own in ``device``;
    * ``held``: the tries refused for each account, told to its owner at
      his next log-in with the wrong passwords counted in the database.
    """

    def __init__(self, pair: RateLimiter | None = None, slow: RateLimiter | None = None,
                 device: RateLimiter | None = None, max_keys: int = 100_000) -> None:
        self.pair = pair or RateLimiter(10, 3600.0)
        self.slow = slow or RateLimiter(1, 900.0)
        self.device = device or RateLimiter(10, 3600.0)
        self.max_keys = max_keys
        self.held: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def note_held(self, account: str) -> None:
        """Count one try refused for ``account`` (its lower-case name)."""
        with self._lock:
            self.held[account] = self.held.pop(account, 0) + 1
            while len(self.held) > self.max_keys:
                self.held.popitem(last=False)

    def take_held(self, account: str) -> int:
        """Return and forget the tries refused for ``account``."""
        with self._lock:
            return self.held.pop(account, 0)


def device_token(key: bytes, user_id: int) -> str:
    """Return a new known-device cookie for account ``user_id``: a random
    nonce and its HMAC under the server's ``key``, bound to the account."""
    nonce = secrets.token_hex(16)
    return f"{nonce}.{_device_mac(key, user_id, nonce)}"


def check_device(key: bytes, user_id: int, cookie: str | None) -> str | None:
    """Return the nonce of ``cookie`` if it is a known-device cookie of
    account ``user_id`` (compared in constant time), else ``None``."""
    if not cookie or cookie.count(".") != 1 or len(cookie) > 200:
        return None
    nonce, mac = cookie.split(".")
    return nonce if constant_time_equal(mac, _device_mac(key, user_id, nonce)) else None


def _device_mac(key: bytes, user_id: int, nonce: str) -> str:
    return hmac.new(key, f"qisai-device:{user_id}:{nonce}".encode(),
                    hashlib.sha256).hexdigest()
