"""An event's printed papers in the arena: the same A4 PDFs as
``qisai event papers`` (:mod:`qisai.papers`), one click from the event page.

* ``GET /tournaments/{id}/papers/{kind}.pdf?round=N`` — the PDF to download
  (``Content-Disposition: attachment``, named after the event, RFC 6266
  ``filename*``: ``<event>-<id>-<对阵表>[-第N轮].pdf``);
* ``GET /tournaments/{id}/papers/{kind}?round=N`` — the print view: the same
  PDF shown inline.  It is the PDF and not an HTML page with print CSS on
  purpose: the PDF is laid out for A4 with the Chinese font embedded, so it
  prints the same from any browser, and there is one layout to keep, not two.

The kinds an event has depend on its family (:data:`KINDS_BY_FAMILY`).
对阵表, 成绩册, the crosstable and the bracket are public like the event
page; 记录纸 (result slips) and line-up forms only for the event's
organiser and arbiters (:func:`may_see_forms`).  The public never sees a
round not yet published.

The paper is drawn from the event's stored state as the export gives it
(:func:`~qisai.web.events.model.event_file`): the same event file the
command line prints from, with the header an import brought (dates,
venue, 裁判长, 主办) and its penalties, so that 18.4 places a penalised
entry on the paper where the page and ``qisai event`` place it.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import Response
from sqlalchemy.orm import Session

from qisai.competition import CompetitionError, Tournament
from qisai.competition.events.file import EventFile
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.store.models import Tournament as TournamentRow
from qisai.store.models import User
from qisai.web.accounts.deps import Viewer, ViewerDep
from qisai.web.events.model import (
    download_header,
    event_file,
    family,
    hidden_rounds,
    load_row,
    staff,
)
from qisai.web.heavy import HeavyDep, HeavyWork
from qisai.web.state import AppState, StateDep

__all__ = ["KINDS_BY_FAMILY", "LABELS", "ROUND_KINDS", "STAFF_KINDS", "may_see_forms",
           "papers_of", "router"]

router = APIRouter(tags=["events"])

KINDS_BY_FAMILY: dict[str, tuple[str, ...]] = {
    "individual": ("pairings", "standings", "crosstable", "slips", "ratings"),
    "knockout": ("pairings", "bracket", "standings", "slips"),
    "group": ("pairings", "standings", "crosstable", "slips"),
    "team": ("pairings", "standings", "crosstable", "slips", "lineups"),
}
"""The papers of each family of event (:func:`~qisai.web.events.model.family`)."""
ROUND_KINDS = frozenset({"pairings", "slips", "lineups"})
"""Papers of one round (``?round=N``, default the last paired)."""
STAFF_KINDS = frozenset({"slips", "lineups"})
"""Papers for the event's organiser and arbiters only."""
LABELS: dict[str, tuple[str, str]] = {
    "pairings": ("对阵表", "Pairings"), "standings": ("成绩册", "Standings"),
    "crosstable": ("交叉表", "Crosstable"), "bracket": ("对阵图", "Bracket"),
    "slips": ("记录纸", "Result slips"), "lineups": ("出场名单", "Line-ups"),
    "ratings": ("等级分变化", "Rating changes"),
}
"""Each paper's name in Chinese and English (the event page's links)."""

_EVENT_KIND = {"knockout": "knockout", "team": "team", "group": "groups"}
NO_FONT = 503


def may_see_forms(s: Session, row: TournamentRow, user: User | None) -> bool:
    """Whether ``user`` may print the staff's papers (result slips,
    line-up forms) of event ``row`` and see its unpublished rounds: its
    staff (organisers, chief arbiter, arbiters) or a site administrator."""
    return staff(s, row, user)


def papers_of(tournament_id: int, fam: str, forms: bool) -> list[dict[str, Any]]:
    """The papers of event ``tournament_id`` of family ``fam`` as links for
    the event page: ``kind``, ``zh``, ``en``, ``pdf`` (download) and
    ``view`` (print view); the staff's papers only when ``forms``
    (:func:`may_see_forms`)."""
    out = []
    for kind in KINDS_BY_FAMILY[fam]:
        if kind in STAFF_KINDS and not forms:
            continue
        zh, en = LABELS[kind]
        base = f"/tournaments/{tournament_id}/papers/{kind}"
        out.append({"kind": kind, "zh": zh, "en": en, "pdf": f"{base}.pdf", "view": base})
    return out


def _published_only(ef: EventFile, published: int) -> None:
    """Drop the rounds after the first ``published`` from the event (for a
    paper the public sees; a round is published before it gets results,
    so the standings do not change)."""
    ev = ef.event
    if isinstance(ev, Tournament):
        del ev.rounds[published:]
    elif isinstance(ev, KnockoutEvent) and ev.ko is not None:
        del ev.ko.rounds[published:]
    elif isinstance(ev, TeamEvent) and ev.tt is not None:
        del ev.tt.rounds[published:]


def _paired(ef: EventFile) -> int:
    from qisai.competition.events.views import round_count

    return round_count(ef)


