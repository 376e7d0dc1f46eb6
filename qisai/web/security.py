"""Passwords, rate limits and the small checks every request needs.

Passwords are hashed with Argon2id (argon2-cffi, its default parameters).
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

import hashlib
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = ["RateLimiter", "check_form_token", "constant_time_equal", "form_token", "hash_password",
           "new_form_nonce", "verify_password"]

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    """Return the Argon2id hash of ``password`` (salted, self-describing)."""
    return _hasher.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Return whether ``password`` matches the ``stored`` hash (``None``, a
    guest, never matches)."""
    if not stored:
        return False
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


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
