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
    GroupStage,
    Knockout,
    LineupMode,
    Player,
    Result,
    ResultError,
    RoundRecord,
    Series,
    SeriesFormat,
    System,
    Team,
    TeamTournament,
    Tournament,
    initial_scores,
    pair_mcmahon_round,
    snake_groups,
)
from qisai.competition.model import Game, Outcome
from qisai.competition.pairing.knockout import KnockoutMatch
from qisai.competition.pairing.mcmahon import rank_value
from qisai.competition.pairing.swiss import SwissOptions, SwissPlayer, pair_swiss_round
from qisai.competition.series import SeriesGame
from qisai.competition.teams import TeamMatch, board_colour, validate_lineup
from qisai.competition.tiebreaks import (
    ByePolicy,
    Criterion,
    Encounter,
    Record,
    Standing,
    TiebreakPolicy,
    rank,
)

__all__ = ["KNOCKOUT_SERIES", "MCMAHON_TIEBREAKS", "BoardSlot", "GroupEvent", "KnockoutEvent",
           "McMahonTournament", "TeamEvent", "rank_of_rating"]

KNOCKOUT_SERIES = ("single", "two_games", "best_of_three", "league_2021")
"""How a knock-out match is played out (see :class:`SeriesFormat`).  In the
2021 league format the deciding game waits for the colour choice of the
rapid game's Black (:meth:`KnockoutEvent.choose_colour`)."""


def _key(round_no: int, index: int) -> str:
    return f"{round_no}:{index}"


def _forfeit_against(red_gone: bool, black_gone: bool) -> Result:
    """The forfeit result of a match or game one or both of whose sides are
    absent (21.4 ``+--`` / ``--+``, 21.3 ``---``)."""
    if red_gone and black_gone:
        return Result.DOUBLE_FORFEIT
    return Result.BLACK_FORFEIT_WIN if red_gone else Result.RED_FORFEIT_WIN


@dataclass(frozen=True, slots=True)
class BoardSlot:
    """A game to be played: who has Red and Black (entry numbers) and where
    it belongs in the event (``key``: ``[round, match, game]`` for
    knock-outs, ``[round, group, board]`` for group events); ``kind`` is a
    series game's kind (``game``, ``extra``, ``slow``, ``rapid``,
    ``decider``)."""

    key: tuple[int, int, int]
    red: int
    black: int
    kind: str = "game"


# ---------------------------------------------------------------- knock-out
class _Entries:
    """The entry list of an event that draws its numbers at the start:
    entries come and go freely until then (20.2); ``started`` says when."""

    name: str
    players: list[Player]

    @property
    def started(self) -> bool:
        raise NotImplementedError

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


