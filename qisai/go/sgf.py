"""SGF FF[4] for Go: read and write games, replay them on a :class:`Board`.

The grammar (tokens, escapes, the game tree) is sgfmill's ``sgf_grammar``;
what the properties mean for a game of Go, and every error message, is ours.

Supported: moves ``B``/``W`` (passes as ``[]`` and, up to 19x19, ``[tt]``),
set-up ``AB``/``AW``/``AE`` (also compressed ``[aa:cc]`` lists), ``PL``,
``SZ``, ``HA``, ``KM`` (read by its scale and the file's ``RU``: see
:func:`parse_komi`; ``KM[375]`` is 3¾ stones = 7.5 points, ``KM[650]`` with
``RU[Japanese]`` 6.5 points), ``RU``, ``RE``, ``PB``,
``PW``, comments ``C``, variations, and any other property kept as text.
``CA`` gives the encoding; without it the whole file is UTF-8 if all of it
is valid UTF-8, else GB18030 (Chinese files) if all of it is valid GB18030,
else ISO-8859-1 (the FF[4] default): decided once, never value by value.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field
from fractions import Fraction

from sgfmill import sgf_grammar

from qisai.bilingual import en_of, zh_of
from qisai.go.board import Board
from qisai.go.coords import Point, check_size, parse_sgf_point, sgf_name
from qisai.go.errors import CoordinateError, IllegalMoveError, SetupError, SgfError
from qisai.go.rules import CHINESE, Color, Rules

_ROOT_ORDER = ("FF", "GM", "CA", "AP", "SZ", "RU", "KM", "HA", "PB", "PW", "BR", "WR",
               "EV", "RO", "DT", "PC", "RE")


@dataclass(eq=False)
class SgfNode:
    """One node: its properties (identifier -> list of text values) and children.

    Values are unescaped and decoded text, exactly as the property holds them
    (``B[dp]`` is ``{"B": ["dp"]}``).
    """

    properties: dict[str, list[str]] = field(default_factory=dict)
    children: list[SgfNode] = field(default_factory=list)

    def __eq__(self, other: object) -> bool:
        """Return True if both trees have the same properties and shape (iterative)."""
        if not isinstance(other, SgfNode):
            return NotImplemented
        stack: list[tuple[SgfNode, SgfNode]] = [(self, other)]
        while stack:
            a, b = stack.pop()
            if a.properties != b.properties or len(a.children) != len(b.children):
                return False
            stack.extend(zip(a.children, b.children, strict=True))
        return True

    __hash__ = None  # type: ignore[assignment]

    def get(self, prop: str) -> str | None:
        """Return the first value of ``prop``, or None if the node lacks it."""
        values = self.properties.get(prop)
        return values[0] if values else None

    @property
    def comment(self) -> str | None:
        """Return the comment (``C``), or None."""
        return self.get("C")

    def move(self, size: int, node: int | None = None) -> tuple[Color, Point | None] | None:
        """Return ``(colour, point)`` of the node's move (point None = pass), or None.

        ``node`` is only used in error messages.  Raises :class:`SgfError`
        if the node has both B and W, or a value that is not a point.
        """
        has_b = "B" in self.properties
        has_w = "W" in self.properties
        if not has_b and not has_w:
            return None
        if has_b and has_w:
            raise SgfError("同一节点既有 B 又有 W 着法", "a node has both B and W moves", "B", node)
        prop = "B" if has_b else "W"
        values = self.properties[prop]
        if len(values) != 1:
            raise SgfError(f"{prop} 须有且只有一个值", f"{prop} needs exactly one value", prop, node)
        try:
            point = parse_sgf_point(values[0], size)
        except CoordinateError as err:
            raise SgfError(err.zh, err.en, prop, node) from None
        return Color.from_letter(prop), point

    def setup_points(self, prop: str, size: int, node: int | None = None) -> list[Point]:
        """Return the points of a set-up list (``AB``, ``AW``, ``AE``), expanded.

        Raises :class:`SgfError` for a value that is not a point or a
        rectangle ``aa:cc``.
        """
        points: list[Point] = []
        for value in self.properties.get(prop, []):
            try:
                if ":" in value:
                    first, _, second = value.partition(":")
                    a = parse_sgf_point(first, size)
                    b = parse_sgf_point(second, size)
                    if a is None or b is None:
                        raise CoordinateError(f"{value!r} 不是矩形",
                                              f"{value!r} is not a rectangle")
                    for row in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
                        for col in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
                            points.append((row, col))
                else:
                    p = parse_sgf_point(value, size)
                    if p is None:
                        raise CoordinateError(f"{value!r} 不是点", f"{value!r} is not a point")
                    points.append(p)
            except CoordinateError as err:
                raise SgfError(err.zh, err.en, prop, node) from None
        return points


@dataclass
class SgfGame:
    """A Go game tree read from or written to SGF.

    ``root`` is the first node; the main line follows the first child of
    every node.
    """

    root: SgfNode

    # ------------------------------------------------------ root properties

    @property
    def size(self) -> int:
        """Return the board size (``SZ``, default 19).

        Raises :class:`SgfError` if ``SZ`` is not a square size in 2..25.
        """
        value = self.root.get("SZ")
        if value is None:
            return 19
        text = value.split(":")
        try:
            sizes = [int(t) for t in text]
            if len(sizes) == 2 and sizes[0] != sizes[1]:
                raise SgfError(f"不支持长方形棋盘：{value!r}",
                               f"rectangular boards are not supported: {value!r}", "SZ", 0)
            return check_size(sizes[0])
        except SgfError:
            raise
        except ValueError as err:
            raise SgfError(f"棋盘大小 {value!r} 有误：{zh_of(err)}",
                           f"bad board size {value!r}: {en_of(err)}", "SZ", 0) from None

    @property
    def komi(self) -> Fraction | None:
        """Return the komi in points (目), or None if there is no ``KM``.

        The value is read by its scale and the file's ``RU``
        (:func:`parse_komi`).  Raises :class:`SgfError` for a value that is
        not a number.
        """
        value = self.root.get("KM")
        if value is None or value.strip() == "":
            return None
        return parse_komi(value, self.rules)

    @property
    def handicap(self) -> int:
        """Return the number of handicap stones (``HA``, default 0).

        A malformed ``HA`` (not a whole number in 0..size², e.g. ``HA[7.5]``)
        is read leniently: the handicap is the number of Black set-up stones
        placed before the first move when only Black stones are set up there,
        otherwise 0; :attr:`warnings` says so.  Raises :class:`SgfError` only
        for a malformed ``SZ`` or set-up point on the way.
        """
        value = self.root.get("HA")
        if value is None or value.strip() == "":
            return 0
        h = _whole(value)
        if h is None or not 0 <= h <= self.size * self.size:
            return self._setup_handicap()
        return h

    def _setup_handicap(self) -> int:
        """Black stones set up before the first move, if only Black ones are."""
        size = self.size
        black: list[Point] = []
        for index, node in enumerate(self.main_line()):
            if node.move(size, index) is not None:
                break
            if node.properties.get("AW") or node.properties.get("AE"):
                return 0
            black.extend(node.setup_points("AB", size, index))
        return len(black)

    @property
    def warnings(self) -> list[str]:
        """What was read leniently: a malformed ``HA`` and the value used."""
        value = self.root.get("HA")
        if value is None or value.strip() == "":
            return []
        h = _whole(value)
        if h is not None and 0 <= h <= self.size * self.size:
            return []
        return [f"HA[{value}] is not a number of stones (0..{self.size * self.size}); "
                f"handicap read from the set-up: {self._setup_handicap()} stone(s)"]

    @property
    def rules(self) -> str | None:
        """Return the ``RU`` text (e.g. ``"Chinese"``), or None."""
        return self.root.get("RU")

    @property
    def result(self) -> str | None:
        """Return the ``RE`` text (e.g. ``"W+0.5"``), or None."""
        return self.root.get("RE")

    # ------------------------------------------------------ main line

    def main_line(self) -> list[SgfNode]:
        """Return the nodes of the main line, root first."""
        nodes = [self.root]
        while nodes[-1].children:
            nodes.append(nodes[-1].children[0])
        return nodes

    def moves(self) -> list[tuple[Color, Point | None]]:
        """Return the moves of the main line in order (point None = pass).

        Raises :class:`SgfError` for a malformed move.
        """
        size = self.size
        result = []
        for number, node in enumerate(self.main_line()):
            move = node.move(size, number)
            if move is not None:
                result.append(move)
        return result

    # ------------------------------------------------------ writing

    def to_sgf(self) -> str:
        """Return the game as SGF text; sets ``CA[UTF-8]`` in the root to match."""
        self.root.properties["CA"] = ["UTF-8"]
        parts: list[str] = []
        _write_tree(self.root, parts, is_root=True)
        return "".join(parts) + "\n"


_TERRITORY_RULES = ("jap", "kor", "nihon", "jp", "kr")


def _whole(text: str) -> int | None:
    """``text`` as a whole number, or None."""
    try:
        return int(text.strip())
    except ValueError:
        return None


def parse_komi(value: str, rules: str | None = None) -> Fraction:
    """Return the komi in points (目) of a ``KM`` value written under the
    SGF ``RU`` text ``rules`` (None: not given).

    Decided by the value's scale and the rules, as other SGF readers do:

    * An integer of 50 or more written without a decimal point is a
      server's hundredths (no komi in points is that large): ``375`` is
      3.75, ``650`` is 6.5.
    * Under area rules (Chinese, or ``RU`` not given) a value in quarters
      (x.25, x.75) is in stones (子), one stone two points (胜负判别 一子两目):
      ``3.75`` and ``375`` are 3¾ stones = 7.5 points.  Points komi are
      whole or half (7.5, 6.5, 0.5), so those are points under any rules.
    * Under territory rules (Japanese, Korean) the value is points.

    Raises :class:`SgfError` if the value is not a number.
    """
    text = value.strip()
    try:
        komi = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise SgfError(f"贴目 {value!r} 不是数", f"komi {value!r} is not a number", "KM", 0) from None
    if komi.denominator == 1 and abs(komi) >= 50 and "." not in text:
        komi = komi / 100  # a server's hundredths (野狐: KM[375], KM[650])
    territory = rules is not None and rules.strip().lower().startswith(_TERRITORY_RULES)
    if not territory and komi.denominator == 4:
        komi = komi * 2  # stones (子): 贴3又3/4子 = 7.5 目
    return komi


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _write_node(node: SgfNode, parts: list[str], is_root: bool) -> None:
    parts.append(";")
    keys = list(node.properties)
    if is_root:
        keys.sort(key=lambda k: (_ROOT_ORDER.index(k) if k in _ROOT_ORDER else len(_ROOT_ORDER)))
    for key in keys:
        values = node.properties[key]
        if not values:
            continue
        parts.append(key)
        parts.extend(f"[{_escape(v)}]" for v in values)


def _write_tree(root: SgfNode, parts: list[str], is_root: bool = False) -> None:
    """Append the tree under ``root`` to ``parts`` (iterative: deep trees are fine)."""
    # Work items: a node starting a new "(" sequence, or a closing ")".
    stack: list[SgfNode | None] = [root]
    first = True
    while stack:
        item = stack.pop()
        if item is None:
            parts.append(")")
            continue
        if not first:
            parts.append("\n")
        parts.append("(")
        node = item
        _write_node(node, parts, first and is_root)
        first = False
        while len(node.children) == 1:
            node = node.children[0]
            parts.append("\n")
            _write_node(node, parts, False)
        stack.append(None)
        stack.extend(reversed(node.children))


# ---------------------------------------------------------------- reading


def _decoder(raw_ca: bytes | None) -> str | None:
    if raw_ca is None:
        return None
    name = raw_ca.decode("ascii", "replace").strip()
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise SgfError(f"未知的编码 {name!r}", f"unknown encoding {name!r}", "CA", 0) from None


def _whole_file_encoding(raw: bytes) -> str:
    """The encoding of a file without ``CA``, decided once for all its bytes
    (a GBK name can be valid UTF-8 on its own, 谢小然 = "лСȻ"): UTF-8 if
    all of it is valid UTF-8, else GB18030 if all of it is valid GB18030,
    else ISO-8859-1 (the FF[4] default)."""
    for candidate in ("utf-8", "gb18030"):
        try:
            raw.decode(candidate)
        except UnicodeDecodeError:
            continue
        return candidate
    return "iso-8859-1"


def _decode(raw: bytes, encoding: str | None) -> str:
    if encoding is not None:
        return raw.decode(encoding, "replace")
    for candidate in ("utf-8", "gb18030"):
        try:
            return raw.decode(candidate)
        except UnicodeDecodeError:
            continue
    return raw.decode("iso-8859-1")


def _convert(coarse: sgf_grammar.Coarse_game_tree, encoding: str | None) -> SgfNode:
    """Turn sgfmill's coarse tree into SgfNodes (iteratively: deep games)."""
    root: SgfNode | None = None
    stack: list[tuple[sgf_grammar.Coarse_game_tree, SgfNode | None]] = [(coarse, None)]
    while stack:
        tree, parent = stack.pop()
        last = parent
        for props in tree.sequence:
            node = SgfNode(
                {
                    ident: [_text(v, encoding) for v in values]
                    for ident, values in props.items()
                }
            )
            if last is None:
                root = node
            else:
                last.children.append(node)
            last = node
        for child in reversed(tree.children):
            stack.append((child, last))
    # Children are pushed in reverse, so they are popped (and appended to
    # their parent) in the file's order.
    assert root is not None
    return root


