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
on first use), and starts the clock ticker that rules flag falls.  With a
Redis (``QISAI_REDIS_URL``) it joins the other server processes of the arena
(:mod:`qisai.web.cluster.cluster_hub`), and with ``QISAI_ENGINE_QUEUE`` its engine
moves go to ``qisai worker`` processes.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.staticfiles import StaticFiles

from qisai.store import Database
from qisai.web import manual, ops
from qisai.web.accounts import routes as accounts_api
from qisai.web.analysis import routes as analysis
from qisai.web.apidocs import add_api_docs
from qisai.web.bounds import BodyLimitMiddleware, add_bound_handlers
from qisai.web.cluster.cluster_hub import ClusterHub
from qisai.web.events import paged as event_paged
from qisai.web.events import paged_families as event_paged_families
from qisai.web.events import papers as event_papers
from qisai.web.events import routes as events_api
from qisai.web.events import transfer as event_transfer
from qisai.web.events.machines import engine_events_running
from qisai.web.events.results import board_staff, record_game_result
from qisai.web.exhibitions import blindfold as blindfold_api
from qisai.web.exhibitions import consult_routes, simul_socket
from qisai.web.exhibitions import entrants as simul_entrants
from qisai.web.exhibitions import simuls as simuls_api
from qisai.web.exhibitions import store as simul_store
from qisai.web.exhibitions.consult import boards_of
from qisai.web.headers import SecurityHeadersMiddleware
from qisai.web.heavy import HeavyWork
from qisai.web.inflight import InFlightLimit
from qisai.web.lobby import routes as lobby_api
from qisai.web.lobby import socket as lobby_socket
from qisai.web.lobby.service import Lobby
from qisai.web.pages import accounts as account_pages
from qisai.web.pages import analysis as analysis_pages
from qisai.web.pages import events as event_pages
from qisai.web.pages import exhibitions as exhibition_pages
from qisai.web.pages import live as live_pages
from qisai.web.pages import lobby as lobby_pages
from qisai.web.pages import play as play_pages
from qisai.web.pages import players as player_pages
from qisai.web.pages.hant import to_traditional
from qisai.web.pages.i18n import choose_page_language
from qisai.web.pages.render import templates as page_templates
from qisai.web.play import archive as play_archive
from qisai.web.play import comfort, socket
from qisai.web.play import routes as play_api
from qisai.web.play.engine_driver import driver_of
from qisai.web.play.resources import engine_pool, quota
from qisai.web.seats.lineup import find_engines
from qisai.web.security import RateLimiter
from qisai.web.settings import Settings
from qisai.web.state import AppState, DatabaseScopeMiddleware

__all__ = ["create_app"]

STATIC = Path(__file__).resolve().parent / "static"


