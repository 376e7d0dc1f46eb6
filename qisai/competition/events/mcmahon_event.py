"""McMahon events for Go: an individual Swiss paired on McMahon scores."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from qisai.competition.errors import CompetitionError, EventStateError
from qisai.competition.model import Game, Outcome, Result
from qisai.competition.pairing.mcmahon import initial_scores, pair_mcmahon_round, rank_value
from qisai.competition.pairing.swiss import SwissPlayer
from qisai.competition.tiebreaks import (
    ByePolicy,
    Criterion,
    Encounter,
    Record,
    TiebreakPolicy,
)
from qisai.competition.tournament import Player, RoundRecord, System, Tournament

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
            raise CompetitionError("麦克马洪制按积分编排制编排：赛制须为 swiss",
                                   "McMahon pairs like 积分编排制: its system is swiss")
        if start_by not in ("rank", "rating"):
            raise CompetitionError(f"start_by 须为 rank（段级位）或 rating（等级分），不是 {start_by!r}",
                                   f"start_by must be rank or rating, not {start_by!r}")
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
            raise EventStateError(f"{self.name}：比赛已开始",
                                  f"{self.name}: already started")
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
            raise EventStateError(f"{self.name}：编排前须先开始比赛",
                                  f"{self.name}: start the event before pairing")
        assert self.rounds_planned is not None
        if len(self.rounds) >= self.rounds_planned:
            raise EventStateError(f"{self.name}：全部 {self.rounds_planned} 轮均已编排",
                                  f"{self.name}: all {self.rounds_planned} rounds are paired")
        if self.rounds and not self.rounds[-1].complete:
            raise EventStateError(f"{self.name}：第 {len(self.rounds)} 轮尚缺成绩",
                                  f"{self.name}: round {len(self.rounds)} still lacks results")
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

    def _records_of(self, entries: Collection[int], games: Sequence[Game],
                    strict: bool) -> dict[int, Record]:
        """The records with each entry's starting score as a round-0 line
        without opponent (so its points are its McMahon score)."""
        recs = super()._records_of(entries, games, strict)
        for pid, rec in recs.items():
            rec.encounters.insert(0, Encounter(0, None, Outcome.ABSENT,
                                               float(self.start_score(pid))))
        return recs

    def _ranking_setup(self, entries: list[int]) -> tuple[Any, ...]:
        """The individual event's and the start scores the records read."""
        return (super()._ranking_setup(entries),
                tuple(self.start_score(p.id) for p in self.players))

    def clone(self) -> McMahonTournament:
        """The individual event's copy with its own ranks and start scores."""
        new = super().clone()
        assert isinstance(new, McMahonTournament)
        new.ranks, new.start_scores = dict(self.ranks), dict(self.start_scores)
        return new

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
            raise CompetitionError(f"{source}：麦克马洪数据有误（{exc!r}）",
                                   f"{source}: bad McMahon data ({exc!r})") from None
        return t

