"""A game's sockets on this process: who is sent an update, and in what
order (issue 29.4).

The players' sockets are sent to in turn, at once: a send to a socket that
is not backed up completes without waiting for the event loop, so an update
and the mover's acknowledgement go out in the same turn of the loop.
(Sending through ``asyncio.gather`` made a task per socket and waited a
whole turn of the loop for them: at 1,000 games that wait was most of the
round trip's tail, p99 60 ms of a 90 ms round trip, measured with
``bench/arena_load.py``.)  The spectators' sockets are sent to by a task of
their own, in the order of the updates, so that a crowd, or a spectator who
stops reading, never delays the game.
"""

from __future__ import annotations

import asyncio

from qisai.web.play.live import LiveGame, Send
from qisai.web.state import spawn

__all__ = ["FanOut", "send_safely"]


async def send_safely(live: LiveGame, key: int, send: Send, text: str) -> None:
    """Send ``text`` through ``send``; a socket that fails is dropped from
    ``live``'s subscribers (it has gone), never raised."""
    try:
        await send(text)
    except Exception:  # a dead socket: drop it
        live.subscribers.pop(key, None)


class FanOut:
    """Sends a game's updates to its sockets (see the module)."""

    def __init__(self) -> None:
        self._crowds: set[asyncio.Task[None]] = set()  # updates on their way to spectators

    async def send(self, live: LiveGame, text: str) -> None:
        """Send ``text`` to every socket of ``live``: the players' now, in
        turn; the spectators' from a task (returns before they are sent)."""
        players = {live.first_user_id, live.second_user_id} - {None}
        crowd = []
        for key, send in list(live.subscribers.items()):
            if key >> 20 in players:  # the key carries the viewer's id (Hub.subscribe)
                await send_safely(live, key, send, text)
            else:
                crowd.append((key, send))
        if crowd:
            task = spawn(self._send_crowd(live, crowd, text))
            self._crowds.add(task)
            task.add_done_callback(self._crowds.discard)

    @staticmethod
    async def _send_crowd(live: LiveGame, crowd: list[tuple[int, Send]], text: str) -> None:
        await asyncio.gather(*[send_safely(live, key, send, text) for key, send in crowd])
