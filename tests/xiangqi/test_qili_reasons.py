"""What a ruling says, and the window it rules on (issue 24.6).

The positions are hand-built so that who attacks what, whether the target
has a real root and what the rule book calls the move are plain on the
board: each explanation must name the attacking piece, the target, the
reason it counts (无根/假根/少根/交换/照将/牵制/不成兑) and the clause.  Also:
27.3 and 细则13 ask for a defensive key point on the mover's own side of the
river; the window of a repetition (24, spec 2.2); the moves that would
complete a forbidden repetition (UCCI banmoves).
"""

from __future__ import annotations

import pytest

from qisai.xiangqi.board import Board
from qisai.xiangqi.qili.classify import classify_move
from qisai.xiangqi.qili.cycle import forbidden_moves, repetition_window
from qisai.xiangqi.qili.mates import mate_by_checks
from qisai.xiangqi.qili.rulings import Label, Nuance
from qisai.xiangqi.squares import Move, square


def _play(fen: str, moves: str) -> Board:
    b = Board(fen)
    for m in moves.split():
        b.push(Move.from_iccs(m))
    return b


# (fen, move, profile, label, words of reason_zh, words of reason_en, clause)
EXPLAINED = [
    pytest.param(  # 28.3: the rook attacks a horse nothing protects
        "4k4/9/n8/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0a0", "cxa", Label.CHASE,
        ["车攻击无根马（28.3"], ["the chariot attacks the unprotected horse (28.3"], "28.3",
        id="28.3-unprotected"),
    pytest.param(  # 28.16: the cannon's only root, the rook on b9, is pinned
        "Rr2k4/9/9/9/1c7/9/9/9/3N5/3K5 w - - 0 1", "d1c3", "cxa", Label.CHASE,
        ["马攻击假根炮（28.3、28.16）"],
        ["the horse attacks the falsely protected cannon (28.3, 28.16)"], "28.3",
        id="28.16-false-root"),
    pytest.param(  # 28.16 少根子: cannon and rook together against a horse protected once
        "4ka3/4a4/1P1nb4/9/9/9/C8/3R5/9/4K4 w - - 0 1", "a3a7", "cxa", Label.CHASE,
        ["联合攻击少根马（28.16）"], ["two pieces attack the under-protected horse (28.16)"],
        "28.16", id="28.16-joint"),
    pytest.param(  # 25.3: a horse for a protected rook still wins material
        "3k5/9/1n7/9/2r6/9/9/5N3/9/4K4 w - - 0 1", "f2e4", "cxa", Label.CHASE,
        ["马攻击车，交换后得子（25.3、29.1）"],
        ["the horse attacks the chariot and wins material after the exchange (25.3, 29.1)"],
        "25.3", id="25.3-exchange"),
    pytest.param(  # 29.1 and 27.1: the general steps back, the rook checks and wins the horse
        "3k5/4a4/9/9/9/9/9/9/R3K2n1/9 w - - 0 1", "e1e0", "cxa", Label.CHASE,
        ["车照将后可得马（连续照将得子，29.1）", "借帅（将）之力捉子（27.1）"],
        ["the chariot checks and then wins the horse (29.1)",
         "with the general's help (27.1)"], "29.1", id="29.1-checks"),
    pytest.param(  # AXF diagrams 39-41: the black rook on f8 is pinned by the horse on g8
        "4k4/5rN2/R8/4n4/9/9/9/9/9/3K5 w - - 0 1", "a7a8", "axf", Label.CHASE,
        ["车攻击被马牵制的车，按无根车论（亚洲象联规则图39-41）"],
        ["the chariot attacks the chariot pinned by a horse, which counts as unprotected "
         "(AXF diagrams 39-41);"], "28.3", id="axf-pinned-rook"),
    pytest.param(  # 细则7: taking the rook back is mated at once, so no exchange offer
        "9/3k1r3/9/9/9/7R1/9/4K4/8R/9 w - - 0 1", "h4h8", "cxa", Label.CHASE,
        ["车攻击无根车，对方车吃回即被将死，不成兑（28.3、28.5、细则7）"],
        ["the chariot attacks the unprotected chariot; taking back would be mated at once, "
         "so it is no exchange offer (28.3, 28.5, rule 7);"], "细则7", id="rule-7-offer-mated"),
]


@pytest.mark.parametrize(("fen", "move", "profile", "label", "zh", "en", "clause"), EXPLAINED)
def test_explanation_names_attacker_target_and_reason(
        fen: str, move: str, profile: str, label: Label, zh: list[str], en: list[str],
        clause: str) -> None:
    r = classify_move(Board(fen), Move.from_iccs(move), profile)
    assert r.label is label
    assert clause in r.clauses
    for words in zh:
        assert words in r.reason_zh, r.reason_zh
    for words in en:
        assert words in r.reason_en, r.reason_en


