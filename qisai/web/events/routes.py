"""The events API (``/api/tournaments``), on :mod:`qisai.competition`.

Four families of events, by the row's ``format`` (:mod:`.model`):

* individual (``round_robin``, ``double_round_robin``, ``swiss``): the
  competition layer's :class:`~qisai.competition.tournament.Tournament`;
  ``mcmahon`` (Go) is one too, :class:`.mcmahon.McMahonTournament`;
* knock-out (``knockout``, ``double_knockout``): :class:`.knockout.KnockoutEvent`
  (bracket or card draw, series, the 2021 league format with its colour
  choice);
* team (``team_round_robin``, ``team_swiss``): :class:`.team.TeamEvent`
  (line-ups, board results, 场分);
* group (``group_round_robin``): :class:`.group.GroupEvent` (groups drawn by
  seeding or lot, then a final round robin).

The event object is the truth about entries, pairings, results and
standings; its JSON form is kept in the row's settings (``event``).  Every
game to be played is mirrored as a :class:`~qisai.store.models.Pairing` row
so that a server game can point at it (:mod:`.server_games`).  Every result, an
arbiter's or a server game's, goes in by one path (:mod:`.results`).

Roles: an organiser (site role) creates an event and is its organiser; the
event's organisers appoint its staff (:mod:`.staff`: more organisers, a
chief arbiter 裁判长, arbiters) and alone register entries, start and set
line-ups; they and the chief arbiter pair and publish; every member of the
staff enters and corrects results (a correction needs a reason), decides
knock-out matches, forfeits team matches and records withdrawals -- never on
a game he plays in (17.4).  A site administrator may do what the event's
organisers may.  :func:`.model.authorise` decides, for every route; the
colours of a 2021-league deciding game are chosen by the player entitled to
(or by the staff for them).
Every such act is kept in the event's log (``settings["log"]``) with who,
when and why.  A round's pairings are published at once (``publish:
auto``) or when the organiser says so (``manual``); server games are
created at publication, and until then only the organiser and arbiters see
the round.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from qisai.competition import (
    CompetitionError,
    EventStateError,
    Player,
    Result,
    System,
    Tournament,
)
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.mcmahon_event import McMahonTournament
from qisai.competition.events.team_event import TeamEvent
from qisai.referee.errors import RefereeError
from qisai.store import repo
from qisai.store.models import Tournament as TournamentRow
from qisai.store.models import User
from qisai.web.accounts.deps import OrganiserDep, UserDep, ViewerDep
from qisai.web.events import machines, registration
from qisai.web.events import staff as staff_api
from qisai.web.events.endings import Due, rulings_due
from qisai.web.events.event_json import games_by_key, tournament_view
from qisai.web.events.model import (
    GROUP,
    KNOCKOUT,
    LOCK,
    TEAM,
    Act,
    Event,
    authorise,
    check_open,
    hidden_rounds,
    load_event,
    load_row,
    log_entry,
    member_key,
    need,
    own,
    paired_rounds,
    round_has_results,
    save,
    staff,
)
from qisai.web.events.paged import light_row_or_404
from qisai.web.events.results import (
    Board,
    Entered,
    GroupBoard,
    IndividualBoard,
    SeriesGame,
    TeamBoard,
    enter_result,
)
from qisai.web.events.schemas import (
    BoardColourChoice,
    BoardResult,
    ColourChoice,
    Decision,
    Forfeit,
    Lineups,
    NewEntry,
    NewTeam,
    NewTournament,
    Withdrawal,
)
from qisai.web.events.server_games import (
    league_time,
    open_boards,
    players_against,
    players_at,
    team_accounts,
)
from qisai.web.play import referee_games
from qisai.web.play.deps import HubDep
from qisai.web.play.hub import Hub
from qisai.web.refusals import refused
from qisai.web.state import AppState, SessionDep, StateDep

__all__ = ["api"]

api = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
api.include_router(staff_api.api)  # /api/tournaments/{id}/staff
api.include_router(registration.api)  # /listing and /register: the calendar's side
api.include_router(machines.api)  # /api/tournaments/{id}/engines: engine entrants (人机大战)


# ---------------------------------------------------------------- the event
# ---------------------------------------------------------------------- API
@api.post("", status_code=201)
def create(body: NewTournament, s: SessionDep, user: OrganiserDep) -> dict[str, Any]:
    """Create an event (organisers only).  422 for a bad system, rounds,
    rule profile, time control or format option."""
    ruleset = body.ruleset or ("cxa" if body.kind == "xiangqi" else "chinese")
    settings: dict[str, Any] = {"online": body.online, "publish": body.publish}
    if body.time is not None:
        settings["time"] = body.time
    seed = secrets.randbelow(2**31)
    ev: Event
    try:
        referee_games.make_rules(body.kind, ruleset, settings)
        league_teams = body.system in TEAM and body.series == "league_2021"
        if body.times and not league_teams:
            if body.system not in KNOCKOUT:
                raise CompetitionError("times：每局各定用时只用于淘汰赛和 2021 联赛制团体赛",
                                       "times: a time control per series game is for "
                                       "knock-out events and 2021-league team events")
            for game_kind, tc in body.times.items():
                try:
                    referee_games.make_rules(body.kind, ruleset, {"time": tc})
                except RefereeError as exc:
                    raise CompetitionError(f"times.{game_kind}：{exc}",
                                           f"times.{game_kind}: {exc}") from None
            settings["times"] = dict(body.times)
        if body.system in KNOCKOUT:
            ev = KnockoutEvent(body.name, series=body.series, draw=body.draw, byes=body.byes,
                               double=body.system == "double_knockout", seeding=body.seeding,
                               seed=seed, rules=ruleset)  # the profile's points (13.11)
        elif body.system in TEAM:
            times: dict[str, str] | None = None
            if body.times:
                bad = [k for k, v in body.times.items() if not isinstance(v, str)]
                if bad or len(str(body.times)) > 400:
                    raise CompetitionError("times：2021 联赛制团体赛的用时须为文字，如 "
                                           "{\"slow\": \"1200\"}",
                                           "times: a 2021-league team event takes time "
                                           "controls as text, e.g. {\"slow\": \"1200\"}")
                times = {str(k): str(v) for k, v in body.times.items()}
            ev = TeamEvent(body.name, system=body.system.removeprefix("team_"),
                           rounds=body.rounds, boards=body.boards,
                           lineup_mode=body.lineup_mode, seed=seed, rules=ruleset,
                           series="league_2021" if league_teams else "single",
                           decider_drawn=body.decider_drawn, times=times)
            if league_teams and body.online:  # each game is played on the server's clock
                for league_game, tc in ev.times.items():
                    try:
                        league_time(tc)
                    except CompetitionError as exc:
                        raise CompetitionError(f"times.{league_game}: {exc}") from None
        elif body.system in GROUP:
            ev = GroupEvent(body.name, groups=body.groups, grouping=body.grouping,
                            advance=body.advance, final=body.final, seed=seed,
                            rules=ruleset)
        elif body.system == "mcmahon":
            if body.kind != "go":
                raise CompetitionError("麦克马洪制是围棋的编排方法（按段级位）",
                                       "McMahon is a Go pairing system (ranks in kyu and dan)")
            if body.rounds is None:
                raise CompetitionError("麦克马洪制比赛须定轮数",
                                       "a McMahon event needs a number of rounds")
            ev = McMahonTournament(body.name, rounds=body.rounds, bar=body.bar,
                                   floor=body.floor, start_by=body.start_by, seed=seed)
        else:
            ev = Tournament(body.name, System(body.system), rounds=body.rounds, seed=seed,
                            rules=ruleset)  # scores by the profile's points (issue 13.11)
    except (RefereeError, CompetitionError) as exc:
        raise refused(422, exc, "tournament") from None
    settings["event"] = ev.to_dict()
    settings["users"] = {}
    settings["log"] = []
    row = repo.create_tournament(s, name=body.name, kind=body.kind, format=body.system,
                                 ruleset=ruleset, organiser_id=user.id, settings=settings)
    return tournament_view(s, row, user)


@api.get("")
def list_all(s: SessionDep) -> list[dict[str, Any]]:
    """List events, newest first."""
    return [{"id": t.id, "name": t.name, "kind": t.kind, "system": t.format, "status": t.status}
            for t in repo.list_tournaments(s)]


@api.get("/{tournament_id}")
def show(tournament_id: int, s: SessionDep, v: ViewerDep,
         round_no: Annotated[int | None, Query(alias="round", ge=1, le=1000)] = None,
         start: Annotated[int, Query(alias="from", ge=0, le=1_000_000)] = 0,
         at: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
         q: Annotated[str, Query(max_length=200)] = "",
         group: Annotated[int | None, Query(ge=0, le=10_000)] = None) -> dict[str, Any]:
    """Return an event: entries, the rounds the viewer may see (unpublished
    ones only for the organiser and arbiters) with round ``round`` in detail
    (default the latest; its matches or boards from ``from``), standings or
    placings from line ``at``, the viewer's own lines, the entries found by
    ``q``, a group event's group ``group``, the last of the log: bounded
    parts, the rest paged (issue 29)."""
    return tournament_view(s, light_row_or_404(s, tournament_id), v.user, round_no=round_no,
                           start=start, at=at, q=q, group=group)


def _account(s: Session, entry: NewEntry) -> tuple[str, User | None]:
    account: User | None = None
    if entry.username:
        account = repo.find_user(s, entry.username)
        if account is None:
            raise HTTPException(404, f"username: no user {entry.username!r}")
    name = entry.name or (account.username if account else None)  # the unique name
    if not name:
        raise HTTPException(422, "name: give a name or a username")
    return name.strip(), account


@api.post("/{tournament_id}/entries", status_code=201)
def add_entry(tournament_id: int, body: NewEntry, s: SessionDep, user: UserDep
              ) -> dict[str, Any]:
    """Register a player by name or by account (individual, knock-out and
    group events), with a Go rank for a McMahon event.  409 after the
    start, for a duplicate or in a team event; 404 for an unknown account;
    422 for an unreadable rank or a rank outside a McMahon event."""
    with LOCK:
        row = load_row(s, tournament_id)
        own(s, row, user)
        need(row, "individual", "knockout", "group")
        name, account = _account(s, body)
        rating = body.rating or (int(account.rating) if account else 0)
        ev = load_event(row)
        assert not isinstance(ev, TeamEvent)
        if body.rank is not None and not isinstance(ev, McMahonTournament):
            raise HTTPException(422, "rank: only a McMahon event seeds by Go rank")
        try:
            ev.add_player(Player(name, rating))
            if isinstance(ev, McMahonTournament) and body.rank is not None:
                try:
                    ev.set_rank(name, body.rank)
                except CompetitionError as exc:
                    raise refused(422, exc, "rank") from None
        except CompetitionError as exc:
            raise refused(409, exc, "entries") from None
        users = dict(row.settings.get("users", {}))
        if account is not None:
            users[name] = account.id
        save(s, row, ev, users=users)
        return tournament_view(s, row, user)


@api.post("/{tournament_id}/teams", status_code=201)
def add_team(tournament_id: int, body: NewTeam, s: SessionDep, user: UserDep
             ) -> dict[str, Any]:
    """Register a team with its members in board order (team events).  409
    after the start or for a duplicate; 422 for too few members."""
    with LOCK:
        row = load_row(s, tournament_id)
        own(s, row, user)
        need(row, "team")
        ev = load_event(row)
        assert isinstance(ev, TeamEvent)
        members = [_account(s, m) for m in body.members]
        try:
            ev.add_team(body.name.strip(), [n for n, _ in members])
        except CompetitionError as exc:
            status = 409 if "duplicate" in str(exc) or "closed" in str(exc) else 422
            raise refused(status, exc, "teams") from None
        users = dict(row.settings.get("users", {}))
        for n, account in members:
            if account is not None:
                users[member_key(body.name.strip(), n)] = account.id
        save(s, row, ev, users=users)
        return tournament_view(s, row, user)


@api.post("/{tournament_id}/start")
def start(tournament_id: int, s: SessionDep, user: UserDep) -> dict[str, Any]:
    """Close entries: draw the pairing numbers (or seed the knock-out).
    409 if already started or with fewer than two entries."""
    with LOCK:
        row = load_row(s, tournament_id)
        own(s, row, user)
        ev = load_event(row)
        try:
            ev.start()
        except CompetitionError as exc:
            raise refused(409, exc, "start") from None
        users = row.settings.get("users", {})
        if isinstance(ev, TeamEvent):
            for (tid, name), number in ev.member_numbers().items():
                team = ev.teams[tid - 1].name
                repo.add_entry(s, row.id, name, user_id=users.get(member_key(team, name)),
                               team=team, number=number)
        else:
            for p in ev.players:
                repo.add_entry(s, row.id, p.name, user_id=users.get(p.name), rating=p.rating,
                               number=p.id)
        save(s, row, ev, status="running",
              log=log_entry(row, user, "start", "entries closed, numbers drawn"))
        return tournament_view(s, row, user)


@api.post("/{tournament_id}/rounds")
async def pair_round(tournament_id: int, st: StateDep, hub: HubDep, user: UserDep
                     ) -> dict[str, Any]:
    """Pair the next round (Berger table, 积分编排制, knock-out bracket or
    card draw, team pairing).  With automatic publication the server games
    of boards between account holders are created and started.  409 if the
    event is not started, finished, or the previous round is undecided."""
    created, view = await run_in_threadpool(_pair_round, st, tournament_id, user)
    for game_id in created:
        await hub.start_if_ready(game_id)
    return view


def _pair_round(st: AppState, tournament_id: int, user: User) -> tuple[list[str], dict[str, Any]]:
    with LOCK, st.db.session() as s:
        row = load_row(s, tournament_id)
        authorise(s, row, user, Act.PAIR)
        ev = load_event(row)
        try:
            if isinstance(ev, Tournament):
                rec = ev.pair_next_round()
                number = rec.number
            elif isinstance(ev, KnockoutEvent):
                ev.pair_next_round()
                number = len(ev.rounds)
            else:
                number = ev.pair_next_round()
        except CompetitionError as exc:
            raise refused(409, exc, "pairing") from None
        hidden = hidden_rounds(row)
        if row.settings.get("publish", "auto") == "manual":
            hidden.add(number)
        what = f"round {number} paired"
        if isinstance(ev, GroupEvent) and ev.final is not None and len(ev.final.rounds) == 1:
            what += "; the final (11.3): " + ", ".join(p.name for p in ev.final.players)
        save(s, row, ev, hidden=sorted(hidden), log=log_entry(row, user, "pair", what))
        if isinstance(ev, Tournament):
            repo.create_round(s, row.id, number,
                              [(p.red, p.black) for p in sorted(ev.rounds[-1].pairings,
                                                                key=lambda p: p.board)])
        created = open_boards(s, row, ev, number, user.id)
        return created, tournament_view(s, row, user)


@api.post("/{tournament_id}/rounds/{round_no}/publish")
async def publish(tournament_id: int, round_no: int, st: StateDep, hub: HubDep, user: UserDep
                  ) -> dict[str, Any]:
    """Publish a round's pairings: everyone sees them and the server games
    are created and started.  404 for a round not paired."""
    created, view = await run_in_threadpool(_publish, st, tournament_id, round_no, user, True)
    for game_id in created:
        await hub.start_if_ready(game_id)
    return view


@api.post("/{tournament_id}/rounds/{round_no}/unpublish")
async def unpublish(tournament_id: int, round_no: int, st: StateDep, user: UserDep
                    ) -> dict[str, Any]:
    """Withdraw a round's pairings from view (to correct them before play).
    409 once the round has a result or a server game."""
    _, view = await run_in_threadpool(_publish, st, tournament_id, round_no, user, False)
    return view


def _publish(st: AppState, tournament_id: int, round_no: int, user: User, on: bool
             ) -> tuple[list[str], dict[str, Any]]:
    with LOCK, st.db.session() as s:
        row = load_row(s, tournament_id)
        authorise(s, row, user, Act.PAIR)
        ev = load_event(row)
        if not 1 <= round_no <= paired_rounds(ev):
            raise HTTPException(404, f"round {round_no} has not been paired")
        hidden = hidden_rounds(row)
        created: list[str] = []
        if on:
            hidden.discard(round_no)
            save(s, row, ev, hidden=sorted(hidden),
                  log=log_entry(row, user, "publish", f"round {round_no} published"))
            created = open_boards(s, row, ev, round_no, user.id)
        else:
            if round_no in hidden:
                raise HTTPException(409, f"round {round_no} is not published")
            in_play = [k for k in games_by_key(s, row) if k[0] == round_no]
            if round_has_results(ev, round_no) or in_play:
                raise HTTPException(409, f"round {round_no} has results or server games: it "
                                         "can no longer be unpublished")
            hidden.add(round_no)
            save(s, row, ev, hidden=sorted(hidden),
                  log=log_entry(row, user, "unpublish", f"round {round_no} withdrawn from view"))
        return created, tournament_view(s, row, user)


# ------------------------------------------------------------------ results
# The four kinds of board take one path (results.enter_result); each route
# only names its board.
async def _enter(st: AppState, hub: Hub, tournament_id: int, board: Board, body: BoardResult,
                 user: User) -> dict[str, Any]:
    def run() -> tuple[Entered, str, dict[str, Any]]:
        with LOCK, st.db.session() as s:
            row = load_row(s, tournament_id)
            done = enter_result(s, row, board, body.result, user=user, reason=body.reason,
                                red_fouls=body.red_fouls, black_fouls=body.black_fouls)
            return done, row.kind, tournament_view(s, row, user)

    done, kind, view = await run_in_threadpool(run)
    if done.ends is not None and done.result is not None:
        # the server game of the board ends with the arbiter's ruling
        # (Xiangqi 17.5: the arbiter announces the result; Go 4(3))
        await hub.rule(done.ends, done.result, "17.5" if kind == "xiangqi" else "4(3)",
                       f"{board.where}: result entered by {user.username}", user.id)
        view = await run_in_threadpool(_view, st, tournament_id, user)
    for game_id in done.created:
        await hub.start_if_ready(game_id)
    return view


def _view(st: AppState, tournament_id: int, user: User) -> dict[str, Any]:
    with st.db.session() as s:
        return tournament_view(s, load_row(s, tournament_id), user)


@api.put("/{tournament_id}/rounds/{round_no}/boards/{board}")
async def enter_board(tournament_id: int, round_no: int, board: int, body: BoardResult,
                      st: StateDep, hub: HubDep, user: UserDep) -> dict[str, Any]:
    """Enter or correct an over-the-board result of an individual event
    (arbiters and organisers), with the fouls of each side.  A correction
    needs a ``reason``.  422 for an unreadable result or an unknown board,
    409 for an unpublished round."""
    return await _enter(st, hub, tournament_id, IndividualBoard((round_no, board)), body, user)


@api.put("/{tournament_id}/rounds/{round_no}/groups/{group}/boards/{board}")
async def enter_group_board(tournament_id: int, round_no: int, group: int, board: int,
                            body: BoardResult, st: StateDep, hub: HubDep, user: UserDep
                            ) -> dict[str, Any]:
    """Enter or correct a board of a group event: group ``group``'s board in
    event round ``round_no``, or the final's for group 0 (arbiters and
    organisers).  A correction needs a reason.  422 for an unreadable
    result or an unknown board, 409 for an unpublished round or a group
    result once the final is made."""
    return await _enter(st, hub, tournament_id, GroupBoard((round_no, group, board)), body,
                        user)


@api.put("/{tournament_id}/rounds/{round_no}/matches/{match}/games/{game}")
async def enter_series_game(tournament_id: int, round_no: int, match: int, game: int,
                            body: BoardResult, st: StateDep, hub: HubDep, user: UserDep
                            ) -> dict[str, Any]:
    """Enter or correct the result of game ``game`` of knock-out match
    ``match`` (1-based) of round ``round_no``; the next game of the series,
    if due, is created on the server.  A correction needs a reason.  422 for
    an unreadable result or a game out of turn, 409 for a closed round."""
    return await _enter(st, hub, tournament_id, SeriesGame((round_no, match - 1, game)), body,
                        user)


@api.put("/{tournament_id}/rounds/{round_no}/matches/{match}/boards/{board}")
async def enter_team_board(tournament_id: int, round_no: int, match: int, board: int,
                           body: BoardResult, st: StateDep, hub: HubDep, user: UserDep
                           ) -> dict[str, Any]:
    """Enter or correct a board result of team match ``match`` (from the
    board's Red side); the match counts once all boards are in.  A
    correction needs a reason.  422 for an unknown board or an unreadable
    result, 409 for an unpublished round."""
    return await _enter(st, hub, tournament_id, TeamBoard((round_no, match, board)), body,
                        user)


# ---------------------------------------------------------------- decisions
@api.post("/{tournament_id}/rounds/{round_no}/matches/{match}/decision")
async def decide(tournament_id: int, round_no: int, match: int, body: Decision, st: StateDep,
                 hub: HubDep, user: UserDep) -> dict[str, Any]:
    """The arbiter decides knock-out match ``match`` (e.g. after a drawn
    single game: an armageddon or a lot played over the board), or takes a
    decision back (``winner: null``); a series game of it still in play on
    the server ends, won by the match's winner.  422 for a winner not in
    the match, 409 for a closed round."""
    def run() -> tuple[list[Due], dict[str, Any]]:
        with LOCK, st.db.session() as s:
            row = load_row(s, tournament_id)
            authorise(s, row, user, Act.RULE, players_at(s, row, (round_no, match - 1)))
            need(row, "knockout")
            check_open(row, round_no)
            ev = load_event(row)
            assert isinstance(ev, KnockoutEvent)
            try:
                ev.decide(round_no, match - 1, body.winner, body.reason)
            except CompetitionError as exc:
                status = 409 if "closed" in str(exc) else 422
                raise refused(status, exc, f"round {round_no} match {match}") from None
            who = "taken back" if body.winner is None else f"won by #{body.winner}"
            save(s, row, ev, log=log_entry(row, user, "decision",
                                           f"round {round_no} match {match} {who}",
                                           body.reason))
            return rulings_due(s, row), tournament_view(s, row, user)

    due, view = await run_in_threadpool(run)
    return await _end_games(st, hub, tournament_id, user, due, "17.5", "decision", view)


async def _end_games(st: AppState, hub: Hub, tournament_id: int, user: User, due: list[Due],
                     clause: str, what: str, view: dict[str, Any]) -> dict[str, Any]:
    """End the server games the event's act decided (:mod:`.endings`) with
    its ruling (``clause``); return the event's view, fresh if any ended."""
    ended = False
    for d in due:
        ended |= await hub.rule(d.game_id, d.result, clause,
                                f"{d.where}: {what} entered by {user.username}", user.id)
    return await run_in_threadpool(_view, st, tournament_id, user) if ended else view


@api.post("/{tournament_id}/rounds/{round_no}/matches/{match}/colour")
async def choose_colour(tournament_id: int, round_no: int, match: int, body: ColourChoice,
                        st: StateDep, hub: HubDep, user: UserDep) -> dict[str, Any]:
    """2021 league: choose the colours of knock-out match ``match``'s
    deciding game: ``red`` is the entry that will have Red.  The choice
    belongs to the rapid game's Black, so only the account registered for
    that entry, or an arbiter (for a player over the board), may make it;
    it is final, and the decider is then created on the server.  403 for
    anyone else, 409 when no choice is due, 422 for an entry not in the
    match."""
    created, view = await run_in_threadpool(_choose_colour, st, tournament_id, round_no,
                                            match, body, user)
    for game_id in created:
        await hub.start_if_ready(game_id)
    return view


def _choose_colour(st: AppState, tournament_id: int, round_no: int, match: int, body: ColourChoice,
                   user: User) -> tuple[list[str], dict[str, Any]]:
    with LOCK, st.db.session() as s:
        row = load_row(s, tournament_id)
        need(row, "knockout")
        check_open(row, round_no)
        ev = load_event(row)
        assert isinstance(ev, KnockoutEvent)
        where = f"round {round_no} match {match}"
        try:
            chooser = ev.awaiting_choice(round_no, match - 1)
        except CompetitionError as exc:
            raise refused(404, exc, where) from None
        if chooser is None:
            raise HTTPException(409, f"{where}: no colour choice is due")
        name = ev.player(chooser).name
        _choose_decider_colours(s, row, ev, user, where, name, account=name,
                               board=(round_no, match - 1),
                               choose=lambda: ev.choose_colour(round_no, match - 1, body.red),
                               red=lambda: ev.player(body.red).name)
        created = open_boards(s, row, ev, round_no, user.id)
        return created, tournament_view(s, row, user)


@api.post("/{tournament_id}/rounds/{round_no}/matches/{match}/boards/{board}/colour")
async def choose_board_colour(tournament_id: int, round_no: int, match: int, board: int,
                              body: BoardColourChoice, st: StateDep, hub: HubDep,
                              user: UserDep) -> dict[str, Any]:
    """2021 league, team events: choose the colours of a board's deciding
    game: ``red`` is the player (by name) who will have Red.  The choice
    belongs to the rapid game's Black (001), so only his registered
    account, or an arbiter of the event for him, may make it; it is final,
    and the decider is then created on the server.  403 for anyone else,
    409 when no choice is due, 422 for a player not on the board, 404 for
    an unknown match or board."""
    created, view = await run_in_threadpool(_choose_board_colour, st, tournament_id, round_no,
                                            match, board, body, user)
    for game_id in created:
        await hub.start_if_ready(game_id)
    return view


def _choose_board_colour(st: AppState, tournament_id: int, round_no: int, match: int,
                         board: int, body: BoardColourChoice, user: User
                         ) -> tuple[list[str], dict[str, Any]]:
    with LOCK, st.db.session() as s:
        row = load_row(s, tournament_id)
        need(row, "team")
        check_open(row, round_no)
        ev = load_event(row)
        assert isinstance(ev, TeamEvent)
        where = f"round {round_no} match {match} board {board}"
        try:
            m = ev.match(round_no, match)
            if not 1 <= board <= ev.boards or m.black_team is None:
                raise HTTPException(404, f"{where}: no such board")
            chooser = ev.awaiting_choice(round_no, match, board)
        except CompetitionError as exc:
            raise refused(404, exc, where) from None
        if chooser is None:
            raise HTTPException(409, f"{where}: no colour choice is due")
        tt = ev.team_tournament()
        team = next(tt.team(t).name for t in (m.red_team, m.black_team)
                    if t is not None and chooser in tt.team(t).roster)
        red = body.red.strip()
        _choose_decider_colours(s, row, ev, user, where, chooser,
                               account=member_key(team, chooser),
                               board=(round_no, match, board),
                               choose=lambda: ev.choose_colour(round_no, match, board, red),
                               red=lambda: red)
        created = open_boards(s, row, ev, round_no, user.id)
        return created, tournament_view(s, row, user)


def _choose_decider_colours(s: Session, row: TournamentRow, ev: Event, user: User, where: str,
                           chooser: str, *, account: str, board: tuple[int, ...],
                           choose: Callable[[], object], red: Callable[[], str]) -> None:
    """Make the colour choice of a 2021-league deciding game (001: the rapid
    game's Black chooses) for ``chooser``, in knock-out and team events
    alike, and log it.  The choice is the entry's whose registered account
    is ``users[account]``, or an arbiter's for him (authorised as a ruling
    on ``board``, never on a game he plays in, 17.4).  ``choose`` makes it
    in the event; ``red`` then names who has Red.  Raises HTTPException 403
    for anyone else, 409 when the event refuses it in its state (already
    chosen), 422 for a choice it refuses otherwise (not on the board)."""
    users: dict[str, int] = row.settings.get("users", {})
    own = users.get(account) == user.id
    if not own and not staff(s, row, user):
        raise HTTPException(403, f"{where}: the choice is {chooser}'s (Black in the rapid game), "
                                 "or an arbiter's for him")
    if not own:
        authorise(s, row, user, Act.RULE, players_at(s, row, board))
    try:
        choose()
    except CompetitionError as exc:
        status = 409 if isinstance(exc, EventStateError) else 422
        raise refused(status, exc, where) from None
    by = "" if own else f" for {chooser}"
    save(s, row, ev, log=log_entry(row, user, "colour",
                               f"{where} decider (附加赛): {chooser} chose {red()} to have Red{by}"))


@api.put("/{tournament_id}/rounds/{round_no}/matches/{match}/forfeit")
async def forfeit_match(tournament_id: int, round_no: int, match: int, body: Forfeit,
                        st: StateDep, hub: HubDep, user: UserDep) -> dict[str, Any]:
    """Record a whole team match as forfeited (21.4: the present team gets
    the match points of a win); the match's server games still in play end,
    the present team's players winning.  422 for a result that is not a
    forfeit."""
    def run() -> tuple[list[Due], dict[str, Any]]:
        with LOCK, st.db.session() as s:
            row = load_row(s, tournament_id)
            authorise(s, row, user, Act.RULE, players_at(s, row, (round_no, match)))
            need(row, "team")
            check_open(row, round_no)
            ev = load_event(row)
            assert isinstance(ev, TeamEvent)
            try:
                ev.record_forfeit(round_no, match, Result.parse(body.result))
            except CompetitionError as exc:
                raise refused(422, exc, f"round {round_no} match {match}") from None
            save(s, row, ev, log=log_entry(row, user, "forfeit",
                                           f"round {round_no} match {match}: {body.result}",
                                           body.reason))
            return rulings_due(s, row), tournament_view(s, row, user)

    due, view = await run_in_threadpool(run)
    return await _end_games(st, hub, tournament_id, user, due, "21.4", "forfeit", view)


@api.put("/{tournament_id}/rounds/{round_no}/matches/{match}/lineups")
def set_lineups(tournament_id: int, round_no: int, match: int, body: Lineups,
                s: SessionDep, user: UserDep) -> dict[str, Any]:
    """Set both line-ups of a team match (board 1 first) while its round is
    unpublished.  422 for a line-up the event's mode forbids (12.1-12.3),
    409 once the round is published."""
    with LOCK:
        row = load_row(s, tournament_id)
        own(s, row, user)
        need(row, "team")
        if round_no not in hidden_rounds(row):
            raise HTTPException(409, f"round {round_no} is published: its line-ups are fixed")
        ev = load_event(row)
        assert isinstance(ev, TeamEvent)
        try:
            m = ev.match(round_no, match)
            tt = ev.tt
            assert tt is not None
            teams = {tt.team(t).name for t in (m.red_team, m.black_team) if t is not None}
            # who plays which board is the pairing of the match: not by one who plays in it
            authorise(s, row, user, Act.RUN, team_accounts(row, teams))
            ev.set_lineups(round_no, match, body.red, body.black)
        except CompetitionError as exc:
            raise refused(422, exc, f"round {round_no} match {match}") from None
        save(s, row, ev, log=log_entry(row, user, "lineups", f"round {round_no} match {match}: "
                                   f"{', '.join(body.red)} v {', '.join(body.black)}"))
        return tournament_view(s, row, user)


@api.post("/{tournament_id}/withdrawals")
async def withdraw(tournament_id: int, body: Withdrawal, st: StateDep, hub: HubDep,
                   user: UserDep) -> dict[str, Any]:
    """Record a withdrawal.  Before the start the entry is struck off and
    the numbers are drawn afresh at the start (20.2).  After it: in an
    individual event its unplayed games become forfeits (its game of the
    current round too when it has no result: 20.4, 未赛对局均作弃权) and later
    rounds pair it no more, and a round robin strikes out its results if it
    met fewer than half its opponents (20.3, 20.4); in a knock-out its
    undecided match goes to the opponent; in a group event it withdraws from
    its group's round robin (or the final) as in an individual one.  A team
    is treated as an entry: its unfinished match of the current round and
    its later ones are forfeits, the opponent winning (a Swiss pairs it no
    more), and in a round robin its results are struck out if it met fewer
    than half its opponents (20.3; 20.4 keeps them in a Swiss).  The
    server games of the boards so decided that are still in play end with
    that ruling, the opponent winning.  404 for an unknown entry, 409 for
    one that is out already."""
    def run() -> tuple[list[Due], dict[str, Any]]:
        with LOCK, st.db.session() as s:
            return _withdraw(s, tournament_id, body, user)

    due, view = await run_in_threadpool(run)
    return await _end_games(st, hub, tournament_id, user, due, "20.4", "withdrawal", view)


def _withdraw(s: Session, tournament_id: int, body: Withdrawal, user: User
              ) -> tuple[list[Due], dict[str, Any]]:
    row = load_row(s, tournament_id)
    name = body.name.strip()
    # 17.4: not by one who is the entry or was paired against it; another arbiter does it
    authorise(s, row, user, Act.RULE, players_against(s, row, name))
    ev = load_event(row)
    try:
        if not ev.started:
            if isinstance(ev, TeamEvent):
                ev.remove_team(name)
            else:
                ev.remove_player(name)
            what = f"{name} struck off before the start (20.2)"
        elif isinstance(ev, TeamEvent | GroupEvent):
            what = ev.withdraw(name)
        else:
            found = [p for p in ev.players if p.name == name]
            if not found:
                raise HTTPException(404, f"no entry named {name!r}")
            if isinstance(ev, Tournament):
                after = ev.settled_round(found[0].id)
                ev.withdraw(found[0].id, after_round=after)
                what = f"{name} withdrew after round {after} (20.3, 20.4)"
            else:
                ev.withdraw(found[0].id, body.reason)
                what = f"{name} withdrew; the current match goes to the opponent (20.4)"
    except CompetitionError as exc:
        status = 404 if "no entry" in str(exc) or "no team" in str(exc) else 409
        raise refused(status, exc, "withdrawal") from None
    save(s, row, ev, log=log_entry(row, user, "withdrawal", what, body.reason))
    return rulings_due(s, row), tournament_view(s, row, user)
