"""Scenario tests for the arbiter's rulings that run over several moves:
orders to change (24.3), the natural-limit audit (23.3) and both players
late (21.3).  Each scenario is built from the rule text of seed 001 (Ch. 5):

* 24.3 "一方为禁止着法另一方为允许着法，犯禁方必须立即变着，若再重复一次循环，
  即判负": a ruling on a forbidden cycle first orders the change; only
  repeating the cycle after the order loses.
* 23.2 / 24 "循环反复三次": a cycle is ruled when a position has occurred three
  times.
* 23.3 "审核回合时，提出方对非提出方'将军'的着数，最多只计10着".
* 21.1-21.3 late arrival.

Times come from a :class:`ManualTime`; moves are one second apart.
"""

from __future__ import annotations

import pytest

from qisai.referee.clock import ManualTime
from qisai.referee.events import ClaimKind, NoticeType
from qisai.referee.rulesets import ruleset
from qisai.referee.verdict import Outcome, Reason, Side
from qisai.referee.xiangqi_game import XiangqiGame

R, B = Side.FIRST, Side.SECOND

# A red chariot chases an unprotected black horse: the horse shuttles h7 <-> g5,
# the chariot g0 <-> h0 attacks it on every move (长捉, 28.12, forbidden 25.2);
# Black's horse moves attack nothing (闲, allowed).  26.4: Red must change.
CHASE = "3k5/9/7n1/9/9/9/9/9/9/4K1R2 w - - 0 1"
CHASE_CYCLE = ["g0h0", "h7g5", "h0g0", "g5h7"]
CYCLE_PLIES = len(CHASE_CYCLE)
THRICE = 3  # 4.2.3, 23.2, 24: three occurrences


def new(fen: str | None = None, **overrides: object) -> tuple[XiangqiGame, ManualTime]:
    t = ManualTime(1000.0)
    game = XiangqiGame(ruleset("cxa", **overrides), fen=fen, now=t)  # type: ignore[arg-type]
    game.start()
    return game, t


def play(game: XiangqiGame, t: ManualTime, moves: list[str], step: float = 1.0) -> None:
    for m in moves:
        assert game.result is None, (len(game.moves), game.result)
        t.advance(step)
        game.move(game.to_move, m)


def orders(game: XiangqiGame) -> list[tuple[int, Side | None, str]]:
    """(ply, side, clause) of every order to change (MUST_CHANGE notice)."""
    out = []
    ply = 0
    for n in game.notices:
        if n.type is NoticeType.MOVED:
            ply += 1
        elif n.type is NoticeType.MUST_CHANGE:
            out.append((ply, n.side, n.clause))
    return out


# ------------------------------------------------------ 24.3 claim-only events
def test_24_3_first_claim_on_a_cycle_played_four_times_orders_the_change() -> None:
    game, t = new(CHASE, repetition_automatic=False)
    # The cycle three times and Red's chase once more: the position after
    # Red's first chase (Black to move) occurs a fourth time.  Nobody has
    # claimed, so no order was given.
    plies = THRICE * CYCLE_PLIES + 1
    play(game, t, (CHASE_CYCLE * 4)[:plies])
    assert game.result is None and orders(game) == []
    game.claim(B, ClaimKind.REPETITION)  # 8.5: in Black's own turn
    # 24.3: the first ruling orders Red to change; nobody loses yet.
    assert game.result is None
    assert orders(game) == [(plies, R, "24.3")]
    must = [n for n in game.notices if n.type is NoticeType.MUST_CHANGE][0]
    assert "变着" in must.text_zh and "must change" in must.text_en


def test_24_3_after_a_claimed_order_repeating_the_cycle_loses() -> None:
    game, t = new(CHASE, repetition_automatic=False)
    plies = THRICE * CYCLE_PLIES + 1
    play(game, t, (CHASE_CYCLE * 4)[:plies])
    game.claim(B, ClaimKind.REPETITION)
    # Red does not change: after one more cycle the ordered position recurs.
    rest = (CHASE_CYCLE * 2)[1:1 + CYCLE_PLIES]
    play(game, t, rest[:-1])
    assert game.result is None
    play(game, t, rest[-1:])
    assert game.result is not None and game.result.winner is B
    assert game.result.reason is Reason.FORBIDDEN_REPETITION
    assert "24.3" in game.result.clause and "4.1.7" in game.result.clause
    assert len(game.moves) == plies + CYCLE_PLIES


def test_24_3_after_a_claimed_order_a_change_does_not_lose() -> None:
    game, t = new(CHASE, repetition_automatic=False)
    plies = THRICE * CYCLE_PLIES + 1
    play(game, t, (CHASE_CYCLE * 4)[:plies])
    game.claim(B, ClaimKind.REPETITION)
    # Black moves, then Red changes: the king steps instead of the chase.
    play(game, t, ["h7g5", "e0e1", "g5h7", "e1e0"])
    assert game.result is None


