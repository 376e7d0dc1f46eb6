"""The repetition code's verdict table, read clause by clause (issue 24.6).

Mutation testing of qisai/xiangqi/qili/verdict.py, profiles.py,
rulings.py and pins.py: the cycle status of one side from the labels
its moves count as (25.2, 28.10-28.12) and the verdict on two statuses
(24.1-24.3, 26.1-26.4), with the AXF rule on a rook pinned by a horse.  Each
expectation is the rule text's:

* 25.2 长将、长杀、长捉、一将一杀、一将一捉、一杀一捉 ... 统称为"禁止着法".
* 26.1 在任何情况下，均不允许单方面长将.   24.1 一方长将立即判负.
* 26.2 双方均为允许着法，双方不变作和.
* 26.3 双方均为禁止着法（不包括一方为长将），双方不变作和.
* 26.4 一方为禁止着法，另一方为允许着法，应由前者变着，不变判负.
* 24.3 犯禁方必须立即变着，若再重复一次循环，即判负.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.qili.pins import pinned_rook_victims, rook_pinned_by_horse
from qisai.xiangqi.qili.profiles import AXF, CXA, PROFILES, QiliProfile, get_profile
from qisai.xiangqi.qili.rulings import (
    CycleKind,
    Label,
    MoveRuling,
    Nuance,
    Ruling,
    SideStatus,
    Verdict,
)
from qisai.xiangqi.qili.verdict import decide, side_status
from qisai.xiangqi.squares import Move, square

C, M, Z, ID = Label.CHECK, Label.MATE_THREAT, Label.CHASE, Label.IDLE
ROOK = frozenset({7})  # one chased piece, the same on every move
NONE: frozenset[int] = frozenset()


def status(labels: list[Label], profile: str = "cxa", chases: list[frozenset[int]] | None = None,
           pinned: list[frozenset[int]] | None = None, color: Color = Color.RED) -> SideStatus:
    return side_status(color, labels, chases if chases is not None else [ROOK] * len(labels),
                       profile, pinned)


# ------------------------------------------------------------- side status
@pytest.mark.parametrize(("labels", "kind", "clause"), [
    ([C, C], CycleKind.PERPETUAL_CHECK, "28.10"),
    ([M, M, M], CycleKind.PERPETUAL_MATE_THREAT, "28.11"),
    ([Z, Z], CycleKind.PERPETUAL_CHASE, "28.12"),
    ([C, M], CycleKind.CHECK_AND_MATE_THREAT, "25.2"),
    ([Z, C], CycleKind.CHECK_AND_CHASE, "25.2"),
    ([M, Z, M], CycleKind.MATE_THREAT_AND_CHASE, "25.2"),
    ([C, M, Z], CycleKind.CHECK_MATE_THREAT_CHASE, "25.2"),
])
def test_25_2_forbidden_cycles_under_cxa(labels: list[Label], kind: CycleKind, clause: str) -> None:
    s = status(labels)
    assert (s.forbidden, s.kind, s.clause, s.labels, s.color) == (True, kind, clause,
                                                                  tuple(labels), Color.RED)
    seq = "、".join(lb.value for lb in labels)
    if clause == "25.2":
        assert s.reason_zh == f"红方着法为{seq}，构成{kind.value}，为禁止着法（25.2）"
        assert s.reason_en == f"Red plays {kind.english}: forbidden (25.2)"
    else:
        assert s.reason_zh == f"红方着法为{seq}，构成{kind.value}，为禁止着法（25.2、{clause}）"
        assert s.reason_en == f"Red plays {kind.english} on every move: forbidden (25.2, {clause})"


@pytest.mark.parametrize("labels", [[C, ID], [ID, ID], [Z, ID, Z], [M, ID], [ID]])
@pytest.mark.parametrize("profile", ["cxa", "axf"])
def test_25_2_an_idle_move_makes_the_cycle_allowed(labels: list[Label], profile: str) -> None:
    s = status(labels, profile, color=Color.BLACK)
    assert (s.forbidden, s.kind, s.clause) == (False, CycleKind.ALLOWED, "25.2")
    seq = "、".join(lb.value for lb in labels)
    names = ", ".join(lb.english for lb in labels)
    assert s.reason_zh == f"黑方着法为{seq}，中间有闲着，为允许着法（25.2）"
    assert s.reason_en == f"Black's moves ({names}) include an idle move: allowed (25.2)"


def test_no_moves_is_allowed() -> None:
    s = status([])
    assert (s.forbidden, s.kind, s.labels, s.clause) == (False, CycleKind.ALLOWED, (), "25.2")
    assert (s.reason_zh, s.reason_en) == ("红方无着法", "Red made no move")


def test_one_chased_set_per_move() -> None:
    with pytest.raises(XiangqiError, match="one chased set per move"):
        side_status(Color.RED, [Z, Z], [ROOK], "cxa")
    with pytest.raises(XiangqiError, match="unknown repetition rule profile 'fide'"):
        side_status(Color.RED, [Z], [ROOK], "fide")


def test_28_12_cxa_chase_of_one_piece_or_several() -> None:
    # CXA 28.12 "追捉一子或数子": a different piece each move is still 长捉.
    s = status([Z, Z], "cxa", chases=[frozenset({1}), frozenset({2})])
    assert s.forbidden and s.kind is CycleKind.PERPETUAL_CHASE


def test_axf_chase_needs_the_same_piece_every_move() -> None:
    s = status([Z, Z], "axf", chases=[frozenset({1}), frozenset({2})])
    assert (s.forbidden, s.kind) == (False, CycleKind.ALLOWED)
    assert s.reason_zh == "红方着法为捉、捉，本规则下不属禁止着法，为允许着法"
    assert s.reason_en == "Red's moves (chase, chase) are not forbidden under these rules: allowed"
    same = status([Z, Z], "axf", chases=[frozenset({1, 2}), frozenset({2})])
    assert same.forbidden and same.kind is CycleKind.PERPETUAL_CHASE


def test_axf_checks_and_chases_in_turn() -> None:
    # AXF: allowed unless every move, the checks included, chases one piece.
    apart = status([C, Z], "axf", chases=[NONE, ROOK])
    assert (apart.forbidden, apart.kind) == (False, CycleKind.ALLOWED)
    together = status([C, Z], "axf", chases=[ROOK, ROOK])
    assert together.forbidden and together.kind is CycleKind.CHECK_AND_CHASE
    # AXF: a check and a mate threat in turn is not forbidden (mixed attacks allowed).
    assert not status([C, M], "axf").forbidden
    assert not status([M, Z], "axf").forbidden


def test_axf_chasing_a_rook_pinned_by_a_horse() -> None:
    pinned = [ROOK, ROOK]
    s = status([Z, Z], "axf", pinned=pinned)
    assert (s.forbidden, s.kind, s.clause) == (True, CycleKind.PERPETUAL_CHASE_PINNED_ROOK, "28.12")
    assert s.reason_en == ("Red plays perpetual chase of a rook pinned by a horse on every move: "
                           "forbidden (25.2, 28.12)")
    # Pinned on one move only, or one set short, or CXA (no such clause): a plain chase.
    assert status([Z, Z], "axf", pinned=[ROOK, NONE]).kind is CycleKind.PERPETUAL_CHASE
    assert status([Z, Z], "axf", pinned=[ROOK]).kind is CycleKind.PERPETUAL_CHASE
    assert status([Z, Z], "cxa", pinned=pinned).kind is CycleKind.PERPETUAL_CHASE


# ------------------------------------------------------------------ verdict
def _s(kind: CycleKind, color: Color) -> SideStatus:
    labels = {CycleKind.ALLOWED: [C, ID], CycleKind.PERPETUAL_CHECK: [C, C],
              CycleKind.PERPETUAL_CHASE: [Z, Z], CycleKind.PERPETUAL_MATE_THREAT: [M, M],
              CycleKind.CHECK_AND_CHASE: [C, Z]}[kind]
    s = status(labels, color=color)
    assert s.kind is kind
    return s


A, PC, PZ, PM, CZ = (CycleKind.ALLOWED, CycleKind.PERPETUAL_CHECK, CycleKind.PERPETUAL_CHASE,
                     CycleKind.PERPETUAL_MATE_THREAT, CycleKind.CHECK_AND_CHASE)


@pytest.mark.parametrize(("red", "black", "verdict", "clause"), [
    (PC, PC, Verdict.DRAW, "26.3"),
    (PC, A, Verdict.RED_LOSES, "26.1"),
    (A, PC, Verdict.BLACK_LOSES, "26.1"),
    (PC, PZ, Verdict.RED_LOSES, "26.1"),  # 26.3 excludes one-sided perpetual check
    (PZ, PC, Verdict.BLACK_LOSES, "26.1"),
    (PZ, PM, Verdict.DRAW, "26.3"),
    (CZ, PZ, Verdict.DRAW, "26.3"),
    (A, A, Verdict.DRAW, "26.2"),
    (PZ, A, Verdict.RED_MUST_CHANGE, "26.4"),
    (A, PM, Verdict.BLACK_MUST_CHANGE, "26.4"),
    (A, CZ, Verdict.BLACK_MUST_CHANGE, "26.4"),
])
@pytest.mark.parametrize("profile", ["cxa", "axf"])
def test_verdict_table_26(red: CycleKind, black: CycleKind, verdict: Verdict, clause: str,
                          profile: str) -> None:
    v, c, zh, en = decide(_s(red, Color.RED), _s(black, Color.BLACK), 3, profile)
    assert (v, c) == (verdict, clause)
    assert f"（{clause}" in zh and f"({clause}" in en


def test_verdict_sentences() -> None:
    r, b = _s(PC, Color.RED), _s(A, Color.BLACK)
    assert decide(r, b, 3)[2:] == ("红方单方面长将，判负（26.1、24.1）",
                                   "Red checks perpetually alone and loses (26.1, 24.1)")
    assert decide(_s(A, Color.RED), _s(PC, Color.BLACK), 3)[2:] == (
        "黑方单方面长将，判负（26.1、24.1）", "Black checks perpetually alone and loses (26.1, 24.1)")
    assert decide(_s(PC, Color.RED), _s(PC, Color.BLACK), 3)[2:] == (
        "双方均为长将，不变作和（26.3、24.2）", "both sides check perpetually: draw (26.3, 24.2)")
    assert decide(_s(PZ, Color.RED), _s(PM, Color.BLACK), 3)[2:] == (
        "双方均为禁止着法，不变作和（26.3、24.2、细则8）",
        "both sides play forbidden moves: draw (26.3, 24.2, rule 8)")
    assert decide(_s(A, Color.RED), _s(A, Color.BLACK), 3)[2:] == (
        "双方均为允许着法，不变作和（26.2、24.2）", "both sides play allowed moves: draw (26.2, 24.2)")
    assert decide(_s(PZ, Color.RED), _s(A, Color.BLACK), 3)[2:] == (
        "红方为禁止着法，对方为允许着法，红方必须变着，若再重复一次循环即判负（26.4、24.3）",
        "Red's moves are forbidden and the opponent's are allowed: Red must change, and loses "
        "if the cycle repeats once more (26.4, 24.3)")
    assert decide(_s(A, Color.RED), _s(PZ, Color.BLACK), 4)[2:] == (
        "黑方为禁止着法，裁定变着后仍重复循环，判负（26.4、24.3）",
        "Black repeated the forbidden cycle again after having to change: loses (26.4, 24.3)")


@pytest.mark.parametrize("profile", [CXA, AXF])
def test_24_3_must_change_then_loses_one_cycle_later(profile: QiliProfile) -> None:
    red, black = _s(PZ, Color.RED), _s(A, Color.BLACK)
    # The arbiter rules at the third occurrence (24, 4.2.3); one more cycle loses.
    assert decide(red, black, 3, profile)[:2] == (Verdict.RED_MUST_CHANGE, "26.4")
    assert decide(red, black, 4, profile)[:2] == (Verdict.RED_LOSES, "24.3")
    assert decide(red, black, 5, profile)[0] is Verdict.RED_LOSES
    # With the ruling asked for at the fifth occurrence: change at 5, lose at 6.
    assert decide(red, black, 5, profile, required=5)[0] is Verdict.RED_MUST_CHANGE
    assert decide(red, black, 6, profile, required=5)[0] is Verdict.RED_LOSES
    # A profile that loses at once (no extra cycle).
    strict = dataclasses.replace(profile, extra_cycles_to_lose=0)
    assert decide(red, black, 3, strict)[0] is Verdict.RED_LOSES
    assert decide(_s(A, Color.RED), _s(PZ, Color.BLACK), 4, profile)[:2] == (Verdict.BLACK_LOSES, "24.3")
    later = dataclasses.replace(profile, occurrences=4)
    assert decide(red, black, 4, later)[0] is Verdict.RED_MUST_CHANGE
    assert decide(red, black, 5, later)[0] is Verdict.RED_LOSES


def test_axf_pinned_rook_chase_weighs_more() -> None:
    # AXF diagrams 39-41: 长将 > 长捉被马牵制的车 > 长捉其他子.
    red = status([Z, Z], "axf", pinned=[ROOK, ROOK])
    black = status([Z, Z], "axf", color=Color.BLACK)
    v, clause, zh, en = decide(red, black, 3, "axf")
    assert (v, clause) == (Verdict.RED_MUST_CHANGE, "26.4")
    assert zh == ("长捉被马牵制的车重于对方的长捉（亚洲象联规则图39-41），"
                  "红方必须变着，若再重复一次循环即判负（26.4、24.3）")
    assert en == ("chasing a rook pinned by a horse weighs more than the other side's chase "
                  "(AXF diagrams 39-41); Red must change, and loses if the cycle repeats once "
                  "more (26.4, 24.3)")
    v, clause, zh, en = decide(red, black, 4, "axf")
    assert (v, clause) == (Verdict.RED_LOSES, "24.3")
    assert zh.startswith("长捉被马牵制的车重于对方的长捉（亚洲象联规则图39-41），红方为禁止着法")
    assert en.startswith("chasing a rook pinned by a horse weighs more than the other side's "
                         "chase (AXF diagrams 39-41); Red repeated")
    black_pinned = status([Z, Z], "axf", pinned=[ROOK, ROOK], color=Color.BLACK)
    assert decide(status([Z, Z], "axf"), black_pinned, 3, "axf")[0] is Verdict.BLACK_MUST_CHANGE
    # Both chase pinned rooks: 26.3, a draw.
    assert decide(red, black_pinned, 3, "axf")[:2] == (Verdict.DRAW, "26.3")


def test_verdict_names_the_side() -> None:
    assert Verdict.RED_LOSES.loser is Color.RED and Verdict.BLACK_LOSES.loser is Color.BLACK
    assert Verdict.DRAW.loser is None and Verdict.RED_MUST_CHANGE.loser is None
    assert Verdict.RED_MUST_CHANGE.must_change is Color.RED
    assert Verdict.BLACK_MUST_CHANGE.must_change is Color.BLACK
    assert Verdict.BLACK_LOSES.must_change is None


# ----------------------------------------------------------------- profiles
def test_profiles_by_name() -> None:
    assert get_profile(" AXF ") is AXF and get_profile("cxa") is CXA and get_profile(AXF) is AXF
    assert set(PROFILES) == {"cxa", "axf"}
    with pytest.raises(XiangqiError, match="unknown repetition rule profile 'wxf'; known: cxa, axf"):
        get_profile("wxf")
    # 24 / 4.2.3: the arbiter rules at the third occurrence; 24.3 one more cycle loses.
    assert (CXA.occurrences, CXA.extra_cycles_to_lose) == (3, 1)
    assert (AXF.occurrences, AXF.extra_cycles_to_lose) == (3, 1)


@pytest.mark.parametrize(("field", "bad", "good", "message"), [
    ("occurrences", 1, 2, "occurrences must be at least 2, not 1"),
    ("extra_cycles_to_lose", -1, 0, "extra_cycles_to_lose must not be negative"),
    ("mate_after_capture_plies", -1, 0, "mate_after_capture_plies must not be negative"),
    ("forcing_plies", 0, 1, "search depths and the node budget must be positive"),
    ("mate_threat_checks", 0, 1, "search depths and the node budget must be positive"),
    ("node_budget", 0, 1, "search depths and the node budget must be positive"),
    ("check_node_budget", 0, 1, "search depths and the node budget must be positive"),
])
def test_profile_bounds(field: str, bad: int, good: int, message: str) -> None:
    good_fields: dict[str, Any] = {field: good}
    bad_fields: dict[str, Any] = {field: bad}
    assert getattr(dataclasses.replace(CXA, **good_fields), field) == good
    with pytest.raises(XiangqiError) as e:
        dataclasses.replace(CXA, **bad_fields)
    assert e.value.en == message


# ------------------------------------------------------------ dict forms
def test_labels_kinds_and_rulings_as_dicts() -> None:
    assert [lb.english for lb in Label] == ["check", "mate threat", "chase", "idle"]
    assert CycleKind.CHECK_AND_CHASE.english == "alternating check and chase"
    move = MoveRuling(ply=4, color=Color.BLACK, move=Move(square(1, 7), square(1, 0)),
                      text="炮8退7", iccs="b7b0", label=Label.CHASE, nuance=Nuance.OFFER,
                      counts_as=Label.IDLE, targets=(square(1, 0), square(4, 2)),
                      reason_zh="兑", reason_en="offer", clauses=("28.5",), wxf="C8-7")
    d = move.to_dict()
    assert d == {"ply": 4, "color": "black", "move": "b7b0", "text": "炮8退7", "wxf": "C8-7",
                 "label": "捉", "label_en": "chase", "nuance": "兑", "counts_as": "闲",
                 "targets": ["b0", "e2"], "reason_zh": "兑", "reason_en": "offer",
                 "clauses": ["28.5"]}
    red = status([Z, Z])
    black = status([C, ID], color=Color.BLACK)
    assert red.to_dict() == {"color": "red", "forbidden": True, "kind": "长捉",
                             "kind_en": "perpetual chase", "labels": ["捉", "捉"],
                             "reason_zh": red.reason_zh, "reason_en": red.reason_en,
                             "clause": "28.12"}
    ruling = Ruling(profile="cxa", fen="f", occurrence=3, window_start=2, moves=(move,), red=red,
                    black=black, verdict=Verdict.RED_MUST_CHANGE, clause="26.4",
                    explanation_zh="z", explanation_en="e")
    assert ruling.status(Color.RED) is red and ruling.status(Color.BLACK) is black
    rd = ruling.to_dict()
    assert rd["moves"] == [d] and rd["red"] == red.to_dict() and rd["black"] == black.to_dict()
    assert (rd["profile"], rd["fen"], rd["occurrence"], rd["window_start"], rd["verdict"],
            rd["clause"], rd["explanation_zh"], rd["explanation_en"]) == (
        "cxa", "f", 3, 2, "red_must_change", "26.4", "z", "e")


# --------------------------------------------------- a rook pinned by a horse
# The rook stands on the horse's leg (马腿); the horse's jump over it would
# land on the rook's own general (AXF diagrams 39-41).
@pytest.mark.parametrize(("fen", "rook", "horse"), [
    # black horse d2 over the leg d1 lands on e0, the red general
    ("5k3/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1", (3, 1), (3, 2)),
    # the horse on the bottom rank: d0 over d1 onto e2
    ("5k3/9/9/9/9/9/9/4K4/3R5/3n5 w - - 0 1", (3, 1), (3, 0)),
    # the horse on the top rank: red d9 over d8 onto Black's general e7
    ("3N5/3r5/4k4/9/9/9/9/9/9/5K3 b - - 0 1", (3, 8), (3, 9)),
    # sideways: black horse c1 over the leg d1 onto e2
    ("5k3/9/9/9/9/9/9/4K4/2nR5/9 w - - 0 1", (3, 1), (2, 1)),
])
def test_rook_pinned_by_a_horse(fen: str, rook: tuple[int, int], horse: tuple[int, int]) -> None:
    b = Board(fen, setup=True)
    r = square(*rook)
    assert rook_pinned_by_horse(b, r) == square(*horse)
    assert pinned_rook_victims(b, (r, b.king_square(Color.RED))) == frozenset({r})


@pytest.mark.parametrize(("fen", "sq"), [
    ("5k3/9/9/9/9/9/9/3N5/3R5/4K4 w - - 0 1", (3, 1)),  # own horse: no pin
    ("5k3/9/9/9/9/9/9/3n5/3C5/4K4 w - - 0 1", (3, 1)),  # a cannon, not a rook
    ("5k3/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1", (4, 4)),  # empty point
    ("4k4/9/9/9/9/9/9/3n5/3R5/5K3 w - - 0 1", (3, 1)),  # the jump lands on e0/c0, not f0
    ("5k3/9/9/9/9/9/9/9/3R5/4Kn3 w - - 0 1", (3, 1)),  # no horse behind the rook
    ("5k3/9/9/9/9/9/9/3b5/3R5/4K4 w - - 0 1", (3, 1)),  # an elephant, not a horse
])
def test_no_pin(fen: str, sq: tuple[int, int]) -> None:
    b = Board(fen, setup=True)
    assert rook_pinned_by_horse(b, square(*sq)) is None
    assert pinned_rook_victims(b, (square(*sq),)) == frozenset()
