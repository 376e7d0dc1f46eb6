"""An individual event's page in parts that do not grow with it (issue 29).

The event page shows what a person reads at once: one round's pairings
(the current one, a hundred boards at a time), the top of the standings,
the viewer's own line and a search by name or number; the rest is paged,
on the page (``?round=``, ``?from=``, ``?at=``, ``?q=``) and here as JSON:

* ``GET /api/tournaments/{id}/standings?offset=&limit=`` — standings lines;
* ``GET /api/tournaments/{id}/rounds/{n}/boards?offset=&limit=`` — a round's
  boards (a round not yet published only for the event's staff: 404 for
  anyone else, as on the page);
* ``GET /api/tournaments/{id}/crosstable?offset=&limit=`` — crosstable lines,
  one cell a round (opponent, colour, result; the published rounds only
  for the public);
* ``GET /api/tournaments/{id}/entries?q=&offset=&limit=`` — entries with
  their place, points and board of the current round.

A small event (:data:`SMALL_ENTRIES`, :data:`SMALL_BOARDS`) keeps its
whole page: every round, every line and the full crosstable.  Everything
is read from the event's :class:`~qisai.web.events.snapshot.Snapshot`, so
a page costs a digest of the stored event and the lines it shows.
Individual events (round robin, Swiss, McMahon) only:
:func:`~qisai.web.events.event_json.tournament_view` gives the other families'
events whole (and an individual event's as :func:`page_view`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from qisai.competition.events.mcmahon_event import McMahonTournament
from qisai.competition.output import crosstable_grid
from qisai.store import repo
from qisai.store.models import Tournament as TournamentRow
from qisai.store.models import User
from qisai.web.accounts.deps import ViewerDep
from qisai.web.events.listing import listing_of
from qisai.web.events.model import family, need, round_has_results, staff_role
from qisai.web.events.snapshot import Snapshot, light_row, snapshot
from qisai.web.events.staff import staff_view
from qisai.web.seats.opponent_names import opponent_name
from qisai.web.state import StateDep

__all__ = ["LOG_LINES", "PAGE_BOARDS", "PAGE_STANDINGS", "SEARCH_HITS", "SMALL_BOARDS",
           "SMALL_CROSSTABLE", "SMALL_ENTRIES", "light_row_or_404", "page_view", "router"]

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

PAGE_BOARDS = 100
"""Boards of a round on one page."""
PAGE_STANDINGS = 25
"""Standings lines on one page of a big event."""
SEARCH_HITS = 20
"""Entries a search shows on the page."""
LOG_LINES = 100
"""The last entries of the arbiters' log on the page."""
SMALL_ENTRIES = 100
"""Up to this many entries the page lists every entry and standings line."""
SMALL_BOARDS = 300
"""Up to this many boards in all the rounds the page shows every round."""
SMALL_CROSSTABLE = 30
"""Up to this many entries the page shows the whole entry-by-entry crosstable."""
MAX_LIMIT = 200
"""Most lines one request of the paged API returns."""

Offset = Annotated[int, Query(ge=0, le=1_000_000, description="the first line (from 0)")]
Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT, description="lines at most")]


def _visible(snap: Snapshot, row: TournamentRow, is_staff: bool) -> list[int]:
    """The rounds the viewer may see: every paired one for the staff, the
    published ones for the rest."""
    hidden = set(snap.settings.get("hidden", []))
    return [r.number for r in snap.individual.rounds if is_staff or r.number not in hidden]


def _boards(snap: Snapshot, number: int, games: dict[tuple[int, ...], str], lo: int,
            hi: int) -> list[dict[str, Any]]:
    t = snap.individual
    rec = t.rounds[number - 1]
    out = []
    for p in rec.pairings[lo:hi]:
        g = rec.results.get(p.board)
        out.append({
            "board": p.board, "red": p.red, "black": p.black,
            "red_name": t.player(p.red).name,
            "black_name": None if p.black is None else t.player(p.black).name,
            "result": None if g is None else g.result.value,
            "fouls": None if g is None else [g.red_fouls, g.black_fouls],
            "game": games.get((number, p.board))})
    return out


