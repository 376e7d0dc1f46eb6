"""Issue 14 item 10: integers beyond 64 bits in paths and queries are 404 or
422, never 500."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qisai.web import Settings, create_app

HUGE = "99999999999999999999"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("path", [
    f"/api/users/{HUGE}", f"/users/{HUGE}", f"/api/users/-{HUGE}", "/api/users/9223372036854775808",
    f"/api/tournaments/{HUGE}", f"/tournaments/{HUGE}", f"/api/games/{HUGE}", f"/games/{HUGE}",
    f"/api/tournaments?limit={HUGE}", f"/api/users/{'9' * 5000}",
])
def test_get_with_a_huge_integer_is_not_a_server_error(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code in (200, 404, 422), (r.status_code, r.text[:200])
    assert len(r.content) < 1000


def test_a_huge_user_id_is_404_or_422(client: TestClient) -> None:
    assert client.get(f"/api/users/{HUGE}").status_code in (404, 422)
    assert client.get("/api/users/9223372036854775807").status_code == 404


@pytest.mark.parametrize("path", [
    f"/api/tournaments/{HUGE}/start", f"/api/tournaments/{HUGE}/rounds",
    f"/api/tournaments/1/rounds/{HUGE}/publish",
])
def test_post_with_a_huge_integer_is_not_a_server_error(client: TestClient, path: str) -> None:
    r = client.post("/api/auth/register", json={"username": "org", "password": "correct horse"})
    headers = {"Authorization": f"Bearer {r.json()['token']}"}
    client.cookies.clear()
    r = client.post(path, headers=headers)
    assert r.status_code < 500, (r.status_code, r.text[:200])
