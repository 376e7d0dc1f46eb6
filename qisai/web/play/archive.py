"""A player's games for download (issue 17.7): one PGN file of all their
Xiangqi games, one zip archive of an SGF file per Go game.

The records are those of ``GET /api/games/{id}/record`` (written by
:mod:`qisai.web.play.downloads` from each game's stored event log), public as
the games and profiles are.  A download is bounded: the player's newest
``limit`` games (at most :data:`MAX_GAMES`) that have begun, oldest first
in the file; the PGN is streamed game by game, the zip is built in memory
(an SGF is a few kilobytes).  The response says how many games it holds
(``X-Qisai-Games``) and how many older ones it left out
(``X-Qisai-Games-Left-Out``).
"""

from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse
from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from qisai.store import Database, NotFoundError, repo
from qisai.store.models import Game as GameRow
from qisai.store.models import GameStatus
from qisai.web.bounds import DbId
from qisai.web.play.deps import HubDep
from qisai.web.play.downloads import export
from qisai.web.play.storage import load_live
from qisai.web.state import StateDep

__all__ = ["MAX_GAMES", "game_ids", "pgn_chunks", "router", "sgf_zip"]

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api")

MAX_GAMES = 500
"""Most games one download holds."""


def game_ids(s: Session, user_id: int, kind: str, limit: int) -> tuple[list[str], int]:
    """Return the ids of ``user_id``'s newest ``limit`` ``kind`` games that
    have begun (not open seeks), oldest first, and how many more there
    are.  Raises :class:`NotFoundError` for an unknown user."""
    repo.get_user(s, user_id)
    where = (or_(GameRow.first_user_id == user_id, GameRow.second_user_id == user_id),
             GameRow.kind == kind, GameRow.status != GameStatus.WAITING.value)
    total = s.scalar(select(func.count()).select_from(GameRow).where(*where)) or 0
    ids = list(s.scalars(select(GameRow.id).where(*where)
                         .order_by(GameRow.created_at.desc(), GameRow.id.desc()).limit(limit)))
    ids.reverse()
    return ids, max(0, total - len(ids))


def _record(db: Database, game_id: str, now: Callable[[], float]) -> str | None:
    """The record of one game, or ``None`` when it cannot be written (the
    game was deleted meanwhile, or its record is rejected): left out of the
    download and logged, never a broken file."""
    try:
        text, _, _ = export(load_live(db, game_id, now))
    except (NotFoundError, ValueError) as exc:
        log.warning("game %s left out of a download: %s", game_id, exc)
        return None
    return text


def pgn_chunks(db: Database, ids: list[str], now: Callable[[], float]) -> Iterator[str]:
    """Yield the PGN of each game of ``ids`` in turn, separated by a blank
    line (one loaded at a time: the memory used is one game's)."""
    for game_id in ids:
        text = _record(db, game_id, now)
        if text is not None:
            yield text.rstrip("\n") + "\n\n"


def sgf_zip(db: Database, ids: list[str], now: Callable[[], float]) -> bytes:
    """Return a zip archive with ``qisai-ID.sgf`` for each game of ``ids``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for game_id in ids:
            text = _record(db, game_id, now)
            if text is not None:
                zf.writestr(f"qisai-{game_id}.sgf", text.encode("utf-8"))
    return buf.getvalue()


def _ids(st: Any, user_id: int, kind: str, limit: int) -> tuple[list[str], int]:
    with st.db.session() as s:
        try:
            return game_ids(s, user_id, kind, limit)
        except NotFoundError as exc:
            raise HTTPException(404, str(exc)) from None


def _headers(user_id: int, ext: str, ids: list[str], left: int) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="qisai-player-{user_id}.{ext}"',
            "X-Qisai-Games": str(len(ids)), "X-Qisai-Games-Left-Out": str(left)}


Limit = Query(MAX_GAMES, ge=1, le=MAX_GAMES,
              description=f"most games, the newest (1..{MAX_GAMES})")


@router.get("/users/{user_id}/games.pgn", tags=["accounts"])
async def player_pgn(user_id: DbId, st: StateDep, hub: HubDep, limit: int = Limit
                     ) -> StreamingResponse:
    """Download a player's Xiangqi games as one PGN file (their newest
    ``limit`` begun games, oldest first).  404 for an unknown player."""
    ids, left = await run_in_threadpool(_ids, st, user_id, "xiangqi", limit)
    return StreamingResponse(pgn_chunks(st.db, ids, hub.now),
                             media_type="application/x-chess-pgn; charset=utf-8",
                             headers=_headers(user_id, "pgn", ids, left))


@router.get("/users/{user_id}/games.zip", tags=["accounts"])
async def player_sgf_zip(user_id: DbId, st: StateDep, hub: HubDep, limit: int = Limit
                         ) -> Response:
    """Download a player's Go games as a zip archive of SGF files (their
    newest ``limit`` begun games).  404 for an unknown player."""
    ids, left = await run_in_threadpool(_ids, st, user_id, "go", limit)
    data = await run_in_threadpool(sgf_zip, st.db, ids, hub.now)
    return Response(data, media_type="application/zip",
                    headers=_headers(user_id, "zip", ids, left))
