"""Fixtures of the engine tests: the misbehaving fakes in ``fakes/`` (the real
engines, ``fairy`` and ``gnugo``, come from tests/conftest.py)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

FAKES = Path(__file__).parent / "fakes"


def fake_command(kind: str, mode: str, *extra: str) -> list[str]:
    """Command line of a fake engine (``kind`` is ``xiangqi`` or ``gtp``)."""
    return [sys.executable, str(FAKES / f"{kind}_fake.py"), mode, *extra]


@pytest.fixture(scope="session")
def fake() -> Callable[..., list[str]]:
    """``fake(kind, mode, *extra)``: the command line of a fake engine."""
    return fake_command
