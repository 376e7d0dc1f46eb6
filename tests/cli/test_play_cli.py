"""``qisai play``: the Xiangqi board's two colours, and terminal Go to a
counted result, driven by scripted input."""

from __future__ import annotations

from typer.testing import CliRunner

from qisai.cli import app

runner = CliRunner()
COLOUR = {"FORCE_COLOR": "1", "TERM": "xterm-256color", "NO_COLOR": ""}
PLAIN = {"FORCE_COLOR": "", "TERM": "dumb", "NO_COLOR": "1"}

# Black walls off columns A-E, White F-J (9x9); White's lone stone on B5 is
# dead.  Counted by hand: Black 5 x 9 = 45 points, White 4 x 9 = 36; komi 7.5
# points (3 3/4 stones): Black leads 45 - 36 - 7.5 = 1.5 points, i.e.
# 45 - 40.5 (half the board) - 3.75 = 3/4 stone.
WALLS = [f"{col}{row}" for row in range(1, 10) for col in "EF"]
TO_SCORING = [*WALLS, "pass", "B5", "pass", "pass"]


def run(args: list[str], lines: list[str], env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, args, input="\n".join(lines) + "\n", env=env or PLAIN)
    assert result.exit_code == 0, result.output
    return result.output


def test_go_between_friends_is_counted_by_the_referee() -> None:
    out = run(["play", "--game", "go", "--size", "9", "--opponent", "friend"],
              [*TO_SCORING, "B5", "B5", "B5", "done"])
    assert "双方停一手" in out and "proposes: B5" in out  # the Go core's proposal
    # naming B5 marks its group, again unmarks it, a third time marks it
    marks = [line for line in out.splitlines() if line.startswith("dead: ")]
    assert marks == ["dead: none", "dead: B5", "dead: none", "dead: B5"]
    assert "黑 Black 45, 白 White 36" in out and "komi 7.5" in out
    assert "黑方胜3/4子" in out and "by 0.75 stones" in out
    assert out.strip().splitlines()[-1] == "B+1.5"


def test_go_proposal_taken_and_illegal_input_refused() -> None:
    out = run(["play", "--game", "go", "--opponent", "friend"],
              ["I5", "E1", "E1", "Z9", *WALLS[1:3], "pass", "pass", "resume", *WALLS[3:],
               "pass", "B5", "pass", "pass", "A1", "suggest", "done"])
    assert "I5: 'I5' is not a GTP point" in out
    assert "E1: 已有棋子 / point is occupied" in out
    assert "Z9:" in out
    assert "play resumes" in out
    assert "A1: no stone on A1" in out
    assert out.strip().splitlines()[-1] == "B+1.5"


def test_go_against_the_engine_until_resignation() -> None:
    out = run(["play", "--game", "go", "--size", "9", "--playouts", "30", "--seed", "3"],
              ["E5", "resign"])
    lines = out.splitlines()
    assert any(line.startswith("白方 White: ") for line in lines)  # the engine answered
    assert "黑方认输" in out and lines[-1] == "W+R"
    out = run(["play", "--game", "go", "--color", "white", "--playouts", "30", "--seed", "3"],
              ["quit"])
    assert "黑方 Black: " in out and out.strip().endswith("bye")  # the engine moved first


def test_go_rejects_bad_options() -> None:
    r = runner.invoke(app, ["play", "--game", "go", "--color", "red"])
    assert r.exit_code == 2 and "black or white" in r.output
    r = runner.invoke(app, ["play", "--game", "chess"])
    assert r.exit_code == 2 and "xiangqi or go" in r.output


def test_xiangqi_sides_differ_in_characters_and_colours() -> None:
    plain = run(["play", "--opponent", "friend"], ["quit"])
    assert "\x1b[" not in plain
    assert "0 俥傌相仕帥仕相傌俥" in plain and "9 車馬象士將士象馬車" in plain
    assert "2 ＋炮＋＋＋＋＋炮＋" in plain and "7 ＋砲＋＋＋＋＋砲＋" in plain
    coloured = run(["play", "--opponent", "friend"], ["quit"], env=COLOUR)
    # SGR 1 bold, 31 red / 30 black foreground, 47 white background
    assert coloured.count("\x1b[1;31;47m") == 16 and coloured.count("\x1b[1;30;47m") == 16
    assert "\x1b[1;31;47m俥" in coloured and "\x1b[1;30;47m車" in coloured
    assert "\x1b[1;31;47m帥" in coloured and "\x1b[1;30;47m將" in coloured


def test_go_stones_are_coloured() -> None:
    out = run(["play", "--game", "go", "--opponent", "friend"], ["E5", "D5", "quit"],
              env=COLOUR)
    # 30 black / 97 bright white on 43 yellow
    assert "\x1b[1;30;43m●" in out and "\x1b[1;97;43m○" in out
