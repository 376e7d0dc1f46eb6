"""Issue 14 item 6: names.  User names are matched whole (no final newline
through ``$``), NFKC-normalised and unique whatever their case; display
names refuse control, format (bidi, zero-width) and invisible characters
and are bounded; pages show the unique user name first."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

PW = "a long and private pass"


def reg(client: TestClient, username: str, display: str | None = None) -> Any:
    body = {"username": username, "password": PW}
    if display is not None:
        body["display_name"] = display
    r = client.post("/api/auth/register", json=body)
    client.cookies.clear()
    return r


@pytest.mark.parametrize("name", ["alice\n", "alice\r\n", "\nalice", "ali\u0000ce", "ali ce",
                                  "ali\u202ece", "ali\u200bce", "a", "x" * 41, "guest-1234",
                                  "<alice>"])
def test_bad_user_names_are_refused(client: TestClient, name: str) -> None:
    r = reg(client, name)
    assert r.status_code == 422 and "username" in r.json()["detail"], r.text


def test_final_newline_does_not_make_a_second_alice(client: TestClient) -> None:
    assert reg(client, "alice").status_code == 201
    r = reg(client, "alice\n")
    assert r.status_code == 422
    assert client.post("/api/auth/login", json={"username": "alice\n", "password": PW}
                       ).status_code == 401  # no such account to log in to


@pytest.mark.parametrize("twin", ["Alice", "ALICE", "\uff41\uff4c\uff49\uff43\uff45",  # ａｌｉｃｅ
                                  "\uff21lice"])
def test_user_names_are_unique_after_nfkc_and_case(client: TestClient, twin: str) -> None:
    assert reg(client, "alice").status_code == 201
    r = reg(client, twin)
    assert r.status_code == 409 and "taken" in r.json()["detail"], r.text


def test_login_normalises_the_name(client: TestClient) -> None:
    assert reg(client, "alice").status_code == 201
    for spelling in ("alice", "ALICE", "\uff41\uff4c\uff49\uff43\uff45"):
        r = client.post("/api/auth/login", json={"username": spelling, "password": PW})
        assert r.status_code == 200 and r.json()["user"]["username"] == "alice"


def test_full_width_name_is_stored_normalised(client: TestClient) -> None:
    r = reg(client, "\uff4d\uff49\uff4e\uff47")  # ｍｉｎｇ
    assert r.status_code == 201 and r.json()["user"]["username"] == "ming"


@pytest.mark.parametrize("display", [
    "\u202ealice",          # RLO: shows reversed text
    "al\u0000ice",          # NUL
    "alice\u0007",          # BEL
    "ali\u200bce",          # zero-width space
    "ali\u200dce",          # zero-width joiner
    "\u2066alice\u2069",    # bidi isolates
    "alice\ufeff",          # BOM / zero-width no-break space
    "a\nb",                 # line break
    "a\u2028b",             # line separator
    "\u3164",               # Hangul filler: an invisible letter
    "a\u0301\u0301\u0301\u0301",  # stacked combining marks (Zalgo)
    "\ue000boss",           # private use
    "   ",                  # nothing to show
    "x" * 41,               # too long
])
def test_unsafe_display_names_are_refused(client: TestClient, display: str) -> None:
    r = reg(client, "someone", display)
    assert r.status_code == 422 and "display_name" in r.json()["detail"], r.text
    assert "显示名" in r.json()["detail"]


def test_display_names_are_normalised(client: TestClient) -> None:
    r = reg(client, "wei", "  \uff37ei\u3000\u3000Zhang  ")  # full-width W, ideographic spaces
    assert r.status_code == 201 and r.json()["user"]["display_name"] == "Wei Zhang"
    r = reg(client, "li", "李 小龙")
    assert r.status_code == 201 and r.json()["user"]["display_name"] == "李 小龙"
    r = reg(client, "jose", "Jose\u0301")  # one combining accent is fine (NFKC composes it)
    assert r.status_code == 201 and r.json()["user"]["display_name"] == "Jos\u00e9"


def test_display_name_cannot_be_another_users_name(client: TestClient) -> None:
    assert reg(client, "alice").status_code == 201
    r = reg(client, "impostor1", "alice")
    assert r.status_code == 422 and "another user" in r.json()["detail"]
    r = reg(client, "impostor1", "ALICE")
    assert r.status_code == 422
    assert reg(client, "bob", "Bob").status_code == 201  # one's own name, any case


def test_pages_show_the_user_name_first(client: TestClient) -> None:
    r = client.post("/api/auth/register", json={"username": "impostor1", "password": PW,
                                                "display_name": "Alice Liddell"})
    assert r.status_code == 201
    me = r.json()
    home = client.get("/")
    assert re.search(r'id="me">\s*impostor1\s*<', home.text), "the header shows the user name"
    profile = client.get(f"/users/{me['user']['id']}")
    h2 = re.search(r"<h2>(.*?)</h2>", profile.text, re.S)
    assert h2 is not None
    assert h2.group(1).strip().startswith("impostor1") and "Alice Liddell" in h2.group(1)
    assert h2.group(1).index("impostor1") < h2.group(1).index("Alice Liddell")
    # Games: the lists and the game page's players show the user name.
    hdr = {"X-CSRF-Token": me["csrf"]}
    g = client.post("/api/games", json={"kind": "xiangqi", "color": "first"}, headers=hdr).json()
    listed = client.get("/api/games").json()
    items = listed if isinstance(listed, list) else listed.get("games", listed.get("items", []))
    mine = [x for x in items if x["id"] == g["id"]]
    assert mine and mine[0]["first"]["name"] == "impostor1"
    page = client.get(f"/games/{g['id']}")
    data = re.search(r'<script id="game-data" type="application/json">(.*?)</script>',
                     page.text, re.S)
    assert data is not None
    state = json.loads(data.group(1))
    assert state["players"]["first"]["name"] == "impostor1"
    assert state["players"]["first"]["display_name"] == "Alice Liddell"
    assert "impostor1" in client.get("/").text


def test_event_entries_for_an_account_take_the_user_name(client: TestClient) -> None:
    from qisai.store import repo
    from qisai.store.models import Role

    r = client.post("/api/auth/register", json={"username": "org", "password": PW,
                                                "display_name": "The Organiser"})
    org = r.json()
    client.cookies.clear()
    assert reg(client, "player7", "Magnus").status_code == 201
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    hdr = {"Authorization": f"Bearer {org['token']}"}
    t = client.post("/api/tournaments", json={"name": "Open", "kind": "xiangqi",
                                              "system": "round_robin"}, headers=hdr)
    if t.status_code != 201:
        pytest.skip(f"tournament API differs here: {t.status_code} {t.text[:200]}")
    tid = t.json()["id"]
    e = client.post(f"/api/tournaments/{tid}/entries", json={"username": "player7"}, headers=hdr)
    assert e.status_code == 201, e.text
    assert "player7" in e.text and "Magnus" not in e.text
