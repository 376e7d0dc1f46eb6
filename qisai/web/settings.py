"""Server settings, from the environment with safe defaults.

* ``QISAI_DATA_DIR`` / ``QISAI_DATABASE_URL``: see :mod:`qisai.store.config`.
* ``QISAI_SECURE_COOKIES`` (or ``QISAI_COOKIE_SECURE``): ``1`` to mark
  cookies ``Secure`` always; without it they are ``Secure`` when the
  request came over HTTPS (see :mod:`qisai.web.headers`).
* ``QISAI_TRUSTED_PROXIES``: the proxies whose ``X-Forwarded-Proto`` and
  ``X-Forwarded-For`` are believed (uvicorn's ``forwarded_allow_ips``:
  addresses or networks, comma-separated, ``*`` for any; 127.0.0.1).
* ``QISAI_RATE_LOGIN``: log-in attempts a minute per address, whatever the
  names (10).
* ``QISAI_RATE_LOGIN_ACCOUNT``: log-in attempts an hour per user name,
  whatever the addresses (30).
* ``QISAI_RATE_MOVES``: moves a second per user, burst twice that (10).
* ``QISAI_RATE_SIGNUP``: new accounts and guest sessions an hour per
  address (30).
* ``QISAI_ENGINE_PROCESSES``: most engine processes at once (the CPUs);
  ``QISAI_ENGINE_IDLE``: seconds an idle one is kept (120);
  ``QISAI_ENGINE_WAIT``: most seconds a move waits for a free one (30).
* ``QISAI_DISCOVER_ENGINES``: ``1`` to offer the engines installed here
  (Fairy-Stockfish, GNU Go, Pachi, KataGo) at named levels; ``qisai serve``
  does unless ``--no-discover-engines`` or ``0``.
* ``QISAI_ENGINE_GAMES``: unfinished engine games a player may have (2);
  ``QISAI_OPEN_SEEKS``: open seeks a player may have (3);
  ``QISAI_GUEST_ENGINE_GAMES`` / ``QISAI_GUEST_SEEKS``: the same for all
  the guests of one address together (4, 6).
* ``QISAI_REDIS_URL``: the Redis of several server processes (issue 15;
  unset: one process); ``QISAI_ENGINE_QUEUE``: ``1`` to have engine moves
  played by ``qisai worker`` processes through that Redis;
  ``QISAI_METRICS_ALLOW``: the addresses that may read ``/metrics``
  (comma-separated; default the loopback addresses).
* ``QISAI_INFLIGHT_CLIENT``: HTTP requests one session may have in progress
  at once (8); ``QISAI_INFLIGHT_ADDRESS``: the same for one address without
  a session (32); one more is answered 429 at once
  (:mod:`qisai.web.inflight`).
* ``QISAI_HEAVY_JOBS``: printed papers and event imports run at once (2);
  one more is answered 503 with ``Retry-After`` (:mod:`qisai.web.heavy`).
* ``QISAI_DB_POOL_TIMEOUT``: seconds a request waits for a pooled database
  connection before it is answered 503 (5; :mod:`qisai.store.db`).

The secret key is generated on first start and kept in the data folder
(``secret_key``, mode 0600); it is never in the repository.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from qisai.cluster.config import redis_url
from qisai.store.config import data_dir, database_url

__all__ = ["Settings", "load_secret_key"]


def load_secret_key(folder: Path) -> str:
    """Return the server's secret key from ``folder/secret_key``, creating it
    (32 random bytes, hex, mode 0600) on first start.

    Raises :class:`OSError` if the file cannot be read or created.
    """
    path = folder / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text().strip()
        if len(key) >= 32:
            return key
        raise OSError(f"{path}: the secret key is too short; delete the file to make a new one"
                      ) from None
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    return key


def _float_env(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"environment variable {name}={raw!r} is not a number") from None
    if not 0 < value <= 600:
        raise ValueError(f"environment variable {name}={raw!r} must be in (0, 600] seconds")
    return value


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"environment variable {name}={raw!r} is not a whole number") from None
    if value < 1:
        raise ValueError(f"environment variable {name}={raw!r} must be at least 1")
    return value


@dataclass
class Settings:
    """Everything the app needs to start."""

    data_dir: Path
    database_url: str
    secret_key: str
    cookie_secure: bool = False
    trusted_proxies: str = "127.0.0.1"
    """Where a believed ``X-Forwarded-Proto`` may come from (uvicorn's
    ``forwarded_allow_ips``)."""
    login_per_minute: int = 10
    login_per_account_hour: int = 30
    moves_per_second: int = 10
    signups_per_hour: int = 30
    session_days: int = 30
    engines: dict[str, str] = field(default_factory=dict)
    """Configured external engines: name -> command line (``--engine``)."""
    engine_think: float = 1.0
    """Seconds an engine opponent thinks a move when its clock allows
    (``QISAI_ENGINE_THINK``, ``--engine-think``)."""
    engine_draw_cp: int = 30
    """An engine opponent accepts a draw offer in an ending when its own
    score is within this many centipawns of level (``QISAI_ENGINE_DRAW_CP``;
    23.1, :mod:`qisai.web.seats.draws`)."""

    count_limit: float = 600.0
    """Seconds a Go count (the dead-stone phase, 4(4)) waits for the
    players' confirmations before the server counts the board as marked
    (``QISAI_COUNT_LIMIT``; :mod:`qisai.web.play.count_limit`)."""

    discover_engines: bool = False
    """Look for the strong engines installed here at start-up and offer them
    at their levels (:mod:`qisai.engines.discovery`); ``qisai serve`` turns
    it on (``--no-discover-engines``, ``QISAI_DISCOVER_ENGINES=0``)."""

    engine_processes: int = 0
    """Most engine processes at once (0: the number of CPUs)
    (``QISAI_ENGINE_PROCESSES``, ``--engine-processes``)."""
    engine_nice: int = 10
    """Steps of niceness the arena's engine processes get over the server
    (0-19; ``QISAI_ENGINE_NICE``, ``--engine-nice``): they search with the
    CPU the server leaves (issue 14.2)."""
    engine_idle: float = 120.0
    """Seconds an idle engine process is kept for the next game."""
    engine_wait: float = 30.0
    """Most seconds a move waits for a free engine process."""
    engine_games_per_player: int = 2
    """Unfinished games against an engine a player may have."""
    seeks_per_player: int = 3
    """Open seeks a player may have."""
    guest_engine_games_per_address: int = 4
    """Unfinished engine games all the guests of one address may have."""
    guest_seeks_per_address: int = 6
    """Open seeks all the guests of one address may have."""
    redis_url: str | None = None
    """The cluster's Redis (``QISAI_REDIS_URL``); ``None``: one process."""
    engine_queue: bool = False
    """Engine moves go to ``qisai worker`` processes (needs ``redis_url``)."""
    metrics_allow: tuple[str, ...] = ("127.0.0.1", "::1")
    """Client addresses that may read ``/metrics`` (``QISAI_METRICS_ALLOW``)."""
    inflight_per_client: int = 8
    """HTTP requests one session may have in progress at once
    (``QISAI_INFLIGHT_CLIENT``; :mod:`qisai.web.inflight`)."""
    inflight_per_address: int = 32
    """HTTP requests one address without a session may have in progress at
    once (``QISAI_INFLIGHT_ADDRESS``)."""
    http_threads: int = 4
    """Worker threads for the HTTP routes' blocking work
    (``QISAI_HTTP_THREADS``; :func:`qisai.web.app.create_app`); more
    requests wait for one, holding none.  Every busy thread takes its
    turn at the interpreter lock against the event loop that carries the
    games' moves: anyio's default 40 gave the loop a forty-first of it
    while a burst of requests ran, the event day's move tail (issue 29.4).
    Raise it for a database across a network (threads then mostly wait
    for it, the lock free)."""
    heavy_jobs: int = 2
    """Heavy jobs (printed papers, event imports) run at once; more are
    answered 503 with ``Retry-After`` (``QISAI_HEAVY_JOBS``; issue 29)."""

    @property
    def pepper(self) -> bytes:
        """Return the key for session-token hashes (from the secret key)."""
        return self.secret_key.encode()

    @classmethod
    def from_env(cls, folder: Path | None = None, url: str | None = None) -> Settings:
        """Return settings from the environment (``folder``/``url`` override).

        Raises :class:`ValueError` for a malformed variable and
        :class:`OSError` if the data folder cannot be used.
        """
        folder = folder if folder is not None else data_dir()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return cls(
            data_dir=folder,
            database_url=url or database_url(folder),
            secret_key=load_secret_key(folder),
            cookie_secure=any(os.environ.get(name, "").lower() in ("1", "true", "yes")
                              for name in ("QISAI_SECURE_COOKIES", "QISAI_COOKIE_SECURE")),
            trusted_proxies=os.environ.get("QISAI_TRUSTED_PROXIES", "").strip() or "127.0.0.1",
            login_per_minute=_int_env("QISAI_RATE_LOGIN", 10),
            login_per_account_hour=_int_env("QISAI_RATE_LOGIN_ACCOUNT", 30),
            moves_per_second=_int_env("QISAI_RATE_MOVES", 10),
            signups_per_hour=_int_env("QISAI_RATE_SIGNUP", 30),
            engine_think=_float_env("QISAI_ENGINE_THINK", 1.0),
            engine_draw_cp=_int_env("QISAI_ENGINE_DRAW_CP", 30),
            count_limit=_float_env("QISAI_COUNT_LIMIT", 600.0),
            engine_processes=_int_env("QISAI_ENGINE_PROCESSES", 0),
            discover_engines=os.environ.get("QISAI_DISCOVER_ENGINES", "").lower()
            in ("1", "true", "yes"),
            engine_nice=_int_env("QISAI_ENGINE_NICE", 10),
            engine_idle=_float_env("QISAI_ENGINE_IDLE", 120.0),
            engine_wait=_float_env("QISAI_ENGINE_WAIT", 30.0),
            engine_games_per_player=_int_env("QISAI_ENGINE_GAMES", 2),
            seeks_per_player=_int_env("QISAI_OPEN_SEEKS", 3),
            guest_engine_games_per_address=_int_env("QISAI_GUEST_ENGINE_GAMES", 4),
            guest_seeks_per_address=_int_env("QISAI_GUEST_SEEKS", 6),
            redis_url=redis_url(),
            engine_queue=os.environ.get("QISAI_ENGINE_QUEUE", "").lower() in ("1", "true", "yes"),
            metrics_allow=tuple(a.strip() for a in os.environ.get(
                "QISAI_METRICS_ALLOW", "127.0.0.1,::1").split(",") if a.strip()),
            inflight_per_client=_int_env("QISAI_INFLIGHT_CLIENT", 8),
            inflight_per_address=_int_env("QISAI_INFLIGHT_ADDRESS", 32),
            heavy_jobs=_int_env("QISAI_HEAVY_JOBS", 2),
            http_threads=_int_env("QISAI_HTTP_THREADS", 4),
        )
