"""A player's page (issue 17.7): the rating and its history drawn as an
inline SVG made here on the server (no script, no CDN: the arena works
offline), the player's games with the result from the player's side, the
rule profile by its name, the colour and the opponent, and the downloads of
all their games (:mod:`qisai.web.play.archive`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from qisai.referee.rulesets import PRESETS
from qisai.referee.verdict import GameKind, Side
from qisai.store import NotFoundError, repo
from qisai.store.models import GameStatus
from qisai.web.accounts.deps import ViewerDep
from qisai.web.bounds import DbId
from qisai.web.pages.i18n import TEXTS, choose_language
from qisai.web.pages.render import render
from qisai.web.seats.opponent_names import opponent_name
from qisai.web.state import SessionDep

__all__ = ["Plot", "game_rows", "rating_plot", "router"]

router = APIRouter(include_in_schema=False)

GAMES_SHOWN = 100
"""Games listed on the page (the downloads hold more)."""

PAGE_TEXTS: dict[str, tuple[str, str]] = {
    "col_date": ("日期", "Date"),
    "col_game": ("棋种", "Game"),
    "col_rules": ("规则", "Rules"),
    "col_colour": ("执子", "Colour"),
    "col_opponent": ("对手", "Opponent"),
    "col_result": ("结果", "Result"),
    "col_reason": ("原因", "How"),
    "win": ("胜", "Won"),
    "loss": ("负", "Lost"),
    "draw": ("和", "Draw"),
    "in_play": ("进行中", "In play"),
    "no_result": ("无结果", "No result"),
    "rated_mark": ("计分", "rated"),
    "download": ("下载全部对局", "Download all games"),
    "download_pgn": ("象棋 PGN", "Xiangqi PGN"),
    "download_sgf": ("围棋 SGF（zip）", "Go SGF (zip)"),
    "no_history": ("尚无计分对局", "No rated games yet"),
    "plot_label": ("等级分变化图：{n} 局，{lo}–{hi}", "Rating history: {n} games, {lo}–{hi}"),
    "open_seat": ("空位", "open seat"),
}


class Plot:
    """The rating history as SVG shapes in a ``width`` x ``height`` box."""

    width = 600
    height = 180
    pad_left = 44
    pad_right = 8
    pad_top = 10
    pad_bottom = 22

    def __init__(self, ratings: Sequence[float], dates: Sequence[str]) -> None:
        self.ratings = list(ratings)
        self.dates = list(dates)
        lo, hi = min(self.ratings), max(self.ratings)
        if hi - lo < 20:  # a flat history still gets a readable scale
            mid = (hi + lo) / 2
            lo, hi = mid - 10, mid + 10
        self.lo, self.hi = lo, hi

    def x(self, i: int) -> float:
        """The x of the ``i``-th rating (0: the start)."""
        span = self.width - self.pad_left - self.pad_right
        n = len(self.ratings)
        return round(self.pad_left + (span * i / (n - 1) if n > 1 else span / 2), 1)

    def y(self, rating: float) -> float:
        """The y of ``rating`` (higher is up)."""
        span = self.height - self.pad_top - self.pad_bottom
        return round(self.pad_top + span * (self.hi - rating) / (self.hi - self.lo), 1)

    @property
    def polyline(self) -> str:
        """The ``points`` of the line through every rating."""
        return " ".join(f"{self.x(i)},{self.y(r)}" for i, r in enumerate(self.ratings))

    @property
    def points(self) -> list[dict[str, Any]]:
        """Each rating's dot: ``x``, ``y``, ``rating`` (rounded), ``date``."""
        return [{"x": self.x(i), "y": self.y(r), "rating": round(r),
                 "date": self.dates[i] if i < len(self.dates) else ""}
                for i, r in enumerate(self.ratings)]

    @property
    def ticks(self) -> list[dict[str, Any]]:
        """Three labelled grid lines: least, middle and most."""
        values = (self.lo, (self.lo + self.hi) / 2, self.hi)
        return [{"y": self.y(v), "label": round(v)} for v in values]


