"""Exceptions of the engine clients.

Every error an engine client raises is an :class:`EngineError` (a
:class:`RuntimeError`).  The match runner turns each kind into a game result
through the referee, so an engine that fails never stops a match:

* :class:`EngineStartError` - the program could not be started, or never
  finished the protocol handshake;
* :class:`EngineTerminatedError` - the process exited (crashed) while it was
  needed;
* :class:`EngineTimeoutError` - no answer within the time allowed (a hang);
* :class:`EngineProtocolError` - the engine answered with something that is
  not the protocol (garbage), or refused a command it must accept;
* :class:`EngineMoveError` - the engine sent a move that cannot be parsed.
"""

from __future__ import annotations

__all__ = [
    "EngineError",
    "EngineMoveError",
    "EngineProtocolError",
    "EngineStartError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "GtpCommandError",
]


class EngineError(RuntimeError):
    """Base class of every error raised by :mod:`qisai.engines`."""


class EngineStartError(EngineError):
    """The engine program could not be started or failed its handshake."""


class EngineTerminatedError(EngineError):
    """The engine process exited while a command was pending.

    ``returncode`` is the exit status (negative: killed by that signal), or
    ``None`` if it is not known yet.
    """

    def __init__(self, message: str, returncode: int | None = None) -> None:
        super().__init__(message)
        self.returncode = returncode


class EngineTimeoutError(EngineError):
    """The engine did not answer within the time allowed."""


class EngineProtocolError(EngineError):
    """The engine broke the protocol (garbage output, a refused command)."""


class EngineMoveError(EngineProtocolError):
    """The engine sent a move text that is not a move at all.

    ``text`` is what the engine sent.
    """

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.text = text


class GtpCommandError(EngineProtocolError):
    """A GTP engine answered a command with a failure (``? message``).

    ``command`` is the command sent and ``reply`` the engine's message.
    """

    def __init__(self, command: str, reply: str) -> None:
        super().__init__(f"GTP command {command!r} failed: {reply}")
        self.command = command
        self.reply = reply