def _round(s: Session, row: TournamentRow, snap: Snapshot, number: int, lo: int, hi: int,
           games: dict[tuple[int, ...], str] | None = None) -> dict[str, Any]:
    """Round ``number`` with its boards ``lo:hi`` as the page and the API
    give it."""
    if games is None:
        games = {(number, b): g for b, g in repo.round_games(s, row.id, number).items()}
    rec = snap.individual.rounds[number - 1]
    in_play = any(k[0] == number for k in games)
    return {"number": number, "boards": _boards(snap, number, games, lo, hi),
            "complete": rec.complete, "boards_total": len(rec.pairings), "from": lo,
            "published": number not in set(snap.settings.get("hidden", [])),
            # once a result or a server game exists the pairings stand
            "locked": in_play or round_has_results(snap.individual, number)}


def _entry_line(snap: Snapshot, number: int, shown: int | None) -> dict[str, Any]:
    """An entry's line for the own-line box and the search: its standing
    and its board of round ``shown``."""
    t = snap.individual
    p = t.player(number)
    k = snap.place_of.get(number)
    line: dict[str, Any] = {"number": p.id, "name": p.name, "rating": p.rating,
                            "user": snap.users.get(p.name), "withdrawn_after": p.withdrawn_after,
                            "place": None, "shared": False, "points": None, "board": None}
    if k is not None:
        st = snap.standings[k]
        line.update(place=st["place"], shared=st["shared"], points=st["points"])
    if shown:
        rec = t.rounds[shown - 1]
        for b in rec.pairings:
            if number in b.players():
                other = b.black if b.red == number else b.red
                g = rec.results.get(b.board)
                line["board"] = {
                    "round": shown, "board": b.board, "first": b.red == number,
                    "opponent": other, "opponent_name": None if other is None
                    else t.player(other).name, "result": None if g is None else g.result.value}
                break
    return line


def _crosstable_line(snap: Snapshot, number: int, rounds: list[int]) -> list[str]:
    """Number, name, one cell a visible round (``12红1``; ``轮空``; ``—``
    not played), points."""
    by_round = {r: (opp, colour, mark) for r, opp, colour, mark in snap.lines(number)}
    cells = []
    for r in rounds:
        x = by_round.get(r)
        if x is None:
            cells.append("—")
        elif x[0] is None:
            cells.append(x[2])
        else:
            cells.append(f"{x[0]}{x[1]}{x[2]}")
    k = snap.place_of.get(number)
    points = "" if k is None else f"{snap.standings[k]['points']:g}"
    return [str(number), snap.individual.player(number).name, *cells, points]


