"""Issue 29.1: one client's burst of requests is bounded while it runs
(:class:`qisai.web.inflight.InFlightLimit`): the requests past the limit are
answered 429 at once, other clients are served, and nothing is kept once a
client's requests are over.

The requests under test wait on an :class:`asyncio.Event` the test sets, so
"in flight" is a fact of the test, not a matter of timing.
"""

from __future__ import annotations

import asyncio

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from qisai.web.inflight import InFlightLimit


def _app(**bounds: float) -> tuple[InFlightLimit, asyncio.Event, list[int]]:
    release = asyncio.Event()
    entered: list[int] = []

    async def slow(request: Request) -> JSONResponse:
        entered.append(1)
        await release.wait()
        return JSONResponse({"ok": True})

    inner = Starlette(routes=[Route("/slow", slow, methods=["GET", "POST"]),
                              Route("/static/x", slow)])
    return InFlightLimit(inner, **{"per_client": 3, "per_address": 5, **bounds}), release, entered


async def _until(cond: object, what: str) -> None:
    for _ in range(2000):  # the event loop's turns, not wall time
        if callable(cond) and cond():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"never happened: {what}")


def test_a_session_past_its_limit_is_refused_at_once_and_others_are_served() -> None:
    async def run() -> None:
        limit, release, entered = _app()
        transport = httpx.ASGITransport(app=limit)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            alice = {"Authorization": "Bearer alice-token"}
            held = [asyncio.create_task(c.get("/slow", headers=alice)) for _ in range(3)]
            await _until(lambda: len(entered) == 3, "three of alice's requests running")
            # The fourth, a POST with a body, is answered without running.
            r = await c.post("/slow", headers=alice, json={"x": "y" * 1000})
            assert r.status_code == 429
            assert r.headers["retry-after"] == "1"
            assert "too many requests at once" in r.json()["detail"]
            assert "同时请求过多" in r.json()["detail"]
            assert len(entered) == 3 and limit.refused == 1
            # Bob (another session) and the same session by cookie are other keys.
            bob = asyncio.create_task(c.get("/slow", headers={"Authorization": "Bearer bob"}))
            await _until(lambda: len(entered) == 4, "bob's request running")
            # Static files are never counted.
            static = asyncio.create_task(c.get("/static/x", headers=alice))
            await _until(lambda: len(entered) == 5, "a static file served")
            release.set()
            codes = [r.status_code for r in await asyncio.gather(*held, bob, static)]
            assert codes == [200] * 5
            assert not limit.running  # nothing kept once the requests are over
            r = await c.get("/slow", headers=alice)  # released: alice is served again
            assert r.status_code == 200
    asyncio.run(run())


def test_clients_without_a_session_share_their_address_limit() -> None:
    async def run() -> None:
        limit, release, entered = _app()
        transport = httpx.ASGITransport(app=limit, client=("203.0.113.7", 1234))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            held = [asyncio.create_task(c.get("/slow")) for _ in range(5)]
            await _until(lambda: len(entered) == 5, "five anonymous requests running")
            assert (await c.get("/slow")).status_code == 429
            # A session from the same address has its own count.
            mine = asyncio.create_task(c.get("/slow", headers={"Cookie": "qisai_session=tok"}))
            await _until(lambda: len(entered) == 6, "the session's request running")
            release.set()
            assert [r.status_code for r in await asyncio.gather(*held, mine)] == [200] * 6
            assert not limit.running
    asyncio.run(run())


def test_the_process_admits_a_bounded_number_and_the_rest_wait_holding_nothing() -> None:
    """Past ``total`` requests inside the process, a request from any
    session waits outside (holding no connection, no thread) and is
    admitted when one leaves; one that cannot get in within ``queue_wait``
    is answered 503 with ``Retry-After`` (issue 29.1: 500 sessions at once
    had held every pooled connection)."""
    async def run() -> None:
        for queue_wait in (60.0, 0.0):
            limit, release, entered = _app(total=2, queue_wait=queue_wait)
            refusing = queue_wait == 0.0
            transport = httpx.ASGITransport(app=limit)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                held = [asyncio.create_task(c.get("/slow", headers={"Authorization": f"Bearer u{i}"}))
                        for i in range(2)]
                await _until(lambda e=entered: len(e) == 2, "two requests inside")
                third = asyncio.create_task(c.get("/slow", headers={"Authorization": "Bearer u3"}))
                if refusing:
                    r = await third
                    assert r.status_code == 503
                    assert r.headers["retry-after"] == "2"
                    assert "the server is busy" in r.json()["detail"]
                    assert "服务器繁忙" in r.json()["detail"]
                    release.set()
                else:
                    for _ in range(200):  # the third waits: never inside while two are
                        await asyncio.sleep(0)
                    assert len(entered) == 2 and not third.done()
                    release.set()
                    assert (await third).status_code == 200
                    assert len(entered) == 3
                assert [r.status_code for r in await asyncio.gather(*held)] == [200, 200]
                assert not limit.running
    asyncio.run(run())
