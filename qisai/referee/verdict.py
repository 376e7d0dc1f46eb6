"""Verdicts: how a game ended, why, under which clause, in two languages.

Only the referee makes a :class:`Result`.  Each one carries a :class:`Reason`
(one enumeration for both games), the clause of the rule book it rests on
(``"4.1.1"``, ``"22.5"``, ``"围棋竞赛规定 12(2)"``) and an explanation a player
can read, in Chinese and in English.

Example::

    >>> r = Result.win(GameKind.XIANGQI, Side.FIRST, Reason.CHECKMATE, "4.1.1")
    >>> r.explanation_zh
    '黑方被将死，红方胜。'
    >>> r.pgn_result
    '1-0'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["GameKind", "Outcome", "Reason", "Result", "Side", "format_fraction"]


class GameKind(enum.Enum):
    """Which game a referee runs."""

    XIANGQI = "xiangqi"
    GO = "go"


class Side(enum.Enum):
    """A player by move order: ``FIRST`` moves first.

    In Xiangqi ``FIRST`` is Red (红方, clause 2.1); in Go it is Black (黑方,
    黑先白后).  :meth:`name_zh` and :meth:`name_en` give the colour names.
    """

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Side:
        """Return the opponent."""
        return Side.SECOND if self is Side.FIRST else Side.FIRST

    def name_zh(self, kind: GameKind) -> str:
        """Return the Chinese colour name: 红方/黑方 (Xiangqi), 黑方/白方 (Go)."""
        return _NAMES[kind][self.value][0]

    def name_en(self, kind: GameKind) -> str:
        """Return the English colour name: Red/Black (Xiangqi), Black/White (Go)."""
        return _NAMES[kind][self.value][1]

    def letter(self, kind: GameKind) -> str:
        """Return the one-letter tag: ``r``/``b`` (Xiangqi), ``B``/``W`` (Go)."""
        return _NAMES[kind][self.value][2]

    @classmethod
    def parse(cls, text: str, kind: GameKind) -> Side:
        """Return the side named by ``text`` (``first``/``second``, a colour
        name in English or Chinese, or its letter).

        Raises :class:`ValueError` if ``text`` names no side of ``kind``.
        """
        t = text.strip()
        for side in cls:
            zh, en, letter = _NAMES[kind][side.value]
            if t.lower() in (side.name.lower(), en.lower(), letter.lower()) or t in (zh, zh[0]):
                return side
        raise ValueError(f"{text!r} names no side of a {kind.value} game")


_NAMES = {
    GameKind.XIANGQI: (("红方", "Red", "r"), ("黑方", "Black", "b")),
    GameKind.GO: (("黑方", "Black", "B"), ("白方", "White", "W")),
}


class Outcome(enum.Enum):
    """The kind of ending."""

    WIN = "win"
    """One side wins (``Result.winner``)."""
    DRAW = "draw"
    """和棋."""
    NO_RESULT = "no_result"
    """No result: the game is void and replayed (围棋 11(3) 重下)."""
    DOUBLE_FORFEIT = "double_forfeit"
    """Both sides lose without play (双方弃权, 21.3)."""


class Reason(enum.Enum):
    """Why a game ended: one enumeration for every verdict of both games."""

    CHECKMATE = "checkmate"
    """将死 (4.1.1)."""
    STALEMATE = "stalemate"
    """困毙 (3.2, 4.1.3)."""
    FACING_GENERALS = "facing_generals"
    """A move that leaves the generals facing (4.1.2)."""
    ILLEGAL_MOVE = "illegal_move"
    """A move against the rules of play (4.1.6)."""
    PERPETUAL_CHECK = "perpetual_check"
    """One-sided perpetual check (长将, 24.1, 26.1)."""
    FORBIDDEN_REPETITION = "forbidden_repetition"
    """A forbidden repetition not changed (应变着而不变, 4.1.7, 24.3, 26.4)."""
    REPETITION = "repetition"
    """A repetition ruled a draw (不变作和, 4.2.3, 24.2)."""
    NATURAL_LIMIT = "natural_limit"
    """The natural move limit (自然限着, 4.2.4, 23.3)."""
    AGREEMENT = "agreement"
    """Draw agreed (4.2.2, 23.1)."""
    NO_WIN_POSSIBLE = "no_win_possible"
    """Neither side can win (4.2.1), by the arbiter's decision."""
    RESIGNATION = "resignation"
    """认输 (4.1.9); in Go 中盘胜."""
    TIME_FORFEIT = "time_forfeit"
    """超时 (4.1.4, 22); Go 读秒超时."""
    LATE_ARRIVAL = "late_arrival"
    """Beyond the late-arrival limit (4.1.5, 21)."""
    FOULS = "fouls"
    """Too many fouls in one game (三次犯规, 4.1.8)."""
    MISCONDUCT = "misconduct"
    """Refusing the rules or serious misconduct (4.1.10), by the arbiter."""
    SCORE = "score"
    """Go: decided by counting."""
    TWO_WARNINGS = "two_warnings"
    """Go: two warnings in one game (12(2))."""
    MOVED_TWICE = "moved_twice"
    """Go: moving twice in a row (8(1))."""
    CYCLE = "cycle"
    """Go: an unbreakable cycle (三劫循环, 长生 ..., 11(3))."""
    ADJUDICATION = "adjudication"
    """Any other decision of the arbiter (e.g. Go 8(3), 8(4), 12(1))."""


