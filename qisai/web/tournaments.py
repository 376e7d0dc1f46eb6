"""Tournaments: the API and pages, on :mod:`qisai.competition`.

Four families of events, by the row's ``format``:

* individual (``round_robin``, ``double_round_robin``, ``swiss``): the
  competition layer's :class:`~qisai.competition.tournament.Tournament`;
  ``mcmahon`` (Go) is one too, :class:`qisai.web.events.McMahonTournament`;
* knock-out (``knockout``, ``double_knockout``):
  :class:`qisai.web.events.KnockoutEvent` (bracket or card draw, series,
  the 2021 league format with its colour choice);
* team (``team_round_robin``, ``team_swiss``):
  :class:`qisai.web.events.TeamEvent` (line-ups, board results, 场分);
* group (``group_round_robin``): :class:`qisai.web.events.GroupEvent`
  (groups drawn by seeding or lot, then a final round robin).

The event object is the truth about entries, pairings, results and
standings; its JSON form is kept in the row's settings (``event``).  Every
game to be played is mirrored as a :class:`~qisai.store.models.Pairing` row
so that a server game can point at it: for individual events the mirror
round is the event's round and the board its board; for the others
``settings["mirror"]`` maps each mirror round's boards to their place in
the event.  When a server game ends its result is entered by itself
(:func:`record_game_result`).

Roles: the event's organiser creates it, registers entries, starts, pairs,
publishes and sets line-ups; arbiters (and organisers) enter and correct
results (a correction needs a reason), decide knock-out matches, forfeit
team matches and record withdrawals; the colours of a 2021-league deciding
game are chosen by the player entitled to (or by an arbiter for them).  Every such act is kept in the event's
log (``settings["log"]``) with who, when and why.  A round's pairings are
published at once (``publish: auto``) or when the organiser says so
(``manual``); server games are created at publication, and until then only
the organiser and arbiters see the round.
"""

from __future__ import annotations

import datetime as dt
import secrets
import threading
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from qisai.competition import (
    CompetitionError,
    EventStateError,
    Player,
    Result,
    System,
    Tournament,
)
from qisai.competition.output import crosstable_grid, standings_rows
from qisai.referee.errors import RefereeError
from qisai.store import NotFoundError, repo
from qisai.store.models import Role, User
from qisai.store.models import Tournament as TournamentRow
from qisai.web import views
from qisai.web.deps import ArbiterDep, OrganiserDep, SessionDep, StateDep, UserDep, ViewerDep
from qisai.web.events import GroupEvent, KnockoutEvent, McMahonTournament, TeamEvent

__all__ = ["api", "pages", "record_game_result", "tournament_view"]

api = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
pages = APIRouter(include_in_schema=False)
_lock = threading.Lock()  # read-modify-write of an event's state in this process

INDIVIDUAL = ("round_robin", "double_round_robin", "swiss")
KNOCKOUT = ("knockout", "double_knockout")
TEAM = ("team_round_robin", "team_swiss")
GROUP = ("group_round_robin",)
Event = Tournament | KnockoutEvent | TeamEvent | GroupEvent


class NewTournament(BaseModel):
    """An event to create."""

    name: str = Field(min_length=1, max_length=200)
    kind: Literal["xiangqi", "go"] = "xiangqi"
    system: Literal["round_robin", "double_round_robin", "swiss", "mcmahon", "knockout",
                    "double_knockout", "team_round_robin", "team_swiss",
                    "group_round_robin"] = "round_robin"
    rounds: int | None = Field(default=None, ge=1, le=50)
    """Rounds of a Swiss or McMahon (required) or a round robin (default:
    the table)."""
    ruleset: str | None = Field(default=None, max_length=32)
    time: dict[str, Any] | None = None
    times: dict[Literal["game", "extra", "slow", "rapid", "decider"], dict[str, Any]] | None \
        = None
    """Knock-out: a time control per kind of series game, instead of
    ``time`` for those games (the 2021 league's slow, rapid and deciding
    games; a best-of-three's extra game)."""
    online: bool = True
    """Create server games for boards whose two players have accounts."""
    publish: Literal["auto", "manual"] = "auto"
    """``auto``: pairings are public as soon as made; ``manual``: the
    organiser publishes each round (and may set team line-ups before)."""
    series: Literal["single", "two_games", "best_of_three", "league_2021"] = "two_games"
    """Knock-out: how a match is played out (13.5 two games; 三局两胜; the
    2021 league: slow, rapid with colours swapped, a decider whose colours
    the rapid game's Black chooses)."""
    draw: Literal["bracket", "cards"] = "bracket"
    """Knock-out: seeded bracket, or a card draw each round (local rules 9)."""
    byes: Literal["seeded", "lot"] = "seeded"
    """Knock-out bracket: byes to the top seeds or by lot."""
    seeding: Literal["rating", "order", "lot"] = "rating"
    """Knock-out: seed by rating, as registered, or by lot."""
    boards: int = Field(default=4, ge=1, le=12)
    """Team events: boards per match."""
    lineup_mode: Literal["fixed", "substitutes", "free"] = "substitutes"
    """Team events: 12.1 分台定人制, 12.2 分台换人制, 12.3 临时定台制."""
    groups: int = Field(default=2, ge=2, le=32)
    """Group round robin: the number of groups (11.3)."""
    grouping: Literal["snake", "lot"] = "snake"
    """Group round robin: seeded by rating and snaked, or snaked by lot."""
    advance: int = Field(default=2, ge=1, le=16)
    """Group round robin: entries of each group that go on to the final."""
    final: Literal["round_robin", "none"] = "round_robin"
    """Group round robin: a final round robin of the qualifiers, or none."""
    bar: str = Field(default="3d", max_length=8)
    """McMahon: the bar (ranks at or above it start equal)."""
    floor: str = Field(default="20k", max_length=8)
    """McMahon: the floor (ranks at or below it start at 0)."""
    start_by: Literal["rank", "rating"] = "rank"
    """McMahon: starting scores from the registered Go rank or from the
    rating (the EGF scale: 2100 is 1 dan, 100 points a grade)."""


