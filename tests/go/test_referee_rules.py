"""Referee scenarios for issue 13 items 12 and 13 (seed 003, competition rules).

Every expected value comes from the rule text (``docs/rules/003-go-rules.txt``):

* 10 禁着点: 棋子下子在禁着点上，判着手无效，弃权一次.
* 11(1): 劫争马上回提，判回提者着手无效，弃权一次.
* 12(2): 对局者被判的警告 ... 在一局棋里满二次者，判该局为负 — the warnings
  are those the arbiter gives under 8(2) and 9, not void moves.
* 4(4), 4(5): the dead stones are agreed by both sides; the groups are
  marked dead or alive as wholes.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from qisai.referee.clock import ManualTime
from qisai.referee.events import Notice, NoticeType
from qisai.referee.go_game import GoGame
from qisai.referee.rulesets import Penalty, RulesetError, ruleset
from qisai.referee.verdict import Reason, Side

BL, WH = Side.FIRST, Side.SECOND

# A ko on the left of a 7x7 board.  After these moves (Black C4 takes)::
#
#     6  . . . .
#     5  . X O .
#     4  X . X O       White may not retake at B4 at once (11(1)).
#     3  . X O .
#        A B C D
KO = ["B5", "C5", "A4", "C3", "B3", "D4", "G7", "B4", "C4"]


def new(name: str = "chinese", **overrides: object) -> tuple[GoGame, ManualTime]:
    overrides.setdefault("board_size", 7)
    t = ManualTime(0)
    game = GoGame(ruleset(name, **overrides), now=t)  # type: ignore[arg-type]
    game.start()
    return game, t


def play(game: GoGame, t: ManualTime, moves: list[str]) -> list[Notice]:
    out: list[Notice] = []
    for m in moves:
        t.advance(1)
        out += game.move(game.to_move, m)
    return out


def void_notice(notices: list[Notice]) -> Notice:
    [notice] = [n for n in notices if n.type is NoticeType.INVALID_MOVE]
    assert not [n for n in notices if n.type is NoticeType.WARNING]
    return notice


def test_12_void_moves_earn_no_warning_ko_and_forbidden_point_twice() -> None:
    game, t = new()
    play(game, t, KO)
    assert game.board.get("B4") is None and game.to_move is WH
    # 11(1): the immediate retake is void and counts as White's pass.
    first = void_notice(play(game, t, ["B4"]))
    assert first.clause == "竞赛规定 11(1)" and "弃权一次" in first.text_zh
    assert "counts as a pass" in first.text_en
    assert game.moves[-1].void and game.board.get("B4") is None and game.to_move is BL
    # The ko goes on: White retakes after a move elsewhere, Black's immediate
    # retake is void, then White's second immediate retake is void again.
    play(game, t, ["G6", "B4"])
    assert game.board.get("C4") is None
    void_notice(play(game, t, ["C4"]))
    play(game, t, ["G1", "C4"])
    second = void_notice(play(game, t, ["B4"]))
    assert second.clause == "竞赛规定 11(1)"
    # 10: a forbidden point (A5 among Black A4 B5 A6), twice.
    play(game, t, ["A6"])
    for _ in range(2):
        notice = void_notice(play(game, t, ["A5"]))
        assert notice.clause == "竞赛规定 10" and game.board.get("A5") is None
        play(game, t, ["F1" if game.board.get("F1") is None else "F2"])
    assert game.result is None and game.warnings(WH) == 0 and game.warnings(BL) == 0
    assert sum(1 for r in game.moves if r.void) == 5 and not game.infractions


def test_12_void_move_counts_as_a_pass_for_4_1() -> None:
    game, t = new()
    play(game, t, KO)
    play(game, t, ["B4"])  # void: White's pass
    assert game.result is None
    play(game, t, ["pass"])  # Black passes too: both passed in succession (4(1))
    assert game.phase.value == "scoring"


# Three kos on the left of a 9x9 board (rows 2, 5 and 8), each like KO.
# After TRIPLE Black holds the middle ko, White the other two, Black to move;
# CYCLE takes them in turn and comes back to the same position after six
# moves: under the Chinese profile (禁止全局同形再现) the moves that would
# repeat it are void.
TRIPLE = ["B3", "C3", "A2", "C1", "B1", "D2", "B6", "C6", "A5", "C4", "B4", "D5", "B9", "C9",
          "A8", "C7", "B7", "D8", "pass", "B2", "pass", "B5", "pass", "B8", "C5", "J1"]
CYCLE = ["C2", "B5", "C8", "B2", "C5", "B8"]


def test_12_triple_ko_under_superko_voids_without_warnings() -> None:
    game, t = new(board_size=9)
    play(game, t, TRIPLE)
    notices = play(game, t, CYCLE)
    last = void_notice(notices[-1:])  # B8 would repeat the whole board
    assert last.clause == "竞赛规定 11（禁止全局同形再现）" and game.moves[-1].void
    play(game, t, ["C2"])
    void_notice(play(game, t, ["B5"]))  # White's second void: no warning, no loss
    assert game.result is None and game.warnings(WH) == 0
    # Black's C8 now repeats too: two void moves in a row are two passes (4(1)).
    void_notice(play(game, t, ["C8"]))
    assert game.result is None and game.phase.value == "scoring"
    assert not game.infractions


def test_12_event_profile_may_want_a_warning_for_a_void_move() -> None:
    assert ruleset("chinese").invalid_move is Penalty.VOID  # type: ignore[union-attr]
    game, t = new(invalid_move="warning")
    play(game, t, KO)
    notices = play(game, t, ["B4"])
    assert [n.type for n in notices] == [NoticeType.INVALID_MOVE, NoticeType.WARNING]
    play(game, t, ["G6", "B4", "C4", "G1", "C4", "B4"])
    # White's second void retake is the second warning: 12(2).
    assert game.result is not None and game.result.reason is Reason.TWO_WARNINGS
    assert game.result.winner is BL and game.result.clause == "竞赛规定 12(2)"


def test_12_void_is_not_a_xiangqi_penalty_nor_for_moving_twice() -> None:
    with pytest.raises(RulesetError):
        ruleset("cxa", illegal_move="void")
    with pytest.raises(RulesetError):
        ruleset("chinese", out_of_turn="void")


def test_12_arbiter_warnings_still_count() -> None:
    game, t = new()
    play(game, t, KO + ["B4"])  # a void move: no warning
    game.record_warning(WH, "竞赛规定 9", "captured a live stone")
    assert game.result is None and game.warnings(WH) == 1
    game.record_warning(WH, "竞赛规定 8(2)", "stone taken back and placed elsewhere")
    assert game.result is not None and game.result.reason is Reason.TWO_WARNINGS
    assert game.result.winner is BL


# 13. A dead two-stone Black group (B4 B5) inside White's side of a 7x7 board.
# GNU Go 3.8 (--chinese-rules, komi 7.5): final_status_list dead = B4 B5,
# final_score W+14.5.  By the text (数子法): White 7 (D) + 4 stones + 17
# points = 28, Black 7 (E) + 14 = 21; 21 - 28 - 7.5 = -14.5 points (7¼ 子).
TWO_STONE = ["E1", "D1", "E2", "D2", "E3", "D3", "E4", "D4", "E5", "D5", "E6", "D6", "E7", "D7",
             "B4", "B3", "B5", "B6", "pass", "C4", "pass", "C5", "pass", "pass"]


def test_13_suggested_dead_stones_mark_each_group_once() -> None:
    game, t = new()
    play(game, t, TWO_STONE)
    assert game.phase.value == "scoring"
    dead = game.suggest_dead(playouts=32)
    assert dead == ["B4", "B5"]  # every stone, as GNU Go lists them
    game.mark_dead(BL, dead)
    assert game.dead == {(3, 1), (4, 1)}
    game.mark_dead(BL, dead)  # idempotent
    assert game.dead == {(3, 1), (4, 1)}
    game.confirm_dead(game.to_move)
    game.confirm_dead(game.to_move.other)
    result = game.result
    assert result is not None and result.winner is WH and result.sgf_result == "W+14.5"
    assert result.margin == Fraction(29, 4) and result.unit == "子"
    assert result.clause == "胜负判别, 竞赛规定 4(5)"
    assert "白方胜7又1/4子" in result.explanation_zh


def test_13_unmark_and_toggle_state_what_they_do() -> None:
    game, t = new()
    play(game, t, TWO_STONE)
    game.mark_dead(None, ["B4", "B5", "B5"])
    game.mark_dead(None, ["B5"], dead=False)  # the whole group is alive again
    assert not game.dead
    game.mark_dead(None, ["B5"], dead=False)
    assert not game.dead
    game.mark_dead(None, ["B4", "B5"], dead=None)  # a toggle: once per group
    assert game.dead == {(3, 1), (4, 1)}
    game.mark_dead(None, ["B4"], dead=None)
    assert not game.dead
    event = game.events[-1]
    assert event.type.value == "mark_dead" and event.dead is None
    assert game.events[-3].to_dict()["dead"] is False


def test_13_mark_events_replay_from_the_record() -> None:
    from qisai.referee.records import go_from_sgf, go_to_sgf

    game, t = new()
    play(game, t, TWO_STONE)
    game.mark_dead(WH, ["B4", "B5"])
    game.mark_dead(BL, ["D1"])
    game.mark_dead(BL, ["D1"], dead=False)
    game.confirm_dead(game.to_move)
    game.confirm_dead(game.to_move.other)
    again = go_from_sgf(go_to_sgf(game), rules=game.grules)
    assert again.result == game.result and again.dead == game.dead
