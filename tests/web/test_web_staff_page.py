"""An event's staff page (``/tournaments/{id}/staff``, issue 14 items 1 and 7).

Everyone may see who an event's staff are (16.2: the organisers, the chief
arbiter 裁判长 and the arbiters they appoint); only the event's organisers
and the site's administrators get the controls to appoint and remove them,
and the API they use refuses everyone else: the event's chief arbiter and
arbiters, another event's organiser, a site arbiter, a player, a guest, an
anonymous visitor.  The event's creator stays its organiser.

Run on SQLite, and on PostgreSQL when ``QISAI_TEST_POSTGRES_URL`` is set.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def make_role(client: TestClient, user: dict[str, Any], role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user["user"]["id"], role)


def guest(client: TestClient) -> dict[str, Any]:
    form = client.get("/api/auth/csrf").json()["csrf"]
    g: dict[str, Any] = client.post("/api/auth/guest", headers={"X-CSRF-Token": form}).json()
    client.cookies.clear()
    g["headers"] = {"Authorization": f"Bearer {g['token']}"}
    return g


def page(client: TestClient, url: str, who: dict[str, Any] | None) -> str:
    r = client.get(url, headers=who["headers"] if who else {})
    assert r.status_code == 200, r.text
    return r.text


def test_staff_page_shows_the_staff_and_its_controls_to_organisers_only(
        register: Any, client: TestClient) -> None:
    people = {n: register(client, n) for n in ("org", "coorg", "chief", "arb", "rival",
                                               "sitearb", "boss", "pl", "newarb")}
    for n in ("org", "coorg", "rival"):
        make_role(client, people[n], Role.ORGANISER)
    make_role(client, people["sitearb"], Role.ARBITER)
    make_role(client, people["boss"], Role.ADMIN)
    h = people["org"]["headers"]
    ev = client.post("/api/tournaments", json={"name": "Spring", "system": "swiss",
                                               "rounds": 3}, headers=h).json()
    api = f"/api/tournaments/{ev['id']}/staff"
    url = f"/tournaments/{ev['id']}/staff"
    for name, role in (("coorg", "organiser"), ("chief", "chief_arbiter"), ("arb", "arbiter")):
        assert client.post(api, json={"username": name, "role": role},
                           headers=h).status_code == 200
    assert client.post(f"/api/tournaments/{ev['id']}/entries", json={"username": "pl"},
                       headers=h).status_code == 201
    g = guest(client)
    # the event's page links to its staff page
    assert f'href="/tournaments/{ev["id"]}/staff"' in page(client, f"/tournaments/{ev['id']}",
                                                            None)
    # everyone sees the staff, in the page's language
    html = page(client, url, None)
    for name in ("org", "coorg", "chief", "arb"):
        assert f"<td>{name}</td>" in html
    assert "Chief arbiter" in html and 'id="appoint"' not in html
    zh = client.get(url, headers={"Accept-Language": "zh-CN"}).text
    assert "裁判长" in zh and "16.2" in zh
    # the controls: the event's organisers (its creator, one appointed) and
    # an administrator; nobody else
    for name in ("org", "coorg", "boss"):
        html = page(client, url, people[name])
        assert 'id="appoint"' in html and f'data-remove="{people["arb"]["user"]["id"]}"' in html
        assert f'data-remove="{people["org"]["user"]["id"]}"' not in html  # the creator stays
    others = [people[n] for n in ("chief", "arb", "rival", "sitearb", "pl")] + [g]
    for who in [*others, None]:
        html = page(client, url, who)
        assert 'id="appoint"' not in html and "data-remove" not in html
    # ... and the API they would use refuses them
    newarb = people["newarb"]["user"]["id"]
    assert client.post(api, json={"username": "newarb"}).status_code == 401
    assert client.delete(f"{api}/{people['arb']['user']['id']}").status_code == 401
    for who in others:
        r = client.post(api, json={"username": "newarb"}, headers=who["headers"])
        assert r.status_code == 403, (who["user"]["username"], r.text)
        r = client.delete(f"{api}/{people['arb']['user']['id']}", headers=who["headers"])
        assert r.status_code == 403
    assert "newarb" not in [m["username"] for m in client.get(api).json()]
    # those with the controls appoint and remove; the log names them
    r = client.post(api, json={"username": "newarb", "role": "arbiter"},
                    headers=people["coorg"]["headers"])
    assert r.status_code == 200 and "newarb" in [m["username"] for m in r.json()]
    r = client.delete(f"{api}/{newarb}", headers=people["boss"]["headers"])
    assert r.status_code == 200 and "newarb" not in [m["username"] for m in r.json()]
    log = client.get(f"/api/tournaments/{ev['id']}").json()["log"]
    assert [(e["by"], e["what"]) for e in log[-2:]] == [
        ("coorg", "newarb appointed arbiter"), ("boss", "newarb removed from the staff")]
    # bad input: a clear refusal, never a crash
    assert client.post(api, json={"username": "nobody"}, headers=h).status_code == 404
    assert client.post(api, json={"username": g["user"]["username"]},
                       headers=h).status_code == 422
    assert client.post(api, json={"username": "x" * 41}, headers=h).status_code == 422
    assert client.post(api, json={"username": "arb", "role": "king"},
                       headers=h).status_code == 422
    assert client.delete(f"{api}/{people['org']['user']['id']}", headers=h).status_code == 409
    assert client.get("/tournaments/99999/staff").status_code == 404
    assert client.get("/tournaments/99999999999999999999/staff").status_code in (404, 422)
