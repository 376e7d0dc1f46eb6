"""Shared fixtures of the competition tests."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTDATA = Path(__file__).resolve().parents[1] / "data" / "tournament"


@pytest.fixture(scope="session")
def tdata() -> Path:
    """The tournament test data folder (tests/data/tournament)."""
    if not TESTDATA.is_dir():
        pytest.fail(f"missing test data folder {TESTDATA}")
    return TESTDATA
