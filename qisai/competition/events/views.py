"""Tables of an event of any format, for the terminal and for print.

Each function reads an :class:`EventFile` and returns plain rows of text
(no layout): the boards of a round (:func:`round_rows`), the standings with
every tie-break column (:func:`standings_table`), the per-round crosstable
with opponent, colour and result (:func:`crosstable_table`) and the
knock-out bracket (:func:`bracket_rounds`).  Colours print as the game
names them (:meth:`Header.colour`: 红/黑, or 黑/白 for Go).  Shared places
(名次并列) print as ``3=``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qisai.competition.errors import CompetitionError
from qisai.competition.events.allplay_event import AllPlayAllEvent
from qisai.competition.events.file import EventFile
from qisai.competition.events.group_event import GroupEvent
from qisai.competition.events.knockout_event import KnockoutEvent
from qisai.competition.events.mcmahon_event import McMahonTournament
from qisai.competition.events.team_event import TeamEvent
from qisai.competition.model import Colour, Outcome, Result
from qisai.competition.teams import board_colour
from qisai.competition.tiebreaks import Criterion, Standing
from qisai.competition.tournament import Tournament

__all__ = ["BoardRow", "Table", "board_count", "bracket_rounds", "crosstable_table",
           "group_crosstables", "group_tables", "ko_note", "pairings_table",
           "result_text", "round_count", "round_rows", "standings_table", "team_ranking_table",
           "text_table", "withdrawal_note"]

_MARK = {Outcome.WIN: "1", Outcome.DRAW: "=", Outcome.LOSS: "0", Outcome.FORFEIT_WIN: "+",
         Outcome.FORFEIT_LOSS: "-"}
_KIND = {"extra": "加赛", "slow": "慢棋", "rapid": "快棋", "decider": "决胜局"}
_TEAM_NAMES = {Criterion.BUCHHOLZ: "团体对手分", Criterion.WINS: "全队胜局",
               Criterion.FOULS: "全队犯规", Criterion.MATCH_WINS: "全队胜场"}


def _num(v: float) -> str:
    return f"{v:g}"


def _fmt(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return _num(v)
    if isinstance(v, tuple):
        return "/".join(_fmt(x) for x in v)
    return str(v)


@dataclass(slots=True)
class BoardRow:
    """One board of a round: its label (``3``; ``2.1`` for board 1 of
    team match 2; ``G1-2`` for board 2 of group 1), both sides (entry
    number, name, club or team, score before the round) and the result
    so far; ``red_no`` / ``black_no`` are None for a bye's empty side."""

    board: str
    red_no: int | None
    red_name: str
    black_no: int | None
    black_name: str
    result: str = ""
    red_club: str = ""
    black_club: str = ""
    red_score: str = ""
    black_score: str = ""
    note: str = ""
    series_open: bool = False

    @property
    def is_bye(self) -> bool:
        """True for a bye (轮空)."""
        return self.black_no is None and not self.black_name

    @property
    def pending(self) -> bool:
        """True while the board (or a knock-out series) waits for a result."""
        if self.is_bye:
            return False
        return self.series_open or not self.result


@dataclass(slots=True)
class Table:
    """A table: a title, the header row and the body rows."""

    title: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""
    """A line to print under the table (e.g. which reading ranks a 12.4 match)."""


def round_count(ef: EventFile) -> int:
    """Return how many rounds are paired."""
    ev = ef.event
    if isinstance(ev, Tournament):
        return len(ev.rounds)
    if isinstance(ev, KnockoutEvent):
        return len(ev.rounds)
    if isinstance(ev, GroupEvent):
        return ev.paired_rounds
    return len(ev.tt.rounds) if ev.tt is not None else 0


def board_count(ef: EventFile) -> int:
    """Boards a team match is played on (1 for individual events)."""
    return ef.event.boards if isinstance(ef.event, TeamEvent) else 1


def _check_round(ef: EventFile, round_no: int) -> None:
    n = round_count(ef)
    if not 1 <= round_no <= n:
        raise CompetitionError(f"{ef.header.name}：第 {round_no} 轮尚未编排（已编排 {n} 轮）",
                               f"{ef.header.name}: round {round_no} is not paired "
                               f"({n} paired)")


