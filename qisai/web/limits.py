"""The arena's limits counted once for the whole cluster (issue 30.5).

Without Redis every limit is a :class:`~qisai.web.security.RateLimiter` of
the process, which is right for one process and wrong for three: each
would allow the whole limit (log-ins per address 30 a minute instead of
10).  With ``QISAI_REDIS_URL`` :func:`share_limits` replaces them by
:class:`SharedRateLimiter`: the same token buckets, kept in Redis and
taken in one atomic script (Redis's own clock, so the servers' clocks need
not agree).  The players' quotas (engine games, open seeks) are checked
under a lock of the cluster and the guests' games by address kept in
Redis (:class:`~qisai.web.play.quota.SharedQuota`).

While Redis cannot be reached a limiter falls back to the process's own
buckets for a few seconds at a time (each process then limits on its own,
as before): a limit never stops the arena.  The calls are synchronous and
short (a loopback round trip; at most :data:`TIMEOUT` when Redis hangs).
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import TYPE_CHECKING, Any

from qisai.web.security import LoginGuard, RateLimiter

if TYPE_CHECKING:
    from qisai.web.state import AppState

__all__ = ["SharedRateLimiter", "share_limits"]

log = logging.getLogger("qisai.web")

TIMEOUT = 0.25
"""Seconds a limiter waits for Redis before it counts in the process."""
RETRY_AFTER = 2.0
"""Seconds a limiter counts in the process after Redis failed."""

# One token bucket, taken atomically: KEYS[1] the bucket (tokens, time),
# ARGV rate (tokens a second), burst, key life (ms).  Returns the seconds
# to wait (0: allowed) as text (Lua numbers become integers otherwise).
_TAKE = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local b = redis.call('HMGET', KEYS[1], 'k', 's')
local tokens = tonumber(b[1]) or burst
local last = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - last) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'k', tostring(tokens), 's', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return tostring(wait)
"""


class SharedRateLimiter(RateLimiter):
    """A :class:`RateLimiter` whose buckets are in Redis (``client``, a
    synchronous redis-py client), under ``qisai:rate:NAME:``; the
    process's own buckets serve while Redis fails."""

    def __init__(self, client: Any, name: str, rate: float, per: float,
                 burst: float | None = None) -> None:
        super().__init__(rate, per, burst)
        self.client = client
        self.name = name
        self._take = client.register_script(_TAKE)
        # A bucket is full again after burst / rate seconds: then it may go.
        self._life_ms = int(max(1.0, self.burst / self.rate) * 1000) + 1000
        self._local_until = 0.0

    @classmethod
    def like(cls, client: Any, name: str, local: RateLimiter) -> SharedRateLimiter:
        """Return a shared limiter with the rate and burst of ``local``."""
        return cls(client, name, local.rate, 1.0, local.burst)

    def hit(self, key: str, now: float | None = None) -> float:
        """Take one token of ``key`` for the cluster; returns 0 if allowed,
        else the seconds to wait.  ``now`` (a test's driven clock) counts
        in the process, as :meth:`RateLimiter.hit`."""
        if now is not None or time.monotonic() < self._local_until:
            return super().hit(key, now)
        digest = hashlib.blake2b(key.encode(), digest_size=12).hexdigest()
        try:
            wait = self._take(keys=[f"qisai:rate:{self.name}:{digest}"],
                              args=[repr(self.rate), repr(self.burst), self._life_ms])
            return float(wait.decode() if isinstance(wait, bytes) else wait)
        except Exception as exc:  # Redis away: count here meanwhile (never fail a request)
            if self._local_until == 0.0 or time.monotonic() >= self._local_until + 60:
                log.warning("limit %s: Redis cannot be read (%s); counting in this process",
                            self.name, exc)
            self._local_until = time.monotonic() + RETRY_AFTER
            return super().hit(key)


def share_limits(st: AppState, hub: Any, url: str) -> None:
    """Replace the limiters of ``st`` (log-in per address, per account and
    its guard's lanes, sign-up, entries) and of ``hub`` (moves, quotas) by
    ones counted in the Redis at ``url``, with the same rates."""
    import redis

    from qisai.web.play.quota import SharedQuota

    client = redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
    st.login_limiter = SharedRateLimiter.like(client, "login", st.login_limiter)
    st.signup_limiter = SharedRateLimiter.like(client, "signup", st.signup_limiter)
    st.account_limiter = SharedRateLimiter.like(client, "account", st.account_limiter)
    st.entry_limiter = SharedRateLimiter.like(client, "entry", st.entry_limiter)
    guard = st.login_guard
    st.login_guard = LoginGuard(pair=SharedRateLimiter.like(client, "pair", guard.pair),
                                slow=SharedRateLimiter.like(client, "slow", guard.slow),
                                device=SharedRateLimiter.like(client, "device", guard.device),
                                max_keys=guard.max_keys)
    hub.move_limiter = SharedRateLimiter.like(client, "moves", hub.move_limiter)
    hub.quota = SharedQuota.like(hub.quota, url)
