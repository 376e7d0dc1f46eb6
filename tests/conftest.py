"""Shared test helpers: paths to ../shared and the oracle engines."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
TESTDATA = SHARED / "testdata"


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
