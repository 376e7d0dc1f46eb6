"""How the engine seat of a game is named on its page and in its record,
from what the game keeps of its engine (``settings["opponent"]``, written
when the game was made; see :mod:`qisai.web.seats.lineup`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["engine_player", "opponent_name"]


def _info(settings: Mapping[str, Any]) -> dict[str, Any] | None:
    info = settings.get("opponent")
    if isinstance(info, dict) and isinstance(info.get("engine"), str):
        return info
    return None


def opponent_name(engine: str | None, settings: Mapping[str, Any], lang: str = "en") -> str:
    """Return the name of the engine seat: ``Fairy-Stockfish 11.1 LB 64
    (Skill Level 5)`` (the level in ``lang``) when the game knows the
    engine's own name, else ``qisai NAME``; ``?`` without an engine."""
    if engine is None:
        return "?"
    info = _info(settings)
    if info is None:
        return f"qisai {engine}"
    level = info.get("level")
    text = (level.get(lang) or level.get("en")) if isinstance(level, dict) else None
    return f"{info['engine']} ({text})" if text else str(info["engine"])


def engine_player(engine: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """Return the engine seat as the game's state shows a player: ``name``
    (:func:`opponent_name`, in English), ``engine: True``, and when known
    ``title`` (its own name and version) and ``level`` (``zh``, ``en``)."""
    out: dict[str, Any] = {"id": None, "name": opponent_name(engine, settings), "engine": True}
    info = _info(settings)
    if info is not None:
        out["title"] = info["engine"]
        if isinstance(info.get("level"), dict):
            out["level"] = {k: str(info["level"].get(k, "")) for k in ("zh", "en")}
    return out
