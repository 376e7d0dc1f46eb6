"""Point names: GTP, SGF, row/column; star points; handicap points."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qisai.go.coords import (
    gtp_name,
    handicap_points,
    parse_gtp,
    parse_sgf_point,
    sgf_name,
    star_points,
)
from qisai.go.errors import BoardSizeError, CoordinateError, SetupError


def test_names() -> None:
    assert parse_gtp("D4", 19) == (3, 3) and parse_gtp("t19", 19) == (18, 18)
    assert parse_gtp("J1", 19) == (0, 8)  # no I
    assert parse_gtp("pass", 19) is None and gtp_name(None, 19) == "pass"
    assert sgf_name((3, 3), 19) == "dp" and parse_sgf_point("pd", 19) == (15, 15)
    assert parse_sgf_point("", 19) is None and parse_sgf_point("tt", 19) is None
    assert parse_sgf_point("tt", 21) == (1, 19)  # a real point above 19x19
    assert gtp_name((0, 24), 25) == "Z1"


@pytest.mark.parametrize("bad", ["I5", "D0", "D20", "4D", "", "DD", "Z1"])
def test_bad_gtp(bad: str) -> None:
    with pytest.raises(CoordinateError):
        parse_gtp(bad, 19)


@pytest.mark.parametrize("bad", ["a", "abc", "zz", "A1", "a?"])
def test_bad_sgf(bad: str) -> None:
    with pytest.raises(CoordinateError):
        parse_sgf_point(bad, 19)


def test_bad_sizes() -> None:
    with pytest.raises(BoardSizeError):
        parse_gtp("A1", 26)
    with pytest.raises(CoordinateError):
        gtp_name((19, 0), 19)
    with pytest.raises(CoordinateError):
        gtp_name("D4", 19)  # type: ignore[arg-type]


@given(size=st.integers(2, 25), data=st.data())
def test_round_trips(size: int, data: st.DataObject) -> None:
    p = (data.draw(st.integers(0, size - 1)), data.draw(st.integers(0, size - 1)))
    assert parse_gtp(gtp_name(p, size), size) == p
    assert parse_sgf_point(sgf_name(p, size), size) == p


def test_star_points() -> None:
    assert len(star_points(19)) == 9 and (9, 9) in star_points(19)  # 天元
    assert [gtp_name(p, 19) for p in star_points(19)][:3] == ["D4", "K4", "Q4"]
    assert len(star_points(13)) == 5 and (6, 6) in star_points(13)
    assert sorted(star_points(9)) == [(2, 2), (2, 6), (4, 4), (6, 2), (6, 6)]
    assert star_points(2) == [] and star_points(5) == [(2, 2)]


def test_handicap_errors() -> None:
    with pytest.raises(SetupError):
        handicap_points(19, 1)
    with pytest.raises(SetupError):
        handicap_points(19, 10)
    with pytest.raises(SetupError):
        handicap_points(8, 5)
    with pytest.raises(SetupError):
        handicap_points(5, 2)