def create_app(settings: Settings, *, time_source: Callable[[], float] | None = None,
               tick_period: float = 0.5) -> FastAPI:
    """Return the arena app for ``settings``.

    ``time_source`` replaces the wall clock for the referee (tests);
    ``tick_period`` is how often running clocks are checked for flag falls.
    """
    db = Database(settings.database_url)
    hub = ClusterHub(db, time_source=time_source or time.time,
              moves_per_second=settings.moves_per_second, engines=settings.engines,
              engine_think=settings.engine_think, board_result=record_game_result,
              engine_pool=engine_pool(settings), quota=quota(settings),
              board_staff=board_staff)
    hub.draw_margin_cp = settings.engine_draw_cp
    # The actions beside the referee's, all through Hub.act: casual comfort
    # (play) and a consultation group's votes and talk (exhibitions).
    comfort.register(hub)
    consult_routes.register(hub)
    hub.count_limit = settings.count_limit
    st = AppState(settings=settings, db=db, hub=hub,
                  login_limiter=RateLimiter(settings.login_per_minute, 60.0),
                  signup_limiter=RateLimiter(settings.signups_per_hour, 3600.0),
                  account_limiter=RateLimiter(settings.login_per_account_hour, 3600.0))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db.upgrade()
        # The routes' blocking work shares the interpreter lock with the
        # event loop that carries every move: few threads, so that a burst
        # of requests leaves the loop its turn (issue 29.4).
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.http_threads
        await run_in_threadpool(warm_templates)
        if settings.discover_engines:
            await find_engines(hub, settings.engines)
        if settings.redis_url is not None:
            from qisai.web.cluster.relay import Relay
            from qisai.web.limits import share_limits

            share_limits(st, hub, settings.redis_url)  # counted once for the cluster (30.5)

            hub.relay = Relay(hub, settings.redis_url)
            await hub.relay.start()
            if settings.engine_queue:
                from qisai.web.cluster.remote_engines import RemoteEngines

                hub.remote = RemoteEngines(settings.redis_url)
                await hub.remote.start()
        hub.start_ticker(tick_period)
        # Consultation ballots: their deadlines are stored, so a ballot opened
        # before a restart is decided when its game is next loaded, whoever
        # loads it (not only once a member asks for the group's panel).
        boards_of(hub).start(tick_period)
        if (await run_in_threadpool(engine_events_running, db)
                or await run_in_threadpool(simul_store.engine_hosts_running, db)):
            driver_of(hub).start()  # the second engine of engine-v-engine games (人机大战)
        try:
            yield
        finally:
            await hub.stop_ticker()
            await boards_of(hub).stop()  # consultation boards' ballot tick
            await driver_of(hub).stop()
            await hub.stop_engines()
            if hub.relay is not None:
                await hub.relay.stop()
            if hub.remote is not None:
                await hub.remote.stop()
            if isinstance(app.state.lobby, Lobby):
                await app.state.lobby.close()
            app.state.heavy.close()  # the paper-drawing processes
            db.dispose()

    app = FastAPI(title="qisai arena", version="0.1.0", lifespan=lifespan,
                  description="Xiangqi and Go under the official Chinese rules: play, watch, "
                              "run events.  WebSocket per game at /ws/games/{id}.",
                  docs_url=None, redoc_url=None)
    add_api_docs(app)  # /docs and /redoc from local files, not a CDN
    app.state.qisai = st
    app.state.heavy = HeavyWork(settings.heavy_jobs)  # papers, imports: a few at once
    # Quick pairing: the pools live in this process (see lobby/pools.py),
    # or in Redis when several processes serve the arena (lobby/shared.py).
    lobby = Lobby(db, hub, hub.now)
    if settings.redis_url is not None:
        from qisai.web.lobby.shared import SharedLobby

        lobby = SharedLobby(db, hub, hub.now, settings.redis_url)
    app.state.lobby = lobby

    # short error details, out-of-range ids are 404, refusals in the page's language
    add_bound_handlers(app, choose_page_language, to_traditional)
    # No client fills the server: 429 past 8 requests of his at once (issue 29.1).
    app.add_middleware(InFlightLimit, per_client=settings.inflight_per_client,
                       per_address=settings.inflight_per_address)
    app.add_middleware(BodyLimitMiddleware)  # 413 over 1 MiB (less on some routes)
    app.add_middleware(DatabaseScopeMiddleware)  # one connection at a time per request
    # Outermost: CSP, no framing, nosniff ... on every response, a 413 too.
    app.add_middleware(SecurityHeadersMiddleware, secure_cookies=settings.cookie_secure)
    app.add_middleware(ops.RequestTimer)  # every request's time, the refusals' too (30.6)

    app.include_router(ops.router)  # /healthz, /readyz, /metrics
    app.include_router(accounts_api.router)
    app.include_router(play_api.router)
    app.include_router(consult_routes.router)  # /api/consultations, /api/games/{id}/group
    app.include_router(play_archive.router)  # /api/users/{id}/games.pgn|zip: downloads
    app.include_router(analysis.router)  # /analysis, /api/analysis: the analysis board
    app.include_router(socket.router)
    app.include_router(lobby_api.router)
    app.include_router(lobby_socket.router)  # /ws/lobby: the home page's live boards
    app.include_router(events_api.api)
    app.include_router(event_transfer.router)  # /api/tournaments/{id}/export, /import
    app.include_router(event_paged.router)  # an event's standings, boards ... a page at a time
    app.include_router(event_paged_families.router)  # knock-out, team, group: the same
    app.include_router(event_papers.router)  # /tournaments/{id}/papers/...: printed papers
    # exhibitions (issue 21): simuls, their socket, blindfold seats
    app.include_router(simuls_api.router)
    app.include_router(simul_entrants.router)
    app.include_router(simul_socket.router)
    app.include_router(blindfold_api.router)
    app.include_router(exhibition_pages.router)
    app.include_router(play_pages.router)
    app.include_router(player_pages.router)  # /users/{id}: the player's page
    app.include_router(analysis_pages.router)
    app.include_router(account_pages.router)
    app.include_router(event_pages.router)
    app.include_router(lobby_pages.router)
    app.include_router(live_pages.router)  # /tv: the featured game
    app.include_router(manual.router_for(settings))  # /manual: the built user manual
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def warm_templates() -> int:
    """Compile every page template now (blocking: call it in a worker
    thread at start-up); returns how many.  Jinja compiles a template on
    its first use and keeps it: the event page's first view compiled a
    dozen templates on the event loop, a stall of every game's moves
    (issue 29.4)."""
    env = page_templates.env
    names = [n for n in env.list_templates() if n.endswith(".html")]
    for name in names:
        env.get_template(name)
    return len(names)


def settings_to_env(settings: Settings) -> dict[str, str]:
    """Return the environment that makes :func:`app_from_env` build an app
    for ``settings`` in a fresh process (``qisai serve --workers N``)."""
    env = {"QISAI_DATA_DIR": str(settings.data_dir), "QISAI_DATABASE_URL": settings.database_url,
           "QISAI_ENGINE_THINK": repr(settings.engine_think),
           "QISAI_ENGINE_QUEUE": "1" if settings.engine_queue else "0",
           "QISAI_DISCOVER_ENGINES": "1" if settings.discover_engines else "0",
           "QISAI_SERVE_ENGINES": json.dumps(settings.engines)}
    if settings.engine_processes:
        env["QISAI_ENGINE_PROCESSES"] = str(settings.engine_processes)
    env["QISAI_ENGINE_NICE"] = str(settings.engine_nice)
    if settings.redis_url:
        env["QISAI_REDIS_URL"] = settings.redis_url
    return env


def app_from_env() -> FastAPI:
    """Return the arena app for the settings in the environment (what each
    process of ``qisai serve --workers N`` runs; uvicorn's ``factory``).
    Raises :class:`ValueError` for a malformed setting."""
    import gc

    settings = Settings.from_env()
    engines = json.loads(os.environ.get("QISAI_SERVE_ENGINES", "{}") or "{}")
    if not isinstance(engines, dict):
        raise ValueError("QISAI_SERVE_ENGINES: expected a JSON object of engine specs")
    settings.engines = {str(k): str(v) for k, v in engines.items()}
    app = create_app(settings)
    gc.freeze()  # as qisai.cli.arena.tune_gc (the CLI is above the app)
    gc.set_threshold(50_000, 50, 100)
    return app
