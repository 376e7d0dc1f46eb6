"""Issue 22 item 4: leaderboards per game and time-control family, player
search by name (bounded, prefix and substring, paginated), names linking
to profiles; who may read them.  Ratings are checked against the Elo
formula (K = 20: a win between equals moves each by 10 points)."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from .test_lobby_pools import join, me
from .test_web_staff import guest


def play_rated(client: TestClient, winner: dict[str, Any], loser: dict[str, Any],
               pool: str) -> str:
    """Pair the two through ``pool``; the loser resigns.  Returns the game."""
    join(client, winner, pool)
    s = join(client, loser, pool).json()
    assert s["status"] == "matched", s
    me(client, winner)
    r = client.post(f"/api/games/{s['game']}/actions", json={"type": "resign"},
                    headers=loser["headers"])
    assert r.status_code == 200, r.text
    game = client.get(f"/api/games/{s['game']}").json()
    assert game["status"] == "finished"
    gid: str = s["game"]
    return gid


def board(client: TestClient, kind: str, family: str, **params: Any) -> dict[str, Any]:
    r = client.get(f"/api/leaderboards/{kind}/{family}", params=params)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_leaderboard_is_kept_per_game_and_family(client: TestClient, register: Any) -> None:
    a, b, c = register(client, "ada"), register(client, "ben"), register(client, "cai")
    play_rated(client, a, b, "xq-6.3")   # rapid (6.3, 快棋)
    play_rated(client, a, c, "xq-6.4")   # rapid (6.4, 快棋)
    play_rated(client, b, c, "xq-5+3")   # blitz
    rapid = board(client, "xiangqi", "rapid")
    assert rapid["total"] == 3
    rows = [(r["rank"], r["name"], r["games"]) for r in rapid["players"]]
    assert rows[0] == (1, "ada", 2)
    ada = rapid["players"][0]
    # Elo, K = 20: ada beat ben (1500 v 1500: +10), then cai (1510 v 1500 at the
    # time: +9.71); her rating in the family is 1500 plus those changes.
    assert ada["family_rating"] == round(1500 + 10 + 20 * (1 - 1 / (1 + 10 ** (-10 / 400))))
    blitz = board(client, "xiangqi", "blitz")
    assert [(r["name"], r["games"]) for r in blitz["players"]] == [("ben", 1), ("cai", 1)]
    assert blitz["players"][0]["family_rating"] > blitz["players"][1]["family_rating"]
    assert board(client, "go", "rapid")["total"] == 0
    assert board(client, "xiangqi", "classical")["total"] == 0


def test_a_custom_games_family_is_stored_too(client: TestClient, register: Any) -> None:
    a = register(client, "custom")
    r = client.post("/api/games", json={"kind": "xiangqi", "ruleset": "cxa",
                                        "time": {"minutes": 5, "increment": 3}},
                    headers=a["headers"])
    assert r.status_code == 201
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        from qisai.store import repo

        assert repo.get_game(s, r.json()["id"]).settings["family"] == "blitz"


def test_leaderboard_pages_are_bounded(client: TestClient, register: Any) -> None:
    players = [register(client, f"p{i}") for i in range(4)]
    play_rated(client, players[0], players[1], "xq-6.3")
    play_rated(client, players[2], players[3], "xq-6.3")
    first = board(client, "xiangqi", "rapid", per_page=3)
    second = board(client, "xiangqi", "rapid", per_page=3, page=2)
    assert first["total"] == second["total"] == 4
    assert [r["rank"] for r in first["players"] + second["players"]] == [1, 2, 3, 4]
    assert client.get("/api/leaderboards/xiangqi/rapid?per_page=51").status_code == 422
    assert client.get("/api/leaderboards/xiangqi/rapid?page=201").status_code == 422
    assert client.get("/api/leaderboards/xiangqi/rapid?page=0").status_code == 422
    assert client.get("/api/leaderboards/chess/rapid").status_code == 422
    assert client.get("/api/leaderboards/xiangqi/untimed").status_code == 422


def test_search_by_prefix_and_substring(client: TestClient, register: Any) -> None:
    for name in ("liubei", "guanyu", "zhangfei", "Liuxiu", "xiaoliu"):
        register(client, name)
    guest(client)
    found = client.get("/api/players", params={"q": "LIU"}).json()
    # Case-insensitive; names that start with it first, then by name.
    assert [p["name"] for p in found["players"]] == ["liubei", "Liuxiu", "xiaoliu"]
    assert found["total"] == 3
    assert [p["name"] for p in client.get("/api/players", params={"q": "an"}).json()["players"]
            ] == ["guanyu", "zhangfei"]
    # % and _ are letters, not wildcards; guests are never listed.
    assert client.get("/api/players", params={"q": "%"}).json()["total"] == 0
    assert client.get("/api/players", params={"q": "_"}).json()["total"] == 0
    assert client.get("/api/players", params={"q": "guest"}).json()["total"] == 0


def test_search_is_paginated_and_bounded(client: TestClient, register: Any) -> None:
    for i in range(5):
        register(client, f"wei{i}")
    pages = [client.get("/api/players", params={"q": "wei", "per_page": 2, "page": n}).json()
             for n in (1, 2, 3)]
    assert [[p["name"] for p in pg["players"]] for pg in pages] == [
        ["wei0", "wei1"], ["wei2", "wei3"], ["wei4"]]
    assert client.get("/api/players", params={"q": ""}).status_code == 422
    assert client.get("/api/players", params={"q": "   "}).status_code == 422
    assert client.get("/api/players", params={"q": "x" * 41}).status_code == 422
    assert client.get("/api/players").status_code == 422
    assert client.get("/api/players", params={"q": "wei", "per_page": 51}).status_code == 422
    assert client.get("/api/players", params={"q": "wei", "page": 201}).status_code == 422


def test_anyone_may_read_and_nothing_private_is_shown(client: TestClient,
                                                      register: Any) -> None:
    a, b = register(client, "open1"), register(client, "open2")
    play_rated(client, a, b, "xq-6.3")
    client.cookies.clear()
    rows = (client.get("/api/players", params={"q": "open"}).json()["players"]
            + board(client, "xiangqi", "rapid")["players"])
    assert rows and all(set(r) <= {"id", "name", "display_name", "rating", "rank",
                                   "family_rating", "games"} for r in rows)
    # Read-only: no method but GET.
    assert client.post("/api/players?q=open").status_code == 405
    assert client.delete("/api/leaderboards/xiangqi/rapid").status_code == 405


def test_the_players_page_links_every_name(client: TestClient, register: Any) -> None:
    a, b = register(client, "linka"), register(client, "linkb")
    gid = play_rated(client, a, b, "xq-6.3")
    page = client.get("/players?kind=xiangqi&family=rapid").text
    ids = {a["user"]["id"], b["user"]["id"]}
    assert {int(i) for i in re.findall(r'href="/users/(\d+)">link[ab]<', page)} == ids
    found = client.get("/players?q=link").text
    assert {int(i) for i in re.findall(r'href="/users/(\d+)">link[ab]<', found)} == ids
    home = client.get("/").text
    assert {int(i) for i in re.findall(r'href="/users/(\d+)">link[ab]<', home)} == ids
    profile = client.get(f"/users/{a['user']['id']}").text
    assert f'href="/users/{b["user"]["id"]}">linkb<' in profile
    assert gid in profile
    assert client.get("/players?page=201").status_code == 422
    assert client.get("/players?q=" + "x" * 41).status_code == 422
