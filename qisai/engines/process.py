"""An engine as a subprocess speaking lines of text, and the loop thread
behind the synchronous wrappers.

Both protocol clients (:mod:`qisai.engines.uci`, :mod:`qisai.engines.gtp`)
sit on :class:`EngineProcess`: it starts the program, reads its standard
output line by line, and turns the ways a program can fail (missing binary,
crash, silence) into :mod:`qisai.engines.errors`.

Cost matters here: a match relays a move every few milliseconds, and an
engine prints a burst of ``info`` lines for each, in many small writes, each
of which wakes the event loop.  So the output is read in the loop's own
reader callback straight into the line queue (no transport relaying each
chunk through one more turn of the loop), in reads of a modest size (a
256 KiB read buffer, asyncio's pipe default, costs a fresh memory mapping
per chunk), and a waiting coroutine is woken only for a line it waits for
(:attr:`EngineProcess.wake_on`).  Input goes through an asyncio pipe
transport; the exit is noticed with a pidfd in the loop (a waiting thread
where pidfds are missing).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextvars
import os
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from qisai.engines.errors import EngineStartError, EngineTerminatedError, EngineTimeoutError

__all__ = ["SPAWN_NICE", "EngineProcess", "LoopThread", "lower_priority", "resolve_program",
           "split_command"]

SPAWN_NICE: contextvars.ContextVar[int] = contextvars.ContextVar("qisai_spawn_nice", default=0)
"""Steps of niceness :meth:`EngineProcess.start` gives the processes it
starts in this context, as soon as the program is running (before it has
read its first command, so its start-up, an interpreter's imports, runs at
the lower priority too): :class:`~qisai.engines.pool.EnginePool` sets it
around the starts it makes."""

T = TypeVar("T")

_LINE_LIMIT = 1 << 20
_READ_SIZE = 1 << 14
"""Bytes read at a time: far more than an engine writes at once."""


def lower_priority(pid: int, by: int) -> bool:
    """Make the process (or, on Linux, the thread) ``pid`` ``by`` steps
    nicer than the calling thread (capped at 19), so that it gets the CPU
    only when the calling one does not want it: a server's engines and
    password hashes yield to its event loop.  ``by`` 0 changes nothing.

    Returns whether the priority was set (``False`` on a system without
    ``setpriority``, or for a process that has gone)."""
    if by <= 0:
        return False
    try:
        base = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, pid, min(19, base + by))
    except (AttributeError, OSError):
        return False
    return True


def split_command(command: str | Sequence[str]) -> list[str]:
    """Return ``command`` as an argument list (a string is split like a shell).

    Raises :class:`EngineStartError` if the command is empty.
    """
    args = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not args:
        raise EngineStartError("empty engine command")
    return args


def resolve_program(program: str) -> str:
    """Return ``program`` as it can be executed: a bare name not on ``PATH``
    but in ``/usr/games`` (where Debian installs fairy-stockfish, maxqi,
    sjaakii, gnugo) becomes that path; anything else is returned as it is."""
    if os.sep in program or shutil.which(program) is not None:
        return program
    candidate = os.path.join(_GAMES_DIR, program)
    return candidate if os.access(candidate, os.X_OK) and os.path.isfile(candidate) else program


_GAMES_DIR = "/usr/games"


def _expire(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class EngineProcess:
    """A running engine program: write lines to it, read lines from it.

    Create with :meth:`start`.  Lines are decoded as UTF-8 (bad bytes
    replaced) and stripped of the line end.  ``log`` keeps the last lines
    exchanged (``>`` sent, ``<`` received) for error messages.

    Output is queued as it arrives, in the event loop's reader callback.  A
    coroutine waiting in :meth:`readline` or :meth:`wait_line` is woken for
    every line, unless :attr:`wake_on` names the prefixes worth waking for:
    then other lines (a search's many ``info`` lines) are only queued, and
    read without waiting once a wanted line has come.
    """

    def __init__(self, proc: subprocess.Popen[bytes], stdin: asyncio.WriteTransport,
                 loop: asyncio.AbstractEventLoop, name: str) -> None:
        self._proc = proc
        self._stdin = stdin
        self._loop = loop
        self.name = name
        self._lines: collections.deque[str] = collections.deque()
        self._eof = False
        self._waiter: asyncio.Future[None] | None = None
        self.wake_on: tuple[str, ...] | None = None
        self.log: list[str] = []
        self._exited: asyncio.Future[None] = loop.create_future()
        self._partial = b""
        self._watch_exit()
        stdout = proc.stdout
        assert stdout is not None
        self._stdout = stdout
        os.set_blocking(stdout.fileno(), False)
        loop.add_reader(stdout.fileno(), self._read_ready)

    @classmethod
    async def start(cls, command: str | Sequence[str], *, name: str | None = None,
                    cwd: str | None = None, env: Mapping[str, str] | None = None) -> EngineProcess:
        """Start ``command`` with pipes on its standard input and output.

        Returns the running process.  Raises :class:`EngineStartError` if the
        program cannot be executed.
        """
        args = split_command(command)
        args[0] = resolve_program(args[0])
        full_env = None if env is None else {**os.environ, **env}
        loop = asyncio.get_running_loop()
        try:
            # Its own session: a wrapper's children can be killed with it.
            proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, cwd=cwd, env=full_env,
                                    start_new_session=True, bufsize=0)
        except OSError as exc:
            raise EngineStartError(f"cannot start engine {args[0]!r}: {exc}") from exc
        lower_priority(proc.pid, SPAWN_NICE.get())
        assert proc.stdin is not None
        try:
            transport, _ = await loop.connect_write_pipe(asyncio.BaseProtocol, proc.stdin)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        return cls(proc, transport, loop, name or os.path.basename(args[0]))

    @property
    def pid(self) -> int:
        """The operating-system process id."""
        return self._proc.pid

    @property
    def returncode(self) -> int | None:
        """The exit status, or ``None`` while the process runs.  Asks the
        system (a non-blocking wait) rather than the loop's exit watcher, so
        a process killed a moment ago is seen as ended before the watcher's
        callback has run (a pooled engine killed while idle is then replaced,
        not leased)."""
        return self._proc.poll()

    # ------------------------------------------------------------ exit
    def _watch_exit(self) -> None:
        try:
            pidfd = os.pidfd_open(self._proc.pid)
        except (AttributeError, OSError):
            # No pidfd (old kernel or not Linux): a thread waits instead.
            threading.Thread(target=self._wait_exit, name=f"qisai-engine-exit-{self._proc.pid}",
                             daemon=True).start()
            return
        # The pidfd turns readable when the process has ended.
        self._loop.add_reader(pidfd, self._on_pidfd, pidfd)

    def _on_pidfd(self, pidfd: int) -> None:
        self._loop.remove_reader(pidfd)
        os.close(pidfd)
        self._proc.wait()  # it has ended: this reaps it at once
        self._on_exit()

    def _wait_exit(self) -> None:
        self._proc.wait()
        try:
            self._loop.call_soon_threadsafe(self._on_exit)
        except RuntimeError:
            pass  # the loop is closed: nobody is waiting

    def _on_exit(self) -> None:
        if not self._exited.done():
            self._exited.set_result(None)

    # ------------------------------------------------------------ output
    def _read_ready(self) -> None:
        """The loop's reader callback: queue the complete lines that came; wake
        a waiting coroutine for a wanted line (and at the end of the output)."""
        try:
            data = os.read(self._stdout.fileno(), _READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._end_output()
            return
        partial = self._partial
        buf = partial + data if partial else data
        end = buf.rfind(b"\n")
        if end < 0:
            # No line end yet; a runaway line without one is dropped.
            self._partial = buf if len(buf) <= _LINE_LIMIT else b""
            return
        partial = buf[end + 1:]
        self._partial = partial if len(partial) <= _LINE_LIMIT else b""
        # "\n" is never part of a multi-byte UTF-8 character, so the complete
        # lines of a chunk decode as one text, as each would alone.
        text = buf[:end].decode("utf-8", errors="replace")
        new = text.split("\n")
        if "\r" in text:
            new = [line.rstrip("\r") for line in new]
        self._lines.extend(new)
        self._remember("< " + new[-1])
        if self._waiter is not None and self._wanted(new):
            self._wake()

    def _end_output(self) -> None:
        fd = self._stdout.fileno()
        self._loop.remove_reader(fd)
        if self._partial:
            self._lines.append(self._partial.decode("utf-8", errors="replace").rstrip("\r"))
            self._partial = b""
        self._eof = True
        self._stdout.close()
        self._wake()

    def _wanted(self, new: list[str]) -> bool:
        wake = self.wake_on
        if wake is None:
            return True
        for line in reversed(new):  # the wanted line usually ends the chunk
            if line.startswith(wake):
                return True
        return False

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _remember(self, entry: str) -> None:
        log = self.log
        log.append(entry)
        if len(log) > 40:
            del log[:20]

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
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiter = waiter
            # A bare future and a timer, not asyncio.wait_for: wait_for
            # relays the wake-up through one more turn of the loop.
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
        lines = self._lines
        out = []
        while lines:
            out.append(lines.popleft())
        return out

    async def _terminated(self) -> EngineTerminatedError:
        try:
            await asyncio.wait_for(asyncio.shield(self._exited), 1.0)
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
        exited = self._exited
        try:
            await asyncio.wait_for(asyncio.shield(exited), grace)
        except TimeoutError:
            self.kill()
            try:
                await asyncio.wait_for(asyncio.shield(exited), 5.0)
            except TimeoutError:
                pass
        self._stdin.close()
        if not self._eof:
            # A child of the engine may still hold its output open.
            self._end_output()
        return self.returncode

    def kill(self) -> None:
        """Kill the engine process at once (no-op if it has exited)."""
        if self.returncode is None:
            try:
                # The whole session: an engine started by a wrapper goes too.
                os.killpg(self._proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
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
