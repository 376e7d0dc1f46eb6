"""Xiangqi squares and moves: square/file/rank helpers and :class:`Move`.

Squares are numbered ``rank * 9 + file``: files 0..8 are ICCS ``a``..``i``
from Red's left, ranks 0..9 count from Red's back rank (ICCS ranks).  A square
is an ``int`` so that move generation stays cheap in pure Python.
"""

from __future__ import annotations

from typing import NamedTuple

from qisai.xiangqi.errors import InvalidMoveError

__all__ = [
    "FILES",
    "Move",
    "square",
    "square_file",
    "square_name",
    "square_rank",
]


def _prefix(text: str, limit: int = 40) -> str:
    """Return ``repr(text)``, cut to its first ``limit`` characters when longer
    (an error quotes bad input, not megabytes of it)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"

FILES = "abcdefghi"


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


def _iccs_misfit(text: str) -> tuple[str, str]:
    """Say where ``text`` stops being an ICCS move (file a-i, rank 0-9, file,
    rank; a ``-`` between the squares is allowed): the first character that
    does not fit, counted from 1 in the text without surrounding spaces.
    Returns ``(zh, en)``."""
    raw = text.strip()
    chars = [(k + 1, ch) for k, ch in enumerate(raw) if ch != "-"]
    want = (("from-file", FILES, "起点路"), ("from-rank", "0123456789", "起点行"),
            ("to-file", FILES, "终点路"), ("to-rank", "0123456789", "终点行"))
    for (pos, ch), (name, allowed, zh) in zip(chars, want, strict=False):
        if ch.lower() not in allowed:
            return (f"第 {pos} 个字符（{ch!r}）不是{zh}（{allowed[0]}-{allowed[-1]}）",
                    f"character {pos} ({ch!r}) is not a {name} ({allowed[0]}-{allowed[-1]})")
    if len(chars) < 4:
        return (f"第 {len(raw)} 个字符之后缺少{want[len(chars)][2]}",
                f"the {want[len(chars)][0]} is missing after character {len(raw)}")
    if len(chars) > 4:
        pos, ch = chars[4]
        return f"第 {pos} 个字符（{ch!r}）多余", f"character {pos} ({ch!r}) is one too many"
    return "不是“路、行、路、行”的形式", "not of the form file, rank, file, rank"


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
            zh, en = _iccs_misfit(text)
            raise InvalidMoveError(f"不是 ICCS 着法：{_prefix(text)}：{zh}（应如 'h2e2'）",
                                   f"not an ICCS move: {_prefix(text)}: {en} "
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
            raise InvalidMoveError(f"不是引擎着法：{_prefix(text)}（应如 'h3e3'）",
                                   f"not an engine move: {_prefix(text)} (expected e.g. 'h3e3')")
        r1, r2 = int(s[1:i]), int(s[j:])
        if not (1 <= r1 <= 10 and 1 <= r2 <= 10):
            raise InvalidMoveError(f"引擎着法 {text!r} 的行不在 1-10 之内",
                                   f"rank out of 1-10 in engine move {text!r}")
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
