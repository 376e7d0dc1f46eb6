"""The lobby's pages: the quick-pairing block of the home page (a template
of its own, ``lobby/_quick.html``, included by ``home.html``), and the
players page (leaderboards per game and family, search by name).

The texts of these pages are added to :data:`qisai.web.pages.i18n.TEXTS`
here, so the lobby's strings stay in one place with the lobby."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from qisai.referee.rulesets import PRESETS
from qisai.referee.time_families import FAMILIES
from qisai.web.accounts.deps import ViewerDep
from qisai.web.lobby import players
from qisai.web.lobby.controls import CONTROLS
from qisai.web.lobby.routes import MAX_PAGE
from qisai.web.pages.i18n import TEXTS
from qisai.web.pages.render import render, templates
from qisai.web.state import SessionDep

__all__ = ["quick_controls", "router"]

router = APIRouter(include_in_schema=False)

PER_PAGE = 20

LOBBY_TEXTS: dict[str, tuple[str, str]] = {
    "quick_pairing": ("快速配对", "Quick pairing"),
    "quick_rules": ("象棋 · 竞赛规则计时方案（第6条）", "Xiangqi · the rule book's time controls (clause 6)"),
    "quick_online": ("象棋 · 网络常用", "Xiangqi · common online controls"),
    "quick_go": ("围棋 {n}路", "Go {n}x{n}"),
    "quick_hint": ("按一个计时方案，与等级分相近的棋手配对；等得越久，范围越宽。游客只下不计等级分的对局。",
                   "Press a time control to be paired with a player of similar rating; the "
                   "longer you wait, the wider the range. Guests play casual games only."),
    "quick_waiting": ("正在配对", "Looking for an opponent"),
    "quick_range": ("等级分范围", "Rating range"),
    "quick_waited": ("已等待", "Waited"),
    "quick_seconds": ("秒", "s"),
    "quick_others": ("同池等待", "others waiting"),
    "quick_cancel": ("取消", "Cancel"),
    "quick_matched": ("已配对，进入对局…", "Paired: opening the game…"),
    "custom_game": ("自定义对局", "Custom game"),
    "players": ("棋手", "Players"),
    "leaderboards": ("排行榜", "Leaderboards"),
    "player_search": ("查找棋手", "Find a player"),
    "search": ("查找", "Search"),
    "search_hint": ("用户名或显示名（至少1个字）", "User name or display name (1 letter or more)"),
    "rank": ("名次", "Rank"),
    "player": ("棋手", "Player"),
    "family_rating": ("本类等级分", "Rating (this family)"),
    "games_count": ("局数", "Games"),
    "found": ("找到", "Found"),
    "page_prev": ("上一页", "Previous"),
    "page_next": ("下一页", "Next"),
    "leaderboard_note": ("本类等级分 = 1500 + 该棋种该类用时的计分对局带来的等级分变化之和。",
                         "Rating (this family) = 1500 + the rating changes of the rated games of "
                         "this game and family."),
}
for _key, _pair in LOBBY_TEXTS.items():
    TEXTS.setdefault(_key, _pair)
for _fam, _pair in FAMILIES.items():
    TEXTS.setdefault("family_" + _fam, _pair)


def quick_controls() -> list[dict[str, Any]]:
    """Return the quick-pairing buttons in the page's order, grouped
    (``rules``, ``online``, ``9``, ``13``, ``19``)."""
    return [c.public() for c in CONTROLS.values()]


def profile_names() -> dict[str, dict[str, str]]:
    """Return every rule profile's name in Chinese and English by code."""
    return {n: {"zh": p.title_zh, "en": p.title_en} for n, p in PRESETS.items()}


# The home page's block reads these without a change to the home route.
templates.env.globals["quick_controls"] = quick_controls
templates.env.globals["profile_names"] = profile_names


@router.get("/players", response_class=HTMLResponse)
def players_page(request: Request, v: ViewerDep, s: SessionDep,
                 kind: Literal["xiangqi", "go"] = "xiangqi",
                 family: Literal["bullet", "blitz", "rapid", "classical"] = "rapid",
                 q: str = Query(default="", max_length=40),
                 page: int = Query(default=1, ge=1, le=MAX_PAGE)) -> HTMLResponse:
    """Players: the leaderboard of one game and family, or the players
    found by name (``q``), a page at a time."""
    offset = (page - 1) * PER_PAGE
    if q.strip():
        rows, total = players.search_players(s, q, offset=offset, limit=PER_PAGE)
    else:
        rows, total = players.leaderboard(s, kind, family, offset=offset, limit=PER_PAGE)
    return render(request, v, "lobby/players.html", kind=kind, family=family, q=q.strip(),
                  page=page, rows=rows, total=total, per_page=PER_PAGE,
                  families=[f for f in FAMILIES if f != "untimed"],
                  more=offset + len(rows) < total and page < MAX_PAGE)
