"""Knock-out and team events as the arena runs them.

The competition layer decides everything: :class:`~qisai.competition.Knockout`
pairs the rounds (seeded bracket with byes, card draw, double elimination),
:class:`~qisai.competition.Series` plays each knock-out match out (one game,
two games 13.5, best of three with an extra game and a lot) and
:class:`~qisai.competition.TeamTournament` pairs and scores team matches
(场分 2/1/0 from 局分, 14.2; team tie-breaks 15.3/15.4).  What this module
adds is what a server event needs around them, kept as JSON in the event's
row: entry names, the results of each series game as they come in, the
arbiter's decisions, and a team match's board results until all its boards
are in (the competition layer takes a match whole).

Nothing here touches the database or HTTP; :mod:`qisai.web.tournaments` does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from qisai.competition import (
    CompetitionError,
    EventStateError,
    Knockout,
    LineupMode,
    Player,
    Result,
    ResultError,
    Series,
    SeriesFormat,
    Team,
    TeamTournament,
)
from qisai.competition.pairing.knockout import KnockoutMatch
from qisai.competition.teams import TeamMatch, board_colour, validate_lineup
from qisai.competition.tiebreaks import Standing

__all__ = ["KNOCKOUT_SERIES", "KnockoutEvent", "TeamEvent", "BoardSlot"]

KNOCKOUT_SERIES = ("single", "two_games", "best_of_three")
"""How a knock-out match is played out (see :class:`SeriesFormat`); the 2021
league format needs a colour choice the pages do not ask for yet."""


def _key(round_no: int, index: int) -> str:
    return f"{round_no}:{index}"


@dataclass(frozen=True, slots=True)
class BoardSlot:
    """A game to be played: who has Red and Black (entry numbers, or team
    members' names for team events) and where it belongs in the event
    (``key``: ``[round, match, game]`` for knock-outs, ``[round, match,
    board]`` for team events)."""

    key: tuple[int, int, int]
    red: int
    black: int


# ---------------------------------------------------------------- knock-out
class KnockoutEvent:
    """An individual knock-out event (淘汰制, 11.1).

    Entries are seeded at :meth:`start` (by rating, unrated ones after the
    rated in an order drawn by lot; or as registered; or all by lot) and
    handed to :class:`Knockout` best first.  Each match is a
    :class:`Series` of ``series`` format; a single game that is drawn, or a
    match the arbiter settles otherwise (an armageddon or a lot played over
    the board, a withdrawal), is decided by :meth:`decide`.
    """

    def __init__(self, name: str, *, series: str = "two_games", draw: str = "bracket",
                 byes: str = "seeded", double: bool = False, seeding: str = "rating",
                 seed: int = 0) -> None:
        """Raises :class:`CompetitionError` for an unknown option."""
        if series not in KNOCKOUT_SERIES:
            raise CompetitionError(f"series must be one of {', '.join(KNOCKOUT_SERIES)}, "
                                   f"not {series!r}")
        if seeding not in ("rating", "order", "lot"):
            raise CompetitionError(f"seeding must be rating, order or lot, not {seeding!r}")
        if draw not in ("bracket", "cards"):
            raise CompetitionError(f"draw must be bracket or cards, not {draw!r}")
        if byes not in ("seeded", "lot"):
            raise CompetitionError(f"byes must be seeded or lot, not {byes!r}")
        if double and draw != "bracket":
            raise CompetitionError("double elimination uses the bracket draw, not cards")
        self.name = name
        self.series_format = series
        self.draw, self.byes, self.double, self.seeding = draw, byes, double, seeding
        self.seed = seed
        self.players: list[Player] = []
        self.ko: Knockout | None = None
        self.games: dict[str, list[str]] = {}
        """Results (``Result`` values) of each match's series games, in order."""
        self.decisions: dict[str, dict[str, Any]] = {}
        """The arbiter's decision of a match: ``winner`` and ``reason``."""

    # -- entries
    @property
    def started(self) -> bool:
        """True once the entries are seeded and the bracket exists."""
        return self.ko is not None

    def add_player(self, player: Player) -> Player:
        """Register ``player``.  Raises :class:`CompetitionError` after the
        start or for a duplicate name."""
        if self.started:
            raise EventStateError(f"{self.name}: entries are closed once the event started")
        if any(p.name == player.name for p in self.players):
            raise CompetitionError(f"{self.name}: duplicate entry {player.name!r}")
        self.players.append(player)
        return player

    def remove_player(self, name: str) -> None:
        """Withdraw before the start (20.2).  Raises :class:`CompetitionError`."""
        if self.started:
            raise EventStateError(f"{self.name}: the event has started; withdraw instead")
        before = len(self.players)
        self.players = [p for p in self.players if p.name != name]
        if len(self.players) == before:
            raise CompetitionError(f"{self.name}: no entry named {name!r}")

    def player(self, pid: int) -> Player:
        """Return entry number ``pid``.  Raises :class:`CompetitionError`."""
        for p in self.players:
            if p.id == pid:
                return p
        raise CompetitionError(f"{self.name}: no entry number {pid}")

    def start(self) -> None:
        """Seed the entries, number them 1..n in seed order and make the
        bracket.  Raises :class:`CompetitionError` if started or with fewer
        than two entries."""
        if self.started:
            raise EventStateError(f"{self.name}: already started")
        if len(self.players) < 2:
            raise EventStateError(f"{self.name}: at least two entries are needed to start")
        rng = random.Random(f"{self.seed}:seeding")
        ordered = list(self.players)
        if self.seeding == "lot":
            rng.shuffle(ordered)
        elif self.seeding == "rating":
            # as 积分编排制 seeds (Appendix 2): by rating, equal ratings and the
            # unrated (after the rated ones) in an order drawn by lot
            lots = {p.name: rng.random() for p in ordered}
            ordered.sort(key=lambda p: (p.rating <= 0, -p.rating, lots[p.name]))
        for k, p in enumerate(ordered, start=1):
            p.id = k
        self.players = ordered
        self.ko = Knockout([p.id for p in ordered], draw=self.draw, byes=self.byes,
                           double=self.double, seed=self.seed)

    # -- rounds and matches
    def _ko(self) -> Knockout:
        if self.ko is None:
            raise EventStateError(f"{self.name}: start the event first")
        return self.ko

    @property
    def rounds(self) -> list[list[KnockoutMatch]]:
        """The paired rounds (empty before the start)."""
        return [] if self.ko is None else self.ko.rounds

    @property
    def finished(self) -> bool:
        """True when one entry is left."""
        return self.ko is not None and self.ko.finished

    def match(self, round_no: int, index: int) -> KnockoutMatch:
        """Return match ``index`` (0-based) of round ``round_no``.
        Raises :class:`ResultError` if there is none."""
        rounds = self._ko().rounds
        if not 1 <= round_no <= len(rounds) or not 0 <= index < len(rounds[round_no - 1]):
            raise ResultError(f"{self.name}: no match {index} in round {round_no}")
        return rounds[round_no - 1][index]

    def series(self, round_no: int, index: int) -> Series | None:
        """Return the match's series replayed from its recorded games (None
        for a bye)."""
        m = self.match(round_no, index)
        if m.black is None:
            return None
        s = Series(m.red, m.black, SeriesFormat(self.series_format),
                   seed=self.seed * 1009 + round_no * 97 + index, decide_ties=True)
        for value in self.games.get(_key(round_no, index), []):
            s.next_game()
            s.record(Result(value))
        return s

    def next_games(self, round_no: int | None = None) -> list[BoardSlot]:
        """Return the games now due in round ``round_no`` (default the last
        round): the next game of every undecided series."""
        rounds = self._ko().rounds
        if not rounds:
            return []
        r = round_no or len(rounds)
        out = []
        for m in rounds[r - 1]:
            if m.black is None or m.winner is not None:
                continue
            s = self.series(r, m.index)
            assert s is not None
            g = s.next_game()
            if g is not None:
                out.append(BoardSlot((r, m.index, g.number), g.red, g.black))
        return out

    def pair_next_round(self) -> list[KnockoutMatch]:
        """Pair the next round.  Raises :class:`CompetitionError` while the
        last round is undecided or once the event is over."""
        return self._ko().pair_next_round()

    def _open(self, round_no: int) -> None:
        rounds = self._ko().rounds
        if round_no != len(rounds):
            raise EventStateError(f"{self.name}: round {round_no} is closed: round "
                                  f"{len(rounds)} is paired after it")

    def record_game(self, round_no: int, index: int, game: int, result: str | Result, *,
                    overwrite: bool = False) -> None:
        """Enter the result of game ``game`` (1-based) of a match's series.

        The next game takes the next number; an earlier one is a correction
        (``overwrite``), and the series is replayed (games a correction makes
        unnecessary are dropped).  Raises :class:`CompetitionError` for a bye,
        a closed round, a game out of turn or an unreadable result.
        """
        self._open(round_no)
        m = self.match(round_no, index)
        if m.black is None:
            raise ResultError(f"round {round_no} match {index} is a bye")
        res = Result.parse(result) if isinstance(result, str) else result
        if res is Result.BYE:
            raise ResultError("a series game cannot be a bye")
        games = list(self.games.get(_key(round_no, index), []))
        if game == len(games) + 1:
            s = self.series(round_no, index)
            assert s is not None
            if s.decided:
                raise ResultError(f"round {round_no} match {index} is decided "
                                  f"({s.how}): no game {game}")
            games.append(res.value)
        elif 1 <= game <= len(games):
            if not overwrite:
                raise ResultError(f"round {round_no} match {index} game {game}: result "
                                  f"already entered ({games[game - 1]})")
            games[game - 1] = res.value
        else:
            raise ResultError(f"round {round_no} match {index}: game {game} is not due "
                              f"(next is game {len(games) + 1})")
        # replay: drop games a corrected result makes unnecessary
        s = Series(m.red, m.black, SeriesFormat(self.series_format),
                   seed=self.seed * 1009 + round_no * 97 + index, decide_ties=True)
        kept = []
        for value in games:
            if s.decided:
                break
            s.next_game()
            s.record(Result(value))
            kept.append(value)
        self.games[_key(round_no, index)] = kept
        self._settle(round_no, index)

    def decide(self, round_no: int, index: int, winner: int | None, reason: str) -> None:
        """The arbiter decides a match (e.g. after an armageddon or a lot
        played over the board, or a withdrawal, 20.4); ``winner`` None takes
        the decision back.  Raises :class:`CompetitionError` for a closed
        round, a bye or a winner who is not in the match."""
        self._open(round_no)
        m = self.match(round_no, index)
        if m.black is None:
            raise ResultError(f"round {round_no} match {index} is a bye")
        k = _key(round_no, index)
        if winner is None:
            self.decisions.pop(k, None)
        else:
            if winner not in (m.red, m.black):
                raise ResultError(f"round {round_no} match {index}: {winner} did not play "
                                  f"({m.red} v {m.black})")
            self.decisions[k] = {"winner": winner, "reason": reason}
        self._settle(round_no, index)

    def _settle(self, round_no: int, index: int) -> None:
        m = self.match(round_no, index)
        decision = self.decisions.get(_key(round_no, index))
        if decision is not None:
            m.winner = int(decision["winner"])
            return
        s = self.series(round_no, index)
        m.winner = s.winner if s is not None and s.decided else None

    def withdraw(self, pid: int, reason: str) -> None:
        """Withdraw entry ``pid`` after the start (20.4): its undecided match
        of the current round goes to the opponent.  Raises
        :class:`CompetitionError` if it has no undecided match now (it is out,
        or through: withdraw it once the next round is paired)."""
        self.player(pid)
        rounds = self._ko().rounds
        for m in rounds[-1] if rounds else []:
            if pid in (m.red, m.black) and m.black is not None and m.winner is None:
                other = m.black if pid == m.red else m.red
                assert other is not None
                self.decide(len(rounds), m.index, other, f"withdrawal (20.4): {reason}")
                return
        raise EventStateError(f"{self.name}: entry {pid} has no undecided match in the "
                              "current round")

    def placements(self) -> list[tuple[int, bool, int]]:
        """Return ``(place, shared, entry)`` for the entries placed so far,
        best first: the champion, then by the round in which each entry went
        out (later is better; entries out in the same round share the place,
        e.g. the two losing semi-finalists are 3=)."""
        ko = self._ko()
        limit = 2 if self.double else 1
        losses: dict[int, int] = {}
        out_round: dict[int, int] = {}
        for r, rnd in enumerate(ko.rounds, start=1):
            for m in rnd:
                if m.loser is not None:
                    losses[m.loser] = losses.get(m.loser, 0) + 1
                    if losses[m.loser] == limit:
                        out_round[m.loser] = r
        places: list[tuple[int, bool, int]] = []
        if ko.finished and ko.champion is not None:
            places.append((1, False, ko.champion))
        by_round: dict[int, list[int]] = {}
        for e, r in out_round.items():
            by_round.setdefault(r, []).append(e)
        # only rank those behind everyone still in: an entry out now is placed
        # below every entry that is still playing
        still_in = len(ko.alive()) if not ko.finished else 1
        place = still_in + 1
        for r in sorted(by_round, reverse=True):
            group = sorted(by_round[r])
            for e in group:
                places.append((place, len(group) > 1, e))
            place += len(group)
        return places

    # -- persistence
    def to_dict(self) -> dict[str, Any]:
        """Return the event as JSON-ready data."""
        return {"format": "qisai-web-knockout", "name": self.name,
                "series": self.series_format, "draw": self.draw, "byes": self.byes,
                "double": self.double, "seeding": self.seeding, "seed": self.seed,
                "players": [p.to_dict() for p in self.players],
                "knockout": None if self.ko is None else self.ko.to_dict(),
                "games": self.games, "decisions": self.decisions}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KnockoutEvent:
        """Inverse of :meth:`to_dict`.  Raises :class:`CompetitionError`."""
        try:
            ev = cls(str(data["name"]), series=data["series"], draw=data["draw"],
                     byes=data["byes"], double=bool(data["double"]),
                     seeding=data["seeding"], seed=int(data["seed"]))
            ev.players = [Player.from_dict(p) for p in data["players"]]
            if data.get("knockout") is not None:
                ev.ko = Knockout.from_dict(dict(data["knockout"]))
            ev.games = {str(k): [str(x) for x in v] for k, v in data.get("games", {}).items()}
            ev.decisions = {str(k): dict(v) for k, v in data.get("decisions", {}).items()}
        except (KeyError, TypeError, ValueError) as exc:
            raise CompetitionError(f"bad knock-out event data ({exc!r})") from None
        return ev


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
                 boards: int = 4, lineup_mode: str = "substitutes", seed: int = 0) -> None:
        """Raises :class:`CompetitionError` for a bad option."""
        if system not in ("round_robin", "swiss"):
            raise CompetitionError(f"team system must be round_robin or swiss, not {system!r}")
        if system == "swiss" and rounds is None:
            raise CompetitionError("a team Swiss needs a number of rounds")
        if not 1 <= boards <= 12:
            raise CompetitionError(f"boards must be 1..12, not {boards}")
        try:
            self.lineup_mode = LineupMode(lineup_mode)
        except ValueError:
            raise CompetitionError(f"line-up mode must be fixed, substitutes or free, "
                                   f"not {lineup_mode!r}") from None
        self.name, self.system, self.rounds_planned = name, system, rounds
        self.boards, self.seed = boards, seed
        self.teams: list[Team] = []
        self.tt: TeamTournament | None = None
        self.matches: dict[str, dict[str, Any]] = {}
        """Per match ``round:board``: ``lineups`` (red, black) and board
        ``results`` / ``fouls`` keyed by board number as text."""

    @property
    def started(self) -> bool:
        """True once the teams are numbered and the event can be paired."""
        return self.tt is not None

    def add_team(self, name: str, roster: Sequence[str]) -> Team:
        """Register a team with its roster in board order (reserves last).
        Raises :class:`CompetitionError` after the start, for a duplicate
        name or a roster shorter than the boards."""
        if self.started:
            raise EventStateError(f"{self.name}: entries are closed once the event started")
        if any(t.name == name for t in self.teams):
            raise CompetitionError(f"{self.name}: duplicate team {name!r}")
        team = Team(name, [m.strip() for m in roster], self.boards)
        self.teams.append(team)
        return team

    def remove_team(self, name: str) -> None:
        """Withdraw a team before the start (20.2).  Raises :class:`CompetitionError`."""
        if self.started:
            raise EventStateError(f"{self.name}: the event has started")
        before = len(self.teams)
        self.teams = [t for t in self.teams if t.name != name]
        if len(self.teams) == before:
            raise CompetitionError(f"{self.name}: no team named {name!r}")

    def start(self) -> None:
        """Number the teams (by lot for a round robin, 制签; as registered
        for a Swiss) and create the competition.  Raises
        :class:`CompetitionError` if started or with fewer than two teams."""
        if self.started:
            raise EventStateError(f"{self.name}: already started")
        ordered = list(self.teams)
        if self.system == "round_robin":
            random.Random(f"{self.seed}:numbers").shuffle(ordered)
        self.tt = TeamTournament(self.name, ordered, system=self.system,
                                 rounds=self.rounds_planned, lineup_mode=self.lineup_mode,
                                 seed=self.seed)
        self.teams = self.tt.teams
        self.rounds_planned = self.tt.rounds_planned

    def _tt(self) -> TeamTournament:
        if self.tt is None:
            raise EventStateError(f"{self.name}: start the event first")
        return self.tt

    def member_numbers(self) -> dict[tuple[int, str], int]:
        """Return the entry number of every rostered player, ``(team id,
        name) -> n``, numbered 1.. in team and roster order."""
        out: dict[tuple[int, str], int] = {}
        for t in self._tt().teams:
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
        Raises :class:`CompetitionError` (previous round incomplete, all
        rounds paired, no Swiss pairing)."""
        tt = self._tt()
        matches = tt.pair_next_round()
        number = len(tt.rounds)
        for m in matches:
            if m.black_team is None:
                continue
            self.matches[_key(number, m.board)] = {
                "lineups": [tt.team(m.red_team).roster[: self.boards],
                            tt.team(m.black_team).roster[: self.boards]],
                "results": {}, "fouls": {}}
        return number

    def match(self, round_no: int, match: int) -> TeamMatch:
        """Return team match ``match`` (its board number in the round) of
        round ``round_no``.  Raises :class:`ResultError` if there is none."""
        tt = self._tt()
        if 1 <= round_no <= len(tt.rounds):
            for m in tt.rounds[round_no - 1]:
                if m.board == match:
                    return m
        raise ResultError(f"{self.name}: no match {match} in round {round_no}")

    def _state(self, round_no: int, match: int) -> dict[str, Any]:
        m = self.match(round_no, match)
        state = self.matches.get(_key(round_no, match))
        if state is None or m.black_team is None:
            raise ResultError(f"round {round_no} match {match} is a bye")
        return state

    def set_lineups(self, round_no: int, match: int, red: Sequence[str],
                    black: Sequence[str]) -> None:
        """Set both line-ups (board 1 first) of a match before its first
        result.  Raises :class:`CompetitionError` (12.1-12.3 broken, results
        already in, unknown match)."""
        tt = self._tt()
        state = self._state(round_no, match)
        if state["results"]:
            raise EventStateError(f"round {round_no} match {match}: results are in; the "
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
                     overwrite: bool = False) -> None:
        """Enter one board's result (from that board's Red side); the match
        goes into the standings once all boards have one.  Raises
        :class:`CompetitionError` for an unknown board, a bye, a result
        already entered (unless ``overwrite``) or an unreadable result."""
        state = self._state(round_no, match)
        if not 1 <= board <= self.boards:
            raise ResultError(f"round {round_no} match {match}: no board {board}")
        res = Result.parse(result) if isinstance(result, str) else result
        if res is Result.BYE:
            raise ResultError("a board of a team match cannot be a bye")
        if red_fouls < 0 or black_fouls < 0:
            raise ResultError("fouls cannot be negative")
        m = self.match(round_no, match)
        if m.forfeit is not None and not overwrite:
            raise ResultError(f"round {round_no} match {match} was forfeited "
                              f"({m.forfeit.value})")
        if str(board) in state["results"] and not overwrite:
            raise ResultError(f"round {round_no} match {match} board {board}: result already "
                              f"entered ({state['results'][str(board)]})")
        state["results"][str(board)] = res.value
        state["fouls"][str(board)] = [red_fouls, black_fouls]
        self._enter(round_no, match)

    def _enter(self, round_no: int, match: int) -> None:
        tt = self._tt()
        state = self._state(round_no, match)
        if len(state["results"]) < self.boards:
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
        tt = self._tt()
        state = self._state(round_no, match)
        res = Result.parse(result) if isinstance(result, str) else result
        tt.record_forfeit(round_no, match, res)
        state["results"], state["fouls"] = {}, {}

    def standings(self) -> list[Standing]:
        """Rank the teams by 场分 then the event's team tie-breaks (15.3/15.4)."""
        return self._tt().standings()

    def crosstable(self) -> list[list[str]]:
        """Return the team crosstable: a header row, then per team its
        number, name, per opponent ``match points (board points)`` of each
        meeting, and its total match points."""
        tt = self._tt()
        n = len(tt.teams)
        cells: dict[int, dict[int, list[str]]] = {t.id: {} for t in tt.teams}
        totals = {t.id: 0.0 for t in tt.teams}
        for rec in tt.records().values():
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
        rows = [["#", "team"] + [str(k) for k in range(1, n + 1)] + ["match points"]]
        for t in tt.teams:
            rows.append([str(t.id), t.name]
                        + ["x" if q == t.id else " ".join(cells[t.id].get(q, []))
                           for q in range(1, n + 1)]
                        + [f"{totals[t.id]:g}"])
        return rows

    # -- persistence
    def to_dict(self) -> dict[str, Any]:
        """Return the event as JSON-ready data."""
        return {"format": "qisai-web-team", "name": self.name, "system": self.system,
                "rounds_planned": self.rounds_planned, "boards": self.boards,
                "lineup_mode": self.lineup_mode.value, "seed": self.seed,
                "teams": [{"name": t.name, "roster": list(t.roster)} for t in self.teams],
                "competition": None if self.tt is None else self.tt.to_dict(),
                "matches": self.matches}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TeamEvent:
        """Inverse of :meth:`to_dict`.  Raises :class:`CompetitionError`."""
        try:
            ev = cls(str(data["name"]), system=data["system"],
                     rounds=data.get("rounds_planned"), boards=int(data["boards"]),
                     lineup_mode=data["lineup_mode"], seed=int(data["seed"]))
            ev.teams = [Team(t["name"], list(t["roster"]), ev.boards) for t in data["teams"]]
            if data.get("competition") is not None:
                ev.tt = TeamTournament.from_dict(dict(data["competition"]))
                ev.teams = ev.tt.teams
            ev.matches = {str(k): dict(v) for k, v in data.get("matches", {}).items()}
        except (KeyError, TypeError, ValueError) as exc:
            raise CompetitionError(f"bad team event data ({exc!r})") from None
        return ev