def _scores_before(t: Tournament, round_no: int) -> dict[int, float]:
    out = {p.id: 0.0 for p in t.players}
    if isinstance(t, McMahonTournament):
        out = {p.id: float(t.start_score(p.id)) for p in t.players}
    for rec in t.rounds[: round_no - 1]:
        for g in rec.results.values():
            for pid in (g.red, g.black):
                if pid is not None:
                    out[pid] += t.scoring.game_points(g, pid)
    return out


def round_rows(ef: EventFile, round_no: int) -> list[BoardRow]:
    """Return the boards of round ``round_no``.  Knock-out: one row a match
    with the colours of its next (or last) game and the series so far.
    Team events: one row a board, the first-listed team Red on odd boards
    (13.2/13.3).  Raises :class:`CompetitionError` for a round not paired."""
    _check_round(ef, round_no)
    ev = ef.event
    rows: list[BoardRow] = []
    if isinstance(ev, Tournament):
        rec = ev.rounds[round_no - 1]
        before = _scores_before(ev, round_no)
        for p in rec.pairings:
            red = ev.player(p.red)
            if p.black is None:
                rows.append(BoardRow(str(p.board), red.id, red.name, None, "", "轮空",
                                     red.club or red.team, red_score=_num(before[red.id])))
                continue
            black = ev.player(p.black)
            g = rec.results.get(p.board)
            rows.append(BoardRow(str(p.board), red.id, red.name, black.id, black.name,
                                 "" if g is None else g.result.value, red.club or red.team,
                                 black.club or black.team, _num(before[red.id]),
                                 _num(before[black.id])))
    elif isinstance(ev, KnockoutEvent):
        for m in ev.rounds[round_no - 1]:
            red = ev.player(m.red)
            if m.black is None:
                rows.append(BoardRow(str(m.index + 1), red.id, red.name, None, "", "轮空",
                                     red.club or red.team, note=ko_note(m.note)))
                continue
            rows.append(_ko_row(ev, round_no, m.index))
    elif isinstance(ev, GroupEvent):
        for slot in ev.boards(round_no):
            _, group, board = slot.key
            label = f"G{group}-{board}" if group else f"F-{board}"
            red = ev.player(slot.red)
            if slot.black == 0:
                rows.append(BoardRow(label, slot.red, red.name, None, "", "轮空",
                                     red.club or red.team))
                continue
            black = ev.player(slot.black)
            rows.append(BoardRow(label, slot.red, red.name, slot.black, black.name,
                                 ev.result_of(round_no, group, board) or "",
                                 red.club or red.team, black.club or black.team,
                                 note="final" if group == 0 else f"group {group}"))
    else:
        tt = ev.team_tournament()
        for tm in tt.rounds[round_no - 1]:
            rt = tt.team(tm.red_team)
            if tm.black_team is None:
                rows.append(BoardRow(f"{tm.board}", rt.id, rt.name, None, "", "轮空"))
                continue
            bt = tt.team(tm.black_team)
            state = ev.matches.get(f"{round_no}:{tm.board}", {})
            lineups = state.get("lineups", [rt.roster[: ev.boards], bt.roster[: ev.boards]])
            results = state.get("results", {})
            for b in range(1, ev.boards + 1):
                first_red = board_colour(b, True) is Colour.RED
                a, c = lineups[0][b - 1], lineups[1][b - 1]
                red_name, black_name = (a, c) if first_red else (c, a)
                red_team, black_team = (rt, bt) if first_red else (bt, rt)
                if tm.forfeit is not None:
                    res = tm.forfeit.value if b == 1 else ""
                elif tm.results:
                    res = tm.results[b - 1].value
                else:
                    res = results.get(str(b), "")
                games = ev.board_note(round_no, tm.board, b) if tm.forfeit is None else ""
                rows.append(BoardRow(f"{tm.board}.{b}", red_team.id, red_name, black_team.id,
                                     black_name, res, red_team.name, black_team.name,
                                     note=f"{rt.name} - {bt.name}"
                                     + (f"；{games}" if games else "")))
    return rows


