"""The calendar's side of an event: its listing (dates, venue, 组别, entry
conditions, registration open or closed) and a player registering himself
from the calendar under those conditions.

``PUT /api/tournaments/{id}/listing`` (the event's organisers, as every
entry matter): the listing, kept in the row's ``settings["listing"]``.

``POST /api/tournaments/{id}/register`` (a registered player, never a
guest): the player enters himself -- in an individual, knock-out or group
event as a player under his user name and rating; in a team event with a
team: its name and its members' user names in board order (12.1: the
line-up the team plays its boards in), himself among them and at least as
many as the event has boards.  Naming others makes an invitation: the team
is entered only when every member named has accepted
(``POST .../invitations/answer``; ``GET .../invitations`` lists his own),
and until then nobody else is entered or named.  The event's entry conditions are checked
first, each refusal saying which: registration closed (409), the rating
limits (403, for him and for every member of his team), the 组别 (422: one
of the event's groups when it has groups).  Then the same path as an
organiser's registration (:func:`qisai.web.events.routes.add_entry`): the
competition layer's ``add_player`` / ``add_team`` (duplicates and a closed
event are refused there, 409) and the accounts map ``settings["users"]``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from qisai.competition import CompetitionError
from qisai.competition.entries import Entry
from qisai.competition.events.team_event import TeamEvent
from qisai.store import repo
from qisai.store.models import Role, User
from qisai.store.models import Tournament as TournamentRow
from qisai.web.accounts.deps import UserDep
from qisai.web.bounds import too_often
from qisai.web.events.event_json import tournament_view
from qisai.web.events.listing import Listing, listing_of, registration_open
from qisai.web.events.model import LOCK, load_event, load_row, log_entry, member_key, own, save
from qisai.web.state import SessionDep, StateDep

__all__ = ["Registration", "api"]

api = APIRouter()

MAX_INVITATIONS = 200
"""Team invitations an event keeps waiting for answers (one per sender):
they live in the event's row, which must stay small."""


class TeamEntry(BaseModel):
    """A team registered from the calendar: its name and its members' user
    names in board order (reserves last)."""

    name: str = Field(min_length=1, max_length=200)
    members: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(
        min_length=1, max_length=30)


class Registration(BaseModel):
    """A player registering himself: the 组别 (if the event has groups) and,
    in a team event, his team."""

    group: str | None = Field(default=None, max_length=40)
    team: TeamEntry | None = None


@api.put("/{tournament_id}/listing")
def set_listing(tournament_id: int, body: Listing, s: SessionDep, user: UserDep
                ) -> dict[str, Any]:
    """Set the calendar's facts and entry conditions of an event (its
    organisers).  422 for an end before the start, limits the wrong way
    round or a group named twice."""
    if body.starts and body.ends and body.ends < body.starts:
        raise HTTPException(422, "ends: the event ends before it starts")
    if body.min_rating is not None and body.max_rating is not None \
            and body.min_rating > body.max_rating:
        raise HTTPException(422, "min_rating: above max_rating")
    groups = [g.strip() for g in body.groups]
    if any(not g or len(g) > 40 for g in groups) or len(set(groups)) != len(groups):
        raise HTTPException(422, "groups: each group once, 1 to 40 characters")
    with LOCK:
        row = load_row(s, tournament_id)
        own(s, row, user)
        listing = body.model_copy(update={"groups": groups}).model_dump(mode="json")
        settings = dict(row.settings)
        settings["listing"] = listing
        settings["log"] = log_entry(row, user, "listing", "calendar and entry conditions")
        repo.save_tournament(s, row.id, settings=settings)
        return listing


def _check_rating(row: TournamentRow, who: User, limits: dict[str, Any]) -> None:
    rating = round(who.rating)
    low, high = limits["min_rating"], limits["max_rating"]
    if low is not None and rating < low:
        raise HTTPException(403, f"报名条件：{who.username} 的等级分 {rating} 低于本赛限制 {low} / "
                                 f"entry conditions: {who.username}'s rating {rating} is below "
                                 f"the event's limit {low}")
    if high is not None and rating > high:
        raise HTTPException(403, f"报名条件：{who.username} 的等级分 {rating} 高于本赛限制 {high} / "
                                 f"entry conditions: {who.username}'s rating {rating} is above "
                                 f"the event's limit {high}")


def _members(s: Session, row: TournamentRow, user: User, team: TeamEntry,
             limits: dict[str, Any]) -> list[User]:
    names = [m.strip() for m in team.members]
    if len(set(names)) != len(names):
        raise HTTPException(422, "队员重复 / team.members: a member is named twice")
    if user.username not in names:
        raise HTTPException(422, "报名的队伍须包括你自己 / "
                                 "team.members: register a team you play in (put yourself "
                                 "among its members)")
    accounts = []
    for n in names:
        account = repo.find_user(s, n)
        if account is None or account.role == Role.GUEST.value:
            raise HTTPException(404, f"没有注册用户 {n[:40]!r} / "
                                     f"team.members: no registered user {n[:40]!r}")
        _check_rating(row, account, limits)
        accounts.append(account)
    return accounts


