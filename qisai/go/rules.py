"""Go rule settings as data (KataGo-style: fields, not names).

The referee builds its rule profiles from these values; the board and the
counting code only ever ask the fields.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from fractions import Fraction

from qisai.bilingual import BilingualError


class Color(enum.IntEnum):
    """A player's colour: 黑 Black moves first, 白 White second."""

    BLACK = 1
    WHITE = 2

    @property
    def opponent(self) -> Color:
        """Return the other colour."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """Return ``"B"`` or ``"W"`` (SGF and GTP spelling)."""
        return "B" if self is Color.BLACK else "W"

    @property
    def chinese(self) -> str:
        """Return ``"黑"`` or ``"白"``."""
        return "黑" if self is Color.BLACK else "白"

    @classmethod
    def from_letter(cls, letter: str) -> Color:
        """Return the colour named ``B``/``W`` (also ``black``/``white``).

        Raises :class:`ValueError` for anything else.
        """
        text = letter.strip().lower()
        if text in ("b", "black"):
            return cls.BLACK
        if text in ("w", "white"):
            return cls.WHITE
        raise BilingualError(f"{letter!r} 不是棋色（B 或 W）",
                             f"{letter!r} is not a colour (B or W)")


class KoRule(enum.Enum):
    """How whole-board repetition is forbidden (打劫 / 禁止全局同形再现)."""

    SIMPLE = "simple"
    """Only the immediate recapture of a single-stone ko is forbidden (11(1));
    longer cycles are allowed and reported by ``Board.repetitions`` so the
    referee can rule a draw or a replay (11(3))."""
    POSITIONAL = "positional"
    """No move may recreate an earlier whole-board position (禁止全局同形再现)."""
    SITUATIONAL = "situational"
    """No move may recreate an earlier position with the same player to move."""


class Scoring(enum.Enum):
    """How the game is counted."""

    AREA = "area"
    """数子法: stones plus surrounded points (Chinese rules), result in 子."""
    TERRITORY = "territory"
    """数目法: surrounded points plus prisoners (Japanese/Korean), result in 目."""


@dataclass(frozen=True)
class Rules:
    """One rule set for a game of Go.

    ``komi`` is always in points (目); 3¾ stones (子) are 7.5 points since one
    stone is two points.  ``handicap_komi`` is the komi of a handicap game
    (胜负判别 2: 让先不贴目 — none under the Chinese rules; the Japanese text
    gives none either).  ``handicap_giveback`` is how many *points* Black
    gives back per handicap stone in area counting (Chinese rules: half a
    stone, that is 1 point, per stone: 让子要贴还让子数的一半).
    """

    name: str = "chinese"
    ko: KoRule = KoRule.POSITIONAL
    suicide_allowed: bool = False
    scoring: Scoring = Scoring.AREA
    komi: Fraction = Fraction(15, 2)
    handicap_giveback: Fraction = Fraction(1)
    handicap_komi: Fraction = Fraction(0)
    handicap_giveback_free: int = 0
    """How many handicap stones are given back nothing for: the give-back is
    ``handicap_giveback`` points per stone after the first
    ``handicap_giveback_free`` (AGA: 1, "N-1" points; Chinese: 0)."""
    teire_counted: bool = True
    """Territory counting only (补棋): the points an owner must still fill
    before the count (:func:`qisai.go.scoring.find_fill_points`) are nobody's
    territory (Japanese rules, GNU Go).  False: every point enclosed by one
    colour is its territory in the main phase (KataGo's territory rules)."""
    tie_winner: Color | None = None
    """Who wins an equal count: None is a draw (和棋); the Ing rules give
    ties to Black (贴8点，同点黑胜)."""
    pass_stone: bool = False
    """A pass hands the opponent one prisoner (AGA: "pass stones"), so
    territory and area counts give the same margin."""
    white_passes_last: bool = False
    """The game ends on two passes in a row of which White's is the last
    (AGA, so both sides have passed the same number of times)."""

    def with_komi(self, komi: Fraction | float | int | str) -> Rules:
        """Return a copy of these rules with ``komi`` points of komi, in even
        and handicap games alike (an explicit komi is never dropped).

        Raises :class:`ValueError` if ``komi`` is not a number.
        """
        value = Fraction(str(komi)) if isinstance(komi, float) else Fraction(komi)
        return replace(self, komi=value, handicap_komi=value)

    def komi_for(self, handicap: int) -> Fraction:
        """Return the komi in points of a game with ``handicap`` stones:
        ``komi`` in an even game (0), ``handicap_komi`` when Black has
        stones or moves first without komi (1 = 让先, 2-9 = 让子; 胜负判别 2).
        """
        return self.handicap_komi if handicap > 0 else self.komi


CHINESE = Rules()
"""Chinese rules: area counting, komi 3¾ stones (7.5 points), positional
superko, no suicide, give-back of half a stone per handicap stone."""

JAPANESE = Rules(
    name="japanese",
    ko=KoRule.SIMPLE,
    scoring=Scoring.TERRITORY,
    komi=Fraction(13, 2),
    handicap_giveback=Fraction(0),
)
"""Japanese/Korean rules: territory counting (数目), komi 6.5 points; teire
(补棋) points are nobody's territory (``teire_counted``, as GNU Go counts).
The referee's ``japanese`` and ``korean`` profiles use this preset; its
``chinese`` profile uses :data:`CHINESE` (area counting: teire costs nothing)."""

TROMP_TAYLOR = Rules(
    name="tromp-taylor",
    ko=KoRule.POSITIONAL,
    suicide_allowed=True,
    scoring=Scoring.AREA,
    komi=Fraction(15, 2),
    handicap_giveback=Fraction(0),
)
"""Tromp-Taylor rules (J. Tromp and B. Taylor): area counting (a player's
score is the points of its colour plus the empty points that reach only its
colour; no dead stones are removed: the game is played out), positional
superko (a move may not recreate an earlier board position), suicide
allowed, the game ends after two consecutive passes.  KataGo's
``tromp-taylor`` preset: the same, komi 7.5."""

KATAGO_TERRITORY = Rules(
    name="katago-territory",
    ko=KoRule.SIMPLE,
    scoring=Scoring.TERRITORY,
    komi=Fraction(13, 2),
    handicap_giveback=Fraction(0),
    teire_counted=False,
)
"""KataGo's territory rules (its ``japanese`` preset: simple ko, territory
scoring, seki eyes count for nobody), with every enclosed point territory
in the main phase: no 补棋 deduction (``teire_counted=False``)."""

ING = Rules(
    name="ing",
    ko=KoRule.POSITIONAL,
    suicide_allowed=True,
    scoring=Scoring.AREA,
    komi=Fraction(8),
    handicap_giveback=Fraction(0),
    tie_winner=Color.BLACK,
)
"""Ing rules (应氏围棋规则, 计点制; Ing's Goe Rules 1996, tr. S. Yuan):
"stones and spaces are both territory; fill in all stones to count points"
(area counting by filling; a neutral point that cannot be filled is shared
half and half), komi 8 points with ties to Black (贴8点，同点黑胜), moves
"unrestricted except for invariation" (suicide of one or more stones
allowed), its own ko rules for cycles (劫: a whole-board repetition
is not allowed; the Ing text sorts cycles by kind, which no field here
holds: approximated by positional superko, as KataGo's ``ing``/``goe``
preset does, which is Tromp-Taylor-like: area, positional superko,
suicide allowed).  No handicap give-back (KataGo: none)."""

AGA = Rules(
    name="aga",
    ko=KoRule.SITUATIONAL,
    suicide_allowed=False,
    scoring=Scoring.AREA,
    komi=Fraction(15, 2),
    handicap_giveback=Fraction(1),
    handicap_giveback_free=1,
    handicap_komi=Fraction(1, 2),
    pass_stone=True,
    white_passes_last=True,
)
"""AGA Rules of Go (AGA Concise Rules, 1991; komi raised to 7.5 in 2004):
area counting, or territory counting with pass stones, which give the same
margin (rule 12); a pass hands the opponent one stone as a prisoner and
White passes last (rule 7); no move may repeat the board position with the
same player to move (situational superko, rule 6); suicide is illegal
(rule 5); komi 7.5 in even games, ½ point in handicap games (rule 3); under
area counting White gets one point for each handicap stone after the first
(rule 4: N-1 points, ``handicap_giveback`` 1 with ``handicap_giveback_free``
1).  KataGo's ``aga`` preset has the same ko, suicide, scoring, komi and
N-1 bonus."""

PRESETS = {r.name: r for r in (CHINESE, JAPANESE, TROMP_TAYLOR, KATAGO_TERRITORY, ING, AGA)}
"""The named presets, by name."""