def pairings_table(ef: EventFile, round_no: int) -> Table:
    """Round ``round_no`` as a table (对阵表) for a sheet: board, both sides
    (number, name, club or team; the colour as the game names it), the
    result so far and the note (a knock-out's series, a 2021-league
    board's games).  Raises :class:`CompetitionError` for a round not
    paired."""
    first, second = ef.header.colour_names
    head = ["台次", "编号", f"{first}方", "单位", "结果", f"{second}方", "单位", "编号", "备注"]
    rows = []
    for b in round_rows(ef, round_no):
        if b.is_bye:
            rows.append([b.board, str(b.red_no or ""), b.red_name, b.red_club, "轮空", "", "",
                         "", b.note])
            continue
        rows.append([b.board, str(b.red_no or ""), b.red_name, b.red_club,
                     result_text(b.result) if b.result and "," not in b.result else b.result,
                     b.black_name, b.black_club, str(b.black_no or ""), b.note])
    return Table(f"{ef.header.name} 第{round_no}轮 对阵表", head, rows)


_KO_NOTES = {"bye": "轮空", "drew K: bye": "抽到K，轮空", "colours by lot": "猜先"}


def ko_note(note: str) -> str:
    """A knock-out pairing's stored note in Chinese: ``cards 红3/黑3`` as
    ``抽牌 红3/黑3`` (the card draw of the local rules, clause 9), ``drew K:
    bye`` as ``抽到K，轮空``, ``colours by lot`` as ``猜先`` (13.4)."""
    if note.startswith("cards "):
        return "抽牌 " + note.removeprefix("cards ")
    return _KO_NOTES.get(note, note)


_RESULT_ZH = {Result.RED_WIN: "红胜", Result.BLACK_WIN: "黑胜", Result.DRAW: "和",
              Result.RED_FORFEIT_WIN: "黑弃权", Result.BLACK_FORFEIT_WIN: "红弃权",
              Result.DOUBLE_FORFEIT: "双方弃权"}


def _ko_row(ev: KnockoutEvent, round_no: int, index: int) -> BoardRow:
    """A knock-out match as a row: while the series is open, the sides in
    the colours of its next game (the note names it: 第2局); once decided,
    in game 1's colours, as the paper's rule line says.  The result is the
    series score (左:右), the note the games played, the lot or the
    arbiter's decision that settled it, and the card drawn."""
    m = ev.match(round_no, index)
    s = ev.series(round_no, index)
    assert s is not None and m.black is not None
    nxt = ev.next_game(round_no, index)
    if nxt is not None:
        a, b = nxt.red, nxt.black
    elif s.games:
        a, b = s.games[0][0].red, s.games[0][0].black
    else:
        a, b = m.red, m.black
    pa, pb = ev.player(a), ev.player(b)
    pts = s.score()
    score = f"{pts[a]:g}:{pts[b]:g}" if s.games else ""
    parts = []
    for g, r in s.games:
        kind = _KIND.get(g.kind, "")
        parts.append(f"第{g.number}局{('（' + kind + '）') if kind else ''} "
                     f"{ev.player(g.red).name}执红 {_RESULT_ZH.get(r, r.value)}")
    decision = ev.decisions.get(f"{round_no}:{index}")
    chooser = ev.awaiting_choice(round_no, index)
    if m.winner is not None:
        how = ""
        if decision is not None:
            how = f"（裁判判定：{decision.get('reason', '')}）"
        elif "lot" in s.how or "抽签" in s.how:
            how = "（抽签决出）"
        parts.append(f"胜者 {m.winner} {ev.player(m.winner).name}{how}")
    elif chooser is not None:
        parts.append(f"决胜局：{chooser} {ev.player(chooser).name} 选择先后手")
    elif nxt is not None:
        kind = _KIND.get(nxt.kind, "")
        parts.append(f"下一局：第{nxt.number}局" + (f"（{kind}）" if kind else ""))
    if m.note:
        parts.insert(0, ko_note(m.note))
    return BoardRow(str(m.index + 1), pa.id, pa.name, pb.id, pb.name, score,
                    pa.club or pa.team, pb.club or pb.team, note="；".join(parts),
                    series_open=nxt is not None and m.winner is None)


def _place(rank: int, shared: bool) -> str:
    return f"{rank}=" if shared else str(rank)


