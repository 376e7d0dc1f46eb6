"""Tournaments: the API and pages, on :mod:`qisai.competition`.

The competition layer's :class:`~qisai.competition.tournament.Tournament`
is the truth about entries, pairings, results and standings; its JSON form
(``to_dict``) is kept in the tournament row's settings (``event``), and every
paired board is mirrored as a :class:`~qisai.store.models.Pairing` row so
that a server game can point at it.  When such a game ends, its result is
entered into the event automatically (:func:`record_game_result`).

Organisers create events, register players, start, pair rounds and enter
over-the-board results; arbiters may enter results too.
"""

from __future__ import annotations

import secrets
import threading
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from qisai.competition import CompetitionError, Player, System, Tournament
from qisai.competition.output import crosstable_grid, standings_rows
from qisai.referee.errors import RefereeError
from qisai.store import NotFoundError, repo
from qisai.store.models import Role, User
from qisai.store.models import Tournament as TournamentRow
from qisai.web import views
from qisai.web.deps import ArbiterDep, OrganiserDep, SessionDep, StateDep, ViewerDep

__all__ = ["api", "pages", "record_game_result"]

api = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
pages = APIRouter(include_in_schema=False)
_lock = threading.Lock()  # read-modify-write of an event's state in this process


class NewTournament(BaseModel):
    """An event to create."""

    name: str = Field(min_length=1, max_length=200)
    kind: Literal["xiangqi", "go"] = "xiangqi"
    system: Literal["round_robin", "double_round_robin", "swiss"] = "round_robin"
    rounds: int | None = Field(default=None, ge=1, le=50)
    ruleset: str | None = Field(default=None, max_length=32)
    time: dict[str, Any] | None = None
    online: bool = True
    """Create server games for boards whose two players have accounts."""