def page_view(s: Session, row: TournamentRow, viewer: User | None, *, round_no: int | None = None,
              start: int = 0, at: int = 0, q: str = "") -> dict[str, Any]:
    """The event page's data of individual event ``row`` for ``viewer``:
    the facts of :func:`~qisai.web.events.event_json.tournament_view` with
    bounded parts.  ``round_no`` is the round shown (default the last the
    viewer may see), ``start`` its first board, ``at`` the first standings
    line, ``q`` a search.  A small event's page has every round, line and
    the whole crosstable, as before."""
    snap = snapshot(s, row)
    t = snap.individual
    part = staff_role(s, row, viewer)
    settings = snap.settings
    visible = _visible(snap, row, part is not None)
    n = len(t.players)
    all_boards = sum(len(t.rounds[r - 1].pairings) for r in visible)
    small = n <= SMALL_ENTRIES and all_boards <= SMALL_BOARDS
    log: list[dict[str, Any]] = settings.get("log", [])
    view: dict[str, Any] = {
        "id": row.id, "name": row.name, "kind": row.kind, "system": row.format,
        "family": family(row), "ruleset": row.ruleset, "status": row.status,
        "organiser": row.organiser_id, "publish": settings.get("publish", "auto"),
        "online": settings.get("online", True),
        "started": t.started, "finished": t.started and t.finished,
        "hidden_rounds": sorted(settings.get("hidden", [])),
        "log": log[-LOG_LINES:], "log_total": len(log),
        "staff": staff_view(s, row), "you": part, "listing": listing_of(row),
        "rounds_planned": t.rounds_planned, "small": small, "entries_total": n,
        "round_links": visible, "tiebreaks": [{"key": c.value, "name": c.chinese}
                                               for c in t.tiebreaks]}
    shown = round_no if round_no in visible else (visible[-1] if visible else None)
    if small:
        view["rounds"] = [_round(s, row, snap, r, 0, len(t.rounds[r - 1].pairings))
                          for r in visible]
        view["standings"] = snap.standings
        view["standings_total"] = len(snap.standings)
        view["standings_from"] = 0
    else:
        view["rounds"] = [] if shown is None else [
            _round(s, row, snap, shown, start, start + PAGE_BOARDS)]
        view["standings"] = snap.standings[at:at + PAGE_STANDINGS]
        view["standings_total"] = len(snap.standings)
        view["standings_from"] = at
    view["round_shown"] = shown
    view["page_boards"], view["page_standings"] = PAGE_BOARDS, PAGE_STANDINGS
    # before the start there are no numbers, rounds nor standings: the page
    # is the list of entries; after it, a big event's entries are searched
    players = t.players if n <= SMALL_ENTRIES or not t.started else []
    users = snap.users
    machines = engine_marks(snap.settings)
    view["players"] = [{"number": p.id, "name": p.name, "rating": p.rating,
                        "user": users.get(p.name), "withdrawn_after": p.withdrawn_after,
                        "engine": machines.get(p.name)}
                       for p in players]
    view["crosstable"] = crosstable_grid(t) if t.started and n <= SMALL_CROSSTABLE else []
    view["own"] = [_entry_line(snap, e, shown)
                   for e in snap.own_entries(None if viewer is None else viewer.id)
                   ] if t.started else []
    hits = snap.search(q)[:SEARCH_HITS] if q and t.started else []
    view["search"] = {"q": q, "hits": [_entry_line(snap, e, shown) for e in hits]}
    if isinstance(t, McMahonTournament):
        view["mcmahon"] = {"bar": t.bar, "floor": t.floor, "start_by": t.start_by}
        by_name = {p.name: p for p in t.players}
        for p in view["players"]:
            p["rank"] = t.rank_for(by_name[p["name"]])
            p["start"] = t.start_scores.get(p["name"]) if t.started else None
    return view


def engine_marks(settings: dict[str, Any]) -> dict[str, str]:
    """Return the engine entrants of an event's ``settings`` (entry name, or
    a team seat's member key) with the engine's own name and level, for the
    entry lists to mark them as engines (issue 33 item 10)."""
    out: dict[str, str] = {}
    for name, entrant in (settings.get("engines") or {}).items():
        if isinstance(entrant, dict):
            out[str(name)] = opponent_name(str(entrant.get("engine")),
                                           {"opponent": entrant.get("opponent")})
    return out


def light_row_or_404(s: Session, tournament_id: int) -> TournamentRow:
    """Event row ``tournament_id``, its settings left to the snapshot
    (:func:`~qisai.web.events.snapshot.light_row`); 404 if there is none."""
    row = light_row(s, tournament_id)
    if row is None:
        raise HTTPException(404, f"no tournament with id {tournament_id}")
    return row


def _individual(s: Session, tournament_id: int, viewer: User | None
                ) -> tuple[TournamentRow, Snapshot, bool]:
    row = light_row_or_404(s, tournament_id)
    need(row, "individual")
    return row, snapshot(s, row), staff_role(s, row, viewer) is not None


@router.get("/{tournament_id}/standings")
async def standings_page(tournament_id: int, v: ViewerDep, st: StateDep, offset: Offset = 0,
                         limit: Limit = 50) -> dict[str, Any]:
    """Standings lines ``offset`` .. ``offset + limit`` of an individual
    event (public, as its page): ``total`` and ``rows`` (place, number, name,
    rating, points, one key a tie-break).  404 for an unknown event, 409
    for another family."""
    def run() -> dict[str, Any]:
        with st.db.session() as s:
            _, snap, _ = _individual(s, tournament_id, v.user)
            return {"total": len(snap.standings), "offset": offset,
                    "rows": snap.standings[offset:offset + limit]}
    return await run_in_threadpool(run)


