"""A player's page and the downloads of all their games (issue 17.7): one
PGN for the Xiangqi games, one zip of SGF files for the Go games, read back
with qisai's own PGN/SGF readers and with sgfmill; public as the games are,
bounded, and a 404 for a player who does not exist."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.referee.rulesets import PRESETS


def new_game(client: TestClient, who: dict[str, Any], **body: Any) -> str:
    body.setdefault("color", "first")
    r = client.post("/api/games", json=body, headers=who["headers"])
    assert r.status_code == 201, r.text
    gid: str = r.json()["id"]
    return gid


def act(client: TestClient, who: dict[str, Any], gid: str, **action: Any) -> None:
    r = client.post(f"/api/games/{gid}/actions", json=action, headers=who["headers"])
    assert r.status_code == 200, r.text


@pytest.fixture
def season(client: TestClient, register: Any) -> dict[str, Any]:
    """Ann's games with Bob: a rated Xiangqi game Ann wins, a casual Xiangqi
    game in play, a rated 9x9 Go game Ann (White) wins, an open seek of
    Ann's (not a game yet) and a game between others."""
    ann, bob, cat = register(client, "ann"), register(client, "bob"), register(client, "cat")
    won = new_game(client, ann, kind="xiangqi", ruleset="cxa", rated=True, time={"minutes": 5})
    client.post(f"/api/games/{won}/join", headers=bob["headers"])
    act(client, ann, won, type="move", ply=1, move="h2e2")
    act(client, bob, won, type="move", ply=2, move="h9g7")
    act(client, bob, won, type="resign")
    playing = new_game(client, bob, kind="xiangqi", ruleset="casual")
    client.post(f"/api/games/{playing}/join", headers=ann["headers"])
    act(client, bob, playing, type="move", ply=1, move="b2e2")
    go = new_game(client, bob, kind="go", ruleset="chinese", size=9, rated=True,
                  time={"minutes": 5})
    client.post(f"/api/games/{go}/join", headers=ann["headers"])
    act(client, bob, go, type="move", ply=1, move="E5")
    act(client, ann, go, type="move", ply=2, move="C3")
    act(client, bob, go, type="resign")
    seek = new_game(client, ann, kind="xiangqi")
    other = new_game(client, cat, kind="go", ruleset="go-casual", size=9)
    client.post(f"/api/games/{other}/join", headers=bob["headers"])
    return {"ann": ann, "bob": bob, "won": won, "playing": playing, "go": go, "seek": seek,
            "other": other}


def test_all_xiangqi_games_in_one_pgn_read_back(client: TestClient, season: dict[str, Any]
                                                ) -> None:
    from qisai.xiangqi.pgn import parse_pgn

    ann = season["ann"]["user"]["id"]
    r = client.get(f"/api/users/{ann}/games.pgn")  # no session: public, as the games are
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-chess-pgn")
    assert r.headers["x-qisai-games"] == "2" and r.headers["x-qisai-games-left-out"] == "0"
    assert f'filename="qisai-player-{ann}.pgn"' in r.headers["content-disposition"]
    games = parse_pgn(r.text)
    assert len(games) == 2  # the open seek is not a game yet; Go is in the zip
    first, second = games  # oldest first
    assert (first.headers["Red"], first.headers["Black"]) == ("ann", "bob")
    assert first.headers["Result"] == "1-0" and "resignation" in first.headers["Termination"]
    assert [m.iccs() for m in first.mainline_moves()] == ["h2e2", "h9g7"]
    assert (second.headers["Red"], second.headers["Black"]) == ("bob", "ann")
    assert second.headers["Result"] == "*"
    assert [m.iccs() for m in second.mainline_moves()] == ["b2e2"]
    # The same records as each game's own download.
    own = client.get(f"/api/games/{season['won']}/record").text
    assert own.strip() in r.text
    # Bounded: the newest only, saying how many were left out.
    r = client.get(f"/api/users/{ann}/games.pgn", params={"limit": 1})
    assert r.headers["x-qisai-games"] == "1" and r.headers["x-qisai-games-left-out"] == "1"
    (only,) = parse_pgn(r.text)
    assert only.headers["Red"] == "bob"


