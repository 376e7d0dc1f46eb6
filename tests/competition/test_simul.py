"""Simultaneous displays (同时对弈): seed 001's figures and the limits of 21."""

from __future__ import annotations

import json

import pytest

from qisai.competition.model import Outcome
from qisai.competition.simul import (
    MAX_BOARDS,
    MAX_ENGINES,
    MAX_GROUP,
    Simul,
    SimulEntrant,
    SimulError,
    SimulSettings,
    SimulStatus,
)


def _entrants(n: int) -> list[SimulEntrant]:
    return [SimulEntrant(f"user:{i}", f"P{i}") for i in range(1, n + 1)]


def _simul(n: int, **settings: object) -> Simul:
    s = Simul("user:0", SimulSettings(**settings))  # type: ignore[arg-type]
    for e in _entrants(n):
        s.join(e)
    return s


def test_seed_001_chengdu_108_boards_score_reads_as_the_seed() -> None:
    # 柳大华, Chengdu 2006: 108 opponents, 69 wins, 30 draws, 9 losses.
    s = _simul(108, max_boards=120)
    boards = s.start()
    assert [b.number for b in boards] == list(range(1, 109))
    results = [Outcome.WIN] * 69 + [Outcome.DRAW] * 30 + [Outcome.LOSS] * 9
    for b, r in zip(boards, results, strict=True):
        assert s.status is SimulStatus.STARTED
        s.record(b.number, r)
    assert s.status is SimulStatus.FINISHED
    assert s.score_text() == "69胜30和9负"
    assert s.score_text("en") == "69 wins, 30 draws, 9 losses"


def test_seed_001_blindfold_1995_nineteen_boards() -> None:
    # 1 against 19 blindfold, 1995: 9 wins, 8 draws, 2 losses.
    s = _simul(19, host_blindfold=True)
    s.start()
    for n in range(1, 10):
        s.record(n, Outcome.WIN)
    assert s.score().playing == 10
    assert s.score_text() == "9胜0和0负"  # running score, boards in play not shown
    for n in range(10, 18):
        s.record(n, Outcome.DRAW)
    s.record(18, Outcome.LOSS)
    s.record(19, Outcome.FORFEIT_LOSS)  # a forfeit counts as a loss (21.4)
    assert s.score_text() == "9胜8和2负"


def test_at_least_120_boards_work_and_the_limit_holds() -> None:
    s = _simul(120, max_boards=120)
    with pytest.raises(SimulError, match="full"):
        s.join(SimulEntrant("user:999", "late"))
    assert len(s.start()) == 120
    with pytest.raises(SimulError):
        SimulSettings(max_boards=MAX_BOARDS + 1)
    with pytest.raises(SimulError):
        SimulSettings(max_boards=0)


def test_joining_refusals_change_nothing() -> None:
    s = _simul(2, max_boards=5, invited=("user:1", "user:2", "user:3"))
    with pytest.raises(SimulError, match="already joined"):
        s.join(SimulEntrant("user:1", "P1"))
    with pytest.raises(SimulError, match="host"):
        s.join(SimulEntrant("user:0", "host"))
    with pytest.raises(SimulError, match="invitation"):
        s.join(SimulEntrant("user:8", "P8"))
    with pytest.raises(SimulError, match="another board"):
        s.join(SimulEntrant("group:1", "G", members=("user:2", "user:3")))
    assert [e.key for e in s.entrants] == ["user:1", "user:2"]
    s.leave("user:2")
    s.start()
    with pytest.raises(SimulError, match="started"):
        s.join(SimulEntrant("user:3", "P3"))
    with pytest.raises(SimulError, match="started"):
        s.leave("user:1")
    with pytest.raises(SimulError, match="nobody|already"):
        s.start()


def test_start_needs_an_entrant_and_results_need_a_start() -> None:
    s = Simul("user:0")
    with pytest.raises(SimulError, match="nobody"):
        s.start()
    s.join(SimulEntrant("user:1", "P1"))
    with pytest.raises(SimulError, match="not started"):
        s.record(1, Outcome.WIN)
    s.start()
    with pytest.raises(SimulError, match="no board 2"):
        s.record(2, Outcome.WIN)
    with pytest.raises(SimulError, match="not a game result"):
        s.record(1, Outcome.BYE)
    s.record(1, Outcome.DRAW)
    with pytest.raises(SimulError, match="already has a result"):
        s.record(1, Outcome.WIN)


