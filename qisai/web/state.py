"""What every request needs, below every domain: the app's state, the
database session of a request.

Each domain (``accounts``, ``play``, ``events``, ``pages``) depends on this
module and none of them is imported by it, so the domains can share it
without importing each other in a circle.  The live-game hub belongs to
``play``: it is kept here untyped (``hub``) and typed by
:func:`qisai.web.play.deps.hub`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from sqlalchemy.orm import Session
from starlette.types import ASGIApp, Receive, Scope, Send

from qisai.store import Database
from qisai.web.security import LoginGuard, Passwords, RateLimiter
from qisai.web.settings import Settings

T = TypeVar("T")

__all__ = ["AppState", "DatabaseScopeMiddleware", "SessionDep", "StateDep", "db_session",
           "spawn", "state"]


@dataclass
class AppState:
    """What every request needs, kept on ``app.state.qisai``."""

    settings: Settings
    db: Database
    login_limiter: RateLimiter
    """Log-in attempts per address (all names together)."""
    signup_limiter: RateLimiter
    account_limiter: RateLimiter = field(default_factory=lambda: RateLimiter(30, 3600.0))
    """Log-in attempts per user name (all addresses together)."""
    entry_limiter: RateLimiter = field(default_factory=lambda: RateLimiter(20, 60.0))
    """Registrations from the calendar and answers to invitations per account."""
    login_guard: LoginGuard = field(default_factory=LoginGuard)
    """Log-in attempts per user name and address, the slow lane of a held
    account, known devices (the owner is not locked out: issue 31.4)."""
    passwords: Passwords = field(default_factory=Passwords)
    """Password hashing, bounded (made at start-up: its dummy hash too)."""
    hub: object = None
    """The live games (:class:`qisai.web.play.hub.Hub`), set by the app."""


async def state(request: Request) -> AppState:
    """Return the app's :class:`AppState` (async: FastAPI would run a plain
    function in a worker thread, a hop per request for an attribute read)."""
    st: AppState = request.app.state.qisai
    return st


async def db_session(st: Annotated[AppState, Depends(state)]) -> AsyncIterator[Session]:
    """Yield a database session for one request.

    Async, so that opening and closing it take no worker thread: a session
    takes its connection only when first used, and closing it gives the
    connection back at once (an SQLite rollback is a call into the C
    library).  As a plain function its close waited in line for a worker
    thread behind every queued request while it still held its connection:
    500 requests at once held every pooled connection that way, and the
    requests that had a thread waited for a connection (issue 29.1).
    """
    with st.db.session() as s:
        yield s


StateDep = Annotated[AppState, Depends(state)]
"""The app state, as a parameter type."""
SessionDep = Annotated[Session, Depends(db_session)]
"""A database session for the request, as a parameter type."""


def spawn(coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """Start ``coro`` as a task of its own, outside the database scope of the
    request or socket that starts it (:meth:`Database.unscoped_context`):
    its connections are its own, never counted as the request's second."""
    return asyncio.get_running_loop().create_task(coro, context=Database.unscoped_context())


class DatabaseScopeMiddleware:
    """Count the pooled connections of each request and socket as one
    :meth:`qisai.store.Database.scope` (issue 29.1).

    A request should never hold a connection while it asks for another:
    :attr:`qisai.store.Database.nested_checkouts` counts the times one did
    (logged with where), and the tests assert it stays 0.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with Database.scope():
            await self.app(scope, receive, send)
