"""Shared test helpers: paths to the test data (tests/data) and the oracle engines."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTDATA = ROOT / "tests" / "data"


def find_binary(name: str) -> str | None:
    """Path of an oracle binary on PATH or in /usr/games (Debian's games dir)."""
    found = shutil.which(name)
    if found:
        return found
    candidate = Path("/usr/games") / name
    return str(candidate) if candidate.exists() else None


@pytest.fixture(scope="session")
def testdata() -> Path:
    return TESTDATA


# CI machines are shared and slow at times: no per-example deadline and no
# "too slow" health check, so a property test fails only on a wrong answer.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("qisai", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("qisai")
