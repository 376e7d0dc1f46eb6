"""The engines a server offers as opponents: qisai's own (``builtin``), the
``--engine`` ones, and the strong engines found installed at start-up
(:mod:`qisai.engines.discovery`), each at its named levels.

A found engine at a level is an :class:`Offered` under a name of its own
(``fairy-stockfish-skill-5``, ``gnugo-level-1``); the hub keeps them in
``hub.levels`` beside ``hub.engines`` (the ``--engine`` commands).  A
``--engine`` that answered its probe at start-up is an :class:`Offered`
too (level ``as configured``), so that its own name and version are known.

A game against an engine keeps, in its settings (``settings["opponent"]``),
the engine's name and version as the engine gave them and its level: the
game page and the PGN/SGF record name it so, even after the server's
engines change.  Every seat runs in the hub's bounded engine pool; the
pool's key of a levelled engine includes its options, so a process set to
one level never serves another.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qisai.engines.discovery import Discovery, OptionValue, probe_gtp
from qisai.engines.errors import EngineError
from qisai.web.seats.opponents import (
    BUILTIN,
    BuiltinGoSeat,
    BuiltinXiangqiSeat,
    EngineSpec,
    GtpGoSeat,
    PooledSeat,
    UciXiangqiSeat,
    parse_spec,
)

if TYPE_CHECKING:
    from qisai.engines.pool import EnginePool

__all__ = [
    "Offered",
    "configured_offers",
    "find_engines",
    "found_offers",
    "kinds_of",
    "listing",
    "make_seat",
    "opponent_info",
]

log = logging.getLogger(__name__)

CONFIGURED = ("按配置", "as configured")
"""The level of a ``--engine`` engine: whatever its command line says."""


@dataclass(frozen=True)
class Offered:
    """An engine at one level, as players choose it."""

    name: str
    """What ``POST /api/games`` names it by (``engine``)."""
    kind: str
    spec: EngineSpec
    """Protocol and command line, the level's arguments included."""
    options: tuple[tuple[str, OptionValue], ...]
    """UCI options of the level (set when a process starts)."""
    engine: str
    """Name and version as the engine gave them."""
    level_zh: str
    level_en: str

    def info(self) -> dict[str, Any]:
        """Return what a game keeps of its engine (``settings["opponent"]``)."""
        return {"name": self.name, "engine": self.engine,
                "level": {"zh": self.level_zh, "en": self.level_en}}


def found_offers(found: Discovery, taken: Mapping[str, object]) -> dict[str, Offered]:
    """Return the levels of the engines ``found`` at start-up by name
    (``PROGRAM-LEVEL``), leaving out names in ``taken`` (a ``--engine`` of
    the same name wins)."""
    out: dict[str, Offered] = {}
    for f in found.found:
        for level in f.levels:
            name = f"{f.program}-{level.key}"
            if name in taken or name == BUILTIN:
                continue
            out[name] = Offered(name, f.kind, EngineSpec(f.protocol, (*f.argv, *level.args)),
                                level.options, f.engine, level.zh, level.en)
    return out


async def _probe(spec: EngineSpec, timeout: float) -> str:
    """The name (and version) the engine of ``spec`` gives for itself."""
    if spec.protocol == "gtp":
        name, version = await probe_gtp(spec.argv, timeout)
        return f"{name} {version}".strip() if version and version not in name else name
    from qisai.engines.clients import start_xiangqi_engine

    client = await start_xiangqi_engine(list(spec.argv), spec.protocol, timeout=timeout)
    try:
        return str(client.id_name or client.name)
    finally:
        await client.quit()


async def configured_offers(engines: Mapping[str, str], timeout: float = 10.0
                            ) -> dict[str, Offered]:
    """Return the ``--engine`` engines that answered a probe (started once,
    asked their name, stopped), by their configured names.  One that fails
    is left out and logged; it is still offered by its command alone.
    Never raises."""
    async def one(name: str, raw: str) -> Offered | None:
        try:
            spec = parse_spec(raw)
            title = await _probe(spec, timeout)
        except (EngineError, OSError, ValueError) as exc:
            log.warning("engine %s: not probed (%s)", name, exc)
            return None
        return Offered(name, spec.kind, spec, (), title or name, *CONFIGURED)

    # All at once: a silent engine costs start-up its timeout, not one each.
    found = await asyncio.gather(*(one(n, raw) for n, raw in engines.items()))
    return {o.name: o for o in found if o is not None}


