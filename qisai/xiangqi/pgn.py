"""Game records: the :class:`Game` tree and Xiangqi PGN read/write.

A :class:`Game` is a tree of :class:`GameNode` objects: the root holds the
headers and the set-up position (``[FEN]``), every other node one move, its
comment, and its continuations (``variations[0]`` is the main line, the
others are alternatives).  The XQF and CBL/CBR readers build the same tree.

Readers check every move against the rules as they read, so a tree built by
a reader only holds legal moves.

>>> game = parse_pgn("1. 炮二平五 马８进７ 2. 马二进三 *")[0]
>>> [m.iccs() for m in game.mainline_moves()]
['h2e2', 'h9g7', 'h0g2']
>>> print(dumps(game, "wxf"))
[Result "*"]
[Format "WXF"]
<BLANKLINE>
1. C2.5 H8+7 2. H2+3 *
<BLANKLINE>
"""

from __future__ import annotations

import codecs
import io
import os
import re
import unicodedata
import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import IO, NamedTuple, cast

from qisai.xiangqi import notation as _notation
from qisai.xiangqi.board import Board
from qisai.xiangqi.encoding import detect_encoding
from qisai.xiangqi.errors import RecordError, XiangqiError
from qisai.xiangqi.fen import STARTING_FEN
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.squares import Move

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


class GameNode:
    """One position of a game record: the move that led here and what follows.

    ``move`` is ``None`` only for the root (the :class:`Game`).  ``comment``
    is the text after the move (for the root: the text before the first
    move).  ``variations`` are the moves played from here, main line first.
    """

    __slots__ = ("parent", "move", "comment", "variations")

    def __init__(self, parent: GameNode | None = None, move: Move | None = None,
                 comment: str = "") -> None:
        self.parent = parent
        self.move = move
        self.comment = comment
        self.variations: list[GameNode] = []

    # ------------------------------------------------------------- structure
    def game(self) -> Game:
        """The :class:`Game` at the root of this tree.

        Raises :class:`RecordError` if the node is not attached to a game.
        """
        node: GameNode = self
        while node.parent is not None:
            node = node.parent
        if not isinstance(node, Game):
            raise RecordError("该节点不属于任何对局（Game）", "node is not part of a Game")
        return node

    def ply(self) -> int:
        """Number of moves from the root to this node (0 for the root)."""
        n = 0
        node = self
        while node.parent is not None:
            n += 1
            node = node.parent
        return n

    def moves(self) -> list[Move]:
        """The moves from the root to this node, oldest first."""
        out: list[Move] = []
        node: GameNode | None = self
        while node is not None and node.move is not None:
            out.append(node.move)
            node = node.parent
        out.reverse()
        return out

    def board(self) -> Board:
        """A new board at this node's position (moves replayed from the set-up).

        Raises :class:`RecordError` if the set-up FEN or a move on the way is
        not valid (only possible for trees built by hand).
        """
        game = self.game()
        try:
            b = Board(game.fen, strict=False)
        except XiangqiError as exc:
            raise RecordError(f"开局摆放有误：{exc.zh}", f"bad set-up position: {exc.en}") from None
        for ply, move in enumerate(self.moves(), 1):
            if not b.is_legal(move):
                raise RecordError(f"第 {ply} 步：不合规则的着法 {move.iccs()}",
                                  f"ply {ply}: illegal move {move.iccs()}")
            b.push_unchecked(move)
        return b

    def add_variation(self, move: Move, comment: str = "") -> GameNode:
        """Append a continuation ``move`` from this node and return its node.

        The move is not checked here (readers check moves as they read).
        """
        node = GameNode(self, move, comment)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, comment: str = "") -> GameNode:
        """Insert ``move`` as the main continuation and return its node."""
        node = GameNode(self, move, comment)
        self.variations.insert(0, node)
        return node

    def next(self) -> GameNode | None:
        """The main-line continuation, or ``None`` at the end of a line."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_mainline(self) -> bool:
        """Whether every step from the root to here is a main continuation."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main line after this one."""
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line after this node."""
        return [n.move for n in self.mainline() if n.move is not None]

    def walk(self) -> Iterator[GameNode]:
        """Every node below this one, depth first, main line first."""
        stack = list(reversed(self.variations))
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.variations))

    def count_nodes(self) -> int:
        """Number of moves in the tree below this node (all variations)."""
        return sum(1 for _ in self.walk())

    def __repr__(self) -> str:
        m = self.move.iccs() if self.move is not None else "root"
        return f"<GameNode {m} ply={self.ply()} variations={len(self.variations)}>"


class Game(GameNode):
    """A game record: headers, set-up position and the move tree.

    ``headers`` keeps PGN tag names (``Event``, ``Red``, ``Black``,
    ``Result``, ``FEN``, ...) in insertion order.  ``errors`` lists what a
    lenient reader (``strict=False``) had to drop; it is empty otherwise.
    ``warnings`` lists what a reader read leniently but kept (a tag with
    unescaped quotes), each naming the game and the line.
    """

    __slots__ = ("headers", "errors", "warnings")

    def __init__(self, headers: dict[str, str] | None = None) -> None:
        super().__init__(None, None, "")
        self.headers: dict[str, str] = dict(headers) if headers else {}
        # Problems a lenient reader skipped over (empty for a clean read).
        self.errors: list[str] = []
        # Text read leniently and kept (empty for a clean read).
        self.warnings: list[str] = []

    @classmethod
    def from_board(cls, board: Board, headers: dict[str, str] | None = None) -> Game:
        """A game holding ``board``'s history: its root position and moves played.

        A ``FEN`` header is added when the root is not the standard start.
        Returns the new game (a main line only).
        """
        game = cls(headers)
        root = board.root()
        if root.fen() != Board().fen():
            game.headers["FEN"] = root.fen()
        node: GameNode = game
        for move in board.move_stack:
            node = node.add_variation(move)
        return game

    @property
    def fen(self) -> str:
        """The set-up FEN (``[FEN]`` header) or the standard start."""
        return self.headers.get("FEN") or STARTING_FEN

    @property
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unknown) from the headers."""
        r = self.headers.get("Result", "*")
        return r if r in RESULTS else "*"

    def __repr__(self) -> str:
        red = self.headers.get("Red", "?")
        black = self.headers.get("Black", "?")
        return f"<Game {red} vs {black} {self.result} plies={len(self.mainline_moves())}>"


