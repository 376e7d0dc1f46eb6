"""The server game of one simul board, whoever plays it (issue 21 items 3, 4).

A board's entrant is an account (``user:ID``), a consultation group
(``group:N`` whose ``members`` are accounts: the game's side is the group's,
made by :func:`~qisai.web.exhibitions.group_games.create_group_game`, and the
members vote its moves as on any consultation board), or an engine
(``engine:NAME``: the game's open seat is the hub's engine seat, played from
the bounded engine pool as any game against an engine).  The host is an
account or an engine; an engine host holds its seat through an *engine
account* (a user row without password, named after the engine with its
version and level) that :mod:`qisai.web.play.engine_driver` drives from the
same pool, as the second engine of a 人机大战 board.  Either way the
referee rules on the board as on people's (time, 棋例, an illegal move
loses: 4.1.6; Go 12(1)).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import HTTPException
from sqlalchemy.orm import Session

from qisai.competition.simul import SimulBoard
from qisai.store import repo
from qisai.web.exhibitions.group_games import GroupSpec, create_group_game, member_ids
from qisai.web.exhibitions.store import StoredSimul
from qisai.web.play.hub import Hub
from qisai.web.seats.lineup import kinds_of, listing, opponent_info
from qisai.web.seats.opponent_names import opponent_name

__all__ = ["ENGINE", "GROUP", "check_engine", "engine_host_account", "engine_label",
           "make_board_game"]

ENGINE = "engine:"
"""Key prefix of an engine entrant or host."""
GROUP = "group:"
"""Key prefix of a consultation group entrant."""


def check_engine(hub: Hub, engine: str, kind: str) -> dict[str, Any]:
    """Return what a display keeps of engine ``engine`` (``{"engine",
    "opponent"}``: the name the arena offers it under, and its name, version
    and level when known).  Raises :class:`HTTPException` 422 for an engine
    this server does not offer or that does not play ``kind``."""
    known = {e["name"] for e in listing(None, hub.engines, hub.levels)}
    if engine not in known:
        raise HTTPException(422, f"引擎 {engine!r} 本站没有 / engine {engine!r} is not offered "
                                 f"here; known: {', '.join(sorted(known))}")
    if kind not in kinds_of(engine, hub.engines, hub.levels):
        raise HTTPException(422, f"引擎 {engine!r} 不下{'象棋' if kind == 'xiangqi' else '围棋'}"
                                 f" / engine {engine!r} does not play {kind}")
    return {"engine": engine, "opponent": opponent_info(engine, hub.levels)}


def engine_label(entry: dict[str, Any]) -> str:
    """Return the engine's shown name with its version and level
    ("Fairy-Stockfish 11.1 LB 64 (Skill Level 0)", "qisai builtin")."""
    return opponent_name(str(entry["engine"]), {"opponent": entry.get("opponent")})


def engine_host_account(s: Session, entry: dict[str, Any]) -> int:
    """Make (without committing) the account an engine host plays through,
    named after the engine; nobody can log in as it.  Returns its id."""
    account = repo.create_user(s, f"engine-{secrets.token_hex(6)}", password_hash=None,
                               display_name=engine_label(entry)[:80])
    return account.id


def make_board_game(s: Session, st: StoredSimul, b: SimulBoard, settings: dict[str, Any],
                    host_first: bool) -> str:
    """Create (and commit) the server game of board ``b`` with ``settings``
    (time, the simul's name and board, blindfold seats); the host plays
    first when ``host_first``.  Returns the game's id.

    Raises :class:`~qisai.referee.consultation.ConsultationError` for a
    group that cannot play (see :class:`GroupSpec`).
    """
    simul = st.simul
    host_side, entrant_side = ("first", "second") if host_first else ("second", "first")
    settings = dict(settings)
    host_engine = st.engines.get(simul.host)
    if host_engine is not None:
        settings["driven"] = {"side": host_side, "engine": host_engine["engine"],
                              "account": st.host_id, "name": engine_label(host_engine)}
    entrant = b.entrant
    if entrant.key.startswith(GROUP):
        return create_group_game(s, kind=simul.settings.game, ruleset=simul.settings.rules,
                                 settings=settings, side=entrant_side,
                                 group=GroupSpec(member_ids(entrant.members)),
                                 other_user_id=st.host_id, created_by_id=st.organiser)
    engine: str | None = None
    entrant_id: int | None = None
    found = st.engines.get(entrant.key)
    if found is not None:
        engine = str(found["engine"])
        if found.get("opponent"):
            settings["opponent"] = found["opponent"]
    else:
        entrant_id = int(entrant.key.split(":", 1)[1])
    first, second = (st.host_id, entrant_id) if host_first else (entrant_id, st.host_id)
    # a game against a program is not rated (the rating list is of people)
    rated = simul.settings.rated and engine is None and host_engine is None
    g = repo.create_game(s, kind=simul.settings.game, ruleset=simul.settings.rules,
                         settings=settings, first_user_id=first, second_user_id=second,
                         created_by_id=st.organiser, rated=rated, engine=engine)
    return g.id
