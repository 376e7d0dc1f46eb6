"""What the events API reads: the bodies of its requests."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "BoardColourChoice", "BoardResult", "ColourChoice", "Decision", "Forfeit", "Lineups", "NewEntry", "NewTeam",
    "NewTournament", "Withdrawal"
]


class NewTournament(BaseModel):
    """An event to create."""

    name: str = Field(min_length=1, max_length=200)
    kind: Literal["xiangqi", "go"] = "xiangqi"
    system: Literal["round_robin", "double_round_robin", "swiss", "mcmahon", "knockout",
                    "double_knockout", "team_round_robin", "team_swiss",
                    "group_round_robin"] = "round_robin"
    rounds: int | None = Field(default=None, ge=1, le=50)
    """Rounds of a Swiss or McMahon (required) or a round robin (default:
    the table)."""
    ruleset: str | None = Field(default=None, max_length=32)
    time: dict[str, Any] | None = None
    times: dict[Literal["game", "extra", "slow", "rapid", "decider"], dict[str, Any] | str] | None \
        = None
    """Knock-out: a time control per kind of series game, instead of
    ``time`` for those games (the 2021 league's slow, rapid and deciding
    games; a best-of-three's extra game).  Team events in the 2021 league
    format: the ``slow``, ``rapid`` and ``decider`` games' time controls as
    the command line writes them (``1200``, ``40/600:30/300``), strings."""
    online: bool = True
    """Create server games for boards whose two players have accounts."""
    publish: Literal["auto", "manual"] = "auto"
    """``auto``: pairings are public as soon as made; ``manual``: the
    organiser publishes each round (and may set team line-ups before)."""
    series: Literal["single", "two_games", "best_of_three", "league_2021"] = "two_games"
    """Knock-out: how a match is played out (13.5 two games; 三局两胜; the
    2021 league: slow, rapid with colours swapped, a decider whose colours
    the rapid game's Black chooses).  Team events: ``league_2021`` plays
    every board so (001); anything else is one game a board."""
    decider_drawn: Literal["lot", "black"] = "lot"
    """2021 league: a drawn deciding game settled by lot, or won by its
    Black (001 does not say)."""
    draw: Literal["bracket", "cards"] = "bracket"
    """Knock-out: seeded bracket, or a card draw each round (local rules 9)."""
    byes: Literal["seeded", "lot"] = "seeded"
    """Knock-out bracket: byes to the top seeds or by lot."""
    seeding: Literal["rating", "order", "lot"] = "rating"
    """Knock-out: seed by rating, as registered, or by lot."""
    boards: int = Field(default=4, ge=1, le=12)
    """Team events: boards per match."""
    lineup_mode: Literal["fixed", "substitutes", "free"] = "substitutes"
    """Team events: 12.1 分台定人制, 12.2 分台换人制, 12.3 临时定台制."""
    groups: int = Field(default=2, ge=2, le=32)
    """Group round robin: the number of groups (11.3)."""
    grouping: Literal["snake", "lot"] = "snake"
    """Group round robin: seeded by rating and snaked, or snaked by lot."""
    advance: int = Field(default=2, ge=1, le=16)
    """Group round robin: entries of each group that go on to the final."""
    final: Literal["round_robin", "none"] = "round_robin"
    """Group round robin: a final round robin of the qualifiers, or none."""
    bar: str = Field(default="3d", max_length=8)
    """McMahon: the bar (ranks at or above it start equal)."""
    floor: str = Field(default="20k", max_length=8)
    """McMahon: the floor (ranks at or below it start at 0)."""
    start_by: Literal["rank", "rating"] = "rank"
    """McMahon: starting scores from the registered Go rank or from the
    rating (the EGF scale: 2100 is 1 dan, 100 points a grade)."""


class NewEntry(BaseModel):
    """A player to register: a name, or an account (``username``)."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    username: str | None = Field(default=None, max_length=40)
    rating: int = Field(default=0, ge=0, le=4000)
    rank: str | None = Field(default=None, max_length=8)
    """McMahon events: the Go rank (``3d``, ``5k``, ``2段``, ``10级``)."""


class NewTeam(BaseModel):
    """A team to register: its name and its members in board order (first
    the boards, then the reserves)."""

    name: str = Field(min_length=1, max_length=200)
    members: list[NewEntry] = Field(min_length=1, max_length=30)


class BoardResult(BaseModel):
    """A result as the competition layer reads it (``1-0``, ``0-1``, ``=``,
    ``+-``, ``-+``, ``--``), the fouls of each side (犯规, counted by the
    tie-breaks) and, for a correction, the reason."""

    result: str = Field(min_length=1, max_length=8)
    reason: str | None = Field(default=None, max_length=500)
    red_fouls: int = Field(default=0, ge=0, le=99)
    black_fouls: int = Field(default=0, ge=0, le=99)


class Decision(BaseModel):
    """An arbiter's decision of a knock-out match: the winner's entry number
    (``None`` takes a decision back) and why."""

    winner: int | None
    reason: str = Field(min_length=1, max_length=500)


class Forfeit(BaseModel):
    """A team match forfeited (21.4): ``+--``, ``--+`` or ``---``, and why."""

    result: str = Field(min_length=1, max_length=8)
    reason: str = Field(min_length=1, max_length=500)


class Lineups(BaseModel):
    """Both line-ups of a team match, board 1 first."""

    red: list[str] = Field(min_length=1, max_length=12)
    black: list[str] = Field(min_length=1, max_length=12)


class ColourChoice(BaseModel):
    """The colour choice of a 2021-league deciding game: the entry number
    that will have Red."""

    red: int


class BoardColourChoice(BaseModel):
    """The colour choice of a team board's 2021-league deciding game: the
    player (by name) who will have Red."""

    red: str = Field(min_length=1, max_length=200)


class Withdrawal(BaseModel):
    """An entry (player or team, by name) withdrawing (20.2-20.4), and why."""

    name: str = Field(min_length=1, max_length=200)
    reason: str = Field(min_length=1, max_length=500)
