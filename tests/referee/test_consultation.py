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
