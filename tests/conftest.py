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
    if MUTATION_RUN:
        mutation_order(items)
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

# Mutation runs (scripts/mutation sets QISAI_MUTATION=1; a bare `mutmut run`
# sets MUTANT_UNDER_TEST; issue 24.6) run each test once per mutant,
# thousands of times: the property tests then draw few examples, the same
# ones every run (derandomize: a mutant survives or dies the same way each
# time), and the tests run fastest first so that ``-x`` stops at the first
# cheap failure.  The normal suite is never affected.
MUTATION_RUN = (os.environ.get("QISAI_MUTATION") == "1"
                or "MUTANT_UNDER_TEST" in os.environ)
MUTATION_EXAMPLES = 12
settings.register_profile("mutation", parent=settings.get_profile("qisai"),
                          max_examples=MUTATION_EXAMPLES, derandomize=True, database=None)
if MUTATION_RUN:
    settings.load_profile("mutation")


def _cap_examples(item: pytest.Item) -> None:
    """Cap a property test's own ``@settings(max_examples=...)`` for a mutation run.

    hypothesis refuses a second ``@settings`` on a test, and an explicit
    ``max_examples`` overrides the loaded profile, so the settings object
    that ``@given`` reads at call time is replaced by a child of it.
    """
    test = getattr(item, "obj", None)
    own = getattr(test, "_hypothesis_internal_use_settings", None)
    if own is not None and own.max_examples > MUTATION_EXAMPLES:
        test._hypothesis_internal_use_settings = settings(  # type: ignore[union-attr]
            own, max_examples=MUTATION_EXAMPLES, derandomize=True, database=None)


def pytest_sessionstart(session: pytest.Session) -> None:
    """In a mutation run, start with empty memos.

    mutmut forks each mutant's test run from a process that has already run
    the tests on the unmutated code: the repetition code's shared memo
    (``qisai.xiangqi.qili.classify``'s: scans and classifications by position) would hand the
    mutant the unmutated answers."""
    if not MUTATION_RUN:
        return
    import sys

    classify = sys.modules.get("qisai.xiangqi.qili.classify")
    if classify is not None:
        classify.clear_shared_memo()


def _known_durations() -> dict[str, float]:
    """Each test's duration from mutmut's stats run: mutmut runs the tests in
    its ``mutants/`` folder, where it keeps ``mutmut-stats.json``."""
    import json

    stats = next((f for f in (Path("mutmut-stats.json"), Path("mutants", "mutmut-stats.json"))
                  if f.is_file()), None)
    if stats is None:
        return {}
    try:
        return dict(json.loads(stats.read_text(encoding="utf-8")).get("duration_by_test", {}))
    except (OSError, ValueError):
        return {}


def mutation_order(items: list[pytest.Item]) -> None:
    """For a mutation run: cap the property tests and sort fastest first."""
    for item in items:
        _cap_examples(item)
    durations = _known_durations()
    if durations:
        # unknown tests (new since the stats run) go last
        items.sort(key=lambda item: durations.get(item.nodeid, float("inf")))
