"""Knock-out (11.1, 13.4) and the card draw of the local rules (000, clause 9)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.competition.errors import EventStateError, PairingError, ResultError
from qisai.competition.pairing.knockout import Knockout, bracket_order, card_draw


def play_round(ko: Knockout, winners: set[int]) -> list[set[int | None]]:
    """Pair ``ko``'s next round and record each open match for the side in
    ``winners``; return the round's pairs as sets."""
    rnd = ko.pair_next_round()
    for m in rnd:
        if m.winner is None:
            ko.record(m.round, m.index, m.red if m.red in winners else m.black)  # type: ignore[arg-type]
    return [{m.red, m.black} for m in rnd]

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


def test_bracket_order_published_seedings() -> None:
    """The usual seeded draw sheets: 1-2 apart in halves, 1-4 in quarters;
    each round-1 pair adds up to size + 1."""
    assert bracket_order(1) == [1]
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    for size in (0, 3, 6):
        with pytest.raises(PairingError, match=f"/ bracket size must be a power of two, "
                                               f"got {size}$"):
            bracket_order(size)


def test_seeded_bracket_rounds_follow_the_sheet() -> None:
    """Six entries on an 8-bracket (11.1): seeds 1 and 2 meet the phantoms
    7 and 8 (byes, already won), then 1 meets the winner of 4-5 and 2 the
    winner of 3-6; the two winners play the final."""
    ko = Knockout([11, 12, 13, 14, 15, 16], seed=3)  # entries in seed order
    r1 = ko.pair_next_round()
    assert [(m.index, m.black is None, m.winner, m.note) for m in r1] == [
        (0, True, 11, "bye"), (1, False, None, "colours by lot"),
        (2, True, 12, "bye"), (3, False, None, "colours by lot")]
    assert {r1[1].red, r1[1].black} == {14, 15} and {r1[3].red, r1[3].black} == {13, 16}
    assert r1[0].loser is None and r1[1].loser is None
    ko.record(1, 1, 15)
    assert r1[1].loser == 14
    ko.record(1, 3, 13)
    assert ko.losses() == {14: 1, 16: 1}
    assert ko.alive() == [11, 12, 13, 15]
    assert not ko.finished and ko.champion is None
    r2 = ko.pair_next_round()
    assert [{m.red, m.black} for m in r2] == [{11, 15}, {12, 13}]
    assert [m.round for m in r2] == [2, 2]
    ko.record(2, 0, 11)
    with pytest.raises(EventStateError, match="/ knock-out round 2 is not decided yet$"):
        ko.pair_next_round()
    ko.record(2, 1, 13)
    final = ko.pair_next_round()
    assert len(final) == 1 and {final[0].red, final[0].black} == {11, 13}
    ko.record(3, 0, 13)
    assert ko.finished and ko.champion == 13
    with pytest.raises(EventStateError, match="/ the knock-out is over$"):
        ko.pair_next_round()


def test_double_elimination_out_after_two_losses() -> None:
    """双淘汰制 (11.1): an entry is out after its second loss; the unbeaten
    and the once-beaten are paired apart, in seed order; an odd one out in a
    group has a bye; when the unbeaten one has lost the final, the two meet
    again (each now has one loss)."""
    ko = Knockout([1, 2, 3, 4], double=True, seed=5)

    def play(winners: set[int]) -> list[set[int | None]]:
        return play_round(ko, winners)

    assert play({1, 3}) == [{1, 2}, {3, 4}]
    assert play({1, 2}) == [{1, 3}, {2, 4}]      # unbeaten 1-3, once beaten 2-4
    assert ko.losses() == {2: 1, 4: 2, 3: 1} and ko.alive() == [1, 2, 3]
    assert play({2}) == [{1, None}, {2, 3}]      # 1 alone unbeaten: a bye
    assert [(m.round, m.index, m.note) for m in ko.rounds[-1]] == [
        (3, 0, "bye"), (3, 1, "colours by lot")]
    assert ko.alive() == [1, 2]
    assert play({2}) == [{1, 2}]                 # the final: 1 loses its first game
    assert not ko.finished and ko.losses()[1] == 1
    assert play({2}) == [{1, 2}]                 # and is out after the second
    assert ko.finished and ko.champion == 2