# ====================================================================== PGN
#
# Xiangqi PGN as the common programs write it (象棋巫师, XQStudio exports,
# 东萍): tag pairs, then move text with move numbers, ``{comments}``,
# ``; comments``, ``(variations)``, ``$n`` annotations and a result.  The
# ``[Format]`` tag says how moves are written: ``ICCS`` (``H2-E2``), ``WXF``
# (``C2.5``) or Chinese (the default; ``炮二平五 马８进７``).  Files are UTF-8
# GBK/GB18030 or Big5; a byte stream's encoding is decided once for the
# whole stream (qisai.xiangqi.encoding), never line by line.
# Text after a game's result up to the next tag line (banners such as
# ``=====`` or a web address) is skipped.

_RESULT_TOKENS = frozenset(RESULTS)
_FORMATS = {"iccs": "iccs", "wxf": "wxf", "chinese": "chinese", "engine": "engine"}
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
# What other readers accept: a value with unescaped quotes runs to the first
# '"]' that the next tag or the end of the line follows.
_LENIENT_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"(.*?)"\s*\](?=\s*(?:\[|$))')
_MOVE_NUMBER = re.compile(r"\d+\.+(?=\D|$)")
_TOKEN_BREAK = frozenset(" \t\r\n{}();")
_FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


class PgnError(RecordError):
    """A PGN game is malformed; the message gives the line and the ply."""


class _Source:
    """Lines of a text or byte stream with a one-line push-back, a line count
    and a game count; a byte stream is decoded in one encoding, given or
    detected over the whole stream."""

    def __init__(self, stream: IO[str] | IO[bytes], encoding: str | None = None) -> None:
        self.stream: IO[str] | IO[bytes] = stream
        self.pushed: str | None = None
        self.line_no = 0
        self.games = 0
        self.encoding = encoding
        self._decided = False

    def _decide(self) -> None:
        """Choose the encoding of a byte stream from all of its (remaining) bytes."""
        self._decided = True
        stream = self.stream
        try:
            start = stream.tell() if stream.seekable() else None
        except (OSError, ValueError, AttributeError):
            start = None
        data = stream.read()
        if isinstance(data, str):  # a text stream
            if start is None:
                self.stream = io.StringIO(data)
            else:
                stream.seek(start)
            return
        if self.encoding is None:
            self.encoding = detect_encoding(data)
        codecs.lookup(self.encoding)  # LookupError for an unknown name, before any game
        if self.encoding.lower().replace("-", "").replace("_", "").startswith("utf16"):
            # Newlines are two bytes: decode it all at once.
            self.stream = io.StringIO(data.decode(self.encoding, "replace"))
        elif start is None:
            self.stream = io.BytesIO(data)
        else:
            stream.seek(start)

    def readline(self) -> str | None:
        if self.pushed is not None:
            line, self.pushed = self.pushed, None
            self.line_no += 1
            return line
        if not self._decided:
            self._decide()
        raw = self.stream.readline()
        if not raw:
            return None
        self.line_no += 1
        # UTF-8, GB18030 and Big5 never use byte 0x0A inside a character,
        # so a byte line decodes on its own in the stream's encoding.
        line = raw.decode(self.encoding or "utf-8", "replace") if isinstance(raw, bytes) else raw
        if self.line_no == 1:
            line = line.lstrip("\ufeff")
        return line

    def push_back(self, line: str) -> None:
        self.pushed = line
        self.line_no -= 1


_SOURCES: weakref.WeakKeyDictionary[object, _Source] = weakref.WeakKeyDictionary()


def _source(stream: IO[str] | IO[bytes], encoding: str | None = None) -> _Source:
    try:
        src = _SOURCES.get(stream)
        if src is None:
            src = _SOURCES[stream] = _Source(stream, encoding)
        return src
    except TypeError:  # a stream that takes no weak references: no push-back across games
        return _Source(stream, encoding)


class _Token(NamedTuple):
    kind: str  # "move", "comment", "open", "close", "result", "nag"
    text: str
    line: int


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def read_game(stream: IO[str] | IO[bytes], encoding: str | None = None) -> Game | None:
    """Read the next game from a PGN text or byte stream.

    Reads only as far as the end of that game (streaming: call again for the
    next one).  Moves are read in the ``[Format]`` notation (Chinese, ICCS,
    WXF) or detected move by move, and checked legal from the ``[FEN]``
    set-up.  A byte stream is decoded in ``encoding``, or the one detected
    over the whole stream at the first call (UTF-8, GB18030 or Big5: see
    :mod:`qisai.xiangqi.encoding`).  A tag whose value holds unescaped
    quotes is read as other readers read it, with a note in
    :attr:`Game.warnings` naming the game and the line.

    Returns the :class:`Game`, or ``None`` at the end of the stream.
    Raises :class:`PgnError` (a :class:`RecordError`) with the line and ply
    for a tag line that is no tag, an invalid FEN, an unknown or illegal
    move, an unbalanced variation or an unclosed comment, and
    :class:`LookupError` for an ``encoding`` Python does not know.
    """
    src = _source(stream, encoding)
    # Skip blank lines before the game.
    while True:
        line = src.readline()
        if line is None:
            return None
        if line.strip():
            break
    src.games += 1
    headers: dict[str, str] = {}
    warnings: list[str] = []
    while line is not None and line.lstrip().startswith("["):
        text = line.strip()
        pos = 0
        while pos < len(text):
            m = _TAG.match(text, pos)
            if m is None:
                if text[pos:].strip().startswith(("%", ";")):
                    break
                m = _LENIENT_TAG.match(text, pos)
                if m is None:
                    raise PgnError(f"第 {src.games} 局第 {src.line_no} 行：标签格式有误 "
                                   f"{text[pos:][:60]!r}（应为 [Name \"value\"]）",
                                   f"game {src.games}, line {src.line_no}: malformed tag pair "
                                   f"{text[pos:][:60]!r} (expected [Name \"value\"])")
                warnings.append(f"game {src.games}, line {src.line_no}: tag {m.group(1)} has "
                                f"unescaped quotes; read as {m.group(2)!r}")
            headers[m.group(1)] = _unescape(m.group(2))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        line = src.readline()
        while line is not None and not line.strip():
            line = src.readline()
    tokens = _lex(src, line)
    game = _build_game(headers, tokens)
    game.warnings.extend(warnings)
    return game


def _lex(src: _Source, first: str | None) -> list[_Token]:
    """Tokens of one game's move text, starting at line ``first``; consumes the
    trailer after the result and pushes back the next game's first tag line."""
    tokens: list[_Token] = []
    line = first
    comment: list[str] | None = None
    comment_line = 0
    depth = 0
    while line is not None:
        if comment is None and depth == 0 and line.lstrip().startswith("[") and tokens:
            src.push_back(line)
            return tokens
        i, n = 0, len(line)
        while i < n:
            ch = line[i]
            if comment is not None:
                end = line.find("}", i)
                if end < 0:
                    comment.append(line[i:])
                    break
                comment.append(line[i:end])
                tokens.append(_Token("comment", "".join(comment).strip(), comment_line))
                comment = None
                i = end + 1
                continue
            if ch.isspace():
                i += 1
            elif ch == "{":
                comment, comment_line = [], src.line_no
                i += 1
            elif ch == ";":
                tokens.append(_Token("comment", line[i + 1:].strip(), src.line_no))
                break
            elif ch == "(":
                depth += 1
                tokens.append(_Token("open", ch, src.line_no))
                i += 1
            elif ch == "}":
                raise PgnError(f"第 {src.line_no} 行：'}}' 前没有开始的注释",
                               f"line {src.line_no}: '}}' closes no comment")
            elif ch == ")":
                depth -= 1
                if depth < 0:
                    raise PgnError(f"第 {src.line_no} 行：')' 前没有开始的变着",
                                   f"line {src.line_no}: ')' closes no variation")
                tokens.append(_Token("close", ch, src.line_no))
                i += 1
            else:
                j = i
                while j < n and line[j] not in _TOKEN_BREAK and not line[j].isspace():
                    j += 1
                # Full-width digits and signs (１．, １－０) read as ASCII.
                word = unicodedata.normalize("NFKC", line[i:j])
                i = j
                if word in _RESULT_TOKENS:
                    if depth == 0:
                        tokens.append(_Token("result", word, src.line_no))
                        _skip_trailer(src)
                        return tokens
                    continue  # a result inside a variation ends only that line
                if word.startswith("$") and word[1:].isdigit():
                    tokens.append(_Token("nag", word, src.line_no))
                    continue
                m = _MOVE_NUMBER.match(word)
                if m:
                    word = word[m.end():]
                if word:
                    tokens.append(_Token("move", word, src.line_no))
        line = src.readline()
    if comment is not None:
        raise PgnError(f"第 {comment_line} 行：注释 '{{' 没有结束",
                       f"line {comment_line}: comment '{{' is never closed")
    if depth:
        raise PgnError(f"第 {src.line_no} 行：对局结束时还有 {depth} 个变着没有结束",
                       f"line {src.line_no}: {depth} variation(s) not closed at the end of the game")
    return tokens


def _skip_trailer(src: _Source) -> None:
    """Skip text after a result up to the next tag line (which is pushed back)."""
    while True:
        line = src.readline()
        if line is None:
            return
        if line.lstrip().startswith("["):
            src.push_back(line)
            return


def _build_game(headers: dict[str, str], tokens: list[_Token]) -> Game:
    game = Game(headers)
    fmt = headers.get("Format", "").strip().lower()
    notation = _FORMATS.get(fmt)
    try:
        board = Board(game.fen, strict=False)
    except XiangqiError as exc:
        raise PgnError(f"[FEN] 标签：{exc.zh}", f"[FEN] tag: {exc.en}") from None
    node: GameNode = game
    stack: list[GameNode] = []
    result: str | None = None
    for tok in tokens:
        if tok.kind == "move":
            try:
                move = _notation.parse(board, tok.text, notation)
            except XiangqiError as exc:
                raise PgnError(f"第 {tok.line} 行第 {node.ply() + 1} 步："
                               f"无法读出着法 {tok.text!r}：{exc.zh}",
                               f"line {tok.line}, ply {node.ply() + 1}: "
                               f"cannot read move {tok.text!r}: {exc.en}") from None
            node = node.add_variation(move)
            board.push_unchecked(move)
        elif tok.kind == "comment":
            node.comment = f"{node.comment} {tok.text}".strip() if node.comment else tok.text
        elif tok.kind == "open":
            if node.parent is None:
                raise PgnError(f"第 {tok.line} 行：变着须在着法之后",
                               f"line {tok.line}: a variation must follow a move")
            stack.append(node)
            node = node.parent
            board.pop()
        elif tok.kind == "close":
            node = stack.pop()
            board = node.board()
        elif tok.kind == "result":
            result = tok.text
    if result is not None and "Result" not in game.headers:
        game.headers["Result"] = result
    return game


def iter_games(stream: IO[str] | IO[bytes], encoding: str | None = None, *,
               on_error: Callable[[PgnError], None] | None = None) -> Iterator[Game]:
    """Yield the games of a PGN stream one at a time (see :func:`read_game`).

    Raises :class:`PgnError` at the first malformed game, unless
    ``on_error`` is given: then the error (its text names the game) goes to
    ``on_error`` and reading goes on at the next tag line.
    """
    while True:
        try:
            game = read_game(stream, encoding)
        except PgnError as exc:
            if on_error is None:
                raise
            src = _source(stream, encoding)
            if not exc.en.startswith("game "):
                exc = PgnError(f"第 {src.games} 局，{exc.zh}", f"game {src.games}, {exc.en}")
            on_error(exc)
            _skip_trailer(src)
            continue
        if game is None:
            return
        yield game


def read_games(path: str | os.PathLike[str], encoding: str | None = None) -> Iterator[Game]:
    """Yield the games of the PGN file at ``path`` (UTF-8, GBK or Big5, or
    ``encoding``), one at a time.

    This is the only function of the rules package that opens a file: a
    convenience at the edge; the file is read lazily and closed when the
    iterator finishes or is closed.
    Raises :class:`OSError` if the file cannot be opened and :class:`PgnError`
    for a malformed game.
    """
    with open(path, "rb") as f:
        yield from iter_games(f, encoding)


def parse_pgn(text: str | bytes, encoding: str | None = None) -> list[Game]:
    """All games of a PGN text (``str``, or bytes in UTF-8, GBK or Big5, or
    ``encoding``).

    Returns the games.  Raises :class:`PgnError` for a malformed game.
    """
    stream: IO[str] | IO[bytes] = io.BytesIO(text) if isinstance(text, bytes) \
        else io.StringIO(text)
    return list(iter_games(stream, encoding))


# ------------------------------------------------------------------ writing

def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\r", " ")


def _comment(text: str) -> str:
    # PGN comments cannot hold '}' (there is no escape); a full-width brace stands in.
    return "{" + text.replace("}", "｝") + "}"


def dumps(game: Game, notation: str = "chinese", *, fullwidth: bool = False) -> str:
    """The game as PGN text: tags, then move text with comments and variations.

    ``notation`` is ``"chinese"`` (no ``[Format]`` tag), ``"wxf"`` or
    ``"iccs"`` (``[Format "WXF"]`` / ``[Format "ICCS"]``).  ``fullwidth``
    writes Black's digits full-width (``马８进７``) as GBK programs expect.
    ``Result`` defaults to ``*``; a ``FEN`` tag is written for set-ups.

    Returns the text, ending in a newline.
    Raises :class:`PgnError` if a move of the tree is illegal (trees built by
    hand) or alternatives are nested deeper than Python's recursion limit, and :class:`~qisai.xiangqi.notation.NotationError` for an unknown
    notation.
    """
    if notation not in ("chinese", "wxf", "iccs"):
        raise _notation.NotationError(f"PGN 着法只能用 chinese、wxf 或 iccs 记谱，不是 {notation!r}",
                                      f"PGN move text is chinese, wxf or iccs, not {notation!r}")
    headers = dict(game.headers)
    headers.pop("Format", None)
    if notation != "chinese":
        headers["Format"] = notation.upper()
    headers.setdefault("Result", "*")
    lines = [f'[{k} "{_escape(v)}"]' for k, v in headers.items()]
    try:
        board = Board(game.fen, strict=False)
    except XiangqiError as exc:
        raise PgnError(f"开局摆放有误，无法写出对局：{exc.zh}",
                       f"cannot write a game with a bad set-up: {exc.en}") from None
    words: list[str] = []
    if game.comment:
        words.append(_comment(game.comment))
    try:
        _write_line(game, board, notation, fullwidth, words)
    except RecursionError:
        raise PgnError("变着嵌套过深，无法写出", "variations are nested too deeply to write") from None
    words.append(game.result)
    out: list[str] = []
    current = ""
    for w in words:
        if current and len(current) + 1 + len(w) > 79:
            out.append(current)
            current = w
        else:
            current = f"{current} {w}" if current else w
    out.append(current)
    return "\n".join(lines) + "\n\n" + "\n".join(out) + "\n"


def _move_text(board: Board, move: Move, notation: str, fullwidth: bool, ply: int) -> str:
    try:
        text = _notation.format(board, move, notation)
    except XiangqiError as exc:
        raise PgnError(f"第 {ply} 步：无法写出着法 {move.iccs()}：{exc.zh}",
                       f"ply {ply}: cannot write move {move.iccs()}: {exc.en}") from None
    if notation == "iccs":
        text = f"{text[:2]}-{text[2:]}".upper()
    elif fullwidth and notation == "chinese" and board.turn is Color.BLACK:
        text = text.translate(_FULLWIDTH)
    return text


def _write_line(node: GameNode, board: Board, notation: str, fullwidth: bool,
                words: list[str]) -> None:
    """Write the continuation of ``node`` (main line, with its alternatives in brackets)."""
    # Iterative over the main line; alternatives recurse (their depth is the
    # nesting of brackets, not the game length).
    pushed = 0
    force_number = True
    while node.variations:
        main = node.variations[0]
        assert main.move is not None
        ply = len(board.move_stack) + 1
        number = (board.fullmove_number if board.fullmove_number else 1)
        red = board.turn is Color.RED
        if red:
            words.append(f"{number}.")
        elif force_number:
            words.append(f"{number}...")
        words.append(_move_text(board, main.move, notation, fullwidth, ply))
        if main.comment:
            words.append(_comment(main.comment))
        for alt in node.variations[1:]:
            assert alt.move is not None
            words.append("(")
            words.append(f"{number}." if red else f"{number}...")
            words.append(_move_text(board, alt.move, notation, fullwidth, ply))
            if alt.comment:
                words.append(_comment(alt.comment))
            board.push_unchecked(alt.move)
            _write_line(alt, board, notation, fullwidth, words)
            board.pop()
            words.append(")")
        force_number = len(node.variations) > 1 or bool(main.comment)
        if not board.is_legal(main.move):
            raise PgnError(f"第 {ply} 步：着法树中有不合规则的着法 {main.move.iccs()}",
                           f"ply {ply}: illegal move {main.move.iccs()} in the tree")
        board.push_unchecked(main.move)
        pushed += 1
        node = main
    for _ in range(pushed):
        board.pop()


def write(games: Game | Iterable[Game], stream: IO[str] | IO[bytes], notation: str = "chinese",
          *, encoding: str = "utf-8", fullwidth: bool | None = None) -> None:
    """Write one game or several to a text or byte stream as PGN.

    Games are separated by a blank line.  On a byte stream the text is
    encoded with ``encoding`` (UTF-8 by default; ``"gbk"`` for older
    programs, which then also get full-width digits unless ``fullwidth`` says
    otherwise).
    Raises what :func:`dumps` raises, and :class:`UnicodeEncodeError` if a
    text cannot be encoded in ``encoding``.
    """
    items = [games] if isinstance(games, Game) else games
    if fullwidth is None:
        fullwidth = encoding.lower().replace("-", "") in ("gbk", "gb2312", "gb18030", "cp936")
    binary = isinstance(stream, io.RawIOBase | io.BufferedIOBase) or \
        "b" in str(getattr(stream, "mode", ""))
    first = True
    for game in items:
        text = ("" if first else "\n") + dumps(game, notation, fullwidth=fullwidth)
        first = False
        if binary:
            cast("IO[bytes]", stream).write(text.encode(encoding))
        else:
            cast("IO[str]", stream).write(text)
