"""An event as JSON for the API and the pages: entries, rounds (the
unpublished ones only for the organiser and arbiters), results, server
games, standings or placings, crosstable and the arbiters' log.

Knock-out, team and group events in parts that do not grow with the field
(issue 29): one round in detail (``round``, default the latest the viewer
may see; the others listed with their state), its matches (a group
event's boards: one group's) :data:`PAGE_MATCHES` at a time from
``start``; the entries or teams and the standings or placings
:data:`FIELD_LINES` lines from ``at``, the viewer's own lines and a search
(``q``); a group event one group's table and crosstable (``group``); a team
event's crosstable whole only up to :data:`SMALL_TEAMS` teams.  The rest
is paged by :mod:`qisai.web.events.paged_families`."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from qisai.competition import (
    CompetitionError,
    Tournament,
)
from qisai.competition.events.allplay_event import AllPlayAllEvent
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.team_event import TeamEvent
from qisai.competition.output import crosstable_grid, standings_rows
from qisai.store import repo
from qisai.store.models import Game, Pairing, Round, User
from qisai.store.models import Tournament as TournamentRow
from qisai.web.events.listing import listing_of
from qisai.web.events.model import (
    Event,
    family,
    member_key,
    round_has_results,
    staff_role,
)
from qisai.web.events.paged import LOG_LINES, SEARCH_HITS, engine_marks, page_view
from qisai.web.events.snapshot import Snapshot, snapshot
from qisai.web.events.staff import staff_view

__all__ = ["FIELD_LINES", "PAGE_MATCHES", "SMALL_TEAMS", "entry_matches", "field_lines",
           "game_at", "games_by_key", "paired_rounds", "ranking_lines", "round_detail",
           "round_games_by_key", "rounds_in_play", "team_crosstable", "tournament_view"]

PAGE_MATCHES = 32
"""Matches of a round (a group event's: boards of one group) on one page."""
FIELD_LINES = 32
"""Entries (teams) and standings (placings) lines on one page."""
SMALL_TEAMS = 16
"""Up to this many teams the page shows the whole team crosstable."""


def tournament_view(s: Session, row: TournamentRow, viewer: User | None = None, *,
                    round_no: int | None = None, start: int = 0, at: int = 0, q: str = "",
                    group: int | None = None) -> dict[str, Any]:
    """Return an event as JSON-ready data for ``viewer``: its facts, the
    rounds the viewer may see (``round_links``: number, published, locked,
    complete, latest), round ``round_no`` in detail (``rounds``: that one,
    default the latest the viewer may see; its matches from ``start``),
    entries and standings or placings from line ``at``, the viewer's own
    lines (``own``), the entries found by ``q`` (``search``), a group
    event's group ``group``, and the last of the arbiters' log.  An
    individual event's is :func:`~qisai.web.events.paged.page_view`'s."""
    if family(row) == "individual":
        return page_view(s, row, viewer, round_no=round_no, start=start, at=at, q=q)
    snap = snapshot(s, row)
    ev = snap.event
    hidden = snap.hidden
    log: list[dict[str, Any]] = snap.settings.get("log", [])
    part = staff_role(s, row, viewer)
    is_staff = part is not None
    base: dict[str, Any] = {
        "id": row.id, "name": row.name, "kind": row.kind, "system": row.format,
        "family": family(row), "ruleset": row.ruleset, "status": row.status,
        "organiser": row.organiser_id, "publish": snap.settings.get("publish", "auto"),
        "online": snap.settings.get("online", True),
        "started": ev.started, "finished": ev.started and ev.finished,
        # the last of the log (it grows with every act); the rest by GET .../log
        "hidden_rounds": sorted(hidden), "log": log[-LOG_LINES:], "log_total": len(log),
        "staff": staff_view(s, row), "you": part,
        "listing": listing_of(row),  # the calendar's facts and entry conditions
    }
    users = snap.users
    # a knock-out, team or group event's server games are made with its mirror
    # map, which is written to the row (a new revision): kept with the snapshot
    in_play = snap.memo("in_play", lambda: rounds_in_play(s, row, snap))
    paired = paired_rounds(ev)
    visible = [r for r in range(1, paired + 1) if is_staff or r not in hidden]
    shown = round_no if round_no in visible else (visible[-1] if visible else None)
    state = snap.memo("round_state", lambda: {
        r: (_round_complete(ev, r), round_has_results(ev, r)) for r in range(1, paired + 1)})
    base["round_links"] = [
        {"number": r, "published": r not in hidden, "latest": r == paired,
         "complete": state[r][0],
         # once a result or a server game exists the pairings stand
         "locked": r in in_play or state[r][1]} for r in visible]
    base["round_shown"] = shown
    base["page_matches"], base["page_lines"] = PAGE_MATCHES, FIELD_LINES
    own = set() if viewer is None else {n for n, u in users.items() if u == viewer.id}
    if isinstance(ev, KnockoutEvent):
        base.update(snap.memo("knockout", lambda: _knockout_view(ev)))
    elif isinstance(ev, GroupEvent):
        base.update(_group_view(snap, ev, own, group))
    else:
        assert isinstance(ev, TeamEvent)  # individual events are page_view's
        base.update(snap.memo("team", lambda: _team_view(ev)))
    base["group_shown"] = base.pop("_group", None)
    base["group_asked"] = group  # the round's boards are that group's only
    # a group event's round: every group's boards, a page at a time, or
    # only those of the group asked for
    base["rounds"] = [] if shown is None else [
        dict(round_detail(ev, users, round_games_by_key(s, row, snap, shown), shown, start,
                          start + PAGE_MATCHES, group),
             **next(x for x in base["round_links"] if x["number"] == shown))]
    ranking = snap.memo("ranking", lambda: ranking_lines(ev))
    base["ranking_total"] = len(ranking)
    base["ranking_from"] = at
    key = "placements" if not isinstance(ev, TeamEvent) else "standings"
    base[key] = ranking[at:at + FIELD_LINES]
    field = snap.memo("field", lambda: field_lines(ev, users, engine_marks(snap.settings)))
    base["entries_total"] = len(field)
    base["teams" if isinstance(ev, TeamEvent) else "players"] = field[:FIELD_LINES]
    mine = [f for f in field if _is_own(f, own)] if own else []
    hits = [f for f in field if entry_matches(f, q)][:SEARCH_HITS] if q.strip() else []
    place = snap.memo("place", lambda: {x["number"]: x for x in ranking})
    base["own"] = [_with_place(f, place) for f in mine[:SEARCH_HITS]]
    base["search"] = {"q": q, "hits": [_with_place(f, place) for f in hits]}
    return base


def rounds_in_play(s: Session, row: TournamentRow, snap: Snapshot) -> set[int]:
    """The event rounds of ``row`` with a server game (their pairings then
    stand): one query, its answer one number a mirror round."""
    mirror: dict[str, list[list[int]]] = snap.settings.get("mirror", {})
    numbers = s.scalars(select(Round.number).distinct()
                        .join(Pairing, Pairing.round_id == Round.id)
                        .join(Game, Game.pairing_id == Pairing.id)
                        .where(Round.tournament_id == row.id))
    # a mirror round's boards are of one event round (a knock-out's: one game each)
    return {int(mirror[str(n)][0][0]) if mirror.get(str(n)) else int(n) for n in numbers}


def round_games_by_key(s: Session, row: TournamentRow, snap: Snapshot, number: int
                       ) -> dict[tuple[int, ...], str]:
    """The server games of event round ``number`` by their place, as
    :func:`games_by_key` gives them (the mirror key for a knock-out, team
    or group event), read for that round alone."""
    mirror: dict[str, list[list[int]]] = snap.settings.get("mirror", {})
    rounds = [int(k) for k, keys in mirror.items() if keys and keys[0][0] == number] \
        if mirror else [number]
    out: dict[tuple[int, ...], str] = {}
    if not rounds:
        return out
    rows = s.execute(select(Round.number, Pairing.board, Game.id)
                     .join(Pairing, Pairing.round_id == Round.id)
                     .join(Game, Game.pairing_id == Pairing.id)
                     .where(Round.tournament_id == row.id, Round.number.in_(rounds)))
    for n, board, gid in rows:
        keys = mirror.get(str(n))
        if keys is None:
            out[(int(n), int(board))] = gid
        elif 1 <= board <= len(keys):
            out[tuple(keys[board - 1])] = gid
    return out


def games_by_key(s: Session, row: TournamentRow) -> dict[tuple[int, ...], str]:
    """Server games by their place: ``(round, board)`` for individual events,
    the mirror key for the others."""
    mirror: dict[str, list[list[int]]] = row.settings.get("mirror", {})
    out: dict[tuple[int, ...], str] = {}
    for rnd, pairings in repo.list_rounds(s, row.id):
        by_pairing = repo.games_of_round(s, rnd.id)
        keys = mirror.get(str(rnd.number))
        for p in pairings:
            gid = by_pairing.get(p.id)
            if gid is None:
                continue
            if keys is None:
                out[(rnd.number, p.board)] = gid
            else:
                out[tuple(keys[p.board - 1])] = gid
    return out


def game_at(s: Session, row: TournamentRow, key: tuple[int, ...]) -> str | None:
    """The server game of the board of event ``row`` at ``key`` (as
    :func:`games_by_key` gives it), or ``None``: an individual event's
    reads its round's games only."""
    if family(row) == "individual":
        return repo.round_games(s, row.id, key[0]).get(key[1]) if len(key) == 2 else None
    return games_by_key(s, row).get(key)


def paired_rounds(ev: Event) -> int:
    """Rounds paired so far in knock-out, team or group event ``ev``."""
    if isinstance(ev, KnockoutEvent):
        return len(ev.rounds)
    if isinstance(ev, GroupEvent):
        return ev.paired_rounds
    assert isinstance(ev, TeamEvent)
    return 0 if ev.tt is None else len(ev.tt.rounds)


def _round_complete(ev: Event, r: int) -> bool:
    if isinstance(ev, KnockoutEvent):
        return all(m.winner is not None for m in ev.rounds[r - 1])
    if isinstance(ev, GroupEvent):
        return all(t.rounds[local - 1].complete for _, t, local in ev.round_parts(r))
    assert isinstance(ev, TeamEvent) and ev.tt is not None
    return all(m.black_team is None or bool(m.results) or m.forfeit is not None
               for m in ev.tt.rounds[r - 1])


def round_detail(ev: Event, users: dict[str, int], games: dict[tuple[int, ...], str],
                 r: int, lo: int, hi: int, group: int | None = None) -> dict[str, Any]:
    """Round ``r`` of ``ev`` (paired) with its matches ``lo:hi`` (a group
    event's boards of group ``group``, every group's for ``None``):
    ``number``, ``matches`` (``boards`` for a group event), ``matches_total``,
    ``from``."""
    if isinstance(ev, KnockoutEvent):
        rnd = ev.rounds[r - 1]
        names = {p.id: p.name for p in ev.players}
        return {"number": r, "matches_total": len(rnd), "from": lo,
                "matches": [_knockout_match(ev, r, m, names, users, games) for m in rnd[lo:hi]]}
    if isinstance(ev, GroupEvent):
        boards = _group_boards(ev, r, games, group)
        return {"number": r, "stage": "final" if r > ev.group_rounds else "group",
                "matches_total": len(boards), "from": lo, "boards": boards[lo:hi]}
    assert isinstance(ev, TeamEvent) and ev.tt is not None
    tms = ev.tt.rounds[r - 1]
    return {"number": r, "matches_total": len(tms), "from": lo,
            "matches": [_team_match(ev, r, m, games, users) for m in tms[lo:hi]]}


def _knockout_match(ev: KnockoutEvent, r: int, m: Any, names: dict[int, str],
                    users: dict[str, int], games: dict[tuple[int, ...], str]) -> dict[str, Any]:
    series = ev.series(r, m.index)
    played = [] if series is None else [
        {"game": g.number, "kind": g.kind, "red": g.red, "black": g.black,
         "red_name": names[g.red], "black_name": names[g.black],
         "result": res.value, "server": games.get((r, m.index, g.number))}
        for g, res in series.games]
    nxt = None
    g = ev.next_game(r, m.index)
    if g is not None:
        nxt = {"game": g.number, "kind": g.kind, "red": g.red, "black": g.black,
               "red_name": names[g.red], "black_name": names[g.black],
               "server": games.get((r, m.index, g.number))}
    chooser = ev.awaiting_choice(r, m.index)
    decision = ev.decisions.get(f"{r}:{m.index}")
    return {
        "match": m.index + 1, "red": m.red, "black": m.black,
        "red_name": names[m.red], "black_name": None if m.black is None
        else names[m.black], "winner": m.winner,
        "winner_name": None if m.winner is None else names[m.winner],
        "note": m.note, "games": played, "next": nxt, "decision": decision,
        "chooser": chooser, "chooser_name": None if chooser is None else names[chooser],
        # the chooser's account: he may choose on the page (model.authorise decides)
        "chooser_user": None if chooser is None else users.get(names[chooser]),
        "chosen_red": ev.choices.get(f"{r}:{m.index}"),
        "how": (f"decision: {decision['reason']}" if decision else
                series.how if series is not None and series.decided else
                "bye" if m.black is None else "")}


def _team_match(ev: TeamEvent, r: int, m: Any, games: dict[tuple[int, ...], str],
                users: dict[str, int]) -> dict[str, Any]:
    assert ev.tt is not None
    tt = ev.tt
    red = tt.team(m.red_team)
    if m.black_team is None:
        return {"match": m.board, "red_team": red.name, "black_team": None,
                "boards": [], "complete": True, "bye": True}
    black = tt.team(m.black_team)
    state = ev.matches[f"{r}:{m.board}"]
    boards = [{"board": b, "red": rp, "black": bp,
               "result": state["results"].get(str(b)),
               "fouls": state["fouls"].get(str(b)),
               "game": games.get((r, m.board, b))}
              for b, rp, bp in ev.board_players(r, m.board)]
    if ev.series == "league_2021" and m.forfeit is None:
        for bd in boards:  # 001: the board's games, the next one, the choice due
            b = int(bd["board"])
            # each game's server game: the slow game's is the board's key, a later one's
            # (round, match, board, game) (web.events.server_games.LEAGUE_GAMES)
            server = [games.get((r, m.board, b) if n == 1 else (r, m.board, b, n))
                      for n in (1, 2, 3)]
            played = [dict(g, server=server[k])
                      for k, g in enumerate(ev.board_games(r, m.board, b))]
            due = ev.next_board_game(r, m.board, b)
            nxt: dict[str, Any] | None = None if due is None else {
                **due, "server": server[len(played)] if len(played) < 3 else None}
            chooser = ev.awaiting_choice(r, m.board, b)
            team = next((t.name for t in (red, black) if chooser in t.roster), "")
            bd.update(games=played, next=nxt, chooser=chooser,
                      # the chooser's account: he may choose on the page
                      chooser_user=None if chooser is None else users.get(
                          member_key(team, chooser)),
                      note=ev.board_note(r, m.board, b),
                      # the board's link: its latest server game
                      game=next((g for g in reversed(server) if g), None))
    score = list(m.board_points(tt.scoring)) if m.results else None
    mp = None
    if score is not None:
        mp = [tt.match_points.of(score[0], score[1]), tt.match_points.of(score[1], score[0])]
    return {
        "match": m.board, "red_team": red.name, "black_team": black.name,
        # the two rosters: the organiser's line-up form offers them
        "red_roster": list(red.roster), "black_roster": list(black.roster),
        "lineups": state["lineups"], "boards": boards,
        "complete": bool(m.results) or m.forfeit is not None,
        "forfeit": None if m.forfeit is None else m.forfeit.value,
        "board_points": score, "match_points": mp, "bye": False}


def _group_boards(ev: GroupEvent, r: int, games: dict[tuple[int, ...], str],
                  group: int | None) -> list[dict[str, Any]]:
    number = {p.name: p.id for p in ev.players}
    boards = []
    for g, t, local in ev.round_parts(r):
        if group is not None and g not in (group, 0):  # a final round's boards: group 0
            continue
        rec = t.rounds[local - 1]
        for p in rec.pairings:
            res = rec.results.get(p.board)
            boards.append({
                "group": g, "board": p.board, "red": number[t.player(p.red).name],
                "black": None if p.black is None else number[t.player(p.black).name],
                "red_name": t.player(p.red).name,
                "black_name": None if p.black is None else t.player(p.black).name,
                "result": None if res is None else res.result.value,
                "fouls": None if res is None else [res.red_fouls, res.black_fouls],
                "game": games.get((r, g, p.board))})
    return boards


def ranking_lines(ev: Event) -> list[dict[str, Any]]:
    """``ev``'s ranking, best first: a team event's standings (place,
    shared, number, name, points, one key a tie-break), the others'
    placings (place, shared, number, name)."""
    if isinstance(ev, TeamEvent):
        if ev.tt is None:
            return []
        tt = ev.tt
        out = []
        for st in ev.standings():
            row: dict[str, Any] = {"place": st.rank, "shared": st.shared, "number": st.entry,
                                   "name": tt.team(st.entry).name, "points": st.points}
            for c in tt.tiebreaks:
                v = st.values.get(c)
                row[c.value] = list(v) if isinstance(v, tuple) else v
            out.append(row)
        return out
    if isinstance(ev, KnockoutEvent) and not ev.started:
        return []
    assert isinstance(ev, (KnockoutEvent, GroupEvent))
    names = {p.id: p.name for p in ev.players}
    return [{"place": pl, "shared": sh, "number": e, "name": names[e]}
            for pl, sh, e in ev.placements()]


def field_lines(ev: Event, users: dict[str, int],
                machines: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """``ev``'s entries in their order: a team event's teams (number, name,
    roster with accounts, withdrawal, struck), the others' players (number,
    name, rating, account; a group event's with their group).  ``machines``
    (:func:`~qisai.web.events.paged.engine_marks`) marks the engine
    entrants with the engine's name (``engine``; issue 33 item 10)."""
    machines = machines or {}
    if isinstance(ev, TeamEvent):
        struck = ev.annulled_teams() if ev.started else set()
        return [{"number": t.id, "name": t.name, "roster": [
            {"name": n, "user": users.get(member_key(t.name, n)),
             "engine": machines.get(member_key(t.name, n))} for n in t.roster],
            "withdrawn_after": ev.withdrawn.get(t.id), "struck": t.id in struck}
            for t in ev.teams]
    assert isinstance(ev, (KnockoutEvent, GroupEvent))
    group_of: dict[str, int] = {}
    if isinstance(ev, GroupEvent):
        group_of = {p.name: g for g, t in enumerate(ev.groups, start=1) for p in t.players}
    out = []
    for p in ev.players:
        line: dict[str, Any] = {"number": p.id, "name": p.name, "rating": p.rating,
                                "user": users.get(p.name), "engine": machines.get(p.name)}
        if isinstance(ev, GroupEvent):
            line["group"] = group_of.get(p.name)
        out.append(line)
    return out


def team_crosstable(ev: TeamEvent) -> list[list[str]]:
    """The team crosstable of ``ev`` (a header row, then a row a team), or
    none before the start."""
    return [] if ev.tt is None else ev.crosstable()


def _is_own(line: dict[str, Any], own: set[str]) -> bool:
    if "roster" in line:
        return any(m["name"] in own or member_key(line["name"], m["name"]) in own
                   for m in line["roster"])
    return line["name"] in own


def entry_matches(line: dict[str, Any], q: str) -> bool:
    """Whether field line ``line`` (:func:`field_lines`) is found by ``q``:
    its name, or a team member's, contains it (case folded), or its number
    is it."""
    key = q.strip().casefold()
    return key in line["name"].casefold() or key == str(line["number"]) or any(
        key in m["name"].casefold() for m in line.get("roster", ()))


def _with_place(line: dict[str, Any], place: dict[int, dict[str, Any]]) -> dict[str, Any]:
    st = place.get(line["number"])
    return dict(line, place=None if st is None else st["place"],
                shared=False if st is None else st["shared"],
                points=None if st is None else st.get("points"))


def _knockout_view(ev: KnockoutEvent) -> dict[str, Any]:
    names = {p.id: p.name for p in ev.players}
    alive = [] if ev.ko is None else ev.ko.alive()
    return {
        "series": ev.series_format, "draw": ev.draw, "byes": ev.byes, "double": ev.double,
        "seeding": ev.seeding,
        # who is still in: the first lines and how many (the rest: .../field)
        "alive": alive[:FIELD_LINES], "alive_total": len(alive),
        "champion": None if ev.ko is None or ev.ko.champion is None else names[ev.ko.champion],
    }


def _team_view(ev: TeamEvent) -> dict[str, Any]:
    n = len(ev.teams)
    view: dict[str, Any] = {
        "boards": ev.boards, "lineup_mode": ev.lineup_mode.value,
        "board_series": ev.series, "decider_drawn": ev.decider_drawn, "times": ev.times,
        "rounds_planned": ev.rounds_planned, "players": [],
        # the whole grid for a small event; a big one's rows by .../team-crosstable
        "crosstable": team_crosstable(ev) if n <= SMALL_TEAMS else [],
        "crosstable_total": n,
        "tiebreaks": [] if ev.tt is None else [
            {"key": c.value, "name": c.chinese} for c in ev.tt.tiebreaks]}
    if isinstance(ev, AllPlayAllEvent):  # 12.4: which reading ranks (总局分 or 场分)
        zh, en = ev.scoring_note()
        view["score_by"] = ev.score_by
        view["score_note"] = {"zh": zh, "en": en}
    return view


def _group_view(snap: Snapshot, ev: GroupEvent, own: set[str], group: int | None
                ) -> dict[str, Any]:
    users = snap.users
    number = snap.memo("numbers", lambda: {p.name: p.id for p in ev.players})

    def table(g: int, t: Tournament) -> dict[str, Any]:
        return {"group": g, "name": t.name, "rounds_planned": t.rounds_planned,
                "players": [{"number": number[p.name], "group_number": p.id, "name": p.name,
                             "rating": p.rating, "user": users.get(p.name),
                             "withdrawn_after": p.withdrawn_after} for p in t.players],
                "standings": [dict(row, group_number=row["number"],
                                   number=number[row["name"]]) for row in standings_rows(t)],
                "crosstable": crosstable_grid(t), "finished": t.finished}

    # the group shown: the one asked, else the viewer's own, else the first
    mine = [g for g, t in enumerate(ev.groups, start=1)
            if any(p.name in own for p in t.players)]
    count = len(ev.groups)
    g_shown = group if group is not None and 1 <= group <= count else \
        (mine[0] if mine else (1 if count else None))
    final = ev.final
    qualifiers: list[str] = snap.memo("qualifiers", lambda: _qualifiers(ev))
    return {
        "groups_count": ev.group_count, "grouping": ev.grouping, "advance": ev.advance,
        "final_stage": ev.final_stage, "group_rounds": ev.group_rounds,
        "group_links": [{"group": g, "name": t.name, "finished": t.finished}
                        for g, t in enumerate(ev.groups, start=1)],
        "groups": [] if g_shown is None else [
            snap.memo(("group", g_shown), lambda: table(g_shown, ev.groups[g_shown - 1]))],
        "_group": g_shown,
        "final": None if final is None else snap.memo(("group", 0), lambda: table(0, final)),
        "qualifiers": qualifiers, "cut_ties": snap.memo("cut_ties", ev.cut_ties),
        "tiebreaks": [{"key": c.value, "name": c.chinese}
                      for c in (ev.groups[0].tiebreaks if ev.groups else ())],
    }


def _qualifiers(ev: GroupEvent) -> list[str]:
    if ev.final is not None:
        return [p.name for p in ev.final.players]
    if ev.groups_finished and ev.final_stage == "round_robin":
        try:
            return [p.name for p in ev.qualifiers()]
        except CompetitionError:
            return []  # withdrawals left a group short: pairing the final says so
    return []