class NewEntry(BaseModel):
    """A player to register: a name, or an account (``username``)."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    username: str | None = Field(default=None, max_length=40)
    rating: int = Field(default=0, ge=0, le=4000)
    rank: str | None = Field(default=None, max_length=8)
    """McMahon events: the Go rank (``3d``, ``5k``, ``2段``, ``10级``)."""


class NewTeam(BaseModel):
    """A team to register: its name and its members in board order (first
    the boards, then the reserves)."""

    name: str = Field(min_length=1, max_length=200)
    members: list[NewEntry] = Field(min_length=1, max_length=30)


class BoardResult(BaseModel):
    """A result as the competition layer reads it (``1-0``, ``0-1``, ``=``,
    ``+-``, ``-+``, ``--``), the fouls of each side (犯规, counted by the
    tie-breaks) and, for a correction, the reason."""

    result: str = Field(min_length=1, max_length=8)
    reason: str | None = Field(default=None, max_length=500)
    red_fouls: int = Field(default=0, ge=0, le=99)
    black_fouls: int = Field(default=0, ge=0, le=99)


class Decision(BaseModel):
    """An arbiter's decision of a knock-out match: the winner's entry number
    (``None`` takes a decision back) and why."""

    winner: int | None
    reason: str = Field(min_length=1, max_length=500)


class Forfeit(BaseModel):
    """A team match forfeited (21.4): ``+--``, ``--+`` or ``---``, and why."""

    result: str = Field(min_length=1, max_length=8)
    reason: str = Field(min_length=1, max_length=500)


class Lineups(BaseModel):
    """Both line-ups of a team match, board 1 first."""

    red: list[str] = Field(min_length=1, max_length=12)
    black: list[str] = Field(min_length=1, max_length=12)


class ColourChoice(BaseModel):
    """The colour choice of a 2021-league deciding game: the entry number
    that will have Red."""

    red: int


class Withdrawal(BaseModel):
    """An entry (player or team, by name) withdrawing (20.2-20.4), and why."""

    name: str = Field(min_length=1, max_length=200)
    reason: str = Field(min_length=1, max_length=500)


# ------------------------------------------------------------------ storage
def family(row: TournamentRow) -> str:
    """Return ``individual``, ``knockout``, ``team`` or ``group`` for an
    event row."""
    return "knockout" if row.format in KNOCKOUT else "team" if row.format in TEAM \
        else "group" if row.format in GROUP else "individual"


def _event(row: TournamentRow) -> Event:
    data = row.settings["event"]
    fam = family(row)
    if fam == "knockout":
        return KnockoutEvent.from_dict(data)
    if fam == "team":
        return TeamEvent.from_dict(data)
    if fam == "group":
        return GroupEvent.from_dict(data)
    if row.format == "mcmahon":
        return McMahonTournament.from_dict(data, source=f"tournament {row.id}")
    return Tournament.from_dict(data, source=f"tournament {row.id}")


def _save(s: Session, row: TournamentRow, ev: Event, status: str | None = None,
          **extra: Any) -> None:
    settings = dict(row.settings)
    settings["event"] = ev.to_dict()
    settings.update(extra)
    if status is None and ev.started and ev.finished:
        status = "finished"
    repo.save_tournament(s, row.id, settings=settings, status=status)


def _load(s: Session, tournament_id: int) -> TournamentRow:
    try:
        return repo.get_tournament(s, tournament_id)
    except NotFoundError as exc:
        raise HTTPException(404, str(exc)) from None


def _log(row: TournamentRow, user: User | None, action: str, what: str,
         reason: str | None = None) -> list[dict[str, Any]]:
    entry = {"at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
             "by": None if user is None else user.username, "action": action, "what": what}
    if reason:
        entry["reason"] = reason
    return [*row.settings.get("log", []), entry]


def _own(row: TournamentRow, user: User) -> None:
    """403 unless ``user`` organises this event."""
    if row.organiser_id != user.id:
        raise HTTPException(403, f"only the event's organiser (user #{row.organiser_id}) may "
                                 "do this")


def _need(row: TournamentRow, *families: str) -> None:
    if family(row) not in families:
        raise HTTPException(409, f"a {row.format} event has no such action "
                                 f"(it is for {' or '.join(families)} events)")


def _hidden(row: TournamentRow) -> set[int]:
    return set(row.settings.get("hidden", []))


def _member_key(team: str, name: str) -> str:
    return f"{team}/{name}"


# --------------------------------------------------------------------- views
def _staff(user: User | None) -> bool:
    return user is not None and user.role_enum.allows(Role.ARBITER)


def tournament_view(s: Session, row: TournamentRow, viewer: User | None = None
                    ) -> dict[str, Any]:
    """Return an event as JSON-ready data for ``viewer``: entries, rounds
    (unpublished ones only for the organiser and arbiters), results, server
    games, standings or placings, crosstable and the arbiters' log."""
    ev = _event(row)
    hidden = _hidden(row)
    staff = _staff(viewer)
    base: dict[str, Any] = {
        "id": row.id, "name": row.name, "kind": row.kind, "system": row.format,
        "family": family(row), "ruleset": row.ruleset, "status": row.status,
        "organiser": row.organiser_id, "publish": row.settings.get("publish", "auto"),
        "started": ev.started, "finished": ev.started and ev.finished,
        "hidden_rounds": sorted(hidden), "log": row.settings.get("log", []),
    }
    users: dict[str, int] = row.settings.get("users", {})
    games = _games_by_key(s, row)
    if isinstance(ev, Tournament):
        base.update(_individual_view(ev, users, games))
    elif isinstance(ev, KnockoutEvent):
        base.update(_knockout_view(ev, users, games))
    elif isinstance(ev, GroupEvent):
        base.update(_group_view(ev, users, games))
    else:
        base.update(_team_view(ev, users, games))
    in_play = {k[0] for k in games}
    for r in base["rounds"]:
        r["published"] = r["number"] not in hidden
        # once a result or a server game exists the pairings stand
        r["locked"] = r["number"] in in_play or _round_has_results(ev, r["number"])
    if not staff:
        base["rounds"] = [r for r in base["rounds"] if r["published"]]
    return base


def _games_by_key(s: Session, row: TournamentRow) -> dict[tuple[int, ...], str]:
    """Server games by their place: ``(round, board)`` for individual events,
    the mirror key for the others."""
    mirror: dict[str, list[list[int]]] = row.settings.get("mirror", {})
    out: dict[tuple[int, ...], str] = {}
    for rnd, pairings in repo.list_rounds(s, row.id):
        by_pairing = repo.games_of_round(s, rnd.id)
        keys = mirror.get(str(rnd.number))
        for p in pairings:
            gid = by_pairing.get(p.id)
            if gid is None:
                continue
            if keys is None:
                out[(rnd.number, p.board)] = gid
            else:
                out[tuple(keys[p.board - 1])] = gid
    return out


def _individual_view(t: Tournament, users: dict[str, int],
                     games: dict[tuple[int, ...], str]) -> dict[str, Any]:
    rounds = []
    for rec in t.rounds:
        boards = []
        for p in rec.pairings:
            g = rec.results.get(p.board)
            boards.append({
                "board": p.board, "red": p.red, "black": p.black,
                "red_name": t.player(p.red).name,
                "black_name": None if p.black is None else t.player(p.black).name,
                "result": None if g is None else g.result.value,
                "fouls": None if g is None else [g.red_fouls, g.black_fouls],
                "game": games.get((rec.number, p.board))})
        rounds.append({"number": rec.number, "boards": boards, "complete": rec.complete})
    view: dict[str, Any] = {
        "rounds_planned": t.rounds_planned,
        "players": [{"number": p.id, "name": p.name, "rating": p.rating,
                     "user": users.get(p.name), "withdrawn_after": p.withdrawn_after}
                    for p in t.players],
        "rounds": rounds,
        "standings": standings_rows(t) if t.started else [],
        "crosstable": crosstable_grid(t) if t.started else [],
        "tiebreaks": [{"key": c.value, "name": c.chinese} for c in t.tiebreaks],
    }
    if isinstance(t, McMahonTournament):
        view["mcmahon"] = {"bar": t.bar, "floor": t.floor, "start_by": t.start_by}
        for p in view["players"]:
            entry = next(x for x in t.players if x.name == p["name"])
            p["rank"] = t.rank_for(entry)
            p["start"] = t.start_scores.get(p["name"]) if t.started else None
        for row in view["standings"]:
            # the standings' points are McMahon scores: start + points scored
            row["start"] = t.start_score(row["number"])
            row["score"] = row["points"] - row["start"]
    return view


