"""Shared test helpers: paths to the test data (tests/data) and the outside
programs some tests use (oracles, engines, the browser).

A test that needs an outside program asks for it through a fixture here
(``fairy``, ``gnugo``, ``tool``, or ``browser`` in tests/web) and is skipped
with a one-line reason when the program is missing; ``scripts/install-tools``
installs them all.  ``QISAI_TEST_HIDE=fairy-stockfish,gnugo,chromium,...``
hides installed ones, to check that those tests skip cleanly.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTDATA = ROOT / "tests" / "data"

HIDDEN = frozenset(n.strip() for n in os.environ.get("QISAI_TEST_HIDE", "").split(",") if n.strip())
"""Programs (or Python modules, e.g. ``playwright``) the tests treat as missing."""

INSTALL_HINT = "scripts/install-tools"


def find_binary(name: str) -> str | None:
    """Return the path of the program ``name`` on PATH or in /usr/games
    (Debian's games folder), or None if it is missing or hidden by
    ``QISAI_TEST_HIDE``."""
    if name in HIDDEN:
        return None
    found = shutil.which(name)
    if found:
        return found
    candidate = Path("/usr/games") / name
    return str(candidate) if candidate.is_file() and os.access(candidate, os.X_OK) else None


def missing_reason(name: str) -> str:
    """The one-line skip reason for a missing outside program ``name``."""
    return f"{name} not installed ({INSTALL_HINT})"


def require_binary(name: str) -> str:
    """Return the path of ``name``; skip the calling test if it is missing.

    Raises:
        pytest.skip.Exception: ``name`` is not installed (or is hidden).
    """
    found = find_binary(name)
    if found is None:
        pytest.skip(missing_reason(name))
    return found


def has_module(name: str) -> bool:
    """True if the Python module ``name`` can be imported and is not hidden."""
    if name in HIDDEN:
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def browser_missing() -> str | None:
    """Why the browser tests cannot run (Playwright or Debian's chromium is
    missing), or None if they can.  Decided without starting anything."""
    if not has_module("playwright"):
        return "playwright not installed (pip install -e '.[test]')"
    if find_binary("chromium") is None:
        return missing_reason("chromium")
    return None


OUTSIDE_PROGRAMS = ("fairy-stockfish", "gnugo", "maxqi", "sjaakii", "chromium")


def pytest_report_header(config: pytest.Config) -> str:
    """One header line: which outside programs this run has (the tests of
    the missing ones skip)."""
    missing = [name for name in OUTSIDE_PROGRAMS if find_binary(name) is None]
    if not has_module("playwright"):
        missing.append("playwright")
    if not os.environ.get("QISAI_TEST_POSTGRES_URL"):
        missing.append("PostgreSQL (QISAI_TEST_POSTGRES_URL)")
    if not missing:
        return "outside programs: all there"
    return f"outside programs missing, their tests skip: {', '.join(missing)} ({INSTALL_HINT})"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the browser tests at collection when they cannot run, so that no
    fixture of theirs (a server, a browser) is set up only to be skipped."""
    reason = browser_missing()
    if reason is None:
        return
    mark = pytest.mark.skip(reason=reason)
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(mark)


@pytest.fixture(scope="session")
def which() -> Callable[[str], str | None]:
    """``which(name)``: the path of an outside program, or None if it is
    missing (see :func:`find_binary`); for tests that use it only if there."""
    return find_binary


@pytest.fixture(scope="session")
def tool() -> Callable[[str], str]:
    """``tool(name)``: the path of an outside program; skips the test if it
    is missing (see :func:`require_binary`)."""
    return require_binary


@pytest.fixture(scope="session")
def fairy() -> str:
    """Path of Fairy-Stockfish; skips the test if it is not installed."""
    return require_binary("fairy-stockfish")


@pytest.fixture(scope="session")
def gnugo() -> str:
    """Path of GNU Go; skips the test if it is not installed."""
    return require_binary("gnugo")


@pytest.fixture(scope="session")
def testdata() -> Path:
    return TESTDATA


# CI machines are shared and slow at times: no per-example deadline and no
# "too slow" health check, so a property test fails only on a wrong answer.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("qisai", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("qisai")
