"""The family of a time control (qisai.referee.time_families): the rule
book's own words decide where it speaks (第6条: 6.3 and 6.4 "适用于快棋赛",
for rapid events), the 40-move estimate elsewhere."""

from __future__ import annotations

from qisai.referee.clock import (
    SideTimeControl,
    Stage,
    TimeControl,
    scheme_6_1,
    scheme_6_2,
    scheme_6_3,
    scheme_6_4,
)
from qisai.referee.time_families import FAMILIES, family_of, side_seconds


def test_the_rule_books_rapid_schemes_are_rapid() -> None:
    # 6.3 and 6.4: "适用于快棋赛" (for rapid events)
    assert family_of(TimeControl.both(scheme_6_3())) == "rapid"
    assert family_of(TimeControl.both(scheme_6_4())) == "rapid"


def test_the_rule_books_standard_schemes_are_classical() -> None:
    # 6.1: 40 moves in 90 minutes; 6.2: 30 in 60, then 10 in 10 (40 moves: 70 minutes)
    assert side_seconds(scheme_6_1()) == 90 * 60
    assert side_seconds(scheme_6_2()) == 70 * 60
    assert family_of(TimeControl.both(scheme_6_1())) == "classical"
    assert family_of(TimeControl.both(scheme_6_2())) == "classical"


def test_the_estimate_counts_40_increments_and_repeats_the_last_stage() -> None:
    # 6.4 repeats 30 moves in 5 minutes: the 40 moves are two periods
    assert side_seconds(scheme_6_4()) == 600
    three_plus_two = SideTimeControl((Stage(None, 180),), increment=2)
    assert side_seconds(three_plus_two) == 180 + 40 * 2
    assert family_of(TimeControl.both(three_plus_two)) == "blitz"
    assert family_of(TimeControl.both(SideTimeControl((Stage(None, 60),)))) == "bullet"


def test_no_clock_is_untimed_and_the_slower_side_decides() -> None:
    assert family_of(None) == "untimed"
    # the 2007 time odds: the side with more time decides the family
    odds = TimeControl(SideTimeControl((Stage(None, 60),)), scheme_6_1())
    assert family_of(odds) == "classical"
    assert set(FAMILIES) == {"bullet", "blitz", "rapid", "classical", "untimed"}