def _text(raw: bytes, encoding: str | None) -> str:
    # Unescape as SGF Text: "\]" -> "]", "\\" -> "\", escaped newlines removed.
    out = bytearray()
    i = 0
    n = len(raw)
    while i < n:
        b = raw[i]
        if b == 0x5C and i + 1 < n:  # backslash
            nxt = raw[i + 1]
            if nxt in (0x0A, 0x0D):
                i += 2
                if i < n and raw[i] in (0x0A, 0x0D) and raw[i] != nxt:
                    i += 1
                continue
            out.append(nxt)
            i += 2
            continue
        out.append(b)
        i += 1
    return _decode(bytes(out), encoding)


def read_sgf(data: bytes | str) -> SgfGame:
    """Return the first game of SGF ``data`` (bytes, or text to be UTF-8 encoded).

    Raises :class:`SgfError` if the data is not SGF, is not a game of Go
    (``GM`` other than 1), or names an unknown encoding.
    """
    try:
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    except UnicodeEncodeError as err:
        raise SgfError(f"文本无法编码为 UTF-8：{err.reason}",
                       f"text cannot be encoded as UTF-8: {err.reason}") from None
    try:
        coarse = sgf_grammar.parse_sgf_game(raw)
    except ValueError as err:
        raise SgfError(f"不是有效的 SGF 棋谱树：{err}", f"not a valid SGF game tree: {err}") from None
    ca = coarse.sequence[0].get("CA")
    encoding = _decoder(ca[0] if ca else None) or _whole_file_encoding(raw)
    root = _convert(coarse, encoding)
    gm = root.get("GM")
    if gm is not None and gm.strip() not in ("", "1"):
        raise SgfError(f"GM[{gm}] 不是围棋", f"GM[{gm}] is not a game of Go", "GM", 0)
    game = SgfGame(root)
    game.size  # noqa: B018 — validate SZ early, with the property named
    return game


