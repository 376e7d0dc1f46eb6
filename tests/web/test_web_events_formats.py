"""Events through the API, the formats added for issue 8: group round robin
(11.3), McMahon (Go), the 2021 league knock-out format with its colour
choice, and the withdrawal of a team after the start (20.3/20.4 applied to
teams).  Standings are checked against the competition layer run directly on
the same results, or against sums worked out by hand."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.competition import Player, System, Tournament, snake_groups
from qisai.competition.events.mcmahon_event import McMahonTournament, rank_of_rating
from qisai.competition.output import standings_rows
from qisai.store import repo
from qisai.store.models import Role
from tests.web.conftest import event_groups, event_round, event_rounds


def make_role(client: TestClient, user_id: int, role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user_id, role)


def organiser(client: TestClient, register: Any, name: str = "org") -> dict[str, Any]:
    org = register(client, name)
    make_role(client, org["user"]["id"], Role.ORGANISER)
    return org


def _winner_by_rating(b: dict[str, Any], rating: dict[str, int]) -> str:
    """The higher-rated side wins; equal ratings draw."""
    r, k = rating[b["red_name"]], rating[b["black_name"]]
    return "1-0" if r > k else "0-1" if r < k else "=-="


def test_group_round_robin_groups_final_and_placings(register: Any,
                                                     client: TestClient) -> None:
    org, player = organiser(client, register), register(client, "pl")
    arb = register(client, "arb")
    make_role(client, arb["user"]["id"], Role.ARBITER)
    h = org["headers"]
    body = {"name": "Groups", "system": "group_round_robin", "groups": 2, "advance": 2,
            "grouping": "snake"}
    assert client.post("/api/tournaments", json=body,
                       headers=player["headers"]).status_code == 403
    ev = client.post("/api/tournaments", json=body, headers=h).json()
    assert ev["family"] == "group" and ev["groups_count"] == 2
    base = f"/api/tournaments/{ev['id']}"
    # the arbiter rules on this event once its organiser appoints him (16.2)
    assert client.post(f"{base}/staff", json={"username": "arb"}, headers=h).status_code == 200
    # B and C share a rating: they draw with each other, in their group and the final
    rating = {"A": 2500, "B": 2400, "C": 2400, "D": 2200, "E": 2100, "F": 2000, "G": 1900,
              "H": 1800}
    for name, r in rating.items():
        assert client.post(f"{base}/entries", json={"name": name, "rating": r},
                           headers=h).status_code == 201
    assert client.post(f"{base}/entries", json={"name": "X", "rank": "3d"},
                       headers=h).status_code == 422  # ranks are for McMahon
    ev = client.post(f"{base}/start", headers=h).json()
    members = [sorted(p["name"] for p in g["players"]) for g in event_groups(client, base, h)]
    seeded = [Player(n, r) for n, r in rating.items()]
    # 11.3: seeded by rating and snaked (1, 4, 5, 8 / 2, 3, 6, 7)
    assert members == [sorted(p.name for p in g) for g in snake_groups(seeded, 2)]
    assert members == [["A", "D", "E", "H"], ["B", "C", "F", "G"]]
    assert sorted(p["number"] for p in ev["players"]) == list(range(1, 9))
    for rnd in (1, 2, 3):
        client.post(f"{base}/rounds", headers=h)
        latest = event_round(client, base, rnd, h)
        boards = latest["boards"]
        assert latest["stage"] == "group" and len(boards) == 4
        assert {b["group"] for b in boards} == {1, 2}
        for b in boards:
            url = f"{base}/rounds/{rnd}/groups/{b['group']}/boards/{b['board']}"
            if rnd == 1 and b is boards[0]:
                assert client.put(url, json={"result": "1-0"},
                                  headers=player["headers"]).status_code == 403
            res = _winner_by_rating(b, rating)
            assert client.put(url, json={"result": res},
                              headers=arb["headers"]).status_code == 200
    ev = client.get(base).json()
    # independently: each group as a plain round robin in its own number order,
    # fed the same results
    groups = event_groups(client, base)
    for g in groups:
        direct = Tournament("direct", System.ROUND_ROBIN, draw_numbers=False)
        for p in sorted(g["players"], key=lambda p: p["group_number"]):
            direct.add_player(Player(p["name"], p["rating"]))
        direct.start()
        for rnd in (1, 2, 3):
            rec = direct.pair_next_round()
            for p in rec.pairings:
                (b,) = [b for b in event_round(client, base, rnd)["boards"]
                        if b["group"] == g["group"] and b["board"] == p.board]
                assert b["red_name"] == direct.player(p.red).name
                direct.record_result(rnd, p.board, b["result"])
        want = [(row["name"], row["place"], row["shared"], row["points"],
                 row["sonneborn_berger"]) for row in standings_rows(direct)]
        got = [(row["name"], row["place"], row["shared"], row["points"],
                row["sonneborn_berger"]) for row in g["standings"]]
        assert got == want
    tops = [[row["name"] for row in g["standings"]] for g in groups]
    assert sorted(tops[1][:2]) == ["B", "C"] and groups[1]["standings"][0]["shared"]
    # the top two of each group, the winners first, then the runners-up (11.3)
    assert ev["qualifiers"] == [tops[0][0], tops[1][0], tops[0][1], tops[1][1]]
    assert tops[0][:2] == ["A", "D"] and ev["cut_ties"] == []
    ev = client.post(f"{base}/rounds", headers=h).json()
    (final,) = ev["rounds"]  # the latest round in detail (issue 29)
    assert final["number"] == 4
    assert final["stage"] == "final" and {b["group"] for b in final["boards"]} == {0}
    assert sorted(p["name"] for p in ev["final"]["players"]) == ["A", "B", "C", "D"]
    assert "the final (11.3)" in ev["log"][-1]["what"]
    # the group results chose the final: they stand now
    b = event_round(client, base, 1, h)["boards"][0]
    r = client.put(f"{base}/rounds/1/groups/{b['group']}/boards/{b['board']}",
                   json={"result": "0-1", "reason": "misread"}, headers=h)
    assert r.status_code == 409
    for rnd in (4, 5, 6):
        if rnd > 4:
            ev = client.post(f"{base}/rounds", headers=h).json()
        for b in event_round(client, base, rnd, h)["boards"]:
            client.put(f"{base}/rounds/{rnd}/groups/0/boards/{b['board']}",
                       json={"result": _winner_by_rating(b, rating)}, headers=h)
    ev = client.get(base).json()
    assert ev["finished"] and ev["status"] == "finished"
    assert client.post(f"{base}/rounds", headers=h).status_code == 409
    places = sorted((p["place"], p["shared"], p["name"]) for p in ev["placements"])
    # the final (B and C drew and share 2nd), then the group thirds share 5th,
    # the fourths 7th
    assert places == [(1, False, "A"), (2, True, "B"), (2, True, "C"), (4, False, "D"),
                      (5, True, "E"), (5, True, "F"), (7, True, "G"), (7, True, "H")]
    page = client.get(f"/tournaments/{ev['id']}").text
    assert 'id="group-1-standings"' in page and 'id="placements"' in page


def test_group_withdrawal_and_lot_grouping(register: Any, client: TestClient) -> None:
    org = organiser(client, register)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={
        "name": "Lots", "system": "group_round_robin", "groups": 2, "advance": 1,
        "grouping": "lot", "final": "none"}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for k in range(6):
        client.post(f"{base}/entries", json={"name": f"P{k}", "rating": 2000 - k},
                    headers=h)
    ev = client.post(f"{base}/start", headers=h).json()
    assert sorted(len(g["players"]) for g in event_groups(client, base, h)) == [3, 3]
    ev = client.post(f"{base}/rounds", headers=h).json()
    boards = ev["rounds"][0]["boards"]
    assert sum(b["black"] is None for b in boards) == 2  # one bye a group of three
    for b in boards:
        if b["black"] is not None:
            client.put(f"{base}/rounds/1/groups/{b['group']}/boards/{b['board']}",
                       json={"result": "1-0"}, headers=h)
    # group 1's bye holder leaves having met none of its two opponents: 20.3
    g1 = ev["groups"][0]
    (bye,) = [b for b in boards if b["group"] == 1 and b["black"] is None]
    gone = bye["red_name"]
    ev = client.post(f"{base}/withdrawals", json={"name": gone, "reason": "ill"},
                     headers=h).json()
    assert "withdrew from" in ev["log"][-1]["what"] and "struck out" in ev["log"][-1]["what"]
    standings = {row["name"] for row in ev["groups"][0]["standings"]}
    assert gone not in standings and len(standings) == len(g1["players"]) - 1
    assert client.post(f"{base}/withdrawals", json={"name": "Nobody", "reason": "?"},
                       headers=h).status_code == 404
    for rnd in (2, 3):
        client.post(f"{base}/rounds", headers=h)
        for b in event_round(client, base, rnd, h)["boards"]:
            if b["black"] is not None and b["result"] is None:
                client.put(f"{base}/rounds/{rnd}/groups/{b['group']}/boards/{b['board']}",
                           json={"result": "=-="}, headers=h)
    ev = client.get(base).json()
    assert ev["finished"]
    r = client.post(f"{base}/rounds", headers=h)
    assert r.status_code == 409 and "no final" in r.json()["detail"]
    # no final: the group winners share first place, the runners-up third...;
    # the struck-out entry is not placed
    assert [p["place"] for p in ev["placements"]] == [1, 1, 3, 3, 5]
    assert gone not in [p["name"] for p in ev["placements"]]


def test_mcmahon_start_scores_pairing_and_standings(register: Any,
                                                    client: TestClient) -> None:
    org, player = organiser(client, register), register(client, "go")
    h = org["headers"]
    body = {"name": "Go open", "kind": "go", "system": "mcmahon", "rounds": 3,
            "bar": "3d", "floor": "10k"}
    assert client.post("/api/tournaments", json=body,
                       headers=player["headers"]).status_code == 403
    bad = client.post("/api/tournaments", json=dict(body, kind="xiangqi"), headers=h)
    assert bad.status_code == 422 and "Go" in bad.json()["detail"]
    assert client.post("/api/tournaments", json=dict(body, rounds=None),
                       headers=h).status_code == 422
    assert client.post("/api/tournaments", json=dict(body, bar="12k"),
                       headers=h).status_code == 422  # the bar below the floor
    ev = client.post("/api/tournaments", json=body, headers=h).json()
    assert ev["mcmahon"] == {"bar": "3d", "floor": "10k", "start_by": "rank"}
    base = f"/api/tournaments/{ev['id']}"
    ranks = {"Ke": "6d", "Shin": "3d", "Mi": "2d", "Ding": "2d", "Lian": "1k", "Tang": "1k",
             "Yang": "15k", "Tao": "12k"}
    # bar 3d, floor 10k: 3d and above start at 12, 2d at 11, 1k at 9, the floor at 0
    start = {"Ke": 12, "Shin": 12, "Mi": 11, "Ding": 11, "Lian": 9, "Tang": 9, "Yang": 0,
             "Tao": 0}
    assert client.post(f"{base}/entries", json={"name": "Bad", "rank": "12x"},
                       headers=h).status_code == 422
    for name, rank in ranks.items():
        assert client.post(f"{base}/entries", json={"name": name, "rank": rank},
                           headers=h).status_code == 201
    ev = client.post(f"{base}/start", headers=h).json()
    assert {p["name"]: p["start"] for p in ev["players"]} == start
    starts = [p["start"] for p in sorted(ev["players"], key=lambda p: p["number"])]
    assert starts == sorted(starts, reverse=True)  # numbered by starting score
    results: list[tuple[str, str]] = []  # (winner, loser)
    for rnd in (1, 2, 3):
        ev = client.post(f"{base}/rounds", headers=h).json()
        boards = ev["rounds"][rnd - 1]["boards"]
        assert len(boards) == 4  # 8 entries, no bye
        mms = {n: start[n] + sum(w == n for w, _ in results) for n in start}
        if rnd == 1:  # round 1 pairs inside the McMahon groups, no halves draw
            assert all(mms[b["red_name"]] == mms[b["black_name"]] for b in boards)
        for b in boards:
            # the first-listed wins except when it is Ke's opponent
            red_wins = b["red_name"] == "Ke" or b["black_name"] != "Ke"
            client.put(f"{base}/rounds/{rnd}/boards/{b['board']}",
                       json={"result": "1-0" if red_wins else "0-1"}, headers=h)
            w, lo = (b["red_name"], b["black_name"]) if red_wins \
                else (b["black_name"], b["red_name"])
            results.append((w, lo))
    ev = client.get(base).json()
    assert ev["finished"]
    # by hand: McMahon score = start + wins; SOS = the opponents' McMahon scores;
    # SODOS = those of the opponents beaten
    mms = {n: start[n] + sum(w == n for w, _ in results) for n in start}
    sos = {n: sum(mms[lo if w == n else w] for w, lo in results if n in (w, lo))
           for n in start}
    sodos = {n: sum(mms[lo] for w, lo in results if w == n) for n in start}
    rows = {row["name"]: row for row in ev["standings"]}
    for n in start:
        assert rows[n]["points"] == mms[n] and rows[n]["start"] == start[n]
        assert rows[n]["score"] == mms[n] - start[n]
        assert rows[n]["buchholz"] == sos[n] and rows[n]["sonneborn_berger"] == sodos[n]
    keys = [(row["points"], row["buchholz"], row["sonneborn_berger"])
            for row in ev["standings"]]
    assert keys == sorted(keys, reverse=True)
    assert ev["standings"][0]["name"] == "Ke" and ev["standings"][0]["points"] == 15
    assert [c["key"] for c in ev["tiebreaks"]] == ["buchholz", "sonneborn_berger",
                                                   "direct_encounter"]
    page = client.get(f"/tournaments/{ev['id']}").text
    assert 'id="standings"' in page and 'class="mms"' in page


def test_league_2021_knockout_colour_choice(register: Any, client: TestClient) -> None:
    org, wang, li = organiser(client, register), register(client, "wang"), register(client, "li")
    other = register(client, "zhao")
    heads = {wang["user"]["id"]: wang["headers"], li["user"]["id"]: li["headers"]}
    h = org["headers"]
    body = {"name": "League", "system": "knockout", "series": "league_2021",
            "time": {"minutes": 20, "increment": 10},
            "times": {"rapid": {"minutes": 5, "increment": 3},
                      "decider": {"minutes": 3, "increment": 2}}}
    bad = client.post("/api/tournaments", json=dict(body, times={"rapid": {"minutes": -1}}),
                      headers=h)
    assert bad.status_code == 422 and "times.rapid" in bad.json()["detail"]
    assert client.post("/api/tournaments", json=dict(body, system="swiss", rounds=3),
                       headers=h).status_code == 422  # per-game times are for series
    ev = client.post("/api/tournaments", json=body, headers=h).json()
    assert ev["series"] == "league_2021"
    base = f"/api/tournaments/{ev['id']}"
    for u in ("wang", "li"):
        client.post(f"{base}/entries", json={"username": u}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    (m,) = ev["rounds"][0]["matches"]
    slow = m["next"]
    assert slow["kind"] == "slow" and slow["server"]
    client.put(f"{base}/rounds/1/matches/1/games/1", json={"result": "="}, headers=h)
    (m,) = client.get(base).json()["rounds"][0]["matches"]
    rapid = m["next"]
    # drawn slow game: a rapid game with the colours swapped
    assert rapid["kind"] == "rapid" and (rapid["red"], rapid["black"]) == (slow["black"],
                                                                          slow["red"])
    assert rapid["server"] and rapid["server"] != slow["server"]
    client.put(f"{base}/rounds/1/matches/1/games/2", json={"result": "="}, headers=h)
    ev = client.get(base).json()
    (m,) = ev["rounds"][0]["matches"]
    # drawn again: the rapid game's Black chooses the decider's colours
    assert m["next"] is None and m["winner"] is None and m["chooser"] == rapid["black"]
    r = client.put(f"{base}/rounds/1/matches/1/games/3", json={"result": "1-0"}, headers=h)
    assert r.status_code == 409 and "colour choice" in r.json()["detail"]
    colour = f"{base}/rounds/1/matches/1/colour"
    uid = {p["number"]: p["user"] for p in ev["players"]}
    chooser, rival = heads[uid[rapid["black"]]], heads[uid[rapid["red"]]]
    assert client.post(colour, json={"red": rapid["black"]}, headers=rival).status_code == 403
    assert client.post(colour, json={"red": rapid["black"]},
                       headers=other["headers"]).status_code == 403
    assert client.post(colour, json={"red": 99}, headers=chooser).status_code == 422
    page = f"/tournaments/{ev['id']}"
    assert 'matches/1/colour"' in client.get(page, headers=chooser).text
    assert 'matches/1/colour"' not in client.get(page, headers=rival).text
    ev = client.post(colour, json={"red": rapid["red"]}, headers=chooser).json()
    (m,) = ev["rounds"][0]["matches"]
    decider = m["next"]
    assert decider["kind"] == "decider" and decider["red"] == rapid["red"]
    assert decider["server"] and m["chosen_red"] == rapid["red"]
    # each kind of game was created with its own time control
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        times = [repo.get_game(s, g["server"]).settings.get("time")
                 for g in (slow, rapid, decider)]
    assert times == [body["time"], body["times"]["rapid"], body["times"]["decider"]]
    assert "chose" in ev["log"][-1]["what"] and ev["log"][-1]["by"] == (
        "wang" if uid[rapid["black"]] == wang["user"]["id"] else "li")
    r = client.post(colour, json={"red": rapid["black"]}, headers=h)
    assert r.status_code == 409  # the choice is made
    # the decider is played on the server: its Black resigns
    g = client.get(f"/api/games/{decider['server']}").json()
    assert g["players"]["first"]["id"] == uid[rapid["red"]]
    client.post(f"/api/games/{decider['server']}/actions", json={"type": "resign"},
                headers=heads[g["players"]["second"]["id"]])
    ev = client.get(base).json()
    (m,) = ev["rounds"][0]["matches"]
    assert [x["result"] for x in m["games"]] == ["=-=", "=-=", "1-0"]
    assert m["winner"] == rapid["red"] and m["how"] == "decider game"
    assert ev["finished"]


def test_league_2021_arbiter_chooses_for_a_player_over_the_board(register: Any,
                                                                 client: TestClient) -> None:
    org, arb = organiser(client, register), register(client, "arb")
    make_role(client, arb["user"]["id"], Role.ARBITER)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "OTB", "system": "knockout",
                                               "series": "league_2021"}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    # the arbiter rules on this event once its organiser appoints him (16.2)
    assert client.post(f"{base}/staff", json={"username": "arb"}, headers=h).status_code == 200
    for name in ("A", "B"):
        client.post(f"{base}/entries", json={"name": name}, headers=h)
    client.post(f"{base}/start", headers=h)
    client.post(f"{base}/rounds", headers=h)
    colour = f"{base}/rounds/1/matches/1/colour"
    assert client.post(colour, json={"red": 1}, headers=h).status_code == 409  # not yet
    for game in (1, 2):
        client.put(f"{base}/rounds/1/matches/1/games/{game}", json={"result": "="},
                   headers=arb["headers"])
    ev = client.post(colour, json={"red": 2}, headers=arb["headers"]).json()
    (m,) = ev["rounds"][0]["matches"]
    assert m["next"]["red"] == 2 and "for " in ev["log"][-1]["what"]
    # a correction that settles the match in the rapid game voids the choice
    ev = client.put(f"{base}/rounds/1/matches/1/games/2",
                    json={"result": "1-0", "reason": "score sheet"}, headers=h).json()
    (m,) = ev["rounds"][0]["matches"]
    assert m["winner"] is not None and m["chosen_red"] is None and m["how"] == "rapid game"


def test_group_boards_between_accounts_are_played_on_the_server(register: Any,
                                                                client: TestClient) -> None:
    org = organiser(client, register)
    accounts = {n: register(client, n) for n in ("ma", "niu", "yang", "lu")}
    by_id = {a["user"]["id"]: a["headers"] for a in accounts.values()}
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Online groups",
                                               "system": "group_round_robin", "groups": 2,
                                               "advance": 1}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for n in accounts:
        client.post(f"{base}/entries", json={"username": n}, headers=h)
    client.post(f"{base}/start", headers=h)
    for rnd in (1, 2):  # the two groups of two, then the final of the two winners
        client.post(f"{base}/rounds", headers=h)
        boards = event_round(client, base, rnd, h)["boards"]
        assert len(boards) == (2 if rnd == 1 else 1)
        for b in boards:
            assert b["game"], "both players have accounts: a server game"
            g = client.get(f"/api/games/{b['game']}").json()
            assert g["players"]["first"]["name"] == b["red_name"]
            client.post(f"/api/games/{b['game']}/actions", json={"type": "resign"},
                        headers=by_id[g["players"]["second"]["id"]])
    ev = client.get(base).json()
    rounds = event_rounds(client, base)
    assert [b["result"] for r in rounds for b in r["boards"]] == ["1-0"] * 3
    assert ev["finished"] and [e["action"] for e in ev["log"]].count("server") == 3
    assert ev["placements"][0]["name"] == rounds[1]["boards"][0]["red_name"]


def test_mcmahon_starting_scores_from_ratings() -> None:
    assert [rank_of_rating(r) for r in (2100, 2099, 2000, 1999, 2450, 3500, 100, 1)] == [
        "1d", "1k", "1k", "2k", "4d", "9d", "20k", "21k"]
    t = McMahonTournament("by rating", rounds=2, bar="2d", floor="5k", start_by="rating",
                          seed=1)
    for name, rating in (("A", 2350), ("B", 2150), ("C", 1850), ("D", 0)):
        t.add_player(Player(name, rating))
    t.start()
    # floor 5k = 0: 3d is above the bar (2d: 6); 1d is 5; 3k is 2; the unrated: 0
    assert t.start_scores == {"A": 6, "B": 5, "C": 2, "D": 0}
    assert [p.name for p in t.players] == ["A", "B", "C", "D"]
    again = McMahonTournament.from_dict(t.to_dict())
    assert again.start_scores == t.start_scores and again.start_by == "rating"


def _team_event(client: TestClient, h: dict[str, str], system: str, teams: int,
                rounds: int | None = None) -> str:
    body: dict[str, Any] = {"name": "T", "system": system, "boards": 2}
    if rounds:
        body["rounds"] = rounds
    ev = client.post("/api/tournaments", json=body, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for k in range(teams):
        name = f"Team{k}"
        client.post(f"{base}/teams", json={"name": name, "members": [
            {"name": f"{name}-{j}"} for j in (1, 2)]}, headers=h)
    client.post(f"{base}/start", headers=h)
    return base


def _play_team_round(client: TestClient, base: str, h: dict[str, str], rnd: int,
                     result: str = "1-0") -> None:
    for m in event_round(client, base, rnd, h)["matches"]:
        if m["bye"] or m["complete"]:
            continue
        for b in (1, 2):
            client.put(f"{base}/rounds/{rnd}/matches/{m['match']}/boards/{b}",
                       json={"result": result}, headers=h)


def test_team_round_robin_withdrawal_strikes_out_results(register: Any,
                                                         client: TestClient) -> None:
    org, player = organiser(client, register), register(client, "pl")
    h = org["headers"]
    base = _team_event(client, h, "team_round_robin", 4)
    client.post(f"{base}/rounds", headers=h)
    # board 1: the first team's Red wins; board 2: the other team's Red wins -> 1:1
    _play_team_round(client, base, h, 1, "1-0")
    ev = client.post(f"{base}/rounds", headers=h).json()
    (latest,) = ev["rounds"]
    assert latest["number"] == 2
    first = latest["matches"][0]
    gone, stays = first["red_team"], first["black_team"]
    r = client.post(f"{base}/withdrawals", json={"name": gone, "reason": "bus broke down"},
                    headers=player["headers"])
    assert r.status_code == 403
    client.put(f"{base}/rounds/2/matches/{first['match']}/boards/1", json={"result": "1-0"},
               headers=h)
    ev = client.post(f"{base}/withdrawals", json={"name": gone, "reason": "bus broke down"},
                     headers=h).json()
    assert "20.3" in ev["log"][-1]["what"] and ev["log"][-1]["reason"] == "bus broke down"
    m = event_round(client, base, 2, h)["matches"][0]
    assert m["forfeit"] == "--+" and m["complete"]  # the unfinished match goes to the other
    assert next(t for t in ev["teams"] if t["name"] == gone)["struck"]
    assert client.post(f"{base}/withdrawals", json={"name": gone, "reason": "again"},
                       headers=h).status_code == 409
    _play_team_round(client, base, h, 2, "1-0")
    ev = client.post(f"{base}/rounds", headers=h).json()
    assert ev["rounds"][0]["number"] == 3
    (auto,) = [m for m in ev["rounds"][0]["matches"] if gone in (m["red_team"],
                                                                 m["black_team"])]
    assert auto["forfeit"] in ("+--", "--+") and auto["complete"]  # 20.3: 对方获胜
    _play_team_round(client, base, h, 3, "1-0")
    ev = client.get(base).json()
    assert ev["finished"]
    # by hand: it met one opponent over the board, fewer than half of three,
    # so every match against it is struck out; the others' meetings are 1:1
    # draws (1 match point each)
    points = {row["name"]: row["points"] for row in ev["standings"]}
    assert gone not in points and stays in points
    assert points == dict.fromkeys(points, 2.0)  # two drawn meetings each
    row = next(r for r in ev["crosstable"][1:] if r[1] == gone)
    # issue 33.5: struck out (注销), not "+" or "0", and the withdrawal noted
    assert row[-2] == "" and "成绩注销" in row[-1] and "20.3" in row[-1]
    assert all(c in ("注销", "x") for c in row[2:-2])


def test_team_swiss_withdrawal_keeps_results_and_stops_pairing(register: Any,
                                                               client: TestClient) -> None:
    org = organiser(client, register)
    h = org["headers"]
    base = _team_event(client, h, "team_swiss", 6, rounds=3)
    client.post(f"{base}/rounds", headers=h)
    ev = client.get(base).json()
    m = ev["rounds"][0]["matches"][0]
    # the first-listed team wins both boards: board 1 Red, board 2 Black
    for b, res in ((1, "1-0"), (2, "0-1")):
        client.put(f"{base}/rounds/1/matches/{m['match']}/boards/{b}", json={"result": res},
                   headers=h)
    _play_team_round(client, base, h, 1)
    gone = m["red_team"]
    ev = client.post(f"{base}/withdrawals", json={"name": gone, "reason": "left"},
                     headers=h).json()
    assert "20.4" in ev["log"][-1]["what"]
    ev = client.post(f"{base}/rounds", headers=h).json()
    assert ev["rounds"][0]["number"] == 2
    r2 = ev["rounds"][0]["matches"]
    assert all(gone not in (x["red_team"], x["black_team"]) for x in r2)
    assert sum(x["bye"] for x in r2) == 1 and len(r2) == 3  # five teams left: one bye
    points = {row["name"]: row["points"] for row in ev["standings"]}
    assert points[gone] == 2.0  # 20.4: its win stands
