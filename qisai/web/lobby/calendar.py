"""The events calendar of the home page: upcoming events (registration
open or not), running and finished ones, the viewer's own events first.

Each event is shown with its format, game, rule profile (by name), time
control, dates, venue, 组别, number of entries, its entry conditions and
whether the viewer may register now (the register button; the server
checks again: :mod:`qisai.web.events.registration`).

Reading every event's JSON on every home page would grow with the events;
so the listing is made from at most :data:`LIMIT_OPEN` events not finished
and :data:`LIMIT_FINISHED` finished ones (two bounded queries) and kept for
:data:`CALENDAR_TTL` seconds, refreshed behind the requests
(:mod:`.kept`); only the ordering by the viewer's own events is done per
request.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from qisai.referee.rulesets import PRESETS
from qisai.store.models import Tournament, User
from qisai.web.events.listing import listing_of, registration_open
from qisai.web.events.model import family
from qisai.web.lobby.kept import Kept

__all__ = ["CALENDAR_TTL", "LIMIT_FINISHED", "LIMIT_OPEN", "calendar", "forget_calendar",
           "time_text"]

CALENDAR_TTL = 3.0
"""Seconds the calendar's events are kept (see the module)."""
LIMIT_OPEN = 40
"""Upcoming and running events read, at most (newest first)."""
LIMIT_FINISHED = 10
"""Finished events read, at most (the latest)."""
SHOWN = {"mine": 10, "upcoming": 12, "running": 8, "finished": 5}
"""Events shown in each part of the calendar, at most (the events page
lists them all)."""

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


KeptEvent = tuple[dict[str, Any], int, frozenset[int]]
"""An event as kept: what the page shows, its organiser, its entrants' accounts."""


def _item(row: Tournament) -> KeptEvent:
    listing = listing_of(row)
    preset = PRESETS.get(row.ruleset)
    ev = row.settings.get("event") or {}
    phase = ("finished" if row.status == "finished"
             else "running" if row.status == "running" else "upcoming")
    members = frozenset(int(u) for u in (row.settings.get("users") or {}).values()
                        if u is not None)
    shown = {
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
    }
    return shown, row.organiser_id, members


def _order(item: KeptEvent) -> tuple[bool, bool, str, int]:
    """Upcoming events by start date (undated last), then the rest newest first."""
    shown = item[0]
    if shown["phase"] == "upcoming":
        return False, shown["starts"] is None, shown["starts"] or "", shown["id"]
    return True, False, "", -shown["id"]


def _events(s: Session) -> list[KeptEvent]:
    live = s.scalars(select(Tournament).where(Tournament.status != "finished")
                     .order_by(Tournament.id.desc()).limit(LIMIT_OPEN))
    done = s.scalars(select(Tournament).where(Tournament.status == "finished")
                     .order_by(Tournament.id.desc()).limit(LIMIT_FINISHED))
    return sorted((_item(r) for r in [*live, *done]), key=_order)


_kept = Kept(_events, CALENDAR_TTL)


def forget_calendar() -> None:
    """Drop the kept events (the next home page reads them anew)."""
    _kept.forget()


def calendar(s: Session, viewer: User | None, *, fresh: bool = False
             ) -> dict[str, list[dict[str, Any]]]:
    """Return the calendar for ``viewer``: ``mine`` (events he organises or
    is entered in, any phase), ``upcoming`` (by start date, undated last),
    ``running`` and ``finished``; each event as the module says, with
    ``organiser`` (he organises it: the page links its papers),
    ``entered`` and ``can_register`` (open, and he is a registered player
    not entered yet).  The events are those kept for :data:`CALENDAR_TTL`
    seconds (:class:`~.kept.Kept`), or read now with ``fresh``."""
    items = _kept.get(s, fresh=fresh)
    uid = viewer.id if viewer is not None else None
    player = viewer is not None and viewer.role != "guest"
    out: dict[str, list[dict[str, Any]]] = {"mine": [], "upcoming": [], "running": [],
                                            "finished": []}
    for shown, organiser, members in items:
        part = "mine" if uid is not None and (organiser == uid or uid in members) \
            else shown["phase"]
        if len(out[part]) >= SHOWN[part]:
            continue
        entry = dict(shown)
        entry["organiser"] = uid is not None and organiser == uid
        entry["entered"] = uid is not None and uid in members
        entry["can_register"] = player and shown["open"] and not entry["entered"]
        out[part].append(entry)
    return out
