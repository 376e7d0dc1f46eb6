"""Fixtures for the cluster tests (issue 15): a Redis of the test's own on a
free loopback port (Debian's ``redis-server``, no persistence), a PostgreSQL
schema of the test's own (``QISAI_TEST_POSTGRES_URL``), and real ``qisai
serve`` processes on them.  Each test skips with its reason when Redis or
PostgreSQL is missing."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import LAUNCH, free_port

REDIS_SERVER = shutil.which("redis-server") or (
    "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)


class RedisServer:
    """A private ``redis-server`` on loopback that the test may stop and
    start again (on the same port)."""

    def __init__(self, folder: Path) -> None:
        assert REDIS_SERVER is not None
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import redis

        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder), "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                if redis.Redis(port=self.port, socket_timeout=0.5).ping():
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise AssertionError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (scripts/install-tools installs it)")
    pytest.importorskip("redis", reason="the cluster extra (redis) is not installed")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose search path is a schema of this test's own,
    migrated once (the servers then find nothing to migrate)."""
    url = os.environ.get("QISAI_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("QISAI_TEST_POSTGRES_URL is not set (several servers need PostgreSQL)")
    from sqlalchemy import create_engine, text

    from qisai.store import Database

    schema = "qisai_cluster_" + secrets.token_hex(4)
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in url else "?"
    full = f"{url}{sep}options=-csearch_path%3D{schema}"
    db = Database(full)
    db.upgrade()
    db.dispose()
    try:
        yield full
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


class Server:
    """One ``qisai serve`` process of the cluster."""

    def __init__(self, data: Path, db_url: str, redis_url: str, *extra: str,
                 env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        full_env = dict(os.environ, QISAI_DATA_DIR=str(data), QISAI_DATABASE_URL=db_url,
                        QISAI_REDIS_URL=redis_url, QISAI_RATE_SIGNUP="1000")
        full_env.update(env or {})
        self.proc = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, "serve", "--port", str(self.port),
             "--log-level", "warning", *extra],
            env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)

    def wait_ready(self, seconds: float = 90) -> None:
        import httpx

        deadline = time.monotonic() + seconds
        while True:
            try:
                if httpx.get(f"{self.base}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise AssertionError(f"the server on {self.port} did not start")
            time.sleep(0.1)

    def kill9(self) -> None:
        """``kill -9`` the process (no shutdown: its leases expire)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill9()


def _postgres_bin(name: str) -> str | None:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                   key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    return str(found[-1]) if found else shutil.which(name)


class PrivatePostgres:
    """A PostgreSQL cluster of its own (``initdb`` in a temporary folder,
    loopback only, fsync off: the system keeps what a killed server wrote;
    never synchronous_commit off, which loses acknowledged commits in a
    crash) that a test or a bench may stop and start
    again on the same port -- never the shared server other tests use.
    As root the server runs as the ``postgres`` user (PostgreSQL refuses
    root)."""

    def __init__(self) -> None:
        initdb, self.pg_ctl = _postgres_bin("initdb"), _postgres_bin("pg_ctl")
        if initdb is None or self.pg_ctl is None:
            raise FileNotFoundError("initdb/pg_ctl not found (Debian's postgresql)")
        self.folder = Path(tempfile.mkdtemp(prefix="qisai-pg-"))
        self._as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        self.url = f"postgresql+psycopg://qisai@127.0.0.1:{self.port}/postgres"
        subprocess.run([*self._as, initdb, "-D", str(self.folder / "data"), "-U", "qisai",
                        "--auth=trust", "-E", "UTF8", "--no-sync"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> None:
        assert self.pg_ctl is not None
        opts = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                "-c fsync=off -c max_connections=200")
        subprocess.run([*self._as, self.pg_ctl, "-D", str(self.folder / "data"), "-o", opts,
                        "-l", str(self.folder / "log"), "-w", "start"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self) -> None:
        """Stop at once (``immediate``: what a crash leaves, connections cut)."""
        assert self.pg_ctl is not None
        subprocess.run([*self._as, self.pg_ctl, "-D", str(self.folder / "data"), "-m",
                        "immediate", "-w", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def own_pg() -> Iterator[PrivatePostgres]:
    """A PostgreSQL of the test's own, migrated, that it may stop (skips
    where PostgreSQL's programs are missing)."""
    try:
        pg = PrivatePostgres()
    except (FileNotFoundError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"no private PostgreSQL: {exc}")
    try:
        pg.start()
        from qisai.store import Database

        db = Database(pg.url)
        db.upgrade()
        db.dispose()
        yield pg
    finally:
        pg.remove()


@pytest.fixture
def cluster(tmp_path: Path, pg_url: str, redis_server: RedisServer) -> Iterator[Any]:
    """Start server processes on the test's PostgreSQL and Redis:
    ``cluster(n, *extra_args)`` returns ``n`` ready :class:`Server` (they
    share a data folder, hence the secret key that signs sessions)."""
    yield from _cluster(tmp_path, pg_url, redis_server)


@pytest.fixture
def own_cluster(tmp_path: Path, own_pg: PrivatePostgres, redis_server: RedisServer
                ) -> Iterator[Any]:
    """:func:`cluster` on a PostgreSQL of the test's own (``.pg``), which
    the test may stop and start."""
    for start in _cluster(tmp_path, own_pg.url, redis_server):
        start.pg = own_pg  # type: ignore[attr-defined]
        yield start


def _cluster(tmp_path: Path, pg_url: str, redis_server: RedisServer) -> Iterator[Any]:
    from qisai.web.settings import load_secret_key

    data = tmp_path / "data"
    data.mkdir()
    load_secret_key(data)  # made once, before the processes race for it
    started: list[Server] = []

    def start(n: int, *extra: str, env: dict[str, str] | None = None) -> list[Server]:
        servers = [Server(data, pg_url, redis_server.url, *extra, env=env) for _ in range(n)]
        started.extend(servers)
        for s in servers:
            s.wait_ready()
        return servers

    start.redis = redis_server  # type: ignore[attr-defined]
    start.db_url = pg_url  # type: ignore[attr-defined]
    try:
        yield start
    finally:
        for s in started:
            s.stop()


def register(base: str, name: str) -> dict[str, Any]:
    """Register ``name`` on the server at ``base``; return the session with
    its ``headers`` (a bearer token)."""
    import httpx

    r = httpx.post(f"{base}/api/auth/register",
                   json={"username": name, "password": "correct horse battery"}, timeout=10)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    data["headers"] = {"Authorization": f"Bearer {data['token']}"}
    return data


class Socket:
    """A game socket (the ``websockets`` client, synchronous), keeping every
    message it received."""

    def __init__(self, ws_base: str, game_id: str, who: dict[str, Any] | None = None) -> None:
        from websockets.sync.client import connect

        headers = who["headers"] if who is not None else {}
        self.conn = connect(f"{ws_base}/ws/games/{game_id}", additional_headers=headers,
                            open_timeout=30)
        self.seen: list[dict[str, Any]] = []

    def next(self, kind: str | tuple[str, ...], timeout: float = 30.0) -> dict[str, Any]:
        """Return the next message of type ``kind`` (or of one of the types
        ``kind`` names), keeping the others.

        The wait ends when the message comes; its bound is generous because
        on two loaded cores the servers' processes wait their turn (a 10 s
        bound failed at load 15 on tests that pass at once when quiet)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                msg: dict[str, Any] = json.loads(self.conn.recv(timeout=left))
            except TimeoutError:
                raise AssertionError(f"no {kind!r} message within {timeout} s; "
                                     f"seen: {[m.get('type') for m in self.seen[-5:]]}") from None
            self.seen.append(msg)
            if msg["type"] in ((kind,) if isinstance(kind, str) else kind):
                return msg

    def send(self, msg: dict[str, Any]) -> None:
        self.conn.send(json.dumps(msg))

    def drain(self, seconds: float = 0.5) -> None:
        """Read whatever arrives within ``seconds``."""
        deadline = time.monotonic() + seconds
        with contextlib.suppress(TimeoutError):
            while (left := deadline - time.monotonic()) > 0:
                self.seen.append(json.loads(self.conn.recv(timeout=left)))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()

    def shown_ply(self) -> int:
        """The latest ply this socket was shown, by an update or by a full
        state (a process that finds its copy behind sends every socket the
        full state instead of the update it missed)."""
        plies = [int(m["state"]["ply"]) for m in self.seen
                 if m["type"] in ("state", "update") and isinstance(m.get("state"), dict)]
        return max(plies, default=0)

    def moves(self) -> list[str]:
        """The moves and passes this socket was told of, in the order
        received: each update's notices, each once; a full state (sent to
        every socket of a process that found its copy behind) gives the
        whole record, and an update of a ply that state already showed
        adds nothing (a second update of one ply still shows twice)."""
        out: list[str] = []
        shown_by_state = 0
        for msg in self.seen:
            state = msg.get("state") if isinstance(msg.get("state"), dict) else {}
            if msg["type"] == "state" and isinstance(state.get("moves"), list):
                out = [str(m.get("move") or "pass") for m in state["moves"]]
                shown_by_state = len(out)
            elif msg["type"] == "update":
                if int(state.get("ply", 0)) <= shown_by_state:
                    continue
                for note in msg["notices"]:
                    if note["type"] in ("moved", "passed"):
                        out.append(str((note.get("data") or {}).get("move", "pass")))
        return out
