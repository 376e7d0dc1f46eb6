"""Leaving an event (rule text, 第二十条):

* 20.2 在比赛开始前退出 — before the start the entry is removed (players or
  teams) and the numbers are drawn again;
* 20.3 循环制: fewer than half the opponents met strikes the results out,
  otherwise the rest are forfeits;
* 20.4 在积分编排制比赛中，不论是否过半，已赛结果均有效，未赛对局均作弃权，对方获胜
  — in a Swiss, results stand however few, unplayed games are forfeits.
"""

from __future__ import annotations

import random

import pytest

from qisai.competition.errors import CompetitionError, EntryError, EventStateError
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.competition.model import Result
from qisai.competition.tournament import Player, System, Tournament

from ._sim import make_event, play_round


# ----------------------------------------------------- Tournament (20.4)
def test_swiss_withdrawal_after_one_round_keeps_its_result() -> None:
    """20.4: 不论是否过半 — even after one round of five the result stands."""
    t = make_event(8, "swiss", 5, 2)
    rng = random.Random(2)
    play_round(t, rng)
    first = [g for g in t.games() if 4 in (g.red, g.black)]
    assert len(first) == 1 and first[0].result.played
    t.withdraw(4)
    assert t.player(4).withdrawn_after == 1
    assert [p.id for p in t.active(2)] == [1, 2, 3, 5, 6, 7, 8]
    assert [p.id for p in t.active(1)] == list(range(1, 9))
    for _ in range(4):
        play_round(t, rng)
    assert [g for g in t.games() if 4 in (g.red, g.black)] == first
    # seven left: one bye a round, never to the withdrawn entry
    for rec in t.rounds[1:]:
        assert len(rec.pairings) == 4
        assert sum(p.is_bye for p in rec.pairings) == 1
        assert all(4 not in p.players() for p in rec.pairings)
    standing = {s.entry: s for s in t.standings()}
    assert 4 in standing  # still ranked, with the points it won
    assert standing[4].points == t.scoring.game_points(first[0], 4)


def test_withdrawal_from_a_paired_round_forfeits_the_unplayed_game_only() -> None:
    t = make_event(8, "swiss", 3, 4)
    rec = t.pair_next_round()
    assert len(rec.pairings) == 4
    played, unplayed, later = rec.pairings[0], rec.pairings[1], rec.pairings[2]
    t.record_result(1, played.board, Result.DRAW)
    # gone before finishing round 1 (after round 0): entered results stand,
    # 未赛对局均作弃权，对方获胜 — the open game is entered at once
    t.withdraw(played.red, after_round=0)
    assert rec.results[played.board].result is Result.DRAW
    t.withdraw(unplayed.black, after_round=0)
    assert rec.results[unplayed.board].result is Result.RED_FORFEIT_WIN
    assert t.player(unplayed.black).withdrawn_after == 0
    # the default is after the round paired last: its game is still played
    assert later.black is not None
    t.withdraw(later.black)
    assert t.player(later.black).withdrawn_after == 1
    assert later.board not in rec.results
    t.record_result(1, later.board, Result.BLACK_WIN)
    t.record_result(1, rec.pairings[3].board, Result.RED_WIN)
    rec2 = t.pair_next_round()
    gone = {played.red, unplayed.black, later.black}
    assert all(not (gone & set(p.players())) for p in rec2.pairings)
    assert sum(len(p.players()) for p in rec2.pairings) == 5


def test_both_players_of_a_game_withdraw() -> None:
    t = make_event(6, "swiss", 3, 5)
    rec = t.pair_next_round()
    p = rec.pairings[0]
    assert p.black is not None
    t.withdraw(p.red, after_round=0)
    assert rec.results[p.board].result is Result.BLACK_FORFEIT_WIN
    t.withdraw(p.black, after_round=0)  # entered already: it stands
    assert rec.results[p.board].result is Result.BLACK_FORFEIT_WIN


def test_withdraw_errors() -> None:
    t = Tournament("x", System.SWISS, rounds=3, seed=0)
    for i in range(4):
        t.add_player(Player(f"P{i}"))
    with pytest.raises(EventStateError, match="remove_player"):
        t.withdraw(1)  # 20.2 is removal, before the start
    t.start()
    with pytest.raises(EntryError):
        t.withdraw(9)
    with pytest.raises(EventStateError, match="round 2"):
        t.withdraw(1, after_round=2)  # no round 2 yet
    with pytest.raises(EventStateError, match="remove_player|withdraw"):
        t.remove_player("P1")
    with pytest.raises(EventStateError, match="closed"):
        t.add_player(Player("late"))