def standings_table(ef: EventFile) -> Table:
    """Return the standings (成绩册): place, number, name, club, points (场分
    and 局分 for teams, McMahon score for McMahon) and every tie-break
    column; knock-out and group events list their placements.  A 罚
    column shows 18.4 penalty weights when there are any."""
    ev = ef.event
    title = f"{ef.header.name} 成绩册"
    weights = ef.penalty_weights()
    if isinstance(ev, Tournament):
        return _standings_of(ef, ev, ef.standings(), title, lambda pid: pid)
    if isinstance(ev, TeamEvent):
        tt = ev.team_tournament()
        cols = [c for c in tt.tiebreaks if c is not Criterion.GAME_POINTS]
        # a 12.4 match decided on total 局分 ranks by 局分: it comes first, 场分 after
        by_games = isinstance(ev, AllPlayAllEvent) and ev.score_by == "games"
        pair = ["局分", "场分"] if by_games else ["场分", "局分"]
        head = ["名次", "编号", "队名", *pair] + [_TEAM_NAMES.get(c, c.chinese) for c in cols]
        if weights:
            head.append("处罚")
        recs = ef.team_records()
        other = ev.match_records() if isinstance(ev, AllPlayAllEvent) else recs
        rows = []
        for s in ef.standings():
            second = (sum(e.points for e in other[s.entry].encounters) if by_games
                      else sum(e.game_points for e in recs[s.entry].encounters))
            row = [_place(s.rank, s.shared), str(s.entry), tt.team(s.entry).name,
                   _num(s.points), _num(second)] + [_fmt(s.values.get(c)) for c in cols]
            if weights:
                row.append(_penalty_text(ef, s.entry))
            rows.append(row)
        note = " / ".join(ev.scoring_note()) if isinstance(ev, AllPlayAllEvent) else ""
        return Table(title, head, rows, note)
    head = ["名次", "编号", "姓名", "单位"]
    rows = []
    for place, shared, entry in ef.placements():
        p = ev.player(entry) if isinstance(ev, KnockoutEvent) else ev.player(entry)
        rows.append([_place(place, shared), str(entry), p.name, p.club or p.team])
    return Table(title, head, rows)


def _penalty_text(ef: EventFile, entry: int) -> str:
    kinds = [p.kind for p in ef.penalties if p.entry == entry]
    names = {"warning": "警告", "forfeit": "取消资格", "expel": "除名"}
    return " ".join(f"{names[k]}×{kinds.count(k)}" for k in names if k in kinds)


def crosstable_table(ef: EventFile) -> Table:
    """Return the crosstable.  Individual events (Swiss, round robin,
    McMahon): a row an entry in standings order, one cell a round with the
    opponent's number, the colour and the result (``12红1``: met 12 with
    Red and won; ``轮空`` a bye, ``—`` not paired), then points and the
    tie-breaks.  Team events: the grid of 场分 (局分) per opponent.  Raises
    :class:`CompetitionError` for a knock-out or group event."""
    ev = ef.event
    if isinstance(ev, TeamEvent):
        grid = ev.crosstable()
        return Table(f"{ef.header.name} 交叉表", grid[0], grid[1:],
                     "格式：场分（局分）；+ 对方弃权，- 弃权（21.4）")
    if not isinstance(ev, Tournament):
        raise CompetitionError(f"{ef.header.name}：{ef.kind} 比赛没有交叉表；请打印对阵表或名次",
                               f"{ef.header.name}: a {ef.kind} event has no crosstable; "
                               "print its bracket or placements")
    return _crosstable_of(ef, ev, ef.standings(), f"{ef.header.name} 交叉表", lambda pid: pid)


def _standings_of(ef: EventFile, t: Tournament, st: list[Standing], title: str,
                  number: Callable[[int], int]) -> Table:
    """The standings table of one round robin or Swiss ``t`` (the event, a
    group or a final): ``number`` gives an entry's event number."""
    all_weights = ef.penalty_weights()
    weights = {s.entry for s in st if all_weights.get(number(s.entry), 0)}
    cols = list(t.tiebreaks)
    points = "McMahon分" if isinstance(t, McMahonTournament) else "积分"
    head = ["名次", "编号", "姓名", "单位", points] + [c.chinese for c in cols]
    if weights:
        head.append("处罚")
    gone = any(p.withdrawn_after is not None for p in t.players)
    if gone:
        head.append("备注")
    rows = []
    for s in st:
        p = t.player(s.entry)
        row = [_place(s.rank, s.shared), str(number(p.id)), p.name, p.club or p.team,
               _num(s.points)] + [_fmt(s.values.get(c)) for c in cols]
        if weights:
            row.append(_penalty_text(ef, number(p.id)))
        if gone:
            row.append(withdrawal_note(t, p.id))
        rows.append(row)
    return Table(title, head, rows)


