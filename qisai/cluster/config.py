"""Where the cluster's Redis is: ``QISAI_REDIS_URL`` (``redis://host:6379/0``).

Unset or empty: no Redis, one server process (the default)."""

from __future__ import annotations

import os

__all__ = ["check_url", "redis_url"]

MAX_URL = 2048
"""Longest Redis URL accepted (an environment variable is an input too)."""


def check_url(url: str) -> str:
    """Return ``url`` stripped if it is a Redis URL (``redis://``,
    ``rediss://`` or ``unix://``); raises :class:`ValueError` saying what is
    wrong otherwise."""
    url = url.strip()
    if len(url) > MAX_URL:
        raise ValueError(f"Redis URL too long: at most {MAX_URL} characters")
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"{url[:60]!r} is not a Redis URL: expected redis://HOST:PORT/DB, "
                         "rediss://... or unix://PATH")
    return url


def redis_url() -> str | None:
    """Return ``QISAI_REDIS_URL`` checked, or ``None`` when it is unset or
    empty.  Raises :class:`ValueError` for a value that is no Redis URL."""
    raw = os.environ.get("QISAI_REDIS_URL", "").strip()
    return check_url(raw) if raw else None