def test_all_go_games_in_one_zip_of_sgf_files_read_back(client: TestClient,
                                                        season: dict[str, Any]) -> None:
    import sgfmill.sgf

    from qisai.go.sgf import read_sgf

    ann = season["ann"]["user"]["id"]
    r = client.get(f"/api/users/{ann}/games.zip")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    assert r.headers["x-qisai-games"] == "1"
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        assert zf.testzip() is None
        assert zf.namelist() == [f"qisai-{season['go']}.sgf"]
        text = zf.read(zf.namelist()[0]).decode("utf-8")
    ours = read_sgf(text)
    assert (ours.root.get("PB"), ours.root.get("PW")) == ("bob", "ann")
    assert ours.root.get("RE") == "W+R" and ours.size == 9
    theirs = sgfmill.sgf.Sgf_game.from_bytes(text.encode())
    assert theirs.get_winner() == "w" and theirs.get_player_name("w") == "ann"
    moves = [n.get_move() for n in theirs.get_main_sequence()[1:]]
    assert moves == [("b", (4, 4)), ("w", (2, 2))]  # E5, C3 (rows from the bottom)
    # Bob's archive has both Go games (Cat's game with him too).
    bob = season["bob"]["user"]["id"]
    with zipfile.ZipFile(io.BytesIO(client.get(f"/api/users/{bob}/games.zip").content)) as zf:
        assert len(zf.namelist()) == 2


@pytest.mark.parametrize("path", ["games.pgn", "games.zip"])
def test_downloads_are_bounded_and_unknown_players_are_404(client: TestClient, register: Any,
                                                           path: str) -> None:
    me = register(client, "lonely")["user"]["id"]
    r = client.get(f"/api/users/{me}/{path}")
    assert r.status_code == 200 and r.headers["x-qisai-games"] == "0"
    assert client.get(f"/api/users/999/{path}").status_code == 404
    assert client.get(f"/api/users/9223372036854775807/{path}").status_code == 404
    assert client.get(f"/api/users/99999999999999999999/{path}").status_code in (404, 422)
    assert client.get(f"/api/users/{me}/{path}", params={"limit": 0}).status_code == 422
    assert client.get(f"/api/users/{me}/{path}", params={"limit": 501}).status_code == 422
    # Reading is all there is: nothing can be posted there.
    assert client.post(f"/api/users/{me}/{path}").status_code == 405


def test_the_player_page_lists_results_rules_colour_opponent_and_plot(
        client: TestClient, season: dict[str, Any]) -> None:
    ann = season["ann"]["user"]["id"]
    page = client.get(f"/users/{ann}", headers={"Accept-Language": "en"})
    assert page.status_code == 200
    html = page.text
    by_game = {gid: outcome for outcome, gid in re.findall(
        r'<tr class="outcome-(\w+)" data-game="([A-Za-z0-9_-]+)">', html)}
    assert by_game == {season["won"]: "win", season["playing"]: "in_play",
                                season["go"]: "win"}
    assert season["seek"] not in by_game and season["other"] not in by_game
    row = html[html.index(f'data-game="{season["go"]}"'):]
    row = row[:row.index("</tr>")]
    assert PRESETS["chinese"].title_en in row and ">White<" in row
    assert f'href="/users/{season["bob"]["user"]["id"]}">bob</a>' in row and "Resignation" in row
    row = html[html.index(f'data-game="{season["won"]}"'):]
    assert PRESETS["cxa"].title_en in row[:row.index("</tr>")] and ">Red<" in row
    # Two rated games: the plot has the start and a dot after each.
    assert html.count('<circle class="dot"') == 3 and "<polyline" in html
    assert f'href="/api/users/{ann}/games.pgn"' in html
    assert f'href="/api/users/{ann}/games.zip"' in html
    zh = client.get(f"/users/{ann}", headers={"Accept-Language": "zh-CN"}).text
    assert PRESETS["cxa"].title_zh in zh and "红方" in zh and "下载全部对局" in zh
    assert client.get("/users/999").status_code == 404
