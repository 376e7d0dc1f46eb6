"""What the hub needs from the server's settings: the engine-process pool
and the players' limits (issue 14.2)."""

from __future__ import annotations

import os
from typing import Any

from qisai.engines.pool import EnginePool
from qisai.web.play.quota import Quota

__all__ = ["default_processes", "engine_pool", "quota"]


def default_processes() -> int:
    """Return the default bound on engine processes: the CPUs this process
    may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def engine_pool(settings: Any) -> EnginePool:
    """Return the engine pool ``settings`` (:class:`~qisai.web.settings.Settings`)
    ask for."""
    return EnginePool(settings.engine_processes or default_processes(),
                      idle_timeout=settings.engine_idle, max_wait=settings.engine_wait,
                      nice=settings.engine_nice)


def quota(settings: Any) -> Quota:
    """Return the players' limits ``settings`` ask for."""
    return Quota(engine_games=settings.engine_games_per_player, seeks=settings.seeks_per_player,
                 address_engine_games=settings.guest_engine_games_per_address,
                 address_seeks=settings.guest_seeks_per_address)