def test_round_trip_keeps_every_setting() -> None:
    """A knock-out saved and read back is the same event: entries, draw, byes,
    double, seed, every decided match (round, index, colours, winner, note);
    the next round is then drawn the same."""
    for kw in ({"draw": "cards", "seed": 7}, {"byes": "lot", "seed": 2},
               {"double": True, "seed": 9}):
        ko = Knockout(list(range(1, 12)), **kw)  # type: ignore[arg-type]
        for m in ko.pair_next_round():
            if m.winner is None:
                ko.record(1, m.index, m.black)  # type: ignore[arg-type]
        data = ko.to_dict()
        assert {k: data[k] for k in ("draw", "byes", "double", "seed")} == {
            "draw": kw.get("draw", "bracket"), "byes": kw.get("byes", "seeded"),
            "double": kw.get("double", False), "seed": kw["seed"]}
        back = Knockout.from_dict(data)
        assert back.to_dict() == data
        assert [[(m.round, m.index, m.red, m.black, m.winner, m.note) for m in rnd]
                for rnd in back.rounds] == [[(m.round, m.index, m.red, m.black, m.winner,
                                              m.note) for m in rnd] for rnd in ko.rounds]
        assert [(m.red, m.black) for m in back.pair_next_round()] == \
            [(m.red, m.black) for m in ko.pair_next_round()]
    minimal = Knockout.from_dict({"entries": [5, 6, 7]})
    assert (minimal.draw, minimal.byes, minimal.double, minimal.seed, minimal.rounds) == \
        ("bracket", "seeded", False, 0, [])
    old = Knockout.from_dict({"entries": [1, 2], "rounds": [[{"red": 2, "black": 1,
                                                               "winner": 2}]]})
    assert old.rounds[0][0].note == "" and old.rounds[0][0].round == 1
    assert old.champion == 2
    with pytest.raises(PairingError, match=r"/ bad knock-out data \(KeyError\('entries'\)\)$"):
        Knockout.from_dict({"draw": "cards"})


def test_series_of_a_card_draw_match() -> None:
    """000 clause 9: the red card holder plays Red; clause 6: 三局两胜 (the
    default), colours alternating; a level series as the organiser chose."""
    from qisai.competition.model import Result
    from qisai.competition.series import SeriesFormat

    ko = Knockout(list(range(1, 8)), draw="cards", seed=4)
    rnd = ko.pair_next_round()
    m = rnd[1]
    s = ko.series(1, 1)
    assert (s.a, s.b, s.format, s.tied) == (m.red, m.black, SeriesFormat.BEST_OF_THREE,
                                            "extra_game")
    g1 = s.next_game()
    assert g1 is not None and (g1.red, g1.black) == (m.red, m.black)
    s.record(Result.DRAW)
    g2 = s.next_game()
    assert g2 is not None and (g2.red, g2.black) == (m.black, m.red)
    assert ko.series(1, 0, "two_games", tied="lot").tied == "lot"
    s1 = ko.series(1, 2, "single")
    assert s1.format is SeriesFormat.SINGLE
    g = s1.next_game()
    assert g is not None and g.red == rnd[2].red  # the pairing's colours, not a lot
    bye = next(k for k, x in enumerate(rnd) if x.black is None)
    with pytest.raises(ResultError, match=f"/ round 1 match {bye} is a bye$"):
        ko.series(1, bye)
    for r, k in ((0, 0), (2, 0), (1, -1), (1, len(rnd))):
        with pytest.raises(ResultError, match=f"/ knock-out round {r} has no match {k}$"):
            ko.series(r, k)
    with pytest.raises(EventStateError, match="/ unknown series format 'best_of_five'$"):
        ko.series(1, 0, "best_of_five")


