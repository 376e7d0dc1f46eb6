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

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from qisai.store import ConflictError, NotFoundError, repo
from qisai.store.models import Role, User
from qisai.web.accounts.deps import (
    COOKIE,
    AdminDep,
    UserDep,
    ViewerDep,
    check_form_csrf,
    form_csrf,
    set_form_cookie,
)
from qisai.web.accounts.policy import (
    PASSWORD_MAX,
    clean_display_name,
    normalise_username,
    password_problem,
    username_problem,
)
from qisai.web.security import HashBusy, check_device, device_token
from qisai.web.state import AppState, SessionDep, StateDep

__all__ = ["Credentials", "FormToken", "SessionOut", "UserOut", "guest", "login", "register",
           "router", "start_guest", "user_out"]

router = APIRouter(prefix="/api")

DEVICE_COOKIE = "qisai_device"
"""A browser the account logged in from (signed, bound to the account)."""


# ------------------------------------------------------------------ schemas
class Credentials(BaseModel):
    """Log-in or registration data (what a new account's names and password
    may be: :mod:`qisai.web.accounts.policy`)."""

    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=PASSWORD_MAX)
    display_name: str | None = Field(default=None, max_length=80)


class UserOut(BaseModel):
    """A user as the API shows it: ``username`` is the unique name to show;
    ``display_name`` is secondary."""

    id: int
    username: str
    display_name: str
    role: str
    rating: float
    guest: bool


class SessionOut(BaseModel):
    """A new session: the bearer token and the CSRF token for cookie use;
    ``notice``: what the owner is told at log-in (wrong passwords given
    for his account since his last log-in), in Chinese and English."""

    user: UserOut
    token: str
    csrf: str
    notice: str | None = None


class FormToken(BaseModel):
    """The pre-session CSRF token, to send as ``X-CSRF-Token`` to
    ``POST /api/auth/guest`` (with the ``qisai_form`` cookie set alongside)."""

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


def _too_many(wait: float, what: str) -> HTTPException:
    return HTTPException(429, f"尝试过多，请 {wait:.0f} 秒后再试 / {what}; retry in {wait:.0f} s",
                         headers={"Retry-After": str(int(wait) + 1)})


def _busy() -> HTTPException:
    return HTTPException(429, "服务器正忙于核对密码，请稍后再试 / the server is busy checking "
                              "passwords; retry in a second",
                         headers={"Retry-After": str(HashBusy.retry_after)})


def _notice(failed: int, since: dt.datetime | None, held: int) -> str | None:
    """What the owner is told of the tries on his account since his last log-in."""
    if not failed and not held:
        return None
    when = f"{since:%Y-%m-%d %H:%M} UTC" if since else ""
    zh = f"自上次登录以来，有 {failed} 次密码错误的登录尝试" + (f"（最早在 {when}）" if when else "")
    en = f"{failed} log-in attempts with a wrong password since your last log-in" + (
        f" (the first at {when})" if when else "")
    if held:
        zh += f"，另有 {held} 次因尝试过多被拒绝"
        en += f"; {held} more were refused as too many"
    return (f"{zh}。如果不是你本人，请换一个更强的密码。 / {en}. If they were not yours, "
            "choose a stronger password.")


# ----------------------------------------------------------------- accounts
@router.post("/auth/register", status_code=201, response_model=SessionOut, tags=["accounts"])
def register(body: Credentials, request: Request, response: Response,
             st: StateDep, s: SessionDep) -> SessionOut:
    """Create an account (role ``player``) and log in.  409 if the name is
    taken (whatever its case), 422 for a name or display name that is not
    allowed or a weak password, 429 if too many passwords are being hashed."""
    wait = st.signup_limiter.hit(_client(request))
    if wait:
        raise _too_many(wait, "too many sign-ups from this address")
    username = normalise_username(body.username)
    display, display_problem = clean_display_name(body.display_name or username)
    problems = [username_problem(username), display_problem,
                password_problem(body.password, username, display or "")]
    if display is not None and display.lower() != username.lower() \
            and repo.find_lookalike(s, display) is not None:
        problems.append("显示名：与另一个用户的用户名相同或形似 / display_name: that is, or "
                        "looks like, another user's user name")
    if any(problems):
        raise HTTPException(422, "; ".join(p for p in problems if p))
    assert display is not None
    if repo.find_user(s, username) is not None:
        raise HTTPException(409, f"用户名已被占用 / username: user name {username!r} is taken")
    # UTS #39: a name whose confusable skeleton is taken reads as that account's
    if repo.find_lookalike(s, username) is not None:
        raise HTTPException(409, "用户名与已有用户名形似，请换一个 / username: user name "
                                 f"{username!r} is taken: it looks like another user's name")
    s.commit()  # the connection goes back to the pool before the queue for a hash
    try:
        password_hash = st.passwords.hash(body.password, client=_client(request))
    except HashBusy:
        raise _busy() from None
    try:
        user = repo.create_user(s, username, password_hash=password_hash, display_name=display)
    except ConflictError as exc:
        raise HTTPException(409, f"username: {exc}") from None
    return _open_session(s, st, response, user)


