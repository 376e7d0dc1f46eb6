"""Match formats between two entries: one game, two games, best of three,
and the 2021 league format.

* Game 1's colours come from the pairing: entry ``a`` is the pairing's Red
  (the red card holder of the 000 card draw, clause 9; the board colour of a
  team match, 13.2/13.3; the table's first-listed entry) -- except where the
  rules say lot: 13.5 两局制 "第一局猜先".  ``first_colours`` overrides.
* Two games (两局制, 13.5): the first game's colours by lot (猜先), the second
  with colours swapped; the points decide.
* Best of three (三局两胜, local rules clause 6 of 000): up to three games,
  colours of game 1 from the pairing, then alternating; decided as soon as
  one side cannot be caught.  A level series is settled as the organiser
  chose ("双方选择加赛一局或以抽签方式分出胜负", ``tied``): an extra game
  ("加赛一局", then a lot if that is drawn too) or the lot at once.
* 2021 league (001): a slow game; if drawn, a rapid game with colours
  swapped; if drawn again, a deciding game in which the rapid game's Black
  chooses the colour.  The source does not say what a drawn decider gives
  (``decider_drawn``).  The reading chosen by default is ``"lot"``: the
  series is settled by lot (抽签, as 000 clause 6 settles a level series)
  and the explanation says so.  The other reading, ``"black"``, treats the
  decider as an armageddon game: a draw counts as a win for the side with
  Black -- the only reading under which the choice of colours the source
  gives the rapid game's Black is worth making.

A :class:`Series` is a small state machine: ask :meth:`Series.next_game`,
play it, :meth:`Series.record` the result, until :attr:`Series.decided`.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field

from qisai.competition.errors import EventStateError, ResultError
from qisai.competition.model import Colour, Outcome, Result
from qisai.competition.scoring import ScoringTable


class SeriesFormat(enum.Enum):
    """How a pairing is played out."""

    SINGLE = "single"
    TWO_GAMES = "two_games"  # 13.5
    BEST_OF_THREE = "best_of_three"  # 三局两胜
    LEAGUE_2021 = "league_2021"  # 慢棋 → 超快棋 → 附加赛


DECIDER_DRAWN = ("lot", "black")
"""The readings of a drawn 2021-league deciding game (001 does not say):
``lot`` (抽签, the default) or ``black`` (an armageddon game: Black goes through)."""


@dataclass(frozen=True, slots=True)
class SeriesGame:
    """One game to play: its kind (``game``, ``extra``, ``slow``, ``rapid``,
    ``decider``) and who has Red."""

    number: int
    kind: str
    red: int
    black: int


_POINTS = {Outcome.WIN: 1.0, Outcome.FORFEIT_WIN: 1.0, Outcome.DRAW: 0.5}


@dataclass(slots=True)
class Series:
    """A series between entries ``a`` and ``b``.

    ``decide_ties``: for :attr:`SeriesFormat.TWO_GAMES`, whether a level
    series goes on to an extra game and a lot (knock-out) or stays drawn
    (round robin).
    ``first_colours``: ``"pairing"`` (``a`` has Red in game 1), ``"lot"``
    (猜先), or None for the format's rule: lot for two games (13.5), the
    pairing otherwise (000 clause 9 card, 13.2 board colours).
    ``tied``: how a level best-of-three (or a two-game series with
    ``decide_ties``) is settled (000 clause 6): ``"extra_game"`` (加赛一局,
    then 抽签 if drawn) or ``"lot"`` (抽签 at once).
    ``scoring``: the points of a game (default 1/0.5/0); the rule profile's
    table (e.g. cxa-2007: win 3, loss 0, draw 1 to Red and 2 to Black) when
    the event plays under one.
    ``decider_drawn``: 2021 league, what a drawn deciding game gives (001
    does not say): ``"lot"`` (抽签, the default reading) or ``"black"``
    (the decider's Black goes through, an armageddon game).

    Raises :class:`EventStateError` for equal entries or an unknown option.
    """

    a: int
    b: int
    format: SeriesFormat = SeriesFormat.SINGLE
    seed: int = 0
    decide_ties: bool = True
    first_colours: str | None = None
    tied: str = "extra_game"
    scoring: ScoringTable | None = None
    decider_drawn: str = "lot"
    games: list[tuple[SeriesGame, Result]] = field(default_factory=list)
    winner: int | None = None
    decided: bool = False
    how: str = ""
    _pending: SeriesGame | None = field(default=None, init=False, repr=False)
    _rng: random.Random = field(default_factory=random.Random, init=False, repr=False)
    _first_red: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise EventStateError(f"对局系列须有两名不同的参赛者，{self.a} 出现两次",
                                  f"a series needs two different entries, got {self.a} twice")
        if self.first_colours not in (None, "pairing", "lot"):
            raise EventStateError(
                f"first_colours 须为 'pairing'（按编排）或 'lot'（抽签），不是 {self.first_colours!r}",
                f"first_colours must be 'pairing' or 'lot', not {self.first_colours!r}")
        if self.decider_drawn not in DECIDER_DRAWN:
            raise EventStateError(f"decider_drawn 须为 {', '.join(DECIDER_DRAWN)} 之一，不是 {self.decider_drawn!r}",
                                  f"decider_drawn must be one of {', '.join(DECIDER_DRAWN)}, "
                                  f"not {self.decider_drawn!r}")
        if self.tied not in ("extra_game", "lot"):
            raise EventStateError(f"tied 须为 'extra_game'（加赛）或 'lot'（抽签），不是 {self.tied!r}",
                                  f"tied must be 'extra_game' or 'lot', not {self.tied!r}")
        self._rng = random.Random(f"{self.seed}:{self.a}:{self.b}")
        lot = self._rng.random() < 0.5  # drawn always, so later lots stay reproducible
        how = self.first_colours or ("lot" if self.format is SeriesFormat.TWO_GAMES
                                     else "pairing")
        if how == "lot":
            # 13.4/13.5: 猜先 — the first game's colours by lot
            self._first_red = self.a if lot else self.b
        else:
            # the pairing's colours: red card (000 clause 9), board colour (13.2)
            self._first_red = self.a

    def score(self) -> dict[int, float]:
        """Points of each side so far (1/0.5/0 per game, or by :attr:`scoring`)."""
        pts = {self.a: 0.0, self.b: 0.0}
        if self.scoring is not None:
            for g, res in self.games:
                pts[g.red] += self.scoring.points(res.outcome(Colour.RED), Colour.RED)
                pts[g.black] += self.scoring.points(res.outcome(Colour.BLACK), Colour.BLACK)
            return pts
        for g, res in self.games:
            pts[g.red] += _POINTS.get(res.outcome(Colour.RED), 0.0)
            pts[g.black] += _POINTS.get(res.outcome(Colour.BLACK), 0.0)
        return pts

    def _other(self, x: int) -> int:
        return self.b if x == self.a else self.a

    def next_game(self, chosen_red: int | None = None) -> SeriesGame | None:
        """Return the next game to play, or None once the series is decided.

        For the 2021 decider ``chosen_red`` is the entry that will have Red,
        as chosen by the rapid game's Black; it is required then.
        Raises :class:`EventStateError` if the previous game has no result
        yet or a required choice is missing or invalid.
        """
        if self.decided:
            return None
        if self._pending is not None:
            return self._pending
        n = len(self.games) + 1
        last = self.games[-1][0] if self.games else None
        if self.format is SeriesFormat.LEAGUE_2021:
            if n == 1:
                game = SeriesGame(1, "slow", self._first_red, self._other(self._first_red))
            elif n == 2:
                assert last is not None
                game = SeriesGame(2, "rapid", last.black, last.red)  # 换先
            else:
                assert last is not None
                if chosen_red not in (self.a, self.b):
                    raise EventStateError(
                        f"附加赛须由 {last.black}（超快棋执黑方）选择先后手：请给出 chosen_red",
                        f"the decider needs the colour choice of {last.black} (Black in the "
                        "rapid game): pass chosen_red")
                assert chosen_red is not None
                game = SeriesGame(3, "decider", chosen_red, self._other(chosen_red))
        else:
            kind = "extra" if (self.format is SeriesFormat.BEST_OF_THREE and n == 4) or (
                self.format is SeriesFormat.TWO_GAMES and n == 3) else "game"
            if last is None:
                red = self._first_red
            else:
                red = last.black  # colours alternate (13.5: 互换先后走)
            game = SeriesGame(n, kind, red, self._other(red))
        self._pending = game
        return game

    def record(self, result: Result) -> None:
        """Record the result of the game returned by :meth:`next_game`.

        Raises :class:`ResultError` when no game is pending or for a bye.
        """
        if self._pending is None:
            raise ResultError("这组对局没有等待成绩的一局",
                              "no game of the series is waiting for a result")
        if result is Result.BYE:
            raise ResultError("轮空不能有对局",
                              "a series game cannot be a bye")
        self.games.append((self._pending, result))
        self._pending = None
        self._settle()

    def _settle(self) -> None:
        pts = self.score()
        n = len(self.games)
        last_game = self.games[-1][0]

        def win(x: int, how: str) -> None:
            self.winner, self.decided, self.how = x, True, how

        def lead() -> int | None:
            if pts[self.a] == pts[self.b]:
                return None
            return self.a if pts[self.a] > pts[self.b] else self.b

        if self.format is SeriesFormat.SINGLE:
            self.decided = True
            self.winner = lead()
            self.how = "game" if self.winner else "drawn"
        elif self.format is SeriesFormat.LEAGUE_2021:
            if lead() is not None:
                kind = last_game.kind
                win(lead() or 0, f"{kind} game")
            elif n == 3 and self.decider_drawn == "black":
                win(last_game.black, "decider drawn: Black goes through (armageddon reading; "
                                     "001 does not say)")
            elif n == 3:
                win(self._rng.choice([self.a, self.b]),
                    "decider drawn: settled by lot (not fixed by the source text)")
        elif self.format is SeriesFormat.TWO_GAMES:
            if n == 2:
                if lead() is not None:
                    win(lead() or 0, "points over two games")
                elif not self.decide_ties:
                    self.decided, self.how = True, "drawn series"
                elif self.tied == "lot":
                    win(self._rng.choice([self.a, self.b]), "level series: lot (抽签)")
            elif n == 3:
                if lead() is not None:
                    win(lead() or 0, "extra game")
                else:
                    win(self._rng.choice([self.a, self.b]), "lot after a drawn extra game")
        else:  # best of three
            if n <= 3:
                remaining = 3 - n
                ahead = lead()
                if ahead is not None and abs(pts[self.a] - pts[self.b]) > remaining:
                    win(ahead, f"{pts[ahead]:g} points in {n} games")
                elif n == 3 and ahead is None and self.tied == "lot":
                    # 000 clause 6: the organiser chose 抽签 over 加赛一局
                    win(self._rng.choice([self.a, self.b]), "level after three games: lot (抽签)")
            elif n == 4:
                if lead() is not None:
                    win(lead() or 0, "extra game (加赛一局)")
                else:
                    win(self._rng.choice([self.a, self.b]), "lot after a drawn extra game (抽签)")
