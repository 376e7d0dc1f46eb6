"""XQF reader (the 象棋演播室 / XQStudio format), every version.

An XQF file is a 1024-byte header followed by the move tree.  The header
holds the 32 piece positions and the texts (title, event, date, site,
players, ...) as length-prefixed GBK strings, read here as GB18030 (the
superset: user-defined codes such as A3A0, which XQStudio users typed,
decode as one private-use character each instead of shifting the rest of
the text, as a GBK decoder with replacement does).  The tree is stored in
pre-order: each record is a move with two flags, "has a next move" and "has
an alternative"; the alternative of a move comes after the whole subtree of
that move.

Versions up to 10 store everything in clear.  From version 11 on, the piece
positions, the moves and the comment lengths are obfuscated with keys taken
from header bytes 3-15 (a mask, four key bytes and four more key bytes),
and version 12 and later also rotate the piece list.

Use :func:`read_xqf` on the bytes of a file; it returns a
:class:`~qisai.xiangqi.pgn.Game` whose moves have all been checked legal.
"""

from __future__ import annotations

import codecs
from typing import NamedTuple

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import RecordError, XiangqiError
from qisai.xiangqi.fen import placement_fen
from qisai.xiangqi.pgn import Game
from qisai.xiangqi.pieces import Color, Piece, PieceType
from qisai.xiangqi.record_tree import PreorderMove, attach_preorder
from qisai.xiangqi.squares import square

__all__ = ["XqfError", "read_xqf"]

HEADER_SIZE = 1024
_STREAM_MASK = b"[(C) Copyright Mr. Dong Shiwei.]"
# The 32 piece slots of the header: Red rook, horse, elephant, advisor,
# general, advisor, elephant, horse, rook, two cannons, five pawns; then Black.
_SLOT_TYPES = (PieceType.ROOK, PieceType.HORSE, PieceType.ELEPHANT, PieceType.ADVISOR,
               PieceType.KING, PieceType.ADVISOR, PieceType.ELEPHANT, PieceType.HORSE,
               PieceType.ROOK, PieceType.CANNON, PieceType.CANNON, PieceType.PAWN,
               PieceType.PAWN, PieceType.PAWN, PieceType.PAWN, PieceType.PAWN)
# Header text fields: (offset, size, PGN tag).
_TEXT_FIELDS = (
    (80, 64, "Title"), (144, 64, "Subtitle"), (208, 64, "Event"), (272, 16, "Date"),
    (288, 16, "Site"), (304, 16, "Red"), (320, 16, "Black"), (336, 64, "TimeControl"),
    (400, 16, "RedTime"), (416, 16, "BlackTime"), (464, 16, "Annotator"),
    (480, 16, "Creator"),
)
_RESULTS = {1: "1-0", 2: "0-1", 3: "1/2-1/2"}
_MAX_COMMENT = 1 << 20


class XqfError(RecordError):
    """An XQF file is malformed; the message gives the byte offset or ply."""


class _Keys(NamedTuple):
    piece: int
    src: int
    dst: int
    comment: int
    stream: bytes


def _square54(x: int) -> int:
    return (x * x * 54 + 221) & 0xFF


def _keys(h: bytes) -> _Keys:
    if h[2] <= 10:
        return _Keys(0, 0, 0, 0, bytes(32))
    piece = (_square54(h[13]) * h[13]) & 0xFF
    src = (_square54(h[14]) * piece) & 0xFF
    dst = (_square54(h[15]) * src) & 0xFF
    comment = (h[12] * 256 + h[13]) % 32000 + 767
    mask = h[3]
    args = [h[8 + i] | (h[12 + i] & mask) for i in range(4)]
    stream = bytes(args[i % 4] & _STREAM_MASK[i] for i in range(32))
    return _Keys(piece, src, dst, comment, stream)


def _text(h: bytes, offset: int, size: int, encoding: str) -> str:
    n = min(h[offset], size - 1)
    raw = h[offset + 1: offset + 1 + n]
    return raw.decode(encoding, errors="replace").replace("\x00", "").strip()


class _Reader:
    """Reads decrypted bytes of the move area."""

    def __init__(self, data: bytes, keys: _Keys, encoding: str) -> None:
        self.data = data
        self.keys = keys
        self.encoding = encoding
        self.pos = HEADER_SIZE

    def read(self, n: int, what: str) -> bytes:
        if self.pos + n > len(self.data):
            raise XqfError(f"XQF 在第 {self.pos} 字节处截断：{_WHAT.get(what, what)}需 {n} 字节，"
                           f"只剩 {len(self.data) - self.pos} 字节",
                           f"XQF truncated at byte {self.pos}: {what} needs {n} bytes, "
                           f"{len(self.data) - self.pos} left")
        stream = self.keys.stream
        out = bytes((self.data[self.pos + i] - stream[(self.pos + i) % 32]) & 0xFF
                    for i in range(n))
        self.pos += n
        return out

    def read_int(self, what: str) -> int:
        return int.from_bytes(self.read(4, what), "little")


_WHAT = {"move record": "着法记录", "comment length": "注释长度", "comment": "注释"}
"""What a read is for, in Chinese (the Chinese text of a truncation error)."""


class _Record(NamedTuple):
    src: int
    dst: int
    has_next: bool
    has_alt: bool
    comment: str
    offset: int