def _not_taken(members: list[User], users: dict[str, int]) -> None:
    taken = next((m for m in members if m.id in users.values()), None)
    if taken is not None:
        raise HTTPException(409, f"{taken.username} 已报名 / "
                                 f"entries: {taken.username} is registered already")


class Answer(BaseModel):
    """An invited member's answer to the team ``team``: join it or not."""

    team: str = Field(min_length=1, max_length=200)
    accept: bool


def _invitations(row: TournamentRow) -> dict[str, dict[str, Any]]:
    found = row.settings.get("invitations")
    return dict(found) if isinstance(found, dict) else {}


def _invite(s: Session, row: TournamentRow, user: User, team: str, members: list[User],
            group: str | None) -> dict[str, Any]:
    """Keep team ``team`` as an invitation to its other members: it is
    entered when every one of them has accepted (:func:`answer`)."""
    invitations = _invitations(row)
    if any(inv["by"] == user.id for inv in invitations.values()):
        raise HTTPException(409, "你已有一个等待回复的队伍邀请 / team: you have a team "
                                 "invitation waiting for answers in this event")
    if len(invitations) >= MAX_INVITATIONS:
        raise HTTPException(429, "本赛待回复的队伍邀请太多，请稍后再试 / team: too many team "
                                 "invitations wait for answers in this event; try later")
    if team in invitations or any(k.split("/", 1)[0] == team
                                  for k in row.settings.get("users", {})):
        raise HTTPException(409, f"队名 {team[:60]} 已被使用 / team: the name {team[:60]!r} "
                                 "is taken")
    invitations[team] = {"by": user.id, "members": [m.username for m in members],
                         "ids": [m.id for m in members], "accepted": [user.id],
                         "group": group}
    settings = dict(row.settings)
    settings["invitations"] = invitations  # not in the public log: nobody is entered yet
    repo.save_tournament(s, row.id, settings=settings)
    return {"invitation": _invitation_out(team, invitations[team], entered=False)}


def _invitation_out(team: str, inv: dict[str, Any], entered: bool) -> dict[str, Any]:
    named = list(zip(inv["members"], inv["ids"], strict=True))
    return {"team": team, "entered": entered,
            "accepted": [n for n, i in named if i in inv["accepted"]],
            "waiting_for": [n for n, i in named if i not in inv["accepted"]]}


async def _limited_user(st: StateDep, user: UserDep) -> User:
    # async: a refused request costs no worker thread for the route itself
    wait = st.entry_limiter.hit(f"entries:{user.id}")
    if wait:
        raise too_often(wait, "entries: too many registrations and answers")
    return user


EntryUser = Annotated[User, Depends(_limited_user)]
"""The caller, within his registrations and answers a minute (429 past them)."""


@api.get("/{tournament_id}/invitations")
def my_invitations(tournament_id: int, s: SessionDep, user: UserDep) -> list[dict[str, Any]]:
    """The team invitations of event ``tournament_id`` that concern the
    caller (sent by him, or naming him): team, members in board order, who
    accepted, and his own part (``by_you``, ``answered``)."""
    row = load_row(s, tournament_id)
    return [{"team": team, "members": inv["members"], "by_you": inv["by"] == user.id,
             "accepted": [n for n, i in zip(inv["members"], inv["ids"], strict=True)
                          if i in inv["accepted"]],
             "answered": user.id in inv["accepted"]}
            for team, inv in _invitations(row).items() if user.id in inv["ids"]]


