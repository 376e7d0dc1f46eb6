"""Database tables, as SQLAlchemy 2 declarative models.

The game record is an append-only event log (:class:`GameEvent`): one row per
referee event (move, pass, offer, claim, foul, flag, verdict ...), numbered
``seq`` 1, 2, 3 ... within its game.  ``(game_id, seq)`` is unique, so two
server processes can never both append event ``n``: the second one gets a
:class:`qisai.store.errors.ConflictError` and reloads.  A game is rebuilt by
replaying its events through the referee.

Schema changes go through Alembic (``qisai/store/migrations``); a test checks
that the migrations produce exactly these models.
"""

from __future__ import annotations

import datetime as dt
import enum
import secrets
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "Base",
    "EventStaff",
    "Game",
    "GameEvent",
    "GameStatus",
    "GroupBallot",
    "Pairing",
    "RatingChange",
    "Role",
    "Round",
    "SessionToken",
    "Simul",
    "StaffRole",
    "Team",
    "Tournament",
    "TournamentEntry",
    "User",
    "new_revision",
    "utcnow",
]

# Stable constraint names, so migrations can alter them on every backend.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> dt.datetime:
    """Return the current time, timezone-aware UTC."""
    return dt.datetime.now(dt.UTC)


class Base(DeclarativeBase):
    """Declarative base of every qisai table."""

    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, dt.datetime: DateTime(timezone=True)}


class Role(enum.StrEnum):
    """What a user may do on the site.  Roles are cumulative by rank: an
    administrator may do what an organiser may, an organiser what an arbiter
    may, an arbiter what a player may.

    * ``admin``: the site's administrators; only they grant or revoke roles,
      and the site always keeps one;
    * ``organiser``: creates events, and appoints the staff of his own events
      (:class:`EventStaff`);
    * ``arbiter``: a site arbiter, appointed by an administrator: rules on
      casual games (never one he plays in).  An event's arbiters are
      appointed per event (:class:`EventStaff`), whatever their site role.
    """

    GUEST = "guest"
    PLAYER = "player"
    ARBITER = "arbiter"
    ORGANISER = "organiser"
    ADMIN = "admin"

    @property
    def rank(self) -> int:
        """Return the order of the role (guest 0 < player < arbiter < organiser < admin)."""
        return list(Role).index(self)

    def allows(self, needed: Role) -> bool:
        """Return whether this role includes ``needed``."""
        return self.rank >= needed.rank


class GameStatus(enum.StrEnum):
    """Life of a game on the server."""

    WAITING = "waiting"
    """Created, the second seat is open (an invitation or a seek)."""
    ACTIVE = "active"
    """Both seats taken; the clock runs."""
    FINISHED = "finished"
    """The referee gave a result."""
    ABORTED = "aborted"
    """Cancelled before it started."""


class User(Base):
    """An account, or a guest (``role == 'guest'``, no password)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(40), unique=True)
    display_name: Mapped[str] = mapped_column(String(80))
    password_hash: Mapped[str | None] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default=Role.PLAYER.value)
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    language: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    failed_logins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Wrong passwords given for this account since its last log-in (told
    to the owner when he next logs in, then reset)."""
    failed_logins_since: Mapped[dt.datetime | None] = mapped_column()
    """When the first of :attr:`failed_logins` was given."""

    @property
    def role_enum(self) -> Role:
        """Return :attr:`role` as a :class:`Role`."""
        return Role(self.role)


class UserNameKey(Base):
    """One confusable skeleton of an account's user name (UTS #39:
    :func:`qisai.store.confusables.name_keys`); a name whose keys meet
    another account's is refused as a look-alike."""

    __tablename__ = "user_name_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    key: Mapped[str] = mapped_column(String(255), index=True)


class SessionToken(Base):
    """A log-in session.  Only the SHA-256 of the cookie's token is stored, so
    a database leak does not leak live sessions."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column()

    user: Mapped[User] = relationship(lazy="joined")


class Game(Base):
    """One game on the server.  ``id`` is a short random string, used in the
    invitation link.  ``first_user_id`` moves first (Red in Xiangqi, Black in
    Go).  The record is in :class:`GameEvent`; ``result`` caches the verdict
    (outcome, winner, reason, clause, explanations) once there is one."""

    __tablename__ = "games"
    __table_args__ = (
        # The home page's lists (open, live, finished games: newest first
        # of one status, repo.list_games) seek here and read 20 rows
        # instead of walking every game by date; it also serves every
        # lookup by status alone (the live boards), hence no index of
        # status by itself.
        Index("ix_games_status_created_at", "status", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    ruleset: Mapped[str] = mapped_column(String(32))
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    """Time control, start position, board size, komi overrides, engine."""
    status: Mapped[str] = mapped_column(String(16), default=GameStatus.WAITING.value)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    first_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    second_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    engine: Mapped[str | None] = mapped_column(String(64))
    """Name of the engine that holds the open seat, if any."""
    pairing_id: Mapped[int | None] = mapped_column(ForeignKey("pairings.id"))
    event_count: Mapped[int] = mapped_column(Integer, default=0)
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    result_code: Mapped[str | None] = mapped_column(String(8))
    """``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)
    started_at: Mapped[dt.datetime | None] = mapped_column()
    ended_at: Mapped[dt.datetime | None] = mapped_column()

    first_user: Mapped[User | None] = relationship(foreign_keys=[first_user_id], lazy="joined")
    second_user: Mapped[User | None] = relationship(foreign_keys=[second_user_id], lazy="joined")


