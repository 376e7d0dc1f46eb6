"""``qisai convert`` and ``qisai svg`` on the record files other programs wrote."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from qisai.cli import app
from qisai.xiangqi.pgn import parse_pgn

RECORDS = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "records"
runner = CliRunner()


def test_convert_xqf_to_pgn_replays(tmp_path: Path) -> None:
    out = tmp_path / "game.pgn"
    result = runner.invoke(app, ["convert", str(RECORDS / "test.xqf"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    games = parse_pgn(out.read_bytes())
    assert len(games) == 1
    assert games[0].headers["Red"] == "柳大华"
    assert len(games[0].mainline_moves()) == 110
    assert "兵七进一" in out.read_text(encoding="utf-8")


def test_convert_cbl_skips_empty_headings_and_keeps_games(tmp_path: Path) -> None:
    out = tmp_path / "lib.pgn"
    src = RECORDS / "1989年龙化杯象棋名师邀请赛35局.CBL"
    result = runner.invoke(app, ["convert", str(src), "-o", str(out), "-n", "wxf"])
    assert result.exit_code == 0, result.output
    assert "36 game(s) converted, 2 skipped" in result.output
    assert len(parse_pgn(out.read_bytes())) == 36


def test_convert_bad_file_is_a_clear_error() -> None:
    result = runner.invoke(app, ["convert", str(RECORDS / "BadMoveTest3.xqf")])
    assert result.exit_code == 1
    assert "illegal move" in result.output and "ply" in result.output


def test_svg_writes_a_picture(tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    result = runner.invoke(app, ["svg", "--last-move", "h2e2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<svg")
    bad = runner.invoke(app, ["svg", "not a fen", "-o", str(out)])
    assert bad.exit_code == 1
    assert "ranks" in bad.output


# ------------------------------------------------------------ issue 36

ISSUE36 = RECORDS / "issue36"


def test_convert_gbk_output_reads_back_the_same_names(tmp_path: Path) -> None:
    out = tmp_path / "gbk.pgn"
    result = runner.invoke(app, ["convert", str(ISSUE36 / "gbk_utf8_lines.pgn"), "-o", str(out),
                                 "--encoding", "gbk"])
    assert result.exit_code == 0, result.output
    again = parse_pgn(out.read_bytes())
    assert [(g.headers["Red"], g.headers["Event"]) for g in again] == [
        ("谢小然", "第二届全国象棋个人赛"), ("谢小然", "胜")]
    assert again[0].headers["Site"] == "太原" and again[0].comment == "注"


def test_convert_input_encoding_is_honoured(tmp_path: Path) -> None:
    src = str(ISSUE36 / "big5_traditional.pgn")
    out = tmp_path / "big5.pgn"
    result = runner.invoke(app, ["convert", src, "-o", str(out), "--input-encoding", "big5"])
    assert result.exit_code == 0, result.output
    assert parse_pgn(out.read_bytes())[0].headers["Red"] == "保定鄧裕如"
    # The same bytes said to be GBK: the traditional moves are nonsense.
    result = runner.invoke(app, ["convert", src, "-o", str(out), "--input-encoding", "gbk"])
    assert "0 game(s) converted, 2 skipped" in result.output
    result = runner.invoke(app, ["convert", src, "--input-encoding", "klingon"])
    assert result.exit_code == 2 and "klingon" in result.output


def test_convert_skips_only_the_game_the_output_encoding_cannot_write(tmp_path: Path) -> None:
    out = tmp_path / "gbk.pgn"
    result = runner.invoke(app, ["convert", str(ISSUE36 / "private_use_middle.pgn"), "-o", str(out),
                                 "--encoding", "gbk"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "skipped game 2 (广州杨官璘 - 长春赵震寰, 5、\ue5e5第二轮)" in flat
    assert "(U+E5E5) cannot be written in gbk" in flat
    assert "2 game(s) converted, 1 skipped" in result.output
    assert [g.headers["Event"] for g in parse_pgn(out.read_bytes())] == ["第二轮", "第二轮"]


def test_convert_xqf_with_user_defined_bytes_never_leaves_an_empty_file(tmp_path: Path) -> None:
    src = str(ISSUE36 / "user_defined_a3a0.xqf")
    out = tmp_path / "a3a0.pgn"
    result = runner.invoke(app, ["convert", src, "-o", str(out), "--encoding", "gbk"])
    assert result.exit_code == 1
    assert "skipped game 1 (黄松轩 - 冯敬如" in result.output
    assert "UnicodeEncodeError" not in result.output
    assert not out.exists()
    # GB18030 (and UTF-8) can write the character: the game is kept whole.
    result = runner.invoke(app, ["convert", src, "-o", str(out), "--encoding", "gb18030"])
    assert result.exit_code == 0, result.output
    assert parse_pgn(out.read_bytes(), encoding="gb18030")[0].headers["Event"] == "5、\ue5e5第二轮"


def test_convert_reads_past_a_bad_tag_with_a_warning(tmp_path: Path) -> None:
    out = tmp_path / "all.pgn"
    result = runner.invoke(app, ["convert", str(ISSUE36 / "bad_tag_middle.pgn"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "warning: game 2, line 14: tag Event has unescaped quotes" in flat
    assert "3 game(s) converted, 0 skipped" in flat
    assert len(parse_pgn(out.read_bytes())) == 3