# ------------------------------------------------------ 24.3 after an order
def test_24_3_after_an_order_the_new_cycle_is_judged_on_its_own() -> None:
    game, t = new(CHASE)
    play(game, t, CHASE_CYCLE * 2)  # the start position occurs the third time
    order_ply = 2 * CYCLE_PLIES
    assert orders(game) == [(order_ply, R, "24.3")] and game.result is None
    # Red changes: the king steps out and back while the horse shuttles on.
    new_cycle = ["e0e1", "h7g5", "e1e0", "g5h7"]
    play(game, t, new_cycle[:3])
    # Positions of the old cycle recur here (the one after "h0g0" a third
    # time since the first occurrence), but the old forbidden cycles do not
    # count once the order was given: no ruling yet.
    assert game.result is None and len(game.moves) == order_ply + 3
    play(game, t, new_cycle[3:])
    # The ordered position recurs, but Red changed (idle king moves): no loss.
    assert game.result is None
    play(game, t, new_cycle[:3])
    assert game.result is None
    play(game, t, new_cycle[3:])
    # The new cycle has now itself put the position a third time (at the
    # order, and after each of two new cycles): both sides idle, 26.2 draw.
    assert game.result is not None and game.result.reason is Reason.REPETITION
    assert game.result.is_draw and "26.2" in game.result.clause
    assert len(game.moves) == order_ply + (THRICE - 1) * len(new_cycle)


def test_24_3_automatic_order_then_repeating_the_cycle_loses() -> None:
    game, t = new(CHASE)
    play(game, t, CHASE_CYCLE * 2)
    assert orders(game) == [(2 * CYCLE_PLIES, R, "24.3")]
    play(game, t, CHASE_CYCLE[:3])
    assert game.result is None
    play(game, t, CHASE_CYCLE[3:])
    assert game.result is not None and game.result.winner is B
    assert game.result.reason is Reason.FORBIDDEN_REPETITION and "24.3" in game.result.clause
    assert "24.3" in game.result.explanation_zh and "24.3" in game.result.explanation_en


# --------------------------------------------------------- 23.3 check cap
# Red's chariot checks the black king on ranks 9 and 8 while the king steps
# e9 <-> e8 (every Red move a check); then both sides move quietly: Red's
# king d0 <-> d1, Black's elephant e7 <-> g5.  No capture is ever possible.
CHECKS = "4k4/9/4b4/9/9/9/9/9/9/R2K5 w - - 0 1"
FIRST_CHECK = ["a0a9", "e9e8"]
CHECK_ROUNDS = [["a9a8", "e8e9"], ["a8a9", "e9e8"]]
QUIET_ROUNDS = [["d0d1", "e7g5"], ["d1d0", "g5e7"]]
NATURAL_LIMIT = 60  # 4.2.4: 60 rounds without a capture
CHECK_CAP = 10  # 23.3: the claimant's checks count at most 10 moves


def quiet_game(checks: int, quiet: int, **overrides: object) -> tuple[XiangqiGame, ManualTime]:
    """Red gives ``checks`` checks in its first rounds (an even number), then
    ``quiet`` rounds follow without checks; Red is to move."""
    assert checks % 2 == 0
    rules: dict[str, object] = {"natural_limit_automatic": False, "repetition_automatic": False}
    rules.update(overrides)
    game, t = new(CHECKS, **rules)
    moves = FIRST_CHECK + [m for k in range(checks - 1) for m in CHECK_ROUNDS[k % 2]]
    moves += [m for k in range(quiet) for m in QUIET_ROUNDS[k % 2]]
    play(game, t, moves)
    assert sum(1 for r in game.moves if r.gave_check) == checks
    assert all(not r.gave_check for r in game.moves if r.side is B)
    assert game.board.halfmove_clock == 2 * (checks + quiet) and game.to_move is R
    return game, t


def counted(rounds: int, claimant_checks: int) -> int:
    """23.3: every claimant move is one round; a check beyond the tenth does not count."""
    return rounds - max(0, claimant_checks - CHECK_CAP)


def test_23_3_fourteen_checks_in_62_rounds_count_58_a_false_claim() -> None:
    game, t = quiet_game(14, 48)
    assert counted(62, 14) == 58
    assert game.natural_limit_rounds(R) == 58
    before = game.clock_reading(R)
    assert before is not None
    game.claim(R, ClaimKind.NATURAL_LIMIT)
    # 23.3: not true: a foul (9.1.4) and five minutes on the claimant's clock.
    assert game.result is None and game.fouls(R) == 1
    assert game.clock_reading(R) == pytest.approx(before - 300)
    rejected = [n for n in game.notices if n.type is NoticeType.CLAIM_REJECTED]
    assert "58/60" in rejected[-1].text_en and "23.3" in rejected[-1].clause


def test_23_3_claim_at_exactly_60_counted_rounds_succeeds() -> None:
    game, t = quiet_game(14, 50)
    assert counted(64, 14) == NATURAL_LIMIT
    assert game.natural_limit_rounds(R) == NATURAL_LIMIT
    game.claim(R, ClaimKind.NATURAL_LIMIT)
    assert game.result is not None and game.result.reason is Reason.NATURAL_LIMIT
    assert game.result.is_draw and "23.3" in game.result.clause and "4.2.4" in game.result.clause
    assert game.fouls(R) == 0


