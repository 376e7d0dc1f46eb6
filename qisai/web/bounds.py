"""Bounds on what a client may send, and on what an error sends back.

* :class:`BodyLimitMiddleware`: a request body over the limit is refused
  with 413, by its ``Content-Length`` before a byte is read and while it
  streams (chunked bodies have no length); a few routes have lower limits
  (:data:`ROUTE_LIMITS`: log-in forms, game actions).
* :data:`MAX_FRAME` and :func:`loads_bounded`: a game socket's frame is at
  most 64 KiB of JSON nested at most :data:`MAX_JSON_DEPTH` deep.
* :func:`prefix`, :func:`short_detail`: an error quotes at most a short
  prefix of the input (a 20 MB move string does not come back in a 20 MB
  error).
* :data:`DbId`: a path's database id bounded to a 64-bit integer; and
  :func:`add_bound_handlers` turns an id or number the database cannot hold
  (SQLite's ``OverflowError``, PostgreSQL's numeric-out-of-range) into 404
  instead of 500, and cuts long error details.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Path, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DataError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from qisai.web.refusals import Refusal

__all__ = ["MAX_BODY", "MAX_FRAME", "MAX_JSON_DEPTH", "ROUTE_LIMITS", "BodyLimitMiddleware",
           "DbId", "JsonTooDeep", "add_bound_handlers", "loads_bounded", "prefix",
           "short_detail", "too_often"]

MAX_BODY = 1024 * 1024
"""Bytes of a request body, by default (1 MiB)."""

ROUTE_LIMITS: tuple[tuple[str, str, int], ...] = (
    ("POST", r"/api/auth/.*", 16 * 1024),
    ("POST", r"/(login|register|guest)", 16 * 1024),
    ("POST", r"/api/games(/[^/]+/(actions|join))?", 64 * 1024),
)
"""(method, path pattern, bytes): the routes with a lower limit than
:data:`MAX_BODY` (a log-in or a move is a few hundred bytes)."""

MAX_FRAME = 64 * 1024
"""Bytes (UTF-8) of one WebSocket message from a client (the server also
asks uvicorn for this, ``ws_max_size``)."""

MAX_JSON_DEPTH = 32
"""Arrays and objects nested in one socket message, at most."""

MAX_DETAIL = 300
"""Characters of an error's ``detail`` sent back, at most."""

INT64_MAX = 2**63 - 1

DbId = Annotated[int, Path(ge=1, le=INT64_MAX, description="a database id (64-bit)")]
"""A path parameter holding a database id: 1 to 2**63-1, else 422."""


def prefix(text: str, limit: int = 40) -> str:
    """Return ``repr(text)`` cut to its first ``limit`` characters when longer,
    with the full length: what an error message may quote of the input."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def short_detail(text: str, limit: int = MAX_DETAIL) -> str:
    """Return ``text`` cut to ``limit`` characters (an error message that
    quotes input it should not have quoted whole)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters in all)"


class JsonTooDeep(ValueError):
    """A JSON text nests arrays and objects deeper than allowed."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def loads_bounded(text: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse the JSON ``text`` if it nests at most ``max_depth`` deep.

    Raises :class:`JsonTooDeep` (before parsing: no ``RecursionError``) or
    :class:`ValueError` (``json.JSONDecodeError``) for text that is not JSON.
    """
    depth = 0
    for m in _BRACKET.finditer(_STRING.sub('""', text)):
        if m.group() in "[{":
            depth += 1
            if depth > max_depth:
                raise JsonTooDeep(f"JSON nested deeper than {max_depth} levels")
        else:
            depth -= 1
    return json.loads(text)


def too_often(wait: float, what: str) -> HTTPException:
    """Return the 429 for a caller over a per-minute limit: ``what`` says in
    English what he did too often; the answer says it in Chinese too, and
    when to try again (also in ``Retry-After``)."""
    return HTTPException(429, f"操作过于频繁，请 {wait:.0f} 秒后再试 / {what}; retry in "
                              f"{wait:.0f} s", headers={"Retry-After": str(int(wait) + 1)})


class _TooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body too large: at most {limit} bytes")


def _too_large_response(limit: int) -> JSONResponse:
    return JSONResponse({"detail": f"request body too large: at most {limit} bytes"},
                        status_code=413, headers={"Connection": "close"})


class BodyLimitMiddleware:
    """Refuse an HTTP request body over its limit with 413 (pure ASGI).

    ``default`` bytes for every route; ``limits`` (method, full-match path
    pattern, bytes) lower it for some.  A ``Content-Length`` over the limit
    is refused before the body is read; a body that grows over it while
    streaming stops the app's read with a 413 ``HTTPException`` (FastAPI
    re-raises it as is), and if the app swallowed that, the middleware
    still answers 413 unless a response has started.
    """

    def __init__(self, app: ASGIApp, *, default: int = MAX_BODY,
                 limits: tuple[tuple[str, str, int], ...] = ROUTE_LIMITS) -> None:
        self.app = app
        self.default = default
        self.limits = [(method, re.compile(pattern), n) for method, pattern, n in limits]

    def limit_for(self, method: str, path: str) -> int:
        """Return the byte limit of a ``method`` request to ``path``."""
        for m, pattern, n in self.limits:
            if m == method and pattern.fullmatch(path):
                return n
        return self.default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("method", "GET"), scope.get("path", ""))
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    length = int(value[:20])
                except ValueError:
                    length = -1
                if len(value) > 19 or length > limit:
                    await _too_large_response(limit)(scope, receive, send)
                    return
        received = 0
        started = False
        exceeded = False

        async def bounded_receive() -> Message:
            nonlocal received, exceeded
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    exceeded = True
                    raise _TooLarge(limit)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if exceeded and message.get("status") != 413:
                    raise _TooLarge(limit)  # the app swallowed the 413: do not answer 2xx
            await send(message)

        try:
            await self.app(scope, bounded_receive, watched_send)
        except _TooLarge:
            if not started:
                await _too_large_response(limit)(scope, receive, send)