def _knockout_view(ev: KnockoutEvent, users: dict[str, int],
                   games: dict[tuple[int, ...], str]) -> dict[str, Any]:
    names = {p.id: p.name for p in ev.players}
    rounds = []
    for r, rnd in enumerate(ev.rounds, start=1):
        matches = []
        for m in rnd:
            series = ev.series(r, m.index)
            played = [] if series is None else [
                {"game": g.number, "kind": g.kind, "red": g.red, "black": g.black,
                 "red_name": names[g.red], "black_name": names[g.black],
                 "result": res.value, "server": games.get((r, m.index, g.number))}
                for g, res in series.games]
            nxt = None
            g = ev.next_game(r, m.index)
            if g is not None:
                nxt = {"game": g.number, "kind": g.kind, "red": g.red, "black": g.black,
                       "red_name": names[g.red], "black_name": names[g.black],
                       "server": games.get((r, m.index, g.number))}
            chooser = ev.awaiting_choice(r, m.index)
            decision = ev.decisions.get(f"{r}:{m.index}")
            matches.append({
                "match": m.index + 1, "red": m.red, "black": m.black,
                "red_name": names[m.red], "black_name": None if m.black is None
                else names[m.black], "winner": m.winner,
                "winner_name": None if m.winner is None else names[m.winner],
                "note": m.note, "games": played, "next": nxt, "decision": decision,
                "chooser": chooser, "chooser_name": None if chooser is None else names[chooser],
                "chosen_red": ev.choices.get(f"{r}:{m.index}"),
                "how": (f"decision: {decision['reason']}" if decision else
                        series.how if series is not None and series.decided else
                        "bye" if m.black is None else "")})
        rounds.append({"number": r, "matches": matches,
                       "complete": all(m.winner is not None for m in rnd)})
    places = ev.placements() if ev.started else []
    return {
        "series": ev.series_format, "draw": ev.draw, "byes": ev.byes, "double": ev.double,
        "seeding": ev.seeding,
        "players": [{"number": p.id, "name": p.name, "rating": p.rating,
                     "user": users.get(p.name)} for p in ev.players],
        "rounds": rounds,
        "alive": [] if ev.ko is None else ev.ko.alive(),
        "champion": None if ev.ko is None or ev.ko.champion is None else names[ev.ko.champion],
        "placements": [{"place": pl, "shared": sh, "number": e, "name": names[e]}
                       for pl, sh, e in places],
    }


def _team_view(ev: TeamEvent, users: dict[str, int],
               games: dict[tuple[int, ...], str]) -> dict[str, Any]:
    struck = ev.annulled_teams() if ev.started else set()
    teams = [{"number": t.id, "name": t.name, "roster": [
        {"name": n, "user": users.get(_member_key(t.name, n))} for n in t.roster],
        "withdrawn_after": ev.withdrawn.get(t.id), "struck": t.id in struck}
        for t in ev.teams]
    rounds = []
    standings: list[dict[str, Any]] = []
    crosstable: list[list[str]] = []
    if ev.tt is not None:
        tt = ev.tt
        from qisai.competition.scoring import CLASSIC

        for r, rnd in enumerate(tt.rounds, start=1):
            matches = []
            for m in rnd:
                red_name = tt.team(m.red_team).name
                if m.black_team is None:
                    matches.append({"match": m.board, "red_team": red_name, "black_team": None,
                                    "boards": [], "complete": True, "bye": True})
                    continue
                state = ev.matches[f"{r}:{m.board}"]
                boards = [{"board": b, "red": red, "black": black,
                           "result": state["results"].get(str(b)),
                           "fouls": state["fouls"].get(str(b)),
                           "game": games.get((r, m.board, b))}
                          for b, red, black in ev.board_players(r, m.board)]
                complete = bool(m.results) or m.forfeit is not None
                score = list(m.board_points(CLASSIC)) if m.results else None
                mp = None
                if score is not None:
                    mp = [tt.match_points.of(score[0], score[1]),
                          tt.match_points.of(score[1], score[0])]
                matches.append({
                    "match": m.board, "red_team": red_name,
                    "black_team": tt.team(m.black_team).name,
                    "lineups": state["lineups"], "boards": boards, "complete": complete,
                    "forfeit": None if m.forfeit is None else m.forfeit.value,
                    "board_points": score, "match_points": mp, "bye": False})
            rounds.append({"number": r, "matches": matches,
                           "complete": all(x["complete"] for x in matches)})
        for st in ev.standings():
            row: dict[str, Any] = {"place": st.rank, "shared": st.shared, "number": st.entry,
                                   "name": tt.team(st.entry).name, "points": st.points}
            for c in tt.tiebreaks:
                v = st.values.get(c)
                row[c.value] = list(v) if isinstance(v, tuple) else v
            standings.append(row)
        crosstable = ev.crosstable()
    return {"boards": ev.boards, "lineup_mode": ev.lineup_mode.value,
            "rounds_planned": ev.rounds_planned, "teams": teams, "players": [],
            "rounds": rounds, "standings": standings, "crosstable": crosstable,
            "tiebreaks": [] if ev.tt is None else [
                {"key": c.value, "name": c.chinese} for c in ev.tt.tiebreaks]}


