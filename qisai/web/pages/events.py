"""The event pages: the list of events (and the form to create one), and
one event's page, drawn by the template of its family
(``templates/events/<family>.html``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from qisai.store import repo
from qisai.store.models import Role
from qisai.web.accounts.deps import ViewerDep
from qisai.web.events.model import load_row
from qisai.web.events.papers import papers_of
from qisai.web.events.views import tournament_view
from qisai.web.pages.render import render
from qisai.web.play import rules as views
from qisai.web.state import SessionDep, StateDep

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/tournaments", response_class=HTMLResponse)
def list_page(request: Request, v: ViewerDep, s: SessionDep) -> HTMLResponse:
    """Events, and the form to create one (organisers)."""
    items = [{"id": t.id, "name": t.name, "kind": t.kind, "system": t.format,
              "status": t.status} for t in repo.list_tournaments(s)]
    return render(request, v, "events/list.html", items=items,
                  profiles={k: views.profiles_for(k) for k in ("xiangqi", "go")},
                  organiser=v.user is not None and v.user.role_enum.allows(Role.ORGANISER))


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def event_page(tournament_id: int, request: Request, v: ViewerDep, st: StateDep
                     ) -> HTMLResponse:
    """One event: entries, rounds (a knock-out's bracket, a team event's
    matches), results, standings or placings, crosstable, the log."""
    def load() -> dict[str, Any]:
        with st.db.session() as s:
            return tournament_view(s, load_row(s, tournament_id), v.user)

    data = await run_in_threadpool(load)
    # the viewer's part in this event's staff (model.authorise decides; the
    # page only shows the controls he may use)
    part = data["you"]
    template = f"events/{data['family']}.html"
    return render(request, v, template, ev=data,
                  organiser=part in ("organiser", "admin"),
                  arbiter=part is not None,
                  papers=papers_of(data["id"], data["family"], part is not None))
