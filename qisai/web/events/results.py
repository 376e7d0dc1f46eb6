"""One path for every result: load, authorise, check, apply, log, save.

A board of an event is a :class:`Board`; there is one kind per family of
event, and each says only where its result lives in its event:

* :class:`IndividualBoard` - round, board (round robins, Swiss, McMahon);
* :class:`GroupBoard` - round, group (0: the final), board;
* :class:`SeriesGame` - round, knock-out match, game of the series;
* :class:`TeamBoard` - round, team match, board.

:func:`enter_result` takes any of them through the same steps, whether an
arbiter enters the result (over the board, or a correction that needs a
reason) or a finished server game does (:func:`record_game_result`, which
never overwrites what is there: an arbiter's entry wins).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from fastapi import HTTPException
from sqlalchemy.orm import Session

from qisai.competition import CompetitionError, EventStateError, Result, Tournament
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.store import NotFoundError, repo
from qisai.store.models import Pairing, Round, User
from qisai.store.models import Tournament as TournamentRow
from qisai.web.events.event_json import game_at
from qisai.web.events.model import (
    LOCK,
    Act,
    Event,
    authorise,
    check_open,
    correction,
    family,
    group_label,
    load_event,
    log_entry,
    need,
    save,
    source_of,
)
from qisai.web.events.server_games import mirror_result, open_boards, players_at
from qisai.web.refusals import refused

__all__ = ["Board", "Entered", "GroupBoard", "IndividualBoard", "SeriesGame", "TeamBoard",
           "board_staff", "enter_result", "record_game_result"]


@dataclass(frozen=True)
class Board:
    """A board of an event: where a result goes in.

    ``key`` is the board's place in the event (its mirror key): the first
    number is always the event round.
    """

    key: tuple[int, ...]
    family: ClassVar[str] = ""
    """The family of event the board belongs to (see :func:`model.family`)."""

    @property
    def round_no(self) -> int:
        """The event round of the board."""
        return self.key[0]

    @property
    def where(self) -> str:
        """The board in words, for messages and the log."""
        raise NotImplementedError

    def current(self, ev: Event) -> str | None:
        """Return the result the board has (a ``Result`` value), or ``None``."""
        raise NotImplementedError

    def open_to_server(self, ev: Event) -> bool:
        """Return whether a server game's result still counts here: the
        board has none yet (and, for a series, the game is the one due)."""
        return self.current(ev) is None

    def entered(self, ev: Event) -> tuple[int, ...]:
        """The key of the server game the result just applied to ``ev`` is
        the result of (the board's own, but for a 2021-league team board's
        later game): the game an arbiter's entry ends."""
        return self.key

    def apply(self, ev: Event, result: Result, red_fouls: int, black_fouls: int,
              overwrite: bool) -> None:
        """Record ``result`` in ``ev``.  Raises :class:`CompetitionError`."""
        raise NotImplementedError

    def refusal(self, exc: CompetitionError) -> int:
        """The HTTP status of a refused entry: 409 when the event's state
        forbids it, 422 for a bad board or result."""
        return 409 if isinstance(exc, EventStateError) else 422


@dataclass(frozen=True)
class IndividualBoard(Board):
    """Board ``key[1]`` of round ``key[0]`` of an individual event."""

    family: ClassVar[str] = "individual"

    @property
    def where(self) -> str:
        return f"round {self.key[0]} board {self.key[1]}"

    def current(self, ev: Event) -> str | None:
        assert isinstance(ev, Tournament)
        r, board = self.key
        if not 1 <= r <= len(ev.rounds):
            return None
        game = ev.rounds[r - 1].results.get(board)
        return None if game is None else game.result.value

    def apply(self, ev: Event, result: Result, red_fouls: int, black_fouls: int,
              overwrite: bool) -> None:
        assert isinstance(ev, Tournament)
        ev.record_result(self.key[0], self.key[1], result, red_fouls=red_fouls,
                         black_fouls=black_fouls, overwrite=overwrite)

    def refusal(self, exc: CompetitionError) -> int:
        return 422


@dataclass(frozen=True)
class GroupBoard(Board):
    """Board ``key[2]`` of group ``key[1]`` (0: the final) in event round
    ``key[0]`` of a group event."""

    family: ClassVar[str] = "group"

    @property
    def where(self) -> str:
        return f"round {self.key[0]} {group_label(self.key[1])} board {self.key[2]}"

    def current(self, ev: Event) -> str | None:
        assert isinstance(ev, GroupEvent)
        r, group, board = self.key
        return ev.result_of(r, group, board)

    def apply(self, ev: Event, result: Result, red_fouls: int, black_fouls: int,
              overwrite: bool) -> None:
        assert isinstance(ev, GroupEvent)
        r, group, board = self.key
        ev.record_result(r, group, board, result, red_fouls=red_fouls, black_fouls=black_fouls,
                         overwrite=overwrite)

    def refusal(self, exc: CompetitionError) -> int:
        return 409 if "final is paired" in str(exc) else 422


