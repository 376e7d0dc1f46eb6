"""An event's staff (16.2): its organisers, chief arbiter (裁判长) and
arbiters, appointed by the event's organisers or a site administrator
(``/api/tournaments/{id}/staff``).  Who may do what is
:func:`~qisai.web.events.model.authorise`; every appointment and removal is
kept in the event's log with the acting account."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from qisai.store import NotFoundError, repo
from qisai.store.models import Role, StaffRole
from qisai.store.models import Tournament as TournamentRow
from qisai.web.accounts.deps import UserDep
from qisai.web.events.model import LOCK, Act, authorise, load_row, log_entry
from qisai.web.state import SessionDep

__all__ = ["Appointment", "api", "staff_view"]

api = APIRouter()  # included in the events router, which tags it


class Appointment(BaseModel):
    """Appoint an account (by ``username`` or ``user_id``) to the event's
    staff as ``organiser``, ``chief_arbiter`` or ``arbiter``."""

    username: str | None = Field(default=None, max_length=40)
    user_id: int | None = None
    role: StaffRole = StaffRole.ARBITER


def staff_view(s: Session, row: TournamentRow) -> list[dict[str, Any]]:
    """The event's staff: its creator (an organiser) first, then the
    appointed, each with ``id``, ``username``, ``name``, ``role`` and who
    appointed him."""
    creator = repo.get_user(s, row.organiser_id)
    out = [{"id": creator.id, "username": creator.username, "name": creator.display_name,
            "role": StaffRole.ORGANISER.value, "creator": True, "appointed_by": None}]
    for m in repo.event_staff(s, row.id):
        if m.user_id == row.organiser_id:
            continue
        out.append({"id": m.user_id, "username": m.user.username, "name": m.user.display_name,
                    "role": m.role, "creator": False, "appointed_by": m.appointed_by_id})
    return out


def _save_log(s: Session, row: TournamentRow, log: list[dict[str, Any]]) -> None:
    settings = dict(row.settings)
    settings["log"] = log
    repo.save_tournament(s, row.id, settings=settings)


@api.get("/{tournament_id}/staff")
def list_staff(tournament_id: int, s: SessionDep) -> list[dict[str, Any]]:
    """The event's staff (public, as the arbiters of an event are)."""
    return staff_view(s, load_row(s, tournament_id))


@api.post("/{tournament_id}/staff")
def appoint(tournament_id: int, body: Appointment, s: SessionDep, user: UserDep
            ) -> list[dict[str, Any]]:
    """Appoint an account to the event's staff, or change its part (the
    event's organisers or a site administrator only: 403 otherwise).  404
    for an unknown account, 422 for a guest or no account named, 409 for
    the event's creator (always its organiser)."""
    with LOCK:
        row = load_row(s, tournament_id)
        authorise(s, row, user, Act.RUN)
        if body.username is not None:
            found = repo.find_user(s, body.username)
            if found is None:
                raise HTTPException(404, f"username: no user {body.username!r}")
        elif body.user_id is not None:
            try:
                found = repo.get_user(s, body.user_id)
            except NotFoundError as exc:
                raise HTTPException(404, f"user_id: {exc}") from None
        else:
            raise HTTPException(422, "give the username (or user_id) of the account to appoint")
        if found.role == Role.GUEST.value:
            raise HTTPException(422, f"{found.username} is a guest: only accounts can be staff")
        if found.id == row.organiser_id:
            raise HTTPException(409, f"{found.username} created the event and is always its "
                                     "organiser")
        repo.set_staff(s, row.id, found.id, body.role.value, user.id)
        _save_log(s, row, log_entry(row, user, "staff",
                                    f"{found.username} appointed "
                                    f"{body.role.value.replace('_', ' ')}"))
        return staff_view(s, row)


@api.delete("/{tournament_id}/staff/{user_id}")
def remove(tournament_id: int, user_id: int, s: SessionDep, user: UserDep
           ) -> list[dict[str, Any]]:
    """Remove an account from the event's staff (the event's organisers or
    a site administrator only).  409 for the event's creator, 404 for an
    account not on the staff."""
    with LOCK:
        row = load_row(s, tournament_id)
        authorise(s, row, user, Act.RUN)
        if user_id == row.organiser_id:
            raise HTTPException(409, "the event's creator is always its organiser")
        try:
            name = repo.get_user(s, user_id).username
        except NotFoundError as exc:
            raise HTTPException(404, str(exc)) from None
        if not repo.remove_staff(s, row.id, user_id):
            raise HTTPException(404, f"{name} is not on the staff of event {row.id}")
        _save_log(s, row, log_entry(row, user, "staff", f"{name} removed from the staff"))
        return staff_view(s, row)
