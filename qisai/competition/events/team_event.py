"""Team events (团体赛, clause 12): rosters in board order, line-ups checked
under 12.1-12.3, board results one at a time, 场分/局分 (14.2), team
tie-breaks (15.3/15.4), team withdrawals (20.3/20.4).

A board is one game (``series="single"``) or, in the format of the 2021
national team league (seed 001: "每台对阵必须分出胜负"), a series that
must be decided: a slow game (慢棋, 20 minutes in 001) with the board's
colours (13.2/13.3); if drawn, a rapid game (超快棋) with colours swapped
(换先); if drawn again a deciding game (附加赛) whose colours the rapid
game's Black chooses (选择先后手).  The board's result is the series'
winner, so every board gives 1:0 and the match 场分 2/1/0 as 14.2 -- the
12-team table of 001 (21, 15, 15, 14, 14, 12, 11, 11, 9, 5, 3, 2) sums to
132 = 66 matches x 2.  What a drawn deciding game gives is not in 001:
``decider_drawn`` ``"lot"`` (the default reading: 抽签) or ``"black"``
(an armageddon game: its Black wins), see :class:`~qisai.competition.series.Series`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from qisai.competition.errors import CompetitionError, EventStateError, ResultError
from qisai.competition.events.common import (
    forfeit_against,
    match_key,
)
from qisai.competition.model import Outcome, Result
from qisai.competition.pairing.swiss import SwissPlayer, pair_swiss_round
from qisai.competition.pairing.swiss_options import SwissOptions
from qisai.competition.scoring import CLASSIC, table_for_rules
from qisai.competition.series import DECIDER_DRAWN, Series, SeriesFormat
from qisai.competition.teams import (
    LineupMode,
    Team,
    TeamMatch,
    TeamTournament,
    board_colour,
    validate_lineup,
)
from qisai.competition.tiebreaks import (
    Record,
    Standing,
    rank,
)

BOARD_SERIES = ("single", "league_2021")
"""How a board of a team match is played: one game, or the 2021 league's
slow / rapid / deciding games until decided (001)."""

LEAGUE_TIMES = {"slow": "1200", "rapid": "40/600:30/300", "decider": "30/300"}
"""Default time controls of the 2021 league's games (seconds, as
:func:`~qisai.competition.match.parse_time_control` reads them): the slow
game 20 minutes a side (001: "慢棋时间只有20分钟"); 001 says only that the
rapid and deciding games are shorter, so they default to the rule book's
快棋 schemes 6.3 (40 moves in 10 minutes, then 30 in every 5) and 6.4 (30
moves in every 5 minutes).  The organiser sets all three."""

_KIND_ZH = {"slow": "慢棋", "rapid": "超快棋", "decider": "附加赛"}


# --------------------------------------------------------------------- teams
class TeamEvent:
    """A team event (团体赛): teams with rosters in board order, paired as a
    round robin or 积分编排制 of teams by :class:`TeamTournament`.

    Each match's line-ups default to the first ``boards`` players of each
    roster (12.1) and can be changed before its first result (checked by
    :func:`~qisai.competition.teams.validate_lineup` under the event's
    line-up mode).  Board results arrive one at a time; the match is entered
    into the competition layer once all its boards have one.
    """

    def __init__(self, name: str, *, system: str = "round_robin", rounds: int | None = None,
                 boards: int = 4, lineup_mode: str = "substitutes", seed: int = 0,
                 rules: str | None = None, series: str = "single",
                 decider_drawn: str = "lot", times: Mapping[str, str] | None = None,
                 draw_numbers: bool = True) -> None:
        """Raises :class:`CompetitionError` for a bad option.  ``rules``
        names the rule profile: the boards score by its points (``cxa-2007``:
        win 3, loss 0, draw 1 to Red and 2 to Black); the match points stay
        2/1/0 (14.2).  ``series`` is how a board is played
        (:data:`BOARD_SERIES`); for ``league_2021``, ``decider_drawn`` reads
        a drawn deciding game (:data:`~qisai.competition.series.DECIDER_DRAWN`)
        and ``times`` sets the time controls of the ``slow``, ``rapid`` and
        ``decider`` games (default :data:`LEAGUE_TIMES`)."""
        if series not in BOARD_SERIES:
            raise CompetitionError(f"团体赛一台的对局为 {' 或 '.join(BOARD_SERIES)}，不是 {series!r}",
                                   f"a team board is played as {' or '.join(BOARD_SERIES)}, "
                                   f"not {series!r}")
        if decider_drawn not in DECIDER_DRAWN:
            raise CompetitionError(f"decider_drawn 须为 {' 或 '.join(DECIDER_DRAWN)}，不是 {decider_drawn!r}",
                                   f"decider_drawn must be {' or '.join(DECIDER_DRAWN)}, not "
                                   f"{decider_drawn!r}")
        self.series, self.decider_drawn = series, decider_drawn
        self.draw_numbers = draw_numbers
        """Round robin: number the teams by lot at the start (制签), or, if
        False, in the order they were entered (the entries file's order)."""
        self.times = dict(LEAGUE_TIMES) if series == "league_2021" else {}
        if times:
            if series != "league_2021":
                raise CompetitionError("每局各定用时只适用于 2021 联赛赛制",
                                       "time controls per game are for the 2021 league format")
            from qisai.competition.match import MatchError, parse_time_control

            for kind, text in times.items():
                if kind not in LEAGUE_TIMES:
                    raise CompetitionError(f"times：没有 {kind!r} 这种对局（slow 慢棋、rapid 超快棋、decider 附加赛）",
                                           f"times: no game kind {kind!r} (slow, rapid, "
                                           "decider)")
                try:
                    parse_time_control(str(text))
                except MatchError as exc:
                    raise CompetitionError(f"times.{kind}：{exc.zh}",
                                           f"times.{kind}: {exc.en}") from None
                self.times[kind] = str(text)
        if system not in ("round_robin", "swiss"):
            raise CompetitionError(f"团体赛赛制须为 round_robin（循环）或 swiss（积分编排），不是 {system!r}",
                                   f"team system must be round_robin or swiss, not {system!r}")
        if system == "swiss" and rounds is None:
            raise CompetitionError("团体积分编排赛须定轮数",
                                   "a team Swiss needs a number of rounds")
        if not 1 <= boards <= 12:
            raise CompetitionError(f"台数须为 1..12，不是 {boards}",
                                   f"boards must be 1..12, not {boards}")
        try:
            self.lineup_mode = LineupMode(lineup_mode)
        except ValueError:
            raise CompetitionError(f"出场方式须为 fixed（固定）、substitutes（替补）或 free（自由），不是 {lineup_mode!r}",
                                   f"line-up mode must be fixed, substitutes or free, "
                                   f"not {lineup_mode!r}") from None
        self.name, self.system, self.rounds_planned = name, system, rounds
        self.boards, self.seed = boards, seed
        self.rules = rules
        self.teams: list[Team] = []
        self.tt: TeamTournament | None = None
        self.matches: dict[str, dict[str, Any]] = {}
        """Per match ``round:board``: ``lineups`` (red, black) and board
        ``results`` / ``fouls`` keyed by board number as text."""
        self.withdrawn: dict[int, int] = {}
        """Teams withdrawn after the start: team number -> the last round it
        took part in (20.3/20.4)."""

    @property
    def started(self) -> bool:
        """True once the teams are numbered and the event can be paired."""
        return self.tt is not None

    def add_team(self, name: str, roster: Sequence[str]) -> Team:
        """Register a team with its roster in board order (reserves last).
        Raises :class:`CompetitionError` after the start, for a duplicate
        name or a roster shorter than the boards."""
        if self.started:
            raise EventStateError(f"{self.name}：比赛已开始，报名已截止",
                                  f"{self.name}: entries are closed once the event started")
        if any(t.name == name for t in self.teams):
            raise CompetitionError(f"{self.name}：队名 {name!r} 重复",
                                   f"{self.name}: duplicate team {name!r}")
        team = Team(name, [m.strip() for m in roster], self.boards)
        self.teams.append(team)
        return team

    def remove_team(self, name: str) -> None:
        """Withdraw a team before the start (20.2).  Raises :class:`CompetitionError`."""
        if self.started:
            raise EventStateError(f"{self.name}：比赛已开始",
                                  f"{self.name}: the event has started")
        before = len(self.teams)
        self.teams = [t for t in self.teams if t.name != name]
        if len(self.teams) == before:
            raise CompetitionError(f"{self.name}：没有名为 {name!r} 的队",
                                   f"{self.name}: no team named {name!r}")

    def start(self) -> None:
        """Number the teams (by lot for a round robin, 制签; as registered
        for a Swiss) and create the competition.  Raises
        :class:`CompetitionError` if started or with fewer than two teams."""
        if self.started:
            raise EventStateError(f"{self.name}：比赛已开始",
                                  f"{self.name}: already started")
        ordered = list(self.teams)
        if self.system == "round_robin" and self.draw_numbers:
            random.Random(f"{self.seed}:numbers").shuffle(ordered)
        self.tt = TeamTournament(self.name, ordered, system=self.system,
                                 rounds=self.rounds_planned, lineup_mode=self.lineup_mode,
                                 seed=self.seed,
                                 scoring=CLASSIC if self.rules is None
                                 else table_for_rules(self.rules))
        self.teams = self.tt.teams
        self.rounds_planned = self.tt.rounds_planned

    def team_tournament(self) -> TeamTournament:
        """Return the started event's team tournament (the CLI, the papers
        and the arena read its teams and matches).  Raises
        :class:`EventStateError` before the start."""
        if self.tt is None:
            raise EventStateError(f"{self.name}：请先开始比赛",
                                  f"{self.name}: start the event first")
        return self.tt

    def member_numbers(self) -> dict[tuple[int, str], int]:
        """Return the entry number of every rostered player, ``(team id,
        name) -> n``, numbered 1.. in team and roster order."""
        out: dict[tuple[int, str], int] = {}
        for t in self.team_tournament().teams:
            for name in t.roster:
                out[(t.id, name)] = len(out) + 1
        return out

    @property
    def finished(self) -> bool:
        """True when every planned round is paired and every match decided."""
        tt = self.tt
        return (tt is not None and len(tt.rounds) == tt.rounds_planned
                and all(m.black_team is None or m.results or m.forfeit is not None
                        for rnd in tt.rounds for m in rnd))

    def pair_next_round(self) -> int:
        """Pair the next round with default line-ups; return its number.

        A withdrawn team is no longer paired in a Swiss (20.4); in a round
        robin its matches are kept in the table and forfeited at once, the
        opponent winning (20.3: "其余未赛对局均作弃权，对方获胜").
        Raises :class:`CompetitionError` (previous round incomplete, all
        rounds paired, no Swiss pairing)."""
        tt = self.team_tournament()
        gone = set(self.withdrawn)
        matches = self._pair_swiss_without(gone) if gone and self.system == "swiss" \
            else tt.pair_next_round()
        number = len(tt.rounds)
        for m in matches:
            if m.black_team is None:
                continue
            self.matches[match_key(number, m.board)] = {
                "lineups": [tt.team(m.red_team).roster[: self.boards],
                            tt.team(m.black_team).roster[: self.boards]],
                "results": {}, "fouls": {}}
            if m.red_team in gone or m.black_team in gone:
                tt.record_forfeit(number, m.board, forfeit_against(
                    m.red_team in gone, m.black_team in gone))
        return number

    def _pair_swiss_without(self, gone: set[int]) -> list[TeamMatch]:
        """Pair the next team-Swiss round among the teams still in, the way
        :meth:`TeamTournament.pair_next_round` pairs all of them (score
        groups of 场分, no rematch, colour balance)."""
        tt = self.team_tournament()
        if len(tt.rounds) >= tt.rounds_planned:
            raise EventStateError(f"{self.name}：所有轮次均已编排",
                                  f"{self.name}: all rounds are paired")
        if tt.rounds and any(not m.results and m.forfeit is None and m.black_team is not None
                             for m in tt.rounds[-1]):
            raise EventStateError(f"{self.name}：第 {len(tt.rounds)} 轮尚未赛完",
                                  f"{self.name}: round {len(tt.rounds)} is not complete")
        number = len(tt.rounds) + 1
        recs = tt.records()
        states = []
        for t in tt.teams:
            if t.id in gone:
                continue
            rec = recs[t.id]
            states.append(SwissPlayer(
                t.id, rec.points, t.id,
                frozenset(e.opponent for e in rec.encounters if e.opponent is not None),
                tuple(e.colour for e in rec.encounters if e.colour is not None),
                sum(1 for e in rec.encounters if e.outcome is Outcome.BYE)))
        if len(states) < 2:
            raise EventStateError(f"{self.name}：剩下可编排的队不足两支",
                                  f"{self.name}: fewer than two teams are left to pair")
        res = pair_swiss_round(states, number, SwissOptions(),
                               random.Random(f"{self.seed}:team:{number}"))
        matches = [TeamMatch(number, p.board, p.red, p.black) for p in res.pairings]
        tt.rounds.append(matches)
        return matches

    def withdraw(self, name: str) -> str:
        """Withdraw team ``name`` after the start; return what was done.

        The competition layer has no team withdrawal, so the rule book's
        treatment of an entry is applied to the team: its match of the
        current round, if not complete, is forfeited to the opponent (board
        results entered so far are dropped) and it counts as having taken
        part up to the round before; later matches are forfeits (round
        robin) or not paired (Swiss).  In a round robin, a team that met
        fewer than half its opponents over the board has all its results
        struck out (20.3, see :meth:`annulled_teams`); in a Swiss its
        results stand (20.4).
        Raises :class:`CompetitionError` for an unknown or already
        withdrawn team.
        """
        tt = self.team_tournament()
        team = next((t for t in tt.teams if t.name == name), None)
        if team is None:
            raise CompetitionError(f"{self.name}：没有名为 {name!r} 的队",
                                   f"{self.name}: no team named {name!r}")
        if team.id in self.withdrawn:
            raise EventStateError(f"{self.name}：{name} 已退赛（第 {self.withdrawn[team.id]} 轮后）",
                                  f"{self.name}: {name} withdrew already (after round "
                                  f"{self.withdrawn[team.id]})")
        last = len(tt.rounds)
        forfeited = ""
        for m in tt.rounds[-1] if tt.rounds else []:
            if team.id not in (m.red_team, m.black_team) or m.black_team is None:
                continue
            if not m.results and m.forfeit is None:
                other = m.black_team if m.red_team == team.id else m.red_team
                res = forfeit_against(m.red_team == team.id or m.red_team in self.withdrawn,
                                       m.black_team == team.id
                                       or m.black_team in self.withdrawn)
                self.record_forfeit(last, m.board, res)
                forfeited = f"; round {last} match {m.board} forfeited to " \
                            f"{tt.team(other).name} ({res.value})"
                last -= 1
        self.withdrawn[team.id] = last
        rule = "20.4" if self.system == "swiss" else "20.3"  # 全队轮 is played as a round robin
        struck = " — fewer than half its opponents met: its results are struck out " \
                 "(20.3)" if team.id in self.annulled_teams() else ""
        return f"{name} withdrew after round {last} ({rule}){forfeited}{struck}"

    def annulled_teams(self) -> set[int]:
        """Teams whose results 20.3 strikes out: withdrawn from a round robin
        having played (not forfeited) matches against fewer than half of
        their opponents; exactly half keeps them."""
        tt = self.team_tournament()
        if self.system != "round_robin":
            return set()
        opponents = len(tt.teams) - 1
        out = set()
        for tid in self.withdrawn:
            played = sum(1 for rnd in tt.rounds for m in rnd
                         if tid in (m.red_team, m.black_team) and m.results)
            if 2 * played < opponents:
                out.add(tid)
        return out

    def records(self) -> dict[int, Record]:
        """Return the per-team records the ranking works on: the competition
        layer's, less the teams struck out by 20.3 and every match against
        them."""
        recs = self.team_tournament().records()
        struck = self.annulled_teams()
        if not struck:
            return recs
        return {tid: Record(rec.entry, [e for e in rec.encounters if e.opponent not in struck],
                            rec.penalty)
                for tid, rec in recs.items() if tid not in struck}

    def match(self, round_no: int, match: int) -> TeamMatch:
        """Return team match ``match`` (its board number in the round) of
        round ``round_no``.  Raises :class:`ResultError` if there is none."""
        tt = self.team_tournament()
        if 1 <= round_no <= len(tt.rounds):
            for m in tt.rounds[round_no - 1]:
                if m.board == match:
                    return m
        raise ResultError(f"{self.name}：第 {round_no} 轮没有第 {match} 场",
                          f"{self.name}: no match {match} in round {round_no}")

    def _state(self, round_no: int, match: int) -> dict[str, Any]:
        m = self.match(round_no, match)
        state = self.matches.get(match_key(round_no, match))
        if state is None or m.black_team is None:
            raise ResultError(f"第 {round_no} 轮第 {match} 场为轮空",
                              f"round {round_no} match {match} is a bye")
        return state

    def set_lineups(self, round_no: int, match: int, red: Sequence[str],
                    black: Sequence[str]) -> None:
        """Set both line-ups (board 1 first) of a match before its first
        result.  Raises :class:`CompetitionError` (12.1-12.3 broken, results
        already in, unknown match)."""
        tt = self.team_tournament()
        state = self._state(round_no, match)
        if state["results"]:
            raise EventStateError(f"第 {round_no} 轮第 {match} 场：已有成绩，出场名单不能再改",
                                  f"round {round_no} match {match}: results are in; the "
                                  "line-ups are fixed")
        m = self.match(round_no, match)
        assert m.black_team is not None
        lu_r = validate_lineup(tt.team(m.red_team), red, self.lineup_mode)
        lu_b = validate_lineup(tt.team(m.black_team), black, self.lineup_mode)
        state["lineups"] = [list(lu_r), list(lu_b)]

    def board_players(self, round_no: int, match: int) -> list[tuple[int, str, str]]:
        """Return ``(board, Red player, Black player)`` of a match: the
        first-listed team has Red on odd boards (13.2/13.3)."""
        state = self._state(round_no, match)
        red_lu, black_lu = state["lineups"]
        out = []
        for b in range(1, self.boards + 1):
            first_red = board_colour(b, True).value == "red"
            a, c = red_lu[b - 1], black_lu[b - 1]
            out.append((b, a, c) if first_red else (b, c, a))
        return out

    def record_board(self, round_no: int, match: int, board: int, result: str | Result, *,
                     red_fouls: int = 0, black_fouls: int = 0,
                     overwrite: bool = False, game: int | None = None) -> None:
        """Enter one board's result (from that board's Red side); the match
        goes into the standings once all boards have one.  In the 2021
        league format (:attr:`series`) the result is that of the board's
        next game (慢棋, 超快棋, 附加赛), or of game ``game`` with
        ``overwrite`` (the games after it are dropped), and the board has
        its result once the series is decided.  Raises
        :class:`CompetitionError` for an unknown board, a bye, a result
        already entered (unless ``overwrite``), an unreadable result, or a
        deciding game whose colours are not chosen yet."""
        state = self._state(round_no, match)
        if not 1 <= board <= self.boards:
            raise ResultError(f"第 {round_no} 轮第 {match} 场：没有第 {board} 台",
                              f"round {round_no} match {match}: no board {board}")
        res = Result.parse(result) if isinstance(result, str) else result
        if res is Result.BYE:
            raise ResultError("团体赛一场中的一台不能轮空",
                              "a board of a team match cannot be a bye")
        if red_fouls < 0 or black_fouls < 0:
            raise ResultError("犯规次数不能为负",
                              "fouls cannot be negative")
        m = self.match(round_no, match)
        if m.forfeit is not None and not overwrite:
            raise ResultError(f"第 {round_no} 轮第 {match} 场已判弃权（{m.forfeit.value}）",
                              f"round {round_no} match {match} was forfeited "
                              f"({m.forfeit.value})")
        if self.series == "league_2021":
            self._record_league_game(round_no, match, board, res, red_fouls, black_fouls,
                                     overwrite, game)
            self._enter(round_no, match)
            return
        if str(board) in state["results"] and not overwrite:
            raise ResultError(f"第 {round_no} 轮第 {match} 场第 {board} 台：成绩已登记（{state['results'][str(board)]}）",
                              f"round {round_no} match {match} board {board}: result already "
                              f"entered ({state['results'][str(board)]})")
        state["results"][str(board)] = res.value
        state["fouls"][str(board)] = [red_fouls, black_fouls]
        self._enter(round_no, match)

    # -- the 2021 league format (001): every board decided -------------------
    def board_games(self, round_no: int, match: int, board: int) -> list[dict[str, Any]]:
        """The games played on a board in the 2021 league format, in order:
        ``kind`` (slow, rapid, decider), ``red`` and ``black`` (names),
        ``result`` (from that game's Red), ``time`` (its time control) and,
        for a decider, ``chosen_by`` (the rapid game's Black, who chose the
        colours).  Empty for a one-game board."""
        games: list[dict[str, Any]] = self._state(round_no, match).get("games", {}).get(
            str(board), [])
        return games

    def board_series(self, round_no: int, match: int, board: int) -> Series:
        """The board's 2021-league series replayed from its games: entry 1
        is the board's Red (13.2/13.3; Red in the slow game), entry 2 its
        Black.  Raises :class:`CompetitionError` for a one-game event."""
        if self.series != "league_2021":
            raise EventStateError(f"{self.name}：各台只下一局",
                                  f"{self.name}: its boards are single games")
        state = self._state(round_no, match)
        s = Series(1, 2, SeriesFormat.LEAGUE_2021, seed=self._series_seed(round_no, match, board),
                   first_colours="pairing", decider_drawn=self.decider_drawn)
        names = self._board_names(round_no, match, board)
        choice = state.get("choices", {}).get(str(board))
        for k, g in enumerate(self.board_games(round_no, match, board)):
            chosen = None if choice is None else (1 if choice == names[0] else 2)
            s.next_game(chosen_red=chosen if k == 2 else None)
            s.record(Result(g["result"]))
        return s

    def _series_seed(self, round_no: int, match: int, board: int) -> int:
        return ((self.seed * 1009 + round_no) * 1009 + match) * 1009 + board

    def _board_names(self, round_no: int, match: int, board: int) -> tuple[str, str]:
        for b, red, black in self.board_players(round_no, match):
            if b == board:
                return red, black
        raise ResultError(f"第 {round_no} 轮第 {match} 场：没有第 {board} 台",
                          f"round {round_no} match {match}: no board {board}")

    def awaiting_choice(self, round_no: int, match: int, board: int) -> str | None:
        """The player who must choose the colours of the board's deciding
        game (001: the rapid game's Black), or None when no choice is due."""
        if self.series != "league_2021":
            return None
        state = self._state(round_no, match)
        games = self.board_games(round_no, match, board)
        if len(games) != 2 or str(board) in state.get("choices", {}):
            return None
        if self.board_series(round_no, match, board).decided:
            return None
        return str(games[1]["black"])

    def choose_colour(self, round_no: int, match: int, board: int, red: str) -> str:
        """Record the colour choice of a board's deciding game: ``red`` (a
        player of the board) will have Red.  Returns the chooser's name.
        Raises :class:`EventStateError` when no choice is due and
        :class:`ResultError` for a player not on the board."""
        chooser = self.awaiting_choice(round_no, match, board)
        if chooser is None:
            raise EventStateError(f"第 {round_no} 轮第 {match} 场第 {board} 台：现在不需选先后手（001：超快棋和棋之后才选）",
                                  f"round {round_no} match {match} board {board}: no colour "
                                  "choice is due (001: after a drawn rapid game)")
        names = self._board_names(round_no, match, board)
        if red not in names:
            raise ResultError(f"第 {round_no} 轮第 {match} 场第 {board} 台：{red!r} 不在这一台（{names[0]}、{names[1]}）",
                              f"round {round_no} match {match} board {board}: {red!r} does not "
                              f"play on it ({names[0]}, {names[1]})")
        self._state(round_no, match).setdefault("choices", {})[str(board)] = red
        return chooser

    def next_board_game(self, round_no: int, match: int, board: int) -> dict[str, str] | None:
        """The board's next game in the 2021 league format: ``kind``,
        ``red``, ``black`` (names) and ``time``; None once decided or while
        the decider waits for its colour choice."""
        if self.series != "league_2021" or self.awaiting_choice(round_no, match, board):
            return None
        s = self.board_series(round_no, match, board)
        choice = self._state(round_no, match).get("choices", {}).get(str(board))
        names = self._board_names(round_no, match, board)
        nxt = s.next_game(chosen_red=None if choice is None else
                          (1 if choice == names[0] else 2))
        if nxt is None:
            return None
        return {"kind": nxt.kind, "red": names[nxt.red - 1], "black": names[nxt.black - 1],
                "time": self.times.get(nxt.kind, "")}

    def game_colours(self, round_no: int, match: int, board: int, number: int
                     ) -> tuple[str, str] | None:
        """The colours of game ``number`` (1 slow, 2 rapid, 3 decider) of a
        board in the 2021 league format: ``(Red, Black)`` by name, as played
        or as due (the slow game the board's colours, 13.2/13.3; the rapid
        game swapped, 换先; the decider as the rapid game's Black chose), or
        None when not known yet (the decider before the choice)."""
        games = self.board_games(round_no, match, board)
        if 1 <= number <= len(games):
            g = games[number - 1]
            return str(g["red"]), str(g["black"])
        red, black = self._board_names(round_no, match, board)
        if number == 1:
            return red, black
        if number == 2:
            return black, red
        chosen = self._state(round_no, match).get("choices", {}).get(str(board))
        if number != 3 or chosen is None:
            return None
        return (red, black) if chosen == red else (black, red)

    def board_note(self, round_no: int, match: int, board: int) -> str:
        """The board's games so far in Chinese, e.g. ``慢棋 和；超快棋 和；
        附加赛（乙选先后手，甲执红）1-0 → 甲胜``; empty for a one-game board."""
        if self.series != "league_2021":
            return ""
        parts = []
        for g in self.board_games(round_no, match, board):
            kind = _KIND_ZH.get(g["kind"], g["kind"])
            if g["kind"] == "decider":
                kind += f"（{g.get('chosen_by', '')}选先后手，{g['red']}执红）"
            res = {"1-0": "红胜", "0-1": "黑胜", "=-=": "和"}.get(g["result"], g["result"])
            parts.append(f"{kind} {g['red']}-{g['black']} {res}")
        s = self.board_series(round_no, match, board)
        names = self._board_names(round_no, match, board)
        if s.decided and s.winner is not None:
            parts.append(f"{names[s.winner - 1]}胜"
                         + ("（和局后抽签）" if "lot" in s.how else
                            "（附加赛和，执黑方胜）" if "Black goes through" in s.how else ""))
        else:
            waiting = self.awaiting_choice(round_no, match, board)
            if waiting:
                parts.append(f"附加赛：{waiting}选择先后手")
        return "；".join(parts)

    def _record_league_game(self, round_no: int, match: int, board: int, res: Result,
                            red_fouls: int, black_fouls: int, overwrite: bool,
                            game: int | None) -> None:
        state = self._state(round_no, match)
        games = state.setdefault("games", {}).setdefault(str(board), [])
        where = f"round {round_no} match {match} board {board}"
        number = game if game is not None else len(games) + 1
        if game is not None and not 1 <= game <= 3:
            raise ResultError(f"第 {round_no} 轮第 {match} 场第 {board} 台：一台有第 1-3 局（慢棋、超快棋、附加赛）",
                              f"{where}: a board has games 1-3 (slow, rapid, decider)")
        if number <= len(games):
            if not overwrite:
                raise ResultError(f"第 {round_no} 轮第 {match} 场第 {board} 台：第 {number} 局已有成绩（{games[number - 1]['result']}；用 --overwrite 更正）",
                                  f"{where}: game {number} has a result ({games[number - 1]['result']}"
                                  "; --overwrite corrects it)")
            del games[number - 1:]
            if number < 3:  # the decider's colours were chosen after the rapid game
                state.setdefault("choices", {}).pop(str(board), None)
        elif number > len(games) + 1:
            raise ResultError(f"第 {round_no} 轮第 {match} 场第 {board} 台：下一局是第 {len(games) + 1} 局，不是第 {number} 局",
                              f"{where}: game {len(games) + 1} is next, not game {number}")
        s = self.board_series(round_no, match, board)
        if s.decided:
            raise ResultError(f"第 {round_no} 轮第 {match} 场第 {board} 台：胜负已定（{s.how}；用 --overwrite --game N 更正某局）",
                              f"{where}: decided already ({s.how}; --overwrite --game N "
                              "corrects a game)")
        waiting = self.awaiting_choice(round_no, match, board)
        if waiting is not None:
            raise EventStateError(f"第 {round_no} 轮第 {match} 场第 {board} 台：附加赛等待 {waiting} 选择先后手（001：超快棋执黑方选）",
                                  f"{where}: the deciding game waits for {waiting}'s colour "
                                  "choice (001: the rapid game's Black chooses)")
        nxt = self.next_board_game(round_no, match, board)
        assert nxt is not None
        rec: dict[str, Any] = dict(nxt, result=res.value, fouls=[red_fouls, black_fouls])
        if nxt["kind"] == "decider":
            rec["chosen_by"] = str(games[1]["black"])
        games.append(rec)
        s = self.board_series(round_no, match, board)
        fouls = [0, 0]
        names = self._board_names(round_no, match, board)
        for g in games:  # fouls to the board's Red and Black, whatever colour each game had
            f = g.get("fouls", [0, 0])
            red_idx = 0 if g["red"] == names[0] else 1
            fouls[red_idx] += int(f[0])
            fouls[1 - red_idx] += int(f[1])
        state["fouls"][str(board)] = fouls
        if s.decided and s.winner is not None:
            state["results"][str(board)] = (Result.RED_WIN if s.winner == 1
                                            else Result.BLACK_WIN).value
        else:
            state["results"].pop(str(board), None)

    def _enter(self, round_no: int, match: int) -> None:
        tt = self.team_tournament()
        state = self._state(round_no, match)
        if len(state["results"]) < self.boards:
            m = self.match(round_no, match)
            if m.results:  # a correction re-opened a board: the match is open again
                m.results, m.fouls = [], []
            return
        results = [state["results"][str(b)] for b in range(1, self.boards + 1)]
        # (Red's fouls, Black's fouls) of each board, as the competition layer reads them
        fouls = [(int(f[0]), int(f[1])) for f in
                 (state["fouls"].get(str(b), [0, 0]) for b in range(1, self.boards + 1))]
        tt.record_match(round_no, match, state["lineups"][0], state["lineups"][1], results,
                        fouls)

    def record_forfeit(self, round_no: int, match: int, result: str | Result) -> None:
        """A whole match forfeited (21.4: ``+--`` the first-listed team wins,
        ``--+`` the other, ``---`` both absent).  Board results are cleared.
        Raises :class:`CompetitionError` for a result that is not a forfeit."""
        tt = self.team_tournament()
        state = self._state(round_no, match)
        res = Result.parse(result) if isinstance(result, str) else result
        tt.record_forfeit(round_no, match, res)
        state["results"], state["fouls"] = {}, {}

    def standings(self) -> list[Standing]:
        """Rank the teams by 场分 then the event's team tie-breaks (15.3/15.4);
        teams struck out by 20.3 are not ranked."""
        tt = self.team_tournament()
        return rank(self.records(), tt.tiebreaks, tt.policy)

    def crosstable(self) -> list[list[str]]:
        """Return the team crosstable: a header row (in Chinese: 序号, 队名,
        the team numbers, 场分), then per team its number, name, per
        opponent ``match points (board points)`` of each meeting (``注销``
        where 20.3 struck a team out), its total match points and, when a
        team withdrew, a 备注 column saying after which round."""
        tt = self.team_tournament()
        n = len(tt.teams)
        cells: dict[int, dict[int, list[str]]] = {t.id: {} for t in tt.teams}
        totals = {t.id: 0.0 for t in tt.teams}
        for rec in self.records().values():
            totals[rec.entry] = rec.points
            for e in rec.encounters:
                if e.opponent is None:
                    continue
                mark = f"{e.points:g}"
                if e.outcome.value.startswith("forfeit"):
                    mark += " (+)" if e.outcome.value == "forfeit_win" else " (-)"
                else:
                    mark += f" ({e.game_points:g})"
                cells[rec.entry].setdefault(e.opponent, []).append(mark)
        struck = self.annulled_teams()
        rows = [["序号", "队名"] + [str(k) for k in range(1, n + 1)] + ["场分", "备注"]]
        for t in tt.teams:
            note = ""
            if t.id in self.withdrawn:
                rule = "20.4" if self.system == "swiss" else "20.3"
                note = f"第{self.withdrawn[t.id]}轮后退出（{rule}）" \
                    + ("，成绩注销" if t.id in struck else "")
            rows.append([str(t.id), t.name]
                        + ["x" if q == t.id else "注销" if q in struck or t.id in struck
                           else " ".join(cells[t.id].get(q, [])) for q in range(1, n + 1)]
                        + ["" if t.id in struck else f"{totals[t.id]:g}", note])
        if not self.withdrawn:
            rows = [r[:-1] for r in rows]
        return rows

    # -- persistence
    def to_dict(self) -> dict[str, Any]:
        """Return the event as JSON-ready data."""
        return {"format": "qisai-team", "name": self.name, "system": self.system,
                "rounds_planned": self.rounds_planned, "boards": self.boards,
                "lineup_mode": self.lineup_mode.value, "seed": self.seed, "rules": self.rules,
                "series": self.series, "decider_drawn": self.decider_drawn, "times": self.times,
                "draw_numbers": self.draw_numbers,
                "teams": [{"name": t.name, "roster": list(t.roster)} for t in self.teams],
                "competition": None if self.tt is None else self.tt.to_dict(),
                "matches": self.matches,
                "withdrawn": {str(k): v for k, v in self.withdrawn.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TeamEvent:
        """Inverse of :meth:`to_dict`.  Raises :class:`CompetitionError`."""
        try:
            ev = cls(str(data["name"]), system=data["system"],
                     rounds=data.get("rounds_planned"), boards=int(data["boards"]),
                     lineup_mode=data["lineup_mode"], seed=int(data["seed"]),
                     rules=data.get("rules"), series=str(data.get("series", "single")),
                     decider_drawn=str(data.get("decider_drawn", "lot")),
                     draw_numbers=bool(data.get("draw_numbers", True)))
            if data.get("times"):  # checked when the event was made
                ev.times = {str(k): str(v) for k, v in dict(data["times"]).items()}
            ev.teams = [Team(t["name"], list(t["roster"]), ev.boards) for t in data["teams"]]
            if data.get("competition") is not None:
                ev.tt = TeamTournament.from_dict(dict(data["competition"]))
                ev.teams = ev.tt.teams
            ev.matches = {str(k): dict(v) for k, v in data.get("matches", {}).items()}
            ev.withdrawn = {int(k): int(v) for k, v in data.get("withdrawn", {}).items()}
        except (KeyError, TypeError, ValueError) as exc:
            raise CompetitionError(f"团体赛数据有误（{exc!r}）",
                                   f"bad team event data ({exc!r})") from None
        return ev


