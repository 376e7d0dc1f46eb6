"""An engine as an asyncio subprocess speaking lines of text, and the loop
thread behind the synchronous wrappers.

Both protocol clients (:mod:`qisai.engines.uci`, :mod:`qisai.engines.gtp`)
sit on :class:`EngineProcess`: it starts the program, reads its standard
output line by line in a background task, and turns the ways a program can
fail (missing binary, crash, silence) into :mod:`qisai.engines.errors`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shlex
import threading
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


class EngineProcess:
    """A running engine program: write lines to it, read lines from it.

    Create with :meth:`start`.  Lines are decoded as UTF-8 (bad bytes
    replaced) and stripped of the line end.  ``log`` keeps the last lines
    exchanged (``>`` sent, ``<`` received) for error messages.
    """

    def __init__(self, proc: asyncio.subprocess.Process, name: str) -> None:
        self._proc = proc
        self.name = name
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._eof = False
        self.log: list[str] = []
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def start(cls, command: str | Sequence[str], *, name: str | None = None,
                    cwd: str | None = None, env: Mapping[str, str] | None = None) -> EngineProcess:
        """Start ``command`` with pipes on its standard input and output.

        Returns the running process.  Raises :class:`EngineStartError` if the
        program cannot be executed.
        """
        args = split_command(command)
        full_env = None if env is None else {**os.environ, **env}
        try:
            proc = await asyncio.create_subprocess_exec(
                *args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL, cwd=cwd, env=full_env, limit=_LINE_LIMIT,
                start_new_session=True)
        except OSError as exc:
            raise EngineStartError(f"cannot start engine {args[0]!r}: {exc}") from exc
        return cls(proc, name or os.path.basename(args[0]))

    @property
    def pid(self) -> int:
        """The operating-system process id."""
        return self._proc.pid

    @property
    def returncode(self) -> int | None:
        """The exit status, or ``None`` while the process runs."""
        return self._proc.returncode

    async def _read(self) -> None:
        stdout = self._proc.stdout
        assert stdout is not None
        try:
            while True:
                try:
                    raw = await stdout.readline()
                except ValueError:
                    # A line longer than the limit: drop what was buffered.
                    await stdout.read(_LINE_LIMIT)
                    self._lines.put_nowait("")
                    continue
                if not raw:
                    break
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                self._remember("< " + line)
                self._lines.put_nowait(line)
        finally:
            self._eof = True
            self._lines.put_nowait(None)

    def _remember(self, entry: str) -> None:
        self.log.append(entry)
        if len(self.log) > 40:
            del self.log[:20]

    def send(self, line: str) -> None:
        """Write one line to the engine.

        Raises :class:`EngineTerminatedError` if the process has exited or
        its input is closed.
        """
        stdin = self._proc.stdin
        if stdin is None or stdin.is_closing() or self._proc.returncode is not None:
            raise EngineTerminatedError(f"engine {self.name} has exited", self._proc.returncode)
        self._remember("> " + line)
        stdin.write((line + "\n").encode())

    async def drain(self) -> None:
        """Wait until the sent lines are flushed to the pipe.

        Raises :class:`EngineTerminatedError` if the pipe is broken.
        """
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise EngineTerminatedError(f"engine {self.name} closed its input",
                                        self._proc.returncode) from exc

    async def readline(self, timeout: float | None = None) -> str:
        """Return the next line from the engine.

        Raises :class:`EngineTimeoutError` if none arrives within ``timeout``
        seconds (``None``: wait for ever) and :class:`EngineTerminatedError`
        if the engine's output ends.
        """
        if self._lines.empty() and self._eof:
            raise await self._terminated()
        try:
            line = await asyncio.wait_for(self._lines.get(), timeout)
        except TimeoutError:
            raise EngineTimeoutError(
                f"engine {self.name} sent nothing for {timeout:.3g} s") from None
        if line is None:
            self._lines.put_nowait(None)
            raise await self._terminated()
        return line

    def pending(self) -> list[str]:
        """Return (and consume) the lines already received but not yet read."""
        out = []
        while not self._lines.empty():
            line = self._lines.get_nowait()
            if line is None:
                self._lines.put_nowait(None)
                break
            out.append(line)
        return out

    async def _terminated(self) -> EngineTerminatedError:
        try:
            code = await asyncio.wait_for(self._proc.wait(), 1.0)
        except TimeoutError:
            code = None
        return EngineTerminatedError(
            f"engine {self.name} exited (status {code})", code)

    async def close(self, *, grace: float = 1.0, quit_line: str | None = None) -> int | None:
        """Stop the engine: send ``quit_line``, wait ``grace`` seconds, then kill.

        Returns the exit status.  Never raises for an engine that already died.
        """
        if self._proc.returncode is None and quit_line is not None:
            try:
                self.send(quit_line)
                await asyncio.wait_for(self.drain(), grace)
            except (EngineTerminatedError, TimeoutError, OSError):
                pass
        try:
            await asyncio.wait_for(self._proc.wait(), grace)
        except TimeoutError:
            self.kill()
            try:
                await asyncio.wait_for(self._proc.wait(), 5.0)
            except TimeoutError:
                pass
        self._reader.cancel()
        try:
            await self._reader
        except (asyncio.CancelledError, Exception):
            pass
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        return self._proc.returncode

    def kill(self) -> None:
        """Kill the engine process at once (no-op if it has exited)."""
        if self._proc.returncode is None:
            try:
                self._proc.kill()
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