@dataclass(frozen=True)
class SeriesGame(Board):
    """Game ``key[2]`` of the series of knock-out match index ``key[1]``
    (0-based; match ``key[1] + 1`` to people) of round ``key[0]``."""

    family: ClassVar[str] = "knockout"

    @property
    def where(self) -> str:
        return f"round {self.key[0]} match {self.key[1] + 1} game {self.key[2]}"

    def current(self, ev: Event) -> str | None:
        assert isinstance(ev, KnockoutEvent)
        r, index, game = self.key
        ev.match(r, index)  # raises for a match that does not exist
        played = ev.games.get(f"{r}:{index}", [])
        return played[game - 1] if 1 <= game <= len(played) else None

    def open_to_server(self, ev: Event) -> bool:
        assert isinstance(ev, KnockoutEvent)
        r, index, game = self.key
        return ev.match(r, index).winner is None and len(
            ev.games.get(f"{r}:{index}", [])) == game - 1

    def apply(self, ev: Event, result: Result, red_fouls: int, black_fouls: int,
              overwrite: bool) -> None:
        # a series game's fouls are not counted by any tie-break
        assert isinstance(ev, KnockoutEvent)
        r, index, game = self.key
        ev.record_game(r, index, game, result, overwrite=overwrite)


@dataclass(frozen=True)
class TeamBoard(Board):
    """Board ``key[2]`` of team match ``key[1]`` of round ``key[0]``, from
    the board's Red side; in the 2021 league format ``key[3]``, when given,
    is the board's game (2 rapid, 3 decider; the key of its server game,
    see :data:`~qisai.web.events.server_games.LEAGUE_GAMES`), from that
    game's Red side."""

    family: ClassVar[str] = "team"

    @property
    def game(self) -> int:
        """The board's game this key stands for (1: the slow game, or the board's only)."""
        return self.key[3] if len(self.key) > 3 else 1

    @property
    def where(self) -> str:
        game = f" game {self.game}" if len(self.key) > 3 else ""
        return f"round {self.key[0]} match {self.key[1]} board {self.key[2]}{game}"

    def current(self, ev: Event) -> str | None:
        assert isinstance(ev, TeamEvent)
        r, match, board = self.key[:3]
        found: str | None = ev.matches.get(f"{r}:{match}", {}).get("results", {}).get(str(board))
        return found

    def open_to_server(self, ev: Event) -> bool:
        assert isinstance(ev, TeamEvent)
        if ev.series == "league_2021":
            # 001: a server game counts as the board's game it was made for, while that
            # game is the one due: a result entered over the board meanwhile (which ends
            # that game) must not count a second time
            return (self.current(ev) is None
                    and len(ev.board_games(*self.key[:3])) == self.game - 1)
        return self.current(ev) is None

    def entered(self, ev: Event) -> tuple[int, ...]:
        assert isinstance(ev, TeamEvent)
        if ev.series != "league_2021":
            return self.key
        n = len(ev.board_games(*self.key[:3]))  # the game just entered is the last
        return self.key[:3] if n <= 1 else (*self.key[:3], n)

    def apply(self, ev: Event, result: Result, red_fouls: int, black_fouls: int,
              overwrite: bool) -> None:
        assert isinstance(ev, TeamEvent)
        r, match, board = self.key[:3]
        ev.record_board(r, match, board, result, red_fouls=red_fouls, black_fouls=black_fouls,
                        overwrite=overwrite)

    def refusal(self, exc: CompetitionError) -> int:
        return 422


BOARDS: dict[str, type[Board]] = {b.family: b for b in (IndividualBoard, GroupBoard,
                                                         SeriesGame, TeamBoard)}
"""The kind of board of each family of event."""


@dataclass
class Entered:
    """What :func:`enter_result` did: whether the result went in, the new
    server games (not started: the caller starts them), and the server game
    of the board still in play that the entry ends (the caller ends it with
    the arbiter's ruling, :meth:`~qisai.web.play.hub.Hub.rule`)."""

    entered: bool
    created: list[str] = field(default_factory=list)
    ends: str | None = None
    result: str | None = None
    """The result entered, as a PGN result (``1-0``, ``0-1``, ``1/2-1/2``)
    when it ends a game in play."""


