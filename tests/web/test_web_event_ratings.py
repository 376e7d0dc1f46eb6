"""The rating changes paper (等级分变化) of an individual event in the arena:
public like the standings, each rated player's change by the project's Elo
(checked against the formula worked out here), a clear 409 when nobody has
a rating."""

from __future__ import annotations

import io
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.papers.pdf import PapersError, find_font
from qisai.store import repo
from qisai.store.models import Role

try:
    find_font()
    NO_FONT = ""
except PapersError as exc:  # pragma: no cover - the machine has fonts-noto-cjk
    NO_FONT = str(exc)

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the papers' text")
pytestmark = pytest.mark.skipif(bool(NO_FONT), reason="no Chinese font (fonts-noto-cjk)")


def _event(client: TestClient, register: Any, ratings: tuple[int, ...]
           ) -> tuple[str, str, dict[str, str]]:
    org = register(client, f"org{ratings[0]}")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Rated RR", "system": "round_robin"},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for k, r in enumerate(ratings):
        assert client.post(f"{base}/entries", json={"name": f"p{k}", "rating": r},
                           headers=h).status_code == 201
    assert client.post(f"{base}/start", headers=h).status_code == 200
    assert client.post(f"{base}/rounds", headers=h).status_code == 200
    return base, f"/tournaments/{ev['id']}/papers/ratings.pdf", h


def test_ratings_paper(client: TestClient, register: Any) -> None:
    base, paper, h = _event(client, register, (2000, 1800))
    assert client.put(f"{base}/rounds/1/boards/1", json={"result": "1-0"},
                      headers=h).status_code == 200
    board = client.get(base).json()["rounds"][0]["boards"][0]
    rating = {"p0": 2000, "p1": 1800}
    red, black = rating[board["red_name"]], rating[board["black_name"]]
    change = 20 * (1 - 1 / (1 + 10 ** ((black - red) / 400)))  # Red won: K (S - E)
    r = client.get(paper)  # public, like the standings
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    text = "\n".join(p.extract_text() or "" for p in pypdf.PdfReader(io.BytesIO(
        r.content)).pages).replace("\x00", "")
    assert "等级分变化" in text and "p0" in text and "p1" in text
    assert f"+{change:.1f}" in text and f"-{change:.1f}" in text


def test_no_ratings_is_a_clear_409(client: TestClient, register: Any) -> None:
    _, paper, _ = _event(client, register, (0, 0))
    r = client.get(paper)
    assert r.status_code == 409 and "no player has a rating" in r.json()["detail"]
