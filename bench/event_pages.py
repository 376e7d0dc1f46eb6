"""Event pages of a big event on the arena (issue 29, item 2).

Builds two individual events and brings them into the arena's store by
the import route (``POST /api/tournaments/import``, timed):

* a 500-entry, 11-round 积分编排制 (paired by qisai's pairer, random
  results with draws);
* the largest event the import bounds allow: 2,000 entries, 50 rounds,
  every round with its results (boards drawn at random: the page does not
  care how they were paired).  Its file is 4.4 MB, over the 1 MiB body
  limit, so the bench raises that limit in its own app (the file an
  organiser can send is smaller, the stored event the same).

Then times, in-process (FastAPI's TestClient; the app as ``qisai serve``
makes it, SQLite in a temporary folder), each a number of times after one
cold view: the event page (anonymous; a logged-in player with his own line;
a search; an earlier round; a later page of standings and boards), the
paged API (standings, a round's boards, the crosstable, the entries) and,
for the 500-entry event, each paper.  Prints per request the median, p99
and max time and the size of the answer.  Targets: event page p99 < 200 ms
and < 300 KB at 500 entries and at 2,000 x 50; every paper < 1.5 s.

Then, unless ``--no-families``, the other families at two sizes each (built
with qisai.competition, round 1 played, imported): a knock-out of 64 and
256 entries, a 4-board team Swiss of 64 and 100 teams, a group event of 4
and 16 groups of 16; each one's page (anonymous, organiser), JSON and its
paged routes (``.../rounds/1/matches``, ``.../field``, ``.../ranking``,
``.../team-crosstable``).  ``--no-individual`` leaves out the individual
events.

``--root DIR`` (repeatable) times another checkout (e.g. an export of
main) in a child process with the same seed; a route the checkout lacks
is reported as absent.

    python3 bench/event_pages.py [--views N] [--root DIR ...] [--no-big] [--no-papers]
                                 [--big-unplayed] [--big-papers] [--no-families]
                                 [--no-individual]

Measured 2026-12-04 22:57-23:02 on the 2-core machine, ``--views 10
--no-papers --root <main at 21c3edb> --root <this branch>`` back to back,
load average 17.7-22.0 (other sessions' benches): median (p99) of a kept
page, before -> after a kept event checked by the row's revision (the
whole settings text read and hashed per page before; the other families
read and ranked whole per page before):

* 500 x 11, anonymous page 56 (137) -> 23 (430) ms, player 70 (134) -> 46
  (85) ms, 18.6-19.0 KB; API event 62 -> 31 ms;
* 2,000 x 50, anonymous page 147 (147) -> 71 (156) ms, player 109 (156)
  -> 59 (64) ms, organiser 148 (204) -> 78 (88) ms, ``?round=1`` 115 (893)
  -> 89 (103) ms, 20.3-59.7 KB; API event 107 -> 55 ms;
* 16 groups of 16: page 486 (927) -> 58 (122) ms, API event 481 (2,508)
  -> 44 (88) ms, ``?group=3`` 894 -> 42 ms; 100 teams: organiser's API
  event 292 (638) -> 30 (38) ms; knock-outs of 64 and 256 alike.

The first view after a change still read the event (from_dict and the
standings: 3.9-5.1 s cold for 2,000 x 50 on this load).

After each individual event's views the bench enters results on the last
round's open boards (:data:`OPEN_BOARDS` left without one): by an
arbiter (``PUT``, timed with its answer) and as a finished server game
does (the hub's path, no answer), each followed by the first page view.
Measured 2026-12-05 01:56-02:00, ``--views 10 --no-papers --no-families
--root <main at 659e42e> --root <branch s4-pages>`` back to back, niced,
load average 12.2-15.0 (other sessions), median (p99) of 10 (500) and 5
(2,000) results, before -> after the writer hands its stored event and
standings to its pages (the standings kept from one change to the next,
an individual board's entry reading its own board):

* 500 x 11, first page view after a server game's result 556 (1,135) ->
  36 (66) ms; after an arbiter's 49 (163) -> 28 (142) ms; the arbiter's
  entry with its answer 1,592 (1,981) -> 155 (578) ms;
* 2,000 x 50, first page view after a server game's result 3,420 (4,932)
  -> 89 (155) ms; after an arbiter's 31 (69) -> 36 (96) ms (his own
  answer had read it); the arbiter's entry 9,170 (16,297) -> 2,039
  (4,073) ms; the server game's entry (the writer: the row's JSON read,
  the event written) 1,531 (2,673) -> 1,891 (3,187) ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def build(n: int, rounds: int, seed: int, swiss: bool, results: bool = True,
          open_last: int = 0) -> dict[str, Any]:
    """An event file of ``n`` entries and ``rounds`` rounds, all played
    (or, without ``results``, paired only: a Swiss is then paired as if
    every game were drawn); with ``open_last`` the last round's last
    ``open_last`` boards are left without a result (mid-round)."""
    from qisai.competition.events.file import EventFile, Header
    from qisai.competition.model import Pairing
    from qisai.competition.tournament import Player, Tournament

    rng = random.Random(seed)
    t = Tournament(f"bench {n}x{rounds}", "swiss", rounds=rounds, seed=seed)
    for i in range(n):
        t.add_player(Player(f"棋手{i + 1:04d}", rng.randint(1200, 2600), club=f"队{i % 60}"))
    t.start()
    for r in range(1, rounds + 1):
        if swiss:
            rec = t.pair_next_round()
        else:
            ids = list(range(1, n + 1))
            rng.shuffle(ids)
            rec = t.install_round(r, [Pairing(ids[2 * k], ids[2 * k + 1], k + 1)
                                      for k in range(n // 2)])
        if not results:
            continue
        left = len(rec.pairings) - open_last if r == rounds else len(rec.pairings)
        for p in rec.pairings[:left]:
            if p.is_bye or p.board in rec.results:
                continue
            x = rng.random()
            t.record_result(r, p.board, "1-0" if x < 0.40 else "=" if x < 0.65 else "0-1")
    return EventFile("individual", t, Header(t.name)).to_dict()


def build_family(kind: str, n: int) -> dict[str, Any]:
    """An event file of family ``kind`` (``knockout``: ``n`` entries; ``team``:
    ``n`` teams of five on 4 boards, a 7-round Swiss; ``groups``: ``n``
    groups of 16) with round 1 paired and played."""
    from qisai.competition.events.file import EventFile
    from qisai.competition.events.group_event import GroupEvent
    from qisai.competition.events.knockout_event import KnockoutEvent
    from qisai.competition.events.team_event import TeamEvent
    from qisai.competition.tournament import Player

    if kind == "knockout":
        ko = KnockoutEvent(f"bench KO {n}", series="single")
        ko.players = [Player(f"棋手{i:04d}", 2600 - i) for i in range(1, n + 1)]
        ko.start()
        for m in ko.pair_next_round():
            if m.black is not None:
                ko.record_game(1, m.index, 1, "1-0")
        return EventFile("knockout", ko).to_dict()
    if kind == "team":
        tm = TeamEvent(f"bench teams {n}", system="swiss", rounds=7, boards=4)
        for i in range(1, n + 1):
            tm.add_team(f"队{i:03d}", [f"队{i:03d}-{j}" for j in range(1, 6)])
        tm.start()
        tm.pair_next_round()
        assert tm.tt is not None
        for tmatch in tm.tt.rounds[0]:
            if tmatch.black_team is not None:
                for b in range(1, 5):
                    tm.record_board(1, tmatch.board, b, "1-0")
        return EventFile("team", tm).to_dict()
    g = GroupEvent(f"bench groups {n}", groups=n, advance=2)
    g.players = [Player(f"棋手{i:04d}", 2600 - i) for i in range(1, 16 * n + 1)]
    g.start()
    g.pair_next_round()
    for grp, t, _ in g.round_parts(1):
        for p in t.rounds[0].pairings:
            if p.black is not None:
                g.record_result(1, grp, p.board, "1-0")
    return EventFile("groups", g).to_dict()


def timed(client: Any, method: str, url: str, runs: int, **kw: Any) -> dict[str, Any]:
    """``runs`` requests after one cold one: times (s), size (bytes), status."""
    out: dict[str, Any] = {"times": [], "size": 0, "status": 0}
    t0 = time.perf_counter()
    r = client.request(method, url, **kw)
    out["cold"] = time.perf_counter() - t0
    out["status"], out["size"] = r.status_code, len(r.content)
    if out["cold"] > 5:  # seconds a view (a checkout before issue 29): one more will do
        runs = min(runs, 1)
    for _ in range(runs):
        t0 = time.perf_counter()
        r = client.request(method, url, **kw)
        out["times"].append(time.perf_counter() - t0)
    return out


def show(label: str, m: dict[str, Any]) -> None:
    """Print one request's figures."""
    if m["status"] == 404 and m["size"] < 200:
        print(f"    {label:44s} absent (404)")
        return
    ts = sorted(m["times"]) or [m["cold"]]
    p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
    print(f"    {label:44s} {m['status']} cold {m['cold'] * 1000:7.0f} ms  median "
          f"{statistics.median(ts) * 1000:6.0f} ms  p99 {p99 * 1000:6.0f} ms  max "
          f"{max(ts) * 1000:6.0f} ms  {m['size'] / 1024:8.1f} KB")


