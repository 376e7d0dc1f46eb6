"""Starting a Xiangqi engine by the name of its protocol.

The match runner, the arena and the benches name an engine's protocol as
text (``proto=uci``, ``xboard:maxqi``): :func:`protocol_name` turns the
names people write into the client's (``cecp`` and ``winboard`` are
``xboard``), and :func:`start_xiangqi_engine` starts the right client.
Both clients answer to :class:`XiangqiClient`, what the runner uses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol as TypingProtocol

from qisai.engines.results import Info, Limit, PlayResult
from qisai.xiangqi.board import Board
from qisai.xiangqi.squares import Move

__all__ = [
    "PROTOCOL_ALIASES",
    "XIANGQI_PROTOCOLS",
    "XiangqiClient",
    "protocol_name",
    "start_xiangqi_engine",
]

XIANGQI_PROTOCOLS = ("uci", "ucci", "xboard")
"""The protocols of Xiangqi engines, by their canonical names."""

PROTOCOL_ALIASES = {"cecp": "xboard", "winboard": "xboard"}
"""Other names of a protocol."""


def protocol_name(text: str) -> str:
    """Return the canonical name of the protocol ``text`` names (any case;
    ``cecp``/``winboard`` give ``xboard``); other names are returned in
    lower case, as they are (``gtp``).  Never raises."""
    low = text.strip().lower()
    return PROTOCOL_ALIASES.get(low, low)


class XiangqiClient(TypingProtocol):
    """What the match runner and the arena need of a Xiangqi engine client
    (:class:`~qisai.engines.uci.UciEngine`,
    :class:`~qisai.engines.xboard.XboardEngine`)."""

    name: str
    id_name: str

    @property
    def protocol(self) -> object:
        """The protocol (``Protocol.UCI``/``Protocol.UCCI`` or ``"xboard"``)."""

    @property
    def alive(self) -> bool:
        """Whether the engine process is still running."""

    async def new_game(self) -> None:
        """Prepare a new game."""

    async def play(self, board: Board, limit: Limit, *, banmoves: Sequence[Move] = (),
                   timeout: float | None = None,
                   on_info: Callable[[Info], None] | None = None) -> PlayResult:
        """Return the engine's answer for ``board``."""

    async def quit(self) -> None:
        """Stop the engine.  Never raises."""


async def start_xiangqi_engine(
    command: str | Sequence[str],
    protocol: str = "uci",
    *,
    name: str | None = None,
    options: Mapping[str, str | int | bool] | None = None,
    timeout: float = 10.0,
    cwd: str | None = None,
) -> XiangqiClient:
    """Start a Xiangqi engine speaking ``protocol`` (``uci``, ``ucci``,
    ``xboard`` or an alias) and complete its handshake.

    Returns the ready client.  Raises :class:`ValueError` for a protocol
    that is not a Xiangqi engine's, and what the client's ``start`` raises
    (:class:`~qisai.engines.errors.EngineStartError`,
    :class:`~qisai.engines.errors.EngineProtocolError` for an option).
    """
    proto = protocol_name(protocol)
    if proto == "xboard":
        from qisai.engines.xboard import XboardEngine

        return await XboardEngine.start(command, name=name, options=options, timeout=timeout,
                                        cwd=cwd)
    if proto not in XIANGQI_PROTOCOLS:
        raise ValueError(f"protocol {protocol!r} is not a Xiangqi engine's "
                         f"({', '.join(XIANGQI_PROTOCOLS)}, or cecp/winboard)")
    from qisai.engines.uci import UciEngine

    return await UciEngine.start(command, protocol=proto, name=name, options=options,
                                 timeout=timeout, cwd=cwd)
