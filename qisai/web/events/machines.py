"""Man-vs-machine events (人机大战, issue 21 item 4): an engine the arena
offers as an entrant of an event.

``POST /api/tournaments/{id}/engines`` (the event's organiser, before the
start) registers an engine (``builtin``, a level found at start-up such as
``fairy-stockfish-level-3`` or a ``--engine`` of the server) under its own
name: the event's settings keep ``engines[name] = {"engine", "opponent"}``
(its name, version and level, for the page and the records).  When
pairing makes the server games (:mod:`qisai.web.events.server_games`), a board
between a person and an engine is a game against the engine exactly as a
casual one: the hub's engine seat plays it from the bounded engine pool and
the referee rules on it as on people's games (time, 棋例, an illegal move
loses).  On a board between two engines the second engine plays through an
engine account that :mod:`qisai.web.play.engine_driver` drives from the same
pool.

The event's arbiter pauses an engine game for a technical fault with the
``pause`` action (its note is the reason, kept in the game's rulings and
the event's log) and resumes it with ``resume``; the clocks stand still
meanwhile (the referee's PAUSE/RESUME).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from qisai.competition import CompetitionError, Player
from qisai.competition.events.team_event import TeamEvent
from qisai.store import Database, repo
from qisai.web.accounts.deps import UserDep
from qisai.web.events.event_json import tournament_view
from qisai.web.events.model import (
    LOCK,
    load_event,
    load_row,
    log_entry,
    member_key,
    need,
    own,
    save,
)
from qisai.web.play.deps import HubDep
from qisai.web.play.engine_driver import driver_of
from qisai.web.seats.lineup import kinds_of, listing, opponent_info
from qisai.web.seats.opponent_names import opponent_name
from qisai.web.state import StateDep

__all__ = ["api", "engine_account", "engine_events_running", "engine_of"]

api = APIRouter()

ENGINE_SEAT = "engine:"
"""Prefix of a seat held by an engine entrant (see :func:`engine_of`)."""


def engine_account(s: Session, game_settings: dict[str, Any], side: str,
                   entrant: dict[str, Any]) -> int:
    """Make the account through which the second engine of a game between
    two engines plays ``side`` (:mod:`qisai.web.play.engine_driver` drives
    it), note it in ``game_settings`` (``driven``) and return its id."""
    name = opponent_name(str(entrant["engine"]), {"opponent": entrant.get("opponent")})
    account = repo.create_user(s, f"engine-{secrets.token_hex(6)}", password_hash=None,
                               display_name=name[:80])
    game_settings["driven"] = {"side": side, "engine": entrant["engine"], "account": account.id}
    return account.id


def engine_of(settings: dict[str, Any], name: str) -> dict[str, Any] | None:
    """Return the engine entrant ``name`` of an event's settings
    (``{"engine", "opponent"}``), or ``None`` for a person."""
    found = (settings.get("engines") or {}).get(name)
    return found if isinstance(found, dict) else None


class EngineEntry(BaseModel):
    """An engine entrant: which engine, and the name it plays under."""

    engine: str = Field(min_length=1, max_length=64)
    name: str | None = Field(default=None, min_length=1, max_length=80)
    rating: int = Field(default=0, ge=0, le=4000)
    team: str | None = Field(default=None, min_length=1, max_length=200)
    """Team events: the engine enters as this team, one seat per board
    (a team of people against one engine)."""


@api.post("/{tournament_id}/engines", status_code=201)
async def add_engine(tournament_id: int, body: EngineEntry, st: StateDep, hub: HubDep,
                     user: UserDep) -> dict[str, Any]:
    """Register an engine as an entrant (individual, knock-out and group
    events), or as a team with the engine on every board (team events).  403 for anyone but the event's organiser; 422 for an engine
    the server does not offer for the event's game; 409 after the start or
    for a duplicate name."""
    offered = listing(None, hub.engines, hub.levels)
    known = {e["name"]: e for e in offered}
    if body.engine not in known:
        raise HTTPException(422, f"engine: {body.engine!r} is not offered here; known: "
                                 f"{', '.join(sorted(known))}")
    info = opponent_info(body.engine, hub.levels)
    kinds = kinds_of(body.engine, hub.engines, hub.levels)

    def add() -> dict[str, Any]:
        with LOCK, st.db.session() as s:
            row = load_row(s, tournament_id)
            own(s, row, user)
            need(row, "individual", "knockout", "group", "team")
            if row.kind not in kinds:
                raise HTTPException(422, f"engine: {body.engine!r} does not play {row.kind}")
            label = (info or {}).get("engine") or body.engine
            name = (body.name or str(label)).strip()
            ev = load_event(row)
            engines = dict(row.settings.get("engines") or {})
            entrant = {"engine": body.engine, "opponent": info}
            if isinstance(ev, TeamEvent):
                # The same engine on every board of its team: "name 1", "name 2"...
                if body.team is None:
                    raise HTTPException(422, "team: a team event needs the engine's team name")
                seats = [f"{name} {k}" for k in range(1, ev.boards + 1)]
                try:
                    ev.add_team(body.team.strip(), seats)
                except CompetitionError as exc:
                    raise HTTPException(409, f"teams: {exc}") from None
                for seat in seats:
                    engines[member_key(body.team.strip(), seat)] = entrant
            else:
                if name in (row.settings.get("users") or {}):
                    raise HTTPException(409, f"entries: {name!r} is a person's entry")
                try:
                    ev.add_player(Player(name, body.rating))
                except CompetitionError as exc:
                    raise HTTPException(409, f"entries: {exc}") from None
                engines[name] = entrant
            save(s, row, ev, engines=engines, log=log_entry(row, user, "engine entry",
                                           f"{name}: engine {body.engine}"))
            return tournament_view(s, row, user)

    view = await run_in_threadpool(add)
    driver_of(hub).start()  # its games against another engine need the driver
    return view


def engine_events_running(db: Database, limit: int = 500) -> bool:
    """Whether any of the newest ``limit`` events that are not finished has
    an engine entrant (then the engine driver must run after a restart)."""
    with db.session() as s:
        return any(row.settings.get("engines") and row.status != "finished"
                   for row in repo.list_tournaments(s, limit))