def test_27_3_key_point_must_be_on_the_movers_own_side() -> None:
    # The black rook on a5 attacks the loose red horse on h5; 马四进五 blocks
    # the rank on e5 (protected by the soldier on e4) and attacks the loose
    # advisor on f7.  e5 is across the river, black's side: no defensive
    # key point (27.3 防守要点), a plain chase of the advisor (28.3).  The
    # same move one rank lower is the key point of test_qili.py's
    # test_27_3_rule_13_defensive_key_point.
    red = classify_move(Board("4k4/9/5a3/9/r6N1/4P4/5N3/9/9/3K5 w - - 0 1"),
                        Move.from_iccs("f3e5"), "cxa")
    assert red.label is Label.CHASE and red.nuance is Nuance.NONE
    assert "unprotected advisor" in red.reason_en
    # That test's position turned round for black: black's horse takes e5,
    # on its own side of the river (ranks 5-9), and the elephant on g4 it
    # then attacks is incidental (细则13).
    black = classify_move(Board("3k5/9/5n3/4p4/R6n1/6B2/9/9/9/5K3 b - - 0 1"),
                          Move.from_iccs("f7e5"), "cxa")
    assert black.label is Label.IDLE and black.nuance is Nuance.KEY_POINT
    assert black.clauses == ("27.3", "细则13")
    # The reason names the incidental chase and the clause, in both languages.
    assert black.reason_zh.endswith("占据防守要点，立即构成简明和棋，附带产生的捉相按闲（27.3、细则13）")
    assert black.reason_en.endswith(
        "takes a defensive key point that at once leaves the opponent nothing to win; "
        "the incidental attack on the elephant is idle (27.3, rule 13)")


# OX-006 after 兵四平五 卒6平5 兵五平四: 卒5平6 uncovers the black rook on g0,
# which then mates by checks; the same move leaves the red horse on g3
# unprotected before the rook (and winnable by a check).
MATE_AND_CHASE = "5c3/8R/4k2P1/3P5/5P3/6P2/4p1N2/5A3/4CK3/6rn1 b - - 3 2"


def test_28_2_27_4_a_mate_threat_that_also_chases_is_a_mate_threat() -> None:
    board = Board(MATE_AND_CHASE)
    after = _play(MATE_AND_CHASE, "e3f3")
    assert mate_by_checks(after.passed(), 4) is not None  # 28.2: mate by checks follows
    r = classify_move(board, Move.from_iccs("e3f3"), "cxa")
    assert r.label is Label.MATE_THREAT and r.counts_as is Label.MATE_THREAT
    assert r.clauses == ("28.2", "27.4")
    assert square(6, 3) in r.targets  # g3  # the chase is kept beside the heavier label
    # 27.4 "杀兼捉，按杀": the mate threat first, then each chase, then the rule.
    assert r.reason_zh == ("卒5平6 杀：下一着起可连续照将将死对方（28.2），兼捉车攻击无根马"
                           "（28.3、28.16）、车照将后可得马（连续照将得子，29.1），从重按杀（27.4）")
    assert r.reason_en == (
        "P5.6 mate threat: threatens mate by consecutive checks (28.2); also chases: the "
        "chariot attacks the unprotected horse (28.3, 28.16); the chariot checks and then "
        "wins the horse (29.1); the heavier label counts (27.4)")
    # AXF: a mate threat is no attack, but the chase it hides still counts.
    axf = classify_move(board, Move.from_iccs("e3f3"), "axf")
    assert axf.label is Label.MATE_THREAT and axf.counts_as is Label.CHASE
    assert axf.reason_en.endswith("; under these rules a mate threat is not forbidden")


def test_28_2_a_plain_mate_threat_cites_28_2_alone() -> None:
    # OX-034: 炮7平3 threatens 炮3进5 mate and chases nothing.
    r = classify_move(Board("2bak4/4a4/4b4/9/6c2/6R2/4c4/4C4/4N4/3AKA3 b - - 0 1"),
                      Move.from_iccs("g5c5"), "cxa")
    assert r.label is Label.MATE_THREAT and r.clauses == ("28.2",) and r.targets == ()
    assert r.reason_zh.endswith("杀：下一着起可连续照将将死对方（28.2）")
    assert r.reason_en.endswith("mate threat: threatens mate by consecutive checks (28.2)")