# ---------------------------------------------------------------- board glue


def replay(game: SgfGame, rules: Rules = CHINESE, strict_turn: bool = True,
           notes: list[str] | None = None) -> Board:
    """Return the board after playing the main line of ``game`` under ``rules``.

    Set-up (``AB``/``AW``/``AE``, ``PL``) is applied where it occurs, in the
    root or in any later node (Fox/YuanYu files put the handicap stones in
    the node after the root).  Without ``PL`` the player to move after a
    set-up is the one whose move comes next in the file.  A file with
    ``HA[n]`` and no set-up whose first ``n`` moves are Black's (the
    handicap stones written as moves, as some programs do) has them read as
    the handicap set-up, as other SGF readers do; White then moves.

    The first move of a record, and the first after a set-up, may be either
    colour: "moving twice" (连走二步, rule 8(1)) needs a move before it, and
    the start of the game (黑先白后) is the players' and the referee's
    business, not the record's.  A record that starts with White without a
    set-up is read as written, and a note in ``notes`` (when a list is
    given) says so.  Later, with ``strict_turn`` a move by the player not to
    move is an error (8(1)); without it the board's turn follows the file.
    ``notes`` also receives :attr:`SgfGame.warnings`.

    Raises :class:`qisai.go.errors.IllegalMoveError` (with the move number,
    counting moves and passes from 1) for the first illegal move, and
    :class:`SgfError` for malformed properties or set-up.
    """
    size = game.size
    board = Board(size, rules)
    board.handicap = game.handicap
    if notes is not None:
        notes.extend(game.warnings)
    as_setup = _handicap_moves(game)
    nodes = game.main_line()
    fresh = True  # no move since the start or the last set-up
    for index, node in enumerate(nodes):
        if index in as_setup:
            if index == max(as_setup):
                stones = [as_setup[i] for i in sorted(as_setup)]
                try:
                    board.setup(black=stones, to_move=Color.WHITE)
                except SetupError as err:
                    raise SgfError(err.zh, err.en, "B", index) from None
            continue
        props = node.properties
        if "AB" in props or "AW" in props or "AE" in props or "PL" in props:
            pl = node.get("PL")
            to_move: Color | None = None
            if pl is not None:
                try:
                    to_move = Color.from_letter(pl)
                except ValueError:
                    raise SgfError(f"PL[{pl}] 不是 B 或 W", f"PL[{pl}] is not B or W", "PL", index) from None
            try:
                black = node.setup_points("AB", size, index)
                white = node.setup_points("AW", size, index)
                empty = node.setup_points("AE", size, index)
                if black or white or empty:
                    if to_move is None:
                        to_move = _next_mover(nodes, index, size)
                    if to_move is None and black and not white and game.handicap:
                        to_move = Color.WHITE
                    board.setup(black, white, empty, to_move)
                    fresh = True
                elif to_move is not None:
                    board.setup(to_move=to_move)
            except SetupError as err:
                raise SgfError(err.zh, err.en, "AB", index) from None
        move = node.move(size, index)
        if move is None:
            continue
        color, point = move
        if color != board.to_move and (fresh or not strict_turn):
            if fresh and notes is not None and board.move_number == 0:
                notes.append(f"move 1: {color.name.lower()} moves first without a set-up "
                             "saying so; read as the file has it (rule 8(1) forbids moving "
                             "twice, and no move came before)")
            board.setup(to_move=color)
        board.play(point, color)
        fresh = False
    return board


