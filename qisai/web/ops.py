"""Operations: ``/healthz`` (the process answers), ``/readyz`` (it can serve:
its database and, in a cluster, its Redis answer) and ``/metrics``
(Prometheus's text format, for the addresses of ``QISAI_METRICS_ALLOW``
only: the figures are the operator's, not the public's)."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from qisai.cluster.metrics import CONTENT_TYPE
from qisai.web.state import AppState

__all__ = ["RequestTimer", "router"]

router = APIRouter(tags=["operations"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Return ``{"status": "ok"}``: the process is up and its loop runs."""
    return {"status": "ok"}


def _db_ok(st: AppState) -> bool:
    try:
        with st.db.session() as s:
            s.execute(text("SELECT 1"))
        return True
    except Exception:
        return False


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Return 200 if the database answers now and no background loop has
    stopped, else 503.  The body names each check (database, Redis in a
    cluster) ``ok`` or ``down`` and each loop ``ok``, ``failing: ERROR``
    or ``stopped``; ``status`` is ``ready``, ``degraded`` (Redis down or a
    loop retrying: still serving) or ``not ready``; never more of why (the
    log has it)."""
    st: AppState = request.app.state.qisai

    checks: dict[str, Any] = {"database": "ok" if await run_in_threadpool(_db_ok, st)
                              else "down"}
    relay = getattr(st.hub, "relay", None)
    if relay is not None:
        checks["redis"] = "ok" if await relay.bus.ping() else "down"
    loops: dict[str, str] = dict(getattr(st.hub, "health", {}))
    if relay is not None:
        loops.update(relay.loops())
    # Without its database a process can serve nothing; without Redis it
    # still stores moves and serves its own sockets (the others catch up
    # from the database): degraded, not down -- a balancer that took every
    # server out at once when Redis fails would stop the whole arena (30.3).
    ready = checks["database"] == "ok" and not any(v == "stopped" for v in loops.values())
    degraded = any(v != "ok" for v in (*checks.values(), *loops.values()))
    status = "not ready" if not ready else "degraded" if degraded else "ready"
    return JSONResponse({"status": status, **checks, "loops": loops},
                        status_code=200 if ready else 503)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """Return the process's metrics in Prometheus's text format; 403 for
    a client address not in ``QISAI_METRICS_ALLOW``."""
    st: AppState = request.app.state.qisai
    client = request.client.host if request.client is not None else ""
    if client not in st.settings.metrics_allow:
        return JSONResponse({"detail": "metrics are for the operator's addresses only "
                                       "(QISAI_METRICS_ALLOW)"}, status_code=403)
    hub: Any = st.hub
    await hub.refresh_queue_depth()
    hub.metrics.database_up.set(1.0 if await run_in_threadpool(_db_ok, st) else 0.0)
    relay = getattr(hub, "relay", None)
    if relay is not None:
        hub.metrics.redis_up.set(1.0 if await relay.bus.ping() else 0.0)
        hub.metrics.leases_held.set(float(len(relay.held)))
    return Response(hub.metrics.text(), media_type=CONTENT_TYPE)


class RequestTimer:
    """ASGI middleware: every HTTP request's time into the metrics
    (``qisai_http_request_duration_seconds``), by method, route template
    (the raw path would make a series per game) and status class."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = [500]

        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            metrics = getattr(getattr(getattr(scope["app"].state, "qisai", None), "hub", None),
                              "metrics", None)
            if metrics is not None:
                metrics.requests.labels(scope["method"], str(route)[:100],
                                        f"{status[0] // 100}xx").observe(
                                            time.perf_counter() - start)