class GameEvent(Base):
    """One event of a game's log.  ``at_ms`` is the wall-clock time in
    milliseconds since the epoch (the referee's time source on replay);
    ``ply`` is the move number a move event makes (for exactly-once moves):
    unique per game, so that two server processes can never both store a
    ply (issue 15; other events have none, and NULLs never collide)."""

    __tablename__ = "game_events"
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_game_events_game_seq"),
        Index("uq_game_events_game_ply", "game_id", "ply", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    side: Mapped[int | None] = mapped_column(Integer)
    """0 first mover, 1 second mover, ``None`` for the arbiter or the system."""
    ply: Mapped[int | None] = mapped_column(Integer)
    at_ms: Mapped[int] = mapped_column(BigInteger)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)


class RatingChange(Base):
    """One rating update after a rated game (for the profile's history plot)."""

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(default=utcnow)


def new_revision() -> str:
    """A fresh :attr:`Tournament.revision` (128 random bits, hex)."""
    return secrets.token_hex(16)


class Tournament(Base):
    """An event run by an organiser: its format (round robin, Swiss,
    knock-out, McMahon ...) and settings are data for :mod:`qisai.competition`."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(16))
    format: Mapped[str] = mapped_column(String(32))
    ruleset: Mapped[str] = mapped_column(String(32))
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default="registration")
    organiser_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    revision: Mapped[str] = mapped_column(String(32), default=new_revision,
                                          onupdate=new_revision, server_default="0")
    """A new random token at every write of the row (whatever the column,
    by any process: SQLAlchemy sets it in the same UPDATE), so a reader can
    tell that the row is unchanged by reading this short value alone, never
    the settings (the event's whole state, megabytes for a big event;
    issue 29).  Random, not a counter, so a row removed and made again
    under the same id never repeats the value a reader kept."""


class StaffRole(enum.StrEnum):
    """The part a user has in one event's staff."""

    ORGANISER = "organiser"
    """Runs the event (entries, pairing, publication, line-ups) and appoints
    its staff; the event's creator is always one."""
    CHIEF_ARBITER = "chief_arbiter"
    """裁判长: rules on the event, pairs and publishes its rounds."""
    ARBITER = "arbiter"
    """裁判员: rules on the event's games (results, corrections,
    withdrawals, decisions, fouls and warnings)."""


class EventStaff(Base):
    """A user appointed to one event's staff (``role``: a :class:`StaffRole`
    value), by whom and when.  The event's creator
    (``Tournament.organiser_id``) is an organiser of it without a row."""

    __tablename__ = "event_staff"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id",
                                       name="uq_event_staff_tournament_user"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"),
                                               index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(16))
    appointed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id",
                                                                   ondelete="SET NULL"))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    user: Mapped[User] = relationship(foreign_keys=[user_id], lazy="joined")


class Team(Base):
    """A team of a team event."""

    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("tournament_id", "name", name="uq_teams_tournament_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))


class TournamentEntry(Base):
    """A registered player (or team member) of an event; ``number`` is the
    pairing number (编号), 1-based."""

    __tablename__ = "tournament_entries"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number", name="uq_tournament_entries_tournament_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id"))
    rating: Mapped[float | None] = mapped_column(Float)
    withdrawn_after: Mapped[int | None] = mapped_column(Integer)
    """Round after which the entry withdrew, or ``None``."""


class Round(Base):
    """A round of an event."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number", name="uq_rounds_tournament_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    published: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class Pairing(Base):
    """A board of a round: two entries (``second_entry_id`` is ``None`` for a
    bye), the game played on the server if any, and the result (written from
    the first entry's side, as :class:`qisai.competition.model.Result`
    values) with where it came from (``server``, ``otb``, ``arbiter``)."""

    __tablename__ = "pairings"
    __table_args__ = (UniqueConstraint("round_id", "board", name="uq_pairings_round_board"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    board: Mapped[int] = mapped_column(Integer)
    first_entry_id: Mapped[int] = mapped_column(ForeignKey("tournament_entries.id"))
    second_entry_id: Mapped[int | None] = mapped_column(ForeignKey("tournament_entries.id"))
    result: Mapped[str | None] = mapped_column(String(8))
    result_source: Mapped[str | None] = mapped_column(String(16))
    notes: Mapped[str | None] = mapped_column(Text)


class Simul(Base):
    """A simultaneous display (同时对弈, 车轮战): its host, name and status
    for lists, and the display's whole state as
    :meth:`qisai.competition.simul.Simul.to_dict` data.  ``version`` grows
    with every save; a save is conditional on it, so two requests changing
    the same display at once cannot both win."""

    __tablename__ = "simuls"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(16))
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class GroupBallot(Base):
    """The open decisions of a consultation group (会商) playing one side of
    a game (issue 33 item 7): the ballot of the side's turn (its members'
    votes in order, the captain's confirmation, its deadline), the members
    counted absent, and the support of its motions (resign, draw) in the
    current position, as JSON (``data``; see
    :mod:`qisai.web.exhibitions.ballots`).  Kept here, not in a server's
    memory, so that a restarted server, or another one serving the game,
    counts the same votes (issue 30: the database is the truth).
    ``deadline`` is the open ballot's, for the tick that decides ballots
    whose reserve ran out (``None`` when none is open); ``version`` grows
    with every save, and a save is conditional on it, so two servers never
    both take the same vote or both play the group's move."""

    __tablename__ = "group_ballots"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    side: Mapped[str] = mapped_column(String(8), primary_key=True)
    """``first`` or ``second``."""
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    deadline: Mapped[float | None] = mapped_column(Float, index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