PGN = {"1-0": "1-0", "0-1": "0-1", "=-=": "1/2-1/2", "+--": "1-0", "--+": "0-1"}
"""An entered result (a ``Result`` value) as the PGN result that ends the
board's server game (a double forfeit ends none)."""


def enter_result(s: Session, row: TournamentRow, board: Board, result: str, *,
                 user: User | None, reason: str | None = None, red_fouls: int = 0,
                 black_fouls: int = 0) -> Entered:
    """Enter ``result`` on ``board`` of the event ``row``; call with
    :data:`LOCK` held.

    ``user`` is the arbiter (or organiser) entering or correcting it; a
    correction needs a ``reason``.  ``None`` is the server, entering the
    result of a finished server game: it never overwrites a result, and a
    result that no longer counts (the round closed, the match was decided
    or forfeited meanwhile) is dropped.

    The steps, for every kind of board: authorise (the user must be on the
    event's staff and not play on the board, 17.4; the family of event and
    the round must be open to results), check (the result, and whether it
    corrects one), apply (to the event object), log (by the acting
    account), save (the event, then the board's mirror row), then open the
    boards now due (the next game of a series).  Returns an
    :class:`Entered`.  Raises :class:`HTTPException` with the status the
    board's kind gives a refusal (an arbiter's entry only).
    """
    server = user is None
    part = "server"
    if not server:
        part = authorise(s, row, user, Act.RULE, players_at(s, row, board.key))
        need(row, board.family)
        check_open(row, board.round_no)
    ev = load_event(row)
    where = board.where
    try:
        res = Result.parse(result)
        old = board.current(ev)
        if server:
            if not board.open_to_server(ev):
                return Entered(False)
            action = "server"
        else:
            action = correction(old, res.value, reason, where)
        board.apply(ev, res, red_fouls, black_fouls, overwrite=not server)
    except CompetitionError as exc:
        if server:
            return Entered(False)
        raise refused(board.refusal(exc), exc, where) from None
    save(s, row, ev, log=log_entry(row, user, action, f"{where}: {res.value}", reason))
    mirror_result(s, row, board.key, res.value, "server" if user is None else source_of(part))
    out = Entered(True)
    if not server and res.value in PGN:
        # the server game of the board, if still in play, ends with this ruling
        out.ends = game_at(s, row, board.entered(ev))
        out.result = PGN[res.value]
    if isinstance(ev, KnockoutEvent) or (isinstance(ev, TeamEvent)
                                         and ev.series == "league_2021"):
        # the series' next game (a knock-out's; a 2021-league board's rapid game or
        # decider) is made as the last one ends
        out.created = open_boards(s, row, ev, board.round_no, None if user is None else user.id)
    return out


def board_of(row: TournamentRow, pairing: Pairing, rnd: Round) -> Board | None:
    """Return the event board a mirror pairing stands for, or ``None``."""
    kind = BOARDS[family(row)]
    if kind is IndividualBoard:
        return IndividualBoard((rnd.number, pairing.board))
    keys = row.settings.get("mirror", {}).get(str(rnd.number))
    if keys is None:
        return None
    return kind(tuple(keys[pairing.board - 1]))


def record_game_result(s: Session, pairing_id: int, pgn_result: str) -> None:
    """Enter the result of a finished server game into its event, through
    :func:`enter_result` (the hub calls it in the transaction's thread, as
    its :data:`~qisai.web.play.hub.BoardResult`).  For a knock-out the
    series' next game is created; it starts when first opened."""
    try:
        pairing, rnd = repo.get_pairing(s, pairing_id)
    except NotFoundError:
        return
    code = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "="}.get(pgn_result)
    if code is None:
        return
    with LOCK:
        row = repo.get_tournament(s, rnd.tournament_id)
        board = board_of(row, pairing, rnd)
        if board is not None:
            enter_result(s, row, board, code, user=None)


def board_staff(s: Session, pairing_id: int, user: User) -> str | None:
    """Whether ``user`` may rule on the server game of an event board (the
    hub's :data:`~qisai.web.play.hub.BoardStaff`): ``None`` for a member of
    the event's staff who does not play on it, else why not."""
    try:
        pairing, rnd = repo.get_pairing(s, pairing_id)
        row = repo.get_tournament(s, rnd.tournament_id)
    except NotFoundError as exc:
        return str(exc)
    try:
        authorise(s, row, user, Act.RULE,
                  repo.entry_users(s, [pairing.first_entry_id, pairing.second_entry_id]))
    except HTTPException as exc:
        return str(exc.detail)
    return None