def withdrawal_note(t: Tournament, pid: int) -> str:
    """``第3轮后退出（20.4）`` for an entry that withdrew (``注销`` added when
    20.3 strikes its results out), empty otherwise."""
    p = t.player(pid)
    if p.withdrawn_after is None:
        return ""
    rule = "20.4" if t.system.value == "swiss" else "20.3"
    struck = "，成绩注销" if pid in t.annulled_entries() else ""
    return f"第{p.withdrawn_after}轮后退出（{rule}）{struck}"


def _crosstable_of(ef: EventFile, t: Tournament, st: list[Standing], title: str,
                   number: Callable[[int], int]) -> Table:
    """The crosstable of one round robin or Swiss ``t``, opponents by their
    event numbers (``number``), rows in the order of ``st``."""
    n = len(t.rounds)
    struck = t.annulled_entries()
    cells: dict[int, list[str]] = {p.id: ["—"] * n for p in t.players}
    red, black = ef.header.colour_names
    # each result's marks for (Red, Black), worked out once: a 2,000 x 50
    # event has 100,000 games and six results
    marks = {res: (_MARK.get(res.outcome(Colour.RED), ""),
                   _MARK.get(res.outcome(Colour.BLACK), "")) for res in Result}
    for rec in t.rounds:
        i = rec.number - 1
        for pairing in rec.pairings:
            a, b = pairing.red, pairing.black
            if b is None:
                cells[a][i] = "轮空"
                continue
            g = rec.results.get(pairing.board)
            ma, mb = ("", "") if g is None else marks[g.result]
            if struck and (a in struck or b in struck):
                ma = mb = "注销"  # 20.3: the game no longer counts, won or forfeited
            cells[a][i] = f"{number(b)}{red}{ma}"
            cells[b][i] = f"{number(a)}{black}{mb}"
    cols = list(t.tiebreaks)
    gone = any(p.withdrawn_after is not None for p in t.players)
    head = ["名次", "编号", "姓名"] + [f"第{r}轮" for r in range(1, n + 1)] + ["积分"] \
        + [c.chinese for c in cols] + (["备注"] if gone else [])
    rows = []
    placed = set()
    for s in st:
        p = t.player(s.entry)
        placed.add(p.id)
        rows.append([_place(s.rank, s.shared), str(number(p.id)), p.name] + cells[p.id]
                    + [_num(s.points)] + [_fmt(s.values.get(c)) for c in cols]
                    + ([withdrawal_note(t, p.id)] if gone else []))
    for p in t.players:  # struck out by 20.3: listed, not placed
        if p.id not in placed:
            rows.append(["", str(number(p.id)), p.name] + cells[p.id] + ["注销"]
                        + [""] * len(cols) + ([withdrawal_note(t, p.id)] if gone else []))
    return Table(title, head, rows)


def _group_parts(ef: EventFile) -> list[tuple[str, Tournament]]:
    ev = ef.event
    if not isinstance(ev, GroupEvent):
        raise CompetitionError(f"{ef.header.name}：{ef.kind} 比赛没有分组",
                               f"{ef.header.name}: a {ef.kind} event has no groups")
    ef._apply_penalties()  # 18.4 inside each group and the final
    parts = [(f"第{g}组", t) for g, t in enumerate(ev.groups, start=1)]
    if ev.final is not None:
        parts.append(("决赛", ev.final))
    return parts


def group_tables(ef: EventFile) -> list[Table]:
    """The standings of every group of a group event (11.3), then of its
    final once paired, each with every tie-break column and the entries'
    event numbers; a table from the first round on.  Raises
    :class:`CompetitionError` for another kind of event."""
    return [_standings_of(ef, t, t.standings(), f"{ef.header.name} {label} 成绩",
                          _numberer(ef, t)) for label, t in _group_parts(ef)]


def group_crosstables(ef: EventFile) -> list[Table]:
    """The crosstable of every group (and of the final once paired), with
    the entries' event numbers.  Raises :class:`CompetitionError` for
    another kind of event."""
    return [_crosstable_of(ef, t, t.standings(), f"{ef.header.name} {label} 交叉表",
                           _numberer(ef, t)) for label, t in _group_parts(ef)]


def _numberer(ef: EventFile, t: Tournament) -> Callable[[int], int]:
    ev = ef.event
    assert isinstance(ev, GroupEvent)
    return lambda pid: ev.number(t.player(pid).name)