def test_remove_player_before_the_start() -> None:
    """20.2: removed entries are gone, the rest numbered 1..n again; an
    unknown name is an error."""
    t = Tournament("x", System.SWISS, rounds=3, seed=0)
    for i in range(6):
        t.add_player(Player(f"P{i}", 2000 - i))
    t.remove_player("P0")
    t.remove_player("P5")
    with pytest.raises(EntryError, match="P9"):
        t.remove_player("P9")
    with pytest.raises(EntryError, match="P0"):
        t.remove_player("P0")  # removed already
    t.start()
    assert sorted(p.name for p in t.players) == ["P1", "P2", "P3", "P4"]
    assert sorted(p.id for p in t.players) == [1, 2, 3, 4]
    rec = t.pair_next_round()
    assert len(rec.pairings) == 2 and not any(p.is_bye for p in rec.pairings)


# ------------------------------------------------------------ team events
def _team_event(system: str = "round_robin", teams: int = 4) -> TeamEvent:
    e = TeamEvent("teams", system=system, rounds=3 if system == "swiss" else None, boards=2,
                  seed=1)
    for k in range(teams):
        e.add_team(f"T{k}", [f"T{k}a", f"T{k}b", f"T{k}c"])
    return e


def test_remove_team_before_the_start() -> None:
    e = _team_event(teams=5)
    e.remove_team("T2")
    assert [t.name for t in e.teams] == ["T0", "T1", "T3", "T4"]
    with pytest.raises(CompetitionError, match="T2"):
        e.remove_team("T2")
    e.start()
    assert sorted(t.id for t in e.teams) == [1, 2, 3, 4]
    assert "T2" not in {t.name for t in e.teams}
    with pytest.raises(EventStateError, match="started"):
        e.remove_team("T0")
    with pytest.raises(EventStateError):
        e.add_team("T9", ["x", "y"])


def test_team_withdrawal_in_a_swiss_keeps_results_and_forfeits_the_open_match() -> None:
    e = _team_event("swiss", teams=6)
    e.start()
    assert e.pair_next_round() == 1
    matches = e.tt.rounds[0]  # type: ignore[union-attr]
    assert len(matches) == 3
    for m in matches:
        for board in (1, 2):
            e.record_board(1, m.board, board, "1-0")
    e.pair_next_round()
    leaver = e.tt.team(e.tt.rounds[1][0].red_team).name  # type: ignore[union-attr]
    before = set(e.records())
    said = e.withdraw(leaver)
    assert "20.4" in said and "forfeited" in said
    leaver_id = next(t.id for t in e.teams if t.name == leaver)
    assert e.withdrawn[leaver_id] == 1
    assert e.tt.rounds[1][0].forfeit is not None  # type: ignore[union-attr]
    assert e.annulled_teams() == set()  # 20.4: no striking out in a Swiss
    assert leaver_id in {s.entry for s in e.standings()}
    assert before == set(e.records())  # everyone keeps a record
    with pytest.raises(EventStateError, match="withdrew already"):
        e.withdraw(leaver)
    with pytest.raises(CompetitionError, match="no team"):
        e.withdraw("nobody")


def test_team_withdrawal_early_in_a_round_robin_strikes_results() -> None:
    """20.3 for teams: one match of three played, fewer than half."""
    e = _team_event("round_robin", teams=4)
    e.start()
    e.pair_next_round()
    for m in e.tt.rounds[0]:  # type: ignore[union-attr]
        for board in (1, 2):
            e.record_board(1, m.board, board, "1/2-1/2")
    leaver = e.teams[0]
    said = e.withdraw(leaver.name)
    assert "20.3" in said and "struck out" in said
    assert e.annulled_teams() == {leaver.id}
    assert leaver.id not in {s.entry for s in e.standings()}
    assert len(e.standings()) == 3


# ------------------------------------------------------ knock-out events
def test_knockout_withdrawal_after_the_start_gives_the_match_away() -> None:
    e = KnockoutEvent("ko", series="single", seed=3)
    for k in range(4):
        e.add_player(Player(f"K{k}", 2000 - 10 * k))
    e.remove_player("K3")  # 20.2 before the start
    e.add_player(Player("K4", 1900))
    e.start()
    with pytest.raises(EventStateError):
        e.remove_player("K0")
    e.pair_next_round()
    m = e.rounds[0][0]
    assert m.black is not None and m.winner is None
    e.withdraw(m.red, "ill")
    assert m.winner == m.black
    assert "20.4" in e.decisions[f"1:{m.index}"]["reason"]
    with pytest.raises(EventStateError, match="no undecided match"):
        e.withdraw(m.red, "again")