class NewEntry(BaseModel):
    """A player to register: a name, or an account (``username``)."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    username: str | None = Field(default=None, max_length=40)
    rating: int = Field(default=0, ge=0, le=4000)


class BoardResult(BaseModel):
    """A result as the competition layer reads it (``1-0``, ``0-1``, ``=``,
    ``+-``, ``-+``, ``--``)."""

    result: str = Field(min_length=1, max_length=8)


def _event(row: TournamentRow) -> Tournament:
    return Tournament.from_dict(row.settings["event"], source=f"tournament {row.id}")


def _save(s: Session, row: TournamentRow, t: Tournament, status: str | None = None) -> None:
    settings = dict(row.settings)
    settings["event"] = t.to_dict()
    repo.save_tournament(s, row.id, settings=settings, status=status)


def _load(s: Session, tournament_id: int) -> TournamentRow:
    try:
        return repo.get_tournament(s, tournament_id)
    except NotFoundError as exc:
        raise HTTPException(404, str(exc)) from None


def tournament_view(s: Session, row: TournamentRow) -> dict[str, Any]:
    """Return an event as JSON-ready data: entries, rounds with boards,
    results and server games, standings and crosstable."""
    t = _event(row)
    users: dict[str, int] = row.settings.get("users", {})
    stored = {r.number: (r, ps) for r, ps in repo.list_rounds(s, row.id)}
    rounds = []
    for rec in t.rounds:
        mirror = stored.get(rec.number)
        games = repo.games_of_round(s, mirror[0].id) if mirror else {}
        by_board = {p.board: p for p in mirror[1]} if mirror else {}
        boards = []
        for p in rec.pairings:
            g = rec.results.get(p.board)
            row_p = by_board.get(p.board)
            boards.append({
                "board": p.board, "red": p.red, "black": p.black,
                "red_name": t.player(p.red).name,
                "black_name": None if p.black is None else t.player(p.black).name,
                "result": None if g is None else g.result.value,
                "game": None if row_p is None else games.get(row_p.id)})
        rounds.append({"number": rec.number, "boards": boards, "complete": rec.complete})
    return {
        "id": row.id, "name": row.name, "kind": row.kind, "system": row.format,
        "ruleset": row.ruleset, "status": row.status, "organiser": row.organiser_id,
        "started": t.started, "finished": t.started and t.finished,
        "rounds_planned": t.rounds_planned,
        "players": [{"number": p.id, "name": p.name, "rating": p.rating,
                     "user": users.get(p.name)} for p in t.players],
        "rounds": rounds,
        "standings": standings_rows(t) if t.started else [],
        "crosstable": crosstable_grid(t) if t.started else [],
    }


@api.post("", status_code=201)
def create(body: NewTournament, s: SessionDep, user: OrganiserDep) -> dict[str, Any]:
    """Create an event (organisers only).  422 for a bad system, rounds,
    rule profile or time control."""
    ruleset = body.ruleset or ("cxa" if body.kind == "xiangqi" else "chinese")
    settings: dict[str, Any] = {"online": body.online}
    if body.time is not None:
        settings["time"] = body.time
    try:
        views.make_rules(body.kind, ruleset, settings)
        t = Tournament(body.name, System(body.system), rounds=body.rounds,
                       seed=secrets.randbelow(2**31))
    except (RefereeError, CompetitionError) as exc:
        raise HTTPException(422, f"tournament: {exc}") from None
    settings["event"] = t.to_dict()
    settings["users"] = {}
    row = repo.create_tournament(s, name=body.name, kind=body.kind, format=body.system,
                                 ruleset=ruleset, organiser_id=user.id, settings=settings)
    return tournament_view(s, row)


@api.get("")
def list_all(s: SessionDep) -> list[dict[str, Any]]:
    """List events, newest first."""
    return [{"id": t.id, "name": t.name, "kind": t.kind, "system": t.format, "status": t.status}
            for t in repo.list_tournaments(s)]


@api.get("/{tournament_id}")
def show(tournament_id: int, s: SessionDep) -> dict[str, Any]:
    """Return an event: entries, rounds, results, standings, crosstable."""
    return tournament_view(s, _load(s, tournament_id))


@api.post("/{tournament_id}/entries", status_code=201)
def add_entry(tournament_id: int, body: NewEntry, s: SessionDep, _: OrganiserDep
              ) -> dict[str, Any]:
    """Register a player by name or by account.  409 after the start or for
    a duplicate; 404 for an unknown account."""
    with _lock:
        row = _load(s, tournament_id)
        account: User | None = None
        if body.username:
            account = repo.find_user(s, body.username)
            if account is None:
                raise HTTPException(404, f"username: no user {body.username!r}")
        name = body.name or (account.display_name if account else None)
        if not name:
            raise HTTPException(422, "name: give a name or a username")
        rating = body.rating or (int(account.rating) if account else 0)
        t = _event(row)
        try:
            t.add_player(Player(name, rating))
        except CompetitionError as exc:
            raise HTTPException(409, f"entries: {exc}") from None
        settings = dict(row.settings)
        users = dict(settings.get("users", {}))
        if account is not None:
            users[name] = account.id
        settings["users"] = users
        settings["event"] = t.to_dict()
        repo.save_tournament(s, row.id, settings=settings)
        return tournament_view(s, row)


@api.post("/{tournament_id}/start")
def start(tournament_id: int, s: SessionDep, _: OrganiserDep) -> dict[str, Any]:
    """Close entries and draw the pairing numbers.  409 if already started
    or with fewer than two entries."""
    with _lock:
        row = _load(s, tournament_id)
        t = _event(row)
        try:
            t.start()
        except CompetitionError as exc:
            raise HTTPException(409, f"start: {exc}") from None
        users = row.settings.get("users", {})
        for p in t.players:
            repo.add_entry(s, row.id, p.name, user_id=users.get(p.name), rating=p.rating,
                           number=p.id)
        _save(s, row, t, status="running")
        return tournament_view(s, row)


@api.post("/{tournament_id}/rounds")
async def pair_round(tournament_id: int, st: StateDep, user: OrganiserDep) -> dict[str, Any]:
    """Pair the next round (Berger table or 积分编排制) and create and start
    the server games of boards between two account holders.  409 if the
    event is not started, finished or the previous round lacks results."""
    created, view = await run_in_threadpool(_pair_round, st, tournament_id, user)
    for game_id in created:
        await st.hub.start_if_ready(game_id)
    return view


def _pair_round(st: Any, tournament_id: int, user: User) -> tuple[list[str], dict[str, Any]]:
    created: list[str] = []
    with _lock, st.db.session() as s:
        row = _load(s, tournament_id)
        t = _event(row)
        try:
            rec = t.pair_next_round()
        except CompetitionError as exc:
            raise HTTPException(409, f"pairing: {exc}") from None
        _save(s, row, t)
        mirror = repo.create_round(s, row.id, rec.number,
                                   [(p.red, p.black) for p in sorted(rec.pairings,
                                                                     key=lambda p: p.board)])
        users: dict[str, int] = row.settings.get("users", {})
        if row.settings.get("online", True):
            boards = {p.board: p for r, ps in repo.list_rounds(s, row.id)
                      if r.id == mirror.id for p in ps}
            for p in rec.pairings:
                if p.black is None or p.board in rec.results:
                    continue
                red_uid = users.get(t.player(p.red).name)
                black_uid = users.get(t.player(p.black).name)
                if red_uid is None or black_uid is None:
                    continue
                game_settings = {k: v for k, v in row.settings.items() if k == "time"}
                g = repo.create_game(s, kind=row.kind, ruleset=row.ruleset,
                                     settings=game_settings, first_user_id=red_uid,
                                     second_user_id=black_uid, created_by_id=user.id, rated=True,
                                     pairing_id=boards[p.board].id)
                created.append(g.id)
        return created, tournament_view(s, row)


def _enter(s: Session, row: TournamentRow, round_no: int, board: int, result: str,
           source: str, overwrite: bool) -> None:
    t = _event(row)
    t.record_result(round_no, board, result, overwrite=overwrite)
    _save(s, row, t, status="finished" if t.finished else None)
    pairing = repo.find_pairing(s, row.id, round_no, board)
    repo.set_pairing_result(s, pairing.id, t.rounds[round_no - 1].results[board].result.value,
                            source)


@api.put("/{tournament_id}/rounds/{round_no}/boards/{board}")
def enter_result(tournament_id: int, round_no: int, board: int, body: BoardResult,
                 s: SessionDep, user: ArbiterDep) -> dict[str, Any]:
    """Enter or correct an over-the-board result (arbiters and organisers).
    422 for an unreadable result, 404 for an unknown board."""
    with _lock:
        row = _load(s, tournament_id)
        try:
            _enter(s, row, round_no, board, body.result,
                   "arbiter" if user.role == Role.ARBITER.value else "otb", overwrite=True)
        except NotFoundError as exc:
            raise HTTPException(404, str(exc)) from None
        except CompetitionError as exc:
            raise HTTPException(422, f"round {round_no} board {board}: {exc}") from None
        return tournament_view(s, row)


def record_game_result(s: Session, pairing_id: int, pgn_result: str) -> None:
    """Enter the result of a finished server game into its event (called by
    the hub in the transaction's thread).  Does nothing if the board already
    has a result (an arbiter's entry wins)."""
    try:
        pairing, rnd = repo.get_pairing(s, pairing_id)
    except NotFoundError:
        return
    code = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "="}.get(pgn_result)
    if code is None:
        return
    with _lock:
        row = repo.get_tournament(s, rnd.tournament_id)
        t = _event(row)
        if pairing.board in t.rounds[rnd.number - 1].results:
            return
        _enter(s, row, rnd.number, pairing.board, code, "server", overwrite=False)


# --------------------------------------------------------------------- pages
@pages.get("/tournaments", response_class=HTMLResponse)
def list_page(request: Request, v: ViewerDep, s: SessionDep) -> HTMLResponse:
    """Events, and the form to create one (organisers)."""
    from qisai.web.pages import render

    items = [{"id": t.id, "name": t.name, "kind": t.kind, "system": t.format,
              "status": t.status} for t in repo.list_tournaments(s)]
    return render(request, v, "tournaments.html", items=items,
                  profiles={k: views.profiles_for(k) for k in ("xiangqi", "go")},
                  organiser=v.user is not None and v.user.role_enum.allows(Role.ORGANISER))


@pages.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def event_page(tournament_id: int, request: Request, v: ViewerDep, st: StateDep
                     ) -> HTMLResponse:
    """One event: players, rounds, results, standings, crosstable."""
    from qisai.web.pages import render

    def load() -> dict[str, Any]:
        with st.db.session() as s:
            return tournament_view(s, _load(s, tournament_id))

    data = await run_in_threadpool(load)
    role = v.user.role_enum if v.user else Role.GUEST
    return render(request, v, "tournament.html", ev=data,
                  organiser=role.allows(Role.ORGANISER), arbiter=role.allows(Role.ARBITER))
