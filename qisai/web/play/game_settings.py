"""A server game's settings, typed: what the stored row's ``settings`` JSON
says beyond the rule profile, read once when the game is loaded.

The row keeps the JSON (``stored``): the referee's profile is built from it
(:func:`~qisai.web.play.referee_games.make_rules`: time, fen, size, rules)
and a rematch copies it.  What the live game itself acts on is read here
into fields, so that no module of the arena reads the dict by key:

* ``driven``: the second engine of a game between two engines, played
  through an engine account (人机大战; :mod:`qisai.web.play.engine_driver`);
* ``groups``: the consultation groups (会商) playing a side, by seat;
* ``blindfold``: the seats played blindfold (盲棋);
* ``simul``: the simultaneous display and board the game is played for.

Shapes that are not as written here (a settings row from before a field
existed, a hand-edited row) read as the field's absence, never as an error:
a game always loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from qisai.referee.verdict import Side

__all__ = ["SEATS", "Driven", "GameSettings", "seat_of"]

SEATS = ("first", "second")
"""The seats of a game as its settings name them (first: Red or Black)."""


def seat_of(side: Side) -> str:
    """Return the seat name of ``side`` (``first`` or ``second``)."""
    return "first" if side is Side.FIRST else "second"


@dataclass(frozen=True)
class Driven:
    """The seat an engine plays through its engine account."""

    side: Side
    engine: str
    """The engine's name on this server (``builtin``, an ``--engine`` or a level)."""
    account: int
    """The engine account's user id: the hub takes its moves as that user's."""
    name: str | None = None
    """Its name, version and level as the records show it, if known."""

    @classmethod
    def read(cls, data: object) -> Driven | None:
        """Return the driven seat stored as ``data``, or ``None``."""
        if not isinstance(data, Mapping) or "engine" not in data or "account" not in data:
            return None
        try:
            account = int(data["account"])
        except (TypeError, ValueError):
            return None
        name = data.get("name")
        return cls(Side.FIRST if data.get("side") == "first" else Side.SECOND,
                   str(data["engine"]), account, None if name is None else str(name))


@dataclass(frozen=True)
class GameSettings:
    """A server game's settings: the stored JSON and the typed fields read from it."""

    stored: Mapping[str, Any] = field(default_factory=dict)
    """The settings as the game's row stores them."""
    driven: Driven | None = None
    groups: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """The group setting of each seat a consultation group plays (``members``,
    ``names``, ``account`` ...; see :mod:`qisai.web.exhibitions.consult`)."""
    blindfold: tuple[str, ...] = ()
    simul: Mapping[str, Any] | None = None
    """The simul board (``id``, ``name``, ``board``), if the game is one."""
    in_event: Mapping[str, Any] | None = None
    """The event board the game is played for, as its record names it
    (``name``, ``Round``, ``Board``, ``Section``, ``RedTeam``,
    ``BlackTeam``; see :func:`qisai.web.events.server_games.place_tags`)."""

    @classmethod
    def read(cls, stored: Mapping[str, Any] | None) -> GameSettings:
        """Return the settings of a game whose row stores ``stored``."""
        data = dict(stored or {})
        groups = data.get("groups")
        simul = data.get("simul")
        in_event = data.get("in_event")
        blind = data.get("blindfold")
        return cls(
            stored=data,
            driven=Driven.read(data.get("driven")),
            groups={seat: g for seat, g in (groups.items() if isinstance(groups, dict) else ())
                    if seat in SEATS and isinstance(g, dict)},
            blindfold=tuple(s for s in (blind if isinstance(blind, list | tuple) else ())
                            if s in SEATS),
            simul=simul if isinstance(simul, dict) else None,
            in_event=in_event if isinstance(in_event, dict) else None,
        )

    def with_stored(self, **changes: Any) -> GameSettings:
        """Return these settings with the stored keys ``changes`` replaced
        (what the row is then saved with), read again."""
        return GameSettings.read({**self.stored, **changes})

    def group(self, side: Side) -> Mapping[str, Any] | None:
        """Return the group setting of ``side``, or ``None``."""
        return self.groups.get(seat_of(side))

    def simul_board(self) -> int | None:
        """Return the simul board number of the game, or ``None``."""
        board = None if self.simul is None else self.simul.get("board")
        return board if isinstance(board, int) and not isinstance(board, bool) else None
