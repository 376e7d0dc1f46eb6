"""Engines: clients for external programs (UCI/UCCI, xboard/CECP, GTP) and
qisai's own players (:mod:`qisai.engines.builtin`).  Xiangqi clients are
started by protocol name with :func:`qisai.engines.clients.start_xiangqi_engine`.

Every client is asyncio-based with a thin synchronous wrapper; every way an
engine can fail is an :class:`~qisai.engines.errors.EngineError`, which the
match runner turns into a refereed result.
"""

from qisai.engines.errors import (
    EngineError,
    EngineMoveError,
    EngineProtocolError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    GtpCommandError,
)

__all__ = [
    "EngineError",
    "EngineMoveError",
    "EngineProtocolError",
    "EngineStartError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "GtpCommandError",
]
