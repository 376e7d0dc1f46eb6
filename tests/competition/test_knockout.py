"""Knock-out (11.1, 13.4) and the card draw of the local rules (000, clause 9)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.competition.errors import EventStateError, PairingError, ResultError
from qisai.competition.pairing.knockout import Knockout, bracket_order, card_draw


def test_bracket_order_keeps_top_seeds_apart() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = bracket_order(16)
    # seeds 1 and 2 in different halves, 1-4 in different quarters
    assert order.index(1) < 8 <= order.index(2)
    quarters = {order.index(s) // 4 for s in (1, 2, 3, 4)}
    assert quarters == {0, 1, 2, 3}
    with pytest.raises(PairingError):
        bracket_order(12)


def _run(ko: Knockout, rng: random.Random) -> int:
    while not ko.finished:
        for m in ko.pair_next_round():
            if m.winner is None:
                assert m.black is not None
                ko.record(m.round, m.index, rng.choice([m.red, m.black]))
    assert ko.champion is not None
    return ko.champion


def test_single_elimination_seeded_byes_and_strongest_wins() -> None:
    ko = Knockout(list(range(1, 7)), seed=1)
    first = ko.pair_next_round()
    byes = sorted(m.red for m in first if m.black is None)
    assert byes == [1, 2]  # 8-bracket: the top two seeds have byes
    for m in first:
        if m.black is not None:
            ko.record(1, m.index, min(m.red, m.black))
    while not ko.finished:
        for m in ko.pair_next_round():
            if m.black is not None:
                ko.record(m.round, m.index, min(m.red, m.black))
    assert ko.champion == 1
    assert len(ko.rounds) == 3


def test_byes_by_lot_are_reproducible() -> None:
    a = Knockout(list(range(1, 12)), byes="lot", seed=4)
    b = Knockout(list(range(1, 12)), byes="lot", seed=4)
    ra, rb = a.pair_next_round(), b.pair_next_round()
    assert [(m.red, m.black) for m in ra] == [(m.red, m.black) for m in rb]
    assert sum(m.black is None for m in ra) == 5
    seeds = set()
    for s in range(20):
        k = Knockout(list(range(1, 12)), byes="lot", seed=s)
        seeds.add(frozenset(m.red for m in k.pair_next_round() if m.black is None))
    assert len(seeds) > 5


def test_colours_by_lot() -> None:
    reds_higher = 0
    for s in range(60):
        ko = Knockout(list(range(1, 9)), seed=s)
        reds_higher += sum(m.red < (m.black or 0) for m in ko.pair_next_round())
    assert 60 < reds_higher < 180  # 240 matches, about half


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 10**6), double=st.booleans())
def test_every_knockout_ends_with_one_champion(n: int, seed: int, double: bool) -> None:
    ko = Knockout(list(range(1, n + 1)), double=double, seed=seed)
    champ = _run(ko, random.Random(seed))
    losses = ko.losses()
    limit = 2 if double else 1
    assert losses.get(champ, 0) < limit
    assert all(losses.get(e, 0) >= limit for e in range(1, n + 1) if e != champ)
    size = 1 << (n - 1).bit_length()
    for k, rnd in enumerate(ko.rounds):
        seen = [x for m in rnd for x in (m.red, m.black) if x is not None]
        assert len(seen) == len(set(seen))
        byes = sum(m.black is None for m in rnd)
        if double:
            assert byes <= 2  # at most one in each loss group
        else:
            assert byes == (size - n if k == 0 else 0)  # byes only in round 1


def test_card_draw_local_rules() -> None:
    # round 1: 13 players, cards 1-6 twice and one K; same numbers play; red plays Red
    cd = card_draw(list(range(1, 14)), random.Random(3))
    assert len(cd.pairs) == 6 and cd.bye is not None
    assert cd.cards[cd.bye] == "K"
    assert Counter(cd.cards.values())["K"] == 1
    for red, black in cd.pairs:
        assert cd.cards[red][0] == "红" and cd.cards[black][0] == "黑"
        assert cd.cards[red][1:] == cd.cards[black][1:]
    # round 2: 6 winners + the bye = 7: cards 1-3 twice and K; round 3: 4 -> 1, 2 twice
    assert len(card_draw(list(range(7)), random.Random(1)).pairs) == 3
    cd3 = card_draw(list(range(4)), random.Random(1))
    assert len(cd3.pairs) == 2 and cd3.bye is None
    assert card_draw(list(range(1, 14)), random.Random(3)) == cd


def test_card_draw_knockout_runs_the_local_event() -> None:
    ko = Knockout(list(range(1, 14)), draw="cards", seed=9)
    sizes = []
    rng = random.Random(0)
    while not ko.finished:
        rnd = ko.pair_next_round()
        sizes.append(len(ko.alive()))
        for m in rnd:
            if m.winner is None:
                ko.record(m.round, m.index, rng.choice([m.red, m.black]))
    assert sizes == [13, 7, 4, 2]  # 13 -> 7 -> 4 (semi-finals) -> final


def test_errors() -> None:
    with pytest.raises(PairingError):
        Knockout([1])
    with pytest.raises(PairingError):
        card_draw([1, 1, 2], random.Random(0))
    ko = Knockout([1, 2, 3, 4])
    ko.pair_next_round()
    with pytest.raises(EventStateError):
        ko.pair_next_round()
    with pytest.raises(ResultError):
        ko.record(1, 0, 99)
    restored = Knockout.from_dict(ko.to_dict())
    assert restored.to_dict() == ko.to_dict()