def _read_record(r: _Reader, version: int) -> _Record:
    offset = r.pos
    rec = r.read(4, "move record")
    tag = rec[2]
    if version <= 10:
        has_next = bool(tag & 0xF0)
        has_alt = bool(tag & 0x0F)
        length = r.read_int("comment length")
    else:
        has_next = bool(tag & 0x80)
        has_alt = bool(tag & 0x40)
        length = 0
        if tag & 0x20:
            length = (r.read_int("comment length") - r.keys.comment) & 0xFFFFFFFF
    if length > _MAX_COMMENT or length > len(r.data) - r.pos:
        raise XqfError(f"XQF 第 {offset} 字节处的记录：注释长度 {length} 超出文件",
                       f"XQF record at byte {offset}: comment length {length} exceeds the file")
    comment = r.read(length, "comment").decode(r.encoding, errors="replace").replace("\x00", "") \
        if length else ""
    src = (rec[0] - 24 - r.keys.src) & 0xFF
    dst = (rec[1] - 32 - r.keys.dst) & 0xFF
    return _Record(src, dst, has_next, has_alt, comment.strip(), offset)


def _xqf_square(v: int) -> int | None:
    """XQF square ``x*10+y`` (x file 0-8 from Red's left, y rank 0-9) to ours."""
    if v > 89:
        return None
    return square(v // 10, v % 10)


def _setup(h: bytes, keys: _Keys) -> tuple[list[tuple[int, Piece]], int]:
    raw = h[16:48]
    slots = [0] * 32
    for i in range(32):
        j = (keys.piece + 1 + i) % 32 if h[2] >= 12 else i
        slots[j] = (raw[i] - keys.piece) & 0xFF
    pieces: list[tuple[int, Piece]] = []
    seen: set[int] = set()
    for i, v in enumerate(slots):
        sq = _xqf_square(v)
        if sq is None:
            continue
        if sq in seen:
            raise XqfError(f"XQF 文件头：点 {v} 上有两个棋子（第 {i} 格）",
                           f"XQF header: two pieces on square {v} (slot {i})")
        seen.add(sq)
        color = Color.RED if i < 16 else Color.BLACK
        pieces.append((sq, Piece(_SLOT_TYPES[i % 16], color)))
    return pieces, h[50]


def read_xqf(data: bytes, *, strict: bool = True, encoding: str = "gb18030") -> Game:
    """Read an XQF file's bytes into a :class:`Game`.

    Headers: ``Title``, ``Event``, ``Date``, ``Site``, ``Red``, ``Black``,
    ``TimeControl``, ``Annotator``, ``Creator`` when present, ``Result`` and
    ``FEN`` when the position is not the standard start.  A file without
    moves gives a game with an empty tree.  With ``strict=False`` an
    illegal move drops that variation (the rest is kept) and the reason is
    listed in ``game.errors``; by default it raises.  Texts are decoded
    as ``encoding`` (GB18030 by default), undecodable bytes as U+FFFD.

    Returns the game, every move checked legal.
    Raises :class:`XqfError` (a :class:`RecordError`) if the signature,
    header, piece set-up or move tree is malformed, or a move is illegal;
    the message gives the byte offset and the ply.  Raises
    :class:`LookupError` for an ``encoding`` Python does not know.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise XqfError(f"XQF 数据应为 bytes，不是 {type(data).__name__}",
                       f"XQF data must be bytes, not {type(data).__name__}")
    data = bytes(data)
    if len(data) < HEADER_SIZE:
        raise XqfError(f"XQF 文件太短：{len(data)} 字节，文件头就有 {HEADER_SIZE} 字节",
                       f"XQF file too short: {len(data)} bytes, the header alone is {HEADER_SIZE}")
    h = data[:HEADER_SIZE]
    if h[:2] != b"XQ":
        raise XqfError(f"不是 XQF 文件：签名 {h[:2]!r}，应为 b'XQ'",
                       f"not an XQF file: signature {h[:2]!r}, expected b'XQ'")
    version = h[2]
    keys = _keys(h)
    pieces, who = _setup(h, keys)
    headers: dict[str, str] = {}
    for offset, size, tag in _TEXT_FIELDS:
        value = _text(h, offset, size, encoding)
        if value:
            headers[tag] = value
    headers["Result"] = _RESULTS.get(h[51], "*")
    placement = placement_fen(dict(pieces))
    codecs.lookup(encoding)  # LookupError for an unknown name
    reader = _Reader(data, keys, encoding)
    root = _read_record(reader, version) if len(data) > HEADER_SIZE else None
    records: list[_Record] = []
    if root is not None and root.has_next:
        records = _read_tree_records(reader, version)
    # Side to move: the colour of the first piece moved; without moves the
    # header byte 50 (0 Red, 1 Black) decides.
    turn = "w"
    if records:
        first = _xqf_square(records[0].src)
        piece = next((p for s, p in pieces if s == first), None)
        if piece is not None and piece.color is Color.BLACK:
            turn = "b"
    elif who == 1:
        turn = "b"
    fen = f"{placement} {turn} - - 0 1"
    game = Game(headers)
    if root is not None:
        game.comment = root.comment
    try:
        board = Board(fen)
    except XiangqiError as exc:
        raise XqfError(f"XQF 文件头：开局摆放不合规则：{exc.zh}",
                       f"XQF header: the set-up position is not valid: {exc.en}") from None
    if board.board_fen() != Board().board_fen() or turn != "w":
        game.headers["FEN"] = board.fen()
    moves = [PreorderMove(_xqf_square(r.src), _xqf_square(r.dst), (r.src, r.dst),
                          r.has_next, r.has_alt, r.comment, r.offset) for r in records]
    attach_preorder(game, board, moves, strict=strict, prefix="XQF record", error=XqfError)
    return game


def _read_tree_records(reader: _Reader, version: int) -> list[_Record]:
    """Read every record of the tree, in file order."""
    out: list[_Record] = []
    pending = 1  # records still announced by flags
    while pending:
        rec = _read_record(reader, version)
        pending -= 1
        pending += rec.has_next + rec.has_alt
        out.append(rec)
    return out
