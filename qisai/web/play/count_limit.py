"""A Go count left unconfirmed ends by a time limit (issue 32.4).

After two passes the players mark the dead stones and confirm, the side to
move first (4(4)); the clocks stand still meanwhile.  A game whose players
leave during the count would otherwise stay "in play" for ever (and be
featured on /tv).  When nothing has happened in the dead-stone phase for
``Hub.count_limit`` seconds (``QISAI_COUNT_LIMIT``, default
:data:`DEFAULT_LIMIT`: ten minutes) the server rules the count as it stands:
the board is counted with the dead stones as marked (4(5): stones nobody
marked are alive) and the result recorded as a ruling (ADJUDICATE, reason
``score``), with the limit in its note.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from qisai.referee.events import Event, EventType
from qisai.referee.verdict import Outcome, Reason, Side
from qisai.store import ConflictError

if TYPE_CHECKING:
    from qisai.web.play.live import LiveGame

__all__ = ["CLAUSE", "DEFAULT_LIMIT", "abandoned", "end_abandoned_counts"]

DEFAULT_LIMIT = 600.0
"""Seconds a count may wait for a confirmation before the server counts."""
CLAUSE = "竞赛规定 4(4), 4(5)"


def abandoned(games: list[LiveGame], now: float, limit: float) -> list[LiveGame]:
    """Return the Go games of ``games`` in the dead-stone phase with no
    event for ``limit`` seconds or more at ``now``."""
    out = []
    for live in games:
        game: Any = live.game
        if live.kind != "go" or game.is_over or game.phase.value != "scoring":
            continue
        last = game.last_event_at
        if last is not None and now - last >= limit:
            out.append(live)
    return out


def _ruling(game: Any, at: float, limit: float) -> Event:
    from qisai.go.scoring import score

    count = score(game.board, game.dead, game.grules.core, komi=game.grules.komi)
    minutes = f"{limit / 60:g}"
    winner = None if count.margin == 0 else (Side.FIRST if count.margin > 0 else Side.SECOND)
    return Event(EventType.ADJUDICATE, at, winner=winner,
                 outcome=Outcome.DRAW if winner is None else Outcome.WIN, reason=Reason.SCORE,
                 clause=CLAUSE,
                 note=f"数子 {minutes} 分钟未确认，按已标记的死子计算 / the count was not "
                      f"confirmed within {minutes} min: counted with the dead stones as marked")


SCAN_SECONDS = 60.0
"""How often the stored Go games in play that this process has not loaded
(after a restart nobody has opened them) are loaded to be looked at."""


def _stored_go_games(db: Any) -> list[str]:
    from qisai.store import repo
    from qisai.store.models import GameStatus

    with db.session() as s:
        return [g.id for g in repo.list_games(s, status=GameStatus.ACTIVE, kind="go", limit=200)]


async def _load_stored(hub: Any) -> None:
    """Load, once a :data:`SCAN_SECONDS`, the Go games in play that are
    stored but not loaded, so that a count abandoned before a restart ends
    too."""
    import asyncio

    now = hub.now()
    if now - hub.__dict__.get("_count_scan_at", float("-inf")) < SCAN_SECONDS:
        return
    hub.__dict__["_count_scan_at"] = now
    for game_id in await asyncio.to_thread(_stored_go_games, hub.db):
        if game_id not in hub.games:
            try:
                await hub.get(game_id)
            except Exception:  # a game that will not load is not this tick's business
                continue


async def end_abandoned_counts(hub: Any) -> None:
    """Count every game :func:`abandoned` for ``hub.count_limit`` seconds
    (the loaded ones; the stored ones in play are loaded now and then),
    store and announce the result.  Never raises for one game (a write
    another process made first wins)."""
    limit = float(hub.count_limit)
    await _load_stored(hub)
    for live in abandoned(hub.tick_candidates(), hub.now(), limit):
        notices: list[Any] = []
        async with live.lock:
            game: Any = live.game
            now = hub.now()
            if not abandoned([live], now, limit):
                continue  # a player came back meanwhile
            try:
                notices, _refusal = await hub._apply(live, _ruling(game, now, limit), None)
            except ConflictError:
                continue
        if notices:
            await hub.broadcast(live, notices)
        hub.engine_turn(live)  # an engine seat of the game is stopped
