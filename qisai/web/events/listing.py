"""An event's listing in the calendar: dates, venue, 组别, the entry
conditions (rating limits) and whether registration is open; kept in the
event row's ``settings["listing"]`` (set by its organisers:
:mod:`.registration`)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from qisai.store.models import Tournament as TournamentRow

__all__ = ["Listing", "listing_of", "registration_open"]


class Listing(BaseModel):
    """What the calendar says of an event, and its entry conditions."""

    starts: dt.date | None = None
    ends: dt.date | None = None
    venue: str = Field(default="", max_length=200)
    groups: list[Annotated[str, Field(max_length=40)]] = Field(default_factory=list,
                                                               max_length=12)
    """组别: the event's groups (a player registering names one); empty: none."""
    min_rating: int | None = Field(default=None, ge=0, le=4000)
    max_rating: int | None = Field(default=None, ge=0, le=4000)
    registration: Literal["open", "closed"] = "closed"
    """Self-registration from the calendar: closed unless the organiser opens
    it (an event without a listing is closed too)."""


def listing_of(row: TournamentRow) -> dict[str, Any]:
    """Return the listing of event ``row`` (see :class:`Listing`), defaults
    filled in (registration closed), JSON-ready."""
    stored = row.settings.get("listing") or {}
    return Listing.model_validate(stored).model_dump(mode="json")


def registration_open(row: TournamentRow) -> bool:
    """Whether players may register themselves now: the event has not
    started and its organiser opened registration in its listing."""
    return row.status == "registration" and listing_of(row)["registration"] == "open"