def _group_view(ev: GroupEvent, users: dict[str, int],
                games: dict[tuple[int, ...], str]) -> dict[str, Any]:
    number = {p.name: p.id for p in ev.players}
    rounds = []
    for r in range(1, ev.paired_rounds + 1):
        boards = []
        for g, t, local in ev.round_parts(r):
            rec = t.rounds[local - 1]
            for p in rec.pairings:
                res = rec.results.get(p.board)
                boards.append({
                    "group": g, "board": p.board, "red": number[t.player(p.red).name],
                    "black": None if p.black is None else number[t.player(p.black).name],
                    "red_name": t.player(p.red).name,
                    "black_name": None if p.black is None else t.player(p.black).name,
                    "result": None if res is None else res.result.value,
                    "fouls": None if res is None else [res.red_fouls, res.black_fouls],
                    "game": games.get((r, g, p.board))})
        stage = "final" if r > ev.group_rounds else "group"
        rounds.append({"number": r, "stage": stage, "boards": boards,
                       "complete": all(t.rounds[local - 1].complete
                                       for _, t, local in ev.round_parts(r))})

    def table(g: int, t: Tournament) -> dict[str, Any]:
        return {"group": g, "name": t.name, "rounds_planned": t.rounds_planned,
                "players": [{"number": number[p.name], "group_number": p.id, "name": p.name,
                             "rating": p.rating, "user": users.get(p.name),
                             "withdrawn_after": p.withdrawn_after} for p in t.players],
                "standings": [dict(row, group_number=row["number"],
                                   number=number[row["name"]]) for row in standings_rows(t)],
                "crosstable": crosstable_grid(t), "finished": t.finished}

    names = {p.id: p.name for p in ev.players}
    qualifiers: list[str] = []
    if ev.final is not None:
        qualifiers = [p.name for p in ev.final.players]
    elif ev.groups_finished and ev.final_stage == "round_robin":
        try:
            qualifiers = [p.name for p in ev.qualifiers()]
        except CompetitionError:
            qualifiers = []  # withdrawals left a group short: pairing the final says so
    return {
        "groups_count": ev.group_count, "grouping": ev.grouping, "advance": ev.advance,
        "final_stage": ev.final_stage, "group_rounds": ev.group_rounds,
        "players": [{"number": p.id, "name": p.name, "rating": p.rating,
                     "user": users.get(p.name)} for p in ev.players],
        "groups": [table(g, t) for g, t in enumerate(ev.groups, start=1)],
        "final": None if ev.final is None else table(0, ev.final),
        "qualifiers": qualifiers, "cut_ties": ev.cut_ties(),
        "rounds": rounds,
        "placements": [{"place": pl, "shared": sh, "number": e, "name": names[e]}
                       for pl, sh, e in ev.placements()],
        "tiebreaks": [{"key": c.value, "name": c.chinese}
                      for c in (ev.groups[0].tiebreaks if ev.groups else ())],
    }


# -------------------------------------------------------------- server games
def _server_game(s: Session, row: TournamentRow, pairing_id: int, red_uid: int | None,
                 black_uid: int | None, by: int | None, game_kind: str | None = None
                 ) -> str | None:
    """Create the server game of a board when both players have accounts and
    the event plays online (with the time control of its kind of series
    game, if the event sets one); return its id."""
    if not row.settings.get("online", True) or red_uid is None or black_uid is None:
        return None
    game_settings = {k: v for k, v in row.settings.items() if k == "time"}
    per_kind = row.settings.get("times", {})
    if game_kind in per_kind:
        game_settings["time"] = per_kind[game_kind]
    g = repo.create_game(s, kind=row.kind, ruleset=row.ruleset, settings=game_settings,
                         first_user_id=red_uid, second_user_id=black_uid, created_by_id=by,
                         rated=True, pairing_id=pairing_id)
    return g.id


def _open_boards(s: Session, row: TournamentRow, ev: Event, round_no: int,
                 by: int | None) -> list[str]:
    """Make the mirror boards and server games of a published round that do
    not exist yet (for a knock-out: the series games now due); return the
    new server games.  Saves the mirror map in the row."""
    users: dict[str, int] = row.settings.get("users", {})
    created: list[str] = []
    if round_no in _hidden(row):
        return created
    if isinstance(ev, Tournament):
        rec = ev.rounds[round_no - 1]
        mirror = {p.board: p for r, ps in repo.list_rounds(s, row.id) if r.number == round_no
                  for p in ps}
        have = set(_games_by_key(s, row))
        for p in rec.pairings:
            if p.black is None or p.board in rec.results or (round_no, p.board) in have:
                continue
            gid = _server_game(s, row, mirror[p.board].id, users.get(ev.player(p.red).name),
                               users.get(ev.player(p.black).name), by)
            if gid:
                created.append(gid)
        return created
    mirror_map: dict[str, list[list[int]]] = dict(row.settings.get("mirror", {}))
    known = {tuple(k) for keys in mirror_map.values() for k in keys}
    if isinstance(ev, KnockoutEvent):
        for slot in ev.next_games(round_no):
            if slot.key in known:
                continue
            number = max((int(k) for k in mirror_map), default=0) + 1
            repo.create_round(s, row.id, number, [(slot.red, slot.black)])
            mirror_map[str(number)] = [list(slot.key)]
            known.add(slot.key)
            pairing = repo.find_pairing(s, row.id, number, 1)
            gid = _server_game(s, row, pairing.id, users.get(ev.player(slot.red).name),
                               users.get(ev.player(slot.black).name), by, slot.kind)
            if gid:
                created.append(gid)
    elif isinstance(ev, GroupEvent):
        if str(round_no) in mirror_map:
            return created
        slots = ev.boards(round_no)
        # one mirror round holds the boards of every group (or of the final)
        repo.create_round(s, row.id, round_no, [(b.red, b.black or None) for b in slots])
        mirror_map[str(round_no)] = [list(b.key) for b in slots]
        names = {p.id: p.name for p in ev.players}
        for k, slot in enumerate(slots, start=1):
            if not slot.black or ev.result_of(*slot.key) is not None:
                continue
            pairing = repo.find_pairing(s, row.id, round_no, k)
            gid = _server_game(s, row, pairing.id, users.get(names[slot.red]),
                               users.get(names[slot.black]), by)
            if gid:
                created.append(gid)
    else:
        if str(round_no) in mirror_map:
            return created
        numbers = ev.member_numbers()
        tt = ev.tt
        assert tt is not None
        keys: list[list[int]] = []
        boards: list[tuple[int, int | None]] = []
        owners: list[tuple[str, str]] = []
        for m in tt.rounds[round_no - 1]:
            if m.black_team is None:
                continue
            red_team, black_team = tt.team(m.red_team), tt.team(m.black_team)
            for b, red, black in ev.board_players(round_no, m.board):
                # the first-listed team has Red on odd boards (13.2)
                rt, bt = (red_team, black_team) if b % 2 == 1 else (black_team, red_team)
                boards.append((numbers[(rt.id, red)], numbers[(bt.id, black)]))
                keys.append([round_no, m.board, b])
                owners.append((_member_key(rt.name, red), _member_key(bt.name, black)))
        repo.create_round(s, row.id, round_no, boards)
        mirror_map[str(round_no)] = keys
        for k, (key, (red_key, black_key)) in enumerate(zip(keys, owners, strict=True),
                                                        start=1):
            if ev.matches[f"{key[0]}:{key[1]}"]["results"].get(str(key[2])):
                continue
            pairing = repo.find_pairing(s, row.id, round_no, k)
            gid = _server_game(s, row, pairing.id, users.get(red_key), users.get(black_key), by)
            if gid:
                created.append(gid)
    settings = dict(row.settings)
    settings["mirror"] = mirror_map
    repo.save_tournament(s, row.id, settings=settings)
    return created