@router.post("/auth/login", response_model=SessionOut, tags=["accounts"])
def login(body: Credentials, request: Request, response: Response,
          st: StateDep, s: SessionDep) -> SessionOut:
    """Log in.  401 on a wrong name or password; 429 (with Retry-After)
    after too many tries from this address (whatever the names), for this
    name from this address, or for this name when it is held and this
    address has used its slow lane (see :class:`~qisai.web.security.LoginGuard`:
    the owner is not locked out); 429 too when the password checks' queue
    is full.  An unknown name costs one hash like a known one.  The owner
    is told of the wrong passwords given since his last log-in
    (``notice``)."""
    name = normalise_username(body.username).lower()
    address = _client(request)
    guard = st.login_guard
    wait = st.login_limiter.hit(address)
    if wait:
        raise _too_many(wait, "too many log-in attempts from this address")
    user = repo.find_user(s, name)
    stored, user_id = (user.password_hash, user.id) if user else (None, 0)
    device = check_device(st.settings.pepper, user_id, request.cookies.get(DEVICE_COOKIE)) \
        if user else None
    if device is not None:  # a known device: counted on its own, never held with the account
        wait = guard.device.hit(f"{name}|{device}")
    else:
        wait = guard.pair.hit(f"{name}|{address}")
        if not wait and st.account_limiter.hit(name):
            wait = guard.slow.hit(f"{name}|{address}")  # held: the slow lane
    if wait:
        guard.note_held(name)
        raise _too_many(wait, "too many log-in attempts for this user name")
    s.commit()  # the connection goes back to the pool before the queue for a hash
    try:
        ok, new_hash = st.passwords.verify(stored, body.password, client=address)
    except HashBusy:
        raise _busy() from None
    if user is None or not ok:
        if user is not None:
            repo.note_failed_login(s, user_id)
        raise HTTPException(401, "wrong user name or password")
    if new_hash is not None:  # made with other Argon2 parameters: store the current ones
        repo.set_password_hash(s, user_id, new_hash)
    failed, since = repo.take_failed_logins(s, user)
    out = _open_session(s, st, response, user)
    out.notice = _notice(failed, since, guard.take_held(name))
    response.set_cookie(DEVICE_COOKIE, device_token(st.settings.pepper, user_id),
                        max_age=365 * 86400, httponly=True, samesite="strict",
                        secure=st.settings.cookie_secure, path="/")
    return out


@router.get("/auth/csrf", response_model=FormToken, tags=["accounts"])
def csrf_token(request: Request, response: Response, st: StateDep) -> FormToken:
    """Return the pre-session CSRF token (and set its ``qisai_form`` cookie):
    ``POST /api/auth/guest`` needs it in ``X-CSRF-Token``."""
    token, fresh = form_csrf(request, st)
    if fresh is not None:
        set_form_cookie(response, st, fresh)
    return FormToken(csrf=token)


def start_guest(request: Request, response: Response, st: AppState, s: Session) -> SessionOut:
    """Open a guest session (the caller has checked the CSRF token)."""
    wait = st.signup_limiter.hit(_client(request))
    if wait:
        raise _too_many(wait, "too many new sessions from this address")
    return _open_session(s, st, response, repo.create_guest(s))


@router.post("/auth/guest", status_code=201, response_model=SessionOut, tags=["accounts"])
def guest(request: Request, response: Response, st: StateDep,
          s: SessionDep) -> SessionOut:
    """Start a guest session: casual games without an account.  Needs the
    pre-session token of ``GET /api/auth/csrf`` in ``X-CSRF-Token`` with its
    cookie (403 without): another site cannot log a browser in as a guest."""
    check_form_csrf(request, st, None)
    return start_guest(request, response, st, s)


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
