"""Which running games the home page shows as live boards, and the small
view of a board the page socket sends.

The home page shows the top rated running games (the two players' ratings
added) and the games of the events running now; the first of the top
rated is the featured game ("TV").  Only started games are ever chosen or
sent: a game still waiting for its second player (an open seek) is not a
live board, so nothing of it leaves through the lobby.

The choice is two bounded queries (``LIMIT`` :data:`MAX_BOARDS`), kept for
:data:`SELECTION_TTL` seconds and refreshed behind the requests
(:mod:`.kept`): every visitor of the home page in that time gets the same
boards, and none waits for the queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from qisai.referee.verdict import Side
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.store.models import Game, GameStatus, Pairing, Round, Tournament, User
from qisai.web.lobby.kept import Kept
from qisai.web.play.live import LiveGame
from qisai.web.play.referee_games import result_data

__all__ = ["MAX_BOARDS", "SELECTION_TTL", "Selection", "board_view", "select_boards"]

MAX_BOARDS = 12
"""Live boards on the home page, and games one page socket may watch."""
TOP_RATED = 6
"""Of them, the top rated running games (the rest: event games, then more
top rated games if there are not enough event games)."""
SELECTION_TTL = 3.0
"""Seconds the home page's choice of boards is kept (see the module)."""


@dataclass(frozen=True)
class Selection:
    """The home page's live boards: ``featured`` (the TV game, or ``None``)
    and ``boards`` (at most :data:`MAX_BOARDS`, the featured one first), each
    a dict with ``id``, ``kind``, ``first``/``second`` (``name``, ``rating``,
    ``id``: ``None`` for an engine's seat) and ``event`` (``id``, ``name``)
    for an event game."""

    featured: dict[str, Any] | None
    boards: list[dict[str, Any]]


def _seat(uid: int | None, name: str | None, rating: float | None, engine: str | None
          ) -> dict[str, Any]:
    if uid is None:  # the engine's seat (an open seat is not a running game)
        return {"id": None, "name": f"qisai {engine or ''}".strip(), "rating": None}
    return {"id": uid, "name": name, "rating": None if rating is None else round(rating)}


def _rows(s: Session, *, events: bool, limit: int) -> list[dict[str, Any]]:
    first, second = aliased(User), aliased(User)
    q = (select(Game.id, Game.kind, Game.engine, first.id, first.username, first.rating,
                second.id, second.username, second.rating, Tournament.id, Tournament.name)
         .join(first, Game.first_user_id == first.id, isouter=True)
         .join(second, Game.second_user_id == second.id, isouter=True)
         .join(Pairing, Game.pairing_id == Pairing.id, isouter=True)
         .join(Round, Pairing.round_id == Round.id, isouter=True)
         .join(Tournament, Round.tournament_id == Tournament.id, isouter=True)
         .where(Game.status == GameStatus.ACTIVE.value))
    if events:
        q = q.where(Game.pairing_id.is_not(None)).order_by(Game.started_at.desc(), Game.id)
    else:
        strength = func.coalesce(first.rating, 0) + func.coalesce(second.rating, 0)
        q = q.order_by(strength.desc(), Game.id)
    out = []
    for (gid, kind, engine, uid1, name1, r1, uid2, name2, r2, tid, tname) in s.execute(
            q.limit(limit)):
        out.append({"id": gid, "kind": kind, "first": _seat(uid1, name1, r1, engine),
                    "second": _seat(uid2, name2, r2, engine),
                    "event": None if tid is None else {"id": tid, "name": tname}})
    return out


def _choose(s: Session) -> Selection:
    top = _rows(s, events=False, limit=MAX_BOARDS)
    event_games = _rows(s, events=True, limit=MAX_BOARDS)
    chosen: list[dict[str, Any]] = []
    seen: set[str] = set()
    # The top rated first, then the event games, then more top rated games.
    for group, cap in ((top, TOP_RATED), (event_games, MAX_BOARDS), (top, MAX_BOARDS)):
        for g in group:
            if len(chosen) >= cap:
                break
            if g["id"] not in seen:
                seen.add(g["id"])
                chosen.append(g)
    return Selection(featured=chosen[0] if chosen else None, boards=chosen)


_kept = Kept(_choose, SELECTION_TTL)


def select_boards(s: Session, *, fresh: bool = False) -> Selection:
    """Return the home page's live boards (see :class:`Selection`): the
    choice kept for :data:`SELECTION_TTL` seconds (:class:`~.kept.Kept`),
    or made now with ``fresh``."""
    return _kept.get(s, fresh=fresh)


def forget_selection() -> None:
    """Drop the kept choice (the next home page makes it anew)."""
    _kept.forget()


def _player(live: LiveGame, uid: int | None) -> dict[str, Any] | None:
    if uid is None:
        return None if live.engine is None else {"id": None, "name": f"qisai {live.engine}",
                                                 "rating": None}
    p = live.players.get(uid, {})
    return {"id": uid, "name": p.get("name", f"#{uid}"), "rating": p.get("rating")}


def board_view(live: LiveGame) -> dict[str, Any]:
    """Return the small view of a live board the page socket sends: the
    position (Xiangqi: ``fen``; Go: ``size`` and ``grid``, top row first),
    the last move, the side to move, the players with their ratings, the
    clocks (seconds left; ``running``: whose clock runs) and the result
    (``None`` while the game runs).  Call with ``live.lock`` held."""
    game = live.game
    view: dict[str, Any] = {
        "id": live.id, "kind": live.kind, "status": live.status, "ply": len(game.moves),
        "to_move": game.to_move.name.lower(),
        "players": {"first": _player(live, live.first_user_id),
                    "second": _player(live, live.second_user_id)},
        "clocks": None, "result": None, "last": None,
    }
    if game.clock is not None:
        view["clocks"] = {"first": game.clock_reading(Side.FIRST),
                          "second": game.clock_reading(Side.SECOND),
                          "running": None if game.clock.running is None
                          else game.clock.running.name.lower()}
    r = result_data(game)
    if r is not None:
        view["result"] = {"tag": r["pgn"] if live.kind == "xiangqi" else r["sgf"],
                          "zh": r["zh"], "en": r["en"], "clause": r["clause"]}
    if isinstance(game, XiangqiGame):
        view["fen"] = game.board.fen()
        last = game.board.peek()
        view["last"] = None if last is None else last.iccs()
    else:
        from qisai.go import coords

        board = game.board
        size = board.size
        rows = []
        for row in range(size - 1, -1, -1):
            line = ""
            for col in range(size):
                colour = board.get((row, col))
                line += "." if colour is None else ("b" if colour.name == "BLACK" else "w")
            rows.append(line)
        view["size"], view["grid"] = size, rows
        last_move = board.last_move()
        if last_move is not None:
            view["last"] = "pass" if last_move.is_pass else coords.gtp_name(last_move.point, size)
    return view