def test_error_messages() -> None:
    with pytest.raises(PairingError, match="/ a knock-out needs at least two entries, got 1$"):
        Knockout([1])
    with pytest.raises(PairingError, match="/ duplicate entries in the knock-out$"):
        Knockout([1, 2, 1])
    with pytest.raises(PairingError, match="/ draw must be 'bracket' or 'cards', not 'x'$"):
        Knockout([1, 2], draw="x")
    with pytest.raises(PairingError, match="/ byes must be 'seeded' or 'lot', not 'x'$"):
        Knockout([1, 2], byes="x")
    with pytest.raises(PairingError, match="/ double elimination uses the bracket draw$"):
        Knockout([1, 2], draw="cards", double=True)
    with pytest.raises(PairingError, match="/ a card draw needs at least two entries, got 1$"):
        card_draw([1], random.Random(0))
    with pytest.raises(PairingError, match="/ duplicate entries in the card draw$"):
        card_draw([1, 2, 2], random.Random(0))
    ko = Knockout([1, 2, 3, 4])
    with pytest.raises(ResultError, match="/ knock-out round 1 has not been paired$"):
        ko.record(1, 0, 1)
    rnd = ko.pair_next_round()
    with pytest.raises(ResultError, match="/ knock-out round 1 has no match 2$"):
        ko.record(1, 2, 1)
    with pytest.raises(ResultError, match="/ knock-out round 1 has no match -1$"):
        ko.record(1, -1, 1)
    with pytest.raises(ResultError, match=f"/ round 1 match 0: 9 did not play "
                                          f"\\({rnd[0].red} v {rnd[0].black}\\)$"):
        ko.record(1, 0, 9)


def test_double_elimination_avoids_rematches_and_second_byes() -> None:
    """Eight entries: in round 3 the once-beaten are 3, 4, 7, 8 in seed
    order; 3 has met 4, so 3 meets 7 and 4 meets 8.  Five entries: the bye
    goes to the lowest seed without one (5 in round 1, then 3, not 5 again)."""
    ko = Knockout(list(range(1, 9)), double=True, seed=1)

    def play(winners: set[int]) -> list[set[int | None]]:
        return play_round(ko, winners)

    assert play({1, 3, 5, 7}) == [{1, 2}, {3, 4}, {5, 6}, {7, 8}]
    assert play({1, 5, 4, 8}) == [{1, 3}, {5, 7}, {2, 4}, {6, 8}]
    assert play({1}) == [{1, 5}, {3, 7}, {4, 8}]
    ko = Knockout([1, 2, 3, 4, 5], double=True, seed=1)
    assert play({1, 3}) == [{5, None}, {1, 2}, {3, 4}]
    assert play({1, 2}) == [{3, None}, {1, 5}, {2, 4}]


def test_card_notes_and_later_round_series() -> None:
    """000 clause 9: each match notes the cards drawn (红n/黑n, the K for the
    bye); the series of a later round plays that round's match with its
    colours, also in the two-game format (the red card holder starts)."""
    ko = Knockout(list(range(1, 8)), draw="cards", seed=2)
    r1 = ko.pair_next_round()
    for m in r1:
        if m.black is None:
            assert m.note == "drew K: bye" and m.winner == m.red
        else:
            assert m.note.startswith("cards 红") and m.note.split("/")[1].startswith("黑")
            assert m.note[len("cards 红"):].split("/")[0] == m.note.split("/")[1][1:]
            ko.record(1, m.index, m.red)
    r2 = ko.pair_next_round()
    assert len(r2) == 2 and all(m.black is not None for m in r2)
    for k, m in enumerate(r2):
        for fmt in ("single", "two_games", "best_of_three"):
            s = ko.series(2, k, fmt)
            assert (s.a, s.b) == (m.red, m.black)
            g = s.next_game()
            assert g is not None and (g.red, g.black) == (m.red, m.black)


def test_double_elimination_colours_by_lot() -> None:
    """13.4 猜先: the seed order does not fix the colours."""
    reds = set()
    for seed in range(12):
        ko = Knockout([1, 2, 3, 4], double=True, seed=seed)
        reds |= {m.red for m in ko.pair_next_round()}
    assert reds == {1, 2, 3, 4}


def test_two_game_series_keeps_the_card_colours() -> None:
    """000 clause 9: the red card holder plays Red -- in game 1 of any format,
    the two-game one too (the card draw was the lot of 13.5's 第一局猜先)."""
    for seed in range(3):
        ko = Knockout(list(range(1, 14)), draw="cards", seed=seed)
        for k, m in enumerate(ko.pair_next_round()):
            if m.black is None:
                continue
            g = ko.series(1, k, "two_games").next_game()
            assert g is not None and (g.red, g.black) == (m.red, m.black)