def team_ranking_table(ef: EventFile, by: str = "team", counted: int | None = None) -> Table:
    """12.5 队员总分制 over an individual event: its entries grouped by team
    (or club), ranked by the sum of their individual places (15.5: fewer
    first, then the best place, the second best, then team fouls), with the
    sum of their points beside.  ``counted`` takes each team's best
    ``counted`` players.  Raises :class:`CompetitionError` for another kind
    of event or entries without a team."""
    from qisai.competition.teams import Team, rank_by_place_sum, team_totals

    ev = ef.event
    if not isinstance(ev, Tournament):
        raise CompetitionError(f"{ef.header.name}：12.5 队员总分来自个人赛",
                               f"{ef.header.name}: 12.5 team totals come from an individual "
                               "event")
    if by not in ("team", "club"):
        raise CompetitionError(f"参赛者按 team（队）或 club（单位）分组，不是 {by!r}",
                               f"group entries by team or club, not {by!r}")
    st = ef.standings()
    places = {ev.player(s.entry).name: s.rank for s in st}
    points = {ev.player(s.entry).name: s.points for s in st}
    recs = ev.records()
    fouls = {ev.player(e).name: int(sum(x.fouls for x in r.encounters)) for e, r in recs.items()}
    rosters: dict[str, list[str]] = {}
    for p in ev.players:
        key = p.team if by == "team" else p.club
        if key and p.name in places:
            rosters.setdefault(key, []).append(p.name)
    if not rosters:
        raise CompetitionError(f"{ef.header.name}：没有参赛者填写 {by}",
                               f"{ef.header.name}: no entry has a {by}")
    teams = [Team(name, roster, 1) for name, roster in rosters.items()]
    totals = team_totals(points, teams)
    head = ["名次", "队名", "名次总和", "个人名次", "总分"]
    rows = []
    for place, name, total in rank_by_place_sum(places, teams, fouls, counted):
        own = sorted(places[n] for n in rosters[name])
        rows.append([str(place), name, str(total), " ".join(map(str, own)),
                     _num(totals[name])])
    return Table(f"{ef.header.name} 团体总分 (12.5, 15.5)", head, rows)


def bracket_rounds(ef: EventFile) -> list[list[tuple[str, str, str]]]:
    """Return the knock-out bracket: per round, per match ``(upper entry,
    lower entry, winner)`` as ``"number name"`` text (empty while unknown;
    ``轮空`` for a bye's empty side), then empty placeholder matches for
    the rounds of a single-elimination bracket not paired yet.  Raises
    :class:`CompetitionError` for another kind."""
    ev = ef.event
    if not isinstance(ev, KnockoutEvent):
        raise CompetitionError(f"{ef.header.name}：只有淘汰赛有对阵表",
                               f"{ef.header.name}: only a knock-out event has a bracket")

    def label(pid: int | None) -> str:
        return "" if pid is None else f"{pid} {ev.player(pid).name}"

    out: list[list[tuple[str, str, str]]] = []
    for rnd in ev.rounds:
        out.append([(label(m.red), "轮空" if m.black is None else label(m.black),
                     label(m.winner)) for m in rnd])
    if not ev.double and ev.draw == "bracket" and out and not ev.finished:
        # the rounds to come: each match between the winners of two matches before it
        while len(out[-1]) > 1:
            last = out[-1]
            out.append([(last[2 * k][2], last[2 * k + 1][2], "")
                        for k in range(len(last) // 2)])
    return out


def text_table(table: Table) -> str:
    """Return ``table`` as aligned text (wide characters take two columns)."""
    def width(s: str) -> int:
        return sum(2 if ord(ch) > 0x2E80 else 1 for ch in s)

    rows = [table.header] + table.rows
    widths = [max(width(r[i]) if i < len(r) else 0 for r in rows)
              for i in range(len(table.header))]
    lines = [table.title]
    for r in rows:
        lines.append("  ".join(c + " " * (w - width(c)) for c, w in zip(r, widths, strict=False))
                     .rstrip())
    return "\n".join(lines) + "\n"


def result_text(value: str) -> str:
    """Return a stored result in the form arbiters write (``1-0``, ``½-½``
    as ``=``, forfeits ``+ -``)."""
    try:
        r = Result(value)
    except ValueError:
        return value
    return {Result.DRAW: "=", Result.RED_FORFEIT_WIN: "+ -", Result.BLACK_FORFEIT_WIN: "- +",
            Result.DOUBLE_FORFEIT: "- -", Result.BYE: "轮空"}.get(r, r.value)
