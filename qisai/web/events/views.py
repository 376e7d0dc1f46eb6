"""An event as JSON for the API and the pages: entries, rounds (the
unpublished ones only for the organiser and arbiters), results, server
games, standings or placings, crosstable and the arbiters' log."""

from __future__ import annotations

from typing import Any

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
from qisai.store.models import Tournament as TournamentRow
from qisai.store.models import User
from qisai.web.events.listing import listing_of
from qisai.web.events.model import (
    family,
    hidden_rounds,
    load_event,
    member_key,
    round_has_results,
    staff_role,
)
from qisai.web.events.paged import page_view
from qisai.web.events.staff import staff_view

__all__ = ["games_by_key", "tournament_view"]


def tournament_view(s: Session, row: TournamentRow, viewer: User | None = None
                    ) -> dict[str, Any]:
    """Return an event as JSON-ready data for ``viewer``: entries, rounds
    (unpublished ones only for the organiser and arbiters), results, server
    games, standings or placings, crosstable and the arbiters' log.  An
    individual event's is :func:`~qisai.web.events.paged.page_view`'s: its
    current round, the top of its standings ... once it is big (issue 29)."""
    if family(row) == "individual":
        return page_view(s, row, viewer)
    ev = load_event(row)
    hidden = hidden_rounds(row)
    part = staff_role(s, row, viewer)
    is_staff = part is not None
    base: dict[str, Any] = {
        "id": row.id, "name": row.name, "kind": row.kind, "system": row.format,
        "family": family(row), "ruleset": row.ruleset, "status": row.status,
        "organiser": row.organiser_id, "publish": row.settings.get("publish", "auto"),
        "online": row.settings.get("online", True),
        "started": ev.started, "finished": ev.started and ev.finished,
        "hidden_rounds": sorted(hidden), "log": row.settings.get("log", []),
        "staff": staff_view(s, row), "you": part,
        "listing": listing_of(row),  # the calendar's facts and entry conditions
    }
    users: dict[str, int] = row.settings.get("users", {})
    games = games_by_key(s, row)
    if isinstance(ev, KnockoutEvent):
        base.update(_knockout_view(ev, users, games))
    elif isinstance(ev, GroupEvent):
        base.update(_group_view(ev, users, games))
    else:
        assert isinstance(ev, TeamEvent)  # individual events are page_view's
        base.update(_team_view(ev, users, games))
    in_play = {k[0] for k in games}
    for r in base["rounds"]:
        r["published"] = r["number"] not in hidden
        # once a result or a server game exists the pairings stand
        r["locked"] = r["number"] in in_play or round_has_results(ev, r["number"])
    if not is_staff:
        base["rounds"] = [r for r in base["rounds"] if r["published"]]
    return base


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


def _knockout_view(ev: KnockoutEvent, users: dict[str, int],
                   games: dict[tuple[int, ...], str]) -> dict[str, Any]:
    names = {p.id: p.name for p in ev.players}
    rounds = []
    for r, rnd in enumerate(ev.rounds, start=1):
        matches = []
        for m in rnd:
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
            matches.append({
                "match": m.index + 1, "red": m.red, "black": m.black,
                "red_name": names[m.red], "black_name": None if m.black is None
                else names[m.black], "winner": m.winner,
                "winner_name": None if m.winner is None else names[m.winner],
                "note": m.note, "games": played, "next": nxt, "decision": decision,
                "chooser": chooser, "chooser_name": None if chooser is None else names[chooser],
                "chosen_red": ev.choices.get(f"{r}:{m.index}"),
                "how": (f"decision: {decision['reason']}" if decision else
                        series.how if series is not None and series.decided else
                        "bye" if m.black is None else "")})
        rounds.append({"number": r, "matches": matches,
                       "complete": all(m.winner is not None for m in rnd)})
    places = ev.placements() if ev.started else []
    return {
        "series": ev.series_format, "draw": ev.draw, "byes": ev.byes, "double": ev.double,
        "seeding": ev.seeding,
        "players": [{"number": p.id, "name": p.name, "rating": p.rating,
                     "user": users.get(p.name)} for p in ev.players],
        "rounds": rounds,
        "alive": [] if ev.ko is None else ev.ko.alive(),
        "champion": None if ev.ko is None or ev.ko.champion is None else names[ev.ko.champion],
        "placements": [{"place": pl, "shared": sh, "number": e, "name": names[e]}
                       for pl, sh, e in places],
    }


