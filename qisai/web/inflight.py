"""Requests in flight per client: no single client takes the server's
worker threads and database connections from the others (issue 29.1).

Twenty requests at once from one account used to hold every pooled
database connection; a client that sends thirty at once every few seconds
still filled the worker threads while other clients waited.  Rate limits
count requests over minutes; this counts the ones running *now*: a client
may have :attr:`InFlightLimit.per_client` requests in progress (a browser
opens six connections to a host), and one more is answered ``429`` at once
with ``Retry-After: 1``, without running.  Clients are told apart by their
session (bearer token or session cookie; hashed, never kept) and, without
one, by address, with the larger :attr:`InFlightLimit.per_address` (many
people may share one address: a club's or a playing hall's network).
Static files and sockets are not counted (sockets have bounds of their
own, :mod:`qisai.web.bounds`).

The process as a whole admits :attr:`InFlightLimit.total` requests at once
(its worker threads); the next waits outside, holding nothing, and is
answered 503 with ``Retry-After`` if no place frees within
:attr:`InFlightLimit.queue_wait` seconds.  A request inside may hold a
pooled database connection while it waits for a worker thread (FastAPI
checks a plain route's answer in another one): with no bound, 500 requests
at once from 500 sessions held every connection that way and the ones that
had a thread waited for a connection (80 x 503 and 420 time-outs; bounded,
all 500 answered 200).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import Counter

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["InFlightLimit"]

_TOO_MANY = (b'{"detail":"\xe5\x90\x8c\xe6\x97\xb6\xe8\xaf\xb7\xe6\xb1\x82\xe8\xbf\x87\xe5\xa4\x9a'
             b'\xef\xbc\x8c\xe8\xaf\xb7\xe7\xa8\x8d\xe5\x90\x8e\xe5\x86\x8d\xe8\xaf\x95 / too many '
             b'requests at once from this client: wait for the ones under way"}')
"""``同时请求过多，请稍后再试 / too many requests at once ...`` in UTF-8."""


def _client_key(scope: Scope) -> tuple[str, bool]:
    """Return ``(key, has_session)`` of the client of an HTTP ``scope``."""
    token = b""
    for name, value in scope.get("headers", ()):
        if name == b"authorization" and value[:7].lower() == b"bearer ":
            token = value[7:].strip()
            break
        if name == b"cookie" and b"qisai_session=" in value:
            token = value.split(b"qisai_session=", 1)[1].split(b";", 1)[0].strip()
    if token:
        return "s" + hashlib.blake2b(token[:512], digest_size=12).hexdigest(), True
    client = scope.get("client")
    return "a" + (client[0] if client else "?"), False


_BUSY = ("{\"detail\":\"服务器繁忙，请稍后再试 / the server is busy: try again in a moment\"}"
         .encode())


async def _answer(send: Send, status: int, body: bytes, retry_after: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json; charset=utf-8"),
                            (b"retry-after", retry_after),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _drain(receive: Receive) -> None:
    """Read and drop a request's body (the body limit, inside which this
    runs, bounds it), so that the connection can carry the next request."""
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return


class InFlightLimit:
    """Pure ASGI middleware: at most ``per_client`` HTTP requests of one
    session, ``per_address`` of one address without a session, in progress
    at once; the next is answered 429 (see the module)."""

    def __init__(self, app: ASGIApp, *, per_client: int = 8, per_address: int = 32,
                 total: int = 40, queue_wait: float = 10.0,
                 exempt: tuple[str, ...] = ("/static/",)) -> None:
        self.app = app
        self.per_client = per_client
        self.per_address = per_address
        self.total = total
        self.queue_wait = queue_wait
        self._admitted = asyncio.Semaphore(total)
        self.exempt = exempt
        self.running: Counter[str] = Counter()
        """Requests in progress per client key (keys leave at zero)."""
        self.refused = 0
        """Requests answered 429 so far."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path", "").startswith(self.exempt):
            await self.app(scope, receive, send)
            return
        key, session = _client_key(scope)
        cap = self.per_client if session else self.per_address
        if self.running[key] >= cap:
            self.refused += 1
            await _drain(receive)  # read the body: the connection stays usable
            await _answer(send, 429, _TOO_MANY, b"1")
            return
        # One event loop runs every request: the counter needs no lock.
        self.running[key] += 1
        try:
            # Then wait, holding nothing, for one of the process's ``total``
            # places: a request inside may hold a pooled connection while it
            # waits for a worker thread, so no more may be inside than the
            # pool can serve (500 requests at once from 500 sessions held
            # every connection that way; issue 29.1).
            try:
                async with asyncio.timeout(self.queue_wait):
                    await self._admitted.acquire()
            except TimeoutError:
                self.refused += 1
                await _drain(receive)
                await _answer(send, 503, _BUSY, b"2")
                return
            try:
                await self.app(scope, receive, send)
            finally:
                self._admitted.release()
        finally:
            self.running[key] -= 1
            if self.running[key] <= 0:
                del self.running[key]