def test_23_3_claim_at_59_counted_rounds_is_false() -> None:
    game, t = quiet_game(14, 49)
    assert counted(63, 14) == NATURAL_LIMIT - 1
    assert game.natural_limit_rounds(R) == NATURAL_LIMIT - 1
    game.claim(R, ClaimKind.NATURAL_LIMIT)
    assert game.result is None and game.fouls(R) == 1


def test_23_3_the_cap_is_the_claimants_only() -> None:
    # Black, claiming after one more Red move, has given no check: Red's
    # fourteen checks all count for Black's claim (4.2.4, 60 rounds).
    game, t = quiet_game(14, 46)
    play(game, t, ["d0d1"])  # after an even number of quiet rounds the king is on d0
    assert game.natural_limit_rounds(B) == 60
    game.claim(B, ClaimKind.NATURAL_LIMIT)
    assert game.result is not None and game.result.reason is Reason.NATURAL_LIMIT


def test_23_3_arbiters_own_count_caps_the_checks_too() -> None:
    # 23.3 双方均未审核时，裁判经审核着数亦可判和: the arbiter's count leaves
    # out the rounds of checks beyond ten as well; the draw comes with the
    # move that completes the 60th counted round, not before.
    game, t = quiet_game(14, 49, natural_limit_automatic=True)
    assert game.result is None
    play(game, t, ["d1d0"])  # after an odd number of quiet rounds: king d1, elephant g5
    assert game.result is None  # half a round more is no round
    play(game, t, ["g5e7"])
    assert game.result is not None and game.result.reason is Reason.NATURAL_LIMIT
    assert len(game.moves) == 2 * (NATURAL_LIMIT + 4)


# ------------------------------------------------------------ 21.3 both late
# 21.1-21.2: the late player's clock runs; the limit (规定时限) is the time his
# clock gives for the first period, within which he must still make the
# required moves (21.2): 90 minutes under 6.1, the cxa default.
FIRST_PERIOD = 90 * 60


def late_game(name: str = "cxa", **overrides: object) -> tuple[XiangqiGame, ManualTime]:
    t = ManualTime(0.0)
    game = XiangqiGame(ruleset(name, **overrides), now=t)  # type: ignore[arg-type]
    game.start(absent=[R, B])
    return game, t


def test_21_3_both_absent_past_the_limit_both_forfeit_without_a_late_limit() -> None:
    game, t = late_game()
    assert game.rules.late_limit is None
    t.set(FIRST_PERIOD - 1)
    game.tick()
    assert game.result is None
    t.set(FIRST_PERIOD + 30)
    game.tick()
    # 21.3 若双方均超过规定时限，即判双方弃权: nobody wins.
    assert game.result is not None and game.result.outcome is Outcome.DOUBLE_FORFEIT
    assert game.result.winner is None and game.result.reason is Reason.LATE_ARRIVAL
    assert game.result.clause == "21.3" and game.ended_at == pytest.approx(FIRST_PERIOD)
    assert "弃权" in game.result.explanation_zh and "forfeit" in game.result.explanation_en


def test_21_3_both_late_the_one_still_absent_loses() -> None:
    # Black arrives after 10 minutes (his late time is deducted, 21.3); Red,
    # whose clock runs from the start, never comes: only Red exceeds the limit.
    game, t = late_game()
    t.set(600)
    game.arrive(B)
    assert game.clock_reading(B) == pytest.approx(FIRST_PERIOD - 600)
    t.set(FIRST_PERIOD)
    game.tick()
    assert game.result is not None and game.result.winner is B
    assert game.result.reason is Reason.LATE_ARRIVAL and game.ended_at == pytest.approx(FIRST_PERIOD)
    assert "21.3" in game.result.clause


def test_21_3_both_late_black_still_absent_counts_from_the_start() -> None:
    # Red arrives after 20 minutes and moves; Black's late time runs from the
    # start of play (21.3 扣除双方迟到时间), not from Red's first move.
    game, t = late_game()
    t.set(1200)
    game.arrive(R)
    t.set(1210)
    game.move(R, "h2e2")
    t.set(FIRST_PERIOD - 1)
    game.tick()
    assert game.result is None
    t.set(FIRST_PERIOD + 1)
    game.tick()
    assert game.result is not None and game.result.winner is R
    assert game.result.reason is Reason.LATE_ARRIVAL and game.ended_at == pytest.approx(FIRST_PERIOD)


def test_21_3_time_odds_black_limit_is_his_own_time() -> None:
    # 2007 trial: Red 80 minutes, Black 40: with both absent Black's limit
    # runs out first and Black alone loses.
    game, t = late_game("cxa-2007")
    t.set(40 * 60)
    game.tick()
    assert game.result is not None and game.result.winner is R
    assert game.result.reason is Reason.LATE_ARRIVAL


def test_21_3_an_event_late_limit_still_applies() -> None:
    game, t = late_game(late_limit=900)
    t.set(900)
    game.tick()
    assert game.result is not None and game.result.outcome is Outcome.DOUBLE_FORFEIT