def _team_view(ev: TeamEvent, users: dict[str, int],
               games: dict[tuple[int, ...], str]) -> dict[str, Any]:
    struck = ev.annulled_teams() if ev.started else set()
    teams = [{"number": t.id, "name": t.name, "roster": [
        {"name": n, "user": users.get(member_key(t.name, n))} for n in t.roster],
        "withdrawn_after": ev.withdrawn.get(t.id), "struck": t.id in struck}
        for t in ev.teams]
    rounds = []
    standings: list[dict[str, Any]] = []
    crosstable: list[list[str]] = []
    if ev.tt is not None:
        tt = ev.tt
        for r, rnd in enumerate(tt.rounds, start=1):
            matches = []
            for m in rnd:
                red_name = tt.team(m.red_team).name
                if m.black_team is None:
                    matches.append({"match": m.board, "red_team": red_name, "black_team": None,
                                    "boards": [], "complete": True, "bye": True})
                    continue
                state = ev.matches[f"{r}:{m.board}"]
                boards = [{"board": b, "red": red, "black": black,
                           "result": state["results"].get(str(b)),
                           "fouls": state["fouls"].get(str(b)),
                           "game": games.get((r, m.board, b))}
                          for b, red, black in ev.board_players(r, m.board)]
                if ev.series == "league_2021" and m.forfeit is None:
                    for bd in boards:  # 001: the board's games, the next one, the choice due
                        b = int(bd["board"])
                        bd.update(games=ev.board_games(r, m.board, b),
                                  next=ev.next_board_game(r, m.board, b),
                                  chooser=ev.awaiting_choice(r, m.board, b),
                                  note=ev.board_note(r, m.board, b))
                complete = bool(m.results) or m.forfeit is not None
                score = list(m.board_points(tt.scoring)) if m.results else None
                mp = None
                if score is not None:
                    mp = [tt.match_points.of(score[0], score[1]),
                          tt.match_points.of(score[1], score[0])]
                matches.append({
                    "match": m.board, "red_team": red_name,
                    "black_team": tt.team(m.black_team).name,
                    "lineups": state["lineups"], "boards": boards, "complete": complete,
                    "forfeit": None if m.forfeit is None else m.forfeit.value,
                    "board_points": score, "match_points": mp, "bye": False})
            rounds.append({"number": r, "matches": matches,
                           "complete": all(x["complete"] for x in matches)})
        for st in ev.standings():
            row: dict[str, Any] = {"place": st.rank, "shared": st.shared, "number": st.entry,
                                   "name": tt.team(st.entry).name, "points": st.points}
            for c in tt.tiebreaks:
                v = st.values.get(c)
                row[c.value] = list(v) if isinstance(v, tuple) else v
            standings.append(row)
        crosstable = ev.crosstable()
    view: dict[str, Any] = {
        "boards": ev.boards, "lineup_mode": ev.lineup_mode.value,
        "board_series": ev.series, "decider_drawn": ev.decider_drawn, "times": ev.times,
        "rounds_planned": ev.rounds_planned, "teams": teams, "players": [],
        "rounds": rounds, "standings": standings, "crosstable": crosstable,
        "tiebreaks": [] if ev.tt is None else [
            {"key": c.value, "name": c.chinese} for c in ev.tt.tiebreaks]}
    if isinstance(ev, AllPlayAllEvent):  # 12.4: which reading ranks (总局分 or 场分)
        zh, en = ev.scoring_note()
        view["score_by"] = ev.score_by
        view["score_note"] = {"zh": zh, "en": en}
    return view


def _group_view(ev: GroupEvent, users: dict[str, int],
                games: dict[tuple[int, ...], str]) -> dict[str, Any]:
    number = {p.name: p.id for p in ev.players}
    rounds = []
    for r in range(1, ev.paired_rounds + 1):
        boards = []
        for g, t, local in ev.round_parts(r):
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
        stage = "final" if r > ev.group_rounds else "group"
        rounds.append({"number": r, "stage": stage, "boards": boards,
                       "complete": all(t.rounds[local - 1].complete
                                       for _, t, local in ev.round_parts(r))})

    def table(g: int, t: Tournament) -> dict[str, Any]:
        return {"group": g, "name": t.name, "rounds_planned": t.rounds_planned,
                "players": [{"number": number[p.name], "group_number": p.id, "name": p.name,
                             "rating": p.rating, "user": users.get(p.name),
                             "withdrawn_after": p.withdrawn_after} for p in t.players],
                "standings": [dict(row, group_number=row["number"],
                                   number=number[row["name"]]) for row in standings_rows(t)],
                "crosstable": crosstable_grid(t), "finished": t.finished}

    names = {p.id: p.name for p in ev.players}
    qualifiers: list[str] = []
    if ev.final is not None:
        qualifiers = [p.name for p in ev.final.players]
    elif ev.groups_finished and ev.final_stage == "round_robin":
        try:
            qualifiers = [p.name for p in ev.qualifiers()]
        except CompetitionError:
            qualifiers = []  # withdrawals left a group short: pairing the final says so
    return {
        "groups_count": ev.group_count, "grouping": ev.grouping, "advance": ev.advance,
        "final_stage": ev.final_stage, "group_rounds": ev.group_rounds,
        "players": [{"number": p.id, "name": p.name, "rating": p.rating,
                     "user": users.get(p.name)} for p in ev.players],
        "groups": [table(g, t) for g, t in enumerate(ev.groups, start=1)],
        "final": None if ev.final is None else table(0, ev.final),
        "qualifiers": qualifiers, "cut_ties": ev.cut_ties(),
        "rounds": rounds,
        "placements": [{"place": pl, "shared": sh, "number": e, "name": names[e]}
                       for pl, sh, e in ev.placements()],
        "tiebreaks": [{"key": c.value, "name": c.chinese}
                      for c in (ev.groups[0].tiebreaks if ev.groups else ())],
    }
