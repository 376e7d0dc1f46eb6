"""Issue 35.1: under AXF, a move that answers an attack and at the same time
takes away an unprotected piece's answer (a pin, an impaired horse) chases
it; only a root cut made by an escape is no chase (issue 13.3).

The cases in ``tests/data/xiangqi/axf_escape_chase_cases.json`` were labelled
move by move from the AXF rules before qisai was run; see their ``reasons``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qisai.xiangqi.board import Board, Move
from qisai.xiangqi.qili import Label, judge

CASES = json.loads((Path(__file__).resolve().parents[1] / "data" / "xiangqi"
                    / "axf_escape_chase_cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_axf_escape_chase_cycle(case: dict[str, object]) -> None:
    fen = str(case["fen"])
    cycle = [Move.from_iccs(m) for m in case["cycle_moves_iccs"]]  # type: ignore[attr-defined]
    b = Board(fen)
    for m in cycle * 2:
        b.push(m)
    r = judge(b, "axf")
    assert r is not None
    labels = [m.label.value for m in r.moves[:len(cycle)]]
    assert labels == case["axf_labels"], case["id"]
    assert r.verdict.value == case["axf_ruling"]


def test_the_cases_cover_both_colours_and_three_attackers() -> None:
    chases = [c for c in CASES if c["axf_labels"][c["subject_ply"]] == Label.CHASE.value]
    assert {(c["chaser"], c["attacker"]) for c in chases} == {
        (colour, kind) for colour in ("red", "black") for kind in ("horse", "cannon", "rook")}


def test_escape_chase_names_the_unprotected_target() -> None:
    # AXF35-H-red: 马五退四 escapes the rook; the horse on c6 now attacks the
    # pinned horse on e7, which cannot take back: not 兑 but 捉 (28.3).
    case = next(c for c in CASES if c["id"] == "AXF35-H-red")
    b = Board(case["fen"])
    for m in case["cycle_moves_iccs"] * 2:
        b.push(Move.from_iccs(m))
    r = judge(b, "axf")
    assert r is not None
    first = r.moves[0]
    assert first.targets == (Move.from_iccs("e7e7").to_square,)
    assert "unprotected horse" in first.reason_en and "root" not in first.reason_en