def _next_mover(nodes: list[SgfNode], index: int, size: int) -> Color | None:
    """The colour of the first move at or after ``nodes[index]`` before the
    next set-up, or None if there is none."""
    for number in range(index, len(nodes)):
        node = nodes[number]
        if number > index and any(p in node.properties for p in ("AB", "AW", "AE", "PL")):
            return None
        move = node.move(size, number)
        if move is not None:
            return move[0]
    return None


def _handicap_moves(game: SgfGame) -> dict[int, Point]:
    """Return {node index: point} of handicap stones written as the first
    Black moves (``HA[n]``, no set-up, the first ``n`` moves Black's and
    not passes, at distinct points), or {} if the file is not like that."""
    count = game.handicap
    if count < 2:
        return {}
    found: dict[int, Point] = {}
    for index, node in enumerate(game.main_line()):
        if any(prop in node.properties for prop in ("AB", "AW", "AE")):
            return {}
        move = node.move(game.size, index)
        if move is None:
            continue
        color, point = move
        if color is not Color.BLACK or point is None or point in found.values():
            return {}
        found[index] = point
        if len(found) == count:
            return found
    return {}


def first_illegal(game: SgfGame, rules: Rules = CHINESE) -> IllegalMoveError | None:
    """Return the error for the first illegal move of the main line, or None.

    Raises :class:`SgfError` for malformed SGF (that is not a move's fault).
    """
    try:
        replay(game, rules)
    except IllegalMoveError as err:
        return err
    return None