def kinds_of(name: str, engines: Mapping[str, str], levels: Mapping[str, Offered]
             ) -> tuple[str, ...]:
    """Return the games engine ``name`` plays (``()`` if the server does not
    offer it): ``builtin`` plays both."""
    from qisai.web.seats.opponents import engine_kinds

    offered = levels.get(name)
    if offered is not None:
        return (offered.kind,)
    return engine_kinds(name, dict(engines))


def listing(kind: str | None, engines: Mapping[str, str], levels: Mapping[str, Offered]
            ) -> list[dict[str, Any]]:
    """Return the engines offered (for ``kind`` only, if given): qisai's own
    first, then the ``--engine`` ones, then the found ones; each with
    ``name``, ``kinds``, ``engine`` (its own name and version, ``None`` if
    unknown) and ``level`` (``zh``, ``en``; ``None`` for qisai's own)."""
    names = [BUILTIN, *engines, *(n for n in levels if n not in engines)]
    out = []
    for name in names:
        kinds = list(kinds_of(name, engines, levels))
        if not kinds or (kind is not None and kind not in kinds):
            continue
        offered = levels.get(name)
        out.append({"name": name, "kinds": kinds,
                    "engine": "qisai" if name == BUILTIN else
                    (offered.engine if offered else None),
                    "level": None if offered is None else {"zh": offered.level_zh,
                                                           "en": offered.level_en}})
    return out


def opponent_info(name: str, levels: Mapping[str, Offered]) -> dict[str, Any] | None:
    """Return what a new game against engine ``name`` keeps of it
    (:meth:`Offered.info`), or ``None`` when nothing more than its name is
    known."""
    offered = levels.get(name)
    return None if offered is None else offered.info()


class LevelledUciSeat(UciXiangqiSeat):
    """A UCI engine at a level set by options (Fairy-Stockfish's ``Skill
    Level``, ``UCI_Elo``): its processes are keyed by the options too, so
    the pool never lends one set to another level."""

    def __init__(self, offered: Offered, pool: EnginePool | None = None, owner: str = ""
                 ) -> None:
        super().__init__(offered.spec, offered.name, pool, owner)
        self.options = dict(offered.options)

    def _key(self, request: Any) -> tuple[str, ...]:
        return (*super()._key(request), *(f"{k}={v}" for k, v in sorted(self.options.items())))


def make_seat(name: str, kind: str, engines: Mapping[str, str],
              levels: Mapping[str, Offered], pool: EnginePool, owner: str) -> PooledSeat:
    """Return a new seat of engine ``name`` for a ``kind`` game ``owner``,
    leasing its processes from ``pool``.

    Raises :class:`RuntimeError` for an engine the server does not offer or
    that plays the other game, :class:`ValueError` for a malformed
    ``--engine`` command.
    """
    if name == BUILTIN:
        return BuiltinGoSeat(pool, owner) if kind == "go" else BuiltinXiangqiSeat(pool, owner)
    offered = levels.get(name)
    if offered is not None:
        if offered.kind != kind:
            raise RuntimeError(f"engine {name!r} plays {offered.kind}, not {kind}")
        if offered.spec.protocol == "gtp":
            return GtpGoSeat(offered.spec, name, pool, owner)
        return LevelledUciSeat(offered, pool, owner)
    raw = engines.get(name)
    if raw is None:
        raise RuntimeError(f"engine {name!r} is not configured on this server (--engine)")
    spec = parse_spec(raw)
    if spec.kind != kind:
        raise RuntimeError(f"engine {name!r} plays {spec.kind}, not {kind}")
    return (GtpGoSeat(spec, name, pool, owner) if spec.protocol == "gtp"
            else UciXiangqiSeat(spec, name, pool, owner))


async def find_engines(hub: Any, engines: Mapping[str, str], timeout: float = 10.0) -> None:
    """At start-up: probe the ``--engine`` engines and look for the
    installed ones (:func:`qisai.engines.discovery.discover`), and offer
    what answered in ``hub.levels``.  What is left out is logged, with its
    reason.  Never raises."""
    from qisai.engines.discovery import discover

    found = await discover(timeout=timeout)
    for program, reason in found.skipped.items():
        log.info("engine %s not offered: %s", program, reason)
    hub.levels.update(await configured_offers(engines, timeout))
    hub.levels.update(found_offers(found, engines))
    for f in found.found:
        log.info("engine found: %s (%s) at %d levels", f.engine, f.argv[0], len(f.levels))
