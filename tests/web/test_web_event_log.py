"""An event's log on its page and API is bounded (issue 29.2): the last
:data:`~qisai.web.events.paged.LOG_LINES` entries with the total, the rest
by ``GET /api/tournaments/{id}/log``, for every family."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role
from qisai.web.events.paged import LOG_LINES


def test_a_long_log_is_shown_by_its_end_and_read_by_pages(register: Any,
                                                          client: TestClient) -> None:
    org = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "KO", "system": "knockout"},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name in "ABCD":
        assert client.post(f"{base}/entries", json={"name": name}, headers=h).status_code == 201
    assert client.post(f"{base}/start", headers=h).status_code == 200
    # a log as long as a day's acts: written into the row, as the acts would
    total = LOG_LINES * 2 + 7
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        row = repo.get_tournament(s, ev["id"])
        log = [{"at": f"t{k}", "by": "org", "action": "note", "what": f"act {k}"}
               for k in range(total)]
        repo.save_tournament(s, ev["id"], settings={**row.settings, "log": log})
    view = client.get(base).json()
    assert view["log_total"] == total and len(view["log"]) == LOG_LINES
    assert view["log"][-1]["what"] == f"act {total - 1}"
    assert view["log"][0]["what"] == f"act {total - LOG_LINES}"
    page = client.get(f"/tournaments/{ev['id']}")
    assert page.status_code == 200
    assert "act 0<" not in page.text and f"act {total - 1}" in page.text
    assert f'/api/tournaments/{ev["id"]}/log?limit=500">{total}</a>' in page.text
    part = client.get(f"{base}/log", params={"offset": 3, "limit": 5}).json()
    assert part["total"] == total and [e["what"] for e in part["entries"]] == [
        f"act {k}" for k in range(3, 8)]
    anonymous = TestClient(client.app)  # public, as the page is
    assert anonymous.get(f"{base}/log").json()["entries"][0]["what"] == "act 0"
    assert client.get(f"{base}/log", params={"limit": 100_000}).status_code == 422
    assert client.get("/api/tournaments/999999/log").status_code == 404