def test_colours_alternate_and_go_handicap_makes_the_host_white() -> None:
    s = _simul(4, host_colour="alternate")
    assert [b.host_colour for b in s.start()] == ["red", "black", "red", "black"]
    go = Simul("user:0", SimulSettings(game="go", rules="chinese", host_colour="black"))
    go.join(SimulEntrant("user:1", "P1"))
    go.join(SimulEntrant("user:2", "P2", handicap=4))
    b1, b2 = go.start()
    assert (b1.host_colour, b1.handicap) == ("black", 0)
    assert (b2.host_colour, b2.handicap) == ("white", 4)  # 让子 by the host: host is White
    with pytest.raises(SimulError):
        SimulSettings(game="xiangqi", handicap=2)
    with pytest.raises(SimulError):
        SimulSettings(game="go", host_colour="red")
    with pytest.raises(SimulError, match="White"):
        SimulSettings(game="go", host_colour="black", handicap=3)
    with pytest.raises(SimulError, match="2 to 9"):
        SimulSettings(game="go", host_colour="white", handicap=1)


def test_the_host_walks_the_ring_to_boards_that_wait() -> None:
    s = _simul(6)
    s.start()
    assert s.next_board(None, {2, 5}) == 2
    assert s.next_board(2, {2, 5}) == 5
    assert s.next_board(5, {2, 5}) == 2  # wraps round
    assert s.next_board(5, {5}) == 5     # only this board waits
    assert s.next_board(3, set()) is None
    s.record(5, Outcome.WIN)
    assert s.next_board(2, {5}) is None  # a finished board never waits
    assert s.host_order({4, 1}) == [1, 4, 2, 3, 6, 5]


def test_json_round_trip_and_malformed_data() -> None:
    s = _simul(3, host_colour="alternate")
    s.join(SimulEntrant("group:9", "三人组", blindfold=True, members=("user:7", "user:8")))
    s.start()
    s.boards[0].game_id = "g1"
    s.record(2, Outcome.LOSS)
    data = json.loads(json.dumps(s.to_dict()))
    again = Simul.from_dict(data)
    assert again.to_dict() == s.to_dict()
    assert again.board_of("user:8") is again.boards[3]
    assert again.boards[3].entrant.blindfold
    del data["boards"][0]["host_colour"]
    with pytest.raises(SimulError, match="malformed"):
        Simul.from_dict(data)


def test_group_members_join_themselves_within_the_bound() -> None:
    s = Simul("user:0", SimulSettings(max_boards=3))
    s.join(SimulEntrant("group:1", "五人组", members=("user:1",)))
    for k in range(2, MAX_GROUP + 1):
        s.add_member("group:1", f"user:{k}")
    assert len(s.entrants[0].members) == MAX_GROUP
    with pytest.raises(SimulError, match="会商小组已满"):
        s.add_member("group:1", "user:99")
    with pytest.raises(SimulError, match="already play a board"):
        s.add_member("group:1", "user:2")  # already in it
    with pytest.raises(SimulError, match="opponent's group"):
        s.add_member("group:1", "user:0")  # the host
    with pytest.raises(SimulError, match="no such group"):
        s.add_member("group:7", "user:50")
    with pytest.raises(SimulError, match="最多"):
        s.join(SimulEntrant("group:2", "大组", members=tuple(
            f"user:{k}" for k in range(100, 101 + MAX_GROUP))))
    # a member who joined a group cannot also play alone
    with pytest.raises(SimulError, match="另一台"):
        s.join(SimulEntrant("user:3", "P3"))
    s.remove_member("user:3")
    s.join(SimulEntrant("user:3", "P3"))
    assert s.board_of("user:3") is None  # no boards before the start
    s.start()
    assert s.board_of("user:5") is s.boards[0] and s.board_of("user:3") is s.boards[1]
    with pytest.raises(SimulError, match="已开始"):
        s.add_member("group:1", "user:60")
    with pytest.raises(SimulError, match="已开始"):
        s.remove_member("user:5")


def test_a_lone_group_cannot_start_and_an_empty_group_is_withdrawn() -> None:
    s = Simul("user:0")
    s.join(SimulEntrant("group:1", "孤", members=("user:1",)))
    with pytest.raises(SimulError, match="须至少 2 人"):
        s.start()
    assert s.status is SimulStatus.OPEN
    s.remove_member("user:1")
    assert s.entrants == []
    with pytest.raises(SimulError, match="in no group"):
        s.remove_member("user:1")


def test_engine_entrants_are_bounded() -> None:
    s = Simul("user:0", SimulSettings(max_boards=MAX_ENGINES + 5))
    for k in range(MAX_ENGINES):
        s.join(SimulEntrant(f"engine:E{k}", f"E{k}"))
    with pytest.raises(SimulError, match=f"at most {MAX_ENGINES} engine entrants"):
        s.join(SimulEntrant("engine:one more", "one more"))
    s.join(SimulEntrant("user:1", "P1"))  # people may still join
    assert len(s.entrants) == MAX_ENGINES + 1
