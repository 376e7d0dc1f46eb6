"""Events between the arena and the desk (issue 16: "an event exported from
the arena opens in the CLI and back"): ``GET /api/tournaments/{id}/export``
gives the event file ``qisai tournament`` continues, ``POST
/api/tournaments/import`` makes an arena event of a CLI file; entries,
pairings, results and standings come through unchanged both ways, for a
Swiss, a team round robin and a 12.4 全队轮 match.  Who may export (the
event's staff: the file holds unpublished rounds) and import (site
organisers), and what a bad file gets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from qisai.cli import app as cli_app
from qisai.competition.events.file import EventFile, Header
from qisai.competition.tournament import Player, Tournament
from qisai.store import repo
from qisai.store.models import Role
from tests.web.conftest import event_rounds

runner = CliRunner()
DATA = Path(__file__).resolve().parent.parent / "data" / "entries"
NAMES = ("王天一", "郑惟桐", "许银川", "赵鑫鑫", "蒋川", "洪智")


def make_role(client: TestClient, user_id: int, role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user_id, role)


def organiser(client: TestClient, register: Any, name: str = "org") -> dict[str, Any]:
    org = register(client, name)
    make_role(client, org["user"]["id"], Role.ORGANISER)
    return org


def cli(*args: str) -> str:
    res = runner.invoke(cli_app, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def ok(r: Any, code: int = 200) -> Any:
    assert r.status_code == code, r.text
    return r.json()


def boards_of(view: dict[str, Any]) -> list[list[tuple[int, int | None, str | None]]]:
    """(Red, Black, result) per board per round of an individual event view."""
    return [[(b["red"], b["black"], b["result"]) for b in r["boards"]] for r in view["rounds"]]


def cli_boards(path: Path, rounds: int) -> list[list[tuple[int, int | None, str | None]]]:
    out = []
    for r in range(1, rounds + 1):
        rows = json.loads(cli("tournament", "pairings", str(path), str(r), "--format", "json"))
        out.append([(x["red"], x["black"], x["result"]) for x in rows])
    return out


def test_swiss_arena_to_cli_and_back(client: TestClient, register: Any, tmp_path: Path
                                     ) -> None:
    h = organiser(client, register)["headers"]
    ev = ok(client.post("/api/tournaments", json={"name": "Club Swiss", "system": "swiss",
                                                  "rounds": 4}, headers=h), 201)
    base = f"/api/tournaments/{ev['id']}"
    for k, name in enumerate(NAMES):
        ok(client.post(f"{base}/entries", json={"name": name, "rating": 2600 - 10 * k},
                       headers=h), 201)
    ok(client.post(f"{base}/start", headers=h))
    ok(client.post(f"{base}/rounds", headers=h))
    for b, res in ((1, "1-0"), (2, "="), (3, "0-1")):
        ok(client.put(f"{base}/rounds/1/boards/{b}", json={"result": res}, headers=h))
    ok(client.post(f"{base}/rounds", headers=h))
    ok(client.put(f"{base}/rounds/2/boards/1", json={"result": "="}, headers=h))
    arena = ok(client.get(base, headers=h))

    # arena -> file: the CLI reads the same entries, pairings, results, standings
    r = client.get(f"{base}/export", headers=h)
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp_path / "swiss.json"
    path.write_text(r.text, encoding="utf-8")
    assert cli_boards(path, 2) == boards_of(arena)
    standings = json.loads(cli("tournament", "standings", str(path), "--format", "json"))
    assert len(arena["standings"]) == 6 and standings["standings"] == arena["standings"]

    # the desk goes on: round 2's other boards, round 3 in full
    cli("tournament", "result", str(path), "--round", "2", "2 1-0, 3 0-1")
    cli("tournament", "pair", str(path))
    cli("tournament", "result", str(path), "--round", "3", "1 0-1, 2 =, 3 1-0")
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["format"] == "qisai-event" and saved["header"]["organiser"] == "org"
    after = json.loads(cli("tournament", "standings", str(path), "--format", "json"))

    # file -> arena: a new event, the same three rounds and standings
    imported = ok(client.post("/api/tournaments/import", json=saved, headers=h), 201)
    assert imported["system"] == "swiss" and imported["status"] == "running"
    assert [(p["number"], p["name"], p["rating"]) for p in imported["players"]] == \
        [(p["number"], p["name"], p["rating"]) for p in arena["players"]]
    assert boards_of(imported) == cli_boards(path, 3)
    assert imported["standings"] == after["standings"]
    assert imported["log"][-1]["action"] == "import"
    # ... and the arena continues it: round 4 paired, a result entered
    nb = f"/api/tournaments/{imported['id']}"
    ok(client.post(f"{nb}/rounds", headers=h))
    ok(client.put(f"{nb}/rounds/4/boards/1", json={"result": "1-0"}, headers=h))
    again = tmp_path / "again.json"
    again.write_text(client.get(f"{nb}/export", headers=h).text, encoding="utf-8")
    final = ok(client.get(nb, headers=h))
    assert cli_boards(again, 4) == boards_of(final)
    assert json.loads(cli("tournament", "standings", str(again), "--format",
                          "json"))["standings"] == final["standings"]


def _team_rows(view: dict[str, Any]) -> list[tuple[int, str, float]]:
    return [(r["place"], r["name"], r["points"]) for r in view["standings"]]


def _cli_team_rows(path: Path) -> list[tuple[int, str, float]]:
    table = json.loads(cli("tournament", "standings", str(path), "--format", "json"))
    h = table["header"]
    # column 3 holds the points that rank: 场分, or 局分 for a 12.4 match
    # decided on total 局分 (allplay_event's score_by)
    return [(int(r[h.index("名次")].rstrip("=")), r[h.index("队名")],
             float(r[3])) for r in table["rows"]]


def _team_boards(rounds: list[dict[str, Any]]
                 ) -> list[tuple[int, int, int, str, str, str | None]]:
    return [(r["number"], m["match"], b["board"], b["red"], b["black"], b["result"])
            for r in rounds for m in r["matches"] for b in m["boards"]]


def test_team_round_robin_cli_to_arena_and_back(client: TestClient, register: Any,
                                                tmp_path: Path) -> None:
    h = organiser(client, register)["headers"]
    path = tmp_path / "teams.json"
    cli("event", "create", str(path), "--entries", str(DATA / "teams.csv"), "--format",
        "team-round-robin", "--boards", "2", "--name", "团体赛", "--venue", "杭州")
    cli("event", "pair", str(path))
    cli("event", "result", str(path), "1", "1", "1-0,=")
    cli("event", "result", str(path), "1", "2", "0-1,0-1")
    data = json.loads(path.read_text(encoding="utf-8"))
    view = ok(client.post("/api/tournaments/import", json=data, headers=h), 201)
    assert view["system"] == "team_round_robin" and view["family"] == "team"
    assert len(view["standings"]) == 4 and _team_rows(view) == _cli_team_rows(path)
    assert [t["name"] for t in view["teams"]] == [t["name"] for t in
                                                  data["event"]["competition"]["teams"]]
    base = f"/api/tournaments/{view['id']}"
    ok(client.post(f"{base}/rounds", headers=h))  # the arena pairs round 2
    for m in (1, 2):
        for b in (1, 2):
            ok(client.put(f"{base}/rounds/2/matches/{m}/boards/{b}", json={"result": "1-0"},
                          headers=h))
    arena = ok(client.get(base, headers=h))
    back = tmp_path / "back.json"
    back.write_text(client.get(f"{base}/export", headers=h).text, encoding="utf-8")
    assert json.loads(back.read_text(encoding="utf-8"))["header"]["venue"] == "杭州"
    assert _cli_team_rows(back) == _team_rows(arena)
    cli("event", "pair", str(back))  # and the desk pairs round 3
    assert "round 3" in cli("tournament", "pairings", str(back))


def test_all_play_all_cli_to_arena_and_back(client: TestClient, register: Any,
                                            tmp_path: Path) -> None:
    """12.4: created and begun with ``qisai tournament``, continued in the
    arena (its schedule pairs round 2), finished at the desk."""
    h = organiser(client, register)["headers"]
    path = tmp_path / "match.json"
    cli("tournament", "create", str(path), "--entries", str(DATA / "two_teams.csv"),
        "--system", "all-play-all", "--name", "京粤对抗赛")
    cli("tournament", "pair", str(path))
    cli("tournament", "result", str(path), "--round", "1", "1 1-0, 2 =, 3 0-1")
    view = ok(client.post("/api/tournaments/import",
                          json=json.loads(path.read_text(encoding="utf-8")), headers=h), 201)
    assert view["system"] == "team_all_play_all"
    assert len(view["standings"]) == 2 and _team_rows(view) == _cli_team_rows(path)
    # the reading that ranks the match (allplay_event.score_by) travels and is shown
    assert view["score_by"] == "games" and "总局分" in view["score_note"]["zh"]
    for lang, label, note in (("zh", "局分", "总局分"), ("en", "Board points", "total game")):
        page = client.get(f"/tournaments/{view['id']}", headers={"Accept-Language": lang}).text
        assert f"<th>{label}</th>" in page and 'id="score-note"' in page and note in page
    base = f"/api/tournaments/{view['id']}"
    ok(client.post(f"{base}/rounds", headers=h))
    for b in (1, 2, 3):
        ok(client.put(f"{base}/rounds/2/matches/1/boards/{b}", json={"result": "="},
                      headers=h))
    arena = ok(client.get(base, headers=h))
    back = tmp_path / "back.json"
    back.write_text(client.get(f"{base}/export", headers=h).text, encoding="utf-8")
    assert _cli_team_rows(back) == _team_rows(arena)
    exported = EventFile.load(back).event
    assert getattr(exported, "score_by", None) == "games"
    # every board of rounds 1-2 as the arena shows it is what the desk prints
    desk = []
    for r in (1, 2):
        for row in json.loads(cli("tournament", "pairings", str(back), str(r), "--format",
                                  "json")):
            desk.append((r, row["red"], row["black"], row["result"] or None))
    assert len(desk) == 6
    assert [(r, red, black, res) for r, _, _, red, black, res
            in _team_boards(event_rounds(client, base, h))] == desk
    cli("tournament", "pair", str(back))
    assert "complete" in cli("tournament", "result", str(back), "--round", "3",
                             "1 =, 2 =, 3 =")


def test_who_may_export_and_import(client: TestClient, register: Any) -> None:
    org = organiser(client, register)
    h = org["headers"]
    other, arb = register(client, "other"), register(client, "arb")
    ev = ok(client.post("/api/tournaments", json={"name": "E", "system": "round_robin"},
                        headers=h), 201)
    base = f"/api/tournaments/{ev['id']}"
    for name in NAMES[:4]:
        ok(client.post(f"{base}/entries", json={"name": name}, headers=h), 201)
    ok(client.post(f"{base}/start", headers=h))
    assert client.get(f"{base}/export").status_code == 401
    r = client.get(f"{base}/export", headers=other["headers"])
    assert r.status_code == 403 and "staff" in r.json()["detail"]
    # an arbiter the organiser appoints is on the event's staff
    assert client.post(f"{base}/staff", json={"username": "arb", "role": "arbiter"},
                       headers=h).status_code in (200, 201)
    assert client.get(f"{base}/export", headers=arb["headers"]).status_code == 200
    assert client.get("/api/tournaments/99999/export", headers=h).status_code == 404
    data = client.get(f"{base}/export", headers=h).json()

    imp = "/api/tournaments/import"
    assert client.post(imp, json=data).status_code == 401
    r = client.post(imp, json=data, headers=other["headers"])  # no organiser role
    assert r.status_code == 403
    assert client.post(imp, json=[1, 2], headers=h).status_code == 422
    r = client.post(imp, json={"format": "something else"}, headers=h)
    assert r.status_code == 422 and "not a qisai event file" in r.json()["detail"]
    broken = dict(data, event={"format": "qisai-tournament"})
    r = client.post(imp, json=broken, headers=h)
    assert r.status_code == 422 and "import" in r.json()["detail"]
    long_name = json.loads(json.dumps(data))
    long_name["header"]["name"] = "x" * 201
    long_name["event"]["name"] = "x" * 201
    r = client.post(imp, json=long_name, headers=h)
    assert r.status_code == 422 and "200 characters" in r.json()["detail"]
    go_mcmahon = json.loads(json.dumps(data))
    go_mcmahon["kind"] = "mcmahon"
    assert client.post(imp, json=go_mcmahon, headers=h).status_code == 422
    # bounded like the arena's own forms: entries, rounds, names
    many = Tournament("many", "swiss", rounds=3)
    for k in range(2001):
        many.add_player(Player(f"p{k}"))
    r = client.post(imp, json=EventFile("individual", many, Header("many")).to_dict(),
                    headers=h)
    assert r.status_code == 422 and "at most 2000" in r.json()["detail"]
    long_entry = Tournament("long", "swiss", rounds=3)
    long_entry.add_player(Player("x" * 201))
    r = client.post(imp, json=EventFile("individual", long_entry, Header("long")).to_dict(),
                    headers=h)
    assert r.status_code == 422 and "entry's name" in r.json()["detail"]
    rounds = Tournament("rounds", "swiss", rounds=51)
    r = client.post(imp, json=EventFile("individual", rounds, Header("rounds")).to_dict(),
                    headers=h)
    assert r.status_code == 422 and "50 rounds" in r.json()["detail"]
    big = dict(data, extras={"x": {"note": "y" * (1024 * 1024)}})
    assert client.post(imp, json=big, headers=h).status_code == 413
    assert client.post(imp, json=data, headers=h).status_code == 201


def test_event_page_offers_the_file_to_the_staff_only(client: TestClient, register: Any
                                                      ) -> None:
    h = organiser(client, register)["headers"]
    other = register(client, "other")
    ev = ok(client.post("/api/tournaments", json={"name": "E", "system": "round_robin"},
                        headers=h), 201)
    base = f"/api/tournaments/{ev['id']}"
    for name in NAMES[:4]:
        ok(client.post(f"{base}/entries", json={"name": name}, headers=h), 201)
    ok(client.post(f"{base}/start", headers=h))
    link = f'id="event-file" href="{base}/export"'
    assert link in client.get(f"/tournaments/{ev['id']}", headers=h).text
    assert link not in client.get(f"/tournaments/{ev['id']}").text
    assert link not in client.get(f"/tournaments/{ev['id']}", headers=other["headers"]).text
