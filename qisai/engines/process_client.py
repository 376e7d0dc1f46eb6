"""What the three protocol clients share: one engine process and its life.

:class:`~qisai.engines.uci.UciEngine` (UCI/UCCI),
:class:`~qisai.engines.xboard.XboardEngine` (xboard/CECP) and
:class:`~qisai.engines.gtp.GtpEngine` (GTP) differ in what they say to the
engine; they start it, tell whether it still runs and stop it the same way.
:class:`ProcessClient` holds that part; :class:`BlockingClient` is the part
of their synchronous wrappers (one loop thread each) that is the same.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Generic, Self, TypeVar

from qisai.engines.errors import (
    EngineError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from qisai.engines.process import EngineProcess, LoopThread

__all__ = ["BlockingClient", "ProcessClient"]

C = TypeVar("C", bound="ProcessClient")


class ProcessClient:
    """An engine client over one :class:`EngineProcess`.

    Attributes: ``name`` (the engine's, as the client settles it).
    """

    def __init__(self, process: EngineProcess, name: str) -> None:
        self._process = process
        self.name = name
        self._dead = False
        """Set when the client killed the engine: its state is unknown."""

    @property
    def process(self) -> EngineProcess:
        """The engine's process, for a caller that reads its lines itself
        (the analysis board streams GTP's ``kata-analyze``)."""
        return self._process

    @staticmethod
    async def _launch(command: str | Sequence[str], make: Callable[[EngineProcess], C],
                      handshake: Callable[[C], Awaitable[None]], *, name: str | None,
                      cwd: str | None,
                      failures: tuple[type[EngineError], ...] = (
                          EngineTimeoutError, EngineTerminatedError),
                      ) -> C:
        """Start the program, wrap it with ``make`` and run ``handshake``.

        Returns the client, named ``name`` when one is given (whatever the
        engine calls itself).  Raises :class:`EngineStartError` if the program
        cannot run, or when the handshake raises one of ``failures`` (the
        silent or dead engine of a failed start); whatever else the
        handshake raises goes through.  The process is closed on every
        failure, so no engine is left running.
        """
        process = await EngineProcess.start(command, name=name, cwd=cwd)
        client = make(process)
        try:
            await handshake(client)
        except EngineStartError:
            await process.close(grace=0.2)
            raise
        except failures as exc:
            await process.close(grace=0.2)
            raise EngineStartError(f"engine {process.name} failed to start: {exc}") from exc
        except BaseException:
            await process.close(grace=0.2)
            raise
        if name:
            client.name = name
        return client

    async def quit(self) -> None:
        """Send ``quit`` and wait for the engine to exit (kill it if it does
        not within a second).  Never raises."""
        await self._process.close(grace=1.0, quit_line="quit")

    @property
    def alive(self) -> bool:
        """Whether the engine process is still running."""
        return not self._dead and self._process.returncode is None

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self._process.pid


class BlockingClient(Generic[C]):
    """A blocking wrapper around a :class:`ProcessClient`, with a loop thread
    of its own; a context manager that quits the engine on exit.

    Attributes: ``engine``, the asyncio client.
    """

    def __init__(self, loop: LoopThread, engine: C) -> None:
        self._loop = loop
        self.engine = engine

    @classmethod
    def _launch(cls, start: Callable[[], Coroutine[Any, Any, C]]) -> Self:
        """Start a loop thread and run ``start()`` on it.

        Returns the wrapper.  Raises what ``start`` raises (the loop thread
        is then stopped)."""
        loop = LoopThread()
        try:
            engine = loop.run(start())
        except BaseException:
            loop.stop()
            raise
        return cls(loop, engine)

    @property
    def name(self) -> str:
        """The engine's name."""
        return self.engine.name

    def quit(self) -> None:
        """Stop the engine and the loop thread.  Never raises."""
        try:
            self._loop.run(self.engine.quit(), timeout=10.0)
        except EngineError:
            pass
        finally:
            self._loop.stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()
