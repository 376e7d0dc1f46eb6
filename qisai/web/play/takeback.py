"""Casual comfort in a game's log: takeback by agreement and the rematch.

Neither is in the rule book: both are courtesies of casual play (as on
lichess), never of rated or event games, where the competition rules hold
(a move made is made, 5 "落子无悔" / Go 7; a pairing is the organiser's).
The arena keeps them as records of their own in the game's event log, beside
the referee's events, so that a restart or another server process replays
them the same way:

``takeback_offer``
    a player asks to take back (``side``);
``takeback_decline``
    the opponent says no (``side``);
``takeback_accept``
    the opponent agrees (``side``); ``plies`` says how many plies go.
``rematch_offer``
    a player of a finished casual game asks for a rematch (``side``);
``rematch``
    the rematch was made: ``game`` is its id.

**What is taken back** (chosen as lichess does): the proposer's last move,
and the opponent's reply too if he has made one, so the proposer is to
move again.  So one ply when the proposer moved last, two when the
opponent has replied.  A move by either side lapses an offer.

**The clocks** go back with the position: the game is replayed up to the
position taken back to, and the side to move's clock runs on from that
moment.  No time is given back to the proposer (the time since runs on his
clock); the opponent gets back what he spent on a reply taken back.

Nothing here touches the database or the sockets: :func:`replay` rebuilds
a game from its log and :func:`state_of` says what is pending;
:mod:`qisai.web.play.comfort` acts on them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from qisai.referee.events import Event
from qisai.referee.game import Game as RefereeGame
from qisai.referee.verdict import Side

__all__ = ["COMFORT_ACTIONS", "RECORDS", "Comfort", "casual_refusal", "plies_to_take",
           "replay", "state_of", "view"]

COMFORT_ACTIONS = frozenset({"takeback_offer", "takeback_accept", "takeback_decline",
                              "rematch"})
"""The players' actions of casual comfort (on the socket and the actions
route, beside the referee's)."""
RECORDS = frozenset({"takeback_offer", "takeback_accept", "takeback_decline",
                     "rematch_offer", "rematch"})
"""Records of the log that are not referee events."""


@dataclass
class Comfort:
    """What is pending in a game: a takeback offer (its side and the number
    of moves when it was made: a move since lapses it), a rematch offer, the
    rematch made."""

    offer_by: Side | None = None
    offer_moves: int = 0
    takebacks: int = 0
    rematch_by: Side | None = None
    rematch_game: str | None = None


G = TypeVar("G", bound=RefereeGame)
"""The kind of referee game a replay makes (Xiangqi's or Go's)."""

_STATE: weakref.WeakKeyDictionary[RefereeGame, Comfort] = weakref.WeakKeyDictionary()
"""The comfort state of each referee game (kept beside it, so that it goes
wherever the hub moves the game, e.g. on a reload)."""


def state_of(game: RefereeGame) -> Comfort:
    """Return the comfort state of ``game`` (a fresh one the first time);
    a takeback offer lapsed by a move since is cleared."""
    state = _STATE.get(game)
    if state is None:
        state = _STATE[game] = Comfort()
    if state.offer_by is not None and (len(game.moves) != state.offer_moves or game.is_over):
        state.offer_by = None
    return state


def _side(data: dict[str, Any]) -> Side | None:
    try:
        return Side[str(data.get("side", "")).upper()]
    except KeyError:
        return None


def plies_to_take(game: RefereeGame, proposer: Side) -> int:
    """Return how many plies a takeback for ``proposer`` removes: 1 when he
    made the last move, 2 when the opponent has replied to it, 0 when he
    has no move to take back."""
    moves = game.moves
    if moves and moves[-1].side is proposer:
        return 1
    if len(moves) >= 2 and moves[-2].side is proposer:
        return 2
    return 0


def _rebuild(make: Callable[[], G], events: list[Event], keep_moves: int) -> G:
    """Return a fresh game with ``events`` replayed up to (not including) the
    event that made move number ``keep_moves + 1``."""
    probe = make()
    cut = len(events)
    for i, e in enumerate(events):
        probe.apply(e)
        if len(probe.moves) > keep_moves:
            cut = i
            break
    game = make()
    for e in events[:cut]:
        game.apply(e)
    return game


def replay(make: Callable[[], G], log: Iterable[dict[str, Any]]) -> G:
    """Return the game ``make()`` builds with the stored ``log`` replayed:
    referee events are applied, the comfort records (:data:`RECORDS`) set
    its :func:`state_of` and an agreed takeback removes its plies.  Raises
    the referee's :class:`~qisai.referee.errors.EventError` for a bad event."""
    game = make()
    comfort = Comfort()
    for data in log:
        kind = data.get("type")
        if kind not in RECORDS:
            game.apply(Event.from_dict(data))
            continue
        if kind == "takeback_offer":
            comfort.offer_by, comfort.offer_moves = _side(data), len(game.moves)
        elif kind == "takeback_decline":
            comfort.offer_by = None
        elif kind == "takeback_accept":
            plies = int(data.get("plies", 0))
            if 0 < plies <= len(game.moves):
                game = _rebuild(make, list(game.events), len(game.moves) - plies)
                comfort.takebacks += 1
            comfort.offer_by = None
        elif kind == "rematch_offer":
            comfort.rematch_by = _side(data)
        elif kind == "rematch":
            comfort.rematch_game = str(data.get("game", "")) or None
    _STATE[game] = comfort
    state_of(game)
    return game


def casual_refusal(rated: bool, pairing_id: int | None, engine: str | None = None
                   ) -> tuple[str, str, str] | None:
    """Return why a game has no takeback or rematch as ``(code, zh, en)``,
    or ``None`` for a casual game: rated games and event games are played
    under the competition rules (a move made stands, 落子无悔)."""
    if pairing_id is not None:
        return ("comfort_event", "比赛对局不能悔棋或再来一局（落子无悔，对阵由编排决定）",
                "Event games have no takeback or rematch (a move made stands; the pairings "
                "decide who plays whom)")
    if rated:
        return ("comfort_rated", "等级分对局不能悔棋或再来一局（落子无悔）",
                "Rated games have no takeback or rematch (a move made stands)")
    return None


def view(game: RefereeGame, rated: bool, pairing_id: int | None) -> dict[str, Any]:
    """Return the comfort part of a game's state for the page:
    ``casual`` (takeback and rematch offered at all), the pending
    ``takeback`` offer's side, ``rematch_offer`` and the ``rematch`` game."""
    state = state_of(game)
    return {
        "casual": casual_refusal(rated, pairing_id) is None,
        "takeback": None if state.offer_by is None else state.offer_by.name.lower(),
        "rematch_offer": None if state.rematch_by is None else state.rematch_by.name.lower(),
        "rematch": state.rematch_game,
    }