def _file_name(row: TournamentRow, kind: str, round_no: int | None) -> tuple[str, str]:
    """The paper's file name: the event's own name (Chinese kept, issue
    33.6), its number, the paper's Chinese name and the round, e.g.
    ``全国象棋个人赛-12-对阵表-第3轮.pdf``; and its ASCII fallback
    (``<event>-12-pairings-r3.pdf``, the name's other characters dropped)."""
    zh = LABELS.get(kind, (kind, kind))[0]
    name = f"{row.name[:60]}-{row.id}-{zh}" + (f"-第{round_no}轮" if round_no else "") + ".pdf"
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", row.name).strip("-") or "event"
    plain = f"{stem[:60]}-{row.id}-{kind}" + (f"-r{round_no}" if round_no else "") + ".pdf"
    return name, plain


def _make(st: AppState, heavy: HeavyWork, tournament_id: int, kind: str, round_no: int | None,
          user: User | None) -> tuple[bytes, tuple[str, str]]:
    from qisai.papers import paper_bytes
    from qisai.papers.pdf import PapersError, find_font

    with st.db.session() as s:
        row = load_row(s, tournament_id)
        if kind not in KINDS_BY_FAMILY[family(row)]:
            raise HTTPException(404, f"a {row.format} event has no {kind!r} paper; it has "
                                     f"{', '.join(KINDS_BY_FAMILY[family(row)])}")
        if kind in STAFF_KINDS and not may_see_forms(s, row, user):
            raise HTTPException(401 if user is None else 403,
                                f"{LABELS[kind][0]} ({kind}) are for the event's organiser and "
                                "arbiters only")
        try:
            ef = event_file(s, row)  # the export's model: header, penalties (18.4), play-offs
        except CompetitionError as exc:
            raise HTTPException(500, f"event {row.id}: its state cannot be read ({exc})") \
                from None
        paired = _paired(ef)
        if not may_see_forms(s, row, user):
            hidden = hidden_rounds(row)
            visible = next((r - 1 for r in range(1, paired + 1) if r in hidden), paired)
            _published_only(ef, visible)
            paired = visible
        name = _file_name(row, kind, None)
    if kind in ROUND_KINDS:
        if paired == 0:
            raise HTTPException(404, "no round is paired (or published) yet")
        if round_no is None:
            round_no = paired
        if round_no > paired:
            raise HTTPException(404, f"round {round_no} is not paired (or not published); "
                                     f"rounds 1-{paired} are")
        name = _file_name(row, kind, round_no)
    elif round_no is not None and round_no > max(paired, 1):
        raise HTTPException(404, f"round {round_no} is not paired; rounds 1-{paired} are")
    try:
        find_font()
    except PapersError as exc:
        raise HTTPException(NO_FONT, f"papers cannot be printed on this server: {exc}") \
            from None
    try:  # the drawing holds the interpreter: in a worker process, not this thread
        pdf = heavy.in_process(paper_bytes, ef, kind, round_no if kind in ROUND_KINDS else None)
    except CompetitionError as exc:  # PapersError among them: a paper that does not fit
        raise HTTPException(409, str(exc)) from None
    return pdf, name


RoundQuery = Annotated[int | None, Query(alias="round", ge=1, le=1000,
                                         description="round (default: the last paired)")]


async def _respond(tournament_id: int, kind: str, round_no: int | None, v: Viewer, st: AppState,
                   heavy: HeavyWork, disposition: str) -> Response:
    # a paper of a big event is seconds of CPU: off the loop, a few at once
    pdf, name = await heavy.run(f"paper {kind}", _make, st, heavy, tournament_id, kind, round_no,
                                v.user)
    return Response(pdf, media_type="application/pdf", headers={
        "Content-Disposition": download_header(disposition, *name),
        "Cache-Control": "private, no-store"})


@router.get("/tournaments/{tournament_id}/papers/{kind}.pdf",
            responses={200: {"content": {"application/pdf": {}}}})
async def paper_pdf(tournament_id: int, kind: str, v: ViewerDep, st: StateDep,
                    heavy: HeavyDep, round_no: RoundQuery = None) -> Response:
    """An event's paper as an A4 PDF to download: ``pairings``, ``standings``,
    ``crosstable``, ``bracket`` (public), ``slips``, ``lineups`` (the event's
    organiser and arbiters).  404 for a kind the event has not or a round
    not paired, 422 for a round below 1, 503 without the Chinese font and
    503 with ``Retry-After`` while the server draws as many papers (and
    imports) as it takes at once (:mod:`qisai.web.heavy`)."""
    return await _respond(tournament_id, kind, round_no, v, st, heavy, "attachment")


@router.get("/tournaments/{tournament_id}/papers/{kind}",
            responses={200: {"content": {"application/pdf": {}}}})
async def paper_view(tournament_id: int, kind: str, v: ViewerDep, st: StateDep,
                     heavy: HeavyDep, round_no: RoundQuery = None) -> Response:
    """The print view of a paper: the same PDF, shown inline to print
    (answers as :func:`paper_pdf`)."""
    return await _respond(tournament_id, kind, round_no, v, st, heavy, "inline")
