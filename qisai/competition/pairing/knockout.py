"""Knock-out (淘汰制, 11.1, 13.4) and the card draw of the local rules.

* Single elimination on a seeded bracket: seeds 1 and 2 can meet only in the
  final, 1-4 only in the semi-finals, and so on.  When the field is not a
  power of two the byes go to the top seeds or are drawn by lot.
* Double elimination (双淘汰制): an entry is out after its second loss.
  Each round pairs the unbeaten among themselves and the once-beaten among
  themselves in seed order, avoiding rematches where possible; an odd entry
  out in a group has a bye (the lowest seed without one).  The event ends
  when one entry has fewer than two losses.
* Colours by lot (猜先, 13.4).
* The card draw (local rules, clause 9 of 000): with k pairs to make, cards
  1..k of a red suit and 1..k of a black suit, plus one K when the number is
  odd, are shuffled and dealt; the K holder has the bye, the two holders of a
  number play each other, the red card holder plays Red.  Each round is drawn
  afresh among those still in ("每轮都采取抽签分组").

All lots come from a :class:`random.Random` seeded by the caller, so every
draw can be reproduced.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from qisai.competition.errors import EventStateError, PairingError, ResultError

if TYPE_CHECKING:
    from qisai.competition.series import Series


def bracket_order(size: int) -> list[int]:
    """Return the seeds in bracket order for a power-of-two ``size``:
    adjacent positions meet in round 1 (``[1, 8, 4, 5, 2, 7, 3, 6]`` for 8).

    Raises :class:`PairingError` if ``size`` is not a power of two.
    """
    if size < 1 or size & (size - 1):
        raise PairingError(f"对阵表的大小须为 2 的幂，实为 {size}",
                           f"bracket size must be a power of two, got {size}")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


@dataclass(frozen=True, slots=True)
class CardDraw:
    """Result of a card draw: the pairs (Red first), the bye holder, and the
    card each entry drew (``红3``, ``黑3``, ``K``)."""

    pairs: list[tuple[int, int]]
    bye: int | None
    cards: dict[int, str]


def card_draw(entries: Sequence[int], rng: random.Random) -> CardDraw:
    """Draw pairs by playing cards (local rules, clause 9).

    Returns a :class:`CardDraw` ordered by card number.
    Raises :class:`PairingError` for fewer than two or duplicate entries.
    """
    if len(entries) < 2:
        raise PairingError(f"抽牌至少需要两名参赛者，实有 {len(entries)} 名",
                           f"a card draw needs at least two entries, got {len(entries)}")
    if len(set(entries)) != len(entries):
        raise PairingError("抽牌的参赛者有重复",
                           "duplicate entries in the card draw")
    k = len(entries) // 2
    deck: list[tuple[str, int]] = [("红", i) for i in range(1, k + 1)]
    deck += [("黑", i) for i in range(1, k + 1)]
    if len(entries) % 2:
        deck.append(("K", 0))  # the K holder has the bye
    rng.shuffle(deck)
    cards: dict[int, str] = {}
    holders: dict[int, dict[str, int]] = {}
    bye = None
    for entry, (suit, num) in zip(entries, deck, strict=True):
        if suit == "K":
            cards[entry] = "K"
            bye = entry
            continue
        cards[entry] = f"{suit}{num}"
        holders.setdefault(num, {})[suit] = entry
    pairs = [(holders[n]["红"], holders[n]["黑"]) for n in sorted(holders)]
    return CardDraw(pairs, bye, cards)


@dataclass(slots=True)
class KnockoutMatch:
    """A match of a knock-out round; ``black`` is None for a bye.  ``winner``
    is set when the match (one game or a series) is decided."""

    round: int
    index: int
    red: int
    black: int | None
    winner: int | None = None
    note: str = ""

    @property
    def loser(self) -> int | None:
        """The loser, once decided (None for a bye)."""
        if self.winner is None or self.black is None:
            return None
        return self.black if self.winner == self.red else self.red


@dataclass(slots=True)
class Knockout:
    """A knock-out event over entries given in seed order (best first).

    ``draw`` is ``"bracket"`` (seeded bracket) or ``"cards"`` (card draw each
    round); ``byes`` is ``"seeded"`` (top seeds) or ``"lot"``; ``double``
    makes it double elimination (bracket draw only).
    """

    entries: list[int]
    draw: str = "bracket"
    byes: str = "seeded"
    double: bool = False
    seed: int = 0
    rounds: list[list[KnockoutMatch]] = field(default_factory=list)
    _slots: list[int | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.entries) < 2:
            raise PairingError(f"淘汰赛至少需要两名参赛者，实有 {len(self.entries)} 名",
                               f"a knock-out needs at least two entries, got {len(self.entries)}")
        if len(set(self.entries)) != len(self.entries):
            raise PairingError("淘汰赛的参赛者有重复",
                               "duplicate entries in the knock-out")
        if self.draw not in ("bracket", "cards"):
            raise PairingError(f"draw 须为 'bracket'（对阵表）或 'cards'（抽牌），不是 {self.draw!r}",
                               f"draw must be 'bracket' or 'cards', not {self.draw!r}")
        if self.byes not in ("seeded", "lot"):
            raise PairingError(f"byes 须为 'seeded'（按种子）或 'lot'（抽签），不是 {self.byes!r}",
                               f"byes must be 'seeded' or 'lot', not {self.byes!r}")
        if self.double and self.draw != "bracket":
            raise PairingError("双败淘汰用对阵表抽签",
                               "double elimination uses the bracket draw")
        if not self._slots and self.draw == "bracket" and not self.double:
            self._slots = self._initial_slots()

    def _rng(self, what: str) -> random.Random:
        return random.Random(f"{self.seed}:{what}")

    def _initial_slots(self) -> list[int | None]:
        n = len(self.entries)
        size = 1
        while size < n:
            size *= 2
        order = bracket_order(size)
        if self.byes == "seeded":
            # seeds n+1..size are phantoms: the top seeds meet them, i.e. have byes
            by_seed: list[int | None] = list(self.entries) + [None] * (size - n)
        else:
            # byes by lot: the phantoms take seed places drawn by lot, one per match
            rng = self._rng("byes")
            pairs = size // 2
            bye_matches = set(rng.sample(range(pairs), size - n))
            slots: list[int | None] = []
            pool = list(self.entries)
            rng.shuffle(pool)
            for m in range(pairs):
                if m in bye_matches:
                    slots += [pool.pop(), None]
                else:
                    slots += [pool.pop(), pool.pop()]
            return slots
        return [by_seed[s - 1] for s in order]

    # -- state -------------------------------------------------------------------
    def alive(self) -> list[int]:
        """Entries still in the event, in seed order."""
        losses = self.losses()
        limit = 2 if self.double else 1
        return [e for e in self.entries if losses.get(e, 0) < limit]

    def losses(self) -> dict[int, int]:
        """Number of matches lost by each entry."""
        out: dict[int, int] = {}
        for rnd in self.rounds:
            for m in rnd:
                if m.loser is not None:
                    out[m.loser] = out.get(m.loser, 0) + 1
        return out

    @property
    def finished(self) -> bool:
        """True when one entry is left."""
        return bool(self.rounds) and all(m.winner is not None for m in self.rounds[-1]) \
            and len(self.alive()) == 1

    @property
    def champion(self) -> int | None:
        """The winner, once :attr:`finished`."""
        return self.alive()[0] if self.finished else None

    def pair_next_round(self) -> list[KnockoutMatch]:
        """Pair the next round and return its matches (byes already decided).

        Raises :class:`EventStateError` if the last round is not decided or
        the event is over.
        """
        if self.rounds and any(m.winner is None for m in self.rounds[-1]):
            raise EventStateError(f"淘汰赛第 {len(self.rounds)} 轮尚未决出",
                                  f"knock-out round {len(self.rounds)} is not decided yet")
        if self.rounds and len(self.alive()) == 1:
            raise EventStateError("淘汰赛已结束",
                                  "the knock-out is over")
        number = len(self.rounds) + 1
        rng = self._rng(f"round:{number}")
        matches: list[KnockoutMatch] = []
        if self.double:
            matches = self._double_round(number, rng)
        elif self.draw == "cards":
            cd = card_draw(self.alive(), rng)
            for k, (red, black) in enumerate(cd.pairs):
                matches.append(KnockoutMatch(number, k, red, black,
                                             note=f"cards {cd.cards[red]}/{cd.cards[black]}"))
            if cd.bye is not None:
                matches.append(KnockoutMatch(number, len(matches), cd.bye, None, cd.bye,
                                             note="drew K: bye"))
        else:
            slots = self._slots if number == 1 else [
                m.winner for m in self.rounds[-1]]
            for k in range(0, len(slots), 2):
                a, b = slots[k], slots[k + 1]
                if a is None and b is None:
                    raise PairingError("对阵表中有一场两个位置都空",
                                       "a bracket match has two empty places")
                if a is None or b is None:
                    only = a if a is not None else b
                    assert only is not None
                    matches.append(KnockoutMatch(number, k // 2, only, None, only, note="bye"))
                    continue
                # 13.4: 猜先 — colours by lot
                red, black = (a, b) if rng.random() < 0.5 else (b, a)
                matches.append(KnockoutMatch(number, k // 2, red, black, note="colours by lot"))
        self.rounds.append(matches)
        return matches

    def _double_round(self, number: int, rng: random.Random) -> list[KnockoutMatch]:
        losses = self.losses()
        alive = self.alive()
        met = {frozenset((m.red, m.black)) for rnd in self.rounds for m in rnd
               if m.black is not None}
        byes = {m.red for rnd in self.rounds for m in rnd if m.black is None}
        groups = [[e for e in alive if losses.get(e, 0) == k] for k in (0, 1)]
        if len(groups[0]) == 1 and len(groups[1]) == 1:
            groups = [groups[0] + groups[1], []]  # the (grand) final
        matches: list[KnockoutMatch] = []
        for g in groups:
            pool = list(g)
            if len(pool) % 2:
                candidates = [e for e in reversed(pool) if e not in byes] or list(reversed(pool))
                bye = candidates[0]
                pool.remove(bye)
                matches.append(KnockoutMatch(number, 0, bye, None, bye, note="bye"))
            while pool:
                a = pool.pop(0)
                partner = next((b for b in pool if frozenset((a, b)) not in met), pool[0])
                pool.remove(partner)
                red, black = (a, partner) if rng.random() < 0.5 else (partner, a)
                matches.append(KnockoutMatch(number, 0, red, black, note="colours by lot"))
        for k, m in enumerate(matches):
            m.index = k
        return matches

    def series(self, round_no: int, index: int, format: str = "best_of_three", *,
               tied: str = "extra_game") -> Series:
        """Return the series that plays out match ``index`` of ``round_no``:
        game 1 with the match's colours (the red card holder has Red, 000
        clause 9; a bracket's colours were drawn at pairing, 13.4), then as
        the format goes on; ``tied`` as 000 clause 6 lets the organiser choose
        (``"extra_game"`` or ``"lot"``).  Record its winner with :meth:`record`.

        Raises :class:`ResultError` for an unknown match or a bye and
        :class:`EventStateError` for an unknown format or ``tied``.
        """
        from qisai.competition.series import Series, SeriesFormat

        if not 1 <= round_no <= len(self.rounds) or not 0 <= index < len(self.rounds[round_no - 1]):
            raise ResultError(f"淘汰赛第 {round_no} 轮没有第 {index} 场",
                              f"knock-out round {round_no} has no match {index}")
        m = self.rounds[round_no - 1][index]
        if m.black is None:
            raise ResultError(f"第 {round_no} 轮第 {index} 场为轮空",
                              f"round {round_no} match {index} is a bye")
        try:
            fmt = SeriesFormat(format)
        except ValueError:
            raise EventStateError(f"未知的对局赛制 {format!r}",
                                  f"unknown series format {format!r}") from None
        return Series(m.red, m.black, fmt, seed=self.seed * 1009 + round_no * 97 + index,
                      first_colours="pairing", tied=tied)

    def record(self, round_no: int, index: int, winner: int) -> None:
        """Record the winner of a match (decided by one game or a series).

        Raises :class:`ResultError` for an unknown match or a winner who did
        not play in it.
        """
        if not 1 <= round_no <= len(self.rounds):
            raise ResultError(f"淘汰赛第 {round_no} 轮尚未编排",
                              f"knock-out round {round_no} has not been paired")
        rnd = self.rounds[round_no - 1]
        if not 0 <= index < len(rnd):
            raise ResultError(f"淘汰赛第 {round_no} 轮没有第 {index} 场",
                              f"knock-out round {round_no} has no match {index}")
        m = rnd[index]
        if winner not in (m.red, m.black):
            raise ResultError(f"第 {round_no} 轮第 {index} 场：{winner} 没有参赛（{m.red} 对 {m.black}）",
                              f"round {round_no} match {index}: {winner} did not play "
                              f"({m.red} v {m.black})")
        m.winner = winner

    def to_dict(self) -> dict[str, Any]:
        """Return the knock-out as JSON-ready data."""
        return {"entries": self.entries, "draw": self.draw, "byes": self.byes,
                "double": self.double, "seed": self.seed,
                "rounds": [[{"red": m.red, "black": m.black, "winner": m.winner,
                             "note": m.note} for m in rnd] for rnd in self.rounds]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Knockout:
        """Inverse of :meth:`to_dict`. Raises :class:`PairingError` or
        :class:`ResultError` for inconsistent data."""
        try:
            ko = cls(list(data["entries"]), data.get("draw", "bracket"),
                     data.get("byes", "seeded"), bool(data.get("double", False)),
                     int(data.get("seed", 0)))
            for r, rnd in enumerate(data.get("rounds", []), start=1):
                ko.rounds.append([KnockoutMatch(r, k, m["red"], m["black"], m["winner"],
                                                m.get("note", ""))
                                  for k, m in enumerate(rnd)])
        except (KeyError, TypeError) as exc:
            raise PairingError(f"淘汰赛数据有误（{exc!r}）",
                               f"bad knock-out data ({exc!r})") from None
        return ko