class KnockoutEvent(_Entries):
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
        self.choices: dict[str, int] = {}
        """2021 league: the entry that has Red in a match's deciding game, as
        chosen by the rapid game's Black."""

    # -- entries
    @property
    def started(self) -> bool:
        """True once the entries are seeded and the bracket exists."""
        return self.ko is not None

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
        s, _ = self._replay(round_no, index, self.games.get(_key(round_no, index), []))
        return s

    def _replay(self, round_no: int, index: int, games: Sequence[str]
                ) -> tuple[Series, list[str]]:
        """Replay ``games`` on a fresh series of the match; return it and the
        games it used (those after the series was decided are dropped)."""
        m = self.match(round_no, index)
        assert m.black is not None
        s = Series(m.red, m.black, SeriesFormat(self.series_format),
                   seed=self.seed * 1009 + round_no * 97 + index, decide_ties=True)
        choice = self.choices.get(_key(round_no, index))
        kept: list[str] = []
        for value in games:
            if s.decided:
                break
            if len(kept) == 2 and s.format is SeriesFormat.LEAGUE_2021 and choice is None:
                break  # a decider result without a colour choice cannot stand
            s.next_game(chosen_red=choice if len(kept) == 2 else None)
            s.record(Result(value))
            kept.append(value)
        return s, kept

    def awaiting_choice(self, round_no: int, index: int) -> int | None:
        """Return the entry that must choose the colours of the match's
        deciding game (2021 league: Black of the drawn rapid game), or None
        when no choice is due."""
        if self.series_format != "league_2021":
            return None
        m = self.match(round_no, index)
        if m.black is None or m.winner is not None or _key(round_no, index) in self.choices:
            return None
        s = self.series(round_no, index)
        assert s is not None
        if s.decided or len(s.games) != 2:
            return None
        return s.games[1][0].black

    def choose_colour(self, round_no: int, index: int, red: int) -> None:
        """Record the colour choice for a 2021-league deciding game: ``red``
        (one of the two entries) has Red.  Raises :class:`CompetitionError`
        when no choice is due (another format, the series is not at its
        decider, or the choice was made) or ``red`` is not in the match."""
        self._open(round_no)
        chooser = self.awaiting_choice(round_no, index)
        if chooser is None:
            raise EventStateError(f"round {round_no} match {index + 1}: no colour choice is "
                                  "due")
        m = self.match(round_no, index)
        if red not in (m.red, m.black):
            raise ResultError(f"round {round_no} match {index + 1}: {red} does not play "
                              f"({m.red} v {m.black})")
        self.choices[_key(round_no, index)] = red

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
            if self.awaiting_choice(r, m.index) is not None:
                continue  # the decider's colours are not chosen yet
            s = self.series(r, m.index)
            assert s is not None
            g = s.next_game(chosen_red=self.choices.get(_key(r, m.index)))
            if g is not None:
                out.append(BoardSlot((r, m.index, g.number), g.red, g.black, g.kind))
        return out

    def next_game(self, round_no: int, index: int) -> SeriesGame | None:
        """Return the match's next game, or None (decided, a bye, or the
        decider's colours still to be chosen)."""
        m = self.match(round_no, index)
        if m.black is None or m.winner is not None or self.awaiting_choice(
                round_no, index) is not None:
            return None
        s = self.series(round_no, index)
        assert s is not None
        return s.next_game(chosen_red=self.choices.get(_key(round_no, index)))

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
            chooser = self.awaiting_choice(round_no, index)
            if chooser is not None:
                raise EventStateError(f"round {round_no} match {index + 1}: the deciding "
                                      f"game waits for entry {chooser}'s colour choice")
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
        _, kept = self._replay(round_no, index, games)
        self.games[_key(round_no, index)] = kept
        if len(kept) < 3:
            # a correction that settles the match before its decider voids the
            # colour choice made for it
            s, _ = self._replay(round_no, index, kept)
            if s.decided:
                self.choices.pop(_key(round_no, index), None)
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
                "games": self.games, "decisions": self.decisions, "choices": self.choices}

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
            ev.choices = {str(k): int(v) for k, v in data.get("choices", {}).items()}
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

        A withdrawn team is no longer paired in a Swiss (20.4); in a round
        robin its matches are kept in the table and forfeited at once, the
        opponent winning (20.3: "其余未赛对局均作弃权，对方获胜").
        Raises :class:`CompetitionError` (previous round incomplete, all
        rounds paired, no Swiss pairing)."""
        tt = self._tt()
        gone = set(self.withdrawn)
        matches = self._pair_swiss_without(gone) if gone and self.system == "swiss" \
            else tt.pair_next_round()
        number = len(tt.rounds)
        for m in matches:
            if m.black_team is None:
                continue
            self.matches[_key(number, m.board)] = {
                "lineups": [tt.team(m.red_team).roster[: self.boards],
                            tt.team(m.black_team).roster[: self.boards]],
                "results": {}, "fouls": {}}
            if m.red_team in gone or m.black_team in gone:
                tt.record_forfeit(number, m.board, _forfeit_against(
                    m.red_team in gone, m.black_team in gone))
        return number

    def _pair_swiss_without(self, gone: set[int]) -> list[TeamMatch]:
        """Pair the next team-Swiss round among the teams still in, the way
        :meth:`TeamTournament.pair_next_round` pairs all of them (score
        groups of 场分, no rematch, colour balance)."""
        tt = self._tt()
        if len(tt.rounds) >= tt.rounds_planned:
            raise EventStateError(f"{self.name}: all rounds are paired")
        if tt.rounds and any(not m.results and m.forfeit is None and m.black_team is not None
                             for m in tt.rounds[-1]):
            raise EventStateError(f"{self.name}: round {len(tt.rounds)} is not complete")
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
            raise EventStateError(f"{self.name}: fewer than two teams are left to pair")
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
        tt = self._tt()
        team = next((t for t in tt.teams if t.name == name), None)
        if team is None:
            raise CompetitionError(f"{self.name}: no team named {name!r}")
        if team.id in self.withdrawn:
            raise EventStateError(f"{self.name}: {name} withdrew already (after round "
                                  f"{self.withdrawn[team.id]})")
        last = len(tt.rounds)
        forfeited = ""
        for m in tt.rounds[-1] if tt.rounds else []:
            if team.id not in (m.red_team, m.black_team) or m.black_team is None:
                continue
            if not m.results and m.forfeit is None:
                other = m.black_team if m.red_team == team.id else m.red_team
                res = _forfeit_against(m.red_team == team.id or m.red_team in self.withdrawn,
                                       m.black_team == team.id
                                       or m.black_team in self.withdrawn)
                self.record_forfeit(last, m.board, res)
                forfeited = f"; round {last} match {m.board} forfeited to " \
                            f"{tt.team(other).name} ({res.value})"
                last -= 1
        self.withdrawn[team.id] = last
        rule = "20.3" if self.system == "round_robin" else "20.4"
        struck = " — fewer than half its opponents met: its results are struck out " \
                 "(20.3)" if team.id in self.annulled_teams() else ""
        return f"{name} withdrew after round {last} ({rule}){forfeited}{struck}"

    def annulled_teams(self) -> set[int]:
        """Teams whose results 20.3 strikes out: withdrawn from a round robin
        having played (not forfeited) matches against fewer than half of
        their opponents; exactly half keeps them."""
        tt = self._tt()
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
        recs = self._tt().records()
        struck = self.annulled_teams()
        if not struck:
            return recs
        return {tid: Record(rec.entry, [e for e in rec.encounters if e.opponent not in struck],
                            rec.penalty)
                for tid, rec in recs.items() if tid not in struck}

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
        """Rank the teams by 场分 then the event's team tie-breaks (15.3/15.4);
        teams struck out by 20.3 are not ranked."""
        tt = self._tt()
        return rank(self.records(), tt.tiebreaks, tt.policy)

    def crosstable(self) -> list[list[str]]:
        """Return the team crosstable: a header row, then per team its
        number, name, per opponent ``match points (board points)`` of each
        meeting, and its total match points."""
        tt = self._tt()
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
                "matches": self.matches,
                "withdrawn": {str(k): v for k, v in self.withdrawn.items()}}

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
            ev.withdrawn = {int(k): int(v) for k, v in data.get("withdrawn", {}).items()}
        except (KeyError, TypeError, ValueError) as exc:
            raise CompetitionError(f"bad team event data ({exc!r})") from None
        return ev


# -------------------------------------------------------------------- groups
GROUPINGS = ("snake", "lot")
FINAL_STAGES = ("round_robin", "none")


class GroupEvent(_Entries):
    """A group round robin (分组循环制, 11.3).

    At :meth:`start` the entries are split into ``groups`` groups: seeded by
    rating and snaked (:meth:`GroupStage.create`), or snaked in an order
    drawn by lot.  Every group is a round robin (Berger tables, numbers by
    lot, 15.1 tie-breaks) and the groups play their round ``r`` in the
    event's round ``r``.  Once every group is over, the top ``advance`` of
    each go on to a final round robin (``final="round_robin"``, "从各组选出一定
    人数进行决赛"), whose rounds follow the group rounds; with ``final="none"``
    the group standings are the result.

    Entry numbers of the event (``Player.id`` in :attr:`players`) run 1..n
    group after group, each group in its own pairing-number order; inside a
    group or the final an entry has that round robin's number.
    """

    def __init__(self, name: str, *, groups: int = 2, grouping: str = "snake",
                 advance: int = 2, final: str = "round_robin", seed: int = 0) -> None:
        """Raises :class:`CompetitionError` for a bad option."""
        if not 2 <= groups <= 32:
            raise CompetitionError(f"groups must be 2..32, not {groups}")
        if grouping not in GROUPINGS:
            raise CompetitionError(f"grouping must be snake or lot, not {grouping!r}")
        if final not in FINAL_STAGES:
            raise CompetitionError(f"final must be round_robin or none, not {final!r}")
        if advance < 1:
            raise CompetitionError(f"advance must be at least 1, not {advance}")
        self.name, self.group_count, self.grouping = name, groups, grouping
        self.advance, self.final_stage, self.seed = advance, final, seed
        self.players: list[Player] = []
        self.stage: GroupStage | None = None
        self.final: Tournament | None = None

    # -- entries
    @property
    def started(self) -> bool:
        """True once the groups are drawn."""
        return self.stage is not None

    def start(self) -> None:
        """Draw the groups and start their round robins.  Raises
        :class:`CompetitionError` if started, with too few entries for the
        groups, or, with a final, when a group would be smaller than
        ``advance`` + 1 (the final would take a whole group)."""
        if self.started:
            raise EventStateError(f"{self.name}: already started")
        n, g = len(self.players), self.group_count
        if n < 2 * g:
            raise EventStateError(f"{self.name}: {n} entries cannot fill {g} groups of at "
                                  "least two")
        if self.final_stage == "round_robin" and n // g <= self.advance:
            raise CompetitionError(f"{self.name}: groups of {n // g} cannot send {self.advance} "
                                   "each on")
        if self.grouping == "snake":
            # 11.3 排定种子: by rating, snaked so that the groups are even
            stage = GroupStage.create(self.name, self.players, g, seed=self.seed)
        else:
            order = list(self.players)
            random.Random(f"{self.seed}:groups").shuffle(order)
            stage = GroupStage(self.name)
            for k, members in enumerate(snake_groups(order, g), start=1):
                t = Tournament(f"{self.name} group {k}", System.ROUND_ROBIN,
                               seed=self.seed * 1000 + k)
                for p in members:
                    t.add_player(Player(p.name, p.rating, p.title, p.club, p.team,
                                        p.federation))
                t.start()
                stage.groups.append(t)
        self.stage = stage
        numbered: list[Player] = []
        for t in stage.groups:
            for p in t.players:
                numbered.append(Player(p.name, p.rating, p.title, p.club, p.team,
                                       p.federation, id=len(numbered) + 1))
        self.players = numbered

    # -- structure
    def _stage(self) -> GroupStage:
        if self.stage is None:
            raise EventStateError(f"{self.name}: start the event first")
        return self.stage

    @property
    def groups(self) -> list[Tournament]:
        """The groups' round robins (empty before the start)."""
        return [] if self.stage is None else self.stage.groups

    @property
    def group_rounds(self) -> int:
        """Rounds of the group stage (of its largest group)."""
        return max((t.rounds_planned or 0 for t in self.groups), default=0)

    @property
    def groups_finished(self) -> bool:
        """True when every group has played all its rounds."""
        return self.started and all(t.finished for t in self.groups)

    @property
    def finished(self) -> bool:
        """True when the group stage and the final (if any) are over."""
        if not self.groups_finished:
            return False
        return self.final_stage == "none" or (self.final is not None and self.final.finished)

    @property
    def paired_rounds(self) -> int:
        """Event rounds paired so far (group rounds, then final rounds)."""
        if self.final is not None and self.final.rounds:
            return self.group_rounds + len(self.final.rounds)
        return max((len(t.rounds) for t in self.groups), default=0)

    def number(self, name: str) -> int:
        """Return the event's entry number of ``name``.  Raises
        :class:`CompetitionError`."""
        for p in self.players:
            if p.name == name:
                return p.id
        raise CompetitionError(f"{self.name}: no entry named {name!r}")

    def tournament(self, group: int) -> Tournament:
        """Return group ``group``'s round robin (1-based), or the final for
        0.  Raises :class:`ResultError` if there is none."""
        if group == 0:
            if self.final is None:
                raise ResultError(f"{self.name}: the final is not paired yet")
            return self.final
        if not 1 <= group <= len(self.groups):
            raise ResultError(f"{self.name}: no group {group}")
        return self.groups[group - 1]

    def round_parts(self, round_no: int) -> list[tuple[int, Tournament, int]]:
        """Return what event round ``round_no`` holds: ``(group, round robin,
        its round number)`` for every group that plays it (group 0: the
        final)."""
        if round_no <= self.group_rounds:
            return [(k, t, round_no) for k, t in enumerate(self.groups, start=1)
                    if round_no <= len(t.rounds)]
        local = round_no - self.group_rounds
        if self.final is not None and 1 <= local <= len(self.final.rounds):
            return [(0, self.final, local)]
        return []

    def boards(self, round_no: int) -> list[BoardSlot]:
        """Return every board of event round ``round_no`` with the event's
        entry numbers (a bye has ``black`` 0); ``key`` is ``[round, group,
        board]``."""
        out = []
        for g, t, local in self.round_parts(round_no):
            for p in t.rounds[local - 1].pairings:
                black = 0 if p.black is None else self.number(t.player(p.black).name)
                out.append(BoardSlot((round_no, g, p.board), self.number(t.player(p.red).name),
                                     black))
        return out

    # -- rounds and results
    def pair_next_round(self) -> int:
        """Pair the next round: the next round of every group with rounds
        left, or, once the groups are over, the next round of the final
        (made from the qualifiers at its first round).  Returns the event
        round's number.  Raises :class:`CompetitionError` while a board of
        the last round lacks a result, once everything is paired, or when
        the event has no final."""
        stage = self._stage()
        if not self.groups_finished:
            behind = [t.name for t in stage.groups if t.rounds and not t.rounds[-1].complete]
            if behind:
                raise EventStateError(f"{self.name}: round {self.paired_rounds} lacks results "
                                      f"in {', '.join(behind)}")
            for t in stage.groups:
                if len(t.rounds) < (t.rounds_planned or 0):
                    t.pair_next_round()
            return self.paired_rounds
        if self.final_stage == "none":
            raise EventStateError(f"{self.name}: the group stage is over and the event has no "
                                  "final stage")
        if self.final is None:
            final = Tournament(f"{self.name} final", System.ROUND_ROBIN, seed=self.seed * 1000)
            for p in self.qualifiers():
                final.add_player(Player(p.name, p.rating, p.title, p.club, p.team,
                                        p.federation))
            final.start()
            self.final = final
        self.final.pair_next_round()
        return self.paired_rounds

    def qualifiers(self) -> list[Player]:
        """Return the entries that go on to the final: the top ``advance`` of
        each group, all group winners first, then the runners-up, ... (as
        :meth:`GroupStage.qualifiers`), except that an entry that withdrew
        does not go on and the next one in its group takes its place.
        Raises :class:`CompetitionError` while a group is unfinished or when
        a group has too few entries left."""
        table: list[list[Player]] = []
        for t in self._stage().groups:
            if not t.finished:
                raise EventStateError(f"{t.name} is not finished")
            ranked = [t.player(s.entry) for s in t.standings()
                      if t.player(s.entry).withdrawn_after is None]
            if len(ranked) < self.advance:
                raise CompetitionError(f"{t.name} has only {len(ranked)} entries to go on")
            table.append(ranked[: self.advance])
        return [table[g][k] for k in range(self.advance) for g in range(len(table))]

    def cut_ties(self) -> list[str]:
        """Return the groups whose qualifying cut falls inside a shared place
        (15.6: a play-off or the event's own rule must settle it; the
        standings' order, by entry number, is used otherwise)."""
        out = []
        for t in self.groups:
            if not t.started or not t.rounds:
                continue
            st = t.standings()
            if len(st) > self.advance and st[self.advance - 1].rank == st[self.advance].rank:
                out.append(t.name)
        return out

    def _local(self, round_no: int, group: int) -> tuple[Tournament, int]:
        for g, t, local in self.round_parts(round_no):
            if g == group:
                return t, local
        raise ResultError(f"{self.name}: group {group} has no round {round_no}")

    def record_result(self, round_no: int, group: int, board: int, result: str | Result, *,
                      red_fouls: int = 0, black_fouls: int = 0, overwrite: bool = False) -> None:
        """Enter (or, with ``overwrite``, correct) a board of a group or of
        the final (group 0).  Group results are fixed once the final is
        made: they chose its entries.  Raises :class:`CompetitionError`."""
        t, local = self._local(round_no, group)
        if group != 0 and self.final is not None:
            raise EventStateError(f"{self.name}: the final is paired; the group results that "
                                  "chose its entries stand")
        t.record_result(local, board, result, red_fouls=red_fouls, black_fouls=black_fouls,
                        overwrite=overwrite)

    def result_of(self, round_no: int, group: int, board: int) -> str | None:
        """Return a board's result (None while there is none)."""
        t, local = self._local(round_no, group)
        g = t.rounds[local - 1].results.get(board)
        return None if g is None else g.result.value

    def withdraw(self, name: str) -> str:
        """Withdraw ``name`` after the start (20.3 within its round robin:
        fewer than half of its opponents met strikes out its results, else
        its remaining games are forfeits).  During the final it withdraws
        from the final.  Returns what was done.  Raises
        :class:`CompetitionError` for an unknown entry, or one that is out
        of the event already (not in the final once the groups are over)."""
        self.number(name)
        if self.groups_finished:
            if self.final is None or all(p.name != name for p in self.final.players):
                raise EventStateError(f"{self.name}: {name} is not in the final; the group "
                                      "stage is over")
            t, where = self.final, "the final"
        else:
            t = next(t for t in self.groups if any(p.name == name for p in t.players))
            where = t.name
        pid = next(p.id for p in t.players if p.name == name)
        if t.player(pid).withdrawn_after is not None:
            raise EventStateError(f"{self.name}: {name} withdrew already")
        t.withdraw(pid)
        struck = " — results struck out (20.3)" if pid in t.annulled_entries() else ""
        return f"{name} withdrew from {where} after its round {t.current_round} " \
               f"(20.3){struck}"

    def placements(self) -> list[tuple[int, bool, int]]:
        """Return ``(place, shared, entry)``, best first, once there is
        something to place: the final's standings (when it is over), then
        the entries that did not go on, by their place in their group (the
        third-placed of all groups share the next places, and so on).  With
        no final the group winners share first place.  Entries whose results
        20.3 struck out are not placed."""
        if not self.groups_finished:
            return []
        out: list[tuple[int, bool, int]] = []
        placed: set[str] = set()
        if self.final_stage == "round_robin":
            if self.final is None or not self.final.finished:
                return []
            for s in self.final.standings():
                name = self.final.player(s.entry).name
                out.append((s.rank, s.shared, self.number(name)))
                placed.add(name)
            for p in self.final.players:
                placed.add(p.name)  # struck out of the final: not placed lower either
        by_rank: dict[int, list[int]] = {}
        for t in self.groups:
            for s in t.standings():
                name = t.player(s.entry).name
                if name not in placed:
                    by_rank.setdefault(s.rank, []).append(self.number(name))
        place = len(out) + 1
        for r in sorted(by_rank):
            block = sorted(by_rank[r])
            out.extend((place, len(block) > 1, e) for e in block)
            place += len(block)
        return out

    # -- persistence
    def to_dict(self) -> dict[str, Any]:
        """Return the event as JSON-ready data."""
        return {"format": "qisai-web-groups", "name": self.name, "groups": self.group_count,
                "grouping": self.grouping, "advance": self.advance, "final": self.final_stage,
                "seed": self.seed, "players": [p.to_dict() for p in self.players],
                "stage": None if self.stage is None else [t.to_dict() for t in self.groups],
                "final_event": None if self.final is None else self.final.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GroupEvent:
        """Inverse of :meth:`to_dict`.  Raises :class:`CompetitionError`."""
        try:
            ev = cls(str(data["name"]), groups=int(data["groups"]), grouping=data["grouping"],
                     advance=int(data["advance"]), final=data["final"], seed=int(data["seed"]))
            ev.players = [Player.from_dict(p) for p in data["players"]]
            if data.get("stage") is not None:
                ev.stage = GroupStage(ev.name, [
                    Tournament.from_dict(t, source=f"{ev.name} group {k}")
                    for k, t in enumerate(data["stage"], start=1)])
            if data.get("final_event") is not None:
                ev.final = Tournament.from_dict(data["final_event"], source=f"{ev.name} final")
        except (KeyError, TypeError, ValueError) as exc:
            raise CompetitionError(f"bad group event data ({exc!r})") from None
        return ev


# ------------------------------------------------------------------ McMahon
MCMAHON_TIEBREAKS = (Criterion.BUCHHOLZ, Criterion.SONNEBORN_BERGER,
                     Criterion.DIRECT_ENCOUNTER)
"""The default tie-breaks after the McMahon score: SOS (对手分 on McMahon
scores), SODOS (小分 on McMahon scores), then the direct encounter."""


def rank_of_rating(rating: int) -> str:
    """Return the Go rank a rating stands for on the EGF scale (GoR 2100 is
    1 dan, 100 points a grade: 2000-2099 is 1k, 2400-2499 is 4d), from 30k
    to 9d."""
    step = max(-30, min(8, (rating - 2100) // 100))
    return f"{step + 1}d" if step >= 0 else f"{-step}k"


class McMahonTournament(Tournament):
    """A Go event paired by McMahon (:func:`pair_mcmahon_round`): an
    individual Swiss whose entries start with a McMahon score from their
    rank (``start_by="rank"``: the Go rank given at registration, or
    ``"rating"``: the rank a rating stands for, :func:`rank_of_rating`),
    ranks at or above the ``bar`` all equal, at or below the ``floor`` all
    0.  An entry without a rank, or unrated, starts at the floor.

    Everything else is the individual :class:`Tournament`: results,
    withdrawals (20.4: played results stand, the rest are forfeits), the
    crosstable.  The standings rank by McMahon score (start + points, the
    start entering the records as a round-0 line without opponent, so that
    对手分/小分 add up the opponents' McMahon scores: SOS and SODOS), then
    :data:`MCMAHON_TIEBREAKS`; a bye adds nothing to SOS (Go: 不计对手分).
    """

    def __init__(self, name: str, system: System | str = System.SWISS, *,
                 bar: str = "3d", floor: str = "20k", start_by: str = "rank",
                 ranks: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        """Raises :class:`CompetitionError` for a bad option (the bar below
        the floor, an unreadable rank, a system other than Swiss)."""
        kwargs.setdefault("tiebreaks", MCMAHON_TIEBREAKS)
        kwargs.setdefault("policy", TiebreakPolicy(bye=ByePolicy.NONE))
        kwargs["draw_numbers"] = False  # numbered by McMahon score at start()
        super().__init__(name, system, **kwargs)
        if self.system is not System.SWISS:
            raise CompetitionError("McMahon pairs like 积分编排制: its system is swiss")
        if start_by not in ("rank", "rating"):
            raise CompetitionError(f"start_by must be rank or rating, not {start_by!r}")
        initial_scores({}, bar, floor)  # the bar above the floor, both readable
        self.bar, self.floor, self.start_by = bar, floor, start_by
        self.ranks: dict[str, str] = {}
        for who, r in (ranks or {}).items():
            self.set_rank(who, r)
        self.start_scores: dict[str, int] = {}
        """McMahon starting score by entry name, fixed at :meth:`start`."""

    def set_rank(self, name: str, rank_text: str) -> None:
        """Record ``name``'s Go rank (``3d``, ``5k``, ``2段``, ``10级``).
        Raises :class:`CompetitionError` for an unreadable rank."""
        rank_value(rank_text)
        self.ranks[name] = rank_text.strip()

    def rank_for(self, player: Player) -> str:
        """Return the rank ``player`` starts from (see the class)."""
        if self.start_by == "rating":
            return rank_of_rating(player.rating) if player.rating > 0 else self.floor
        return self.ranks.get(player.name, self.floor)

    def remove_player(self, name: str) -> None:
        """Withdraw before the start (20.2).  Raises :class:`CompetitionError`."""
        super().remove_player(name)
        self.ranks.pop(name, None)

    def start(self) -> None:
        """Fix the starting scores and number the entries by them (then by
        rating, then by lot).  Raises :class:`CompetitionError` as
        :meth:`Tournament.start`."""
        if self.started:
            raise EventStateError(f"{self.name}: already started")
        scores = initial_scores({k: self.rank_for(p) for k, p in enumerate(self.players)},
                                self.bar, self.floor)
        rng = random.Random(f"{self.seed}:mcmahon")
        lots = [rng.random() for _ in self.players]
        order = sorted(range(len(self.players)),
                       key=lambda k: (-scores[k], -self.players[k].rating, lots[k]))
        self.players = [self.players[k] for k in order]
        super().start()
        self.start_scores = {self.players[n].name: scores[k] for n, k in enumerate(order)}

    def start_score(self, pid: int) -> int:
        """Return entry ``pid``'s McMahon starting score."""
        return self.start_scores.get(self.player(pid).name, 0)

    def pair_next_round(self) -> RoundRecord:
        """Pair the next round on McMahon scores (:func:`pair_mcmahon_round`;
        round 1 too, by score groups).  Raises :class:`CompetitionError` as
        :meth:`Tournament.pair_next_round`."""
        if not self.started:
            raise EventStateError(f"{self.name}: start the event before pairing")
        assert self.rounds_planned is not None
        if len(self.rounds) >= self.rounds_planned:
            raise EventStateError(f"{self.name}: all {self.rounds_planned} rounds are paired")
        if self.rounds and not self.rounds[-1].complete:
            raise EventStateError(f"{self.name}: round {len(self.rounds)} still lacks results")
        number = len(self.rounds) + 1
        games = self.games(annul=False)
        states = []
        for p in self.active(number):
            mine = [g for g in games if p.id in (g.red, g.black)]
            colours = tuple(g.colour_of(p.id) for g in mine if g.result.played)
            states.append(SwissPlayer(
                p.id, sum(self.scoring.game_points(g, p.id) for g in mine), p.id,
                frozenset(o for g in mine if (o := g.opponent_of(p.id)) is not None), colours,
                sum(1 for g in mine if g.result is Result.BYE),
                (p.team or p.club or p.federation) or None, (number - 1) - len(colours)))
        res = pair_mcmahon_round(states, {p.id: self.start_score(p.id) for p in self.players},
                                 number, self.swiss, random.Random(f"{self.seed}:round:{number}"))
        rec = RoundRecord(number, res.pairings, explanation=[
            f"McMahon (bar {self.bar}, floor {self.floor}): paired on start + points"]
            + res.explanation)
        self.rounds.append(rec)
        for pairing in rec.pairings:
            if pairing.is_bye:
                rec.results[pairing.board] = Game(number, pairing.red, None, Result.BYE)
        return rec

    def records(self) -> dict[int, Record]:
        """Return the records with each entry's starting score as a round-0
        line without opponent (so its points are its McMahon score)."""
        recs = super().records()
        for pid, rec in recs.items():
            rec.encounters.insert(0, Encounter(0, None, Outcome.ABSENT,
                                               float(self.start_score(pid))))
        return recs

    def to_dict(self) -> dict[str, Any]:
        """Return the event as JSON-ready data (the individual event's, with
        a ``mcmahon`` part)."""
        data = super().to_dict()
        data["mcmahon"] = {"bar": self.bar, "floor": self.floor, "start_by": self.start_by,
                           "ranks": self.ranks, "start_scores": self.start_scores}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<event>") -> McMahonTournament:
        """Inverse of :meth:`to_dict`.  Raises :class:`CompetitionError`."""
        t = super().from_dict(data, source)
        assert isinstance(t, McMahonTournament)
        try:
            mm = data["mcmahon"]
            initial_scores({}, mm["bar"], mm["floor"])
            t.bar, t.floor, t.start_by = str(mm["bar"]), str(mm["floor"]), str(mm["start_by"])
            t.ranks = {str(k): str(v) for k, v in mm.get("ranks", {}).items()}
            t.start_scores = {str(k): int(v) for k, v in mm.get("start_scores", {}).items()}
        except (KeyError, TypeError, ValueError) as exc:
            raise CompetitionError(f"{source}: bad McMahon data ({exc!r})") from None
        return t
