"""Individual knock-out events (淘汰制, 11.1): a seeded bracket, the card draw
of the local rules, double elimination; each match a :class:`Series`
(one game, two games 13.5, best of three, the 2021 league format).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from qisai.competition.errors import CompetitionError, EventStateError, ResultError
from qisai.competition.events.common import (
    KNOCKOUT_SERIES,
    BoardSlot,
    EntryList,
    match_key,
)
from qisai.competition.model import Result
from qisai.competition.pairing.knockout import Knockout, KnockoutMatch
from qisai.competition.scoring import table_for_rules
from qisai.competition.series import Series, SeriesFormat, SeriesGame
from qisai.competition.tournament import Player


class KnockoutEvent(EntryList):
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
                 seed: int = 0, tied: str = "extra_game",
                 first_colours: str | None = "pairing", rules: str | None = None) -> None:
        """``tied``: how a level best of three (or two games) is settled,
        as local rules 6 lets the organiser choose: ``extra_game`` (加赛一局,
        then a lot) or ``lot`` (抽签).  ``first_colours``: who has Red in
        game 1 of a match: ``"pairing"``, the match's Red (the red card
        holder, local rules 9; the bracket's 猜先, 13.4); None, the series
        format's own rule (a second lot for two games, 13.5), which the
        arena's events used before the formats moved here: an event stored
        then keeps it, or its recorded results would be read for the wrong
        side.  ``rules`` names the rule profile: a series scores its games by
        its points (``cxa-2007``: win 3, loss 0, draw 1 to Red and 2 to Black).
        Raises :class:`CompetitionError` for an unknown option."""
        if tied not in ("extra_game", "lot"):
            raise CompetitionError(f"tied 须为 extra_game（加赛）或 lot（抽签），不是 {tied!r}",
                                   f"tied must be extra_game or lot, not {tied!r}")
        if first_colours not in ("pairing", None):
            raise CompetitionError(f"first_colours 须为 pairing 或 None，不是 {first_colours!r}",
                                   f"first_colours must be pairing or None, "
                                   f"not {first_colours!r}")
        if series not in KNOCKOUT_SERIES:
            raise CompetitionError(f"series 须为 {', '.join(KNOCKOUT_SERIES)} 之一，不是 {series!r}",
                                   f"series must be one of {', '.join(KNOCKOUT_SERIES)}, "
                                   f"not {series!r}")
        if seeding not in ("rating", "order", "lot"):
            raise CompetitionError(f"seeding 须为 rating（等级分）、order（报名次序）或 lot（抽签），不是 {seeding!r}",
                                   f"seeding must be rating, order or lot, not {seeding!r}")
        if draw not in ("bracket", "cards"):
            raise CompetitionError(f"draw 须为 bracket（对阵表）或 cards（抽牌），不是 {draw!r}",
                                   f"draw must be bracket or cards, not {draw!r}")
        if byes not in ("seeded", "lot"):
            raise CompetitionError(f"byes 须为 seeded（按种子）或 lot（抽签），不是 {byes!r}",
                                   f"byes must be seeded or lot, not {byes!r}")
        if double and draw != "bracket":
            raise CompetitionError("双败淘汰用对阵表抽签，不用抽牌",
                                   "double elimination uses the bracket draw, not cards")
        self.name = name
        self.rules = rules
        self.scoring = None if rules is None else table_for_rules(rules)
        self.series_format = series
        self.draw, self.byes, self.double, self.seeding = draw, byes, double, seeding
        self.seed, self.tied, self.first_colours = seed, tied, first_colours
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
        raise CompetitionError(f"{self.name}：没有编号为 {pid} 的参赛者",
                               f"{self.name}: no entry number {pid}")

    def start(self) -> None:
        """Seed the entries, number them 1..n in seed order and make the
        bracket.  Raises :class:`CompetitionError` if started or with fewer
        than two entries."""
        if self.started:
            raise EventStateError(f"{self.name}：比赛已开始",
                                  f"{self.name}: already started")
        if len(self.players) < 2:
            raise EventStateError(f"{self.name}：至少需要两名参赛者才能开始",
                                  f"{self.name}: at least two entries are needed to start")
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
            raise EventStateError(f"{self.name}：请先开始比赛",
                                  f"{self.name}: start the event first")
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
            raise ResultError(f"{self.name}：第 {round_no} 轮没有第 {index + 1} 场",
                              f"{self.name}: no match {index + 1} in round {round_no}")
        return rounds[round_no - 1][index]

    def series(self, round_no: int, index: int) -> Series | None:
        """Return the match's series replayed from its recorded games (None
        for a bye)."""
        m = self.match(round_no, index)
        if m.black is None:
            return None
        s, _ = self._replay(round_no, index, self.games.get(match_key(round_no, index), []))
        return s

    def _replay(self, round_no: int, index: int, games: Sequence[str]
                ) -> tuple[Series, list[str]]:
        """Replay ``games`` on a fresh series of the match; return it and the
        games it used (those after the series was decided are dropped)."""
        m = self.match(round_no, index)
        assert m.black is not None
        s = Series(m.red, m.black, SeriesFormat(self.series_format),
                   seed=self.seed * 1009 + round_no * 97 + index, decide_ties=True,
                   # game 1 has the match's colours: the red card holder's (local
                   # rules 9), or the bracket's lot (13.4 猜先), not a second lot
                   # (but for arena events stored before, see __init__)
                   first_colours=self.first_colours, tied=self.tied,
                   scoring=self.scoring)
        choice = self.choices.get(match_key(round_no, index))
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
        if m.black is None or m.winner is not None or match_key(round_no, index) in self.choices:
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
            raise EventStateError(f"第 {round_no} 轮第 {index + 1} 场：现在不需选先后手",
                                  f"round {round_no} match {index + 1}: no colour choice is "
                                  "due")
        m = self.match(round_no, index)
        if red not in (m.red, m.black):
            raise ResultError(f"第 {round_no} 轮第 {index + 1} 场：{red} 不在这一场（{m.red} 对 {m.black}）",
                              f"round {round_no} match {index + 1}: {red} does not play "
                              f"({m.red} v {m.black})")
        self.choices[match_key(round_no, index)] = red

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
            g = s.next_game(chosen_red=self.choices.get(match_key(r, m.index)))
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
        return s.next_game(chosen_red=self.choices.get(match_key(round_no, index)))

    def pair_next_round(self) -> list[KnockoutMatch]:
        """Pair the next round.  Raises :class:`CompetitionError` while the
        last round is undecided or once the event is over."""
        return self._ko().pair_next_round()

    def _open(self, round_no: int) -> None:
        rounds = self._ko().rounds
        if round_no != len(rounds):
            raise EventStateError(f"{self.name}：第 {round_no} 轮已结束：其后已编排第 {len(rounds)} 轮",
                                  f"{self.name}: round {round_no} is closed: round "
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
            raise ResultError(f"第 {round_no} 轮第 {index + 1} 场为轮空",
                              f"round {round_no} match {index + 1} is a bye")
        res = Result.parse(result) if isinstance(result, str) else result
        if res is Result.BYE:
            raise ResultError("轮空不能有对局",
                              "a series game cannot be a bye")
        games = list(self.games.get(match_key(round_no, index), []))
        if game == len(games) + 1:
            s = self.series(round_no, index)
            assert s is not None
            if s.decided:
                raise ResultError(f"第 {round_no} 轮第 {index + 1} 场胜负已定（{s.how}）：没有第 {game} 局",
                                  f"round {round_no} match {index + 1} is decided "
                                  f"({s.how}): no game {game}")
            chooser = self.awaiting_choice(round_no, index)
            if chooser is not None:
                raise EventStateError(f"第 {round_no} 轮第 {index + 1} 场：附加赛等待参赛者 {chooser} 选择先后手",
                                      f"round {round_no} match {index + 1}: the deciding "
                                      f"game waits for entry {chooser}'s colour choice")
            games.append(res.value)
        elif 1 <= game <= len(games):
            if not overwrite:
                raise ResultError(f"第 {round_no} 轮第 {index + 1} 场第 {game} 局：成绩已登记（{games[game - 1]}）",
                                  f"round {round_no} match {index + 1} game {game}: result "
                                  f"already entered ({games[game - 1]})")
            games[game - 1] = res.value
        else:
            raise ResultError(f"第 {round_no} 轮第 {index + 1} 场：还没到第 {game} 局（下一局是第 {len(games) + 1} 局）",
                              f"round {round_no} match {index + 1}: game {game} is not due "
                              f"(next is game {len(games) + 1})")
        # replay: drop games a corrected result makes unnecessary
        _, kept = self._replay(round_no, index, games)
        self.games[match_key(round_no, index)] = kept
        if len(kept) < 3:
            # a correction that settles the match before its decider voids the
            # colour choice made for it
            s, _ = self._replay(round_no, index, kept)
            if s.decided:
                self.choices.pop(match_key(round_no, index), None)
        self._settle(round_no, index)

    def decide(self, round_no: int, index: int, winner: int | None, reason: str) -> None:
        """The arbiter decides a match (e.g. after an armageddon or a lot
        played over the board, or a withdrawal, 20.4); ``winner`` None takes
        the decision back.  Raises :class:`CompetitionError` for a closed
        round, a bye or a winner who is not in the match."""
        self._open(round_no)
        m = self.match(round_no, index)
        if m.black is None:
            raise ResultError(f"第 {round_no} 轮第 {index + 1} 场为轮空",
                              f"round {round_no} match {index + 1} is a bye")
        k = match_key(round_no, index)
        if winner is None:
            self.decisions.pop(k, None)
        else:
            if winner not in (m.red, m.black):
                raise ResultError(f"第 {round_no} 轮第 {index + 1} 场：{winner} 没有参赛（{m.red} 对 {m.black}）",
                                  f"round {round_no} match {index + 1}: {winner} did not play "
                                  f"({m.red} v {m.black})")
            self.decisions[k] = {"winner": winner, "reason": reason}
        self._settle(round_no, index)

    def _settle(self, round_no: int, index: int) -> None:
        m = self.match(round_no, index)
        decision = self.decisions.get(match_key(round_no, index))
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
        raise EventStateError(f"{self.name}：参赛者 {pid} 在本轮没有未决的对局",
                              f"{self.name}: entry {pid} has no undecided match in the "
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
        return {"format": "qisai-knockout", "name": self.name,
                "series": self.series_format, "draw": self.draw, "byes": self.byes,
                "double": self.double, "seeding": self.seeding, "seed": self.seed,
                "tied": self.tied, "first_colours": self.first_colours, "rules": self.rules,
                "players": [p.to_dict() for p in self.players],
                "knockout": None if self.ko is None else self.ko.to_dict(),
                "games": self.games, "decisions": self.decisions, "choices": self.choices}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KnockoutEvent:
        """Inverse of :meth:`to_dict`.  Raises :class:`CompetitionError`."""
        try:
            # game 1's colours as saved; unsaved: the arena's events from before
            # the move (qisai-web-knockout) by the series format's rule, the
            # command line's files by the pairing
            first = data["first_colours"] if "first_colours" in data else (
                None if data.get("format") == "qisai-web-knockout" else "pairing")
            ev = cls(str(data["name"]), series=data["series"], draw=data["draw"],
                     byes=data["byes"], double=bool(data["double"]),
                     seeding=data["seeding"], seed=int(data["seed"]),
                     tied=str(data.get("tied", "extra_game")), first_colours=first,
                     rules=data.get("rules"))
            ev.players = [Player.from_dict(p) for p in data["players"]]
            if data.get("knockout") is not None:
                ev.ko = Knockout.from_dict(dict(data["knockout"]))
            ev.games = {str(k): [str(x) for x in v] for k, v in data.get("games", {}).items()}
            ev.decisions = {str(k): dict(v) for k, v in data.get("decisions", {}).items()}
            ev.choices = {str(k): int(v) for k, v in data.get("choices", {}).items()}
        except (KeyError, TypeError, ValueError) as exc:
            raise CompetitionError(f"淘汰赛数据有误（{exc!r}）",
                                   f"bad knock-out event data ({exc!r})") from None
        return ev


