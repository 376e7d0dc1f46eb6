"""Repository functions: every read and write the server makes.

Each function takes an open :class:`sqlalchemy.orm.Session`.  Functions that
write commit before they return, so that what the caller acknowledges next is
durable.  Errors are :class:`qisai.store.errors.NotFoundError` (a missing
row) and :class:`qisai.store.errors.ConflictError` (a race or a taken name).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from sqlalchemy import Select, Table, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from qisai.store.confusables import name_keys
from qisai.store.errors import ConflictError, NotFoundError
from qisai.store.models import (
    EventStaff,
    Game,
    GameEvent,
    GameStatus,
    Pairing,
    RatingChange,
    Role,
    Round,
    SessionToken,
    Team,
    Tournament,
    TournamentEntry,
    User,
    UserNameKey,
    utcnow,
)

__all__ = [
    "NewEvent",
    "add_entries",
    "add_entry",
    "find_lookalike",
    "note_failed_login",
    "take_failed_logins",
    "append_events",
    "count_role",
    "entry_users",
    "event_staff",
    "remove_staff",
    "set_staff",
    "create_game",
    "create_guest",
    "create_round",
    "create_rounds",
    "round_games",
    "create_session",
    "create_tournament",
    "create_user",
    "delete_session",
    "elo_update",
    "find_pairing",
    "find_user",
    "games_of_round",
    "get_pairing",
    "get_game",
    "get_tournament",
    "get_user",
    "list_entries",
    "games_where",
    "list_games",
    "list_rounds",
    "list_tournaments",
    "load_events",
    "new_game_id",
    "rating_history",
    "save_tournament",
    "record_ratings",
    "seat_player",
    "session_user",
    "set_pairing_result",
    "set_password_hash",
    "set_role",
]


SelectT = TypeVar("SelectT", bound=Select[Any])
"""A select of games or of their columns (:func:`games_where`)."""


# ------------------------------------------------------------------- users
def create_user(s: Session, username: str, *, password_hash: str | None,
                role: Role = Role.PLAYER, display_name: str | None = None) -> User:
    """Create and commit a user; returns it.

    Raises :class:`ConflictError` if ``username`` is taken (compared
    case-insensitively).
    """
    if find_user(s, username) is not None:
        raise ConflictError(f"user name {username!r} is taken")
    user = User(username=username, display_name=display_name or username,
                password_hash=password_hash, role=role.value)
    s.add(user)
    if password_hash is not None:  # guests', groups' and engines' names are the server's
        s.flush()
        s.add_all(UserNameKey(user_id=user.id, key=k) for k in name_keys(username))
    try:
        s.commit()
    except IntegrityError as exc:
        s.rollback()
        raise ConflictError(f"user name {username!r} is taken") from exc
    return user


def create_guest(s: Session) -> User:
    """Create and commit a guest (no password, role ``guest``); returns it."""
    for _ in range(5):
        name = "guest-" + secrets.token_hex(4)
        if find_user(s, name) is None:
            return create_user(s, name, password_hash=None, role=Role.GUEST,
                               display_name="Guest " + name[6:])
    raise ConflictError("could not find a free guest name")  # pragma: no cover


def find_user(s: Session, username: str) -> User | None:
    """Return the user named ``username`` (case-insensitive), or ``None``."""
    return s.scalars(select(User).where(func.lower(User.username) == username.lower())).first()


def find_lookalike(s: Session, name: str, exclude_id: int | None = None) -> User | None:
    """Return an account (other than ``exclude_id``) whose user name looks
    like ``name``: their confusable skeletons meet (UTS #39,
    :func:`qisai.store.confusables.name_keys`), or ``None``."""
    query = (select(User).join(UserNameKey, UserNameKey.user_id == User.id)
             .where(UserNameKey.key.in_(sorted(name_keys(name)))))
    if exclude_id is not None:
        query = query.where(User.id != exclude_id)
    return s.scalars(query.limit(1)).first()


def note_failed_login(s: Session, user_id: int) -> None:
    """Count one wrong password given for account ``user_id`` (told to its
    owner at his next log-in: :func:`take_failed_logins`) and commit."""
    # one UPDATE: concurrent wrong passwords each count
    s.execute(update(User).where(User.id == user_id).values(
        failed_logins=User.failed_logins + 1,
        failed_logins_since=func.coalesce(User.failed_logins_since, utcnow())))
    s.commit()


def take_failed_logins(s: Session, user: User) -> tuple[int, dt.datetime | None]:
    """Return the wrong passwords counted for ``user`` since his last log-in
    (how many, since when) and reset the count, committing only when
    there was one."""
    s.refresh(user)  # the wrong passwords counted while his own was being checked
    count, since = user.failed_logins or 0, user.failed_logins_since
    if count:
        user.failed_logins, user.failed_logins_since = 0, None
        s.commit()
    return count, since


def set_password_hash(s: Session, user_id: int, password_hash: str) -> None:
    """Store a new password hash for user ``user_id`` (a rehash at log-in)."""
    user = get_user(s, user_id)
    user.password_hash = password_hash
    s.commit()


def get_user(s: Session, user_id: int) -> User:
    """Return user ``user_id``.  Raises :class:`NotFoundError` if there is none."""
    user = s.get(User, user_id)
    if user is None:
        raise NotFoundError(f"no user with id {user_id}")
    return user


def set_role(s: Session, user_id: int, role: Role) -> User:
    """Give user ``user_id`` the role ``role`` and commit; returns the user.

    Raises :class:`NotFoundError` if there is no such user, and
    :class:`ConflictError` if he is the site's last administrator and
    ``role`` is not ``admin`` (the site always keeps one).
    """
    user = get_user(s, user_id)
    if (user.role == Role.ADMIN.value and role is not Role.ADMIN
            and count_role(s, Role.ADMIN) <= 1):
        raise ConflictError(f"{user.username} is the site's last administrator: make another "
                            "administrator first")
    user.role = role.value
    s.commit()
    return user


def count_role(s: Session, role: Role) -> int:
    """Return how many users have ``role``."""
    return int(s.scalar(select(func.count()).select_from(User).where(User.role == role.value))
               or 0)


# ------------------------------------------------------------- event staff
def event_staff(s: Session, tournament_id: int) -> list[EventStaff]:
    """Return the staff appointed to event ``tournament_id``, first appointed first."""
    return list(s.scalars(select(EventStaff).where(EventStaff.tournament_id == tournament_id)
                          .order_by(EventStaff.id)))


def set_staff(s: Session, tournament_id: int, user_id: int, role: str,
              by: int | None) -> EventStaff:
    """Appoint user ``user_id`` to event ``tournament_id``'s staff as ``role``
    (or change his part) and commit; returns the appointment.  Raises
    :class:`NotFoundError` for an unknown user."""
    get_user(s, user_id)
    found = s.scalar(select(EventStaff).where(EventStaff.tournament_id == tournament_id,
                                              EventStaff.user_id == user_id))
    if found is None:
        found = EventStaff(tournament_id=tournament_id, user_id=user_id, role=role,
                           appointed_by_id=by)
        s.add(found)
    else:
        found.role = role
        found.appointed_by_id = by
    s.commit()
    return found


def remove_staff(s: Session, tournament_id: int, user_id: int) -> bool:
    """Remove user ``user_id`` from event ``tournament_id``'s staff and
    commit; returns whether he was on it."""
    found = s.scalar(select(EventStaff).where(EventStaff.tournament_id == tournament_id,
                                              EventStaff.user_id == user_id))
    if found is None:
        return False
    s.delete(found)
    s.commit()
    return True


def entry_users(s: Session, entry_ids: Sequence[int | None]) -> set[int]:
    """Return the accounts of the entries ``entry_ids`` (``None`` ids and
    entries without an account are left out)."""
    ids = [i for i in entry_ids if i is not None]
    if not ids:
        return set()
    return {u for u in s.scalars(select(TournamentEntry.user_id)
                                 .where(TournamentEntry.id.in_(ids))) if u is not None}


# ---------------------------------------------------------------- sessions
def _hash_token(token: str, pepper: bytes) -> str:
    # Keyed with the server's secret (kept in the data folder, not the
    # database): a copy of the database alone cannot even check a token.
    return hmac.new(pepper, token.encode(), hashlib.sha256).hexdigest()


def create_session(s: Session, user_id: int, ttl: dt.timedelta, pepper: bytes = b""
                   ) -> tuple[str, str]:
    """Open a log-in session for ``user_id`` lasting ``ttl``; commit.
    ``pepper`` keys the stored token hash (the server's secret key).

    Returns ``(token, csrf_token)``: the token goes in the cookie (only its
    hash is stored), the CSRF token in pages and request headers.
    """
    token = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(32)
    s.add(SessionToken(token_hash=_hash_token(token, pepper), user_id=user_id, csrf_token=csrf,
                       expires_at=utcnow() + ttl))
    s.commit()
    return token, csrf


def session_user(s: Session, token: str, pepper: bytes = b"") -> tuple[User, str] | None:
    """Return ``(user, csrf_token)`` of a live session, or ``None`` if the
    token is unknown or expired (an expired session is deleted)."""
    row = s.get(SessionToken, _hash_token(token, pepper))
    if row is None:
        return None
    expires = row.expires_at
    if expires.tzinfo is None:  # SQLite drops the zone; stored values are UTC
        expires = expires.replace(tzinfo=dt.UTC)
    if expires <= utcnow():
        s.delete(row)
        s.commit()
        return None
    return row.user, row.csrf_token


def delete_session(s: Session, token: str, pepper: bytes = b"") -> None:
    """End a session (log out) and commit; unknown tokens are ignored."""
    row = s.get(SessionToken, _hash_token(token, pepper))
    if row is not None:
        s.delete(row)
        s.commit()


# ------------------------------------------------------------------- games
def new_game_id() -> str:
    """Return a fresh random game id (10 URL-safe characters)."""
    return secrets.token_urlsafe(8)[:10]


def create_game(s: Session, *, kind: str, ruleset: str, settings: dict[str, Any],
                first_user_id: int | None, second_user_id: int | None,
                created_by_id: int | None, rated: bool = False, engine: str | None = None,
                pairing_id: int | None = None) -> Game:
    """Create and commit a game; returns it.  Its status is ``waiting``
    unless both seats are filled (or an engine takes the open one), then
    ``active``."""
    full = (first_user_id is not None or engine is not None) and (
        second_user_id is not None or engine is not None)
    game = Game(id=new_game_id(), kind=kind, ruleset=ruleset, settings=settings,
                first_user_id=first_user_id, second_user_id=second_user_id,
                created_by_id=created_by_id, rated=rated, engine=engine, pairing_id=pairing_id,
                status=(GameStatus.ACTIVE if full else GameStatus.WAITING).value,
                started_at=utcnow() if full else None, event_count=0, move_count=0)
    s.add(game)
    s.commit()
    return game


def get_game(s: Session, game_id: str) -> Game:
    """Return game ``game_id``.  Raises :class:`NotFoundError` if there is none."""
    game = s.get(Game, game_id)
    if game is None:
        raise NotFoundError(f"no game with id {game_id!r}")
    return game


def seat_player(s: Session, game_id: str, side: int, user_id: int) -> Game:
    """Put ``user_id`` in the open seat ``side`` (0 first mover, 1 second) of
    a waiting game, make it active and commit; returns the game.

    The update is conditional on the seat still being empty, so two people
    joining at once cannot both get it.  Raises :class:`NotFoundError` for
    an unknown game and :class:`ConflictError` if the seat is taken or the
    game is not waiting.
    """
    get_game(s, game_id)
    column = Game.first_user_id if side == 0 else Game.second_user_id
    values: dict[str, Any] = {"status": GameStatus.ACTIVE.value, "started_at": utcnow()}
    values["first_user_id" if side == 0 else "second_user_id"] = user_id
    res = s.execute(update(Game).where(Game.id == game_id, column.is_(None),
                                       Game.status == GameStatus.WAITING.value).values(**values))
    if res.rowcount != 1:  # type: ignore[attr-defined]
        s.rollback()
        raise ConflictError(f"game {game_id}: seat {side} is already taken or the game has started")
    s.commit()
    game = get_game(s, game_id)
    s.refresh(game)
    return game


@dataclass(frozen=True)
class NewEvent:
    """An event to append: what the referee emitted, plus who and when."""

    kind: str
    at_ms: int
    side: int | None = None
    ply: int | None = None
    actor_id: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


_GAMES = cast(Table, Game.__table__)
_EVENTS = cast(Table, GameEvent.__table__)
_BUMP_MOVE = (update(_GAMES)
              .where(_GAMES.c.id == bindparam("b_id"),
                     _GAMES.c.event_count == bindparam("b_expected"))
              .values(event_count=bindparam("b_count"), move_count=bindparam("b_moves")))
"""The common case, one statement shape (compiled once): a move."""
_INSERT_EVENTS = _EVENTS.insert()


def append_events(s: Session, game_id: str, expected_count: int, events: Sequence[NewEvent], *,
                  move_count: int | None = None, status: GameStatus | None = None,
                  result: dict[str, Any] | None = None, result_code: str | None = None,
                  release_plies_above: int | None = None) -> list[int]:
    """Append ``events`` to the log of ``game_id`` and commit, in one
    transaction; returns their numbers (``expected_count + 1`` onwards).

    ``expected_count`` is the number of events the caller's copy of the game
    has seen: if another writer appended meanwhile, nothing is written and
    :class:`ConflictError` is raised (the caller reloads and retries).  The
    optional keywords update the game's cached move count, status and result
    in the same transaction.  ``release_plies_above``: a takeback (casual
    games) undid the moves past that ply; their events stay in the log but
    give up their ply numbers, so the moves played again in their place can
    take them (the ply stays unique per game among moves that stand).
    Raises :class:`NotFoundError` for an unknown game.
    """
    new_count = expected_count + len(events)
    # Core statements on the session's connection: this runs once per move,
    # and the ORM's unit of work would cost more than the commit itself.
    conn = s.connection()
    try:
        written: dict[str, Any] = {"event_count": new_count}
        if status is None and result is None and result_code is None and move_count is not None:
            res = conn.execute(_BUMP_MOVE, {"b_id": game_id, "b_expected": expected_count,
                                            "b_count": new_count, "b_moves": move_count})
            written["move_count"] = move_count
        else:
            values: dict[str, Any] = {"event_count": new_count}
            if move_count is not None:
                values["move_count"] = move_count
            if status is not None:
                values["status"] = status.value
                if status in (GameStatus.FINISHED, GameStatus.ABORTED):
                    values["ended_at"] = utcnow()
            if result is not None:
                values["result"] = result
            if result_code is not None:
                values["result_code"] = result_code
            res = conn.execute(update(_GAMES).where(_GAMES.c.id == game_id,
                                                    _GAMES.c.event_count == expected_count)
                               .values(**values))
            written = values
        if res.rowcount != 1:
            s.rollback()
            get_game(s, game_id)
            raise ConflictError(f"game {game_id}: the log has moved past event {expected_count}")
        seqs = list(range(expected_count + 1, new_count + 1))
        if release_plies_above is not None:
            conn.execute(update(_EVENTS).where(_EVENTS.c.game_id == game_id,
                                               _EVENTS.c.ply > release_plies_above)
                         .values(ply=None))
        if events:
            conn.execute(_INSERT_EVENTS, [
                {"game_id": game_id, "seq": seq, "kind": e.kind, "side": e.side, "ply": e.ply,
                 "at_ms": e.at_ms, "actor_id": e.actor_id, "data": dict(e.data)}
                for seq, e in zip(seqs, events, strict=True)])
        s.commit()
    except IntegrityError as exc:
        s.rollback()
        raise ConflictError(f"game {game_id}: event {expected_count + 1} already exists") from exc
    # Keep a Game row this session holds in step with what was written.
    cached = s.identity_map.get(identity_key(Game, game_id))
    if cached is not None:
        for name, value in written.items():
            set_committed_value(cached, name, value)
    return seqs


def load_events(s: Session, game_id: str, after_seq: int = 0) -> list[GameEvent]:
    """Return the events of ``game_id`` numbered above ``after_seq``, in order."""
    return list(s.scalars(select(GameEvent).where(GameEvent.game_id == game_id,
                                                  GameEvent.seq > after_seq)
                          .order_by(GameEvent.seq)))


def games_where(q: SelectT, *, status: GameStatus | None = None, user_id: int | None = None,
                kind: str | None = None) -> SelectT:
    """Return the select ``q`` (of games, or of their columns) narrowed to
    the games of ``status``, played by ``user_id`` and of ``kind``, each
    filter only when given."""
    if status is not None:
        q = q.where(Game.status == status.value)
    if user_id is not None:
        q = q.where(or_(Game.first_user_id == user_id, Game.second_user_id == user_id))
    if kind is not None:
        q = q.where(Game.kind == kind)
    return q


def list_games(s: Session, *, status: GameStatus | None = None, user_id: int | None = None,
               kind: str | None = None, limit: int = 50) -> list[Game]:
    """Return games, newest first, filtered by status, player and kind."""
    q = games_where(select(Game).order_by(Game.created_at.desc()).limit(limit),
                    status=status, user_id=user_id, kind=kind)
    return list(s.scalars(q).unique())


# ----------------------------------------------------------------- ratings
def elo_update(first: float, second: float, score_first: float, k: float = 20.0
               ) -> tuple[float, float]:
    """Return the new ratings of two players after a game in which the first
    scored ``score_first`` (1, 0.5 or 0), by :func:`qisai.competition.elo.update`.

    Raises :class:`qisai.competition.errors.CompetitionError` for a score
    outside 0..1 or ``k`` <= 0.

    >>> elo_update(1500, 1500, 1.0)
    (1510.0, 1490.0)
    """
    from qisai.competition.elo import update

    return (update(first, [(second, score_first)], k),
            update(second, [(first, 1.0 - score_first)], k))


def record_ratings(s: Session, game_id: str, score_first: float, k: float = 20.0) -> None:
    """Update both players' ratings after rated game ``game_id`` and record
    the changes; commit.  Does nothing for an unrated game or one without two
    human players.  Raises :class:`NotFoundError` for an unknown game."""
    game = get_game(s, game_id)
    if not game.rated or game.first_user_id is None or game.second_user_id is None:
        return
    a, b = get_user(s, game.first_user_id), get_user(s, game.second_user_id)
    new_a, new_b = elo_update(a.rating, b.rating, score_first, k)
    s.add_all([RatingChange(user_id=a.id, game_id=game_id, before=a.rating, after=new_a),
               RatingChange(user_id=b.id, game_id=game_id, before=b.rating, after=new_b)])
    a.rating, b.rating = new_a, new_b
    s.commit()


def rating_history(s: Session, user_id: int) -> list[RatingChange]:
    """Return the rating changes of ``user_id``, oldest first."""
    return list(s.scalars(select(RatingChange).where(RatingChange.user_id == user_id)
                          .order_by(RatingChange.id)))


# ------------------------------------------------------------- tournaments
def create_tournament(s: Session, *, name: str, kind: str, format: str, ruleset: str,
                      organiser_id: int, settings: dict[str, Any] | None = None) -> Tournament:
    """Create and commit a tournament; returns it."""
    t = Tournament(name=name, kind=kind, format=format, ruleset=ruleset,
                   organiser_id=organiser_id, settings=settings or {})
    s.add(t)
    s.commit()
    return t


def get_tournament(s: Session, tournament_id: int) -> Tournament:
    """Return tournament ``tournament_id``.  Raises :class:`NotFoundError`."""
    t = s.get(Tournament, tournament_id)
    if t is None:
        raise NotFoundError(f"no tournament with id {tournament_id}")
    return t


def list_tournaments(s: Session, limit: int = 50) -> list[Tournament]:
    """Return tournaments, newest first."""
    return list(s.scalars(select(Tournament).order_by(Tournament.id.desc()).limit(limit)))


def add_entry(s: Session, tournament_id: int, name: str, *, user_id: int | None = None,
              rating: float | None = None, team: str | None = None,
              number: int | None = None) -> TournamentEntry:
    """Register a player (in ``team`` for a team event) with pairing number
    ``number`` (default the next one); commit and return the entry.

    Raises :class:`NotFoundError` for an unknown tournament and
    :class:`ConflictError` if the user is already registered.
    """
    get_tournament(s, tournament_id)
    if user_id is not None and s.scalars(select(TournamentEntry).where(
            TournamentEntry.tournament_id == tournament_id,
            TournamentEntry.user_id == user_id)).first() is not None:
        raise ConflictError(f"tournament {tournament_id}: user {user_id} is already registered")
    team_id = None
    if team:
        row = s.scalars(select(Team).where(Team.tournament_id == tournament_id,
                                           Team.name == team)).first()
        if row is None:
            row = Team(tournament_id=tournament_id, name=team)
            s.add(row)
            s.flush()
        team_id = row.id
    if number is None:
        number = (s.scalar(select(func.max(TournamentEntry.number))
                           .where(TournamentEntry.tournament_id == tournament_id)) or 0) + 1
    entry = TournamentEntry(tournament_id=tournament_id, number=number, name=name,
                            user_id=user_id, rating=rating, team_id=team_id)
    s.add(entry)
    try:
        s.commit()
    except IntegrityError as exc:
        s.rollback()
        raise ConflictError(f"tournament {tournament_id}: pairing number {number} taken") from exc
    return entry


def save_tournament(s: Session, tournament_id: int, *, settings: dict[str, Any] | None = None,
                    status: str | None = None) -> Tournament:
    """Replace a tournament's settings and/or status; commit and return it.

    Raises :class:`NotFoundError` for an unknown tournament.
    """
    t = get_tournament(s, tournament_id)
    if settings is not None:
        t.settings = dict(settings)
    if status is not None:
        t.status = status
    s.commit()
    return t


def get_pairing(s: Session, pairing_id: int) -> tuple[Pairing, Round]:
    """Return a pairing and its round.  Raises :class:`NotFoundError`."""
    p = s.get(Pairing, pairing_id)
    if p is None:
        raise NotFoundError(f"no pairing with id {pairing_id}")
    rnd = s.get(Round, p.round_id)
    assert rnd is not None
    return p, rnd


def find_pairing(s: Session, tournament_id: int, round_number: int, board: int) -> Pairing:
    """Return board ``board`` of round ``round_number``.  Raises
    :class:`NotFoundError` if there is no such board."""
    p = s.scalars(select(Pairing).join(Round, Pairing.round_id == Round.id).where(
        Round.tournament_id == tournament_id, Round.number == round_number,
        Pairing.board == board)).first()
    if p is None:
        raise NotFoundError(f"tournament {tournament_id}: no board {board} in round {round_number}")
    return p


def games_of_round(s: Session, round_id: int) -> dict[int, str]:
    """Return ``{pairing id: game id}`` for the server games of a round."""
    rows = s.execute(select(Game.pairing_id, Game.id).join(Pairing, Game.pairing_id == Pairing.id)
                     .where(Pairing.round_id == round_id))
    return {int(pid): gid for pid, gid in rows if pid is not None}


def round_games(s: Session, tournament_id: int, number: int) -> dict[int, str]:
    """Return ``{board: game id}`` for the server games of round ``number``
    of a tournament (one query, whatever the number of rounds)."""
    rows = s.execute(select(Pairing.board, Game.id)
                     .join(Game, Game.pairing_id == Pairing.id)
                     .join(Round, Pairing.round_id == Round.id)
                     .where(Round.tournament_id == tournament_id, Round.number == number))
    return {int(board): gid for board, gid in rows}


def list_entries(s: Session, tournament_id: int) -> list[TournamentEntry]:
    """Return the entries of a tournament by pairing number."""
    return list(s.scalars(select(TournamentEntry).where(
        TournamentEntry.tournament_id == tournament_id).order_by(TournamentEntry.number)))


def create_round(s: Session, tournament_id: int, number: int,
                 boards: Sequence[tuple[int, int | None]]) -> Round:
    """Store round ``number`` with its pairings, given as ``(first entry
    number, second entry number or None for a bye)`` per board; commit.

    Raises :class:`NotFoundError` for an unknown tournament or entry number
    and :class:`ConflictError` if the round exists.
    """
    get_tournament(s, tournament_id)
    by_number = {e.number: e.id for e in list_entries(s, tournament_id)}
    rnd = Round(tournament_id=tournament_id, number=number)
    s.add(rnd)
    try:
        s.flush()
    except IntegrityError as exc:
        s.rollback()
        raise ConflictError(f"tournament {tournament_id}: round {number} exists") from exc
    for board, (a, b) in enumerate(boards, start=1):
        for n in (a, b):
            if n is not None and n not in by_number:
                s.rollback()
                raise NotFoundError(f"tournament {tournament_id}: no entry number {n}")
        s.add(Pairing(round_id=rnd.id, board=board, first_entry_id=by_number[a],
                      second_entry_id=None if b is None else by_number[b],
                      result="bye" if b is None else None,
                      result_source="pairing" if b is None else None))
    s.commit()
    return rnd


def add_entries(s: Session, tournament_id: int,
                entries: Sequence[tuple[int, str, float | None, str | None]]) -> None:
    """Register many entries at once, each ``(number, name, rating, team)``
    (a team's row made when first named), in one transaction: an import
    of 2,000 entries is one commit, not 2,000.

    Raises :class:`NotFoundError` for an unknown tournament and
    :class:`ConflictError` (nothing stored) if a pairing number is taken.
    """
    get_tournament(s, tournament_id)
    teams = {t.name: t.id for t in s.scalars(select(Team).where(
        Team.tournament_id == tournament_id))}
    for _, _, _, team in entries:
        if team and team not in teams:
            row = Team(tournament_id=tournament_id, name=team)
            s.add(row)
            s.flush()
            teams[team] = row.id
    rows = [{"tournament_id": tournament_id, "number": number, "name": name, "rating": rating,
             "team_id": teams[team] if team else None, "user_id": None}
            for number, name, rating, team in entries]
    try:
        if rows:  # one executemany, not an object an entry
            s.execute(insert(TournamentEntry), rows)
        s.commit()
    except IntegrityError as exc:
        s.rollback()
        raise ConflictError(f"tournament {tournament_id}: a pairing number is taken") from exc


def create_rounds(s: Session, tournament_id: int,
                  rounds: Sequence[tuple[int, Sequence[tuple[int, int | None, str | None]]]],
                  source: str) -> None:
    """Store many rounds at once, each ``(number, boards)`` with a board
    ``(first entry number, second entry number or None for a bye, result
    or None)`` (results from ``source``), in one transaction.  As
    :func:`create_round` for each, and :func:`set_pairing_result` for each
    result, but one commit.

    Raises :class:`NotFoundError` for an unknown tournament or entry number
    and :class:`ConflictError` if a round exists; nothing is stored then.
    """
    get_tournament(s, tournament_id)
    by_number = {e.number: e.id for e in list_entries(s, tournament_id)}
    try:
        made = [Round(tournament_id=tournament_id, number=number) for number, _ in rounds]
        s.add_all(made)
        s.flush()  # their ids
        rows: list[dict[str, Any]] = []
        for rnd, (_, boards) in zip(made, rounds, strict=True):
            for board, (a, b, result) in enumerate(boards, start=1):
                for n in (a, b):
                    if n is not None and n not in by_number:
                        raise NotFoundError(f"tournament {tournament_id}: no entry number {n}")
                rows.append({"round_id": rnd.id, "board": board,
                             "first_entry_id": by_number[a],
                             "second_entry_id": None if b is None else by_number[b],
                             "result": "bye" if b is None else result,
                             "result_source": "pairing" if b is None else None
                             if result is None else source})
        if rows:  # one executemany, not an object a board (50,000 boards for a big import)
            s.execute(insert(Pairing), rows)
        s.commit()
    except IntegrityError as exc:
        s.rollback()
        raise ConflictError(f"tournament {tournament_id}: a round exists") from exc
    except NotFoundError:
        s.rollback()
        raise


def list_rounds(s: Session, tournament_id: int) -> list[tuple[Round, list[Pairing]]]:
    """Return each round of a tournament with its pairings by board."""
    rounds = list(s.scalars(select(Round).where(Round.tournament_id == tournament_id)
                            .order_by(Round.number)))
    out = []
    for r in rounds:
        pairings = list(s.scalars(select(Pairing).where(Pairing.round_id == r.id)
                                  .order_by(Pairing.board)))
        out.append((r, pairings))
    return out


def set_pairing_result(s: Session, pairing_id: int, result: str, source: str) -> Pairing:
    """Record the result of a board (``1-0``, ``0-1``, ``=-=`` ...) and where
    it came from (``server``, ``otb``, ``arbiter``); commit.

    Raises :class:`NotFoundError` for an unknown pairing.
    """
    p = s.get(Pairing, pairing_id)
    if p is None:
        raise NotFoundError(f"no pairing with id {pairing_id}")
    p.result, p.result_source = result, source
    s.commit()
    return p