def test_28_16_25_2_a_joint_chase_says_it_does_not_forbid() -> None:
    # 炮九进四 adds the cannon to the rook against the horse the advisor
    # protects once (少根子, 28.16): a chase that does not forbid (25.2).
    r = classify_move(Board("4ka3/4a4/1P1nb4/9/9/9/C8/3R5/9/4K4 w - - 0 1"),
                      Move.from_iccs("a3a7"), "cxa")
    assert r.nuance is Nuance.JOINT_CHASE and r.clauses == ("28.16", "25.2")
    assert r.targets == (square(3, 7),)  # the horse on d7
    assert r.reason_zh == "炮九进四 捉：联合攻击少根马（28.16），联合捉少根子，不构成禁止（25.2）"
    assert r.reason_en == ("C9+4 chase: two pieces attack the under-protected horse (28.16); "
                           "a joint chase does not make the cycle forbidden (25.2)")


def test_repetition_window_counts_from_the_first_occurrence() -> None:
    # Plies 2 and 6 leave the same position (rook on a9, general on e8, red
    # to move): the window starts at ply 2 and it is the second occurrence.
    b = _play("4k4/9/4b4/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8")
    assert repetition_window(b) == (2, 2)
    b.push(Move.from_iccs("a9a8"))
    assert repetition_window(b) == (3, 2)


def test_classify_move_gives_the_moves_ply() -> None:
    b = _play("4k4/9/4b4/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a9 e9e8 a9a8 e8e9 a8a9")
    r = classify_move(b, Move.from_iccs("e9e8"))
    assert (r.ply, r.label) == (5, Label.IDLE)


def test_forbidden_moves_with_two_occurrences() -> None:
    # After one cycle of checks, 车九进一 would make the position after it
    # occur a second time: banned when two occurrences suffice, not with the
    # default three (24.1).
    b = _play("4k4/9/4b4/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a9 e9e8 a9a8 e8e9")
    assert forbidden_moves(b, occurrences=2) == [Move.from_iccs("a8a9")]
    assert forbidden_moves(b) == []


def test_forbidden_moves_look_past_a_capture() -> None:
    # The rook checks from a7 and a8 in turn (长将, 26.1).  It could also
    # take the horse on a9; a capture never repeats a position, so it is
    # passed over, and the check that would repeat is still found.
    b = _play("n8/R8/4k4/9/9/9/9/9/9/3K5 w - - 0 1",
              "a8a7 e7e8 a7a8 e8e7 a8a7 e7e8 a7a8 e8e7")
    assert Move.from_iccs("a8a9") in b.legal_moves()
    assert forbidden_moves(b) == [Move.from_iccs("a8a7")]


@pytest.mark.parametrize("profile", ["cxa", "axf"])
def test_29_2_the_same_attack_from_a_new_square_is_not_new(profile: str) -> None:
    # The rook on a0 already attacks the loose horse on a7; sliding along
    # the file it still does.  Nothing new is chased (29.2, 细则6): under
    # CXA no new gain, under AXF (new_chase_by_attack) the attacking piece,
    # followed to its new square, could capture the horse before.
    fen = "4k4/9/n8/9/9/3N5/9/9/9/R2K5 w - - 0 1"
    slide = classify_move(Board(fen), Move.from_iccs("a0a1"), profile)
    assert (slide.label, slide.nuance) == (Label.IDLE, Nuance.OLD_CHASE)
    assert "existed before the move" in slide.reason_en and "29.2" in slide.clauses


@pytest.mark.parametrize(("fen", "move", "label"), [
    # c5 is on black's side of the river: a black soldier there has not
    # crossed, a red one has (25.3: only a crossed soldier is material).
    ("4k4/9/9/9/2p6/9/9/9/9/R2K5 w - - 0 1", "a0a5", Label.IDLE),
    ("r3k4/9/9/9/2P6/9/9/9/9/3K5 b - - 0 1", "a9a5", Label.CHASE),
    # c4 is on red's side: a red soldier there has not crossed.
    ("r3k4/9/9/9/9/2P6/9/9/9/3K5 b - - 0 1", "a9a4", Label.IDLE),
])
def test_25_3_soldiers_at_the_river(fen: str, move: str, label: Label) -> None:
    r = classify_move(Board(fen), Move.from_iccs(move), "cxa")
    assert r.label is label
    if label is Label.IDLE:
        assert "25.3" in r.clauses and "not crossed the river" in r.reason_en
    else:
        assert "unprotected soldier" in r.reason_en


def test_root_cut_that_raises_the_gain_is_a_new_chase() -> None:
    # The horse on e4 attacks the black rook on c5, protected by the cannon
    # on c9 over the red soldier on c7: taking it wins a rook for a horse
    # (25.3: 一车相当于双马, a gain already there, 细则6).  The soldier steps
    # aside and cuts the root (CXA fig. 3 断根捉马): now the rook is won
    # outright, more than before, so the chase is new (细则 2, 3).
    fen = "2c1k4/9/2P6/9/2r6/4N4/9/9/9/3K5 w - - 0 1"
    r = classify_move(Board(fen), Move.from_iccs("c7b7"), "cxa")
    assert r.label is Label.CHASE and r.targets == (Move.from_iccs("c5c5").to_square,)
    assert "the horse attacks the unprotected chariot" in r.reason_en


