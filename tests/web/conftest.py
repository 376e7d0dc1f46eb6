"""Fixtures for the web tests: an app on a fresh data folder, with a clock
the test drives, and helpers to make users."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.web import Settings, create_app


class FakeTime:
    """A wall clock the test moves by hand."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


def database_url(tmp_path: Path) -> str:
    """SQLite in ``tmp_path``; PostgreSQL if ``QISAI_TEST_POSTGRES_URL`` is set
    (the tests/store fixtures give each test its own schema)."""
    return f"sqlite:///{tmp_path / 'arena.sqlite3'}"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    s = Settings.from_env(tmp_path / "data", url=database_url(tmp_path))
    s.login_per_minute = 5
    return s


@pytest.fixture
def client(settings: Settings, clock: FakeTime) -> Iterator[TestClient]:
    app = create_app(settings, time_source=clock, tick_period=0.05)
    with TestClient(app) as c:
        yield c
    # No request or socket held a database connection while it asked for
    # another (issue 29.1: twenty such requests at once starve the pool).
    assert app.state.qisai.db.nested_checkouts == 0, "a request held two connections at once"


def register_user(client: TestClient, name: str, password: str = "correct horse"
                  ) -> dict[str, Any]:
    """Register ``name`` and return the session (``token``, ``csrf``, ``user``);
    the client's cookie jar is cleared so that tests authenticate by token."""
    r = client.post("/api/auth/register", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    data: dict[str, Any] = r.json()
    data["headers"] = {"Authorization": f"Bearer {data['token']}"}
    return data


@pytest.fixture
def register() -> Any:
    return register_user


if os.environ.get("QISAI_TEST_POSTGRES_URL"):  # pragma: no cover - CI with PostgreSQL
    import secrets

    from sqlalchemy import create_engine, text

    @pytest.fixture
    def settings(tmp_path: Path) -> Iterator[Settings]:  # noqa: F811
        url = os.environ["QISAI_TEST_POSTGRES_URL"]
        schema = "qisai_web_" + secrets.token_hex(4)
        admin = create_engine(url)
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        sep = "&" if "?" in url else "?"
        s = Settings.from_env(tmp_path / "data", url=f"{url}{sep}options=-csearch_path%3D{schema}")
        s.login_per_minute = 5
        yield s
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


LAUNCH = ("import typer; from qisai.cli.arena import register; "
          "app = typer.Typer(); register(app); app()")


def free_port() -> int:
    """Return a free TCP port on loopback."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def run_server(folder: Path) -> Iterator[tuple[str, Path]]:
    """Run ``qisai serve`` on a free loopback port with a data folder in
    ``folder``; yield ``(base URL, data folder)``; kill it afterwards."""
    import subprocess
    import sys
    import time

    import httpx

    data = folder / "server-data"
    port = free_port()
    env = dict(os.environ, QISAI_DATA_DIR=str(data))
    env.pop("QISAI_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "serve", "--port", str(port),
                             "--log-level", "warning"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{base}/api/rules", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise AssertionError("the server did not start")
            time.sleep(0.1)
        yield base, data
    finally:
        proc.kill()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One ``qisai serve`` for all the tests of a module (see :func:`run_server`)."""
    with run_server(tmp_path_factory.mktemp("server")) as server:
        yield server


# ------------------------------------------------------------ browser tests
BROWSER_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def module_browser(which: Callable[[str], str | None]) -> Iterator[Any]:
    """Debian's chromium (not a Playwright download) under Playwright, one
    per test module.  Not per session: while Playwright's sync API is open,
    ``asyncio.run`` fails in that thread, and other modules use it.

    When chromium or Playwright is missing the tests that use ``browser``
    were already skipped at collection (tests/conftest.py), before any
    server started; the skips here only back that up."""
    chromium = which("chromium")
    if chromium is None:
        pytest.skip("chromium not installed (scripts/install-tools)")
    sync_api = pytest.importorskip("playwright.sync_api", exc_type=ImportError,
                                   reason="playwright not installed (pip install -e '.[test]')")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
        yield b
        b.close()


@pytest.fixture
def browser(module_browser: Any) -> Iterator[Any]:
    """The module's chromium; the contexts (and pages) a test opens are
    closed after it, so tests share the browser but nothing else."""
    before = list(module_browser.contexts)
    yield module_browser
    for ctx in module_browser.contexts:
        if ctx not in before:
            ctx.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """The folder for screenshots: ``$QISAI_TEST_ARTIFACTS``, else the test's own."""
    folder = Path(os.environ.get("QISAI_TEST_ARTIFACTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def event_round(client: TestClient, base: str, n: int, headers: dict[str, str] | None = None,
                **params: Any) -> dict[str, Any]:
    """Round ``n`` of event ``base`` (``/api/tournaments/{id}``) as
    ``GET base?round=n`` shows it: the event JSON gives one round in detail
    (issue 29).  A group event's every group's boards (ask ``group=`` for
    one), a round's matches up to a page."""
    ev = client.get(base, params={"round": n, **params}, headers=headers or {}).json()
    (rnd,) = ev["rounds"]
    assert rnd["number"] == n
    return dict(rnd)


def event_rounds(client: TestClient, base: str, headers: dict[str, str] | None = None
                 ) -> list[dict[str, Any]]:
    """Every round of event ``base`` the viewer may see, each by
    :func:`event_round`."""
    ev = client.get(base, headers=headers or {}).json()
    return [event_round(client, base, x["number"], headers) for x in ev["round_links"]]


def event_groups(client: TestClient, base: str, headers: dict[str, str] | None = None
                 ) -> list[dict[str, Any]]:
    """Every group's table of group event ``base``, each as ``GET
    base?group=g`` shows it (one group at a time: issue 29)."""
    ev = client.get(base, headers=headers or {}).json()
    out = []
    for x in ev["group_links"]:
        (g,) = client.get(base, params={"group": x["group"]},
                          headers=headers or {}).json()["groups"]
        assert g["group"] == x["group"]
        out.append(g)
    return out
