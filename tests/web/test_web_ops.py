"""Operations routes (issue 15 item 5): /healthz and /readyz for anyone,
/metrics in Prometheus's text format for the operator's addresses only,
counting the moves the arena stores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from qisai.store import Database
from qisai.web import Settings, create_app
from tests.web.test_web_socket import receive_until, setup_game


def _samples(text: str) -> dict[str, float]:
    """Parse the exposition with the client library's own parser (an
    independent reader of the format) into name -> value."""
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            # Every sample names its process (issue 30.6); the others
            # carry more labels (the requests' routes).
            if set(sample.labels) == {"process"}:
                out[sample.name] = sample.value
    return out


def test_health_and_readiness_are_public(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.get("/readyz")
    assert r.status_code == 200
    body = r.json()
    loops = body.pop("loops")  # the background loops (the ticker): each ok, if noted yet
    assert body == {"status": "ready", "database": "ok"}  # no Redis configured: no check
    assert set(loops.values()) <= {"ok"}


def test_readiness_fails_when_the_database_is_gone(settings: Settings, clock: Any,
                                                   tmp_path: Path) -> None:
    app = create_app(settings, time_source=clock)
    with TestClient(app) as c:
        real = app.state.qisai.db
        # A database that cannot be opened (its folder does not exist).
        app.state.qisai.db = Database(f"sqlite:///{tmp_path / 'missing' / 'x.sqlite3'}")
        try:
            r = c.get("/readyz")
        finally:
            app.state.qisai.db = real
    assert r.status_code == 503 and r.json()["database"] == "down"


def test_metrics_refused_to_other_addresses(client: TestClient) -> None:
    # TestClient's address is "testclient", not a loopback address.
    r = client.get("/metrics")
    assert r.status_code == 403
    assert "QISAI_METRICS_ALLOW" in r.json()["detail"]
    assert "qisai_moves" not in r.text


def test_metrics_count_moves_games_and_sockets(settings: Settings, clock: Any,
                                               register: Any) -> None:
    settings.metrics_allow = ("testclient",)
    app = create_app(settings, time_source=clock, tick_period=0.05)
    with TestClient(app) as client:
        before = _samples(client.get("/metrics").text)
        assert before["qisai_moves_total"] == 0 and before["qisai_sockets"] == 0
        red, black, gid = setup_game(client, register)
        with client.websocket_connect(f"/ws/games/{gid}", headers=red["headers"]) as wr, \
                client.websocket_connect(f"/ws/games/{gid}", headers=black["headers"]) as wb:
            receive_until(wr, "state")
            receive_until(wb, "state")
            wr.send_json({"type": "move", "ply": 1, "move": "h2e2", "id": "a"})
            receive_until(wr, "ack")
            wb.send_json({"type": "move", "ply": 2, "move": "h9g7", "id": "b"})
            receive_until(wb, "ack")
            wb.send_json({"type": "move", "ply": 2, "move": "h9g7", "id": "c"})  # a repeat
            assert receive_until(wb, "ack")["duplicate"] is True
            r = client.get("/metrics")
            assert r.headers["content-type"].startswith("text/plain")
            now = _samples(r.text)
        assert now["qisai_moves_total"] == 2  # the repeat is not a new move
        assert now["qisai_move_latency_seconds_count"] == 2
        assert now["qisai_live_games"] == 1 and now["qisai_sockets"] == 2
        assert now["qisai_queue_depth"] == 0  # no engine queue