OPEN_BOARDS = 40
"""Boards of the last round left without a result, entered by the bench."""


def after_result(client: Any, app: Any, tid: int, rounds: int, open_boards: int,
                 oh: dict[str, str], page: str, runs: int) -> None:
    """Time the first view of the event page after a result, ``runs`` times
    each: entered by an arbiter (``PUT .../boards/{b}``, timed with its
    answer, the event's view) and by a finished server game (the hub's
    path, :func:`qisai.web.events.results.enter_result` without a user,
    which answers nobody), on the last round's open boards."""
    from qisai.store import repo
    from qisai.web.events.model import LOCK
    from qisai.web.events.results import IndividualBoard, enter_result

    runs = min(runs, open_boards // 2)
    url = f"/api/tournaments/{tid}/rounds/{rounds}/boards"
    total = client.get(url + "?limit=1").json()["boards_total"]
    last = client.get(url + f"?limit=200&offset={max(0, total - 200)}").json()
    boards = [b["board"] for b in last["boards"] if b["result"] is None and b["black"]]
    put: dict[str, Any] = {"times": [], "size": 0, "status": 0, "cold": 0.0}
    first: dict[str, Any] = {"times": [], "size": 0, "status": 0, "cold": 0.0}
    server: dict[str, Any] = {"times": [], "size": 0, "status": 0, "cold": 0.0}
    after: dict[str, Any] = {"times": [], "size": 0, "status": 0, "cold": 0.0}
    for k in range(runs):
        t0 = time.perf_counter()
        r = client.put(f"/api/tournaments/{tid}/rounds/{rounds}/boards/{boards[2 * k]}",
                       json={"result": "1-0"}, headers=oh)
        put["times"].append(time.perf_counter() - t0)
        put["status"], put["size"] = r.status_code, len(r.content)
        t0 = time.perf_counter()
        r = client.get(page)
        first["times"].append(time.perf_counter() - t0)
        first["status"], first["size"] = r.status_code, len(r.content)
        t0 = time.perf_counter()
        with LOCK, app.state.qisai.db.session() as s:
            done = enter_result(s, repo.get_tournament(s, tid),
                                IndividualBoard((rounds, boards[2 * k + 1])), "=", user=None)
        server["times"].append(time.perf_counter() - t0)
        server["status"] = 200 if done.entered else 409
        t0 = time.perf_counter()
        r = client.get(page)
        after["times"].append(time.perf_counter() - t0)
        after["status"], after["size"] = r.status_code, len(r.content)
    for label, m in (("result by an arbiter (PUT, with its answer)", put),
                     ("  first page view after it", first),
                     ("result by a server game (in process)", server),
                     ("  first page view after it", after)):
        m["cold"] = m["times"][0]
        show(label, m)


def worker(views: int, big: bool, papers: bool, big_results: bool, big_papers: bool,
           individual: bool = True, families: bool = True) -> None:
    """Run the bench with the qisai first on ``sys.path`` (the child)."""
    from fastapi.testclient import TestClient

    from qisai.store import repo
    from qisai.store.models import Role
    from qisai.web import Settings, create_app
    from qisai.web.bounds import BodyLimitMiddleware

    print(f"  qisai from {Path(sys.modules['qisai'].__file__ or '').parent}")
    with tempfile.TemporaryDirectory(prefix="qisai-pages-") as tmp:
        settings = Settings.from_env(Path(tmp) / "data", url=f"sqlite:///{tmp}/arena.sqlite3")
        app = create_app(settings)
        for m in app.user_middleware:  # the 2,000 x 50 file is over 1 MiB
            if m.cls is BodyLimitMiddleware:
                m.kwargs["default"] = 64 << 20
        with TestClient(app) as c:
            def user(name: str) -> dict[str, Any]:
                r = c.post("/api/auth/register", json={"username": name,
                                                       "password": "correct horse"})
                assert r.status_code == 201, r.text
                c.cookies.clear()
                data: dict[str, Any] = r.json()
                return {"Authorization": f"Bearer {data['token']}", "id": data["user"]["id"]}

            org, player = user("org"), user("player")
            with app.state.qisai.db.session() as s:
                repo.set_role(s, org["id"], Role.ORGANISER)
            oh = {"Authorization": org["Authorization"]}
            sizes = [(500, 11, True, True)] + ([(2000, 50, False, big_results)] if big else [])
            if not individual:
                sizes = []
            for n, rounds, swiss, results in sizes:
                t0 = time.perf_counter()
                data = build(n, rounds, 2026, swiss, results,
                             open_last=OPEN_BOARDS if results else 0)
                print(f"  {n} entries x {rounds} rounds, "
                      f"{'every result in' if results else 'paired, no result'} (built in "
                      f"{time.perf_counter() - t0:.1f} s, file {len(json.dumps(data)) // 1024} "
                      "KiB)")
                t0 = time.perf_counter()
                r = c.post("/api/tournaments/import", json=data, headers=oh)
                print(f"    {'import':44s} {r.status_code} {time.perf_counter() - t0:7.2f} s "
                      f"(answer {len(r.content) / 1024:.0f} KB)")
                assert r.status_code == 201, r.text[:500]
                tid = r.json()["id"]
                with app.state.qisai.db.session() as s:  # the player's entry: number 7
                    row = repo.get_tournament(s, tid)
                    settings_ = dict(row.settings)
                    settings_["users"] = {"棋手0007": player["id"]}
                    repo.save_tournament(s, tid, settings=settings_)
                ph = {"Authorization": player["Authorization"]}
                page = f"/tournaments/{tid}"
                api = f"/api/tournaments/{tid}"
                runs = views if n <= 500 else max(2, views // 2)
                for label, url, kw in (
                        ("event page (anonymous)", page, {}),
                        ("event page (player, own line)", page, {"headers": ph}),
                        ("event page (organiser)", page, {"headers": oh}),
                        ("event page ?q=棋手012 (search)", page + "?q=棋手012", {}),
                        ("event page ?round=1", page + "?round=1", {}),
                        ("event page ?at=400&round=5&from=200",
                         page + "?at=400&round=5&from=200", {}),
                        ("API standings ?offset=400&limit=50",
                         api + "/standings?offset=400&limit=50", {}),
                        ("API round 5 boards ?offset=200&limit=100",
                         api + "/rounds/5/boards?offset=200&limit=100", {}),
                        ("API crosstable ?offset=400&limit=50",
                         api + "/crosstable?offset=400&limit=50", {}),
                        ("API entries ?q=棋手01", api + "/entries?q=棋手01", {}),
                        ("API event (whole, unchanged)", api, {})):
                    show(label, timed(c, "GET", url, runs if "whole" not in label else 2,
                                      **kw))
                after_result(c, app, tid, rounds, OPEN_BOARDS, oh, page, runs)
                if papers and (n <= 500 or big_papers):
                    for kind in ("pairings", "standings", "crosstable", "slips", "ratings"):
                        show(f"paper {kind}", timed(
                            c, "GET", f"/tournaments/{tid}/papers/{kind}.pdf", 1, headers=oh))
            for kind, n in ((("knockout", 64), ("knockout", 256), ("team", 64), ("team", 100),
                             ("groups", 4), ("groups", 16)) if families else ()):
                data = build_family(kind, n)
                what = {"knockout": "entries", "team": "teams", "groups": "groups of 16"}[kind]
                print(f"  {kind}, {n} {what}, round 1 played (file "
                      f"{len(json.dumps(data)) // 1024} KiB)")
                t0 = time.perf_counter()
                r = c.post("/api/tournaments/import", json=data, headers=oh)
                print(f"    {'import':44s} {r.status_code} {time.perf_counter() - t0:7.2f} s")
                assert r.status_code == 201, r.text[:500]
                tid = r.json()["id"]
                page, api = f"/tournaments/{tid}", f"/api/tournaments/{tid}"
                checks = [("event page (anonymous)", page, {}),
                          ("event page (organiser)", page, {"headers": oh}),
                          ("event page ?round=1&from=32&at=32", page + "?round=1&from=32&at=32",
                           {}),
                          ("API event (anonymous)", api, {}),
                          ("API event (organiser)", api, {"headers": oh}),
                          ("API round 1 matches ?offset=32&limit=50",
                           api + "/rounds/1/matches?offset=32&limit=50", {}),
                          ("API field ?q=1", api + "/field?q=1", {}),
                          ("API ranking ?offset=0&limit=50", api + "/ranking?limit=50", {})]
                if kind == "team":
                    checks.append(("API team-crosstable ?offset=50&limit=50",
                                   api + "/team-crosstable?offset=50&limit=50", {}))
                if kind == "groups":
                    checks.append(("event page ?group=3", page + "?group=3", {}))
                for label, url, kw in checks:
                    show(label, timed(c, "GET", url, views, **kw))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--views", type=int, default=20, help="timed requests of each kind")
    ap.add_argument("--root", type=Path, action="append",
                    help="checkout of qisai to time (repeat for several; default: this one)")
    ap.add_argument("--no-big", action="store_true", help="only the 500-entry event")
    ap.add_argument("--no-papers", action="store_true")
    ap.add_argument("--big-unplayed", action="store_true",
                    help="the 2,000 x 50 event paired only, no result (an 0.8 MiB file, "
                         "which a checkout without bulk import stores in minutes, not hours)")
    ap.add_argument("--big-papers", action="store_true",
                    help="time the papers of the 2,000 x 50 event too")
    ap.add_argument("--no-families", action="store_true",
                    help="leave out the knock-out, team and group events")
    ap.add_argument("--no-individual", action="store_true",
                    help="leave out the individual events (500 and 2,000 entries)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.views, not a.no_big, not a.no_papers, not a.big_unplayed, a.big_papers,
               not a.no_individual, not a.no_families)
        return
    load = os.getloadavg()
    print(f"event pages; {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f}")
    for root in [r.resolve() for r in a.root] if a.root else [ROOT]:
        print(f"checkout {root}")
        argv = [sys.executable, __file__, "--worker", "--views", str(a.views)]
        argv += ["--no-big"] if a.no_big else []
        argv += ["--no-papers"] if a.no_papers else []
        argv += ["--big-unplayed"] if a.big_unplayed else []
        argv += ["--big-papers"] if a.big_papers else []
        argv += ["--no-families"] if a.no_families else []
        argv += ["--no-individual"] if a.no_individual else []
        sys.stdout.flush()
        subprocess.run(argv, env=dict(os.environ, PYTHONPATH=str(root)), check=True)
        print(f"  load average now {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
