"""Core values of the competition layer: colours, results, games.

This layer knows nothing of the rules of play; a game is two entry numbers,
a colour for each and a result.  Entry numbers are the pairing numbers
(编号) of the event, 1-based.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Colour(enum.Enum):
    """Side of a game: 红 (Red, moves first; Black in Go is the first mover
    but the layer only needs "first-listed" and "second-listed")."""

    RED = "red"
    BLACK = "black"

    @property
    def other(self) -> Colour:
        """Return the opposite colour."""
        return Colour.BLACK if self is Colour.RED else Colour.RED


class Outcome(enum.Enum):
    """Result of a game seen from one side."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"  # 21.4: '+', won without play
    FORFEIT_LOSS = "forfeit_loss"  # 21.4: '-', lost without play
    BYE = "bye"  # 轮空: pairing-allocated bye, scored as a win (14.4 of 2011)
    ABSENT = "absent"  # not paired (withdrawn, zero-point)


class Result(enum.Enum):
    """Result of one game, written from Red's side.

    The string values are what files and the CLI use.
    """

    RED_WIN = "1-0"
    DRAW = "=-="
    BLACK_WIN = "0-1"
    RED_FORFEIT_WIN = "+--"  # 21.4: Black absent
    BLACK_FORFEIT_WIN = "--+"  # 21.4: Red absent
    DOUBLE_FORFEIT = "---"  # 21.3: both beyond the late limit, both forfeit
    BYE = "bye"  # Red holds the bye, no opponent

    @classmethod
    def parse(cls, text: str) -> Result:
        """Parse a result as typed by a user.

        Accepts the enum values and the common spellings ``1-0``, ``0-1``,
        ``1/2``, ``=``, ``draw``, ``+-``, ``-+``, ``--``, ``bye``.
        Raises :class:`qisai.competition.errors.ResultError` otherwise.
        """
        from qisai.competition.errors import ResultError

        key = text.strip().lower().replace(" ", "")
        table = {
            "1-0": cls.RED_WIN, "1:0": cls.RED_WIN, "red": cls.RED_WIN, "r": cls.RED_WIN,
            "0-1": cls.BLACK_WIN, "0:1": cls.BLACK_WIN, "black": cls.BLACK_WIN, "b": cls.BLACK_WIN,
            "=-=": cls.DRAW, "=": cls.DRAW, "1/2": cls.DRAW, "1/2-1/2": cls.DRAW,
            "draw": cls.DRAW, "d": cls.DRAW, "和": cls.DRAW,
            "+--": cls.RED_FORFEIT_WIN, "+-": cls.RED_FORFEIT_WIN, "+:-": cls.RED_FORFEIT_WIN,
            "--+": cls.BLACK_FORFEIT_WIN, "-+": cls.BLACK_FORFEIT_WIN, "-:+": cls.BLACK_FORFEIT_WIN,
            "---": cls.DOUBLE_FORFEIT, "--": cls.DOUBLE_FORFEIT, "-:-": cls.DOUBLE_FORFEIT,
            "bye": cls.BYE,
        }
        try:
            return table[key]
        except KeyError:
            raise ResultError(
                f"未知成绩 {text!r}；请用 1-0、0-1、=、+-、-+、-- 或 bye",
                f"unknown result {text!r}; use 1-0, 0-1, =, +-, -+, -- or bye"
            ) from None

    def outcome(self, colour: Colour) -> Outcome:
        """Return the outcome for the player of ``colour``."""
        # one lookup: a table built once (below the class), not a dict a call;
        # a 2,000-entry, 50-round crosstable asks 200,000 times
        red, black = _SIDES[self]
        return red if colour is Colour.RED else black

    @property
    def played(self) -> bool:
        """True when the game was actually played over the board."""
        return self in (Result.RED_WIN, Result.DRAW, Result.BLACK_WIN)

    @classmethod
    def from_outcome(cls, red_outcome: Outcome) -> Result:
        """Return the result whose Red outcome is ``red_outcome`` (played
        games and single forfeits only)."""
        for r in (cls.RED_WIN, cls.DRAW, cls.BLACK_WIN, cls.RED_FORFEIT_WIN,
                  cls.BLACK_FORFEIT_WIN):
            if r.outcome(Colour.RED) is red_outcome:
                return r
        from qisai.competition.errors import ResultError

        raise ResultError(f"没有红方结果为 {red_outcome.value} 的单一成绩",
                          f"no single result has Red outcome {red_outcome.value}")


_SIDES: dict[Result, tuple[Outcome, Outcome]] = {
    Result.RED_WIN: (Outcome.WIN, Outcome.LOSS),
    Result.DRAW: (Outcome.DRAW, Outcome.DRAW),
    Result.BLACK_WIN: (Outcome.LOSS, Outcome.WIN),
    Result.RED_FORFEIT_WIN: (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    Result.BLACK_FORFEIT_WIN: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    Result.DOUBLE_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS),
    Result.BYE: (Outcome.BYE, Outcome.ABSENT),  # Red holds the bye; no Black
}
"""Each result's outcome for (Red, Black)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: ``red`` plays ``black``; ``black`` is None for
    the bye (轮空)."""

    red: int
    black: int | None
    board: int = 0

    @property
    def is_bye(self) -> bool:
        """True for the bye."""
        return self.black is None

    def players(self) -> tuple[int, ...]:
        """Return the one or two entry numbers on this board."""
        return (self.red,) if self.black is None else (self.red, self.black)


@dataclass(frozen=True, slots=True)
class Game:
    """A finished (or forfeited) game: round number, entry numbers, result,
    and fouls (犯规) of each side as reported by the referee."""

    round: int
    red: int
    black: int | None
    result: Result
    red_fouls: int = 0
    black_fouls: int = 0

    def colour_of(self, player: int) -> Colour:
        """Return the colour ``player`` had. Raises ValueError if absent."""
        if player == self.red:
            return Colour.RED
        if player == self.black:
            return Colour.BLACK
        raise ValueError(f"player {player} is not in the round {self.round} game "
                         f"{self.red}-{self.black}")

    def opponent_of(self, player: int) -> int | None:
        """Return the opponent of ``player`` (None for the bye)."""
        return self.black if player == self.red else self.red

    def outcome_of(self, player: int) -> Outcome:
        """Return the outcome for ``player``."""
        return self.result.outcome(self.colour_of(player))

    def fouls_of(self, player: int) -> int:
        """Return the fouls recorded against ``player`` in this game."""
        return self.red_fouls if self.colour_of(player) is Colour.RED else self.black_fouls
