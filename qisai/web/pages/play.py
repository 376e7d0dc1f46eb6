"""The play pages: the front page (new game, open seeks, games in play,
results), a game's play / watch / replay page, and the favicon (a player's page is
:mod:`qisai.web.pages.players`)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from qisai.referee.rulesets import PRESETS
from qisai.store import repo
from qisai.store.models import GameStatus
from qisai.web.accounts.deps import ViewerDep
from qisai.web.pages.i18n import TEXTS
from qisai.web.pages.live import home_blocks
from qisai.web.pages.render import embed_json, render
from qisai.web.play import explain, referee_games
from qisai.web.play.clauses import clause_links
from qisai.web.play.deps import HubDep, live_game
from qisai.web.play.live import game_summary
from qisai.web.seats.lineup import listing
from qisai.web.state import SessionDep

__all__ = ["router"]

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def home(request: Request, v: ViewerDep, s: SessionDep, hub: HubDep
         ) -> HTMLResponse:
    """Home: create a game, open seeks, games in play, recent results."""
    waiting = [game_summary(g) for g in repo.list_games(s, status=GameStatus.WAITING, limit=20)]
    active = [game_summary(g) for g in repo.list_games(s, status=GameStatus.ACTIVE, limit=20)]
    done = [game_summary(g) for g in repo.list_games(s, status=GameStatus.FINISHED, limit=20)]
    titles = {n: {"zh": p.title_zh, "en": p.title_en} for n, p in PRESETS.items()}
    return render(request, v, "home.html", waiting=waiting, active=active, done=done,
                   profiles={k: referee_games.profiles_for(k) for k in ("xiangqi", "go")},
                   titles=titles,
                   engines=listing(None, hub.engines, hub.levels),
                   **home_blocks(s, v.user))  # issue 22: live boards, events calendar


@router.get("/games/{game_id}", response_class=HTMLResponse, name="game_page")
async def game_page(game_id: str, request: Request, hub: HubDep,
                    v: ViewerDep) -> HTMLResponse:
    """The play / watch / replay page of a game.  The arbiter's controls
    are shown to those who may rule on it (:meth:`Hub.may_rule`: an event's
    game to its staff, a casual one to the site's arbiters; never to one
    of its players, 17.4); the server checks again on every action."""
    live = await live_game(hub, game_id)
    async with live.lock:
        snap = live.snapshot(v.user.id if v.user else None)
    rules = v.user is not None and await hub.may_rule(live, v.user, "adjudicate") is None
    # The page's own explanations link their clauses to the manual too.
    texts: dict[str, object] = {k: {**t, "links": clause_links(t.get("clause"))}
                                for k, t in explain.all_texts().items()}
    texts["_reason_names"] = {k[len("reason_"):]: v for k, v in TEXTS.items()
                              if k.startswith("reason_")}
    reasons = embed_json(texts)
    return render(request, v, "play/game.html", game=snap, reasons_json=reasons,
                   game_json=embed_json(snap), may_rule=rules)


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """The site's icon (a Xiangqi piece)."""
    return FileResponse(STATIC / "favicon.ico", media_type="image/x-icon")
