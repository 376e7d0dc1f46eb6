"""Make the small record files of issue 36 (run from the repository root).

    python tests/data/xiangqi/records/issue36/make_files.py

The moves come from ../cbl_games.json (games of the 1956 national
championship, every move checked legal by Fairy-Stockfish); the move text is
written here by hand-made rules (below), not by qisai, so that reading it
back is a test of the reader.  The XQF file is ../030-黄松轩先胜冯敬如.XQF
with one header text replaced, byte for byte, as the XQF format lays the
header out (offset 208: the event, one length byte then GBK bytes).
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDS = HERE.parent

# Chinese numerals for Red's files and counts; Black uses digits.
RED_NUM = "一二三四五六七八九"
FULL = "１２３４５６７８９"
# Piece letters as Fairy-Stockfish / FEN name them.
FILES = "abcdefghi"


def _board(fen: str) -> dict[tuple[int, int], str]:
    rows = fen.split()[0].split("/")
    board: dict[tuple[int, int], str] = {}
    for i, row in enumerate(rows):
        rank = 9 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, rank)] = ch
                f += 1
    return board


def chinese(fen: str, moves: list[str], names: dict[str, str], black_digits: str) -> list[str]:
    """Each ICCS move in Chinese notation, pieces named by ``names`` (FEN
    letter -> character), Black's numbers from ``black_digits``.  Only the
    cases these games need: two pieces of a kind on one file get 前/后
    (後 when ``names`` says so), pawns too (no game here has three)."""
    board = _board(fen)
    out = []
    red = fen.split()[1] == "w"
    for mv in moves:
        f0, r0, f1, r1 = FILES.index(mv[0]), int(mv[1]), FILES.index(mv[2]), int(mv[3])
        piece = board[(f0, r0)]
        is_red = piece.isupper()
        assert is_red == red, mv
        kind = piece.upper()

        def num(n: int, is_red: bool = is_red) -> str:
            return RED_NUM[n - 1] if is_red else black_digits[n - 1]

        def file_no(f: int, is_red: bool = is_red) -> int:
            return 9 - f if is_red else f + 1

        same = sorted(r for (f, r), p in board.items() if p == piece and f == f0)
        name = names[piece]
        if len(same) == 2:
            front = max(same) if is_red else min(same)
            head = (names["front"] if r0 == front else names["rear"]) + name
        else:
            head = name + num(file_no(f0))
        forward = (r1 > r0) if is_red else (r1 < r0)
        if r0 == r1:
            text = head + names["."] + num(file_no(f1))
        elif kind in "NBA":
            text = head + (names["+"] if forward else "退") + num(file_no(f1))
        else:
            text = head + (names["+"] if forward else "退") + num(abs(r1 - r0))
        out.append(text)
        board[(f1, r1)] = board.pop((f0, r0))
        red = not red
    return out


def _pgn(tags: list[tuple[str, str]], moves: list[str], result: str,
         comment: str = "") -> str:
    lines = [f'[{k} "{v}"]' for k, v in tags]
    body = []
    for i in range(0, len(moves), 2):
        body.append(f"{i // 2 + 1}. " + " ".join(moves[i:i + 2]))
    text = "\n".join(lines) + "\n\n"
    if comment:
        text += "{" + comment + "}\n"
    # Eight moves a line, as 象棋巫师 writes.
    for i in range(0, len(body), 8):
        text += " ".join(body[i:i + 8]) + "\n"
    return text + result + "\n\n"


SIMPLIFIED = {"R": "车", "N": "马", "B": "相", "A": "仕", "K": "帅", "C": "炮", "P": "兵",
              "r": "车", "n": "马", "b": "象", "a": "士", "k": "将", "c": "炮", "p": "卒",
              "front": "前", "rear": "后", "+": "进", ".": "平"}
# The forms of Taiwanese and Hong Kong sets: 俥傌炮帥仕相兵 for Red,
# 車馬包將士象卒 for Black, 進 and 後.
TRADITIONAL = {"R": "俥", "N": "傌", "B": "相", "A": "仕", "K": "帥", "C": "炮", "P": "兵",
               "r": "車", "n": "馬", "b": "象", "a": "士", "k": "將", "c": "包", "p": "卒",
               "front": "前", "rear": "後", "+": "進", ".": "平"}
# Plain Big5 has no 俥 (it is in the Hong Kong supplement): 車 for both, 砲 for Black.
TRADITIONAL_BIG5 = dict(TRADITIONAL, R="車", c="砲")


def main() -> None:
    games = [g for g in json.loads((RECORDS / "cbl_games.json").read_text("utf-8"))
             if g["moves_iccs"]]
    g0, g1, g2 = games[0], games[1], games[2]

    # 1. GBK whose tag lines happen to be valid UTF-8 (谢小然, 太原, 注, 胜).
    text = _pgn([("Event", "第二届全国象棋个人赛"), ("Site", "太原"), ("Red", "谢小然"),
                 ("Black", "邓裕如"), ("Result", g0["info"]["result"])],
                chinese(g0["fen"], g0["moves_iccs"], SIMPLIFIED, FULL), g0["info"]["result"],
                comment="注")
    text += _pgn([("Event", "胜"), ("Red", "谢小然"), ("Black", "李定一"),
                  ("Result", g1["info"]["result"])],
                 chinese(g1["fen"], g1["moves_iccs"], SIMPLIFIED, FULL), g1["info"]["result"])
    (HERE / "gbk_utf8_lines.pgn").write_bytes(text.encode("gbk"))

    # 3. Big5 (code page 950) and Big5-HKSCS, traditional notation.
    text = _pgn([("Event", "1956年全國象棋錦標賽（初賽）"), ("Red", "保定鄧裕如"),
                 ("Black", "哈爾濱王嘉良"), ("Result", g0["info"]["result"])],
                chinese(g0["fen"], g0["moves_iccs"], TRADITIONAL_BIG5, "123456789"),
                g0["info"]["result"])
    text += _pgn([("Event", "1956年全國象棋錦標賽（初賽）"), ("Red", "保定鄧裕如"),
                  ("Black", "長沙李定一"), ("Result", g1["info"]["result"])],
                 chinese(g1["fen"], g1["moves_iccs"], TRADITIONAL_BIG5, FULL),
                 g1["info"]["result"])
    (HERE / "big5_traditional.pgn").write_bytes(text.encode("cp950"))
    text = _pgn([("Event", "1956年全國象棋錦標賽（初賽）"), ("Red", "長春趙震寰"),
                 ("Black", "廣州楊官璘"), ("Result", g2["info"]["result"])],
                chinese(g2["fen"], g2["moves_iccs"], TRADITIONAL, "123456789"),
                g2["info"]["result"])
    (HERE / "big5hkscs_traditional.pgn").write_bytes(text.encode("big5hkscs"))

    # 4. A bad tag (unescaped quotes) in the middle game of three.
    parts = []
    for i, g in enumerate(games[3:6]):
        event = 'The "Qisai" Cup' if i == 1 else "1956 national championship"
        parts.append(_pgn([("Event", event), ("Round", str(i + 1)),
                           ("Red", g["info"]["red"]), ("Black", g["info"]["black"]),
                           ("Result", g["info"]["result"]), ("Format", "ICCS")],
                          [m[:2].upper() + "-" + m[2:].upper() for m in g["moves_iccs"]],
                          g["info"]["result"]))
    (HERE / "bad_tag_middle.pgn").write_text("".join(parts), "utf-8")

    # 2. A game whose event holds a character GBK cannot write (U+E5E5, what
    #    GB18030 reads for the user-defined code A3A0), between two that it can.
    parts = []
    for i, g in enumerate(games[6:9]):
        event = "5、\ue5e5第二轮" if i == 1 else "第二轮"
        parts.append(_pgn([("Event", event), ("Red", g["info"]["red"]),
                           ("Black", g["info"]["black"]), ("Result", g["info"]["result"]),
                           ("Format", "ICCS")],
                          [m[:2].upper() + "-" + m[2:].upper() for m in g["moves_iccs"]],
                          g["info"]["result"]))
    (HERE / "private_use_middle.pgn").write_text("".join(parts), "utf-8")

    # 2. XQF with the user-defined bytes A3A0 in its event text.
    data = bytearray((RECORDS / "030-黄松轩先胜冯敬如.XQF").read_bytes())
    event = "5、".encode("gbk") + b"\xa3\xa0" + "第二轮".encode("gbk")
    data[208:272] = bytes([len(event)]) + event + bytes(63 - len(event))
    (HERE / "user_defined_a3a0.xqf").write_bytes(bytes(data))


if __name__ == "__main__":
    main()