def _mirror_result(s: Session, row: TournamentRow, key: tuple[int, ...], value: str,
                   source: str) -> None:
    """Copy a result to the board's mirror row, if it has one."""
    if family(row) == "individual":
        try:
            p = repo.find_pairing(s, row.id, key[0], key[1])
        except NotFoundError:
            return
        repo.set_pairing_result(s, p.id, value, source)
        return
    for number, keys in row.settings.get("mirror", {}).items():
        for board, k in enumerate(keys, start=1):
            if tuple(k) == key:
                p = repo.find_pairing(s, row.id, int(number), board)
                repo.set_pairing_result(s, p.id, value, source)
                return


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
        views.make_rules(body.kind, ruleset, settings)
        if body.times:
            if body.system not in KNOCKOUT:
                raise CompetitionError("times: a time control per series game is for "
                                       "knock-out events")
            for game_kind, tc in body.times.items():
                try:
                    views.make_rules(body.kind, ruleset, {"time": tc})
                except RefereeError as exc:
                    raise CompetitionError(f"times.{game_kind}: {exc}") from None
            settings["times"] = dict(body.times)
        if body.system in KNOCKOUT:
            ev = KnockoutEvent(body.name, series=body.series, draw=body.draw, byes=body.byes,
                               double=body.system == "double_knockout", seeding=body.seeding,
                               seed=seed)
        elif body.system in TEAM:
            ev = TeamEvent(body.name, system=body.system.removeprefix("team_"),
                           rounds=body.rounds, boards=body.boards,
                           lineup_mode=body.lineup_mode, seed=seed)
        elif body.system in GROUP:
            ev = GroupEvent(body.name, groups=body.groups, grouping=body.grouping,
                            advance=body.advance, final=body.final, seed=seed)
        elif body.system == "mcmahon":
            if body.kind != "go":
                raise CompetitionError("McMahon is a Go pairing system (ranks in kyu and dan)")
            if body.rounds is None:
                raise CompetitionError("a McMahon event needs a number of rounds")
            ev = McMahonTournament(body.name, rounds=body.rounds, bar=body.bar,
                                   floor=body.floor, start_by=body.start_by, seed=seed)
        else:
            ev = Tournament(body.name, System(body.system), rounds=body.rounds, seed=seed,
                            rules=ruleset)  # scores by the profile's points (issue 13.11)
    except (RefereeError, CompetitionError) as exc:
        raise HTTPException(422, f"tournament: {exc}") from None
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
def show(tournament_id: int, s: SessionDep, v: ViewerDep) -> dict[str, Any]:
    """Return an event: entries, published rounds (all of them for the
    organiser and arbiters), results, standings, crosstable, log."""
    return tournament_view(s, _load(s, tournament_id), v.user)


def _account(s: Session, entry: NewEntry) -> tuple[str, User | None]:
    account: User | None = None
    if entry.username:
        account = repo.find_user(s, entry.username)
        if account is None:
            raise HTTPException(404, f"username: no user {entry.username!r}")
    name = entry.name or (account.display_name if account else None)
    if not name:
        raise HTTPException(422, "name: give a name or a username")
    return name.strip(), account


@api.post("/{tournament_id}/entries", status_code=201)
def add_entry(tournament_id: int, body: NewEntry, s: SessionDep, user: OrganiserDep
              ) -> dict[str, Any]:
    """Register a player by name or by account (individual, knock-out and
    group events), with a Go rank for a McMahon event.  409 after the
    start, for a duplicate or in a team event; 404 for an unknown account;
    422 for an unreadable rank or a rank outside a McMahon event."""
    with _lock:
        row = _load(s, tournament_id)
        _own(row, user)
        _need(row, "individual", "knockout", "group")
        name, account = _account(s, body)
        rating = body.rating or (int(account.rating) if account else 0)
        ev = _event(row)
        assert not isinstance(ev, TeamEvent)
        if body.rank is not None and not isinstance(ev, McMahonTournament):
            raise HTTPException(422, "rank: only a McMahon event seeds by Go rank")
        try:
            ev.add_player(Player(name, rating))
            if isinstance(ev, McMahonTournament) and body.rank is not None:
                try:
                    ev.set_rank(name, body.rank)
                except CompetitionError as exc:
                    raise HTTPException(422, f"rank: {exc}") from None
        except CompetitionError as exc:
            raise HTTPException(409, f"entries: {exc}") from None
        users = dict(row.settings.get("users", {}))
        if account is not None:
            users[name] = account.id
        _save(s, row, ev, users=users)
        return tournament_view(s, row, user)


@api.post("/{tournament_id}/teams", status_code=201)
def add_team(tournament_id: int, body: NewTeam, s: SessionDep, user: OrganiserDep
             ) -> dict[str, Any]:
    """Register a team with its members in board order (team events).  409
    after the start or for a duplicate; 422 for too few members."""
    with _lock:
        row = _load(s, tournament_id)
        _own(row, user)
        _need(row, "team")
        ev = _event(row)
        assert isinstance(ev, TeamEvent)
        members = [_account(s, m) for m in body.members]
        try:
            ev.add_team(body.name.strip(), [n for n, _ in members])
        except CompetitionError as exc:
            status = 409 if "duplicate" in str(exc) or "closed" in str(exc) else 422
            raise HTTPException(status, f"teams: {exc}") from None
        users = dict(row.settings.get("users", {}))
        for n, account in members:
            if account is not None:
                users[_member_key(body.name.strip(), n)] = account.id
        _save(s, row, ev, users=users)
        return tournament_view(s, row, user)


@api.post("/{tournament_id}/start")
def start(tournament_id: int, s: SessionDep, user: OrganiserDep) -> dict[str, Any]:
    """Close entries: draw the pairing numbers (or seed the knock-out).
    409 if already started or with fewer than two entries."""
    with _lock:
        row = _load(s, tournament_id)
        _own(row, user)
        ev = _event(row)
        try:
            ev.start()
        except CompetitionError as exc:
            raise HTTPException(409, f"start: {exc}") from None
        users = row.settings.get("users", {})
        if isinstance(ev, TeamEvent):
            for (tid, name), number in ev.member_numbers().items():
                team = ev.teams[tid - 1].name
                repo.add_entry(s, row.id, name, user_id=users.get(_member_key(team, name)),
                               team=team, number=number)
        else:
            for p in ev.players:
                repo.add_entry(s, row.id, p.name, user_id=users.get(p.name), rating=p.rating,
                               number=p.id)
        _save(s, row, ev, status="running",
              log=_log(row, user, "start", "entries closed, numbers drawn"))
        return tournament_view(s, row, user)


@api.post("/{tournament_id}/rounds")
async def pair_round(tournament_id: int, st: StateDep, user: OrganiserDep) -> dict[str, Any]:
    """Pair the next round (Berger table, 积分编排制, knock-out bracket or
    card draw, team pairing).  With automatic publication the server games
    of boards between account holders are created and started.  409 if the
    event is not started, finished, or the previous round is undecided."""
    created, view = await run_in_threadpool(_pair_round, st, tournament_id, user)
    for game_id in created:
        await st.hub.start_if_ready(game_id)
    return view


