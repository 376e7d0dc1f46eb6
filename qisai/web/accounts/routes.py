"""Accounts: registration, log-in (password or guest), sessions, roles.

``/api/auth/*`` open and close sessions (a bearer token, the cookie and the
session's CSRF token); ``/api/me`` says who is logged in; the site's
administrators give roles (``/api/users/{id}/role``): organisers and
administrators are made and unmade only by an administrator, and the site
always keeps one (an event's staff is appointed per event, by its
organisers: :mod:`qisai.web.events.staff`).  Every refusal is a 4xx with a ``detail``
that says what was wrong and where.
"""

from __future__ import annotations

import datetime as dt
import re

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from qisai.store import ConflictError, NotFoundError, repo
from qisai.store.models import Role, User
from qisai.web.accounts.deps import COOKIE, AdminDep, UserDep, ViewerDep
from qisai.web.security import hash_password, verify_password
from qisai.web.state import AppState, SessionDep, StateDep

__all__ = ["Credentials", "SessionOut", "UserOut", "guest", "login", "register", "router",
           "user_out"]

router = APIRouter(prefix="/api")

USERNAME = re.compile(r"^[A-Za-z0-9_.\-\u4e00-\u9fff]{2,40}$")


# ------------------------------------------------------------------ schemas
class Credentials(BaseModel):
    """Log-in or registration data."""

    username: str = Field(min_length=2, max_length=40)
    password: str = Field(min_length=8, max_length=256)
    display_name: str | None = Field(default=None, max_length=80)


class UserOut(BaseModel):
    """A user as the API shows it."""

    id: int
    username: str
    display_name: str
    role: str
    rating: float
    guest: bool


class SessionOut(BaseModel):
    """A new session: the bearer token and the CSRF token for cookie use."""

    user: UserOut
    token: str
    csrf: str


class RoleChange(BaseModel):
    """A new role for a user."""

    role: Role


def user_out(u: User) -> UserOut:
    """Return the API view of a user."""
    return UserOut(id=u.id, username=u.username, display_name=u.display_name, role=u.role,
                   rating=round(u.rating, 1), guest=u.role == Role.GUEST.value)


def _set_cookie(response: Response, st: AppState, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=st.settings.session_days * 86400, httponly=True,
                        samesite="lax", secure=st.settings.cookie_secure, path="/")


def _open_session(s: Session, st: AppState, response: Response, user: User) -> SessionOut:
    token, csrf = repo.create_session(s, user.id, dt.timedelta(days=st.settings.session_days),
                                      st.settings.pepper)
    _set_cookie(response, st, token)
    return SessionOut(user=user_out(user), token=token, csrf=csrf)


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


# ----------------------------------------------------------------- accounts
@router.post("/auth/register", status_code=201, response_model=SessionOut, tags=["accounts"])
def register(body: Credentials, request: Request, response: Response,
             st: StateDep, s: SessionDep) -> SessionOut:
    """Create an account (role ``player``) and log in.  409 if the name is taken."""
    wait = st.signup_limiter.hit(_client(request))
    if wait:
        raise HTTPException(429, f"too many sign-ups from this address; retry in {wait:.0f} s",
                            headers={"Retry-After": str(int(wait) + 1)})
    if not USERNAME.match(body.username):
        raise HTTPException(422, "username: 2-40 letters, digits, '_', '.', '-' or Chinese "
                                 "characters")
    if body.username.lower().startswith("guest-"):
        raise HTTPException(422, "username: names starting with 'guest-' are for guests")
    try:
        user = repo.create_user(s, body.username, password_hash=hash_password(body.password),
                                display_name=body.display_name or body.username)
    except ConflictError as exc:
        raise HTTPException(409, f"username: {exc}") from None
    return _open_session(s, st, response, user)


@router.post("/auth/login", response_model=SessionOut, tags=["accounts"])
def login(body: Credentials, request: Request, response: Response,
          st: StateDep, s: SessionDep) -> SessionOut:
    """Log in.  401 on a wrong name or password, 429 after too many tries."""
    key = f"{_client(request)}|{body.username.lower()}"
    wait = st.login_limiter.hit(key)
    if wait:
        raise HTTPException(429, f"too many log-in attempts; retry in {wait:.0f} s",
                            headers={"Retry-After": str(int(wait) + 1)})
    user = repo.find_user(s, body.username)
    if user is None or not verify_password(user.password_hash, body.password):
        raise HTTPException(401, "wrong user name or password")
    return _open_session(s, st, response, user)


@router.post("/auth/guest", status_code=201, response_model=SessionOut, tags=["accounts"])
def guest(request: Request, response: Response, st: StateDep,
          s: SessionDep) -> SessionOut:
    """Start a guest session: casual games without an account."""
    wait = st.signup_limiter.hit(_client(request))
    if wait:
        raise HTTPException(429, f"too many new sessions from this address; retry in {wait:.0f} s",
                            headers={"Retry-After": str(int(wait) + 1)})
    return _open_session(s, st, response, repo.create_guest(s))


@router.post("/auth/logout", status_code=204, tags=["accounts"])
def logout(response: Response, v: ViewerDep, s: SessionDep, st: StateDep,
           _: UserDep) -> Response:
    """End the session."""
    if v.token:
        repo.delete_session(s, v.token, st.settings.pepper)
    response.delete_cookie(COOKIE, path="/")
    response.status_code = 204
    return response


@router.get("/me", response_model=UserOut, tags=["accounts"])
def me(v: ViewerDep) -> UserOut:
    """Return the logged-in user.  401 without a session."""
    if v.user is None:
        raise HTTPException(401, "not logged in")
    return user_out(v.user)


@router.put("/users/{user_id}/role", response_model=UserOut, tags=["accounts"])
def change_role(user_id: int, body: RoleChange, s: SessionDep,
                _: AdminDep) -> UserOut:
    """Give a user a site role (administrators only: 403 for anyone else).
    404 for an unknown user; 409 for removing the last administrator (the
    site keeps one) or making an account of a guest."""
    try:
        target = repo.get_user(s, user_id)
        if (target.role == Role.GUEST.value) != (body.role is Role.GUEST):
            raise HTTPException(409, f"{target.username}: a guest stays a guest, and an "
                                     "account does not become one")
        return user_out(repo.set_role(s, user_id, body.role))
    except NotFoundError as exc:
        raise HTTPException(404, str(exc)) from None
    except ConflictError as exc:
        raise HTTPException(409, str(exc)) from None