@router.get("/{tournament_id}/rounds/{round_no}/boards")
async def round_boards(tournament_id: int, round_no: int, v: ViewerDep, st: StateDep,
                       offset: Offset = 0, limit: Limit = PAGE_BOARDS) -> dict[str, Any]:
    """Boards ``offset`` .. ``offset + limit`` of round ``round_no`` of an
    individual event: ``number``, ``boards_total``, ``boards``, ``complete``,
    ``published``, ``locked``.  404 for a round not paired, and for one not
    yet published unless the viewer is on the event's staff."""
    def run() -> dict[str, Any]:
        with st.db.session() as s:
            row, snap, is_staff = _individual(s, tournament_id, v.user)
            if round_no not in _visible(snap, row, is_staff):
                raise HTTPException(404, f"round {round_no} is not paired (or not published)")
            return _round(s, row, snap, round_no, offset, offset + limit)
    return await run_in_threadpool(run)


@router.get("/{tournament_id}/crosstable")
async def crosstable_page(tournament_id: int, v: ViewerDep, st: StateDep, offset: Offset = 0,
                          limit: Limit = 50) -> dict[str, Any]:
    """Crosstable lines of entries ``offset + 1`` .. ``offset + limit`` (by
    number) of an individual event: ``header`` (#, name, one column a round
    the viewer may see, points), ``total`` and ``rows``; a cell is the
    opponent's number, the colour and the result (``12红1``), ``轮空`` or
    ``—``."""
    def run() -> dict[str, Any]:
        with st.db.session() as s:
            row, snap, is_staff = _individual(s, tournament_id, v.user)
            rounds = _visible(snap, row, is_staff)
            numbers = [p.id for p in snap.individual.players
                       ][offset:offset + limit] if snap.individual.started else []
            return {"total": len(snap.individual.players), "offset": offset,
                    "header": ["#", "name", *[str(r) for r in rounds], "points"],
                    "rows": [_crosstable_line(snap, e, rounds) for e in numbers]}
    return await run_in_threadpool(run)


@router.get("/{tournament_id}/entries")
async def entries_page(tournament_id: int, v: ViewerDep, st: StateDep,
                       q: Annotated[str, Query(max_length=200)] = "",
                       offset: Offset = 0, limit: Limit = 50) -> dict[str, Any]:
    """Entries of an individual event (those whose name contains ``q``, or
    whose number it is; all without ``q``), lines ``offset`` .. ``offset +
    limit``: number, name, rating, account, place, points and the board of
    the last round the viewer may see.  409 before the start."""
    def run() -> dict[str, Any]:
        with st.db.session() as s:
            row, snap, is_staff = _individual(s, tournament_id, v.user)
            visible = _visible(snap, row, is_staff)
            shown = visible[-1] if visible else None
            if not snap.individual.started:
                raise HTTPException(409, "the event has not started: its entries have no "
                                         "numbers yet (the event page lists them)")
            numbers = snap.search(q) if q.strip() else [p.id for p in snap.individual.players]
            return {"total": len(numbers), "offset": offset, "q": q,
                    "entries": [_entry_line(snap, e, shown)
                                for e in numbers[offset:offset + limit]]}
    return await run_in_threadpool(run)


@router.get("/{tournament_id}/log")
async def log_page(tournament_id: int, v: ViewerDep, st: StateDep, offset: Offset = 0,
                   limit: Limit = LOG_LINES) -> dict[str, Any]:
    """Entries ``offset`` .. ``offset + limit`` of an event's log, oldest
    first, for any family (public, as the page shows its last
    :data:`LOG_LINES`): ``total``, ``offset`` and ``entries`` (when, by
    whom, the act, what, the reason).  404 for an unknown event."""
    def run() -> dict[str, Any]:
        with st.db.session() as s:
            row = light_row_or_404(s, tournament_id)
            log: list[dict[str, Any]] = snapshot(s, row).settings.get("log", [])
            return {"total": len(log), "offset": offset,
                    "entries": log[offset:offset + limit]}
    return await run_in_threadpool(run)
