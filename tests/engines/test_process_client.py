"""The part the three protocol clients share (:mod:`qisai.engines.process_client`):
an engine whose start fails, or whose start its caller gives up, is not left
running, whatever the protocol; ``alive`` and ``pid`` follow the process."""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from qisai.engines.errors import EngineStartError
from qisai.engines.gtp import GtpEngine
from qisai.engines.process_client import ProcessClient
from qisai.engines.uci import UciEngine
from qisai.engines.xboard import XboardEngine

from .test_xboard import processes_with

STARTS: dict[str, Callable[..., Awaitable[Any]]] = {
    "uci": UciEngine.start, "xboard": XboardEngine.start, "gtp": GtpEngine.start}

SILENT = "import time; time.sleep(3600)"
"""A program that reads nothing and never answers."""
GONE = "import sys; sys.exit(3)"
"""A program that exits at once."""


def _command(program: str) -> tuple[list[str], str]:
    token = f"qisai-process-client-{uuid.uuid4().hex}"
    return [sys.executable, "-c", program, token], token


@pytest.mark.parametrize("protocol", list(STARTS))
def test_a_program_that_exits_fails_to_start(protocol: str) -> None:
    command, token = _command(GONE)
    with pytest.raises(EngineStartError, match="failed to start"):
        asyncio.run(STARTS[protocol](command, timeout=5))
    assert processes_with(token) == []


@pytest.mark.parametrize("protocol", list(STARTS))
def test_a_start_its_caller_gives_up_leaves_no_engine_running(protocol: str) -> None:
    command, token = _command(SILENT)

    async def give_up() -> None:
        start = asyncio.ensure_future(STARTS[protocol](command, timeout=60))
        # The program runs (it is what the start waits on), then the caller
        # gives up: the start is cancelled mid-handshake.
        while not processes_with(token):
            assert not start.done()
            await asyncio.sleep(0.01)
        start.cancel()
        with pytest.raises(asyncio.CancelledError):
            await start

    asyncio.run(give_up())
    assert processes_with(token) == []


def test_alive_and_pid_follow_the_process(fake: Callable[..., list[str]]) -> None:
    async def run() -> None:
        engine = await GtpEngine.start(fake("gtp", "normal"))
        assert isinstance(engine, ProcessClient)
        assert engine.alive and engine.pid > 0
        await engine.quit()
        assert not engine.alive

    asyncio.run(run())