def _pair_round(st: Any, tournament_id: int, user: User) -> tuple[list[str], dict[str, Any]]:
    with _lock, st.db.session() as s:
        row = _load(s, tournament_id)
        _own(row, user)
        ev = _event(row)
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
            raise HTTPException(409, f"pairing: {exc}") from None
        hidden = _hidden(row)
        if row.settings.get("publish", "auto") == "manual":
            hidden.add(number)
        what = f"round {number} paired"
        if isinstance(ev, GroupEvent) and ev.final is not None and len(ev.final.rounds) == 1:
            what += "; the final (11.3): " + ", ".join(p.name for p in ev.final.players)
        _save(s, row, ev, hidden=sorted(hidden), log=_log(row, user, "pair", what))
        if isinstance(ev, Tournament):
            repo.create_round(s, row.id, number,
                              [(p.red, p.black) for p in sorted(ev.rounds[-1].pairings,
                                                                key=lambda p: p.board)])
        created = _open_boards(s, row, ev, number, user.id)
        return created, tournament_view(s, row, user)


@api.post("/{tournament_id}/rounds/{round_no}/publish")
async def publish(tournament_id: int, round_no: int, st: StateDep, user: OrganiserDep
                  ) -> dict[str, Any]:
    """Publish a round's pairings: everyone sees them and the server games
    are created and started.  404 for a round not paired."""
    created, view = await run_in_threadpool(_publish, st, tournament_id, round_no, user, True)
    for game_id in created:
        await st.hub.start_if_ready(game_id)
    return view


@api.post("/{tournament_id}/rounds/{round_no}/unpublish")
async def unpublish(tournament_id: int, round_no: int, st: StateDep, user: OrganiserDep
                    ) -> dict[str, Any]:
    """Withdraw a round's pairings from view (to correct them before play).
    409 once the round has a result or a server game."""
    _, view = await run_in_threadpool(_publish, st, tournament_id, round_no, user, False)
    return view


def _paired_rounds(ev: Event) -> int:
    if isinstance(ev, Tournament | KnockoutEvent):
        return len(ev.rounds)
    if isinstance(ev, GroupEvent):
        return ev.paired_rounds
    return 0 if ev.tt is None else len(ev.tt.rounds)


def _round_has_results(ev: Event, round_no: int) -> bool:
    if isinstance(ev, Tournament):
        rec = ev.rounds[round_no - 1]
        return any(g.result is not Result.BYE for g in rec.results.values())
    if isinstance(ev, KnockoutEvent):
        return any(ev.games.get(f"{round_no}:{m.index}") or ev.decisions.get(
            f"{round_no}:{m.index}") for m in ev.rounds[round_no - 1])
    if isinstance(ev, GroupEvent):
        return any(g.result is not Result.BYE for _, t, local in ev.round_parts(round_no)
                   for g in t.rounds[local - 1].results.values())
    assert ev.tt is not None
    return any(m.results or m.forfeit is not None or
               (m.black_team is not None and ev.matches[f"{round_no}:{m.board}"]["results"])
               for m in ev.tt.rounds[round_no - 1])


def _publish(st: Any, tournament_id: int, round_no: int, user: User, on: bool
             ) -> tuple[list[str], dict[str, Any]]:
    with _lock, st.db.session() as s:
        row = _load(s, tournament_id)
        _own(row, user)
        ev = _event(row)
        if not 1 <= round_no <= _paired_rounds(ev):
            raise HTTPException(404, f"round {round_no} has not been paired")
        hidden = _hidden(row)
        created: list[str] = []
        if on:
            hidden.discard(round_no)
            _save(s, row, ev, hidden=sorted(hidden),
                  log=_log(row, user, "publish", f"round {round_no} published"))
            created = _open_boards(s, row, ev, round_no, user.id)
        else:
            if round_no in hidden:
                raise HTTPException(409, f"round {round_no} is not published")
            in_play = [k for k in _games_by_key(s, row) if k[0] == round_no]
            if _round_has_results(ev, round_no) or in_play:
                raise HTTPException(409, f"round {round_no} has results or server games: it "
                                         "can no longer be unpublished")
            hidden.add(round_no)
            _save(s, row, ev, hidden=sorted(hidden),
                  log=_log(row, user, "unpublish", f"round {round_no} withdrawn from view"))
        return created, tournament_view(s, row, user)


def _source(user: User) -> str:
    return "arbiter" if user.role == Role.ARBITER.value else "otb"


def _check_open(row: TournamentRow, round_no: int) -> None:
    if round_no in _hidden(row):
        raise HTTPException(409, f"round {round_no} is not published yet: publish it first")


def _correction(old: str | None, new: str, reason: str | None, where: str) -> str:
    """The log's action for a result entry; 422 for a correction without a reason."""
    if old is None:
        return "result"
    if old != new and not (reason and reason.strip()):
        raise HTTPException(422, f"reason: {where} already has the result {old}; say why it "
                                 "is corrected")
    return "correction"


@api.put("/{tournament_id}/rounds/{round_no}/boards/{board}")
def enter_result(tournament_id: int, round_no: int, board: int, body: BoardResult,
                 s: SessionDep, user: ArbiterDep) -> dict[str, Any]:
    """Enter or correct an over-the-board result of an individual event
    (arbiters and organisers), with the fouls of each side.  A correction
    needs a ``reason``.  422 for an unreadable result, 404 for an unknown
    board, 409 for an unpublished round."""
    with _lock:
        row = _load(s, tournament_id)
        _need(row, "individual")
        _check_open(row, round_no)
        t = _event(row)
        assert isinstance(t, Tournament)
        where = f"round {round_no} board {board}"
        try:
            res = Result.parse(body.result)
            old = t.rounds[round_no - 1].results.get(board) if 1 <= round_no <= len(
                t.rounds) else None
            action = _correction(None if old is None else old.result.value, res.value,
                                 body.reason, where)
            t.record_result(round_no, board, res, red_fouls=body.red_fouls,
                            black_fouls=body.black_fouls, overwrite=True)
            repo.find_pairing(s, row.id, round_no, board)
        except NotFoundError as exc:
            raise HTTPException(404, str(exc)) from None
        except CompetitionError as exc:
            raise HTTPException(422, f"{where}: {exc}") from None
        _save(s, row, t, log=_log(row, user, action, f"{where}: {res.value}", body.reason))
        _mirror_result(s, row, (round_no, board), res.value, _source(user))
        return tournament_view(s, row, user)


@api.put("/{tournament_id}/rounds/{round_no}/matches/{match}/games/{game}")
async def enter_series_game(tournament_id: int, round_no: int, match: int, game: int,
                            body: BoardResult, st: StateDep, user: ArbiterDep
                            ) -> dict[str, Any]:
    """Enter or correct the result of game ``game`` of knock-out match
    ``match`` (1-based) of round ``round_no``; the next game of the series,
    if due, is created on the server.  A correction needs a reason.  422 for
    an unreadable result or a game out of turn, 409 for a closed round."""
    created, view = await run_in_threadpool(_series_game, st, tournament_id, round_no, match,
                                            game, body, user)
    for game_id in created:
        await st.hub.start_if_ready(game_id)
    return view


