"""The arena's server games in the database: a game loaded and replayed from
its event log, and new events appended with the game's status, result and
ratings (blocking calls, which the hub runs in worker threads)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from qisai.referee.events import Event
from qisai.referee.game import Game as RefereeGame
from qisai.store import Database, repo
from qisai.store.models import Game as GameRow
from qisai.store.models import GameStatus
from qisai.web.play.live import LiveGame
from qisai.web.play.rules import new_referee_game, result_data
from qisai.web.play.takeback import replay

__all__ = ["build_game", "load_live", "persist"]


def build_game(row: GameRow, events: list[dict[str, Any]], now: Callable[[], float]) -> RefereeGame:
    """Return the referee game of ``row`` with its logged ``events`` replayed
    (with agreed takebacks; see :mod:`qisai.web.play.takeback`)."""
    return replay(lambda: new_referee_game(row.kind, row.ruleset, row.settings, now), events)

def load_live(db: Database, game_id: str, now: Callable[[], float]) -> LiveGame:
    """Load game ``game_id`` and replay its log (blocking: call it in a
    worker thread).  Raises :class:`NotFoundError` if there is none."""
    with db.session() as s:
        row = repo.get_game(s, game_id)
        events = [e.data for e in repo.load_events(s, game_id)]
        players = {}
        for u in (row.first_user, row.second_user):
            if u is not None:
                players[u.id] = {"id": u.id, "name": u.username,  # unique; shown first
                                  "display_name": u.display_name, "rating": round(u.rating)}
        game = build_game(row, events, now)
        return LiveGame(id=row.id, kind=row.kind, ruleset=row.ruleset, settings=row.settings,
                        status=row.status, first_user_id=row.first_user_id,
                        second_user_id=row.second_user_id, players=players, game=game,
                        event_count=len(events), engine=row.engine,
                        pairing_id=row.pairing_id, rated=bool(row.rated))



def persist(db: Database, live: LiveGame, new: list[Event], actor_id: int | None,
            plies: list[int | None], board_result: Callable[..., Any] | None) -> None:
    """Append ``new`` (with their plies) to the game's log in one transaction,
    with the game's status, result and ratings; a finished tournament board
    passes its result to ``board_result`` (the events domain).  Raises the
    store's :class:`ConflictError` if another process wrote first."""
    game = live.game
    status = None
    result = None
    code = None
    if game.is_over:
        status = GameStatus.FINISHED
        result = result_data(game)
        code = result["tag"] if result else None
    elif live.status == GameStatus.WAITING.value and game.phase.value != "waiting":
        status = GameStatus.ACTIVE
    rows = [repo.NewEvent(kind=e.type.value, at_ms=int(round(e.at * 1000)),
                          side=None if e.side is None else e.side.value, ply=ply,
                          actor_id=actor_id, data=e.to_dict())
            for e, ply in zip(new, plies, strict=True)]
    with db.session() as s:
        repo.append_events(s, live.id, live.event_count, rows, move_count=len(game.moves),
                           status=status, result=result, result_code=code)
        if status is GameStatus.FINISHED and result is not None:
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result["pgn"])
            if score is not None:
                repo.record_ratings(s, live.id, score)
            row = repo.get_game(s, live.id)
            if row.pairing_id is not None and board_result is not None:
                # a tournament board: the event enters the result
                board_result(s, row.pairing_id, result["pgn"])
    if status is not None:
        live.status = status.value
