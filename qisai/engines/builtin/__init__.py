"""qisai's own engines: a Xiangqi alpha-beta searcher served over UCI/UCCI
(:mod:`~qisai.engines.builtin.xiangqi_server`) and a Go Monte-Carlo tree
searcher served over GTP (:mod:`~qisai.engines.builtin.go_server`).

``builtin_command(game)`` is the command line that starts one, for use
wherever an engine command is expected.
"""

from __future__ import annotations

import sys

__all__ = ["builtin_command"]


def builtin_command(game: str) -> list[str]:
    """Return the command line of the built-in engine for ``game``
    (``"xiangqi"`` or ``"go"``).

    Raises :class:`ValueError` for another game.
    """
    if game == "xiangqi":
        return [sys.executable, "-m", "qisai.engines.builtin.xiangqi_server"]
    if game == "go":
        return [sys.executable, "-m", "qisai.engines.builtin.go_server"]
    raise ValueError(f"no built-in engine for {game!r} (xiangqi or go)")