def _is_out_of_range(exc: DataError) -> bool:
    text = f"{type(exc.orig).__name__} {exc.orig}".lower()
    return "numericvalueoutofrange" in text.replace(" ", "") or "out of range" in text


def add_bound_handlers(app: FastAPI,
                       language: Callable[[str | None, str | None], str] = lambda c, a: "en",
                       traditional: Callable[[str], str] = lambda text: text) -> None:
    """Add to ``app`` the handlers that keep errors short and ids in range:
    a validation error names the field and the problem without the input;
    an ``HTTPException``'s long detail is cut; an integer the database
    cannot hold (``OverflowError``, numeric-out-of-range) is 404.  A
    :class:`~qisai.web.refusals.Refusal` is said in the language that
    ``language(lang cookie, Accept-Language)`` chooses (the app passes the
    pages' :func:`~qisai.web.pages.i18n.choose_page_language`), with both
    texts; for ``zh-Hant`` the Chinese in traditional characters, as
    ``traditional`` converts it."""

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        # Say which field is wrong and why, in one readable line per field;
        # never the input itself (FastAPI's default echoes it whole).
        problems = []
        for err in exc.errors()[:20]:
            where = ".".join(short_detail(str(p), 40) for p in err.get("loc", ()) if p != "body")
            problems.append(short_detail(f"{where or 'body'}: {err.get('msg')}", 200))
        return JSONResponse({"detail": "; ".join(problems), "errors": problems}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code in (204, 304):
            return Response(status_code=exc.status_code, headers=exc.headers)
        if isinstance(exc, Refusal):  # said in the page's language (issue 32.8)
            lang = language(request.cookies.get("lang"), request.headers.get("accept-language"))
            said = traditional(exc.zh) if lang == "zh-Hant" else exc.text(lang)
            return JSONResponse({"detail": short_detail(said),
                                 "zh": short_detail(exc.zh), "en": short_detail(exc.en)},
                                status_code=exc.status_code, headers=exc.headers)
        detail = short_detail(exc.detail) if isinstance(exc.detail, str) else exc.detail
        return JSONResponse({"detail": detail}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(OverflowError)
    async def overflow(request: Request, exc: OverflowError) -> JSONResponse:
        return JSONResponse({"detail": "not found: a number in the request is out of range"},
                            status_code=404)

    @app.exception_handler(PoolTimeout)
    async def pool_busy(request: Request, exc: PoolTimeout) -> JSONResponse:
        # Every pooled connection stayed taken for the pool's whole wait
        # (``QISAI_DB_POOL_TIMEOUT``): say so at once and let the client
        # retry, rather than a 500 (issue 29.1).
        return JSONResponse({"detail": "数据库繁忙，请稍后再试 / the database is busy: "
                                       "try again in a moment"},
                            status_code=503, headers={"Retry-After": "1"})

    @app.exception_handler(OperationalError)
    async def database_away(request: Request, exc: OperationalError) -> JSONResponse:
        return JSONResponse({"detail": "数据库暂时无法访问，请稍后再试 / the database cannot "
                                       "be reached: try again in a moment"},
                            status_code=503, headers={"Retry-After": "2"})

    @app.exception_handler(DataError)
    async def data_error(request: Request, exc: DataError) -> JSONResponse:
        if _is_out_of_range(exc):
            return JSONResponse({"detail": "not found: a number in the request is out of range"},
                                status_code=404)
        return JSONResponse({"detail": "the database refused a value of the request"},
                            status_code=422)


async def next_message(ws: WebSocket, send: Callable[[dict[str, Any]], Awaitable[None]], *,
                       max_bytes: int = MAX_FRAME, max_depth: int = MAX_JSON_DEPTH
                       ) -> dict[str, Any] | None:
    """Return the next JSON object a client sent on ``ws``, or ``None`` once
    the socket is done: the client left, or sent a frame the socket is
    closed on (a binary frame: 1003; over ``max_bytes`` in UTF-8: 1009;
    JSON nested deeper than ``max_depth``: 1007).  A text frame that is not
    JSON, or not a JSON object, is answered with an error frame through
    ``send`` and skipped.  Every socket of the arena reads its frames here,
    so the bounds are the same everywhere."""
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return None
        raw = frame.get("text")
        if raw is None:  # a binary frame: the sockets speak JSON text only
            await ws.close(code=1003, reason="binary frames are not accepted; send JSON text")
            return None
        if len(raw) > max_bytes or len(raw.encode("utf-8", "surrogatepass")) > max_bytes:
            await ws.close(code=1009, reason=f"message too big: at most {max_bytes} bytes")
            return None
        try:
            msg = loads_bounded(raw, max_depth=max_depth)
        except JsonTooDeep as exc:
            await ws.close(code=1007, reason=str(exc))
            return None
        except (ValueError, RecursionError):
            await send({"type": "error", "status": 400, "message": "not JSON"})
            continue
        if not isinstance(msg, dict):
            await send({"type": "error", "status": 400, "message": "expected a JSON object"})
            continue
        return msg
