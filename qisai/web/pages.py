"""Server-rendered pages (Jinja2) in Chinese and English.

Pages carry the session's CSRF token in ``<meta name="csrf">``; their
scripts call the JSON API and the game socket with it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from qisai.store import NotFoundError, repo
from qisai.store.models import GameStatus
from qisai.web import views
from qisai.web.deps import SessionDep, StateDep, Viewer, ViewerDep
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


@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> Response:
    """Set the page language (the switch) and go back."""
    if code not in LANGS:
        raise HTTPException(404, f"unknown language {code!r}; use zh or en")
    target = next if next.startswith("/") and not urlparse(next).netloc else "/"
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


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, v: ViewerDep) -> HTMLResponse:
    """Log-in and registration forms."""
    return render(request, v, "login.html")


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