def _as_fraction(value: Fraction | float | int | str) -> Fraction:
    """Return ``value`` as a Fraction (a float by its decimal text: 0.5, 6.5).

    Raises :class:`SgfError` if it is not a number.
    """
    try:
        return Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    except (ValueError, ZeroDivisionError, TypeError):
        raise SgfError(f"贴目 {value!r} 不是数", f"komi {value!r} is not a number", "KM", 0) from None


def game_from_board(
    board: Board,
    komi: Fraction | float | int | str | None = None,
    result: str | None = None,
    rules_name: str | None = None,
    extra: dict[str, str] | None = None,
) -> SgfGame:
    """Return an :class:`SgfGame` holding ``board``'s record (set-ups and moves).

    A set-up before the first move becomes ``AB``/``AW`` in the root (with
    ``HA`` if it is Black stones only and White moves first); later set-ups
    become nodes with ``AB``/``AW``/``AE``.  ``komi`` is in points (a
    Fraction, int, float or numeric text).  Raises :class:`SgfError` if
    ``komi`` is not a number.
    """
    size = board.size
    root = SgfNode({"FF": ["4"], "GM": ["1"], "SZ": [str(size)]})
    if rules_name:
        root.properties["RU"] = [rules_name]
    if komi is not None:
        root.properties["KM"] = [_format_komi(_as_fraction(komi))]
    if result:
        root.properties["RE"] = [result]
    for key, value in (extra or {}).items():
        root.properties[key] = [value]
    node = root
    replay_board = Board(size, board.rules)
    for move in board.history:
        if move.setup:
            before = {p: replay_board.get(p) for p in replay_board.points()}
            replay_board._apply_setup_move(move)
            target = root if (node is root and replay_board.move_number == 0) else SgfNode()
            black = [p for p in replay_board.points()
                     if replay_board.get(p) is Color.BLACK and before[p] is not Color.BLACK]
            white = [p for p in replay_board.points()
                     if replay_board.get(p) is Color.WHITE and before[p] is not Color.WHITE]
            empty = [p for p in replay_board.points()
                     if replay_board.get(p) is None and before[p] is not None]
            for prop, pts in (("AB", black), ("AW", white), ("AE", empty)):
                if pts:
                    target.properties[prop] = [sgf_name(p, size) for p in pts]
            target.properties["PL"] = [move.color.letter]
            if target is root and black and not white and not empty and move.color is Color.WHITE:
                root.properties["HA"] = [str(len(black))]
            if target is not root:
                node.children.append(target)
                node = target
            continue
        child = SgfNode({move.color.letter: [sgf_name(move.point, size)]})
        replay_board.play(move.point, move.color)
        node.children.append(child)
        node = child
    return SgfGame(root)


def _format_komi(komi: Fraction) -> str:
    if komi.denominator == 1:
        return str(komi.numerator)
    value = float(komi)
    return f"{value:g}"
