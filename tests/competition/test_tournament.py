"""Tournament: round robin and Swiss events, withdrawals (20.2-20.4), late
arrival (21), persistence and errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from qisai.competition.errors import (
    CompetitionError,
    EntryError,
    EventFileError,
    EventStateError,
    ResultError,
)
from qisai.competition.model import Result
from qisai.competition.scoring import CXA_2011, TRIAL_2007
from qisai.competition.tiebreaks import Criterion
from qisai.competition.tournament import Player, System, Tournament

from ._sim import make_event, play_round


def _rr(n: int, seed: int = 0) -> Tournament:
    return make_event(n, "round_robin", None, seed)


def _play_all(t: Tournament, rng: random.Random) -> None:
    while not t.finished:
        play_round(t, rng)


def test_round_robin_follows_berger_and_13_1_colours() -> None:
    t = _rr(6)
    rec = t.pair_next_round()
    assert [(p.red, p.black) for p in rec.pairings] == [(1, 6), (2, 5), (3, 4)]
    assert t.rounds_planned == 5
    for p in rec.pairings:
        t.record_result(1, p.board, Result.DRAW)
    _play_all(t, random.Random(1))
    # everyone met everyone once
    met = {frozenset((g.red, g.black)) for g in t.games()}
    assert len(met) == 15


def test_round_robin_numbers_drawn_by_lot() -> None:
    # 制签: numbers drawn at the start, reproducible by seed
    orders = set()
    for seed in range(10):
        t = Tournament("x", System.ROUND_ROBIN, seed=seed)
        for i in range(6):
            t.add_player(Player(f"P{i}"))
        t.start()
        orders.add(tuple(p.name for p in t.players))
    assert len(orders) > 5


def test_odd_round_robin_bye_scores_nothing() -> None:
    t = _rr(5)
    _play_all(t, random.Random(2))
    assert all(g.black is not None for g in t.games())
    assert sum(s.points for s in t.standings()) == 10  # 10 games x 1 point


def test_double_round_robin_two_cycles() -> None:
    t = make_event(4, "double_round_robin")
    _play_all(t, random.Random(3))
    assert len(t.games()) == 12
    for a in range(1, 5):
        for b in range(a + 1, 5):
            colours = [(g.red, g.black) for g in t.games() if {g.red, g.black} == {a, b}]
            assert sorted(colours) == sorted([(a, b), (b, a)])  # 13.5 colours swapped


def test_20_3_withdrawal_before_half_annuls_results() -> None:
    t = _rr(8)  # 7 opponents each: fewer than half = 3 or fewer played
    rng = random.Random(4)
    for _ in range(3):
        play_round(t, rng)
    t.withdraw(5)
    _play_all(t, rng)
    assert 5 in t.annulled_entries()
    assert all(5 not in (g.red, g.black) for g in t.games())
    assert 5 not in {s.entry for s in t.standings()}
    assert sum(s.points for s in t.standings()) == 21  # the 7 others' 21 games
    assert t.crosstable()[5] == {} and all(5 not in row for row in t.crosstable().values())


def test_20_3_withdrawal_at_half_keeps_results_and_forfeits_rest() -> None:
    t = _rr(9)  # 8 opponents: exactly 4 played counts as half (results stand)
    rng = random.Random(5)
    while True:
        play_round(t, rng)
        played = sum(1 for g in t.games() if 5 in (g.red, g.black) and g.result.played)
        if played == 4:
            break
    t.withdraw(5)
    _play_all(t, rng)
    assert t.annulled_entries() == set()
    rest = [g for g in t.games() if 5 in (g.red, g.black) and not g.result.played]
    assert len(rest) == 4
    for g in rest:  # 其余未赛对局均作弃权，对方获胜
        assert g.outcome_of(5).value == "forfeit_loss"


def test_20_4_swiss_withdrawal_keeps_results() -> None:
    t = make_event(10, "swiss", 5, 1)
    rng = random.Random(6)
    play_round(t, rng)
    play_round(t, rng)
    before = [g for g in t.games() if 3 in (g.red, g.black)]
    t.withdraw(3)
    for _ in range(3):
        play_round(t, rng)
    assert [g for g in t.games() if 3 in (g.red, g.black)] == before
    for rec in t.rounds[2:]:
        assert all(3 not in p.players() for p in rec.pairings)


def test_swiss_withdrawal_after_pairing_forfeits_the_game() -> None:
    t = make_event(6, "swiss", 3, 1)
    rec = t.pair_next_round()
    victim = rec.pairings[0].red
    t.withdraw(victim, after_round=0)
    g = t.rounds[0].results[rec.pairings[0].board]
    assert g.result is Result.BLACK_FORFEIT_WIN


def test_20_2_withdrawal_before_start_redraws() -> None:
    t = Tournament("x", System.ROUND_ROBIN, seed=1)
    for i in range(5):
        t.add_player(Player(f"P{i}"))
    t.remove_player("P2")
    t.start()
    assert sorted(p.id for p in t.players) == [1, 2, 3, 4]
    assert t.rounds_planned == 3
    with pytest.raises(EventStateError):
        t.remove_player("P1")


def test_21_late_arrival_forfeit_marks() -> None:
    t = make_event(4, "swiss", 2, 0)
    rec = t.pair_next_round()
    t.record_result(1, 1, "+-")  # 21.1/21.4: Black beyond the limit
    t.record_result(1, 2, "--")  # 21.3: both beyond the limit
    st = {s.entry: s.points for s in t.standings()}
    b1, b2 = rec.pairings[0], rec.pairings[1]
    assert st[b1.red] == 1 and st[b1.black] == 0
    assert st[b2.red] == 0 and st[b2.black] == 0
    marks = t.crosstable()
    assert marks[b1.red][b1.black] == ["+"] and marks[b1.black][b1.red] == ["-"]


def test_trial_2007_scoring_in_an_event() -> None:
    t = make_event(4, "round_robin", None, 0, scoring=TRIAL_2007)
    rec = t.pair_next_round()
    assert len(rec.pairings) == 2  # 4 players, round robin: two boards, no bye
    for p in rec.pairings:
        t.record_result(1, p.board, Result.DRAW)
    st = {s.entry: s.points for s in t.standings()}
    assert len(st) == 4
    for p in rec.pairings:
        assert st[p.red] == 1 and st[p.black] == 2
    assert sorted(st.values()) == [1, 1, 2, 2]


def test_state_errors() -> None:
    t = make_event(4, "swiss", 3, 0)
    t.pair_next_round()
    with pytest.raises(EventStateError, match="lacks results"):
        t.pair_next_round()
    with pytest.raises(ResultError, match="no board"):
        t.record_result(1, 9, "1-0")
    with pytest.raises(ResultError, match="not been paired"):
        t.record_result(2, 1, "1-0")
    t.record_result(1, 1, "1-0")
    with pytest.raises(ResultError, match="already entered"):
        t.record_result(1, 1, "0-1")
    t.record_result(1, 1, "0-1", overwrite=True)
    with pytest.raises(EventStateError):
        t.add_player(Player("late"))
    with pytest.raises(EntryError):
        t.player(99)
    u = Tournament("y", System.SWISS, rounds=5)
    u.add_player(Player("a"))
    with pytest.raises(EntryError, match="duplicate"):
        u.add_player(Player("a"))
    with pytest.raises(EventStateError, match="two entries"):
        u.start()
    with pytest.raises(CompetitionError, match="unknown system"):
        Tournament("z", "league")


def test_json_round_trip_and_continue(tmp_path: Path) -> None:
    t = make_event(9, "swiss", 4, 3, scoring=CXA_2011,
                   tiebreaks=[Criterion.BUCHHOLZ, Criterion.CUMULATIVE_CUT])
    rng = random.Random(7)
    play_round(t, rng)
    play_round(t, rng)
    path = tmp_path / "ev.json"
    t.save(path)
    u = Tournament.load(path)
    assert u.to_dict() == t.to_dict()
    play_round(t, random.Random(8))
    play_round(u, random.Random(8))
    assert u.to_dict() == t.to_dict()  # the same seed pairs the same way after reload
    assert [s.entry for s in u.standings()] == [s.entry for s in t.standings()]


def test_bad_event_files(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    with pytest.raises(EventFileError, match="cannot read"):
        Tournament.load(p)
    p.write_text("{not json")
    with pytest.raises(EventFileError, match="line 1"):
        Tournament.load(p)
    p.write_text("[]")
    with pytest.raises(EventFileError, match="object"):
        Tournament.load(p)
    good = make_event(4, "swiss", 2, 0).to_dict()
    for mutate in (lambda d: d.pop("players"),
                   lambda d: d.update(format="other"),
                   lambda d: d.update(system="league"),
                   lambda d: d["players"][0].update(id=7),
                   lambda d: d.update(tiebreaks=["median"]),
                   lambda d: d.update(rounds=[{"number": 1, "pairings": [[1, 1, 99]],
                                               "results": []}])):
        d = json.loads(json.dumps(good))
        mutate(d)
        p.write_text(json.dumps(d))
        with pytest.raises(EventFileError):
            Tournament.load(p)


def test_15_2_swiss_default_order_and_elo() -> None:
    t = make_event(8, "swiss", 3, 4)
    assert t.tiebreaks == (Criterion.BUCHHOLZ, Criterion.WINS, Criterion.FOULS)
    assert _rr(4).tiebreaks == (Criterion.SONNEBORN_BERGER, Criterion.WINS,
                                Criterion.DIRECT_ENCOUNTER, Criterion.FOULS)
    rng = random.Random(9)
    _play_all(t, rng)
    new = t.rating_changes(k=10)
    assert set(new) == {p.id for p in t.players}
    # Elo is zero-sum when everyone is rated with the same K
    assert abs(sum(new.values()) - sum(p.rating for p in t.players)) < 1e-6


def test_swiss_seeding_by_rating_unrated_last_or_as_registered() -> None:
    t = Tournament("s", System.SWISS, rounds=2, seed=1)
    for name, rating in [("u1", 0), ("a", 2000), ("b", 2300), ("u2", 0), ("c", 2100)]:
        t.add_player(Player(name, rating))
    t.start()
    assert [p.name for p in t.players][:3] == ["b", "c", "a"]
    assert {p.name for p in t.players[3:]} == {"u1", "u2"}
    k = Tournament("k", System.SWISS, rounds=2, draw_numbers=False)
    for name in ["x", "y", "z"]:
        k.add_player(Player(name, 1000))
    k.start()
    assert [p.name for p in k.players] == ["x", "y", "z"]
