"""Berger tables (Appendix 1; 13.1; 11.2) against the shared test data."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from qisai.competition.errors import PairingError
from qisai.competition.pairing.berger import (
    berger_round,
    berger_table,
    double_round_robin,
    format_round,
)


def test_tables_3_to_16_equal_testdata(tdata: Path) -> None:
    tables = json.loads((tdata / "berger" / "berger_tables_3_to_16.json").read_text())["tables"]
    assert sorted(map(int, tables)) == list(range(3, 17))
    for n, expected in tables.items():
        mine = [[[b.red, b.black] for b in rnd] for rnd in berger_table(int(n))]
        assert mine == expected, f"n={n}"


def test_printed_tables_8_10_7(tdata: Path) -> None:
    text = (tdata / "berger" / "berger_8_10.txt").read_text()
    blocks = re.split(r"^## (\d+) players.*$", text, flags=re.M)[1:]
    seen = 0
    for n_s, body in zip(blocks[0::2], blocks[1::2], strict=True):
        n = int(n_s)
        rows = [line.split(":", 1)[1].split() for line in body.splitlines()
                if line.startswith("Rd ")]
        mine = [format_round(r, phantom=n + 1 if n % 2 else None).split()
                for r in berger_table(n)]
        rows = [[c.replace("bye", "") for c in r] for r in rows]
        assert mine == rows, n
        seen += 1
    assert seen == 3


@pytest.mark.parametrize("n", range(2, 21))
def test_every_pair_meets_once_and_colours_balance(n: int) -> None:
    table = berger_table(n)
    big = n + n % 2
    assert len(table) == big - 1
    meetings: Counter[frozenset[int]] = Counter()
    reds: Counter[int] = Counter()
    for rnd in table:
        seen = [x for b in rnd for x in b.players()]
        assert len(seen) == len(set(seen)) == n  # everyone once a round
        for b in rnd:
            if b.black is not None:
                meetings[frozenset((b.red, b.black))] += 1
                reds[b.red] += 1
    assert len(meetings) == n * (n - 1) // 2 and set(meetings.values()) == {1}
    games = n - 1
    for p in range(1, n + 1):
        # 13.1 first-listed plays Red; each entry has ⌊(n-1)/2⌋ or ⌈(n-1)/2⌉ Reds
        # (odd fields: one game fewer for the bye)
        assert games // 2 - 1 <= reds[p] <= games // 2 + 1


def test_odd_field_bye_rotates_player_one_first() -> None:
    # 人数逢单，1 号轮空 (round 1), each entry rests exactly once
    table = berger_table(7)
    assert table[0][0].red == 1 and table[0][0].black is None
    assert sorted(r[0].red for r in table) == list(range(1, 8))


def test_largest_number_alternates_and_leads() -> None:
    # "第二轮，'最大号'肯定执先，以后逐轮转换先后走"; its board is printed first
    for r, rnd in enumerate(berger_table(10), start=1):
        first = rnd[0]
        assert 10 in first.players()
        assert (first.red == 10) == (r % 2 == 0)
    # "每轮'最大号'的对手，必然是上一轮表中位置排在最后的那个号"
    t = berger_table(10)
    for r in range(1, len(t)):
        assert set(t[r][0].players()) - {10} == {t[r - 1][-1].black}


def test_double_round_robin_swaps_colours() -> None:
    d = double_round_robin(6)
    assert len(d) == 10
    for a, b in zip(d[:5], d[5:], strict=True):
        assert [(x.black, x.red) for x in a] == [(y.red, y.black) for y in b]


def test_errors() -> None:
    with pytest.raises(PairingError):
        berger_table(1)
    with pytest.raises(PairingError, match="out of range"):
        berger_round(8, 8)


def test_double_round_robin_odd_field_keeps_the_byes_and_boards() -> None:
    """13.5 两局制: the second leg swaps colours board by board (board numbers
    kept); a bye stays a bye for the same entry (Appendix 1: the phantom)."""
    d = double_round_robin(5)
    assert len(d) == 10
    for first, second in zip(d[:5], d[5:], strict=True):
        assert second[0].black is None and second[0].red == first[0].red
        assert [b.board for b in second] == [b.board for b in first] == [1, 2, 3]
        for a, b in zip(first[1:], second[1:], strict=True):
            assert (b.red, b.black) == (a.black, a.red)


def test_format_round_prints_the_bye() -> None:
    # 5 entries, round 1: 1 meets the phantom 6 (人数逢单，1号轮空), then 2-5, 3-4
    assert format_round(berger_round(5, 1)) == "1-bye 2-5 3-4"
    assert format_round(berger_round(5, 1), phantom=6) == "1-(6) 2-5 3-4"
    assert format_round(berger_round(4, 1)) == "1-4 2-3"


@pytest.mark.parametrize("n", [4, 5, 8, 9])
def test_boards_are_numbered_from_the_largest_numbers_board(n: int) -> None:
    """"'最大号'的这一对，永远列在最前面": board 1 is the largest number's pair
    (or the bye of an odd field), then boards 2, 3, ... in table order."""
    for r, rnd in enumerate(berger_table(n), start=1):
        assert [b.board for b in rnd] == list(range(1, (n + n % 2) // 2 + 1))
        assert berger_round(n, r) == rnd
        if n % 2:
            assert rnd[0].black is None
        else:
            assert n in rnd[0].players()


def test_error_messages_name_the_range() -> None:
    for bad in (1, 0):
        with pytest.raises(PairingError, match=f"/ a round robin needs at least 2 entries, "
                                               f"got {bad}$"):
            berger_table(bad)
        with pytest.raises(PairingError, match=f"/ a round robin needs at least 2 entries, "
                                               f"got {bad}$"):
            berger_round(bad, 1)
    with pytest.raises(PairingError, match=r"/ round 8 out of range 1\.\.7 for 8 entries$"):
        berger_round(8, 8)
    with pytest.raises(PairingError, match=r"/ round 0 out of range 1\.\.7 for 7 entries$"):
        berger_round(7, 0)
