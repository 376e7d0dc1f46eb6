"""Issue 35.1: under AXF, a move that answers an attack on the mover's piece
and at the same time leaves an enemy piece unprotected by a new pin (a false
root), or takes away its answer (a pinned or impaired piece can no longer
take back: no exchange offer), chases that piece; only a root cut by a
screen the escape moved is no chase (issue 13.3).

The cases in ``tests/data/xiangqi/axf_escape_chase_cases.json`` were labelled
move by move from the AXF rules before qisai was run (``reasons``); each
records pyffish 0.0.90's ruling (``is_optional_game_end`` at the third
occurrence) as a second opinion.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qisai.xiangqi.board import Board
from qisai.xiangqi.qili.cycle import judge
from qisai.xiangqi.qili.rulings import Label
from qisai.xiangqi.squares import Move

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
    # AXF35-OFF-H-red: 马五退四 escapes the rook; the horse on c6 now attacks the
    # pinned horse on e7, which cannot take back: not 兑 but 捉 (28.3).
    case = next(c for c in CASES if c["id"] == "AXF35-OFF-H-red")
    b = Board(case["fen"])
    for m in case["cycle_moves_iccs"] * 2:
        b.push(Move.from_iccs(m))
    r = judge(b, "axf")
    assert r is not None
    first = r.moves[0]
    assert first.targets == (Move.from_iccs("e7e7").to_square,)
    assert "unprotected horse" in first.reason_en and "root" not in first.reason_en


VIOLATOR = {"draw": None, "red_must_change": "red", "red_loses": "red",
            "black_must_change": "black", "black_loses": "black"}


def test_agrees_with_the_recorded_fairy_stockfish_rulings() -> None:
    # pyffish rules at once (a loss); qisai first orders the change (24.3):
    # the side at fault must be the same.
    for case in CASES:
        b = Board(case["fen"])
        for m in case["cycle_moves_iccs"] * 2:
            b.push(Move.from_iccs(m))
        r = judge(b, "axf")
        assert r is not None
        assert VIOLATOR[r.verdict.value] == VIOLATOR[case["fsf_pyffish_0_0_90"]], case["id"]


def test_a_new_pin_makes_the_whole_cycle_a_perpetual_chase() -> None:
    # AXF35-PIN-*: the escape's chase of the piece on g4 (a false root) and
    # the elephant's chase of it on the way back: the same piece on every
    # move, so the chaser must change (both colours, three attackers).
    pins = [c for c in CASES if c["id"].startswith("AXF35-PIN-")]
    assert len(pins) == 6
    assert {c["axf_ruling"] for c in pins} == {"red_must_change", "black_must_change"}
