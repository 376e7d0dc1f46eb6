"""Knock-out, team and group events a page at a time (issue 29).

Their event page and ``GET /api/tournaments/{id}`` show one round, the
first lines of the entries and of the standings or placings, the viewer's
own lines and a search (:func:`~qisai.web.events.event_json.tournament_view`);
the rest is here, as :mod:`qisai.web.events.paged` has it for individual
events:

* ``GET /api/tournaments/{id}/rounds/{n}/matches?offset=&limit=&group=`` —
  a round's matches (a group event's boards, of group ``group`` or of
  every group); a round not yet published only for the event's staff
  (404 for anyone else, as on the page);
* ``GET /api/tournaments/{id}/field?q=&offset=&limit=`` — the entries (a
  team event's teams with their rosters), those matching ``q``;
* ``GET /api/tournaments/{id}/ranking?offset=&limit=`` — a team event's
  standings, the others' placings;
* ``GET /api/tournaments/{id}/team-crosstable?offset=&limit=`` — a team
  event's crosstable rows (the header and rows of teams ``offset + 1`` ..).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from qisai.competition.events.team_event import TeamEvent
from qisai.store.models import Tournament as TournamentRow
from qisai.web.accounts.deps import ViewerDep
from qisai.web.events.event_json import (
    PAGE_MATCHES,
    entry_matches,
    field_lines,
    paired_rounds,
    ranking_lines,
    round_detail,
    round_games_by_key,
    team_crosstable,
)
from qisai.web.events.model import need, staff_role
from qisai.web.events.paged import engine_marks, light_row_or_404
from qisai.web.events.snapshot import Snapshot, snapshot
from qisai.web.state import StateDep

__all__ = ["router"]

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

FAMILIES = ("knockout", "team", "group")
MAX_LIMIT = 200
"""Most lines one request returns."""

Offset = Annotated[int, Query(ge=0, le=1_000_000, description="the first line (from 0)")]
Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT, description="lines at most")]


def _event(s: Session, tournament_id: int, *families: str
           ) -> tuple[TournamentRow, Snapshot]:
    """Event row ``tournament_id`` and its kept snapshot: 404 if there is
    none, 409 if it is not of ``families``."""
    row = light_row_or_404(s, tournament_id)
    need(row, *families)
    return row, snapshot(s, row)


@router.get("/{tournament_id}/rounds/{round_no}/matches")
async def round_matches(tournament_id: int, round_no: int, v: ViewerDep, st: StateDep,
                        offset: Offset = 0, limit: Limit = PAGE_MATCHES,
                        group: Annotated[int | None, Query(ge=0, le=10_000)] = None
                        ) -> dict[str, Any]:
    """Matches ``offset`` .. ``offset + limit`` of round ``round_no`` of a
    knock-out or team event (a group event's boards, of group ``group`` or
    every group's): ``number``, ``matches_total``, ``from``, ``matches``
    (``boards``), ``published``.  404 for a round not paired, and for one
    not yet published unless the viewer is on the event's staff; 409 for
    an individual event (its ``.../boards``)."""
    def run() -> dict[str, Any]:
        with st.db.session() as s:
            row, snap = _event(s, tournament_id, *FAMILIES)
            hidden = snap.hidden
            if not 1 <= round_no <= paired_rounds(snap.event) or (
                    round_no in hidden and staff_role(s, row, v.user) is None):
                raise HTTPException(404, f"round {round_no} is not paired (or not published)")
            out = round_detail(snap.event, snap.users,
                               round_games_by_key(s, row, snap, round_no),
                               round_no, offset, offset + limit, group)
            out["published"] = round_no not in hidden
            return out
    return await run_in_threadpool(run)


@router.get("/{tournament_id}/field")
async def field_page(tournament_id: int, v: ViewerDep, st: StateDep,
                     q: Annotated[str, Query(max_length=200)] = "",
                     offset: Offset = 0, limit: Limit = 50) -> dict[str, Any]:
    """Entries of a knock-out, team or group event (those whose name, or a
    team member's, contains ``q``, or whose number it is; all without
    ``q``), lines ``offset`` .. ``offset + limit``: number, name, rating and
    account (a group event's with the group; a team event's teams with
    their roster, withdrawal and strike).  Public, as the page."""
    def run() -> dict[str, Any]:
        with st.db.session() as s:
            _, snap = _event(s, tournament_id, *FAMILIES)
            lines = snap.memo("field", lambda: field_lines(snap.event, snap.users,
                                                           engine_marks(snap.settings)))
            if q.strip():
                lines = [x for x in lines if entry_matches(x, q)]
            return {"total": len(lines), "offset": offset, "q": q,
                    "entries": lines[offset:offset + limit]}
    return await run_in_threadpool(run)


@router.get("/{tournament_id}/ranking")
async def ranking_page(tournament_id: int, v: ViewerDep, st: StateDep, offset: Offset = 0,
                       limit: Limit = 50) -> dict[str, Any]:
    """Lines ``offset`` .. ``offset + limit`` of a team event's standings
    (place, number, name, points, one key a tie-break) or of a knock-out or
    group event's placings (place, number, name): ``total``, ``rows``.
    Public, as the page."""
    def run() -> dict[str, Any]:
        with st.db.session() as s:
            _, snap = _event(s, tournament_id, *FAMILIES)
            rows = snap.memo("ranking", lambda: ranking_lines(snap.event))
            return {"total": len(rows), "offset": offset, "rows": rows[offset:offset + limit]}
    return await run_in_threadpool(run)


@router.get("/{tournament_id}/team-crosstable")
async def team_crosstable_page(tournament_id: int, v: ViewerDep, st: StateDep,
                               offset: Offset = 0, limit: Limit = 50) -> dict[str, Any]:
    """Rows of teams ``offset + 1`` .. ``offset + limit`` (by number) of a
    team event's crosstable: ``header`` (number, name, one column a team,
    match points), ``total`` and ``rows`` (a cell: match points and board
    points of each meeting).  Public, as the page; 409 for other families."""
    def run() -> dict[str, Any]:
        with st.db.session() as s:
            _, snap = _event(s, tournament_id, "team")
            ev = snap.event
            assert isinstance(ev, TeamEvent)
            grid = snap.memo("team_crosstable", lambda: team_crosstable(ev))
            return {"total": max(len(grid) - 1, 0), "offset": offset,
                    "header": grid[0] if grid else [],
                    "rows": grid[1 + offset:1 + offset + limit]}
    return await run_in_threadpool(run)
