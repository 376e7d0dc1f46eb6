"""Simultaneous displays in the database: one :class:`qisai.store.models.Simul`
row per display holding :meth:`qisai.competition.simul.Simul.to_dict` data.

Saves are conditional on the row's ``version`` (optimistic locking), so
two requests that change the same display at once cannot both win: the
second gets a :class:`~qisai.store.ConflictError` and nothing of it is
stored.  Board results are read from the boards' server games
(:func:`sync_results`): the games are the truth, the display copies them.

Blocking calls: the routes run them in worker threads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from qisai.competition.model import Outcome
from qisai.competition.simul import Simul
from qisai.store import ConflictError, Database, NotFoundError
from qisai.store.models import Game, User
from qisai.store.models import Simul as SimulRow

__all__ = ["StoredSimul", "create", "load", "save", "list_simuls", "sync_results",
           "host_outcome", "engine_hosts_running"]


@dataclass
class StoredSimul:
    """A display with its row's id, name, host account and version, and
    the settings its games are made with (``games``: time, size)."""

    id: int
    name: str
    host_id: int
    version: int
    simul: Simul
    games: dict[str, Any] = field(default_factory=dict)
    organiser_id: int | None = None
    """Who created it (the host when ``None``): adds engines, and starts a
    display whose host is an engine."""
    engines: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Engine entrants and an engine host by key (``engine:NAME``): which
    engine plays (``engine``) and its name, version and level (``opponent``)."""
    host_invited: int | None = None
    """The account the organiser asked to host, until he accepts (then he
    is :attr:`host_id`) or declines; meanwhile the organiser hosts and the
    invited account is named nowhere public."""
    host_name: str = ""
    """The host account's display name, read with the row (not stored)."""

    def data(self) -> dict[str, Any]:
        """The row's JSON: the display's state and the games' settings."""
        return {**self.simul.to_dict(), "games": self.games,
                "organiser_id": self.organiser_id, "engines": self.engines,
                "host_invited": self.host_invited}

    @property
    def organiser(self) -> int:
        """The account that organises the display (its creator, else the host)."""
        return self.host_id if self.organiser_id is None else self.organiser_id


def create(s: Session, name: str, host_id: int, simul: Simul, games: dict[str, Any],
           organiser_id: int | None = None, engines: dict[str, dict[str, Any]] | None = None
           ) -> StoredSimul:
    """Store a new display whose games take the settings ``games`` and
    commit; returns it."""
    host = s.get(User, host_id)
    st = StoredSimul(0, name, host_id, 1, simul, dict(games), organiser_id, dict(engines or {}),
                     host_name=host.display_name if host is not None else "")
    row = SimulRow(name=name, kind=simul.settings.game, host_id=host_id,
                   status=simul.status.value, data=st.data(), version=1)
    s.add(row)
    s.commit()
    st.id = row.id
    return st


def load(s: Session, simul_id: int) -> StoredSimul:
    """Return display ``simul_id``.  Raises :class:`NotFoundError` if there is none."""
    row = s.get(SimulRow, simul_id)
    if row is None:
        raise NotFoundError(f"no simul with id {simul_id}")
    s.refresh(row)
    games = row.data.get("games")
    organiser = row.data.get("organiser_id")
    engines = row.data.get("engines")
    invited = row.data.get("host_invited")
    host = s.get(User, row.host_id)
    return StoredSimul(row.id, row.name, row.host_id, row.version, Simul.from_dict(row.data),
                       dict(games) if isinstance(games, dict) else {},
                       organiser if isinstance(organiser, int) else None,
                       dict(engines) if isinstance(engines, dict) else {},
                       invited if isinstance(invited, int) else None,
                       host.display_name if host is not None else "")


def save(s: Session, st: StoredSimul) -> None:
    """Store ``st.simul`` if the row is still at ``st.version`` and commit;
    the version then grows by one.  Raises :class:`ConflictError` if
    another request saved first (nothing is stored)."""
    res = s.execute(update(SimulRow)
                    .where(SimulRow.id == st.id, SimulRow.version == st.version)
                    .values(data=st.data(), status=st.simul.status.value,
                            host_id=st.host_id, version=st.version + 1))
    if res.rowcount != 1:  # type: ignore[attr-defined]
        s.rollback()
        raise ConflictError(f"simul {st.id} was changed meanwhile; try again")
    s.commit()
    st.version += 1


def list_simuls(s: Session, limit: int = 50) -> list[SimulRow]:
    """Return the newest displays first (at most ``limit``)."""
    return list(s.scalars(select(SimulRow).order_by(SimulRow.id.desc()).limit(limit)))


def host_outcome(code: str | None, host_colour: str, kind: str) -> Outcome | None:
    """Return the host's result from a game's PGN/SGF result code (``1-0``
    means the first mover won: Red in Xiangqi, Black in Go), or ``None``
    while the game is not decided."""
    first = "red" if kind == "xiangqi" else "black"
    if code == "1/2-1/2":
        return Outcome.DRAW
    if code not in ("1-0", "0-1"):
        return None
    first_won = code == "1-0"
    return Outcome.WIN if first_won == (host_colour == first) else Outcome.LOSS


def sync_results(s: Session, st: StoredSimul) -> bool:
    """Copy the results of finished board games into the display and save
    it if any changed.  Returns whether it saved.  Raises
    :class:`ConflictError` if another request saved first."""
    simul = st.simul
    open_boards = {b.game_id: b for b in simul.boards if b.result is None and b.game_id}
    if not open_boards:
        return False
    rows = s.execute(select(Game.id, Game.result_code).where(Game.id.in_(open_boards),
                                                              Game.status == "finished"))
    changed = False
    for game_id, code in rows:
        board = open_boards[game_id]
        outcome = host_outcome(code, board.host_colour, simul.settings.game)
        if outcome is not None:
            simul.record(board.number, outcome)
            changed = True
    if changed:
        save(s, st)
    return changed


def engine_hosts_running(db: Database, limit: int = 500) -> bool:
    """Whether any of the newest ``limit`` displays still playing has an
    engine host (then its engine driver must run after a restart)."""
    with db.session() as s:
        return any(row.status == "started" and row.data.get("host") in (row.data.get("engines")
                                                                         or {})
                   for row in list_simuls(s, limit))