# (Chinese, English) templates: {w} winner, {l} loser (WIN); no fields otherwise.
_TEXT: dict[Reason, tuple[str, str]] = {
    Reason.CHECKMATE: ("{l}被将死，{w}胜。", "{l} is checkmated; {w} wins."),
    Reason.STALEMATE: ("{l}被困毙，{w}胜。", "{l} has no legal move (stalemate); {w} wins."),
    Reason.FACING_GENERALS: (
        "{l}走棋后形成帅将对面，{w}胜。",
        "{l}'s move left the generals facing each other; {w} wins.",
    ),
    Reason.ILLEGAL_MOVE: ("{l}走棋违反行棋规定，{w}胜。", "{l} made an illegal move; {w} wins."),
    Reason.PERPETUAL_CHECK: ("{l}单方面长将，判负，{w}胜。", "{l} checked perpetually; {w} wins."),
    Reason.FORBIDDEN_REPETITION: (
        "{l}走棋违反禁例，应变着而不变，{w}胜。",
        "{l} repeated a forbidden cycle instead of changing; {w} wins.",
    ),
    Reason.REPETITION: ("双方循环反复，不变作和。", "The position repeated; draw under the repetition rules."),
    Reason.NATURAL_LIMIT: ("符合自然限着规定，和棋。", "Draw by the natural move limit."),
    Reason.AGREEMENT: ("双方同意作和。", "Draw agreed."),
    Reason.NO_WIN_POSSIBLE: ("双方均无可能取胜，裁判判和。", "Neither side can win; the arbiter declares a draw."),
    Reason.RESIGNATION: ("{l}认输，{w}胜。", "{l} resigned; {w} wins."),
    Reason.TIME_FORFEIT: ("{l}超时判负，{w}胜。", "{l} lost on time; {w} wins."),
    Reason.LATE_ARRIVAL: ("{l}迟到超过规定时限，判负，{w}胜。", "{l} arrived too late; {w} wins."),
    Reason.FOULS: ("{l}在同一棋局中犯规次数达到限制，判负，{w}胜。", "{l} reached the foul limit; {w} wins."),
    Reason.MISCONDUCT: ("{l}严重违反纪律，判负，{w}胜。", "{l} is declared lost for misconduct; {w} wins."),
    Reason.SCORE: ("{w}胜。", "{w} wins on the count."),
    Reason.TWO_WARNINGS: ("{l}在一局棋里被警告满二次，判负，{w}胜。", "{l} received two warnings; {w} wins."),
    Reason.MOVED_TWICE: ("{l}连走二步，判负，{w}胜。", "{l} moved twice in a row; {w} wins."),
    Reason.CYCLE: ("出现双方互不相让的循环，", "An unbreakable cycle arose; "),
    Reason.ADJUDICATION: ("裁判裁定：", "The arbiter rules: "),
}

_OUTCOME_TEXT: dict[Outcome, tuple[str, str]] = {
    Outcome.DRAW: ("和棋。", "draw."),
    Outcome.NO_RESULT: ("无胜负，重下。", "no result; the game is replayed."),
    Outcome.DOUBLE_FORFEIT: ("判双方弃权。", "both sides forfeit."),
}


def format_fraction(value: Fraction) -> str:
    """Return ``value`` the way players write margins: ``3/4``, ``2又1/4``, ``6``.

    >>> format_fraction(Fraction(9, 4))
    '2又1/4'
    """
    whole = value.numerator // value.denominator
    rest = value - whole
    if rest == 0:
        return str(whole)
    if whole == 0:
        return f"{rest.numerator}/{rest.denominator}"
    return f"{whole}又{rest.numerator}/{rest.denominator}"


def _decimal(value: Fraction) -> str:
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text


