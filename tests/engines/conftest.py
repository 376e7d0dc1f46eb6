"""Fixtures of the engine tests: the real engines (skipped with a reason when
missing; CI installs them) and the misbehaving fakes in ``fakes/``."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

FAKES = Path(__file__).parent / "fakes"


def find_binary(name: str) -> str | None:
    """Return the path of ``name`` on PATH or in /usr/games, or None."""
    found = shutil.which(name)
    if found:
        return found
    candidate = Path("/usr/games") / name
    return str(candidate) if candidate.exists() and os.access(candidate, os.X_OK) else None


FAIRY = find_binary("fairy-stockfish")
GNUGO = find_binary("gnugo")



def fake_command(kind: str, mode: str, *extra: str) -> list[str]:
    """Command line of a fake engine (``kind`` is ``xiangqi`` or ``gtp``)."""
    return [sys.executable, str(FAKES / f"{kind}_fake.py"), mode, *extra]


@pytest.fixture(scope="session")
def fairy() -> str:
    """Path of Fairy-Stockfish; skips the test if it is not installed."""
    if FAIRY is None:
        pytest.skip("fairy-stockfish is not installed (CI installs it: apt-get install fairy-stockfish)")
    return FAIRY


@pytest.fixture(scope="session")
def gnugo() -> str:
    """Path of GNU Go; skips the test if it is not installed."""
    if GNUGO is None:
        pytest.skip("gnugo is not installed (CI installs it: apt-get install gnugo)")
    return GNUGO


@pytest.fixture(scope="session")
def fake() -> Callable[..., list[str]]:
    """``fake(kind, mode, *extra)``: the command line of a fake engine."""
    return fake_command
