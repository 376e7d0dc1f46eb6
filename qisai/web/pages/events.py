"""The event pages: the list of events (and the form to create one), and
one event's page, drawn by the template of its family
(``templates/events/<family>.html``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from qisai.store import repo
from qisai.store.models import Role
from qisai.web.accounts.deps import ViewerDep
from qisai.web.bounds import DbId
from qisai.web.events.event_json import tournament_view
from qisai.web.events.model import family, load_row, staff_role
from qisai.web.events.paged import light_row_or_404, page_view
from qisai.web.events.papers import papers_of
from qisai.web.events.staff import staff_view
from qisai.web.pages.render import render
from qisai.web.play import referee_games
from qisai.web.state import SessionDep, StateDep

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/tournaments", response_class=HTMLResponse)
def list_page(request: Request, v: ViewerDep, s: SessionDep) -> HTMLResponse:
    """Events, and the form to create one (organisers)."""
    items = [{"id": t.id, "name": t.name, "kind": t.kind, "system": t.format,
              "status": t.status} for t in repo.list_tournaments(s)]
    return render(request, v, "events/list.html", items=items,
                  profiles={k: referee_games.profiles_for(k) for k in ("xiangqi", "go")},
                  organiser=v.user is not None and v.user.role_enum.allows(Role.ORGANISER))


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def event_page(tournament_id: int, request: Request, v: ViewerDep, st: StateDep,
                     round_no: Annotated[int | None, Query(alias="round", ge=1, le=1000)] = None,
                     start: Annotated[int, Query(alias="from", ge=0, le=1_000_000)] = 0,
                     at: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
                     q: Annotated[str, Query(max_length=200)] = "",
                     group: Annotated[int | None, Query(ge=0, le=10_000)] = None
                     ) -> HTMLResponse:
    """One event: entries, rounds (a knock-out's bracket, a team event's
    matches), results, standings or placings, crosstable, the log.  An
    individual event's page shows one round (``round``, its boards from
    ``from``), the standings from line ``at``, the viewer's own line and
    the entries found by ``q`` (:func:`~qisai.web.events.paged.page_view`):
    its size does not grow with the event; the other families' likewise,
    a group event's one group (``group``) at a time
    (:func:`~qisai.web.events.event_json.tournament_view`)."""
    def load() -> dict[str, Any]:
        with st.db.session() as s:
            row = light_row_or_404(s, tournament_id)  # its settings: page_view's snapshot
            if family(row) == "individual":
                return page_view(s, row, v.user, round_no=round_no, start=start, at=at, q=q)
            return tournament_view(s, row, v.user, round_no=round_no, start=start, at=at, q=q,
                                   group=group)

    data = await run_in_threadpool(load)
    # the viewer's part in this event's staff (model.authorise decides; the
    # page only shows the controls he may use)
    part = data["you"]
    template = f"events/{data['family']}.html"
    return render(request, v, template, ev=data,
                  organiser=part in ("organiser", "admin"),
                  arbiter=part is not None,
                  papers=papers_of(data["id"], data["family"], part is not None))


@router.get("/tournaments/{tournament_id}/staff", response_class=HTMLResponse)
async def staff_page(tournament_id: DbId, request: Request, v: ViewerDep, st: StateDep
                     ) -> HTMLResponse:
    """An event's staff (public, as the API's list is), with the controls to
    appoint and remove its members for the event's organisers and the site's
    administrators (:func:`~qisai.web.events.model.authorise` decides, here
    and in :mod:`qisai.web.events.staff`).  404 for an unknown event."""
    def load() -> tuple[dict[str, Any], list[dict[str, Any]], dict[int, str], str | None]:
        with st.db.session() as s:
            row = load_row(s, tournament_id)
            members = staff_view(s, row)
            names = {m["id"]: m["username"] for m in members}
            for m in members:  # an appointer since removed from the staff
                by = m["appointed_by"]
                if by is not None and by not in names:
                    names[by] = repo.get_user(s, by).username
            return {"id": row.id, "name": row.name}, members, names, staff_role(s, row, v.user)

    ev, members, names, part = await run_in_threadpool(load)
    return render(request, v, "events/staff.html", ev=ev, members=members, names=names,
                  manage=part in ("organiser", "admin"))
