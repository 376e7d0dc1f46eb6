"""Consultation boards (会商): the group's move by captain or majority."""

from __future__ import annotations

import pytest

from qisai.referee.consultation import Consultation, ConsultationError

ABC = ("a", "b", "c")


def test_majority_of_three_plays_once_two_agree() -> None:
    ballot = Consultation(ABC, captain="a").ballot(opened_at=0.0)
    ballot.vote("a", "h2e2")
    assert ballot.decision(1.0) is None
    ballot.vote("b", "h2e2")
    assert ballot.decision(1.0) == "h2e2"  # 2 of 3: the third vote cannot change it


def test_all_voted_plurality_and_ties() -> None:
    four = Consultation(("a", "b", "c", "d"), captain="c").ballot(0.0)
    for who, move in zip("abcd", ["b0c2", "h2e2", "h2e2", "b0c2"], strict=True):
        four.vote(who, move)
    assert four.decision(1.0) == "h2e2"  # 2-2: the captain's vote decides
    no_captain = Consultation(("a", "b", "c", "d")).ballot(0.0)
    for who, move in zip("abcd", ["b0c2", "h2e2", "h2e2", "b0c2"], strict=True):
        no_captain.vote(who, move)
    assert no_captain.decision(1.0) == "b0c2"  # first proposed


def test_reserve_runs_out_votes_cast_decide() -> None:
    ballot = Consultation(("a", "b", "c", "d", "e"), reserve_seconds=30).ballot(100.0)
    assert ballot.decision(200.0) is None  # nobody voted: the clock keeps running
    ballot.vote("d", "D4")
    ballot.vote("e", "Q16")
    ballot.vote("a", "Q16")
    assert ballot.decision(129.9) is None
    assert ballot.decision(130.0) == "Q16"


def test_captain_mode() -> None:
    ballot = Consultation(ABC, captain="b", mode="captain").ballot(0.0)
    ballot.vote("a", "h2e2")
    ballot.vote("c", "h2e2")
    assert ballot.decision(1e9) is None  # only the captain decides
    with pytest.raises(ConsultationError, match="captain"):
        ballot.confirm("a", "h2e2")
    assert ballot.confirm("b", "b0c2") == "b0c2"
    assert ballot.decision(0.0) == "b0c2"
    with pytest.raises(ConsultationError, match="decided"):
        ballot.vote("b", "h2e2")


def test_refusals() -> None:
    ballot = Consultation(ABC).ballot(0.0)
    ballot.vote("a", "h2e2")
    with pytest.raises(ConsultationError, match="already voted"):
        ballot.vote("a", "b0c2")
    with pytest.raises(ConsultationError, match="not a member"):
        ballot.vote("z", "h2e2")
    with pytest.raises(ConsultationError, match="not a move"):
        ballot.vote("b", "")
    assert ballot.votes == {"a": "h2e2"}
    for bad in [dict(members=("a",)), dict(members=("a", "a")),
                dict(members=ABC, mode="dice"), dict(members=ABC, captain="z"),
                dict(members=ABC, mode="captain"), dict(members=ABC, reserve_seconds=0)]:
        with pytest.raises(ConsultationError):
            Consultation(**bad)  # type: ignore[arg-type]


def test_reserve_is_capped_at_the_time_left() -> None:
    """Issue 33 item 7: 30 s on the clock and a 60 s reserve: the votes cast
    decide 2 s (SAFETY_SECONDS) before the flag, not after it."""
    from qisai.referee.consultation import SAFETY_SECONDS

    ballot = Consultation(ABC, reserve_seconds=60).ballot(0.0, time_left=30.0)
    assert ballot.deadline == 30.0 - SAFETY_SECONDS
    ballot.vote("a", "b2e2")
    assert ballot.decision(27.9) is None
    assert ballot.decision(28.0) == "b2e2"
    assert Consultation(ABC).ballot(0.0, time_left=1.0).deadline == 0.0  # never before opening
    assert Consultation(ABC, reserve_seconds=20).ballot(5.0, time_left=600).deadline == 25.0


def test_absent_member_is_not_waited_for_after_missing_a_ballot() -> None:
    setting = Consultation(ABC, reserve_seconds=30)
    first = setting.ballot(0.0)
    first.vote("a", "h2e2")
    first.vote("b", "b2e2")
    assert first.decision(29.0) is None  # c is waited for, once
    assert first.decision(30.0) == "h2e2"
    absent = first.absent_after(30.0)
    assert absent == {"c"}
    second = setting.ballot(40.0, absent=absent)
    second.vote("a", "b0c2")
    second.vote("b", "h0g2")
    assert second.decision(41.0) == "b0c2"  # all present voted: no reserve spent
    assert second.absent_after(41.0) == {"c"}
    third = setting.ballot(50.0, absent=absent)
    third.vote("c", "i0i1")  # c is back
    assert third.absent_after(51.0) == frozenset()
    # A ballot decided early marks nobody absent.
    early = setting.ballot(0.0)
    early.vote("a", "h2e2")
    early.vote("b", "h2e2")
    assert early.decision(1.0) == "h2e2" and early.absent_after(1.0) == frozenset()


def test_motions_carry_by_the_groups_rule() -> None:
    majority = Consultation(("a", "b", "c", "d"), captain="a")
    assert not majority.carries("resign", "a", {"a"})  # the captain's vote is one vote
    assert not majority.carries("resign", "b", {"a", "b"})  # 2 of 4 is not more than half
    assert majority.carries("resign", "c", {"a", "b", "c"})
    assert majority.carries("accept_draw", "b", {"a", "b"}, absent={"d"})  # 2 of 3 present
    captain = Consultation(ABC, captain="b", mode="captain")
    assert captain.carries("offer_draw", "b", {"b"})
    with pytest.raises(ConsultationError, match="only the captain"):
        captain.carries("resign", "a", {"a"})
    with pytest.raises(ConsultationError, match="not a member"):
        majority.carries("resign", "z", {"z"})
    with pytest.raises(ConsultationError, match="unknown motion"):
        majority.carries("abort", "a", {"a"})
