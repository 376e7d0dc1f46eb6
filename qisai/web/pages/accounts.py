"""The account pages: the language switch, log-in and registration.

The log-in page's forms (log in, register, guest) are plain HTML form
posts to ``/login``, ``/register`` and ``/guest``; as there is no session
yet they carry the pre-session token of
:func:`qisai.web.accounts.deps.form_csrf`, and a post without it is
refused with 403.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from qisai.web.accounts import routes as api
from qisai.web.accounts.deps import (
    Viewer,
    ViewerDep,
    check_form_csrf,
    form_csrf,
    set_form_cookie,
)
from qisai.web.pages.i18n import PAGE_LANGS
from qisai.web.pages.render import local, render
from qisai.web.state import AppState, SessionDep, StateDep

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> Response:
    """Set the page language (the switch) and go back."""
    if code not in PAGE_LANGS:
        raise HTTPException(404, f"unknown language {code!r}; use zh, zh-Hant or en")
    target = local(next)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie("lang", code, max_age=365 * 86400, samesite="lax", path="/")
    return response


def _login_page(request: Request, v: Viewer, st: AppState, status: int = 200,
                **ctx: Any) -> HTMLResponse:
    """The log-in page with the pre-session CSRF token (setting its cookie
    when the browser has none)."""
    token, fresh = form_csrf(request, st)
    page = render(request, v, "accounts/login.html", form_token=token, **ctx)
    page.status_code = status
    if fresh is not None:
        set_form_cookie(page, st, fresh)
    return page


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, v: ViewerDep, st: StateDep, next: str = "/") -> HTMLResponse:
    """Log-in and registration forms."""
    return _login_page(request, v, st, next=local(next))


FormText = Annotated[str, Form()]


def _session_form(action: str, request: Request, v: Viewer, st: AppState, s: Any,
                  username: str, password: str, csrf: str, next_: str) -> Response:
    """Check the form's CSRF token, then log in, register or open a guest
    session through the API's own handlers (same checks, limits and
    cookie); go to ``next_`` (303), or show the form again with the reason
    and the API's status (403 for a bad token, 401, 409, 422, 429)."""
    target = local(next_)
    try:
        check_form_csrf(request, st, csrf)
        response = RedirectResponse(target, status_code=303)
        if action == "guest":
            api.start_guest(request, response, st, s)
        else:
            try:
                body = api.Credentials(username=username.strip(), password=password)
            except ValidationError as exc:
                raise HTTPException(422, "; ".join(
                    f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors())
                ) from None
            handler = api.login if action == "login" else api.register
            out = handler(body, request, response, st, s)
            if out.notice:  # tell the owner before going on, with the session's cookies
                page = render(request, v, "accounts/login.html", notice=out.notice, next=target)
                page.raw_headers.extend(
                    (k, val) for k, val in response.raw_headers if k == b"set-cookie")
                return page
        return response
    except HTTPException as exc:
        page = _login_page(request, v, st, exc.status_code, error=str(exc.detail),
                           username=username, next=target)
        for key, value in (exc.headers or {}).items():
            page.headers[key] = value
        return page


@router.post("/login", response_class=HTMLResponse)
def login_form(request: Request, v: ViewerDep, st: StateDep, s: SessionDep,
               username: FormText = "", password: FormText = "", csrf: FormText = "",
               next: FormText = "/") -> Response:
    """Log in from the page's form (CSRF-checked); 303 to ``next``."""
    return _session_form("login", request, v, st, s, username, password, csrf, next)


@router.post("/register", response_class=HTMLResponse)
def register_form(request: Request, v: ViewerDep, st: StateDep, s: SessionDep,
                  username: FormText = "", password: FormText = "", csrf: FormText = "",
                  next: FormText = "/") -> Response:
    """Register and log in from the page's form (CSRF-checked); 303 to ``next``."""
    return _session_form("register", request, v, st, s, username, password, csrf, next)


@router.post("/guest", response_class=HTMLResponse)
def guest_form(request: Request, v: ViewerDep, st: StateDep, s: SessionDep,
               csrf: FormText = "", next: FormText = "/") -> Response:
    """Start a guest session from the page's form (CSRF-checked); 303 to ``next``."""
    return _session_form("guest", request, v, st, s, "", "", csrf, next)
