"""The FastAPI application: ``create_app(settings)``, the one place the
domains are wired together.

The arena is cut by domain, each a sub-package with its routes and rules:
``accounts`` (log-in, sessions, roles), ``play`` (games, the live hub and
its sockets, engine opponents), ``events`` (every event format over one
event model, one result path) and ``pages`` (templates and page routes).
Below them all: ``settings``, ``security`` and ``state`` (what every
request needs).  No domain imports one above it; where a lower one must
call a higher one (a finished server game enters its result into its
event) the app passes the call in here.

On start it migrates the database (Alembic), loads nothing else (games load
on first use), and starts the clock ticker that rules flag falls.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.staticfiles import StaticFiles

from qisai.store import Database
from qisai.web import manual
from qisai.web.accounts import routes as accounts_api
from qisai.web.apidocs import add_api_docs
from qisai.web.bounds import BodyLimitMiddleware, add_bound_handlers
from qisai.web.events import papers as event_papers
from qisai.web.events import routes as events_api
from qisai.web.events.machines import engine_events_running
from qisai.web.events.results import board_staff, record_game_result
from qisai.web.headers import SecurityHeadersMiddleware
from qisai.web.lobby import routes as lobby_api
from qisai.web.lobby.service import Lobby
from qisai.web.pages import accounts as account_pages
from qisai.web.pages import events as event_pages
from qisai.web.pages import lobby as lobby_pages
from qisai.web.pages import play as play_pages
from qisai.web.pages import players as player_pages
from qisai.web.play import archive as play_archive
from qisai.web.play import consult_routes, socket
from qisai.web.play import routes as play_api
from qisai.web.play.consult import boards_of
from qisai.web.play.hub import Hub
from qisai.web.play.lineup import find_engines
from qisai.web.play.machine_seat import driver_of
from qisai.web.play.resources import engine_pool, quota
from qisai.web.security import RateLimiter
from qisai.web.settings import Settings
from qisai.web.state import AppState

__all__ = ["create_app"]

STATIC = Path(__file__).resolve().parent / "static"


def create_app(settings: Settings, *, time_source: Callable[[], float] | None = None,
               tick_period: float = 0.5) -> FastAPI:
    """Return the arena app for ``settings``.

    ``time_source`` replaces the wall clock for the referee (tests);
    ``tick_period`` is how often running clocks are checked for flag falls.
    """
    db = Database(settings.database_url)
    hub = Hub(db, time_source=time_source or time.time,
              moves_per_second=settings.moves_per_second, engines=settings.engines,
              engine_think=settings.engine_think, board_result=record_game_result,
              engine_pool=engine_pool(settings), quota=quota(settings),
              board_staff=board_staff)
    hub.draw_margin_cp = settings.engine_draw_cp
    st = AppState(settings=settings, db=db, hub=hub,
                  login_limiter=RateLimiter(settings.login_per_minute, 60.0),
                  signup_limiter=RateLimiter(settings.signups_per_hour, 3600.0),
                  account_limiter=RateLimiter(settings.login_per_account_hour, 3600.0))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db.upgrade()
        if settings.discover_engines:
            await find_engines(hub, settings.engines)
        hub.start_ticker(tick_period)
        if await run_in_threadpool(engine_events_running, db):
            driver_of(hub).start()  # the second engine of engine-v-engine games (人机大战)
        try:
            yield
        finally:
            await hub.stop_ticker()
            await boards_of(hub).stop()  # consultation boards' ballot tick
            await driver_of(hub).stop()
            await hub.stop_engines()
            db.dispose()

    app = FastAPI(title="qisai arena", version="0.1.0", lifespan=lifespan,
                  description="Xiangqi and Go under the official Chinese rules: play, watch, "
                              "run events.  WebSocket per game at /ws/games/{id}.",
                  docs_url=None, redoc_url=None)
    add_api_docs(app)  # /docs and /redoc from local files, not a CDN
    app.state.qisai = st
    # Quick pairing: the pools live in this process (see lobby/pools.py).
    app.state.lobby = Lobby(db, hub, hub.now)

    add_bound_handlers(app)  # short error details, out-of-range ids are 404
    app.add_middleware(BodyLimitMiddleware)  # 413 over 1 MiB (less on some routes)
    # Outermost: CSP, no framing, nosniff ... on every response, a 413 too.
    app.add_middleware(SecurityHeadersMiddleware, secure_cookies=settings.cookie_secure)

    app.include_router(accounts_api.router)
    app.include_router(play_api.router)
    app.include_router(consult_routes.router)  # /api/consultations, /api/games/{id}/group
    app.include_router(play_archive.router)  # /api/users/{id}/games.pgn|zip: downloads
    app.include_router(socket.router)
    app.include_router(lobby_api.router)
    app.include_router(events_api.api)
    app.include_router(event_papers.router)  # /tournaments/{id}/papers/...: printed papers
    app.include_router(play_pages.router)
    app.include_router(player_pages.router)  # /users/{id}: the player's page
    app.include_router(account_pages.router)
    app.include_router(event_pages.router)
    app.include_router(lobby_pages.router)
    app.include_router(manual.router_for(settings))  # /manual: the built user manual
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
