"""Records: PGN and SGF carry result, reason, fouls and clocks, and read back
into a game that replays to the same state."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qisai.go.sgf import read_sgf
from qisai.referee import ClaimKind, GoGame, ManualTime, RecordError, Side, XiangqiGame, ruleset
from qisai.referee.clock import SideTimeControl, Stage, TimeControl, chinese_byoyomi
from qisai.referee.events import Event, EventType
from qisai.referee.records import (
    decode_event,
    encode_event,
    go_from_sgf,
    go_to_sgf,
    xiangqi_from_pgn,
    xiangqi_to_pgn,
)
from qisai.referee.verdict import Outcome, Reason
from qisai.xiangqi.pgn import parse_pgn

R, B = Side.FIRST, Side.SECOND


def test_event_encoding_round_trip() -> None:
    e = Event(EventType.FOUL, 12.345678, B, clause="5.1, 9.1.5", note="摸子; touched [c] {x}")
    assert decode_event(encode_event(e)) == e
    assert not set(encode_event(e)) & set("[]{}")
    d = Event(EventType.MARK_DEAD, 1.0, None, points=("D4", "E5"))
    assert decode_event(encode_event(d)) == d
    with pytest.raises(RecordError):
        decode_event("type=nonsense;at=1")


def xiangqi_sample() -> XiangqiGame:
    t = ManualTime(0)
    game = XiangqiGame(ruleset("cxa"), now=t)  # type: ignore[arg-type]
    game.start()
    for move, dt in [("h2e2", 5), ("h7e7", 7), ("h0g2", 3)]:
        t.advance(dt)
        game.move(game.to_move, move)
    game.offer_draw(R)
    t.advance(2)
    game.decline_draw(B)
    game.record_foul(B, "5.1, 9.1.5", "摸子走子")
    t.advance(4)
    game.claim(B, ClaimKind.NATURAL_LIMIT)  # false: a foul and five minutes
    t.advance(10)
    game.pause()
    t.advance(100)
    game.resume()
    t.advance(5)
    game.adjourn(B, "b9c7")
    t.advance(1000)
    game.resume()
    t.advance(8)
    game.move(R, "b0c2")
    game.resign(B)
    return game


def test_pgn_has_result_reason_fouls_and_clock() -> None:
    game = xiangqi_sample()
    text = xiangqi_to_pgn(game, {"Red": "甲", "Black": "乙"})
    rec = parse_pgn(text)[0]
    assert rec.headers["Result"] == "1-0" and rec.headers["Termination"] == "resignation"
    assert rec.headers["BlackFouls"] == "2" and rec.headers["Clause"] == "4.1.9"
    clocks = re.findall(r"\[%clk (\d+:\d\d:\d\d)\]", text)
    assert clocks[:3] == ["1:29:55", "1:29:53", "1:29:52"]  # 90 min less 5, 7, 3 s (+0)
    assert "炮二平五" in text


def test_pgn_round_trip_replays_to_same_state() -> None:
    game = xiangqi_sample()
    for notation in ("chinese", "iccs", "wxf"):
        copy = xiangqi_from_pgn(xiangqi_to_pgn(game, notation=notation))
        assert copy.board.fen() == game.board.fen()
        assert copy.result == game.result and copy.moves == game.moves
        assert copy.infractions == game.infractions and copy.events == game.events


def test_foreign_pgn_imports_its_moves() -> None:
    text = '[Event "x"]\n[Result "*"]\n\n1. 炮二平五 {[%emt 0:00:05]} 马８进７ 2. 马二进三 *\n'
    game = xiangqi_from_pgn(text)
    assert [m.move for m in game.moves] == ["h2e2", "h9g7", "h0g2"]
    assert game.moves[0].at == pytest.approx(5)


def test_pgn_with_a_tampered_result_is_refused() -> None:
    text = xiangqi_to_pgn(xiangqi_sample()).replace('[Result "1-0"]', '[Result "0-1"]')
    with pytest.raises(RecordError):
        xiangqi_from_pgn(text)


def go_sample() -> GoGame:
    t = ManualTime(0)
    tc = TimeControl.both(SideTimeControl((Stage(None, 30),), byoyomi=chinese_byoyomi(3)))
    game = GoGame(ruleset("chinese", board_size=9, time_control=tc), now=t)  # type: ignore[arg-type]
    game.start()
    for move, dt in [("D5", 20), ("F6", 5), ("E6", 20), ("F4", 100), ("E4", 1), ("G5", 1),
                     ("F5", 1), ("E5", 1), ("F5", 1), ("A1", 1), ("pass", 2), ("pass", 2)]:
        t.advance(dt)
        game.move(game.to_move, move)
    game.mark_dead(None, ["A1"])
    game.confirm_dead(game.to_move)
    game.confirm_dead(game.to_move.other)
    return game


def test_sgf_has_result_and_byoyomi_clock() -> None:
    game = go_sample()
    # the void ko retake earns no warning (11(1): 判回提者着手无效，弃权一次)
    assert game.warnings(Side.FIRST) == 0 and game.result is not None  # Black (Go)
    text = go_to_sgf(game, {"PB": "黑", "PW": "白"})
    record = read_sgf(text)
    assert record.result == game.result.sgf_result and record.root.get("QR") == "chinese"
    nodes = [n for n in record.main_line() if n.move(9) is not None]
    assert nodes[0].get("BL") == "10"
    assert nodes[3].get("WL") == "0" and nodes[3].get("OW") == "2"  # 100 s: 25 s main, then one full minute of byo-yomi
    assert nodes[8].move(9) == (nodes[8].move(9)[0], None)  # the void ko retake is a pass


def test_sgf_round_trip_replays_to_same_state() -> None:
    game = go_sample()
    copy = go_from_sgf(go_to_sgf(game), rules=game.grules)
    assert copy.result == game.result and copy.moves == game.moves
    assert str(copy.board) == str(game.board) and copy.infractions == game.infractions
    assert copy.events == game.events


def test_foreign_sgf_imports_moves() -> None:
    game = go_from_sgf("(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc];B[];W[])")
    assert [m.move for m in game.moves] == ["E5", "C7", "pass", "pass"]
    assert game.phase.value == "scoring"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 1000), st.floats(0, 30)), max_size=30))
def test_random_xiangqi_games_round_trip_through_pgn(steps: list[tuple[int, int, float]]) -> None:
    t = ManualTime(0)
    rules = ruleset("cxa-local")
    game = XiangqiGame(rules, now=t)  # type: ignore[arg-type]
    game.start()
    for action, n, dt in steps:
        t.advance(dt)
        try:
            if action < 7:
                legal = game.board.legal_moves()
                game.move(game.to_move, legal[n % len(legal)].iccs())
            elif action == 7:
                game.move(game.to_move, "a0a3")  # usually illegal: a foul here
            elif action == 8:
                game.offer_draw(game.to_move.other)
            else:
                game.adjudicate(Outcome.DRAW, Reason.NO_WIN_POSSIBLE, "4.2.1")
        except ValueError:
            pass
    copy = xiangqi_from_pgn(xiangqi_to_pgn(game), rules=rules)  # type: ignore[arg-type]
    assert copy.events == game.events and copy.result == game.result
    assert copy.board.fen() == game.board.fen()
