"""Issue 35.2 and 35.4: teire (补棋) as a rule field, and the Ing, AGA and
Tromp-Taylor presets.

Expected values come from the rule texts (counted by hand below) and from
GNU Go 3.8 (its fixtures in ``tests/go/data``), never from qisai's output.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from qisai.go.board import Board
from qisai.go.coords import parse_gtp
from qisai.go.rules import (
    AGA,
    CHINESE,
    ING,
    JAPANESE,
    KATAGO_TERRITORY,
    PRESETS,
    TROMP_TAYLOR,
    Color,
    KoRule,
    Rules,
    Scoring,
)
from qisai.go.scoring import score
from qisai.referee.rulesets import ruleset

DATA = Path(__file__).resolve().parent / "data"

# tests/go/test_fill_points.py's position (9x9): Black C1-C4, C6-C9, D5;
# White E1-E9, D4, D6.  D5 has one liberty, C5, inside Black's area.
BLACK = [f"C{i}" for i in (1, 2, 3, 4, 6, 7, 8, 9)] + ["D5"]
WHITE = [f"E{i}" for i in range(1, 10)] + ["D4", "D6"]


def teire_board() -> Board:
    board = Board(9, JAPANESE)
    board.setup(black=BLACK, white=WHITE)
    return board


def test_teire_is_a_rule_field() -> None:
    assert JAPANESE.teire_counted and not KATAGO_TERRITORY.teire_counted
    # Japanese (GNU Go 3.8 --japanese-rules: W+24.5): C5 must be filled (补棋),
    # so Black has the 18 points of columns A and B: 18 - 36 - 6.5.
    jp = score(teire_board(), rules=JAPANESE)
    assert jp.result.sgf() == "W+24.5" and jp.black_count == 18
    # KataGo's territory rules: every point Black encloses is his in the
    # main phase, C5 too: 19 - 36 - 6.5 = -23.5.
    kg = score(teire_board(), rules=KATAGO_TERRITORY)
    assert kg.result.sgf() == "W+23.5" and kg.black_count == 19 and kg.fill == frozenset()


# Positions from KataGo's cpp/tests/testexcludeterritoryatari.cpp (rows from
# the top, x Black, o White).  KataGo's default territory scoring ("rules
# v2", main phase) counts every enclosed point; its v3 mode leaves out a
# point next to an own string in atari, as the Japanese rules leave out a
# teire point.  The facts KataGo's test states are what is checked.
KATAGO_MOUTH = [  # 7x7: White's stone E7 has one liberty, the mouth D7
    ".oo.ox.",
    "oo.oxx.",
    "xoooox.",
    ".oooox.",
    "oooo.x.",
    "o.ooox.",
    "ooooox.",
]
KATAGO_TORAZU = [  # 9x9: torazu sanmoku, Black's four stones and White's A8 share A9
    ".xxo.....",
    "oxxo.....",
    "xooo.....",
    "xxxoooooo",
    "xxxxxxxxx",
    ".........",
    ".........",
    ".........",
    ".........",
]


def diagram_board(rows: list[str], rules: Rules) -> Board:
    n, cols = len(rows), "ABCDEFGHJKLMNOPQRST"
    stones: dict[str, list[str]] = {"x": [], "o": []}
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch in stones:
                stones[ch].append(f"{cols[j]}{n - i}")
    board = Board(n, rules)
    board.setup(black=stones["x"], white=stones["o"])
    return board


def test_katago_mouth_next_to_a_string_in_atari() -> None:
    # KataGo: the mouth D7 is White's under v2 and nobody's under v3; the
    # scores differ by exactly that point; the dead throw-in A5 and its
    # liberty A4 count for White either way.  GNU Go 3.8 --japanese-rules
    # (komi -0.5, as KataGo's test): B+1.5, A5 dead, D7 and E3 dame.
    komi = Fraction(-1, 2)
    jp = score(diagram_board(KATAGO_MOUTH, JAPANESE), dead=["A5"], rules=JAPANESE, komi=komi)
    kg = score(diagram_board(KATAGO_MOUTH, KATAGO_TERRITORY), dead=["A5"],
               rules=KATAGO_TERRITORY, komi=komi)
    assert jp.result.sgf() == "B+1.5"
    assert kg.margin == jp.margin - 1
    d7, a4, a5 = parse_gtp("D7", 7), parse_gtp("A4", 7), parse_gtp("A5", 7)
    assert d7 in kg.white_territory and d7 not in jp.white_territory
    assert {a4, a5} <= kg.white_territory and {a4, a5} <= jp.white_territory


def test_katago_torazu_sanmoku_is_the_same_under_both() -> None:
    # KataGo: the shared liberty A9 is nobody's territory in both modes and
    # the scores are equal (nothing marked dead, as KataGo's own count).
    komi = Fraction(-1, 2)
    jp = score(diagram_board(KATAGO_TORAZU, JAPANESE), rules=JAPANESE, komi=komi)
    kg = score(diagram_board(KATAGO_TORAZU, KATAGO_TERRITORY), rules=KATAGO_TERRITORY, komi=komi)
    a9 = parse_gtp("A9", 9)
    assert a9 in jp.shared and a9 in kg.shared
    assert jp.margin == kg.margin


def test_referee_profiles_say_their_teire_preset() -> None:
    # The Japanese and Korean referee profiles count teire (as GNU Go does);
    # the Chinese profile counts area, where teire costs nothing.
    for name in ("japanese", "korean"):
        core = ruleset(name).core  # type: ignore[union-attr]
        assert core.scoring is Scoring.TERRITORY and core.teire_counted
    assert ruleset("chinese").core.scoring is Scoring.AREA  # type: ignore[union-attr]


def test_preset_fields_from_the_rule_texts() -> None:
    # Ing (应氏规则, 计点制): area by filling, 8 points komi, ties to Black,
    # suicide allowed.
    assert (ING.scoring, ING.komi, ING.tie_winner, ING.suicide_allowed) == (
        Scoring.AREA, Fraction(8), Color.BLACK, True)
    # AGA Concise Rules: area, 7.5 komi, situational superko, no suicide,
    # pass stones with White passing last.
    assert (AGA.scoring, AGA.komi, AGA.ko, AGA.suicide_allowed, AGA.pass_stone,
            AGA.white_passes_last) == (Scoring.AREA, Fraction(15, 2), KoRule.SITUATIONAL,
                                       False, True, True)
    # Tromp-Taylor: area, positional superko, suicide allowed, 7.5 (KataGo).
    assert (TROMP_TAYLOR.scoring, TROMP_TAYLOR.ko, TROMP_TAYLOR.suicide_allowed,
            TROMP_TAYLOR.komi) == (Scoring.AREA, KoRule.POSITIONAL, True, Fraction(15, 2))
    assert {"ing", "aga", "tromp-taylor", "katago-territory"} <= set(PRESETS)


# KataGo's presets (cpp/game/rules.cpp, parseRules): ko, scoring,
# multi-stone suicide, komi, white handicap bonus (0, N or N-1 points).
KATAGO = {
    "aga": (KoRule.SITUATIONAL, Scoring.AREA, False, Fraction(15, 2), "N-1"),
    "tromp-taylor": (KoRule.POSITIONAL, Scoring.AREA, True, Fraction(15, 2), "0"),
    "ing": (KoRule.POSITIONAL, Scoring.AREA, True, None, "0"),  # KataGo "goe"/"ing"
    "katago-territory": (KoRule.SIMPLE, Scoring.TERRITORY, False, Fraction(13, 2), "0"),
}


@pytest.mark.parametrize("name", sorted(KATAGO))
def test_presets_agree_with_katago(name: str) -> None:
    ko, scoring, suicide, komi, bonus = KATAGO[name]
    rules = PRESETS[name]
    assert (rules.ko, rules.scoring, rules.suicide_allowed) == (ko, scoring, suicide)
    if komi is not None:  # KataGo sets no komi of its own for Ing (the text: 8)
        assert rules.komi == komi
    # White's handicap bonus under area counting, in points, for 4 stones.
    board = Board(9, rules)
    s = score(board, rules=rules, handicap=4, komi=0)
    expected = {"0": 0, "N": 4, "N-1": 3}[bonus] if scoring is Scoring.AREA else 0
    assert s.giveback == expected


def test_ing_ties_go_to_black() -> None:
    # 6x6: Black C1-C6, D1-D4 and the points A, B (22); White D5, D6,
    # E1-E6 and the points F (14): 22 - 14 - 8 = 0.
    board = Board(6, ING)
    board.setup(black=[f"C{i}" for i in range(1, 7)] + [f"D{i}" for i in range(1, 5)],
                white=["D5", "D6"] + [f"E{i}" for i in range(1, 7)])
    s = score(board, rules=ING)
    assert s.margin == 0 and s.result.winner is Color.BLACK
    # The same count under 8 points of Chinese-style komi is a draw.
    assert score(board, rules=CHINESE.with_komi(8)).result.winner is None


def test_aga_pass_stones_are_prisoners() -> None:
    # Black passes twice, White once: under territory counting with pass
    # stones White has 2 prisoners more and Black 1.
    territory = replace(AGA, scoring=Scoring.TERRITORY)
    board = Board(5, territory)
    board.setup(black=[f"C{i}" for i in range(1, 6)], white=[f"D{i}" for i in range(1, 6)])
    for _ in range(2):
        board.play(None)
        board.play(None)
    board.play(None)
    with_stones = score(board, rules=territory)
    without = score(board, rules=replace(territory, pass_stone=False))
    assert with_stones.white_prisoners - without.white_prisoners == 3
    assert with_stones.black_prisoners - without.black_prisoners == 2


def test_aga_pass_stones_make_area_and_territory_agree() -> None:
    # AGA rule 12 (and the AGA commentary's appendix): with pass stones and
    # White passing last, territory and area counting give the same margin.
    # 5x5: Black plays column C, White column D; Black passes, White fills
    # E3 in his own territory, then both pass (White last).
    moves = [m for i in range(1, 6) for m in (f"C{i}", f"D{i}")] + [None, "E3", None, None]
    counts = []
    for scoring in (Scoring.AREA, Scoring.TERRITORY):
        rules = replace(AGA, scoring=scoring)
        board = Board(5, rules)
        for move in moves:
            board.play(move)
        counts.append(score(board, rules=rules).margin)
    # Area: Black 15 (A-C), White 10 (D, E): 15 - 10 - 7.5.
    assert counts == [Fraction(-5, 2), Fraction(-5, 2)]
    # Without pass stones the territory count would differ by White's extra stone.
    plain = replace(AGA, scoring=Scoring.TERRITORY, pass_stone=False)
    board = Board(5, plain)
    for move in moves:
        board.play(move)
    assert score(board, rules=plain).margin == Fraction(-3, 2)


def _gnugo_games() -> list[dict]:
    games = json.loads((DATA / "gnugo_9x9.json").read_text(encoding="utf-8"))
    return [g for g in games if not g["dead"] and not g["seki"] and not g["handicap"]]


@pytest.mark.parametrize("game", _gnugo_games(), ids=lambda g: f"seed{g['seed']}")
def test_tromp_taylor_area_agrees_with_gnugo(game: dict) -> None:
    # Tromp-Taylor counts the board as it stands (no dead stones removed).
    # On GNU Go's games with no dead stones and no seki its Chinese count
    # (--chinese-rules final_score, same komi 7.5) is the same area count.
    rules = replace(TROMP_TAYLOR, ko=KoRule.SIMPLE)  # GNU Go played under simple ko
    board = Board(game["size"], rules.with_komi(Fraction(str(game["komi"]))))
    for color, vertex in game["moves"]:
        board.play(vertex, Color.from_letter(color))
    assert score(board).result.sgf() == game["chinese_score"]


def _referee_game(name: str, moves: list[str | None]) -> object:
    from qisai.referee.clock import ManualTime
    from qisai.referee.go_game import GoGame

    t = ManualTime(0)
    game = GoGame(ruleset(name, board_size=6, time_control=None), now=t)  # type: ignore[arg-type]
    game.start()
    for m in moves:
        t.advance(1)
        game.move(game.to_move, "pass" if m is None else m)
    return game


def test_referee_profiles_of_the_new_presets() -> None:
    from qisai.engines.gtp import kgs_rules_name
    from qisai.referee.game import Phase
    from qisai.referee.verdict import Side

    assert ruleset("ing").core is ING  # type: ignore[union-attr]
    assert ruleset("aga").core is AGA  # type: ignore[union-attr]
    assert ruleset("tromp-taylor").core is TROMP_TAYLOR  # type: ignore[union-attr]
    assert [kgs_rules_name(r) for r in (AGA, TROMP_TAYLOR, ING, KATAGO_TERRITORY)] == [
        "aga", "new_zealand", "new_zealand", "japanese"]
    # AGA rule 7: White passes last.  Black's pass after White's does not
    # end the game; White's next pass does.
    game = _referee_game("aga", ["C3", None, None])
    assert game.phase is Phase.PLAYING  # type: ignore[attr-defined]
    game.move(Side.SECOND, "pass")  # type: ignore[attr-defined]
    assert game.phase is Phase.SCORING  # type: ignore[attr-defined]
    # The Chinese profile ends on any two passes.
    assert _referee_game("chinese", ["C3", None, None]).phase is Phase.SCORING  # type: ignore[attr-defined]


def test_referee_ing_tie_is_blacks_win() -> None:
    from qisai.referee.verdict import Side

    # The 6x6 tie of test_ing_ties_go_to_black, played out: Black C1-C6 and
    # D1-D4, White D5, D6, E1-E6; then both pass and confirm.
    black = [f"C{i}" for i in range(1, 7)] + [f"D{i}" for i in range(1, 5)]
    white = ["D5", "D6"] + [f"E{i}" for i in range(1, 7)] + ["F1", "F2"]
    moves: list[str | None] = [m for pair in zip(black, white, strict=True) for m in pair]
    moves += [None, "F3", None, None]  # White fills F3 in its own area: no change by area
    game = _referee_game("ing", moves)
    game.confirm_dead(game.to_move)  # type: ignore[attr-defined]
    game.confirm_dead(game.to_move.other)  # type: ignore[attr-defined]
    result = game.result  # type: ignore[attr-defined]
    assert game.final_score.margin == 0  # type: ignore[attr-defined]
    assert result.winner is Side.FIRST and "同点黑胜" in result.explanation_zh


@pytest.mark.parametrize(("ru", "name"), [("AGA", "aga"), ("GOE", "ing"), ("Ing", "ing"),
                                          ("Tromp-Taylor", "tromp-taylor"),
                                          ("Japanese", "japanese"), ("Chinese", "chinese")])
def test_sgf_ru_names_the_profile(ru: str, name: str) -> None:
    from qisai.referee.records import go_from_sgf

    game = go_from_sgf(f"(;FF[4]GM[1]SZ[9]RU[{ru}];B[ee];W[cc])")
    assert game.grules.name == name


def test_cli_counts_by_the_named_preset(tmp_path: Path) -> None:
    # The KataGo mouth position as an SGF set-up: the CLI's --rules names
    # every preset; Japanese keeps GNU Go's B+1.5, katago-territory B+0.5.
    from typer.testing import CliRunner

    from qisai.cli import app

    letters = "abcdefg"
    stones: dict[str, list[str]] = {"x": [], "o": []}
    for i, row in enumerate(KATAGO_MOUTH):
        for j, ch in enumerate(row):
            if ch in stones:
                stones[ch].append(f"[{letters[j]}{letters[i]}]")
    path = tmp_path / "mouth.sgf"
    path.write_text(f"(;FF[4]GM[1]SZ[7]AB{''.join(stones['x'])}AW{''.join(stones['o'])})",
                    encoding="utf-8")
    runner = CliRunner()
    for rules, expected in (("japanese", "B+1.5"), ("katago-territory", "B+0.5")):
        result = runner.invoke(app, ["go", "score", str(path), "--rules", rules, "--dead", "A5",
                                     "--komi", "-0.5"])
        assert result.exit_code == 0, result.output
        assert result.output.strip().splitlines()[-1] == expected
