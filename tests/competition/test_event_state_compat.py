"""Stored arena events keep loading (one event model, issue h18).

The arena keeps each event's state as JSON in its row (``settings["event"]``)
and now loads it with :mod:`qisai.competition.events`.  The fixture
``tests/data/events/arena_states.json`` was written by the arena's former
event modules (``qisai/web/events/{knockout,group,team,mcmahon}.py`` at
4e78748, before they were deleted): for every format, the state as the arena
stored it and what the arena then showed (standings, placings, the boards
due, each series game's colours).  The competition model must read those
states and show the same, and save them so that they read back the same.

Two-game knock-outs (13.5) are the case to watch: the arena drew game 1's
colours by a second lot, the competition model gives game 1 the bracket's
colours (13.4 猜先 at the pairing, or the red card of 000 clause 9).  A
stored series replayed under the new rule would read its recorded results
("1-0" is a Red win) for the wrong side, so a stored arena event keeps the
rule it was started under (``first_colours=None``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.mcmahon_event import McMahonTournament
from qisai.competition.events.team_event import TeamEvent

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "events" / "arena_states.json"


def _standings(rows: Any) -> list[list[Any]]:
    return [[s.rank, s.entry, s.points, s.penalty, s.shared,
             {getattr(c, "value", str(c)): str(v) for c, v in s.values.items()}]
            for s in rows]


def _rounds(t: Any) -> list[list[list[Any]]]:
    """The boards of an individual event's rounds with their results."""
    return [[[p.board, p.red, p.black,
              None if p.board not in r.results else r.results[p.board].result.value]
             for p in r.pairings] for r in t.rounds]


def summary(kind: str, ev: Any) -> dict[str, Any]:
    """What the arena shows of an event, through the public API only (the
    same function ran on the old arena classes to write the fixture)."""
    if kind == "knockout":
        series: dict[str, Any] = {}
        for rnd in ev.rounds:
            for m in rnd:
                s = ev.series(m.round, m.index)
                if s is None:
                    continue
                series[f"{m.round}:{m.index}"] = {
                    "games": [[g.number, g.kind, g.red, g.black, res.value]
                              for g, res in s.games],
                    "score": sorted(s.score().items()), "decided": s.decided,
                    "winner": s.winner, "awaiting": ev.awaiting_choice(m.round, m.index)}
        return {"rounds": [[[m.red, m.black, m.winner] for m in rnd] for rnd in ev.rounds],
                "next_games": [[list(b.key), b.red, b.black, b.kind]
                               for b in ev.next_games()],
                "series": series, "placements": [list(p) for p in ev.placements()],
                "finished": ev.finished}
    if kind == "group":
        return {"boards": [[[list(b.key), b.red, b.black, b.kind] for b in ev.boards(r)]
                           for r in range(1, ev.paired_rounds + 1)],
                "groups": [_standings(t.standings()) for t in ev.groups],
                "final": None if ev.final is None else _standings(ev.final.standings()),
                "qualifiers": [p.name for p in ev.qualifiers()] if ev.groups_finished
                else None,
                "placements": [list(p) for p in ev.placements()], "finished": ev.finished}
    if kind == "team":
        tt = ev.tt
        return {"rounds": [[[m.board, m.red_team, m.black_team] for m in rnd]
                           for rnd in tt.rounds],
                "boards": {k: [list(b) for b in ev.board_players(*map(int, k.split(":")))]
                           for k in sorted(ev.matches)},
                "results": {k: ev.matches[k] for k in sorted(ev.matches)},
                "standings": _standings(ev.standings()), "crosstable": ev.crosstable(),
                "finished": ev.finished}
    if kind == "mcmahon":
        return {"rounds": _rounds(ev), "standings": _standings(ev.standings()),
                "start_scores": {str(p.id): ev.start_score(p.id) for p in ev.players},
                "finished": ev.finished}
    raise AssertionError(kind)


def load(kind: str, state: Mapping[str, Any]) -> Any:
    """Load a stored state as the arena does (``qisai.web.events.model``)."""
    if kind == "knockout":
        return KnockoutEvent.from_dict(state)
    if kind == "group":
        return GroupEvent.from_dict(state)
    if kind == "team":
        return TeamEvent.from_dict(state)
    return McMahonTournament.from_dict(state, source="fixture")


def _cases() -> dict[str, Any]:
    return dict(json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"])


def _plain(x: Any) -> Any:
    return json.loads(json.dumps(x))


CASES = ("knockout_two_games", "knockout_best_of_three_cards", "knockout_league_2021",
         "knockout_double_single", "group_round_robin", "team_round_robin", "mcmahon")


def test_the_fixture_has_every_case() -> None:
    assert sorted(_cases()) == sorted(CASES)


@pytest.mark.parametrize("name", CASES)
def test_stored_arena_state_loads_and_shows_the_same(name: str) -> None:
    case = _cases()[name]
    expected = dict(case["expected"])
    if case["kind"] == "team":
        # issue 33.5: the crosstable's header is Chinese now (序号, 队名, 场分); its
        # cells are what the arena showed
        assert expected["crosstable"][0][:2] == ["#", "team"]
        expected["crosstable"] = [["序号", "队名", *expected["crosstable"][0][2:-1], "场分"],
                                  *expected["crosstable"][1:]]
    ev = load(case["kind"], case["state"])
    assert _plain(summary(case["kind"], ev)) == expected
    # and what the competition model saves reads back the same
    again = load(case["kind"], _plain(ev.to_dict()))
    assert _plain(summary(case["kind"], again)) == expected
