"""The server games of an event: every game to be played is mirrored as a
:class:`~qisai.store.models.Pairing` row so that a server game can point at
it.  For individual events the mirror round is the event's round and the
board its board; for the others ``settings["mirror"]`` maps each mirror
round's boards to their place in the event (their key)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from qisai.competition import (
    CompetitionError,
    Tournament,
)
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.competition.match import MatchError, parse_time_control
from qisai.referee.clock import scheme_6_1, scheme_6_2, scheme_6_3, scheme_6_4
from qisai.store import NotFoundError, repo
from qisai.store.models import Pairing, Round, Team
from qisai.store.models import Tournament as TournamentRow
from qisai.web.events.event_json import games_by_key
from qisai.web.events.machines import ENGINE_SEAT, engine_account, engine_of
from qisai.web.events.model import Event, family, hidden_rounds, member_key

__all__ = ["LEAGUE_GAMES", "league_time", "mirror_result", "open_boards", "place_tags",
           "players_against", "players_at", "server_game", "team_accounts"]

LEAGUE_GAMES = {"slow": 1, "rapid": 2, "decider": 3}
"""The number of each game of a 2021-league team board (001).  Its server
games are keyed ``(round, match, board)`` for the slow game (the board's
own key, as a one-game board's) and ``(round, match, board, game)`` for the
rapid game and the decider."""

_SCHEMES = {"6.1": scheme_6_1, "6.2": scheme_6_2, "6.3": scheme_6_3, "6.4": scheme_6_4}


def league_time(text: str) -> dict[str, Any] | None:
    """Return the server clock (a game's ``settings["time"]``, as
    :func:`~qisai.web.play.referee_games.parse_time_control` reads it) of a
    2021-league game's time control written as the event keeps it
    (``1200``, ``300+3``, ``40/600:30/300`` ...; see
    :func:`qisai.competition.match.parse_time_control`); ``None`` for no
    clock.  A control of move counts is played as the rule book's scheme
    it equals (6.1-6.4; 6.3 and 6.4 are the league's rapid and deciding
    defaults).  Raises :class:`CompetitionError` naming the control for one
    the server's clock cannot play (another move-count scheme, a per-move
    limit)."""
    try:
        mt = parse_time_control(text)
    except MatchError as exc:
        raise CompetitionError(f"time control {text!r}: {exc}") from None
    if mt.control is None:
        return None
    side = mt.control.first
    for name, make in _SCHEMES.items():
        if side == make():
            return {"scheme": name}
    stage = side.stages[0]
    if len(side.stages) != 1 or stage.moves is not None or side.move_limit is not None:
        raise CompetitionError(
            f"time control {text!r}: the server plays a move-count control only as a "
            "scheme of 6.1-6.4, e.g. 40/600:30/300 (6.3) or 30/300 (6.4), or a "
            "sudden-death control, e.g. 1200 or 300+3")
    spec: dict[str, Any] = {"minutes": stage.seconds / 60, "increment": side.increment}
    if side.byoyomi is not None:
        by = side.byoyomi
        spec["byoyomi"] = {"kind": by.kind.value, "periods": by.periods,
                           "seconds": by.period_seconds, "moves": by.moves}
    return spec


def server_game(s: Session, row: TournamentRow, pairing_id: int, red_uid: int | str | None,
                black_uid: int | str | None, by: int | None, game_kind: str | None = None,
                place: dict[str, str] | None = None,
                times: dict[str, Any] | None = None) -> str | None:
    """Create the server game of a board when both players have accounts and
    the event plays online (with the time control of its kind of series
    game, if the event sets one: ``times``, else ``settings["times"]``; a
    kind timed ``None`` plays without a clock); return its id.  ``place``:
    the board's record tags in the event (``Round``, ``Board`` ...;
    :func:`place_tags`), kept with the event's name in
    ``settings["in_event"]`` for the record."""
    if not row.settings.get("online", True) or red_uid is None or black_uid is None:
        return None
    game_settings: dict[str, Any] = {k: v for k, v in row.settings.items() if k == "time"}
    # issue 33 item 10: the record names the event, its round and board
    game_settings["in_event"] = {"name": row.name, **(place or {})}
    per_kind = row.settings.get("times", {}) if times is None else times
    if game_kind is not None and game_kind in per_kind:
        if per_kind[game_kind] is None:
            game_settings.pop("time", None)
        else:
            game_settings["time"] = per_kind[game_kind]
    # 人机大战: a seat of an engine entrant is the hub's engine seat; of two
    # engines the second plays through an engine account (see machines.py).
    engine = None
    seats: list[int | None] = []
    for side, uid in (("first", red_uid), ("second", black_uid)):
        if not isinstance(uid, str):
            seats.append(uid)
            continue
        entrant = engine_of(row.settings, uid.removeprefix(ENGINE_SEAT))
        if entrant is None:
            return None
        if engine is None:
            engine = str(entrant["engine"])
            if entrant.get("opponent"):
                game_settings["opponent"] = entrant["opponent"]
            seats.append(None)
        else:
            seats.append(engine_account(s, game_settings, side, entrant))
    g = repo.create_game(s, kind=row.kind, ruleset=row.ruleset, settings=game_settings,
                         first_user_id=seats[0], second_user_id=seats[1], created_by_id=by,
                         rated=engine is None, pairing_id=pairing_id, engine=engine)
    return g.id


def place_tags(kind: str, key: tuple[int, ...] | list[int],
               teams: tuple[str, str] | None = None) -> dict[str, str]:
    """Return the PGN tags of a board's place in its event: ``individual``
    ``(round, board)``: Round and Board; ``knockout`` ``(round, match,
    game)``: Round ``round.game`` (PGN's sub-round for a match's games) and
    Board (the match's number, from 1); ``group`` ``(round, group, board)``:
    Round, Board and Section (the group, or the final); ``team`` ``(round, match, board)``: Round
    ``round.match``, Board and the teams (RedTeam, BlackTeam), and for a
    2021-league board's later game ``(round, match, board, game)`` Round
    ``round.match.game``."""
    k = [int(x) for x in key]
    if kind == "knockout":  # the match index counts from 0
        return {"Round": f"{k[0]}.{k[2]}", "Board": str(k[1] + 1)}
    if kind == "group":  # group 0 is the final
        section = f"第{k[1]}组 / group {k[1]}" if k[1] else "决赛 / final"
        return {"Round": str(k[0]), "Board": str(k[2]), "Section": section}
    if kind == "team":
        tags = {"Round": ".".join(str(x) for x in (k[0], k[1], *k[3:])), "Board": str(k[2])}
        if teams is not None:
            tags["RedTeam"], tags["BlackTeam"] = teams
        return tags
    return {"Round": str(k[0]), "Board": str(k[1])}


def _seats(row: TournamentRow) -> dict[str, int | str]:
    """The seat of each entrant of ``row`` that plays online: its account
    id, or ``engine:NAME`` for an engine entrant."""
    seats: dict[str, int | str] = {n: f"{ENGINE_SEAT}{n}" for n in row.settings.get("engines", {})}
    seats.update(row.settings.get("users", {}))
    return seats


def open_boards(s: Session, row: TournamentRow, ev: Event, round_no: int,
                by: int | None) -> list[str]:
    """Make the mirror boards and server games of a published round that do
    not exist yet (for a knock-out: the series games now due); return the
    new server games.  Saves the mirror map in the row."""
    users = _seats(row)
    created: list[str] = []
    if round_no in hidden_rounds(row):
        return created
    if isinstance(ev, Tournament):
        rec = ev.rounds[round_no - 1]
        mirror = {p.board: p for r, ps in repo.list_rounds(s, row.id) if r.number == round_no
                  for p in ps}
        have = set(games_by_key(s, row))
        for p in rec.pairings:
            if p.black is None or p.board in rec.results or (round_no, p.board) in have:
                continue
            gid = server_game(s, row, mirror[p.board].id, users.get(ev.player(p.red).name),
                               users.get(ev.player(p.black).name), by,
                               place=place_tags("individual", (round_no, p.board)))
            if gid:
                created.append(gid)
        return created
    # a copy to the keys: a 2021-league round's mirror grows a board at a time
    mirror_map: dict[str, list[list[int]]] = {
        n: [list(k) for k in keys] for n, keys in row.settings.get("mirror", {}).items()}
    known = {tuple(k) for keys in mirror_map.values() for k in keys}
    if isinstance(ev, KnockoutEvent):
        for slot in ev.next_games(round_no):
            if slot.key in known:
                continue
            number = max((int(k) for k in mirror_map), default=0) + 1
            repo.create_round(s, row.id, number, [(slot.red, slot.black)])
            mirror_map[str(number)] = [list(slot.key)]
            known.add(slot.key)
            pairing = repo.find_pairing(s, row.id, number, 1)
            gid = server_game(s, row, pairing.id, users.get(ev.player(slot.red).name),
                               users.get(ev.player(slot.black).name), by, slot.kind,
                               place=place_tags("knockout", slot.key))
            if gid:
                created.append(gid)
    elif isinstance(ev, GroupEvent):
        if str(round_no) in mirror_map:
            return created
        slots = ev.boards(round_no)
        # one mirror round holds the boards of every group (or of the final)
        repo.create_round(s, row.id, round_no, [(b.red, b.black or None) for b in slots])
        mirror_map[str(round_no)] = [list(b.key) for b in slots]
        names = {p.id: p.name for p in ev.players}
        for k, slot in enumerate(slots, start=1):
            if not slot.black or ev.result_of(*slot.key) is not None:
                continue
            pairing = repo.find_pairing(s, row.id, round_no, k)
            gid = server_game(s, row, pairing.id, users.get(names[slot.red]),
                               users.get(names[slot.black]), by,
                               place=place_tags("group", slot.key))
            if gid:
                created.append(gid)
    else:
        assert isinstance(ev, TeamEvent)
        if str(round_no) not in mirror_map:
            created += _team_round(s, row, ev, round_no, users, by, mirror_map)
        if ev.series == "league_2021":
            created += _league_games(s, row, ev, round_no, users, by, mirror_map)
    settings = dict(row.settings)
    settings["mirror"] = mirror_map
    repo.save_tournament(s, row.id, settings=settings)
    return created


def _league_times(ev: TeamEvent) -> dict[str, Any]:
    """The server clock of each game of a 2021-league board (:func:`league_time`);
    a control the server cannot play leaves its games to the arbiter."""
    out: dict[str, Any] = {}
    for kind, text in ev.times.items():
        try:
            out[kind] = league_time(text)
        except CompetitionError:
            continue
    return out


def _board_sides(ev: TeamEvent, round_no: int, match: int, board: int
                 ) -> dict[str, tuple[Any, str]]:
    """The team and member key of each player of a team board, by name."""
    tt = ev.team_tournament()
    m = ev.match(round_no, match)
    assert m.black_team is not None
    red_team, black_team = tt.team(m.red_team), tt.team(m.black_team)
    # the first-listed team has Red on odd boards (13.2)
    rt, bt = (red_team, black_team) if board % 2 == 1 else (black_team, red_team)
    _, red, black = ev.board_players(round_no, match)[board - 1]
    return {red: (rt, member_key(rt.name, red)), black: (bt, member_key(bt.name, black))}


def _team_round(s: Session, row: TournamentRow, ev: TeamEvent, round_no: int,
                users: dict[str, int | str], by: int | None,
                mirror_map: dict[str, list[list[int]]]) -> list[str]:
    """Mirror a team round's boards (one mirror board each) and make the
    server games of those without a result (a 2021-league board's slow
    game); return the new games."""
    numbers = ev.member_numbers()
    tt = ev.team_tournament()
    league = ev.series == "league_2021"
    times = _league_times(ev) if league else None
    keys: list[list[int]] = []
    boards: list[tuple[int, int | None]] = []
    owners: list[tuple[str, str]] = []
    sides: list[tuple[str, str]] = []  # the Red and Black boards' teams
    for m in tt.rounds[round_no - 1]:
        if m.black_team is None:
            continue
        for b, red, black in ev.board_players(round_no, m.board):
            seats = _board_sides(ev, round_no, m.board, b)
            (rt, red_key), (bt, black_key) = seats[red], seats[black]
            boards.append((numbers[(rt.id, red)], numbers[(bt.id, black)]))
            keys.append([round_no, m.board, b])
            owners.append((red_key, black_key))
            sides.append((rt.name, bt.name))
    repo.create_round(s, row.id, round_no, boards)
    mirror_map[str(round_no)] = keys
    created: list[str] = []
    for k, (key, (red_key, black_key), teams) in enumerate(
            zip(keys, owners, sides, strict=True), start=1):
        if ev.matches[f"{key[0]}:{key[1]}"]["results"].get(str(key[2])) or (
                league and ev.board_games(*key)):
            continue
        pairing = repo.find_pairing(s, row.id, round_no, k)
        gid = server_game(s, row, pairing.id, users.get(red_key), users.get(black_key), by,
                          "slow" if league else None, place_tags("team", key, teams), times)
        if gid:
            created.append(gid)
    return created


def _league_games(s: Session, row: TournamentRow, ev: TeamEvent, round_no: int,
                  users: dict[str, int | str], by: int | None,
                  mirror_map: dict[str, list[list[int]]]) -> list[str]:
    """2021 league (001): make the server games now due on the round's
    boards, as the knock-out's series games are made one after another: a
    rapid game (colours swapped) after a drawn slow game, a decider (the
    colours the rapid game's Black chose) after a drawn rapid game.  Each
    is one more board of the round's mirror round, keyed ``(round, match,
    board, game)``; return the new games."""
    keys = mirror_map.get(str(round_no))
    if keys is None:
        return []
    known = {tuple(k) for k in keys}
    numbers = ev.member_numbers()
    tt = ev.team_tournament()
    times = _league_times(ev)
    rnd = s.scalars(select(Round).where(Round.tournament_id == row.id,
                                        Round.number == round_no)).one()
    ids: dict[int, int] = {}
    created: list[str] = []
    for m in tt.rounds[round_no - 1]:
        if m.black_team is None or m.forfeit is not None:
            continue
        for b in range(1, ev.boards + 1):
            nxt = ev.next_board_game(round_no, m.board, b)
            if nxt is None or nxt["kind"] == "slow":
                continue
            key = (round_no, m.board, b, LEAGUE_GAMES[nxt["kind"]])
            if key in known:
                continue
            seats = _board_sides(ev, round_no, m.board, b)
            (rt, red_key), (bt, black_key) = seats[nxt["red"]], seats[nxt["black"]]
            ids = ids or {e.number: e.id for e in repo.list_entries(s, row.id)}
            pairing = Pairing(round_id=rnd.id, board=len(keys) + 1,
                              first_entry_id=ids[numbers[(rt.id, nxt["red"])]],
                              second_entry_id=ids[numbers[(bt.id, nxt["black"])]])
            s.add(pairing)
            keys.append(list(key))
            known.add(key)
            # the board and its key are stored together, before its game: a reader of
            # the mirror never meets a board without its key
            repo.save_tournament(s, row.id, settings={**row.settings, "mirror": {
                n: [list(k) for k in ks] for n, ks in mirror_map.items()}})
            gid = server_game(s, row, pairing.id, users.get(red_key), users.get(black_key), by,
                              nxt["kind"], place_tags("team", key, (rt.name, bt.name)), times)
            if gid:
                created.append(gid)
    return created


def mirror_result(s: Session, row: TournamentRow, key: tuple[int, ...], value: str,
                  source: str) -> None:
    """Copy a result to the board's mirror row, if it has one."""
    if family(row) == "individual":
        try:
            p = repo.find_pairing(s, row.id, key[0], key[1])
        except NotFoundError:
            return
        repo.set_pairing_result(s, p.id, value, source)
        return
    for number, keys in row.settings.get("mirror", {}).items():
        for board, k in enumerate(keys, start=1):
            if tuple(k) == key:
                p = repo.find_pairing(s, row.id, int(number), board)
                repo.set_pairing_result(s, p.id, value, source)
                return


def players_at(s: Session, row: TournamentRow, prefix: tuple[int, ...]) -> set[int]:
    """The accounts that play on the boards of event ``row`` whose key
    starts with ``prefix``: one board (its whole key), a knock-out match
    ``(round, index)`` or a team match ``(round, match)``."""
    if family(row) == "individual" and len(prefix) == 2:
        # one board: its own row (not every round's, 100,000 boards in a big event)
        try:
            p = repo.find_pairing(s, row.id, prefix[0], prefix[1])
        except NotFoundError:
            return set()
        return repo.entry_users(s, [p.first_entry_id, p.second_entry_id])
    mirror: dict[str, list[list[int]]] = row.settings.get("mirror", {})
    entries: list[int | None] = []
    for rnd, pairings in repo.list_rounds(s, row.id):
        keys = mirror.get(str(rnd.number))
        for p in pairings:
            if family(row) == "individual":
                key: tuple[int, ...] = (rnd.number, p.board)
            elif keys is not None and p.board <= len(keys):
                key = tuple(keys[p.board - 1])
            else:
                continue
            if key[:len(prefix)] == prefix:
                entries += [p.first_entry_id, p.second_entry_id]
    return repo.entry_users(s, entries)


def team_accounts(row: TournamentRow, teams: set[str]) -> set[int]:
    """The accounts of the members of the teams named ``teams`` in event ``row``."""
    users: dict[str, int] = row.settings.get("users", {})
    return {uid for key, uid in users.items() if "/" in key and key.split("/", 1)[0] in teams}


def players_against(s: Session, row: TournamentRow, name: str) -> set[int]:
    """The accounts concerned by a ruling on entry ``name`` of event ``row``
    (a player, or a team): its own (a team's members) and those of every
    entry paired against it on a board so far.  A member of the staff among
    them may not take the ruling (17.4: the arbiter rules impartially)."""
    users: dict[str, int] = row.settings.get("users", {})
    concerned = {uid for key, uid in users.items() if key == name} | team_accounts(row, {name})
    team_ids = set(s.scalars(select(Team.id).where(Team.tournament_id == row.id,
                                                   Team.name == name)))
    mine = {e.id for e in repo.list_entries(s, row.id)
            if (e.team_id in team_ids if team_ids else e.team_id is None and e.name == name)}
    if not mine:
        return concerned
    against: list[int | None] = list(mine)
    for _, pairings in repo.list_rounds(s, row.id):
        for p in pairings:
            if p.first_entry_id in mine:
                against.append(p.second_entry_id)
            elif p.second_entry_id in mine:
                against.append(p.first_entry_id)
    return concerned | repo.entry_users(s, against)