def _series_game(st: Any, tournament_id: int, round_no: int, match: int, game: int,
                 body: BoardResult, user: User) -> tuple[list[str], dict[str, Any]]:
    with _lock, st.db.session() as s:
        row = _load(s, tournament_id)
        _need(row, "knockout")
        _check_open(row, round_no)
        ev = _event(row)
        assert isinstance(ev, KnockoutEvent)
        where = f"round {round_no} match {match} game {game}"
        try:
            res = Result.parse(body.result)
            ev.match(round_no, match - 1)
            played = ev.games.get(f"{round_no}:{match - 1}", [])
            old = played[game - 1] if 1 <= game <= len(played) else None
            action = _correction(old, res.value, body.reason, where)
            ev.record_game(round_no, match - 1, game, res, overwrite=True)
        except CompetitionError as exc:
            # a closed round, or a decider still waiting for its colour choice
            status = 409 if isinstance(exc, EventStateError) else 422
            raise HTTPException(status, f"{where}: {exc}") from None
        _save(s, row, ev, log=_log(row, user, action, f"{where}: {res.value}", body.reason))
        _mirror_result(s, row, (round_no, match - 1, game), res.value, _source(user))
        created = _open_boards(s, row, ev, round_no, user.id)
        return created, tournament_view(s, row, user)


@api.post("/{tournament_id}/rounds/{round_no}/matches/{match}/decision")
def decide(tournament_id: int, round_no: int, match: int, body: Decision, s: SessionDep,
           user: ArbiterDep) -> dict[str, Any]:
    """The arbiter decides knock-out match ``match`` (e.g. after a drawn
    single game: an armageddon or a lot played over the board), or takes a
    decision back (``winner: null``).  422 for a winner not in the match,
    409 for a closed round."""
    with _lock:
        row = _load(s, tournament_id)
        _need(row, "knockout")
        _check_open(row, round_no)
        ev = _event(row)
        assert isinstance(ev, KnockoutEvent)
        try:
            ev.decide(round_no, match - 1, body.winner, body.reason)
        except CompetitionError as exc:
            status = 409 if "closed" in str(exc) else 422
            raise HTTPException(status, f"round {round_no} match {match}: {exc}") from None
        who = "taken back" if body.winner is None else f"won by #{body.winner}"
        _save(s, row, ev, log=_log(row, user, "decision",
                                   f"round {round_no} match {match} {who}", body.reason))
        return tournament_view(s, row, user)


@api.post("/{tournament_id}/rounds/{round_no}/matches/{match}/colour")
async def choose_colour(tournament_id: int, round_no: int, match: int, body: ColourChoice,
                        st: StateDep, user: UserDep) -> dict[str, Any]:
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
        await st.hub.start_if_ready(game_id)
    return view


def _choose_colour(st: Any, tournament_id: int, round_no: int, match: int, body: ColourChoice,
                   user: User) -> tuple[list[str], dict[str, Any]]:
    with _lock, st.db.session() as s:
        row = _load(s, tournament_id)
        _need(row, "knockout")
        _check_open(row, round_no)
        ev = _event(row)
        assert isinstance(ev, KnockoutEvent)
        where = f"round {round_no} match {match}"
        try:
            chooser = ev.awaiting_choice(round_no, match - 1)
        except CompetitionError as exc:
            raise HTTPException(404, f"{where}: {exc}") from None
        if chooser is None:
            raise HTTPException(409, f"{where}: no colour choice is due")
        users: dict[str, int] = row.settings.get("users", {})
        own = users.get(ev.player(chooser).name) == user.id
        if not own and not _staff(user):
            raise HTTPException(403, f"{where}: the choice is {ev.player(chooser).name}'s "
                                     "(Black in the rapid game), or an arbiter's for them")
        try:
            ev.choose_colour(round_no, match - 1, body.red)
        except CompetitionError as exc:
            status = 409 if isinstance(exc, EventStateError) else 422
            raise HTTPException(status, f"{where}: {exc}") from None
        by = "" if own else f" for {ev.player(chooser).name}"
        _save(s, row, ev, log=_log(row, user, "colour",
                                   f"{where} decider: {ev.player(chooser).name} chose "
                                   f"{ev.player(body.red).name} to have Red{by}"))
        created = _open_boards(s, row, ev, round_no, user.id)
        return created, tournament_view(s, row, user)


def _group_label(group: int) -> str:
    return "final" if group == 0 else f"group {group}"


@api.put("/{tournament_id}/rounds/{round_no}/groups/{group}/boards/{board}")
def enter_group_result(tournament_id: int, round_no: int, group: int, board: int,
                       body: BoardResult, s: SessionDep, user: ArbiterDep) -> dict[str, Any]:
    """Enter or correct a board of a group event: group ``group``'s board in
    event round ``round_no``, or the final's for group 0 (arbiters and
    organisers).  A correction needs a reason.  422 for an unreadable
    result or an unknown board, 409 for an unpublished round or a group
    result once the final is made."""
    with _lock:
        row = _load(s, tournament_id)
        _need(row, "group")
        _check_open(row, round_no)
        ev = _event(row)
        assert isinstance(ev, GroupEvent)
        where = f"round {round_no} {_group_label(group)} board {board}"
        try:
            res = Result.parse(body.result)
            action = _correction(ev.result_of(round_no, group, board), res.value, body.reason,
                                 where)
            ev.record_result(round_no, group, board, res, red_fouls=body.red_fouls,
                             black_fouls=body.black_fouls, overwrite=True)
        except CompetitionError as exc:
            status = 409 if "final is paired" in str(exc) else 422
            raise HTTPException(status, f"{where}: {exc}") from None
        _save(s, row, ev, log=_log(row, user, action, f"{where}: {res.value}", body.reason))
        _mirror_result(s, row, (round_no, group, board), res.value, _source(user))
        return tournament_view(s, row, user)


@api.put("/{tournament_id}/rounds/{round_no}/matches/{match}/boards/{board}")
def enter_team_board(tournament_id: int, round_no: int, match: int, board: int,
                     body: BoardResult, s: SessionDep, user: ArbiterDep) -> dict[str, Any]:
    """Enter or correct a board result of team match ``match`` (from the
    board's Red side); the match counts once all boards are in.  A
    correction needs a reason.  422 for an unknown board or an unreadable
    result, 409 for an unpublished round."""
    with _lock:
        row = _load(s, tournament_id)
        _need(row, "team")
        _check_open(row, round_no)
        ev = _event(row)
        assert isinstance(ev, TeamEvent)
        where = f"round {round_no} match {match} board {board}"
        try:
            res = Result.parse(body.result)
            old = ev.matches.get(f"{round_no}:{match}", {}).get("results", {}).get(str(board))
            action = _correction(old, res.value, body.reason, where)
            ev.record_board(round_no, match, board, res, red_fouls=body.red_fouls,
                            black_fouls=body.black_fouls, overwrite=True)
        except CompetitionError as exc:
            raise HTTPException(422, f"{where}: {exc}") from None
        _save(s, row, ev, log=_log(row, user, action, f"{where}: {res.value}", body.reason))
        _mirror_result(s, row, (round_no, match, board), res.value, _source(user))
        return tournament_view(s, row, user)


