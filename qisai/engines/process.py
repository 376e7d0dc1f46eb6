"""An engine as an asyncio subprocess speaking lines of text, and the loop
thread behind the synchronous wrappers.

Both protocol clients (:mod:`qisai.engines.uci`, :mod:`qisai.engines.gtp`)
sit on :class:`EngineProcess`: it starts the program, reads its standard
output line by line in a background task, and turns the ways a program can
fail (missing binary, crash, silence) into :mod:`qisai.engines.errors`.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import os
import shlex
import subprocess
import threading
import time
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from qisai.engines.errors import EngineStartError, EngineTerminatedError, EngineTimeoutError

__all__ = ["EngineProcess", "LoopThread", "split_command"]

T = TypeVar("T")

_LINE_LIMIT = 1 << 20


def split_command(command: str | Sequence[str]) -> list[str]:
    """Return ``command`` as an argument list (a string is split like a shell).

    Raises :class:`EngineStartError` if the command is empty.
    """
    args = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not args:
        raise EngineStartError("empty engine command")
    return args


class _Protocol(asyncio.SubprocessProtocol):
    """Tells the :class:`EngineProcess` when the program exits, and feeds it
    any output the subprocess transport relays (the first bytes, read before
    :class:`_StdoutReader` takes over the pipe)."""

    def __init__(self) -> None:
        self.owner: EngineProcess | None = None
        self.exited: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        if fd == 1 and self.owner is not None:
            self.owner._feed(data if isinstance(data, bytes) else data.encode())

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1 and self.owner is not None:
            self.owner._feed_eof()

    def process_exited(self) -> None:
        if not self.exited.done():
            self.exited.set_result(None)


class _StdoutReader(asyncio.Protocol):
    """The protocol of the engine's standard-output pipe: hands each chunk to
    the :class:`EngineProcess` in the pipe's own read callback.

    The subprocess transport would relay every chunk through one more turn
    of the event loop (``call_soon``); an engine prints a burst of ``info``
    lines for every move, so that turn was half the loop's work in a match.
    The end of the pipe is still passed on to the subprocess transport's own
    pipe protocol, which needs it to finish.
    """

    def __init__(self, owner: EngineProcess, inner: asyncio.BaseProtocol) -> None:
        self._owner = owner
        self._inner = inner

    def data_received(self, data: bytes) -> None:
        self._owner._feed(data)

    def eof_received(self) -> bool | None:
        if isinstance(self._inner, asyncio.Protocol):
            return self._inner.eof_received()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._owner._feed_eof()
        self._inner.connection_lost(exc)


def _expire(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class EngineProcess:
    """A running engine program: write lines to it, read lines from it.

    Create with :meth:`start`.  Lines are decoded as UTF-8 (bad bytes
    replaced) and stripped of the line end.  ``log`` keeps the last lines
    exchanged (``>`` sent, ``<`` received) for error messages.

    Output is buffered as it arrives, in the event loop's own callback (no
    reader task).  A reader waiting in :meth:`readline` is woken for every
    line, unless :attr:`wake_on` names the prefixes worth waking for: then
    other lines (a search's many ``info`` lines) are only queued, and read
    without waiting once a wanted line has come.
    """

    def __init__(self, transport: asyncio.SubprocessTransport, protocol: _Protocol,
                 name: str) -> None:
        self._transport = transport
        self._protocol = protocol
        stdin = transport.get_pipe_transport(0)
        assert isinstance(stdin, asyncio.WriteTransport)
        self._stdin = stdin
        self.name = name
        self._lines: collections.deque[str] = collections.deque()
        self._partial = b""
        self._eof = False
        self._waiter: asyncio.Future[None] | None = None
        self.wake_on: tuple[str, ...] | None = None
        self.log: list[str] = []
        protocol.owner = self
        stdout = transport.get_pipe_transport(1)
        if isinstance(stdout, asyncio.ReadTransport):
            stdout.set_protocol(_StdoutReader(self, stdout.get_protocol()))

    @classmethod
    async def start(cls, command: str | Sequence[str], *, name: str | None = None,
                    cwd: str | None = None, env: Mapping[str, str] | None = None) -> EngineProcess:
        """Start ``command`` with pipes on its standard input and output.

        Returns the running process.  Raises :class:`EngineStartError` if the
        program cannot be executed.
        """
        args = split_command(command)
        full_env = None if env is None else {**os.environ, **env}
        loop = asyncio.get_running_loop()
        try:
            transport, protocol = await loop.subprocess_exec(
                _Protocol, *args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, cwd=cwd, env=full_env, start_new_session=True)
        except OSError as exc:
            raise EngineStartError(f"cannot start engine {args[0]!r}: {exc}") from exc
        return cls(transport, protocol, name or os.path.basename(args[0]))

    @property
    def pid(self) -> int:
        """The operating-system process id."""
        return self._transport.get_pid()

    @property
    def returncode(self) -> int | None:
        """The exit status, or ``None`` while the process runs."""
        return self._transport.get_returncode()

    # ------------------------------------------------------------ output
    def _feed(self, data: bytes) -> None:
        buf = self._partial + data if self._partial else data
        end = buf.rfind(b"\n")
        if end < 0:
            # No line end yet; a runaway line without one is dropped.
            self._partial = buf if len(buf) <= _LINE_LIMIT else b""
            return
        self._partial = buf[end + 1:] if end + 1 < len(buf) else b""
        # "\n" is never part of a multi-byte UTF-8 character, so the complete
        # lines of a chunk decode as one text, as each would alone.
        text = buf[:end].decode("utf-8", errors="replace")
        lines = text.split("\n")
        if "\r" in text:
            lines = [line.rstrip("\r") for line in lines]
        self._lines.extend(lines)
        self._remember("< " + lines[-1])
        wake = self.wake_on
        if wake is None:
            self._wake()
            return
        for line in reversed(lines):  # the wanted line usually ends the chunk
            if line.startswith(wake):
                self._wake()
                return

    def _feed_eof(self) -> None:
        if self._eof:
            return
        if self._partial:
            self._lines.append(self._partial.decode("utf-8", errors="replace").rstrip("\r"))
            self._partial = b""
        self._eof = True
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _remember(self, entry: str) -> None:
        self.log.append(entry)
        if len(self.log) > 40:
            del self.log[:20]

    async def readline(self, timeout: float | None = None) -> str:
        """Return the next line from the engine.

        Raises :class:`EngineTimeoutError` if none arrives within ``timeout``
        seconds (``None``: wait for ever) and :class:`EngineTerminatedError`
        if the engine's output ends.
        """
        lines = self._lines
        if not lines:
            await self.wait_line(None if timeout is None else time.monotonic() + timeout)
        return lines.popleft()

    def popline(self) -> str | None:
        """Return the next line already received (consuming it), or ``None``:
        the cheap way to read a burst of lines after :meth:`wait_line`."""
        lines = self._lines
        return lines.popleft() if lines else None

    async def wait_line(self, deadline: float | None) -> None:
        """Wait until a line is waiting to be read.

        With :attr:`wake_on` set, lines that do not start with one of its
        prefixes are queued without ending the wait, until a wanted line
        comes or the deadline passes with some line queued.  ``deadline`` is
        a :func:`time.monotonic` instant (``None``: no limit).  Returns at
        once if a line is already waiting.

        Raises :class:`EngineTimeoutError` if no line has come by
        ``deadline`` and :class:`EngineTerminatedError` if the engine's
        output ends first.
        """
        lines = self._lines
        loop: asyncio.AbstractEventLoop | None = None
        begun = 0.0
        while not lines:
            if self._eof:
                raise await self._terminated()
            if loop is None:
                loop = asyncio.get_running_loop()
                begun = time.monotonic()
            # A bare future and a timer, not asyncio.wait_for: wait_for
            # relays the wake-up through one more turn of the loop.
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiter = waiter
            timer = None if deadline is None else \
                loop.call_later(max(0.0, deadline - time.monotonic()), _expire, waiter)
            try:
                await waiter
            finally:
                self._waiter = None
                if timer is not None:
                    timer.cancel()
            if lines or self._eof:
                continue
            if deadline is not None and time.monotonic() >= deadline:
                raise EngineTimeoutError(f"engine {self.name} sent nothing for "
                                         f"{max(0.0, deadline - begun):.3g} s")

    def pending(self) -> list[str]:
        """Return (and consume) the lines already received but not yet read."""
        out = list(self._lines)
        self._lines.clear()
        return out

    async def _terminated(self) -> EngineTerminatedError:
        try:
            await asyncio.wait_for(asyncio.shield(self._protocol.exited), 1.0)
        except TimeoutError:
            pass
        code = self.returncode
        return EngineTerminatedError(f"engine {self.name} exited (status {code})", code)

    # ------------------------------------------------------------- input
    def send(self, *lines: str) -> None:
        """Write lines to the engine (in one write to the pipe).

        Raises :class:`EngineTerminatedError` if the process has exited or
        its input is closed.
        """
        if self._stdin.is_closing() or self.returncode is not None:
            raise EngineTerminatedError(f"engine {self.name} has exited", self.returncode)
        for line in lines:
            self._remember("> " + line)
        self._stdin.write(("\n".join(lines) + "\n").encode())

    async def drain(self) -> None:
        """Give the loop a chance to flush the sent lines.

        Raises :class:`EngineTerminatedError` if the pipe is closed.
        """
        if self._stdin.is_closing():
            raise EngineTerminatedError(f"engine {self.name} closed its input", self.returncode)

    # ---------------------------------------------------------- lifetime
    async def close(self, *, grace: float = 1.0, quit_line: str | None = None) -> int | None:
        """Stop the engine: send ``quit_line``, wait ``grace`` seconds, then kill.

        Returns the exit status.  Never raises for an engine that already died.
        """
        if self.returncode is None and quit_line is not None:
            try:
                self.send(quit_line)
            except (EngineTerminatedError, OSError):
                pass
        exited = self._protocol.exited
        try:
            await asyncio.wait_for(asyncio.shield(exited), grace)
        except TimeoutError:
            self.kill()
            try:
                await asyncio.wait_for(asyncio.shield(exited), 5.0)
            except TimeoutError:
                pass
        self._transport.close()
        return self.returncode

    def kill(self) -> None:
        """Kill the engine process at once (no-op if it has exited)."""
        if self.returncode is None:
            try:
                self._transport.kill()
            except ProcessLookupError:
                pass


class LoopThread:
    """An asyncio event loop running in a daemon thread.

    The synchronous engine wrappers submit their coroutines here, so there is
    one asyncio implementation of each protocol and the blocking API is a
    thin layer over it.
    """

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="qisai-engine-loop", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run ``coro`` on the loop and return its result (re-raising its error).

        Raises :class:`EngineTimeoutError` if it takes longer than ``timeout``.
        """
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise EngineTimeoutError(f"no answer within {timeout} s") from None

    def stop(self) -> None:
        """Stop the loop and join its thread."""
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5.0)
        if not self.loop.is_running():
            self.loop.close()
