"""Simul entrants that are not one account (issue 21 items 3 and 4).

**Consultation groups (会商).**  Consent is by each member's own request,
the simplest design that cannot list anyone against his will: an account
forms a group with ``POST /api/simuls/{id}/groups`` (``name``, it is the
first member), and every other member joins it himself with ``POST
/api/simuls/{id}/groups/{n}/join``; nobody adds or invites another account.
``POST /api/simuls/{id}/groups/leave`` takes the caller out (a group left
empty is withdrawn).  A group has 2..:data:`~qisai.competition.simul.MAX_GROUP`
members at the start; an account plays one board only (its own or one
group's).  At the start the board's game has the group as its side
(:func:`~qisai.web.exhibitions.group_games.create_group_game`): the members vote
the move by majority as on any consultation board.

**Engines (人机大战).**  ``POST /api/simuls/{id}/engines`` (the display's
organiser only, while it is open) adds an engine the arena offers for the
game (qisai's own, a Fairy-Stockfish level, a configured engine) under a
name, at most :data:`~qisai.competition.simul.MAX_ENGINES` per display.  Its
board is a game against the engine, played from the bounded engine pool.

Every refusal is a 4xx whose ``detail`` is in Chinese and English.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from qisai.competition.simul import SimulEntrant
from qisai.web.accounts.deps import UserDep
from qisai.web.bounds import DbId
from qisai.web.exhibitions.board_games import ENGINE, GROUP, check_engine, engine_label
from qisai.web.exhibitions.simuls import change, no_guests_if_rated, user_key
from qisai.web.exhibitions.store import StoredSimul
from qisai.web.play.deps import HubDep
from qisai.web.state import StateDep

__all__ = ["router"]

router = APIRouter(prefix="/api/simuls", tags=["simuls"])


class NewGroup(BaseModel):
    """A group formed by its first member (the caller): only its name and
    the blindfold seat; other members join by their own request."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    blindfold: bool = False


class EngineEntrant(BaseModel):
    """An engine entrant: which engine (and so its level), and its name."""

    model_config = ConfigDict(extra="forbid")

    engine: str = Field(min_length=1, max_length=64)
    name: str | None = Field(default=None, min_length=1, max_length=80)


def _next_group(st: StoredSimul) -> str:
    used = [int(e.key[len(GROUP):]) for e in st.simul.entrants
            if e.key.startswith(GROUP) and e.key[len(GROUP):].isdigit()]
    return f"{GROUP}{max(used, default=0) + 1}"


@router.post("/{simul_id}/groups")
async def form_group(simul_id: DbId, body: NewGroup, app: StateDep, user: UserDep
                     ) -> dict[str, Any]:
    """Form a consultation group entrant with you as its first member.
    409 when the display is closed or full, or you already play a board of
    it or host it; 422 for any field but ``name`` and ``blindfold``."""
    def act(st: StoredSimul) -> None:
        no_guests_if_rated(st, user)
        me = user_key(user.id)
        if any(me == e.key or me in e.members for e in st.simul.entrants):
            raise HTTPException(409, "你已在本场车轮战的一台 / you already play a board of "
                                     "this simul")
        st.simul.join(SimulEntrant(_next_group(st), body.name.strip() or "会商", body.blindfold,
                                   None, (me,)))
    return await change(app, simul_id, user, act)


@router.post("/{simul_id}/groups/{number}/join")
async def join_group(simul_id: DbId, number: DbId, app: StateDep, user: UserDep
                     ) -> dict[str, Any]:
    """Join group ``number`` yourself (your consent).  409 when the display
    is closed, the group is full or missing, or you already play a board."""
    def act(st: StoredSimul) -> None:
        no_guests_if_rated(st, user)
        st.simul.add_member(f"{GROUP}{number}", user_key(user.id))
    return await change(app, simul_id, user, act)


@router.post("/{simul_id}/groups/leave")
async def leave_group(simul_id: DbId, app: StateDep, user: UserDep) -> dict[str, Any]:
    """Leave your group before the start.  409 once started or if you are
    in no group."""
    return await change(app, simul_id, user,
                        lambda st: st.simul.remove_member(user_key(user.id)))


@router.post("/{simul_id}/engines")
async def add_engine(simul_id: DbId, body: EngineEntrant, app: StateDep, hub: HubDep,
                     user: UserDep) -> dict[str, Any]:
    """Add an engine entrant (the display's organiser only: 403 for anyone
    else).  422 for an engine not offered for the game; 409 when closed,
    full, at the engine limit, or for a name already in."""
    def act(st: StoredSimul) -> None:
        if st.organiser != user.id:
            raise HTTPException(403, "只有组织者可以加入引擎 / only the organiser adds engines")
        entry = check_engine(hub, body.engine, st.simul.settings.game)
        name = (body.name or engine_label(entry)).strip()
        key = ENGINE + name
        st.simul.join(SimulEntrant(key, name))
        st.engines[key] = entry
    return await change(app, simul_id, user, act)
