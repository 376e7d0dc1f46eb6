"""CCBridge (象棋桥) records: CBR games, CBL libraries and CBF (XML) games.

CBR (``CCBridge Record``) is a binary game: UTF-16LE texts in fixed slots
(title at byte 180, event 692, date 884, site 948, Red 1076, Black 1300),
the result at byte 2076 (1 Red wins, 2 Black wins, 3 draw), the board at
2120 (90 bytes, row by row from Black's back rank; Red pieces 0x11-0x17,
Black 0x21-0x27 for rook, horse, elephant, advisor, general, cannon, pawn)
and from 2214 the move tree in pre-order.  Each node is four bytes: flags,
a reserved byte, from square, to square (squares row*9+file from Black's
back rank); flag 1 means "no next move", 2 "an alternative follows this
subtree", 4 "a comment follows" (a 4-byte length and UTF-16LE text).  The
first node is the root: it carries no move, only flags and a comment.

CBL (``CCBridgeLibrary``) is a library: a header with the library title at
byte 64, an index of ``capacity`` (byte 60) entries of 276 bytes from byte
66624, then the games as CBR records in 4096-byte slots.

CBF is the XML form (``<ChineseChessRecord>``): ``<Head>`` fields and a
``<MoveList>`` of ``<Move value="77-47">`` elements (file digit, row digit
from Black's side), with comments as text.

These layouts were worked out from the test files and checked against the
131 games of ``cbl_games.json``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import NamedTuple

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import RecordError, XiangqiError
from qisai.xiangqi.fen import STARTING_FEN, placement_fen
from qisai.xiangqi.pgn import Game, GameNode
from qisai.xiangqi.pieces import Color, Piece, PieceType
from qisai.xiangqi.record_tree import PreorderMove, attach_preorder, where_zh
from qisai.xiangqi.squares import Move, square

__all__ = ["CblError", "iter_cbl", "read_cbf", "read_cbl", "read_cbr"]

CBR_SIGNATURE = b"CCBridge Record\x00"
CBL_SIGNATURE = b"CCBridgeLibrary\x00"
_CBR_TEXTS = ((180, 692, "Title"), (692, 884, "Event"), (884, 948, "Date"),
              (948, 1012, "Site"), (1076, 1300, "Red"), (1300, 1524, "Black"))
_CBR_RESULT = 2076
_CBR_TURN = 2116
_CBR_BOARD = 2120
_CBR_TREE = 2214
_CBL_TITLE = 64
_CBL_CAPACITY = 60
_CBL_INDEX = 66624
_CBL_ENTRY = 276
_CBL_SLOT = 4096
_RESULTS = {1: "1-0", 2: "0-1", 3: "1/2-1/2"}
_TYPES = {1: PieceType.ROOK, 2: PieceType.HORSE, 3: PieceType.ELEPHANT, 4: PieceType.ADVISOR,
          5: PieceType.KING, 6: PieceType.CANNON, 7: PieceType.PAWN}
_MAX_COMMENT = 1 << 20
_MAX_CBL_GAMES = 1 << 16


class CblError(RecordError):
    """A CBR, CBL or CBF record is malformed; the message says where."""


def _utf16z(data: bytes, start: int, end: int) -> str:
    """A NUL-terminated UTF-16LE string in ``data[start:end]`` (slots hold junk after the NUL)."""
    raw = data[start:end]
    for i in range(0, len(raw) - 1, 2):
        if raw[i] == 0 and raw[i + 1] == 0:
            raw = raw[:i]
            break
    return raw[: len(raw) // 2 * 2].decode("utf-16-le", errors="replace").strip()


def _cbr_square(v: int) -> int | None:
    """CBR square (row*9+file, row 0 = Black's back rank) to ours, or None if off the board."""
    if v > 89:
        return None
    return square(v % 9, 9 - v // 9)


class _Node(NamedTuple):
    src: int
    dst: int
    has_next: bool
    has_alt: bool
    comment: str
    offset: int


def _read_nodes(data: bytes, start: int, where: str) -> tuple[_Node, list[_Node], int]:
    """Read the root and the pre-order nodes; return them and the end offset."""
    pos = start

    def node() -> _Node:
        nonlocal pos
        offset = pos
        if pos + 4 > len(data):
            raise CblError(f"{where_zh(where)}：在第 {pos} 字节处截断（着法节点需 4 字节）",
                          f"{where}: truncated at byte {pos} (move node needs 4 bytes)")
        flags, _reserved, src, dst = data[pos: pos + 4]
        pos += 4
        comment = ""
        if flags & 4:
            if pos + 4 > len(data):
                raise CblError(f"{where_zh(where)}：在第 {pos} 字节处截断（注释长度）",
                              f"{where}: truncated at byte {pos} (comment length)")
            length = int.from_bytes(data[pos: pos + 4], "little")
            pos += 4
            if length > _MAX_COMMENT or pos + length > len(data):
                raise CblError(f"{where_zh(where)}：截断或损坏：第 {pos} 字节处的 {length} 字节"
                               f"注释超出数据",
                               f"{where}: truncated or corrupt: comment of {length} bytes "
                               f"at byte {pos} exceeds the data")
            comment = data[pos: pos + length].decode("utf-16-le", errors="replace")
            pos += length
        return _Node(src, dst, not flags & 1, bool(flags & 2), comment.strip(), offset)

    root = node()
    nodes: list[_Node] = []
    pending = int(root.has_next)
    while pending:
        n = node()
        pending += n.has_next + n.has_alt - 1
        nodes.append(n)
    return root, nodes, pos


def _setup_game(headers: dict[str, str], grid: dict[int, Piece], first_src: int | None,
                turn_byte: int, has_moves: bool, where: str) -> tuple[Game, Board | None]:
    """Make the game and its board from a grid; the side to move is the colour of
    the first piece moved (or ``turn_byte`` 2 = Black when there is no move)."""
    turn = Color.BLACK if turn_byte == 2 else Color.RED
    if first_src is not None and first_src in grid:
        turn = grid[first_src].color
    fen = placement_fen(grid) + (" w" if turn is Color.RED else " b") + " - - 0 1"
    game = Game(headers)
    try:
        board = Board(fen)
    except XiangqiError as exc:
        if has_moves or grid:
            raise CblError(f"{where_zh(where)}：开局摆放不合规则：{exc.zh}",
                           f"{where}: the set-up position is not valid: {exc.en}") from None
        # A record with an empty board and no moves holds no game, only a
        # title and a comment (a library's section heading); keep it so.
        game.headers["FEN"] = fen
        return game, None
    if board.fen() != Board(STARTING_FEN).fen():
        game.headers["FEN"] = board.fen()
    return game, board


def read_cbr(data: bytes, *, strict: bool = True, where: str = "CBR") -> Game:
    """Read a CBR game (``CCBridge Record``) from its bytes.

    Headers: ``Title``, ``Event``, ``Date``, ``Site``, ``Red``, ``Black``
    when present, ``Result`` always, ``FEN`` when the position is not the
    standard start.  ``where`` names the record in error messages.

    Returns the game with every move checked legal.  A record with an empty
    board and no moves (a section heading in a library) gives a game with no
    moves whose ``FEN`` header is the empty board (``game.board()`` then
    raises :class:`RecordError`).
    Raises :class:`CblError` (a :class:`RecordError`) if the data is not a
    CBR record, is truncated, or holds an illegal move (with
    ``strict=False`` an illegal move drops its variation and is listed in
    ``game.errors``).
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise CblError(f"{where_zh(where)}：数据应为 bytes，不是 {type(data).__name__}",
                       f"{where}: data must be bytes, not {type(data).__name__}")
    data = bytes(data)
    if not data.startswith(CBR_SIGNATURE):
        raise CblError(f"{where_zh(where)}：不是 CBR 记录（签名 {data[:16]!r}）",
                       f"{where}: not a CBR record (signature {data[:16]!r})")
    if len(data) < _CBR_TREE + 4:
        raise CblError(f"{where_zh(where)}：截断：{len(data)} 字节，至少应有 {_CBR_TREE + 4} 字节",
                       f"{where}: truncated: {len(data)} bytes, at least {_CBR_TREE + 4} expected")
    headers: dict[str, str] = {}
    for start, end, tag in _CBR_TEXTS:
        value = _utf16z(data, start, end)
        if value:
            headers[tag] = value
    headers["Result"] = _RESULTS.get(data[_CBR_RESULT], "*")
    grid: dict[int, Piece] = {}
    for i, code in enumerate(data[_CBR_BOARD:_CBR_BOARD + 90]):
        if not code:
            continue
        color, kind = code >> 4, code & 0x0F
        if color not in (1, 2) or kind not in _TYPES:
            raise CblError(f"{where_zh(where)}：棋盘第 {_CBR_BOARD + i} 字节处有未知的棋子代码 {code:#04x}",
                           f"{where}: unknown piece code {code:#04x} at board byte {_CBR_BOARD + i}")
        sq = _cbr_square(i)
        assert sq is not None
        grid[sq] = Piece(_TYPES[kind], Color.RED if color == 1 else Color.BLACK)
    root, nodes, _end = _read_nodes(data, _CBR_TREE, where)
    first = _cbr_square(nodes[0].src) if nodes else None
    game, board = _setup_game(headers, grid, first, data[_CBR_TURN], bool(nodes), where)
    game.comment = root.comment
    if board is not None:
        records = [PreorderMove(_cbr_square(n.src), _cbr_square(n.dst), (n.src, n.dst),
                                n.has_next, n.has_alt, n.comment, n.offset) for n in nodes]
        attach_preorder(game, board, records, strict=strict, prefix=f"{where}: node", error=CblError)
    return game


def iter_cbl(data: bytes, *, strict: bool = True) -> Iterator[Game]:
    """Yield the games of a CBL library (``CCBridgeLibrary``) one by one.

    Every 4096-byte slot after the index that starts a CBR record is read
    with :func:`read_cbr`; the game gets a ``Library`` header with the
    library's title.
    Raises :class:`CblError` if the data is not a CBL library or a game is
    malformed (the message names the game number and byte).
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise CblError(f"CBL 数据应为 bytes，不是 {type(data).__name__}",
                       f"CBL data must be bytes, not {type(data).__name__}")
    data = bytes(data)
    if not data.startswith(CBL_SIGNATURE):
        raise CblError(f"不是 CBL 棋谱库（签名 {data[:16]!r}）",
                       f"not a CBL library (signature {data[:16]!r})")
    if len(data) < _CBL_INDEX:
        raise CblError(f"CBL 截断：{len(data)} 字节，不够文件头和索引",
                       f"CBL truncated: {len(data)} bytes, the header and index need more")
    capacity = int.from_bytes(data[_CBL_CAPACITY:_CBL_CAPACITY + 4], "little")
    if capacity > _MAX_CBL_GAMES:
        raise CblError(f"CBL 文件头：索引容量 {capacity} 不合理",
                       f"CBL header: index capacity {capacity} is not plausible")
    title = _utf16z(data, _CBL_TITLE, _CBL_TITLE + 512)
    start = _CBL_INDEX + capacity * _CBL_ENTRY
    number = 0
    for offset in range(start, len(data), _CBL_SLOT):
        if not data.startswith(CBR_SIGNATURE, offset):
            continue
        number += 1
        game = read_cbr(data[offset:], strict=strict,
                        where=f"CBL game {number} (byte {offset})")
        if title:
            game.headers["Library"] = title
        yield game


def read_cbl(data: bytes, *, strict: bool = True) -> list[Game]:
    """All games of a CBL library, in file order (see :func:`iter_cbl`).

    Returns the list of games.  Raises :class:`CblError` as :func:`iter_cbl`.
    """
    return list(iter_cbl(data, strict=strict))


_CBF_HEAD = (("Name", "Title"), ("Contest", "Event"), ("Round", "Round"), ("Date", "Date"),
             ("Site", "Site"), ("Red", "Red"), ("RedTeam", "RedTeam"), ("Black", "Black"),
             ("BlackTeam", "BlackTeam"), ("Commentator", "Annotator"), ("ECCO", "ECCO"),
             ("TimeRule", "TimeControl"))


def _cbf_square(text: str, where: str) -> int:
    if len(text) != 2 or not text.isdigit() or not text.isascii() or text[0] == "9":
        raise CblError(f"{where_zh(where)}：点 {text!r} 有误（应为路 0-8 和行 0-9 两个数字）",
                       f"{where}: bad square {text!r} (expected file digit 0-8 and row digit 0-9)")
    return square(int(text[0]), 9 - int(text[1]))


def read_cbf(data: bytes | str, *, strict: bool = True) -> Game:
    """Read a CBF game (CCBridge XML, ``<ChineseChessRecord>``).

    Only the main line is read (``<Move>`` elements in order; ``value``
    ``"00-00"`` is the root and holds the opening comment).
    Returns the game with every move checked legal.
    Raises :class:`CblError` if the XML is malformed, the FEN is invalid, a
    move value is malformed, or a move is illegal (the message gives the
    move number); with ``strict=False`` the game stops before the first
    illegal move and the reason is listed in ``game.errors``.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not isinstance(data, bytes | bytearray | memoryview):
        raise CblError(f"CBF 数据应为 bytes 或 str，不是 {type(data).__name__}",
                       f"CBF data must be bytes or str, not {type(data).__name__}")
    try:
        root = ET.fromstring(bytes(data))
    except ET.ParseError as exc:
        raise CblError(f"CBF：XML 格式有误：{exc}", f"CBF: malformed XML: {exc}") from None
    except LookupError as exc:  # <?xml encoding="..."?> that Python has no codec for
        raise CblError(f"CBF：XML 声明的编码无法识别（{str(exc)[:80]}）",
                       f"CBF: the XML declaration names an encoding this reader does not "
                       f"know ({str(exc)[:80]})") from None
    except (ValueError, RecursionError) as exc:
        raise CblError(f"CBF：XML 无法读取：{str(exc)[:200]}",
                       f"CBF: unreadable XML: {str(exc)[:200]}") from None
    if root.tag != "ChineseChessRecord":
        raise CblError(f"CBF：根元素是 <{root.tag}>，应为 <ChineseChessRecord>",
                       f"CBF: root element is <{root.tag}>, expected <ChineseChessRecord>")
    head = root.find("Head")
    headers: dict[str, str] = {}
    fen = STARTING_FEN
    if head is not None:
        for name, tag in _CBF_HEAD:
            value = (head.findtext(name) or "").strip()
            if value:
                headers[tag] = value
        try:
            code = int((head.findtext("RecordResult") or "0").strip() or 0)
        except ValueError:
            code = 0
        headers["Result"] = _RESULTS.get(code, "*")
        fen = (head.findtext("FEN") or "").strip() or STARTING_FEN
    try:
        # A file from 象棋桥 or another program: chess-style fields are read
        # leniently (parse_fen) and the FEN kept is the board's own.
        board = Board(fen, strict=False)
    except XiangqiError as exc:
        raise CblError(f"CBF：<FEN> 有误：{exc.zh}", f"CBF: bad <FEN>: {exc.en}") from None
    game = Game(headers)
    if board.fen() != Board().fen():
        game.headers["FEN"] = board.fen()
    node: GameNode = game
    move_list = root.find("MoveList")
    elements = list(move_list.iter("Move")) if move_list is not None else []
    for i, el in enumerate(elements):
        value = el.get("value", "")
        comment = (el.text or "").strip()
        if i == 0 and value == "00-00":
            game.comment = comment
            continue
        where = f"CBF move {i} ({value!r})"
        parts = value.split("-")
        if len(parts) != 2:
            raise CblError(f"{where_zh(where)}：应为 'FR-FR'（路和行的数字）",
                           f"{where}: expected 'FR-FR' (file and row digits)")
        move = Move(_cbf_square(parts[0], where), _cbf_square(parts[1], where))
        if not board.is_legal(move):
            message = f"{where}: illegal move {move.iccs()} at ply {node.ply() + 1}"
            if strict:
                raise CblError(f"{where_zh(where)}：第 {node.ply() + 1} 步的着法 {move.iccs()} "
                               f"不合规则", message)
            game.errors.append(message + "; rest of the game dropped")
            break
        board.push_unchecked(move)
        node = node.add_variation(move, comment)
    return game