@api.post("/{tournament_id}/invitations/answer")
def answer(tournament_id: int, body: Answer, s: SessionDep, user: EntryUser
           ) -> dict[str, Any]:
    """Accept or decline an invitation to a team (the members it names;
    403 for anyone else, 404 for no such invitation).  A decline drops the
    team (its sender may register another); the last acceptance enters it
    under the event's conditions, checked again (409 closed or a member
    registered meanwhile, 403 a rating limit).  Its sender may withdraw it
    (``accept: false``).  Returns the invitation: ``team``, ``accepted``,
    ``waiting_for`` and whether the team is now ``entered``.  429 past 20
    registrations and answers a minute."""
    with LOCK:
        row = load_row(s, tournament_id)
        invitations = _invitations(row)
        inv = invitations.get(body.team)
        if inv is None:
            raise HTTPException(404, "没有这个邀请 / no invitation to a team of that name")
        if user.id not in inv["ids"]:
            raise HTTPException(403, "这个队伍没有邀请你 / this team did not invite you")
        settings = dict(row.settings)
        if not body.accept:
            del invitations[body.team]
            settings["invitations"] = invitations
            repo.save_tournament(s, row.id, settings=settings)
            return {**_invitation_out(body.team, inv, entered=False), "dropped": True}
        if user.id in row.settings.get("users", {}).values():
            raise HTTPException(409, "你已报名 / entries: you are registered already")
        if user.id not in inv["accepted"]:
            inv = {**inv, "accepted": [*inv["accepted"], user.id]}
            invitations[body.team] = inv
        if set(inv["accepted"]) != set(inv["ids"]):
            settings["invitations"] = invitations
            repo.save_tournament(s, row.id, settings=settings)
            return _invitation_out(body.team, inv, entered=False)
        # Everyone said yes: the team is entered as if registered now.
        if not registration_open(row):
            raise HTTPException(409, f"{row.name[:60]} 报名已截止 / "
                                     f"registration for {row.name[:60]} is closed")
        limits = listing_of(row)
        members = [repo.get_user(s, i) for i in inv["ids"]]
        for m in members:
            _check_rating(row, m, limits)
        users = dict(row.settings.get("users", {}))
        _not_taken(members, users)
        ev = load_event(row)
        assert isinstance(ev, TeamEvent)  # invitations are made by team events only
        try:
            ev.add_team(body.team, [m.username for m in members])
        except CompetitionError as exc:
            raise HTTPException(409, f"entries: {exc}") from None
        for m in members:
            users[member_key(body.team, m.username)] = m.id
        del invitations[body.team]
        extras = dict(row.settings.get("extras", {}))
        if inv.get("group"):
            extras[body.team] = {**extras.get(body.team, {}), "group": inv["group"]}
        save(s, row, ev, users=users, extras=extras, invitations=invitations,
             log=log_entry(row, user, "register", body.team + " (every member accepted)"))
        return _invitation_out(body.team, inv, entered=True)


@api.post("/{tournament_id}/register", status_code=201)
def register_self(tournament_id: int, body: Registration, s: SessionDep, user: EntryUser
                  ) -> dict[str, Any]:
    """Register the caller in event ``tournament_id`` under its entry
    conditions (see the module); returns the event as
    :func:`~.event_json.tournament_view` shows it to him, or, for a team that
    names others, ``{"invitation": ...}`` (see :func:`answer`).  429 past
    20 registrations and answers a minute."""
    if user.role == Role.GUEST.value:
        raise HTTPException(403, "游客不能报名比赛，请先注册 / "
                                 "guests cannot enter events; register an account first")
    with LOCK:
        row = load_row(s, tournament_id)
        limits = listing_of(row)
        if not registration_open(row):
            raise HTTPException(409, f"{row.name[:60]} 报名已截止 / "
                                     f"registration for {row.name[:60]} is closed")
        group = (body.group or "").strip() or None
        if limits["groups"] and group not in limits["groups"]:
            raise HTTPException(422, "请选择组别：" + "、".join(limits["groups"])
                                + " / group: choose one of the event's groups (组别): "
                                + ", ".join(limits["groups"]))
        if not limits["groups"] and group is not None:
            raise HTTPException(422, "本赛不分组别 / group: this event has no groups (组别)")
        users = dict(row.settings.get("users", {}))
        ev = load_event(row)
        try:
            if isinstance(ev, TeamEvent):
                if body.team is None:
                    raise HTTPException(422, "团体赛请填写队名和按台次排列的队员 / "
                                             "team: a team event takes teams; give the team's "
                                             "name and its members in board order")
                members = _members(s, row, user, body.team, limits)
                if len(members) < ev.boards:
                    raise HTTPException(422, f"本赛每队 {ev.boards} 台，至少需要 {ev.boards} 名队员 / "
                                             f"team.members: the event plays {ev.boards} "
                                             f"boards; name at least {ev.boards} members")
                _not_taken(members, users)
                team_name = body.team.name.strip()
                if len(members) > 1:  # the others are asked, not enlisted
                    return _invite(s, row, user, team_name, members, group)
                ev.add_team(team_name, [m.username for m in members])
                for m in members:
                    users[member_key(team_name, m.username)] = m.id
                what = team_name
            else:
                if body.team is not None:
                    raise HTTPException(422, "本赛为个人赛 / "
                                             "team: this event takes players, not teams")
                _check_rating(row, user, limits)
                if user.id in users.values():
                    raise HTTPException(409, "你已报名 / entries: you are registered already")
                # An entry as an entries sheet (报名表) gives it: name, rating, 组别.
                ev.add_player(Entry(user.username, rating=round(user.rating),
                                    group=group or "").player())
                users[user.username] = user.id
                what = user.username
        except CompetitionError as exc:
            raise HTTPException(409, f"entries: {exc}") from None
        # The entry's 组别 kept as the event files keep an entry's extra
        # fields (qisai.competition.events.file: extras[name]["group"]).
        extras = dict(row.settings.get("extras", {}))
        if group is not None:
            extras[what] = {**extras.get(what, {}), "group": group}
        save(s, row, ev, users=users, extras=extras,
             log=log_entry(row, user, "register", what + (f" ({group})" if group else "")))
        return tournament_view(s, row, user)
