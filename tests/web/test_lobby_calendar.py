"""The events calendar of the home page and registering from it (issue
22.3): the listing an organiser sets, the entry conditions the server
applies (registration open, rating limits, 组别, a team's line-up), the
viewer's own events first; and the live boards and TV on the pages."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role
from qisai.web.lobby.calendar import forget_calendar
from qisai.web.lobby.live_boards import forget_selection


def make_role(client: TestClient, user_id: int, role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user_id, role)


def set_rating(client: TestClient, user_id: int, rating: float) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.get_user(s, user_id).rating = rating
        s.commit()


def new_event(client: TestClient, org: dict[str, Any], **body: Any) -> int:
    body.setdefault("name", "Spring open")
    r = client.post("/api/tournaments", json=body, headers=org["headers"])
    assert r.status_code == 201, r.text
    tid: int = r.json()["id"]
    return tid


def entries(client: TestClient, tid: int) -> list[str]:
    ev = client.get(f"/api/tournaments/{tid}").json()
    return [p["name"] for p in ev.get("players", [])]


def test_registration_applies_the_entry_conditions(client: TestClient, register: Any) -> None:
    org, wang, li, zhao = (register(client, n) for n in ("org", "wang", "li", "zhao"))
    make_role(client, org["user"]["id"], Role.ORGANISER)
    tid = new_event(client, org, system="swiss", rounds=1, time={"scheme": "6.2"})
    base = f"/api/tournaments/{tid}"
    listing = {"starts": "2027-04-03", "ends": "2027-04-05", "venue": "棋院 3 楼",
               "groups": ["男子组", "女子组"], "min_rating": 1400, "max_rating": 1600,
               "registration": "open"}
    # Only the event's organisers set its listing.
    assert client.put(f"{base}/listing", json=listing, headers=wang["headers"]).status_code == 403
    r = client.put(f"{base}/listing", json=listing, headers=org["headers"])
    assert r.status_code == 200 and r.json()["venue"] == "棋院 3 楼"
    bad = dict(listing, ends="2027-04-01")
    assert client.put(f"{base}/listing", json=bad, headers=org["headers"]).status_code == 422
    bad = dict(listing, min_rating=1700)
    assert client.put(f"{base}/listing", json=bad, headers=org["headers"]).status_code == 422

    # 组别: one of the event's groups.
    r = client.post(f"{base}/register", json={}, headers=wang["headers"])
    assert r.status_code == 422 and "男子组" in r.json()["detail"]
    r = client.post(f"{base}/register", json={"group": "少年组"}, headers=wang["headers"])
    assert r.status_code == 422
    r = client.post(f"{base}/register", json={"group": "男子组"}, headers=wang["headers"])
    assert r.status_code == 201, r.text
    assert entries(client, tid) == ["wang"]
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        # the 组别 kept as an event file keeps an entry's extra fields
        assert repo.get_tournament(s, tid).settings["extras"] == {"wang": {"group": "男子组"}}
    again = client.post(f"{base}/register", json={"group": "男子组"}, headers=wang["headers"])
    assert again.status_code == 409
    # Rating limits, both ways, with the player's rating and the limit.
    set_rating(client, li["user"]["id"], 1380)
    r = client.post(f"{base}/register", json={"group": "女子组"}, headers=li["headers"])
    assert r.status_code == 403 and "1380" in r.json()["detail"] and "1400" in r.json()["detail"]
    set_rating(client, li["user"]["id"], 1650)
    r = client.post(f"{base}/register", json={"group": "女子组"}, headers=li["headers"])
    assert r.status_code == 403 and "above" in r.json()["detail"]
    # Guests, and anyone without a session, may not enter.
    pre = client.get("/api/auth/csrf").json()["csrf"]
    guest = client.post("/api/auth/guest", headers={"X-CSRF-Token": pre}).json()
    client.cookies.clear()
    r = client.post(f"{base}/register", json={"group": "男子组"},
                    headers={"Authorization": f"Bearer {guest['token']}"})
    assert r.status_code == 403
    assert client.post(f"{base}/register", json={"group": "男子组"}).status_code == 401
    assert client.put(f"{base}/listing", json=listing).status_code == 401
    # A cookie session needs its CSRF token (another site's form cannot enter him).
    client.cookies.set("qisai_session", zhao["token"])
    r = client.post(f"{base}/register", json={"group": "男子组"})
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    client.cookies.clear()
    # Every field is bounded.
    for bad_body in ({"group": "x" * 41}, {"team": {"name": "T", "members": ["m" * 41]}},
                     {"team": {"name": "T", "members": [f"u{i}" for i in range(31)]}}):
        assert client.post(f"{base}/register", json=bad_body,
                           headers=zhao["headers"]).status_code == 422
    for bad_listing in ({"venue": "v" * 201}, {"groups": ["g"] * 13}, {"groups": ["g" * 41]},
                        {"min_rating": -1}, {"max_rating": 4001}, {"registration": "maybe"}):
        assert client.put(f"{base}/listing", json=bad_listing,
                          headers=org["headers"]).status_code == 422, bad_listing
    # Closed registration, then a started event.
    client.put(f"{base}/listing", json=dict(listing, registration="closed"),
               headers=org["headers"])
    r = client.post(f"{base}/register", json={"group": "男子组"}, headers=zhao["headers"])
    assert r.status_code == 409 and "closed" in r.json()["detail"]
    client.put(f"{base}/listing", json=listing, headers=org["headers"])
    client.post(f"{base}/entries", json={"name": "Sun"}, headers=org["headers"])
    started = client.post(f"{base}/start", headers=org["headers"])
    assert started.status_code == 200, started.text
    r = client.post(f"{base}/register", json={"group": "男子组"}, headers=zhao["headers"])
    assert r.status_code == 409
    assert entries(client, tid) == ["wang", "Sun"]


def test_a_team_registers_with_its_line_up(client: TestClient, register: Any) -> None:
    org, a, b, c = (register(client, n) for n in ("org", "ann", "bo", "cai"))
    make_role(client, org["user"]["id"], Role.ORGANISER)
    tid = new_event(client, org, name="Team cup", system="team_round_robin", boards=2)
    base = f"/api/tournaments/{tid}"
    client.put(f"{base}/listing", json={"registration": "open"}, headers=org["headers"])
    r = client.post(f"{base}/register", json={}, headers=a["headers"])
    assert r.status_code == 422 and "team" in r.json()["detail"]
    short = {"team": {"name": "East", "members": ["ann"]}}
    r = client.post(f"{base}/register", json=short, headers=a["headers"])
    assert r.status_code == 422 and "2 boards" in r.json()["detail"]
    others = {"team": {"name": "East", "members": ["bo", "cai"]}}
    r = client.post(f"{base}/register", json=others, headers=a["headers"])
    assert r.status_code == 422 and "yourself" in r.json()["detail"]
    ghost = {"team": {"name": "East", "members": ["ann", "nobody"]}}
    assert client.post(f"{base}/register", json=ghost, headers=a["headers"]).status_code == 404
    ok = {"team": {"name": "East", "members": ["ann", "bo", "cai"]}}
    r = client.post(f"{base}/register", json=ok, headers=a["headers"])
    assert r.status_code == 201, r.text
    # bo and cai are invited; the team is entered when both have accepted (issue 31)
    assert client.get(base).json()["teams"] == []
    for who in (b, c):
        r = client.post(f"{base}/invitations/answer", json={"team": "East", "accept": True},
                        headers=who["headers"])
        assert r.status_code == 200, r.text
    teams = client.get(base).json()["teams"]
    ids = {n: u["user"]["id"] for n, u in (("ann", a), ("bo", b), ("cai", c))}
    assert [(t["name"], [(m["name"], m["user"]) for m in t["roster"]]) for t in teams] == [
        ("East", [(n, ids[n]) for n in ("ann", "bo", "cai")])]
    r = client.post(f"{base}/register", json={"team": {"name": "West", "members": ["bo", "ann"]}},
                    headers=b["headers"])
    assert r.status_code == 409 and "already" in r.json()["detail"]


def test_home_page_calendar_lists_own_events_first(client: TestClient, register: Any) -> None:
    org, wang = register(client, "org"), register(client, "wang")
    make_role(client, org["user"]["id"], Role.ORGANISER)
    first = new_event(client, org, name="Autumn rapid", time={"minutes": 15, "increment": 10})
    second = new_event(client, org, name="Winter Go", kind="go", system="mcmahon", rounds=4)
    client.put(f"/api/tournaments/{first}/listing", headers=org["headers"],
               json={"starts": "2027-10-01", "venue": "Hall A", "groups": ["公开组"],
                     "registration": "open"})
    client.put(f"/api/tournaments/{second}/listing", json={"registration": "open"},
               headers=org["headers"])
    client.post(f"/api/tournaments/{second}/register", json={}, headers=wang["headers"])
    forget_calendar()
    page = client.get("/", headers=wang["headers"]).text
    mine, upcoming = page.index('id="calendar-mine"'), page.index('id="calendar-upcoming"')
    assert mine < page.index("Winter Go") < upcoming < page.index("Autumn rapid")
    assert "Hall A" in page and "15+10" in page and "公开组" in page
    assert f'data-register="{first}"' in page and f'data-register="{second}"' not in page
    # The organiser sees both as his own, with the papers' link.
    page = client.get("/", headers=org["headers"]).text
    assert 'id="calendar-upcoming"' not in page
    assert f'href="/tournaments/{first}#papers"' in page


def test_home_page_and_tv_show_running_games_only(client: TestClient, register: Any) -> None:
    red, black, nobody = register(client, "red"), register(client, "black"), register(client, "zz")
    seek = client.post("/api/games", json={"kind": "xiangqi"}, headers=nobody["headers"]).json()
    set_rating(client, red["user"]["id"], 2100)
    gid = client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                      headers=red["headers"]).json()["id"]
    client.post(f"/api/games/{gid}/join", headers=black["headers"])
    forget_selection()
    page = client.get("/").text
    assert f'data-live-board="{gid}"' in page and f'data-live-board="{seek["id"]}"' not in page
    assert "(2100)" in page and "/static/live.js" in page
    tv = client.get("/tv").text
    assert f'data-live-board="{gid}"' in tv and 'class="live-board big"' in tv


def test_kept_values_are_refreshed_behind_the_requests(tmp_path: Any) -> None:
    """The home page's kept values: the first is made at once; an old one is
    handed out while a worker thread makes the next, which the following
    request gets."""
    import threading

    from qisai.store import Database
    from qisai.web.lobby.kept import Kept

    db = Database(f"sqlite:///{tmp_path / 'k.sqlite3'}")
    made: list[int] = []

    def count(s: Any) -> int:
        made.append(len(made) + 1)
        return made[-1]

    kept: Kept[int] = Kept(count, ttl=0.0)
    with db.session() as s:
        assert kept.get(s) == 1
        before = set(threading.enumerate())
        assert kept.get(s) == 1  # old, and a refresh started
        for t in set(threading.enumerate()) - before:
            t.join(10)
        assert made == [1, 2] and kept.get(s, fresh=True) == 3
    db.dispose()


def test_event_games_are_live_boards_with_their_event(client: TestClient, register: Any) -> None:
    """The home page's boards: the top rated running game is featured; an
    event's server game is shown with the event's name; a finished game is
    no live board."""
    org, wang, li = register(client, "org"), register(client, "wang"), register(client, "li")
    strong_a, strong_b = register(client, "qiang1"), register(client, "qiang2")
    make_role(client, org["user"]["id"], Role.ORGANISER)
    tid = new_event(client, org, name="Club RR", system="round_robin")
    for name in ("wang", "li"):
        client.post(f"/api/tournaments/{tid}/entries", json={"username": name},
                    headers=org["headers"])
    client.post(f"/api/tournaments/{tid}/start", headers=org["headers"])
    ev = client.post(f"/api/tournaments/{tid}/rounds", headers=org["headers"]).json()
    event_game = ev["rounds"][0]["boards"][0]["game"]
    assert event_game
    for who, rating in ((strong_a, 2400), (strong_b, 2300)):
        set_rating(client, who["user"]["id"], rating)
    top = client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                      headers=strong_a["headers"]).json()["id"]
    client.post(f"/api/games/{top}/join", headers=strong_b["headers"])
    done = client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                       headers=wang["headers"]).json()["id"]
    client.post(f"/api/games/{done}/join", headers=li["headers"])
    client.post(f"/api/games/{done}/actions", json={"type": "resign"}, headers=li["headers"])
    forget_selection()
    page = client.get("/").text
    featured = page.index('<div class="featured">')
    assert featured < page.index(f'data-live-board="{top}"') < page.index('class="live-grid"')
    board = page[page.index(f'data-live-board="{event_game}"'):]
    assert "Club RR" in board[:board.index("</a>")]
    assert f'data-live-board="{done}"' not in page


def test_the_event_page_shows_the_listing_and_its_form_to_the_organiser(
        client: TestClient, register: Any) -> None:
    org, wang = register(client, "org"), register(client, "wang")
    make_role(client, org["user"]["id"], Role.ORGANISER)
    tid = new_event(client, org)
    client.put(f"/api/tournaments/{tid}/listing", headers=org["headers"],
               json={"starts": "2027-06-01", "venue": "Hall B", "groups": ["甲组"],
                     "registration": "closed"})
    page = client.get(f"/tournaments/{tid}", headers=org["headers"]).text
    assert "Hall B" in page and "甲组" in page and 'id="listing-form"' in page
    assert "/static/listing.js" in page
    page = client.get(f"/tournaments/{tid}", headers=wang["headers"]).text
    assert "Hall B" in page and 'id="listing-form"' not in page
    assert client.get(f"/api/tournaments/{tid}").json()["listing"]["registration"] == "closed"
