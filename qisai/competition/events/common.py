"""Shared parts of the event models: the entry list, board slots, forfeits
of absent sides (21.3, 21.4)."""

from __future__ import annotations

from dataclasses import dataclass

from qisai.competition.errors import CompetitionError, EventStateError
from qisai.competition.model import Result
from qisai.competition.tournament import Player

KNOCKOUT_SERIES = ("single", "two_games", "best_of_three", "league_2021")
"""How a knock-out match is played out (see :class:`SeriesFormat`).  In the
2021 league format the deciding game waits for the colour choice of the
rapid game's Black (:meth:`KnockoutEvent.choose_colour`)."""


def match_key(round_no: int, index: int) -> str:
    """Return the key ``"round:index"`` a match's state is stored under."""
    return f"{round_no}:{index}"


def forfeit_against(red_gone: bool, black_gone: bool) -> Result:
    """The forfeit result of a match or game one or both of whose sides are
    absent (21.4 ``+--`` / ``--+``, 21.3 ``---``)."""
    if red_gone and black_gone:
        return Result.DOUBLE_FORFEIT
    return Result.BLACK_FORFEIT_WIN if red_gone else Result.RED_FORFEIT_WIN


@dataclass(frozen=True, slots=True)
class BoardSlot:
    """A game to be played: who has Red and Black (entry numbers) and where
    it belongs in the event (``key``: ``[round, match, game]`` for
    knock-outs, ``[round, group, board]`` for group events); ``kind`` is a
    series game's kind (``game``, ``extra``, ``slow``, ``rapid``,
    ``decider``)."""

    key: tuple[int, int, int]
    red: int
    black: int
    kind: str = "game"


class EntryList:
    """The entry list of an event that draws its numbers at the start:
    entries come and go freely until then (20.2); ``started`` says when."""

    name: str
    players: list[Player]

    @property
    def started(self) -> bool:
        raise NotImplementedError

    def add_player(self, player: Player) -> Player:
        """Register ``player``.  Raises :class:`CompetitionError` after the
        start or for a duplicate name."""
        if self.started:
            raise EventStateError(f"{self.name}：比赛已开始，报名已截止",
                                  f"{self.name}: entries are closed once the event started")
        if any(p.name == player.name for p in self.players):
            raise CompetitionError(f"{self.name}：参赛者 {player.name!r} 重复",
                                   f"{self.name}: duplicate entry {player.name!r}")
        self.players.append(player)
        return player

    def remove_player(self, name: str) -> None:
        """Withdraw before the start (20.2).  Raises :class:`CompetitionError`."""
        if self.started:
            raise EventStateError(f"{self.name}：比赛已开始；请改为退赛",
                                  f"{self.name}: the event has started; withdraw instead")
        before = len(self.players)
        self.players = [p for p in self.players if p.name != name]
        if len(self.players) == before:
            raise CompetitionError(f"{self.name}：没有名为 {name!r} 的参赛者",
                                   f"{self.name}: no entry named {name!r}")