@api.put("/{tournament_id}/rounds/{round_no}/matches/{match}/forfeit")
def forfeit_match(tournament_id: int, round_no: int, match: int, body: Forfeit,
                  s: SessionDep, user: ArbiterDep) -> dict[str, Any]:
    """Record a whole team match as forfeited (21.4: the present team gets
    the match points of a win).  422 for a result that is not a forfeit."""
    with _lock:
        row = _load(s, tournament_id)
        _need(row, "team")
        _check_open(row, round_no)
        ev = _event(row)
        assert isinstance(ev, TeamEvent)
        try:
            ev.record_forfeit(round_no, match, Result.parse(body.result))
        except CompetitionError as exc:
            raise HTTPException(422, f"round {round_no} match {match}: {exc}") from None
        _save(s, row, ev, log=_log(row, user, "forfeit",
                                   f"round {round_no} match {match}: {body.result}",
                                   body.reason))
        return tournament_view(s, row, user)


@api.put("/{tournament_id}/rounds/{round_no}/matches/{match}/lineups")
def set_lineups(tournament_id: int, round_no: int, match: int, body: Lineups,
                s: SessionDep, user: OrganiserDep) -> dict[str, Any]:
    """Set both line-ups of a team match (board 1 first) while its round is
    unpublished.  422 for a line-up the event's mode forbids (12.1-12.3),
    409 once the round is published."""
    with _lock:
        row = _load(s, tournament_id)
        _own(row, user)
        _need(row, "team")
        if round_no not in _hidden(row):
            raise HTTPException(409, f"round {round_no} is published: its line-ups are fixed")
        ev = _event(row)
        assert isinstance(ev, TeamEvent)
        try:
            ev.set_lineups(round_no, match, body.red, body.black)
        except CompetitionError as exc:
            raise HTTPException(422, f"round {round_no} match {match}: {exc}") from None
        _save(s, row, ev, log=_log(row, user, "lineups", f"round {round_no} match {match}: "
                                   f"{', '.join(body.red)} v {', '.join(body.black)}"))
        return tournament_view(s, row, user)


@api.post("/{tournament_id}/withdrawals")
def withdraw(tournament_id: int, body: Withdrawal, s: SessionDep, user: ArbiterDep
             ) -> dict[str, Any]:
    """Record a withdrawal.  Before the start the entry is struck off and
    the numbers are drawn afresh at the start (20.2).  After it: in an
    individual event its unplayed games become forfeits and later rounds
    pair it no more, and a round robin strikes out its results if it met
    fewer than half its opponents (20.3, 20.4); in a knock-out its
    undecided match goes to the opponent; in a group event it withdraws from
    its group's round robin (or the final) as in an individual one.  A team
    is treated as an entry: its unfinished match of the current round and
    its later ones are forfeits, the opponent winning (a Swiss pairs it no
    more), and in a round robin its results are struck out if it met fewer
    than half its opponents (20.3; 20.4 keeps them in a Swiss).  404 for an
    unknown entry, 409 for one that is out already."""
    with _lock:
        row = _load(s, tournament_id)
        ev = _event(row)
        name = body.name.strip()
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
                    ev.withdraw(found[0].id)
                    what = f"{name} withdrew after round {ev.current_round} (20.3, 20.4)"
                else:
                    ev.withdraw(found[0].id, body.reason)
                    what = f"{name} withdrew; the current match goes to the opponent (20.4)"
        except CompetitionError as exc:
            status = 404 if "no entry" in str(exc) or "no team" in str(exc) else 409
            raise HTTPException(status, f"withdrawal: {exc}") from None
        _save(s, row, ev, log=_log(row, user, "withdrawal", what, body.reason))
        return tournament_view(s, row, user)


# ------------------------------------------------------------ server results
def record_game_result(s: Session, pairing_id: int, pgn_result: str) -> None:
    """Enter the result of a finished server game into its event (called by
    the hub in the transaction's thread).  Does nothing if the board already
    has a result (an arbiter's entry wins) or the game no longer counts (the
    match was decided otherwise).  For a knock-out the series' next game is
    created; it starts when first opened."""
    try:
        pairing, rnd = repo.get_pairing(s, pairing_id)
    except NotFoundError:
        return
    code = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "="}.get(pgn_result)
    if code is None:
        return
    with _lock:
        row = repo.get_tournament(s, rnd.tournament_id)
        ev = _event(row)
        if isinstance(ev, Tournament):
            if pairing.board in ev.rounds[rnd.number - 1].results:
                return
            ev.record_result(rnd.number, pairing.board, code)
            _save(s, row, ev, log=_log(row, None, "server",
                                       f"round {rnd.number} board {pairing.board}: {code}"))
            value = ev.rounds[rnd.number - 1].results[pairing.board].result.value
            _mirror_result(s, row, (rnd.number, pairing.board), value, "server")
            return
        keys = row.settings.get("mirror", {}).get(str(rnd.number))
        if keys is None:
            return
        key = tuple(keys[pairing.board - 1])
        try:
            if isinstance(ev, GroupEvent):
                r, group, board = key
                if ev.result_of(r, group, board) is not None:
                    return
                ev.record_result(r, group, board, code)
                what = f"round {r} {_group_label(group)} board {board}: {code}"
            elif isinstance(ev, KnockoutEvent):
                r, index, game = key
                if ev.match(r, index).winner is not None or len(
                        ev.games.get(f"{r}:{index}", [])) != game - 1:
                    return
                ev.record_game(r, index, game, code)
                what = f"round {r} match {index + 1} game {game}: {code}"
            else:
                r, match, board = key
                if str(board) in ev.matches[f"{r}:{match}"]["results"]:
                    return
                ev.record_board(r, match, board, code)
                what = f"round {r} match {match} board {board}: {code}"
        except CompetitionError:
            return  # the round closed or the match was forfeited meanwhile
        _save(s, row, ev, log=_log(row, None, "server", what))
        _mirror_result(s, row, key, Result.parse(code).value, "server")
        if isinstance(ev, KnockoutEvent):
            _open_boards(s, row, ev, key[0], None)


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
    """One event: entries, rounds (a knock-out's bracket, a team event's
    matches), results, standings or placings, crosstable, the log."""
    from qisai.web.pages import render

    def load() -> dict[str, Any]:
        with st.db.session() as s:
            return tournament_view(s, _load(s, tournament_id), v.user)

    data = await run_in_threadpool(load)
    role = v.user.role_enum if v.user else Role.GUEST
    organiser = role.allows(Role.ORGANISER) and v.user is not None \
        and v.user.id == data["organiser"]
    template = {"knockout": "tournament_knockout.html", "team": "tournament_team.html",
                "group": "tournament_group.html"}.get(data["family"], "tournament.html")
    return render(request, v, template, ev=data, organiser=organiser,
                  arbiter=role.allows(Role.ARBITER))