def rating_plot(history: Sequence[Any], current: float) -> Plot:
    """Return the plot of a player's rating changes (oldest first; each
    with ``before``, ``after`` and ``at``): the rating before the first,
    then after each; a player without any is one dot at ``current``."""
    if not history:
        return Plot([current], [""])
    ratings = [history[0].before, *(h.after for h in history)]
    dates = [""] + [h.at.strftime("%Y-%m-%d") for h in history]
    return Plot(ratings, dates)


def _outcome(code: str | None, mine: Side, status: str) -> str:
    if code in ("1-0", "0-1"):
        won = (code == "1-0") == (mine is Side.FIRST)
        return "win" if won else "loss"
    if code == "1/2-1/2":
        return "draw"
    return "in_play" if status != GameStatus.FINISHED.value else "no_result"


def game_rows(games: Sequence[Any], user_id: int, lang: str) -> list[dict[str, Any]]:
    """Return the player's games (stored rows) as the page lists them:
    ``id``, ``date``, ``kind``, ``rules`` (the profile's name), ``colour``
    (the side's name), ``opponent`` (``name``, ``id`` or ``None`` for an
    engine or an open seat), ``outcome`` (``win``, ``loss``, ``draw``,
    ``in_play``, ``no_result``), ``reason`` (its text), ``rated``."""
    rows = []
    for g in games:
        mine = Side.FIRST if g.first_user_id == user_id else Side.SECOND
        other = g.second_user if mine is Side.FIRST else g.first_user
        kind = GameKind.XIANGQI if g.kind == "xiangqi" else GameKind.GO
        preset = PRESETS.get(g.ruleset)
        rules = g.ruleset if preset is None else (preset.title_zh if lang == "zh"
                                                  else preset.title_en)
        if other is not None:
            opponent = {"name": other.username, "id": other.id}
        elif g.engine:
            opponent = {"name": opponent_name(g.engine, g.settings or {}, lang), "id": None}
        else:
            opponent = {"name": None, "id": None}
        reason = (g.result or {}).get("reason")
        pair = TEXTS.get(f"reason_{reason}") if reason else None
        rows.append({
            "id": g.id, "date": g.created_at.strftime("%Y-%m-%d"), "kind": g.kind,
            "rules": rules, "colour": mine.name_zh(kind) if lang == "zh" else mine.name_en(kind),
            "side": mine.name.lower(), "opponent": opponent,
            "outcome": _outcome(g.result_code, mine, g.status),
            "reason": "" if not reason else (pair[0 if lang == "zh" else 1] if pair else reason),
            "rated": bool(g.rated)})
    return rows


@router.get("/users/{user_id}", response_class=HTMLResponse)
def profile_page(user_id: DbId, request: Request, v: ViewerDep,
                 s: SessionDep) -> HTMLResponse:
    """A player's page: rating history plot, games, downloads.  404 for an
    unknown player."""
    try:
        u = repo.get_user(s, user_id)
    except NotFoundError as exc:
        raise HTTPException(404, str(exc)) from None
    lang = choose_language(request.cookies.get("lang"), request.headers.get("accept-language"))
    index = 0 if lang == "zh" else 1

    def pt(key: str) -> str:
        pair = PAGE_TEXTS.get(key)
        return key if pair is None else pair[index]

    history = repo.rating_history(s, user_id)
    plot = rating_plot(history, u.rating)
    games = [g for g in repo.list_games(s, user_id=user_id, limit=GAMES_SHOWN + 20)
             if g.status != GameStatus.WAITING.value][:GAMES_SHOWN]
    label = pt("plot_label").format(n=len(history), lo=round(plot.lo), hi=round(plot.hi))
    return render(request, v, "play/profile.html", person=u, plot=plot, pt=pt,
                  plot_label=label, rated_games=len(history),
                  games=game_rows(games, user_id, lang))
