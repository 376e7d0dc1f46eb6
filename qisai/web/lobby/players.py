"""Players: leaderboards per game and time-control family, and the search
of players by name.

The arena keeps one Elo rating per player (``users.rating``, moved after
every rated game by :func:`qisai.store.repo.record_ratings`).  A
leaderboard of one game and one family ranks the players by what their
rated games of that game and family brought them: the start rating 1500
plus the sum of those games' rating changes, with the number of games.
A game's family is stored with it when it is made (``settings["family"]``,
:mod:`qisai.referee.time_families`); games made before that are in no board.

Both are public and read-only; both are bounded (page size, page number,
query length) and never list guests.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from qisai.store.models import Game, RatingChange, Role, User

__all__ = ["START_RATING", "leaderboard", "search_players"]

START_RATING = 1500.0
"""A new player's rating (``users.rating``'s default)."""


def _player(u: User) -> dict[str, Any]:
    return {"id": u.id, "name": u.username, "display_name": u.display_name,
            "rating": round(u.rating)}


def leaderboard(s: Session, kind: str, family: str, *, offset: int, limit: int
                ) -> tuple[list[dict[str, Any]], int]:
    """Return one page of the leaderboard of ``kind`` and ``family``
    (rank, player, rating in that family, games) and how many players it
    has."""
    gain = func.sum(RatingChange.after - RatingChange.before)
    games = func.count(RatingChange.id)
    fam = Game.settings["family"].as_string()
    base = (select(RatingChange.user_id, gain.label("gain"), games.label("games"))
            .join(Game, Game.id == RatingChange.game_id)
            .where(Game.kind == kind, fam == family)
            .group_by(RatingChange.user_id))
    total = s.scalar(select(func.count()).select_from(base.subquery())) or 0
    rows = s.execute(base.order_by(gain.desc(), games.desc(), RatingChange.user_id)
                     .offset(offset).limit(limit)).all()
    users = {u.id: u for u in s.scalars(select(User).where(User.id.in_([r[0] for r in rows])))}
    out = []
    for i, (uid, g, n) in enumerate(rows):
        u = users.get(uid)
        if u is None:  # pragma: no cover - rating changes go with their user
            continue
        out.append({"rank": offset + i + 1, **_player(u),
                    "family_rating": round(START_RATING + float(g or 0.0)), "games": int(n)})
    return out, int(total)


def _like(text: str) -> str:
    # The user's % and _ are letters here, not wildcards.
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def search_players(s: Session, query: str, *, offset: int, limit: int
                   ) -> tuple[list[dict[str, Any]], int]:
    """Return one page of the players whose user name or display name
    contains ``query`` (case-insensitive; names that start with it first,
    then by name) and how many there are.  Guests are not listed."""
    q = query.strip().lower()
    pattern = f"%{_like(q)}%"
    prefix = f"{_like(q)}%"
    name, shown = func.lower(User.username), func.lower(User.display_name)
    where = ((name.like(pattern, escape="\\") | shown.like(pattern, escape="\\"))
             & (User.role != Role.GUEST.value))
    total = s.scalar(select(func.count()).select_from(User).where(where)) or 0
    starts = case((name.like(prefix, escape="\\") | shown.like(prefix, escape="\\"), 0),
                  else_=1)
    rows = s.scalars(select(User).where(where).order_by(starts, name, User.id)
                     .offset(offset).limit(limit))
    return [_player(u) for u in rows], int(total)
