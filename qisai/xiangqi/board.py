"""The Xiangqi board: placement, moves, check, mate, stalemate, FEN, Zobrist key.

Rule text: the national rules (seeds 000/001), chapter 1, clauses 1-4.

Squares are numbered ``rank * 9 + file``: files 0..8 are ICCS ``a``..``i``
from Red's left, ranks 0..9 count from Red's back rank (ICCS ranks).  A square
is an ``int`` so that move generation stays cheap in pure Python.

Pieces are stored as small signed ints: the absolute value is a
:class:`PieceType`, the sign the :class:`Color` (Red ``+1``, Black ``-1``), so
``piece * color > 0`` means "belongs to ``color``".
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from enum import IntEnum
from typing import NamedTuple

from qisai.xiangqi.errors import FenError, IllegalMoveError, InvalidMoveError

__all__ = [
    "STARTING_FEN",
    "Board",
    "Color",
    "Move",
    "Piece",
    "PieceType",
    "square",
    "square_file",
    "square_name",
    "square_rank",
    "placement_fen",
]

STARTING_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

FILES = "abcdefghi"


class Color(IntEnum):
    """Side: Red (红方, moves first, clause 2.1) or Black (黑方)."""

    RED = 1
    BLACK = -1

    @property
    def other(self) -> Color:
        """The opponent's colour."""
        return Color(-self.value)

    @property
    def chinese(self) -> str:
        """``红`` or ``黑``."""
        return "红" if self is Color.RED else "黑"


class PieceType(IntEnum):
    """The seven kinds of piece (clause 1.3)."""

    KING = 1  # 帅 / 将
    ADVISOR = 2  # 仕 / 士
    ELEPHANT = 3  # 相 / 象
    HORSE = 4  # 马
    ROOK = 5  # 车
    CANNON = 6  # 炮
    PAWN = 7  # 兵 / 卒


KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = range(1, 8)

_MAX_COUNTER_DIGITS = 9
"""FEN's half-move clock and move number: at most this many digits."""


