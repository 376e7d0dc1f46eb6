"""The server games an event's own acts end.

A withdrawal (20.3, 20.4: 未赛对局均作弃权，对方获胜), a forfeited team match
(21.4), a knock-out match decided by the arbiter, or a result entered by
hand decide a board whose server game may still be in play; that game must
then end with the same ruling, so that no game of a decided board stays
``active`` with its clocks running and the loser able to move.

:func:`rulings_due` finds them (in the request's transaction, with the
event's lock held); the route then ends each with
:meth:`~qisai.web.play.hub.Hub.rule`, outside the lock.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from qisai.competition import CompetitionError, Result, Tournament
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.store.models import Game, GameStatus
from qisai.store.models import Tournament as TournamentRow
from qisai.web.events.event_json import games_by_key
from qisai.web.events.model import Event, load_event

__all__ = ["Due", "PGN", "rulings_due"]

PGN = {"1-0": "1-0", "0-1": "0-1", "=-=": "1/2-1/2", "+--": "1-0", "--+": "0-1"}
"""A board's result (a ``Result`` value, from Red's side) as the PGN result
that ends its server game; a double forfeit (``---``) ends none, as the
hub's ruling has no such outcome."""


@dataclass(frozen=True)
class Due:
    """A server game in play whose board the event has decided: end it with
    ``result`` (a PGN result)."""

    game_id: str
    result: str
    where: str
    """The board in words, for the ruling's note."""


def _board_result(ev: Event, key: tuple[int, ...]) -> str | None:
    """The result the event has for the board ``key`` (a ``Result`` value
    from the board's Red side), or ``None``."""
    try:
        if isinstance(ev, Tournament):
            r, board = key
            game = ev.rounds[r - 1].results.get(board) if 1 <= r <= len(ev.rounds) else None
            return None if game is None else game.result.value
        if isinstance(ev, GroupEvent):
            return ev.result_of(*key)
        if isinstance(ev, KnockoutEvent):
            r, index, n = key
            played = ev.games.get(f"{r}:{index}", [])
            return played[n - 1] if 1 <= n <= len(played) else None
        assert isinstance(ev, TeamEvent)
        r, match, board = key[:3]
        if ev.series == "league_2021":
            return _league_game_result(ev, key)
        return _team_board_result(ev, r, match, board)
    except (CompetitionError, IndexError, ValueError, KeyError):
        return None


def _team_board_result(ev: TeamEvent, r: int, match: int, board: int) -> str | None:
    """A team board's result from its Red side, or ``None``."""
    found: str | None = ev.matches.get(f"{r}:{match}", {}).get("results", {}).get(str(board))
    if found is not None:
        return found
    # a whole team match forfeited (21.4): the present team's player wins
    # his board; the first-listed team has Red on odd boards (13.2)
    assert ev.tt is not None
    m = next((m for m in ev.tt.rounds[r - 1] if m.board == match), None)
    if m is None or m.forfeit is None or m.forfeit is Result.DOUBLE_FORFEIT:
        return None
    first_wins = m.forfeit is Result.RED_FORFEIT_WIN
    red_wins = first_wins == (board % 2 == 1)
    return Result.RED_FORFEIT_WIN.value if red_wins else Result.BLACK_FORFEIT_WIN.value


def _league_game_result(ev: TeamEvent, key: tuple[int, ...]) -> str | None:
    """The result (from that game's Red side) a 2021-league board's game
    ``key`` (``(round, match, board)`` the slow game, ``(..., game)`` a
    later one) must end with: its own, once entered; else, the board
    decided without it (a forfeited match, 21.4), the board's winner's."""
    r, match, board = key[:3]
    number = key[3] if len(key) > 3 else 1
    games = ev.board_games(r, match, board)
    if number <= len(games):
        return str(games[number - 1]["result"])
    board_result = _team_board_result(ev, r, match, board)
    colours = ev.game_colours(r, match, board, number)
    if board_result is None or board_result not in PGN or colours is None:
        return None
    _, board_red, _ = ev.board_players(r, match)[board - 1]
    board_red_won = board_result in ("1-0", "+--")
    forfeit = board_result in ("+--", "--+")
    if board_red_won == (colours[0] == board_red):  # the game's Red won the board
        return "+--" if forfeit else "1-0"
    return "--+" if forfeit else "0-1"


def _series_winner(row: TournamentRow, ev: KnockoutEvent, key: tuple[int, ...],
                   seats: tuple[int | None, int | None]) -> str | None:
    """For a series game of a knock-out match decided without it (a
    withdrawal, 20.4, or the arbiter's decision): the PGN result that gives
    the game to the match's winner, or ``None``."""
    r, index, _ = key
    try:
        winner = ev.match(r, index).winner
    except CompetitionError:
        return None
    if winner is None:
        return None
    uid = row.settings.get("users", {}).get(ev.player(winner).name)
    if uid is None or uid not in seats:
        return None
    return "1-0" if uid == seats[0] else "0-1"


def rulings_due(s: Session, row: TournamentRow) -> list[Due]:
    """Return the event's server games still in play (or waiting for a
    player) whose board the event has decided, with the result each must
    end with.  Call with the event's lock held, after saving the act."""
    games = games_by_key(s, row)
    if not games:
        return []
    # one query for the games still in play (a few: the current round's)
    live = [GameStatus.ACTIVE.value, GameStatus.WAITING.value]
    seats = {gid: (first, second) for gid, first, second in s.execute(
        select(Game.id, Game.first_user_id, Game.second_user_id)
        .where(Game.id.in_(list(games.values())), Game.status.in_(live)))}
    if not seats:
        return []
    ev = load_event(row)
    out: list[Due] = []
    for key, gid in games.items():
        if gid not in seats:
            continue
        where = "round {} {}".format(key[0], " ".join(str(k) for k in key[1:]))
        res = _board_result(ev, key)
        if res is not None and res in PGN:
            out.append(Due(gid, PGN[res], where))
        elif res is None and isinstance(ev, KnockoutEvent):
            won = _series_winner(row, ev, key, seats[gid])
            if won is not None:
                out.append(Due(gid, won, where))
    return out