@dataclass(frozen=True)
class Result:
    """How a game ended.

    ``outcome`` says win / draw / no result / double forfeit; ``winner`` is
    the winning :class:`Side` for a win and ``None`` otherwise.  ``reason``,
    ``clause`` and the two explanations are always present.  Go results
    decided by counting carry ``margin`` (exact) in ``unit`` (``"子"`` for
    area counting, ``"目"`` for territory counting).
    """

    kind: GameKind
    outcome: Outcome
    winner: Side | None
    reason: Reason
    clause: str
    explanation_zh: str
    explanation_en: str
    margin: Fraction | None = None
    unit: str | None = None

    @property
    def loser(self) -> Side | None:
        """Return the losing side of a win, else ``None``."""
        return self.winner.other if self.winner is not None else None

    @property
    def is_draw(self) -> bool:
        """Return whether the game is drawn."""
        return self.outcome is Outcome.DRAW

    @classmethod
    def win(
        cls,
        kind: GameKind,
        winner: Side,
        reason: Reason,
        clause: str,
        detail_zh: str = "",
        detail_en: str = "",
        margin: Fraction | None = None,
        unit: str | None = None,
    ) -> Result:
        """Return a win for ``winner``; ``detail_*`` is appended to the text.

        Raises :class:`ValueError` if ``clause`` is empty.
        """
        zh, en = _TEXT[reason]
        names = {"w": winner.name_zh(kind), "l": winner.other.name_zh(kind)}
        names_en = {"w": winner.name_en(kind), "l": winner.other.name_en(kind)}
        text_zh = zh.format(**names) if "{" in zh else zh + f"{names['w']}胜。"
        text_en = en.format(**names_en) if "{" in en else en + f"{names_en['w']} wins."
        if margin is not None and unit is not None:
            text_zh = text_zh.rstrip("。") + f"{format_fraction(margin)}{unit}。"
            text_en = text_en.rstrip(".") + f" by {_decimal(margin)} {_UNIT_EN[unit]}."
        return cls._make(kind, Outcome.WIN, winner, reason, clause, text_zh, text_en,
                         detail_zh, detail_en, margin, unit)

    @classmethod
    def ended(
        cls,
        kind: GameKind,
        outcome: Outcome,
        reason: Reason,
        clause: str,
        detail_zh: str = "",
        detail_en: str = "",
    ) -> Result:
        """Return a draw, a no-result or a double forfeit.

        Raises :class:`ValueError` if ``outcome`` is :attr:`Outcome.WIN` or
        ``clause`` is empty.
        """
        if outcome is Outcome.WIN:
            raise ValueError("use Result.win for a win")
        zh, en = _TEXT[reason]
        ozh, oen = _OUTCOME_TEXT[outcome]
        if "{" in zh:
            zh, en = "终局计算：" + ozh, "Counted: " + oen
        elif reason in (Reason.CYCLE, Reason.ADJUDICATION):
            zh, en = zh + ozh, en + oen
        elif outcome is not Outcome.DRAW:
            zh, en = zh + ozh, en + " " + oen[0].upper() + oen[1:]
        return cls._make(kind, outcome, None, reason, clause, zh, en, detail_zh, detail_en, None, None)

    @classmethod
    def _make(
        cls,
        kind: GameKind,
        outcome: Outcome,
        winner: Side | None,
        reason: Reason,
        clause: str,
        zh: str,
        en: str,
        detail_zh: str,
        detail_en: str,
        margin: Fraction | None,
        unit: str | None,
    ) -> Result:
        if not clause:
            raise ValueError(f"a {reason.value} result needs the clause it rests on")
        if detail_zh:
            zh = f"{zh}（{detail_zh}）"
        if detail_en:
            en = f"{en} ({detail_en})"
        return cls(kind, outcome, winner, reason, clause, f"{zh}［{clause}］", f"{en} [{clause}]",
                   margin, unit)

    @property
    def pgn_result(self) -> str:
        """Return the PGN result tag: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``
        (no result and double forfeit)."""
        if self.outcome is Outcome.WIN:
            return "1-0" if self.winner is Side.FIRST else "0-1"
        if self.outcome is Outcome.DRAW:
            return "1/2-1/2"
        return "*"

    @property
    def sgf_result(self) -> str:
        """Return the SGF ``RE`` value: ``B+R``, ``W+T``, ``B+1.5``, ``W+F``,
        ``0`` (draw) or ``Void``.

        Margins are in points (目): area margins in 子 are doubled.
        """
        if self.outcome is Outcome.DRAW:
            return "0"
        if self.outcome is not Outcome.WIN or self.winner is None:
            return "Void"
        letter = "B" if self.winner is Side.FIRST else "W"
        if self.reason is Reason.RESIGNATION:
            return f"{letter}+R"
        if self.reason is Reason.TIME_FORFEIT:
            return f"{letter}+T"
        if self.reason is Reason.SCORE and self.margin is not None:
            points = self.margin * 2 if self.unit == "子" else self.margin
            return f"{letter}+{_decimal(points)}"
        return f"{letter}+F"


_UNIT_EN = {"子": "stones", "目": "points"}