def _prefix(text: str, limit: int = 40) -> str:
    """Return ``repr(text)``, cut to its first ``limit`` characters when longer
    (an error quotes bad input, not megabytes of it)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


_FEN_LETTER = {KING: "k", ADVISOR: "a", ELEPHANT: "b", HORSE: "n", ROOK: "r", CANNON: "c", PAWN: "p"}
# Accepted on input: some programs write E for the elephant and H for the horse.
_LETTER_TYPE = {"k": KING, "a": ADVISOR, "b": ELEPHANT, "e": ELEPHANT, "n": HORSE, "h": HORSE,
                "r": ROOK, "c": CANNON, "p": PAWN}
_CHINESE = {
    (KING, 1): "帅", (ADVISOR, 1): "仕", (ELEPHANT, 1): "相", (HORSE, 1): "马",
    (ROOK, 1): "车", (CANNON, 1): "炮", (PAWN, 1): "兵",
    (KING, -1): "将", (ADVISOR, -1): "士", (ELEPHANT, -1): "象", (HORSE, -1): "马",
    (ROOK, -1): "车", (CANNON, -1): "炮", (PAWN, -1): "卒",
}
_ENGLISH = {KING: "general", ADVISOR: "advisor", ELEPHANT: "elephant", HORSE: "horse",
            ROOK: "chariot", CANNON: "cannon", PAWN: "soldier"}


class Piece(NamedTuple):
    """A piece: its type and colour."""

    type: PieceType
    color: Color

    def symbol(self) -> str:
        """FEN letter: upper case for Red (``R``), lower case for Black (``r``)."""
        letter = _FEN_LETTER[self.type]
        return letter.upper() if self.color is Color.RED else letter

    def chinese(self) -> str:
        """The Chinese character used in notation (帅仕相马车炮兵 / 将士象马车炮卒)."""
        return _CHINESE[(int(self.type), int(self.color))]

    def english(self) -> str:
        """English name (general, advisor, elephant, horse, chariot, cannon, soldier)."""
        return _ENGLISH[self.type]

    @classmethod
    def from_symbol(cls, letter: str) -> Piece:
        """Parse a FEN letter (``E``/``H`` accepted for elephant/horse).

        Raises :class:`FenError` for any other character.
        """
        t = _LETTER_TYPE.get(letter.lower())
        if t is None or len(letter) != 1:
            raise FenError(f"unknown piece letter {letter!r}")
        return cls(PieceType(t), Color.RED if letter.isupper() else Color.BLACK)

    def value(self) -> int:
        """The signed int stored on the board."""
        return int(self.type) * int(self.color)


def square(file: int, rank: int) -> int:
    """Square index of ``file`` (0..8, a..i) and ``rank`` (0..9, Red's side first)."""
    return rank * 9 + file


def square_file(sq: int) -> int:
    """File 0..8 (a..i) of a square."""
    return sq % 9


def square_rank(sq: int) -> int:
    """Rank 0..9 of a square (ICCS ranks)."""
    return sq // 9


def square_name(sq: int) -> str:
    """ICCS name of a square, e.g. ``"h2"``."""
    return FILES[sq % 9] + str(sq // 9)


def _iccs_misfit(text: str) -> str:
    """Say where ``text`` stops being an ICCS move (file a-i, rank 0-9, file,
    rank; a ``-`` between the squares is allowed): the first character that
    does not fit, counted from 1 in the text without surrounding spaces."""
    raw = text.strip()
    chars = [(k + 1, ch) for k, ch in enumerate(raw) if ch != "-"]
    want = (("from-file", FILES), ("from-rank", "0123456789"), ("to-file", FILES),
            ("to-rank", "0123456789"))
    for (pos, ch), (name, allowed) in zip(chars, want, strict=False):
        if ch.lower() not in allowed:
            return f"character {pos} ({ch!r}) is not a {name} ({allowed[0]}-{allowed[-1]})"
    if len(chars) < 4:
        return f"the {want[len(chars)][0]} is missing after character {len(raw)}"
    if len(chars) > 4:
        pos, ch = chars[4]
        return f"character {pos} ({ch!r}) is one too many"
    return "not of the form file, rank, file, rank"


class Move(NamedTuple):
    """A move from one square to another; captures are implied by the board."""

    from_square: int
    to_square: int

    @classmethod
    def from_iccs(cls, text: str) -> Move:
        """Parse ICCS (``h2e2``; ranks 0-9; ``h2-e2`` and upper case accepted).

        Raises :class:`InvalidMoveError` if ``text`` is not of that form.
        """
        s = text.strip().lower().replace("-", "")
        if len(s) != 4 or s[0] not in FILES or s[2] not in FILES or not s[1].isdigit() \
                or not s[3].isdigit() or not s.isascii():
            raise InvalidMoveError(f"not an ICCS move: {_prefix(text)}: {_iccs_misfit(text)} "
                                   f"(expected e.g. 'h2e2')")
        return cls(square(FILES.index(s[0]), int(s[1])), square(FILES.index(s[2]), int(s[3])))

    @classmethod
    def from_engine(cls, text: str) -> Move:
        """Parse the engine form with ranks 1-10 (Fairy-Stockfish: ``h3e3``, ``a10a9``).

        Raises :class:`InvalidMoveError` if ``text`` is not of that form.
        """
        s = text.strip().lower()
        i = 1
        while i < len(s) and s[i].isdigit():
            i += 1
        j = i + 1
        if (not 4 <= len(s) <= 6 or not s.isascii() or s[0] not in FILES or i >= len(s)
                or s[i] not in FILES or not s[1:i].isdigit() or not s[j:].isdigit()):
            raise InvalidMoveError(f"not an engine move: {_prefix(text)} (expected e.g. 'h3e3')")
        r1, r2 = int(s[1:i]), int(s[j:])
        if not (1 <= r1 <= 10 and 1 <= r2 <= 10):
            raise InvalidMoveError(f"rank out of 1-10 in engine move {text!r}")
        return cls(square(FILES.index(s[0]), r1 - 1), square(FILES.index(s[i]), r2 - 1))

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The move of a move code ``from << 7 | to`` (see :meth:`Board.pseudo_codes`)."""
        return cls(code >> 7, code & 127)

    def code(self) -> int:
        """The move code ``from << 7 | to``."""
        return self.from_square << 7 | self.to_square

    def iccs(self) -> str:
        """ICCS form, e.g. ``"h2e2"``."""
        return square_name(self.from_square) + square_name(self.to_square)

    def engine(self) -> str:
        """Engine form with ranks 1-10, e.g. ``"h3e3"``."""
        f, t = self.from_square, self.to_square
        return f"{FILES[f % 9]}{f // 9 + 1}{FILES[t % 9]}{t // 9 + 1}"

    def __str__(self) -> str:
        return self.iccs()


# --------------------------------------------------------------------------
# Precomputed geometry.  Everything the move generator needs per square is a
# tuple built once, so the hot loops never test board edges.

def _on_board(f: int, r: int) -> bool:
    return 0 <= f < 9 and 0 <= r < 10


def _in_palace(f: int, r: int) -> bool:
    # 1.2: the palace (九宫) is files d-f, ranks 0-2 (Red) or 7-9 (Black).
    return 3 <= f <= 5 and (0 <= r <= 2 or 7 <= r <= 9)


def _own_half(r: int, red: bool) -> bool:
    return r <= 4 if red else r >= 5


def _build_rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for sq in range(90):
        f, r = sq % 9, sq // 9
        dirs = []
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            ray = []
            nf, nr = f + df, r + dr
            while _on_board(nf, nr):
                ray.append(square(nf, nr))
                nf += df
                nr += dr
            dirs.append(tuple(ray))
        rays.append(tuple(dirs))
    return tuple(rays)


RAYS = _build_rays()
# The vertical rays only (up, down): generals face each other only on a file.
_KING_STEPS: list[tuple[int, ...]] = []
_ADVISOR_STEPS: list[tuple[int, ...]] = []
_ELEPHANT_STEPS: list[tuple[tuple[int, int], ...]] = []
_HORSE_STEPS: list[tuple[tuple[int, int], ...]] = []
_HORSE_ATTACKERS: list[tuple[tuple[int, int], ...]] = []
for _sq in range(90):
    _f, _r = _sq % 9, _sq // 9
    _KING_STEPS.append(tuple(square(_f + df, _r + dr) for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))
                             if _in_palace(_f + df, _r + dr) and _in_palace(_f, _r)))
    _ADVISOR_STEPS.append(tuple(square(_f + df, _r + dr) for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1))
                                if _in_palace(_f + df, _r + dr) and _in_palace(_f, _r)))
    # 2.4: the elephant moves two points diagonally, not across the river and
    # not when the eye (象眼) is occupied.
    _ELEPHANT_STEPS.append(tuple(
        (square(_f + df, _r + dr), square(_f + 2 * df, _r + 2 * dr))
        for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1))
        if _on_board(_f + 2 * df, _r + 2 * dr) and (_r <= 4) == (_r + 2 * dr <= 4)))
    # 2.5: the horse moves one point orthogonally then one diagonally outward;
    # blocked when the first point (马腿) is occupied.
    _hs = []
    _ha = []
    for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
        if not _on_board(_f + df, _r + dr):
            continue
        leg_from = square(_f + (df // 2 if abs(df) == 2 else 0), _r + (dr // 2 if abs(dr) == 2 else 0))
        _hs.append((leg_from, square(_f + df, _r + dr)))
        # A horse at (f+df, r+dr) attacking this square has its leg next to
        # itself, one step back towards us along the long leg of the L.
        hf, hr = _f + df, _r + dr
        leg_to = square(hf - (df // 2 if abs(df) == 2 else 0), hr - (dr // 2 if abs(dr) == 2 else 0))
        _ha.append((square(hf, hr), leg_to))
    _HORSE_STEPS.append(tuple(_hs))
    _HORSE_ATTACKERS.append(tuple(_ha))

KING_STEPS = tuple(_KING_STEPS)
ADVISOR_STEPS = tuple(_ADVISOR_STEPS)
ELEPHANT_STEPS = tuple(_ELEPHANT_STEPS)
HORSE_STEPS = tuple(_HORSE_STEPS)
HORSE_ATTACKERS = tuple(_HORSE_ATTACKERS)


def _pawn_steps(red: bool) -> tuple[tuple[int, ...], ...]:
    # 2.7: a soldier moves one point forward; after crossing the river it may
    # also move one point sideways; it never moves back.
    out = []
    fwd = 1 if red else -1
    for sq in range(90):
        f, r = sq % 9, sq // 9
        steps = []
        if _on_board(f, r + fwd):
            steps.append(square(f, r + fwd))
        if not _own_half(r, red):
            for df in (1, -1):
                if _on_board(f + df, r):
                    steps.append(square(f + df, r))
        out.append(tuple(steps))
    return tuple(out)


PAWN_STEPS = {1: _pawn_steps(True), -1: _pawn_steps(False)}
# PAWN_ATTACKERS[c][sq]: squares from which a soldier of colour c attacks sq.
PAWN_ATTACKERS = {c: tuple(tuple(p for p in range(90) if sq in PAWN_STEPS[c][p]) for sq in range(90))
                  for c in (1, -1)}


def _legal_square(ptype: int, color: int, sq: int) -> bool:
    """Whether a piece of this kind may ever stand on ``sq`` (1.2, 2.2-2.7)."""
    f, r = sq % 9, sq // 9
    red = color == 1
    if ptype == KING:
        return _in_palace(f, r) and _own_half(r, red)
    if ptype == ADVISOR:
        return _in_palace(f, r) and _own_half(r, red) and (f + r) % 2 == (1 if red else 0)
    if ptype == ELEPHANT:
        rr = r if red else 9 - r
        return _own_half(r, red) and (f, rr) in {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}
    if ptype == PAWN:
        rr = r if red else 9 - r
        return rr >= 5 or (rr >= 3 and f % 2 == 0)
    return True


# Danger maps for the legality fast path: when the side to move is not in
# check, a move can only expose its general if it leaves or enters a line
# through the general (rook, cannon screen, facing generals) or leaves a
# horse-leg point next to it.
_LINE = tuple(tuple((s % 9 == k % 9) or (s // 9 == k // 9) for s in range(90)) for k in range(90))
_LEG = tuple(tuple(abs(s % 9 - k % 9) == 1 and abs(s // 9 - k // 9) == 1 for s in range(90))
             for k in range(90))
_DANGER_FROM = tuple(tuple(_LINE[k][s] or _LEG[k][s] for s in range(90)) for k in range(90))

_rng = random.Random(20261130)
# ZOBRIST[piece + 7][sq]; a fixed seed keeps keys stable across runs.
ZOBRIST = tuple(tuple(_rng.getrandbits(64) for _ in range(90)) for _ in range(15))
ZOBRIST_BLACK = _rng.getrandbits(64)

MAX_PIECES = {KING: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 2, ROOK: 2, CANNON: 2, PAWN: 5}


def placement_fen(pieces: Mapping[int, Piece]) -> str:
    """The FEN placement field of ``{square: piece}`` (rank 9 first, Red upper case)."""
    chars = [""] * 90
    for sq, p in pieces.items():
        chars[sq] = p.symbol()
    return _placement(chars)


def _placement(chars: list[str]) -> str:
    # chars[sq] is the FEN letter on sq, "" for an empty point.
    return _compress([ch or "1" for ch in chars])


_RUNS = tuple(("1" * n, str(n)) for n in range(9, 1, -1))


def _compress(cells: list[str]) -> str:
    # cells[sq] is the FEN letter on sq, "1" for an empty point.  Ranks are
    # written from rank 9; then each run of k empty points becomes the digit
    # k, longest runs first (a rank holds at most 9), so the shorter
    # patterns only ever meet whole runs.  The board's FEN is written after
    # every refereed move: string replaces beat a loop over the points.
    text = "/".join(["".join(cells[r * 9:r * 9 + 9]) for r in range(9, -1, -1)])
    for run, digit in _RUNS:
        text = text.replace(run, digit)
    return text


# FEN letter of each signed piece value (index value + 7), "" for empty.
_SYMBOL = tuple((_FEN_LETTER[abs(v)].upper() if v > 0 else _FEN_LETTER[-v]) if v else ""
                for v in range(-7, 8))
_CELL = tuple(ch or "1" for ch in _SYMBOL)
"""The same with "1" for empty, as :func:`_compress` wants."""


class Board:
    """A Xiangqi position with its move history.

    ``Board()`` is the starting position; ``Board(fen)`` parses a FEN and
    raises :class:`FenError` if it is malformed or impossible.  ``push`` and
    ``pop`` make and take back moves; ``legal_moves()`` lists the legal ones.
    """

    __slots__ = ("_b", "_kings", "_pieces", "turn", "halfmove_clock", "fullmove_number",
                 "key", "_stack", "move_stack")

    def __init__(self, fen: str | None = STARTING_FEN, *, setup: bool = False) -> None:
        self._b: list[int] = [0] * 90
        self._kings: dict[int, int] = {1: -1, -1: -1}
        self._pieces: dict[int, set[int]] = {1: set(), -1: set()}
        self.turn: Color = Color.RED
        self.halfmove_clock = 0
        self.fullmove_number = 1
        self.key = 0
        # Undo records: (move int, captured piece, halfmove clock, key).
        self._stack: list[tuple[int, int, int, int]] = []
        self.move_stack: list[Move] = []
        if fen is not None:
            self.set_fen(fen, setup=setup)

    # ------------------------------------------------------------------ FEN
    def set_fen(self, fen: str, *, setup: bool = False) -> None:
        """Set the position from FEN and clear the move history.

        Validates piece counts, palace/elephant/advisor/soldier points, the
        side to move, the counters, facing generals and that the side not to
        move is not in check.  ``setup=True`` is the lenient check for set-up
        positions such as rule-book diagrams: the points of advisors,
        elephants and soldiers are not checked (a soldier may stand behind
        its start rank), everything else is (piece counts, one general each,
        in his palace, 1.2).  Raises :class:`FenError` naming the problem.
        """
        if not isinstance(fen, str):
            raise FenError(f"FEN must be a string, not {type(fen).__name__}")
        spans = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", fen)]
        parts = [text for _, text in spans]
        if not parts:
            raise FenError("empty FEN")
        if len(parts) > 6:
            raise FenError(f"FEN has {len(parts)} fields, at most 6 expected "
                           f"(field 7 at character {spans[6][0]})")
        rows = parts[0].split("/")
        if len(rows) != 10:
            raise FenError(f"FEN field 1 (placement) has {len(rows)} ranks, 10 expected")
        board = [0] * 90
        counts: dict[int, int] = {}
        row_start = spans[0][0]  # 1-based character position of the row in the FEN
        for i, row in enumerate(rows):
            rank = 9 - i
            where = f"FEN field 1 (placement), rank {rank} (row {i + 1})"
            f = 0
            for k, ch in enumerate(row):
                at = f"{where}, character {row_start + k}"
                if ch.isdigit() and ch.isascii():
                    f += int(ch)
                    if int(ch) == 0:
                        raise FenError(f"{at}: digit 0 is not allowed")
                    if f > 9:
                        raise FenError(f"{at}: {f} files, 9 expected")
                else:
                    try:
                        p = Piece.from_symbol(ch)
                    except FenError:
                        raise FenError(f"{at}: unknown piece letter {ch!r}") from None
                    if f >= 9:
                        raise FenError(f"{at}: more than 9 files")
                    sq = square(f, rank)
                    v = p.value()
                    if (not setup or p.type == KING) and not _legal_square(p.type, p.color, sq):
                        raise FenError(f"{at}: {p.english()} {ch!r} cannot stand on {square_name(sq)} "
                                       f"({'1.2 palace' if p.type in (KING, ADVISOR) else '2.4/2.7'})")
                    board[sq] = v
                    counts[v] = counts.get(v, 0) + 1
                    f += 1
            if f != 9:
                raise FenError(f"{where}, characters {row_start}-{row_start + len(row) - 1}: "
                               f"{f} files, 9 expected")
            row_start += len(row) + 1
        for v, n in counts.items():
            if n > MAX_PIECES[abs(v)]:
                raise FenError(f"FEN field 1 (placement): too many "
                               f"{Piece(PieceType(abs(v)), Color(1 if v > 0 else -1)).english()}s "
                               f"for {'Red' if v > 0 else 'Black'}: {n} (at most {MAX_PIECES[abs(v)]})")
        for c, name in ((1, "Red"), (-1, "Black")):
            if counts.get(c * KING, 0) != 1:
                raise FenError(f"FEN field 1 (placement): {name} must have exactly one general, "
                               f"found {counts.get(c * KING, 0)}")
        side = parts[1] if len(parts) > 1 else "w"
        if side in ("w", "r", "W", "R"):
            turn = Color.RED
        elif side in ("b", "B"):
            turn = Color.BLACK
        else:
            raise FenError(f"FEN field 2 (side to move), character {spans[1][0]}: "
                           f"side to move must be 'w' (Red) or 'b' (Black), not {_prefix(side)}")
        counters = []
        for idx, what in ((4, "halfmove clock"), (5, "move number")):
            if len(parts) > idx:
                if not parts[idx].isdigit() or not parts[idx].isascii():
                    raise FenError(f"FEN field {idx + 1} ({what}), character {spans[idx][0]}: "
                                   f"must be a non-negative integer, not {_prefix(parts[idx])}")
                if len(parts[idx]) > _MAX_COUNTER_DIGITS:
                    raise FenError(f"FEN field {idx + 1} ({what}), character {spans[idx][0]}: "
                                   f"{len(parts[idx])} digits, at most {_MAX_COUNTER_DIGITS}: "
                                   f"{_prefix(parts[idx])}")
                counters.append(int(parts[idx]))
        self._b = board
        self._pieces = {1: {s for s in range(90) if board[s] > 0}, -1: {s for s in range(90) if board[s] < 0}}
        self._kings = {1: board.index(KING), -1: board.index(-KING)}
        self.turn = turn
        self.halfmove_clock = counters[0] if counters else 0
        self.fullmove_number = max(1, counters[1]) if len(counters) > 1 else 1
        self._stack = []
        self.move_stack = []
        self.key = self._compute_key()
        if self._generals_face():
            raise FenError("FEN field 1 (placement): the generals face each other on an open "
                           "file (4.1.2)")
        if self.general_attacked(-turn):
            raise FenError(f"FEN fields 1-2 (placement, side to move): the side not to move "
                           f"({Color(-turn).name.lower()}) is in check")

    def fen(self) -> str:
        """FEN of the position, e.g. the start: ``rnbakabnr/9/... w - - 0 1``."""
        side = "w" if self.turn is Color.RED else "b"
        return f"{self.board_fen()} {side} - - {self.halfmove_clock} {self.fullmove_number}"

    def board_fen(self) -> str:
        """The placement field of the FEN."""
        cell = _CELL
        return _compress([cell[v + 7] for v in self._b])

    def _compute_key(self) -> int:
        k = 0
        for s, v in enumerate(self._b):
            if v:
                k ^= ZOBRIST[v + 7][s]
        if self.turn is Color.BLACK:
            k ^= ZOBRIST_BLACK
        return k

    # --------------------------------------------------------------- access
    def piece_at(self, sq: int) -> Piece | None:
        """The piece on ``sq`` or ``None``."""
        v = self._b[sq]
        if not v:
            return None
        return Piece(PieceType(abs(v)), Color.RED if v > 0 else Color.BLACK)

    def piece_value_at(self, sq: int) -> int:
        """The signed int on ``sq`` (0 empty, +type Red, -type Black)."""
        return self._b[sq]

    def pieces(self, color: Color) -> list[int]:
        """Squares of ``color``'s pieces, in ascending order."""
        return sorted(self._pieces[color])

    def king_square(self, color: Color) -> int:
        """Square of ``color``'s general."""
        return self._kings[color]

    def copy(self, *, stack: bool = True) -> Board:
        """A copy of the board (with its move history unless ``stack=False``)."""
        b = Board(None)
        b._b = self._b[:]
        b._kings = dict(self._kings)
        b._pieces = {1: set(self._pieces[1]), -1: set(self._pieces[-1])}
        b.turn = self.turn
        b.halfmove_clock = self.halfmove_clock
        b.fullmove_number = self.fullmove_number
        b.key = self.key
        if stack:
            b._stack = self._stack[:]
            b.move_stack = self.move_stack[:]
        return b

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._b == other._b and self.turn == other.turn

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def __str__(self) -> str:
        lines = []
        for rank in range(9, -1, -1):
            cells = []
            for f in range(9):
                v = self._b[rank * 9 + f]
                cells.append("." if not v else (_FEN_LETTER[abs(v)].upper() if v > 0 else _FEN_LETTER[abs(v)]))
            lines.append(f"{rank} " + " ".join(cells))
        lines.append("  " + " ".join(FILES))
        return "\n".join(lines)

    def unicode(self) -> str:
        """A text diagram with Chinese piece names (Red upper case in ASCII form)."""
        lines = []
        for rank in range(9, -1, -1):
            cells = []
            for f in range(9):
                p = self.piece_at(rank * 9 + f)
                cells.append("＋" if p is None else p.chinese())
            lines.append(f"{rank} " + "".join(cells))
            if rank == 5:
                lines.append("  " + "～" * 9 + " 楚河 汉界")
        lines.append("  " + "".join(chr(0xFF41 + i) for i in range(9)))
        return "\n".join(lines)

    # --------------------------------------------------------------- attacks
    def general_attacked(self, c: int) -> bool:
        """Whether the general of colour ``c`` (``1`` Red, ``-1`` Black) is attacked,
        counting facing generals (4.1.2) as an attack."""
        b = self._b
        k = self._kings[c]
        er, ec, ek = -c * ROOK, -c * CANNON, -c * KING
        for ray in RAYS[k]:
            screened = False
            for s in ray:
                p = b[s]
                if p:
                    if screened:
                        if p == ec:
                            return True
                        break
                    # 4.1.2: generals may not face each other on an open file.
                    if p == er or p == ek:
                        return True
                    screened = True
        eh = -c * HORSE
        for h, leg in HORSE_ATTACKERS[k]:
            if b[h] == eh and not b[leg]:
                return True
        ep = -c * PAWN
        for s in PAWN_ATTACKERS[-c][k]:
            if b[s] == ep:
                return True
        return False

    def generals_face(self) -> bool:
        """Whether the two generals stand on one file with nothing between (将帅对面).

        Never true after a legal move (4.1.2); a move that would make it true
        is illegal, so :meth:`is_legal` already refuses it.
        """
        return self._generals_face()

    def exposes_general(self, move: Move) -> bool:
        """Whether a pseudo-legal ``move`` leaves the mover's general attacked
        or facing the other general (4.1.2: such a move is illegal)."""
        return not self._capture_is_safe(int(self.turn), move.from_square, move.to_square)

    def _generals_face(self) -> bool:
        r, k = self._kings[1], self._kings[-1]
        if r % 9 != k % 9:
            return False
        return all(not self._b[s] for s in range(r + 9, k, 9))

    def is_check(self) -> bool:
        """Whether the side to move is in check (照将, clause 3.1)."""
        return self.general_attacked(self.turn)

    def attackers(self, color: Color, sq: int) -> list[int]:
        """Squares of ``color``'s pieces that attack ``sq`` (could capture there).

        Pseudo-legal: a pinned attacker still counts; the general counts only
        for its one-step moves in the palace (not for facing generals).  Use
        :meth:`legal_attackers` for attacks that are legal captures.
        """
        c = int(color)
        b = self._b
        out: list[int] = []
        for ray in RAYS[sq]:
            screened = False
            for s in ray:
                p = b[s]
                if p:
                    if screened:
                        if p == c * CANNON:
                            out.append(s)
                        break
                    if p == c * ROOK:
                        out.append(s)
                    screened = True
        for h, leg in HORSE_ATTACKERS[sq]:
            if b[h] == c * HORSE and not b[leg]:
                out.append(h)
        for s in PAWN_ATTACKERS[c][sq]:
            if b[s] == c * PAWN:
                out.append(s)
        for s in ADVISOR_STEPS[sq]:
            if b[s] == c * ADVISOR:
                out.append(s)
        for eye, s in ELEPHANT_STEPS[sq]:
            if b[s] == c * ELEPHANT and not b[eye]:
                out.append(s)
        for s in KING_STEPS[sq]:
            if b[s] == c * KING:
                out.append(s)
        return sorted(out)

    def is_attacked_by(self, color: Color, sq: int) -> bool:
        """Whether any piece of ``color`` attacks ``sq`` (pseudo-legally)."""
        return bool(self.attackers(color, sq))

    def legal_attackers(self, color: Color, sq: int) -> list[int]:
        """Squares of ``color``'s pieces that could legally capture on ``sq``.

        ``sq`` is treated as holding an enemy piece: if it holds a piece of
        ``color`` itself (asking who *protects* it), the capture is tested as
        a recapture after an enemy piece took it.  Legality ignores whose turn
        it is: a capture is legal if it leaves ``color``'s general safe.
        """
        c = int(color)
        b = self._b
        out = []
        original = b[sq]
        # For a protection query put a neutral enemy stand-in on the square.
        stand_in = -c * PAWN if original * c > 0 or original == 0 else original
        b[sq] = stand_in
        try:
            for a in self.attackers(color, sq):
                if self._capture_is_safe(c, a, sq):
                    out.append(a)
        finally:
            b[sq] = original
        return out

    def protectors(self, sq: int) -> list[int]:
        """Squares of pieces that legally protect the piece on ``sq`` (its 根).

        A protector could legally recapture if an enemy piece captured on
        ``sq``.  Returns an empty list for an empty square.
        """
        v = self._b[sq]
        if not v:
            return []
        return self.legal_attackers(Color(1 if v > 0 else -1), sq)

    def _capture_is_safe(self, c: int, a: int, sq: int) -> bool:
        b = self._b
        moved, captured = b[a], b[sq]
        b[sq], b[a] = moved, 0
        king_moved = moved == c * KING
        if king_moved:
            self._kings[c] = sq
        try:
            return not self.general_attacked(c)
        finally:
            b[a], b[sq] = moved, captured
            if king_moved:
                self._kings[c] = a

    # ------------------------------------------------------------ generation
    def pseudo_codes(self, c: int) -> list[int]:
        """Pseudo-legal moves of colour ``c`` as move codes (``from << 7 | to``).

        The integer fast path for searches: with :meth:`push_code`,
        :meth:`pop_code` and :meth:`general_attacked` it avoids building
        :class:`Move` values.  A code that leaves the mover's general attacked
        is illegal (test it after :meth:`push_code`).
        """
        b = self._b
        out: list[int] = []
        append = out.append
        for f in self._pieces[c]:
            p = b[f] * c
            base = f << 7
            if p == ROOK:
                for ray in RAYS[f]:
                    for s in ray:
                        q = b[s]
                        if not q:
                            append(base | s)
                        else:
                            if q * c < 0:
                                append(base | s)
                            break
            elif p == HORSE:
                for leg, s in HORSE_STEPS[f]:
                    if not b[leg] and b[s] * c <= 0:
                        append(base | s)
            elif p == CANNON:
                for ray in RAYS[f]:
                    screened = False
                    for s in ray:
                        q = b[s]
                        if not screened:
                            if not q:
                                append(base | s)
                            else:
                                screened = True
                        elif q:
                            # 2.6: the cannon captures by jumping exactly one screen.
                            if q * c < 0:
                                append(base | s)
                            break
            elif p == PAWN:
                for s in PAWN_STEPS[c][f]:
                    if b[s] * c <= 0:
                        append(base | s)
            elif p == ELEPHANT:
                for eye, s in ELEPHANT_STEPS[f]:
                    if not b[eye] and b[s] * c <= 0:
                        append(base | s)
            elif p == ADVISOR:
                for s in ADVISOR_STEPS[f]:
                    if b[s] * c <= 0:
                        append(base | s)
            else:
                for s in KING_STEPS[f]:
                    if b[s] * c <= 0:
                        append(base | s)
        return out

    def legal_codes(self, first_only: bool = False) -> list[int]:
        """Legal moves of the side to move as move codes (``from << 7 | to``);
        with ``first_only`` at most one (enough to tell mate from play)."""
        c = int(self.turn)
        pseudo = self.pseudo_codes(c)
        b = self._b
        k = self._kings[c]
        attacked = self.general_attacked
        kings = self._kings
        out: list[int] = []
        # When not in check most moves cannot expose the general; only those
        # touching its lines or horse-leg points (or in check, all) are tried.
        in_check = attacked(c)
        danger_from = _DANGER_FROM[k]
        line = _LINE[k]
        for m in pseudo:
            f, t = m >> 7, m & 127
            if not in_check and f != k and not danger_from[f] and not line[t]:
                out.append(m)
                if first_only:
                    return out
                continue
            moved, captured = b[f], b[t]
            b[t] = moved
            b[f] = 0
            if f == k:
                kings[c] = t
            safe = not attacked(c)
            b[f] = moved
            b[t] = captured
            kings[c] = k
            if safe:
                out.append(m)
                if first_only:
                    return out
        return out

    def legal_moves(self) -> list[Move]:
        """All legal moves of the side to move (clauses 2, 4.1.2)."""
        return [Move(m >> 7, m & 127) for m in self.legal_codes()]

    def pseudo_legal_moves(self) -> list[Move]:
        """Moves that obey the piece rules but may leave the general attacked."""
        return [Move(m >> 7, m & 127) for m in self.pseudo_codes(int(self.turn))]

    def has_legal_moves(self) -> bool:
        """Whether the side to move has any legal move (stops at the first)."""
        return bool(self.legal_codes(first_only=True))

    def is_pseudo_legal(self, move: Move) -> bool:
        """Whether ``move`` obeys the piece rules for the side to move."""
        f, t = move
        if not (0 <= f < 90 and 0 <= t < 90) or self._b[f] * self.turn <= 0:
            return False
        return (f << 7 | t) in self._pseudo_from(f)

    def _pseudo_from(self, f: int) -> set[int]:
        c = int(self.turn)
        saved = self._pieces[c]
        self._pieces[c] = {f}
        try:
            return set(self.pseudo_codes(c))
        finally:
            self._pieces[c] = saved

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal for the side to move."""
        if not self.is_pseudo_legal(move):
            return False
        return self._capture_is_safe(int(self.turn), move.from_square, move.to_square)

    def legal_moves_from(self, sq: int) -> list[Move]:
        """Legal moves of the piece on ``sq`` (empty if not the mover's piece)."""
        if not (0 <= sq < 90) or self._b[sq] * self.turn <= 0:
            return []
        c = int(self.turn)
        return [Move(sq, m & 127) for m in sorted(self._pseudo_from(sq))
                if self._capture_is_safe(c, sq, m & 127)]

    def is_checkmate(self) -> bool:
        """In check with no legal move: 将死, a loss (3.2, 4.1.1)."""
        return self.is_check() and not self.has_legal_moves()

    def is_stalemate(self) -> bool:
        """Not in check but no legal move: 困毙, a loss for the side to move (3.2, 4.1.3)."""
        return not self.is_check() and not self.has_legal_moves()

    def is_game_over(self) -> bool:
        """Whether the side to move has no legal move (mate or stalemate, both lose)."""
        return not self.has_legal_moves()

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` captures a piece."""
        return self._b[move.to_square] != 0

    def gives_check(self, move: Move) -> bool:
        """Whether ``move`` (assumed legal) checks the opponent."""
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    # ----------------------------------------------------------- make/unmake
    def push_code(self, m: int) -> None:
        """Make the move with code ``m`` without any check and without adding
        to :attr:`move_stack` (searches undo it with :meth:`pop_code`)."""
        f, t = m >> 7, m & 127
        b = self._b
        moved = b[f]
        captured = b[t]
        c = 1 if moved > 0 else -1
        self._stack.append((m, captured, self.halfmove_clock, self.key))
        key = self.key ^ ZOBRIST[moved + 7][f] ^ ZOBRIST[moved + 7][t] ^ ZOBRIST_BLACK
        if captured:
            key ^= ZOBRIST[captured + 7][t]
            self._pieces[-c].discard(t)
            self.halfmove_clock = 0
        else:
            self.halfmove_clock += 1
        own = self._pieces[c]
        own.discard(f)
        own.add(t)
        b[t] = moved
        b[f] = 0
        if moved == c * KING:
            self._kings[c] = t
        self.key = key
        if c == -1:
            self.fullmove_number += 1
        self.turn = Color.BLACK if c == 1 else Color.RED

    def pop_code(self) -> int:
        """Undo the last :meth:`push_code` and return its code."""
        m, captured, clock, key = self._stack.pop()
        f, t = m >> 7, m & 127
        b = self._b
        moved = b[t]
        c = 1 if moved > 0 else -1
        b[f] = moved
        b[t] = captured
        own = self._pieces[c]
        own.discard(t)
        own.add(f)
        if captured:
            self._pieces[-c].add(t)
        if moved == c * KING:
            self._kings[c] = f
        if c == -1:
            self.fullmove_number -= 1
        self.halfmove_clock = clock
        self.key = key
        self.turn = Color.RED if c == 1 else Color.BLACK
        return m

    def push(self, move: Move) -> None:
        """Make a legal move.  Raises :class:`IllegalMoveError` if it is not legal."""
        if not self.is_legal(move):
            raise IllegalMoveError(self.illegal_reason(move))
        self.push_code(move.from_square << 7 | move.to_square)
        self.move_stack.append(Move(move.from_square, move.to_square))

    def push_unchecked(self, move: Move) -> None:
        """Make a move known to be legal, skipping the legality test."""
        self.push_code(move.from_square << 7 | move.to_square)
        self.move_stack.append(Move(move.from_square, move.to_square))

    def push_iccs(self, text: str) -> Move:
        """Parse an ICCS move, make it and return it.

        Raises :class:`InvalidMoveError` or :class:`IllegalMoveError`.
        """
        move = Move.from_iccs(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises :class:`IllegalMoveError` if there is no move to take back.
        """
        if not self._stack:
            raise IllegalMoveError("no move to take back")
        self.pop_code()
        return self.move_stack.pop()

    def peek(self) -> Move | None:
        """The last move made, or ``None``."""
        return self.move_stack[-1] if self.move_stack else None

    def last_captured(self) -> Piece | None:
        """The piece captured by the last move, or ``None``."""
        if not self._stack:
            return None
        v = self._stack[-1][1]
        return None if not v else Piece(PieceType(abs(v)), Color(1 if v > 0 else -1))

    def illegal_reason(self, move: Move) -> str:
        """Why ``move`` is illegal for the side to move, as a sentence with the ply.

        Meant for error messages; for a legal move it still returns the last
        reason in the list (leaving the general attacked), so test
        :meth:`is_legal` first.
        """
        f, t = move
        ply = len(self.move_stack) + 1
        where = f"ply {ply} ({self.turn.name.lower()} to move)"
        if not (0 <= f < 90 and 0 <= t < 90):
            return f"{where}: square out of the board in move {move!r}"
        name = Move(f, t).iccs()
        v = self._b[f]
        if not v:
            return f"{where}: no piece on {square_name(f)} for move {name}"
        if v * self.turn < 0:
            return f"{where}: {name} moves an opponent's piece"
        if not self.is_pseudo_legal(move):
            p = self.piece_at(f)
            assert p is not None
            return f"{where}: the {p.english()} on {square_name(f)} cannot move to {square_name(t)} ({name})"
        return f"{where}: {name} leaves the general in check or facing the other general (4.1.2)"

    # ------------------------------------------------------------ repetition
    def passed(self) -> Board:
        """A copy without history and with the other side to move (a "pass").

        Xiangqi has no pass; the repetition code asks with it what the side
        that just moved threatens.  If the side to move is in check, the copy
        is a position where a general can be captured: callers must not
        count that as play.
        """
        b = self.copy(stack=False)
        b.turn = b.turn.other
        b.key ^= ZOBRIST_BLACK  # the key includes the side to move
        return b

    def history_keys(self, last: int | None = None) -> list[int]:
        """Zobrist keys of every position of the game so far, oldest first;
        with ``last``, only the keys of the last ``last`` moves' positions
        before the current one (``last + 1`` keys at most).

        The key includes the side to move, so equal keys mean the same
        position with the same player to move.
        """
        stack = self._stack
        if last is not None:
            stack = stack[max(0, len(stack) - last):]
        return [k for (_, _, _, k) in stack] + [self.key]

    def root(self) -> Board:
        """A board at the position before the first move of the history."""
        b = self.copy()
        while b._stack:
            b.pop_code()
        b.move_stack = []
        return b

    # ----------------------------------------------------------------- perft
    def perft(self, depth: int) -> int:
        """Number of leaf nodes of the legal move tree of ``depth`` plies."""
        if depth <= 0:
            return 1
        moves = self.legal_codes()
        if depth == 1:
            return len(moves)
        n = 0
        push, pop = self.push_code, self.pop_code
        for m in moves:
            push(m)
            n += self.perft(depth - 1)
            pop()
        return n

    def iter_squares(self) -> Iterator[tuple[int, Piece]]:
        """``(square, piece)`` for every occupied square, in square order."""
        for s in range(90):
            p = self.piece_at(s)
            if p is not None:
                yield s, p