def test_axf_check_makes_the_generals_recapture_illegal() -> None:
    # The horse on g6 attacks the black cannon on f8, which only the general
    # on e8 protects.  车九进八 checks along rank 8: judged as if the check
    # were answered (AXF, issue 13.1), the general still may not take back
    # on f8, where the rook would attack it once e8 is empty (a general's
    # own capture must be safe from every piece, 4.1.2): the cannon is
    # falsely protected (28.16) and the check also chases it.
    fen = "9/4kc3/9/6N2/9/9/9/9/8R/R2K5 w - - 0 1"
    xray = classify_move(Board(fen), Move.from_iccs("a0a8"), "axf")
    assert xray.label is Label.CHECK
    assert xray.targets == (Move.from_iccs("f8f8").to_square,)
    assert "the horse attacks the falsely protected cannon" in xray.reason_en
    # 车一平五 checks along the e-file instead: the general may take back on
    # f8, so the horse only offers an even exchange and the check chases
    # nothing.
    file = classify_move(Board(fen), Move.from_iccs("i1e1"), "axf")
    assert file.label is Label.CHECK and file.targets == ()


def test_threat_scan_counting_leaves_out_a_soldiers_own_attack() -> None:
    # The rook on a0 attacks the loose cannon on a7 (a chase, 28.3); the
    # soldier on d5 attacks the loose horse on d6, its own attack, which
    # counts only in mutual perpetual attack (27.2, 细则11).
    from qisai.xiangqi.qili.threats import scan_threats

    scan = scan_threats(Board("4k4/9/c8/3n5/3P5/9/9/9/9/R2K5 w - - 0 1"))
    a7, d6 = Move.from_iccs("a7d6").from_square, Move.from_iccs("a7d6").to_square
    assert [t.target for t in scan.counting()] == [a7]
    assert sorted(t.target for t in scan.counting(pawn=True)) == sorted([a7, d6])


@pytest.mark.parametrize(("fen", "move", "clauses", "zh", "en"), [
    pytest.param(  # 28.3 and 29.1, the general's help (27.1): two chases, one sentence each
        "3k5/4a4/9/9/9/9/9/9/R3K2n1/9 w - - 0 1", "e1e0", ("28.3", "29.2", "29.1", "27.1"),
        "帅五退一 捉：车攻击无根马（28.3、28.16）；车照将后可得马（连续照将得子，29.1），"
        "借帅（将）之力捉子（27.1），为新产生的捉（29.2、细则2）",
        "K5-1 chase: the chariot attacks the unprotected horse (28.3, 28.16); the chariot "
        "checks and then wins the horse (29.1), with the general's help (27.1); the chase is "
        "new (29.2, rule 2)", id="27.1-29.1"),
    pytest.param(  # 细则7: the offer that is mated is no offer (28.5)
        "9/3k1r3/9/9/9/7R1/9/4K4/8R/9 w - - 0 1", "h4h8", ("28.3", "29.2", "28.5", "细则7"),
        "车二进四 捉：车攻击无根车，对方车吃回即被将死，不成兑（28.3、28.5、细则7），"
        "为新产生的捉（29.2、细则2）",
        "R2+4 chase: the chariot attacks the unprotected chariot; taking back would be mated "
        "at once, so it is no exchange offer (28.3, 28.5, rule 7); the chase is new (29.2, "
        "rule 2)", id="rule-7"),
    pytest.param(  # 25.3: the exchange wins material
        "3k5/9/1n7/9/2r6/9/9/5N3/9/4K4 w - - 0 1", "f2e4", ("28.3", "29.2", "25.3"),
        "马四进五 捉：马攻击车，交换后得子（25.3、29.1），为新产生的捉（29.2、细则2）",
        "H4+5 chase: the horse attacks the chariot and wins material after the exchange "
        "(25.3, 29.1); the chase is new (29.2, rule 2)", id="25.3"),
])
def test_a_chase_cites_every_clause_it_rests_on(fen: str, move: str, clauses: tuple[str, ...],
                                                zh: str, en: str) -> None:
    """28.3 and 29.2 always; 29.1, 25.3, 28.5 with 细则7 and 27.1 as the
    chases need them; the whole sentence in both languages."""
    r = classify_move(Board(fen), Move.from_iccs(move), "cxa")
    assert r.label is Label.CHASE and r.clauses == clauses
    assert (r.reason_zh, r.reason_en) == (zh, en)
