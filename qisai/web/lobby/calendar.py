"""The events calendar of the home page: upcoming events (registration
open or not), running and finished ones, the viewer's own events first.

Each event is shown with its format, game, rule profile (by name), time
control, dates, venue, 组别, number of entries, its entry conditions and
whether the viewer may register now (the register button; the server
checks again: :mod:`qisai.web.events.registration`).

Reading every event's JSON on every home page would grow with the events;
so the listing is made from at most :data:`LIMIT_OPEN` events not finished
and :data:`LIMIT_FINISHED` finished ones (two bounded queries) and kept for
:data:`CALENDAR_TTL` seconds; only the ordering by the viewer's own events
is done per request.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from qisai.referee.rulesets import PRESETS
from qisai.store.models import Tournament, User
from qisai.web.events.model import family
from qisai.web.events.registration import listing_of, registration_open

__all__ = ["CALENDAR_TTL", "LIMIT_FINISHED", "LIMIT_OPEN", "calendar", "forget_calendar",
           "time_text"]

CALENDAR_TTL = 3.0
"""Seconds the calendar's events are kept (see the module)."""
LIMIT_OPEN = 40
"""Upcoming and running events read, at most (newest first)."""
LIMIT_FINISHED = 10
"""Finished events shown, at most (the latest)."""

_cache: dict[str, tuple[float, list[dict[str, Any]]]] = {}
_lock = threading.Lock()


def time_text(spec: Any) -> dict[str, str]:
    """Return an event's time control (``settings["time"]``) in words,
    ``{"zh", "en"}``: a rule-book scheme by its clause (6.1 ...), minutes
    plus increment, or byo-yomi; ``None``: the rule profile's own."""
    if spec is None:
        return {"zh": "按规则默认", "en": "the profile's own"}
    if not isinstance(spec, dict):
        return {"zh": "?", "en": "?"}
    if "scheme" in spec:
        return {"zh": f"规则 {spec['scheme']}", "en": f"scheme {spec['scheme']}"}
    minutes, inc = spec.get("minutes", 0), spec.get("increment", 0)
    base = f"{minutes:g}+{inc:g}" if isinstance(minutes, int | float) and \
        isinstance(inc, int | float) else "?"
    by = spec.get("byoyomi")
    if isinstance(by, dict):
        periods, secs = by.get("periods", 1), by.get("seconds", 60)
        return {"zh": f"{minutes}分钟 + 读秒 {periods}×{secs}秒",
                "en": f"{minutes} min + byo-yomi {periods}×{secs} s"}
    return {"zh": base, "en": base}


def _entries(row: Tournament) -> int:
    ev = row.settings.get("event") or {}
    if family(row) == "team":
        return len(ev.get("teams") or ())
    return len(ev.get("players") or ())


def _item(row: Tournament) -> dict[str, Any]:
    listing = listing_of(row)
    preset = PRESETS.get(row.ruleset)
    ev = row.settings.get("event") or {}
    phase = ("finished" if row.status == "finished"
             else "running" if row.status == "running" else "upcoming")
    members = {int(u) for u in (row.settings.get("users") or {}).values() if u is not None}
    return {
        "id": row.id, "name": row.name, "kind": row.kind, "system": row.format,
        "family": family(row), "phase": phase,
        "ruleset": row.ruleset,
        "profile": {"zh": preset.title_zh if preset else row.ruleset,
                    "en": preset.title_en if preset else row.ruleset},
        "time": time_text(row.settings.get("time")),
        "starts": listing["starts"], "ends": listing["ends"], "venue": listing["venue"],
        "groups": listing["groups"], "min_rating": listing["min_rating"],
        "max_rating": listing["max_rating"], "open": registration_open(row),
        "boards": ev.get("boards") if family(row) == "team" else None,
        "entries": _entries(row),
        "_organiser": row.organiser_id, "_members": members,
    }


def _events(s: Session, now: float, ttl: float) -> list[dict[str, Any]]:
    key = str(s.get_bind().engine.url)  # one cache per database (tests run several)
    with _lock:
        hit = _cache.get(key)
        if hit is not None and now - hit[0] < ttl:
            return hit[1]
    live = s.scalars(select(Tournament).where(Tournament.status != "finished")
                     .order_by(Tournament.id.desc()).limit(LIMIT_OPEN))
    done = s.scalars(select(Tournament).where(Tournament.status == "finished")
                     .order_by(Tournament.id.desc()).limit(LIMIT_FINISHED))
    items = [_item(r) for r in [*live, *done]]
    with _lock:
        _cache[key] = (now, items)
    return items


def forget_calendar() -> None:
    """Drop the kept events (after a change the page must show at once)."""
    with _lock:
        _cache.clear()


def calendar(s: Session, viewer: User | None, *, now: float | None = None,
             ttl: float = CALENDAR_TTL) -> dict[str, list[dict[str, Any]]]:
    """Return the calendar for ``viewer``: ``mine`` (events he organises or
    is entered in, any phase), ``upcoming`` (by start date, undated last),
    ``running`` and ``finished``; each event as the module says, with
    ``organiser`` (he organises it: the page links its papers),
    ``entered`` and ``can_register`` (open, and he is a registered player
    not entered yet)."""
    items = _events(s, time.monotonic() if now is None else now, ttl)
    uid = viewer.id if viewer is not None else None
    player = viewer is not None and viewer.role != "guest"
    out: dict[str, list[dict[str, Any]]] = {"mine": [], "upcoming": [], "running": [],
                                            "finished": []}
    for it in items:
        shown = {k: v for k, v in it.items() if not k.startswith("_")}
        shown["organiser"] = uid is not None and it["_organiser"] == uid
        shown["entered"] = uid is not None and uid in it["_members"]
        shown["can_register"] = player and it["open"] and not shown["entered"]
        mine = shown["organiser"] or shown["entered"]
        out["mine" if mine else it["phase"]].append(shown)
    out["upcoming"].sort(key=lambda e: (e["starts"] is None, e["starts"] or "", e["id"]))
    return out
