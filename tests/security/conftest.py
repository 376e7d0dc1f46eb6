"""Fixtures for the security tests: the web tests' own (an app on a fresh
data folder, SQLite or PostgreSQL when ``QISAI_TEST_POSTGRES_URL`` is set,
a live ``qisai serve``, the browser), loaded from tests/web/conftest.py so
that both folders test the same app the same way; and a few helpers."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

_spec = importlib.util.spec_from_file_location(
    "qisai_tests_web_conftest", Path(__file__).resolve().parent.parent / "web" / "conftest.py")
assert _spec is not None and _spec.loader is not None
_web = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_web)

FakeTime = _web.FakeTime
register_user = _web.register_user
clock = _web.clock
settings = _web.settings
client = _web.client
register = _web.register
live_server = _web.live_server
module_browser = _web.module_browser
browser = _web.browser
shots = _web.shots


@pytest.fixture
def st(client: TestClient) -> Any:
    """The running app's :class:`~qisai.web.state.AppState`."""
    return client.app.state.qisai  # type: ignore[attr-defined]


@pytest.fixture
def from_address(client: TestClient) -> Callable[[str], TestClient]:
    """``from_address(host)``: a client of the same running app whose
    requests come from ``host``."""
    return lambda host: TestClient(client.app, client=(host, 50000))
