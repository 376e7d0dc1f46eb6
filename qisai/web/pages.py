"""Server-rendered pages (Jinja2) in Chinese and English.

Pages carry the session's CSRF token in ``<meta name="csrf">``; their
scripts call the JSON API and the game socket with it.  The log-in page's
forms (log in, register, guest) are plain HTML form posts to ``/login``,
``/register`` and ``/guest``; as there is no session yet they carry the
pre-session token of :func:`qisai.web.deps.form_csrf`, and a post without
it is refused with 403.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlparse

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from qisai.store import NotFoundError, repo
from qisai.store.models import GameStatus
from qisai.web import views
from qisai.web.deps import (
    FORM_COOKIE,
    AppState,
    SessionDep,
    StateDep,
    Viewer,
    ViewerDep,
    check_form_csrf,
    form_csrf,
)
from qisai.web.i18n import LANGS, choose_language, translator
from qisai.web.live import ActionError

__all__ = ["render", "router", "templates"]

templates = Jinja2Templates(directory=str(Path(__file__).resolve().parent / "templates"))
router = APIRouter(include_in_schema=False)


def render(request: Request, v: Viewer, name: str, **ctx: Any) -> HTMLResponse:
    """Return the page ``name`` in the viewer's language with ``ctx``."""
    lang = choose_language(request.cookies.get("lang"), request.headers.get("accept-language"))
    base = {"lang": lang, "t": translator(lang), "user": v.user, "csrf": v.csrf or "",
            "other_lang": "en" if lang == "zh" else "zh", "path": request.url.path}
    base.update(ctx)
    response = templates.TemplateResponse(request, name, base)
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


def _local(target: str) -> str:
    """Return ``target`` if it is a path on this site, else ``/`` (no open
    redirects)."""
    ok = target.startswith("/") and not target.startswith("//") and not urlparse(target).netloc
    return target if ok else "/"


@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> Response:
    """Set the page language (the switch) and go back."""
    if code not in LANGS:
        raise HTTPException(404, f"unknown language {code!r}; use zh or en")
    target = _local(next)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie("lang", code, max_age=365 * 86400, samesite="lax", path="/")
    return response


@router.get("/", response_class=HTMLResponse)
def home(request: Request, v: ViewerDep, s: SessionDep, st: StateDep
         ) -> HTMLResponse:
    """Home: create a game, open seeks, games in play, recent results."""
    from qisai.web.api import _game_summary

    waiting = [_game_summary(g) for g in repo.list_games(s, status=GameStatus.WAITING, limit=20)]
    active = [_game_summary(g) for g in repo.list_games(s, status=GameStatus.ACTIVE, limit=20)]
    done = [_game_summary(g) for g in repo.list_games(s, status=GameStatus.FINISHED, limit=20)]
    return render(request, v, "home.html", waiting=waiting, active=active, done=done,
                   profiles={k: views.profiles_for(k) for k in ("xiangqi", "go")},
                   engines=list(st.hub.engines))


def _login_page(request: Request, v: Viewer, st: AppState, status: int = 200,
                **ctx: Any) -> HTMLResponse:
    """The log-in page with the pre-session CSRF token (setting its cookie
    when the browser has none)."""
    token, fresh = form_csrf(request, st)
    page = render(request, v, "login.html", form_token=token, **ctx)
    page.status_code = status
    if fresh is not None:
        page.set_cookie(FORM_COOKIE, fresh, max_age=7 * 86400, httponly=True, samesite="strict",
                        secure=st.settings.cookie_secure, path="/")
    return page


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, v: ViewerDep, st: StateDep, next: str = "/") -> HTMLResponse:
    """Log-in and registration forms."""
    return _login_page(request, v, st, next=_local(next))


FormText = Annotated[str, Form()]


def _session_form(action: str, request: Request, v: Viewer, st: AppState, s: Any,
                  username: str, password: str, csrf: str, next_: str) -> Response:
    """Check the form's CSRF token, then log in, register or open a guest
    session through the API's own handlers (same checks, limits and
    cookie); go to ``next_`` (303), or show the form again with the reason
    and the API's status (403 for a bad token, 401, 409, 422, 429)."""
    from pydantic import ValidationError

    from qisai.web import api

    target = _local(next_)
    try:
        check_form_csrf(request, st, csrf)
        response = RedirectResponse(target, status_code=303)
        if action == "guest":
            api.guest(request, response, st, s)
        else:
            try:
                body = api.Credentials(username=username.strip(), password=password)
            except ValidationError as exc:
                raise HTTPException(422, "; ".join(
                    f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors())
                ) from None
            handler = api.login if action == "login" else api.register
            handler(body, request, response, st, s)
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


@router.get("/games/{game_id}", response_class=HTMLResponse, name="game_page")
async def game_page(game_id: str, request: Request, st: StateDep,
                    v: ViewerDep) -> HTMLResponse:
    """The play / watch / replay page of a game."""
    try:
        live = await st.hub.get(game_id)
    except ActionError as exc:
        raise HTTPException(exc.status, exc.message) from None
    async with live.lock:
        snap = live.snapshot(v.user.id if v.user else None)
    return render(request, v, "game.html", game=snap,
                   game_json=json.dumps(snap, ensure_ascii=False).replace("</", "<\\/"))


@router.get("/users/{user_id}", response_class=HTMLResponse)
def profile_page(user_id: int, request: Request, v: ViewerDep,
                 s: SessionDep) -> HTMLResponse:
    """A player's profile: rating history plot and games."""
    from qisai.web.api import _game_summary

    try:
        u = repo.get_user(s, user_id)
    except NotFoundError as exc:
        raise HTTPException(404, str(exc)) from None
    history = repo.rating_history(s, user_id)
    points = [u.rating] if not history else [history[0].before] + [h.after for h in history]
    games = [_game_summary(g) for g in repo.list_games(s, user_id=user_id, limit=100)]
    return render(request, v, "profile.html", person=u, points=points, games=games)
