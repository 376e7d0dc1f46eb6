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

from qisai.referee.clock import ManualTime
from qisai.referee.events import ClaimKind, NoticeType
from qisai.referee.rulesets import ruleset
from qisai.referee.verdict import Reason, Side
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
