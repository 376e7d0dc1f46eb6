"""Tests of the repetition code 棋例 (qisai.xiangqi.qili)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from qisai.xiangqi.board import Board, Color, Move
from qisai.xiangqi.qili import (
    AXF,
    CXA,
    CycleKind,
    Label,
    Verdict,
    first_ruling,
    forbidden_moves,
    get_profile,
    judge,
)

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "testdata" / "xiangqi"


def _load(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as f:
        data: list[dict[str, Any]] = json.load(f)
    return data


BASIC = _load("repetition_basic.json")
CASES = {c["id"]: c for c in _load("qili_cases.json")}


def _play(fen: str, moves: list[str]) -> Board:
    b = Board(fen)
    for m in moves:
        b.push(Move.from_iccs(m))
    return b


def _cycle_board(case: dict[str, Any]) -> Board:
    # Two full cycles from the start: the start position occurs a third time.
    return _play(case["fen"], case["cycle_moves_iccs"] * 2)


_BASIC_VERDICT = {("0-1", "red"): "red_loses", ("1-0", "black"): "black_loses"}


@pytest.mark.parametrize("case", BASIC, ids=[c["name"][:40] for c in BASIC])
@pytest.mark.parametrize("profile", ["cxa", "axf"])
def test_repetition_basic(case: dict[str, Any], profile: str) -> None:
    r = first_ruling(case["fen"], case["moves"], profile)
    assert r is not None
    exp = case["expected_verdict"]
    if exp["result"] == "1/2-1/2":
        assert r.verdict is Verdict.DRAW
    elif "perpetual check" in case["name"]:
        assert r.verdict.value == _BASIC_VERDICT[(exp["result"], exp["loser"])]
    else:
        # A chase is forbidden: the chaser must change (26.4) and loses if it
        # does not (24.3); the file records the final result of the game.
        loser = Color.RED if exp["loser"] == "red" else Color.BLACK
        assert r.verdict.must_change is loser


@pytest.mark.parametrize("cid", ["CXA-001", "CXA-002", "CXA-003"])
@pytest.mark.parametrize("profile", ["cxa"])
def test_cxa_source_cases(cid: str, profile: str) -> None:
    case = CASES[cid]
    r = judge(_cycle_board(case), profile)
    assert r is not None
    assert r.verdict.value == case["ruling"]


def test_no_ruling_before_third_occurrence() -> None:
    case = CASES["CXA-001"]
    b = _play(case["fen"], case["cycle_moves_iccs"] * 2)
    b.pop()
    assert judge(b) is None
    assert judge(b, occurrences=2) is not None


def test_perpetual_check_explained() -> None:
    b = _play("4k4/9/4b4/9/9/9/9/9/9/R2K5 w - - 0 1",
              "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9".split())
    r = judge(b)
    assert r is not None
    assert r.verdict is Verdict.RED_LOSES
    assert r.clause == "26.1"
    assert r.red.kind is CycleKind.PERPETUAL_CHECK and r.red.forbidden
    assert not r.black.forbidden
    assert all(m.label is Label.CHECK for m in r.moves if m.color is Color.RED)
    assert "长将" in r.explanation_zh and "perpetual" in r.explanation_en
    assert any(m.text.startswith("车") for m in r.moves if m.color is Color.RED)


def test_forbidden_moves_bans_the_repeating_check() -> None:
    b = _play("4k4/9/4b4/9/9/9/9/9/9/R2K5 w - - 0 1",
              "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9".split())
    # Red to move: a8a9 would make the position after it occur a third time.
    banned = forbidden_moves(b)
    assert banned == [Move.from_iccs("a8a9")]
    assert forbidden_moves(b, occurrences=4) == []


def test_profiles() -> None:
    assert get_profile("CXA") is CXA and get_profile(AXF) is AXF
    with pytest.raises(ValueError):
        get_profile("xyz")
