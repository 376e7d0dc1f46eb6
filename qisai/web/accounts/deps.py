"""Who is asking: the session (cookie or bearer token), the user, the roles.

Authentication: the ``qisai_session`` cookie (pages) or an
``Authorization: Bearer <token>`` header (API clients).  A request that
changes something and is authenticated by the cookie must carry the
session's CSRF token in the ``X-CSRF-Token`` header.  The forms that open a
session (log in, register, guest) come before there is one: they carry a
token bound to the ``qisai_form`` cookie instead (:func:`form_csrf`,
:func:`check_form_csrf`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Response
from sqlalchemy.orm import Session

from qisai.store import repo
from qisai.store.models import Role, User
from qisai.web.security import (
    check_form_token,
    constant_time_equal,
    form_token,
    new_form_nonce,
)
from qisai.web.state import AppState, db_session, state

__all__ = ["COOKIE", "FORM_COOKIE", "AdminDep", "ArbiterDep", "OrganiserDep", "UserDep", "Viewer",
           "ViewerDep", "check_form_csrf", "form_csrf", "require_role", "require_user",
           "set_form_cookie", "token_from", "viewer"]

COOKIE = "qisai_session"
FORM_COOKIE = "qisai_form"
"""The pre-session cookie: the nonce the log-in form's CSRF token is bound to."""
FORM_CSRF_REFUSED = ("the form's security token (CSRF protection) is missing or does not match "
                     "this browser: reload the page and send the form again")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass
class Viewer:
    """Who is asking: the user (or ``None``), the session token and how it
    came (``cookie`` or ``bearer``), and the session's CSRF token."""

    user: User | None
    token: str | None = None
    via: str | None = None
    csrf: str | None = None


def token_from(headers: dict[str, str] | object, cookies: dict[str, str]) -> tuple[str | None, str | None]:
    """Return ``(token, via)`` from an ``Authorization`` header or the cookie."""
    auth = headers.get("authorization", "") if hasattr(headers, "get") else ""
    if isinstance(auth, str) and auth.lower().startswith("bearer "):
        return auth[7:].strip(), "bearer"
    token = cookies.get(COOKIE)
    return (token, "cookie") if token else (None, None)


def viewer(request: Request, s: Annotated[Session, Depends(db_session)],
           st: Annotated[AppState, Depends(state)]) -> Viewer:
    """Return the :class:`Viewer` of the request (anonymous if no session)."""
    token, via = token_from(request.headers, request.cookies)
    if not token:
        return Viewer(None)
    found = repo.session_user(s, token, st.settings.pepper)
    # Give the connection back now (the user stays loaded: the sessions do
    # not expire on commit).  A route that then waits on a lock or opens its
    # own unit of work must not hold this one meanwhile: twenty such requests
    # at once held every pooled connection while each waited for another
    # (issue 29.1).  The request's session takes a connection again if the
    # route uses it.
    s.commit()
    if found is None:
        return Viewer(None)
    return Viewer(found[0], token, via, found[1])


def check_csrf(request: Request, v: Viewer) -> None:
    """Raise 403 if a cookie-authenticated request that changes something
    lacks the session's CSRF token."""
    if request.method in SAFE_METHODS or v.via != "cookie":
        return
    sent = request.headers.get("x-csrf-token", "")
    if not v.csrf or not constant_time_equal(sent, v.csrf):
        raise HTTPException(403, "missing or wrong X-CSRF-Token header (CSRF protection): "
                                 "send the token given at log-in")


def form_csrf(request: Request, st: AppState) -> tuple[str, str | None]:
    """Return ``(token, nonce to set)`` for a pre-session form: the token of
    the browser's ``qisai_form`` nonce, and a new nonce to put in that
    cookie when the browser has none yet (else ``None``)."""
    nonce = request.cookies.get(FORM_COOKIE)
    fresh = None
    if not nonce or len(nonce) != 64:
        nonce = fresh = new_form_nonce()
    return form_token(st.settings.pepper, nonce), fresh


def set_form_cookie(response: Response, st: AppState, nonce: str) -> None:
    """Put the pre-session ``nonce`` in the ``qisai_form`` cookie (HttpOnly,
    SameSite=Strict, a week)."""
    response.set_cookie(FORM_COOKIE, nonce, max_age=7 * 86400, httponly=True, samesite="strict",
                        secure=st.settings.cookie_secure, path="/")


def check_form_csrf(request: Request, st: AppState, sent: str | None) -> None:
    """Raise 403 unless ``sent`` (the form field, else the ``X-CSRF-Token``
    header) is the token of the browser's ``qisai_form`` nonce."""
    token = sent or request.headers.get("x-csrf-token")
    if not check_form_token(st.settings.pepper, request.cookies.get(FORM_COOKIE), token):
        raise HTTPException(403, FORM_CSRF_REFUSED)


async def require_user(request: Request, v: Annotated[Viewer, Depends(viewer)]) -> User:
    """Return the logged-in user (guests included).  Async, as it blocks on
    nothing: no worker-thread hop per request.

    Raises 401 without a session and 403 on a CSRF failure.
    """
    if v.user is None:
        raise HTTPException(401, "log in (or start a guest session) first")
    check_csrf(request, v)
    return v.user


def require_role(role: Role):  # type: ignore[no-untyped-def]
    """Return a dependency that requires ``role`` (or a higher one)."""
    async def dep(user: Annotated[User, Depends(require_user)]) -> User:
        if not user.role_enum.allows(role):
            raise HTTPException(403, f"this needs the {role.value} role; you are {user.role}")
        return user
    return dep


ViewerDep = Annotated[Viewer, Depends(viewer)]
"""The request's viewer, as a parameter type."""
UserDep = Annotated[User, Depends(require_user)]
"""The logged-in user (CSRF-checked), as a parameter type."""
OrganiserDep = Annotated[User, Depends(require_role(Role.ORGANISER))]
"""A logged-in organiser, as a parameter type."""
ArbiterDep = Annotated[User, Depends(require_role(Role.ARBITER))]
"""A logged-in arbiter (or organiser), as a parameter type."""
AdminDep = Annotated[User, Depends(require_role(Role.ADMIN))]
"""A logged-in site administrator, as a parameter type."""
