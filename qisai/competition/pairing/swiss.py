"""积分编排制 (Chinese Swiss, 11.4, 13.3 and Appendix 2).

The procedure, as the appendix describes it and as implemented here:

* Round 1: entries are ordered by rating (等级分; unrated entries after the
  rated ones, ordered by lot), split into an upper and a lower half of equal
  size, and each upper-half entry is given a lower-half opponent by lot;
  colours are drawn by lot too ("以抽签方式由每组各出一人编对，并抽签决定先后走").
* Later rounds: "由最高分按积分段逐段向下编排，同分者编对": score segments are
  paired from the top.  Inside a segment the upper half meets the lower half
  (or, by option, neighbours meet: 1-2, 3-4, as at the 14th World
  Championship), each partner chosen by weighted matching so that colour
  balance is served second ("在首先服从同分或近分者对弈的原则下，应尽量平衡
  每个人先后走的次数").  An entry left over floats down and meets the nearest
  score below ("以近分者编对").
* Getting stuck ("受卡"): when the bottom cannot be completed, the segment
  above is taken apart and re-paired together with the rest ("将由上排下来的
  最后一对或几对拆开重排"), upwards until everything is paired; the merged part
  is solved by one weighted matching that keeps the top-down priority.
* Never a rematch ("相遇过的对手不再编对").
* Colour limits (largest Red-Black difference, longest run of one colour):
  by default (``colour_rule="score_first"``) they rank below the score
  groups, as Appendix 2 orders them: "在首先服从同分或近分者对弈的原则下，应尽量
  平衡每个人（队）先后走的次数".  A pairing that keeps them is preferred
  among those with the fewest crossings of score boundaries (top first),
  and a broken limit is reported as relaxed, naming the entry and the limit.
  With ``colour_rule="hard"`` (an event's own regulations) they are absolute
  and are relaxed only when no pairing at all satisfies them.  Same-team/club
  avoidance for the first k rounds is relaxed last.
* Look-ahead (``rounds_left``): a round must leave the remaining rounds
  pairable without rematches (:mod:`qisai.competition.pairing.lookahead`).
* Odd field: the bye goes to the lowest-placed entry (lowest score, then
  last in order) that has not had one.

Every choice that is not forced is made with a :class:`random.Random` seeded by
the event, so a round is reproducible, and :class:`SwissResult.explanation`
says in words why each pair and colour came about.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from qisai.competition.errors import PairingError
from qisai.competition.model import Colour, Pairing
from qisai.competition.pairing import lookahead
from qisai.competition.pairing.swiss_options import SwissOptions

_FORBIDDEN = 10**12  # assignment cost of a forbidden pair in the repair of round 1
_MERGE_LIMIT = 64  # largest re-pairing of segments done for a stranded floater


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """What the pairer needs to know about an entry.

    ``order`` is the seeding position (1 = strongest by rating or lot) and
    breaks ties inside a score.  ``colours`` lists the colours of the games
    actually played, oldest first.  ``group`` is the team/club key used for
    avoidance (None: never avoided).
    """

    id: int
    score: float
    order: int
    opponents: frozenset[int] = frozenset()
    colours: tuple[Colour, ...] = ()
    byes: int = 0
    group: str | None = None
    unplayed: int = 0  # rounds without a game over the board (absent, forfeit, bye)

    @property
    def colour_diff(self) -> int:
        """Red games minus Black games (先后走差)."""
        reds = sum(1 for c in self.colours if c is Colour.RED)
        return reds - (len(self.colours) - reds)

    def streak(self) -> tuple[Colour | None, int]:
        """Return the last colour and how many times in a row it was played."""
        if not self.colours:
            return None, 0
        last = self.colours[-1]
        n = 0
        for c in reversed(self.colours):
            if c is not last:
                break
            n += 1
        return last, n


@dataclass(slots=True)
class SwissResult:
    """A paired round: boards (Red first), the bye holder, the constraints
    that had to be relaxed, and a plain-language explanation."""

    pairings: list[Pairing]
    bye: int | None
    relaxed: list[str] = field(default_factory=list)
    explanation: list[str] = field(default_factory=list)


class _Rules:
    """Constraint checks for one round at one relaxation level.

    With ``colour_limits`` on and ``options.colour_rule == "score_first"``
    the limits are soft: :meth:`allowed` ignores them and
    :meth:`limit_cost` prices them; with ``"hard"`` they forbid pairs.
    """

    def __init__(self, players: dict[int, SwissPlayer], options: SwissOptions,
                 round_no: int, colour_limits: bool, group_avoid: bool,
                 taboo: frozenset[frozenset[int]] = frozenset()) -> None:
        self.p = players
        self.taboo = taboo  # pairs the look-ahead rules out this round
        self.o = options
        self.colour_limits = colour_limits
        self.soft = colour_limits and options.colour_rule == "score_first"
        self.group_avoid = group_avoid and round_no <= options.avoid_group_rounds
        self._can: dict[int, tuple[bool, bool]] = {}
        self._free: set[int] = set()  # entries that may take either colour
        for pid, pl in players.items():
            self._can[pid] = (self._may(pl, Colour.RED), self._may(pl, Colour.BLACK))
            if all(self._can[pid]):
                self._free.add(pid)
        self._stuck = set() if self.soft else {
            pid for pid, c in self._can.items() if not any(c)}

    def terms(self, lang: str = "en") -> str:
        """Name the rules a pair must keep at this level, for the error that
        says no pairing keeps them: "without rematch" (不重复对阵), and, when
        they are in force, "within the colour limits" (hard limits) and
        "keeping same-group entries apart"; in Chinese unless ``lang`` is
        ``en``.  (A look-ahead re-pairing that rules out boards and fails is
        never reported: the next one is tried.)"""
        en = lang == "en"
        words = ["without rematch" if en else "不重复对阵"]
        if self.colour_limits and not self.soft:
            words.append("within the colour limits" if en else "不超出先后手限制")
        if self.group_avoid:
            words.append("keeping same-group entries apart" if en else "同单位选手不相遇")
        return (" and " if en else "、").join(words)

    def _may(self, pl: SwissPlayer, c: Colour) -> bool:
        return not self.breaks(pl, c)

    def breaks(self, pl: SwissPlayer, c: Colour) -> str:
        """Return which colour limit ``pl`` breaks by taking ``c`` ('' if none)."""
        if not self.colour_limits:
            return ""
        d = pl.colour_diff + (1 if c is Colour.RED else -1)
        if abs(d) > self.o.max_colour_diff:
            return f"|Red - Black| would be {abs(d)} > {self.o.max_colour_diff}"
        last, run = pl.streak()
        if last is c and run + 1 > self.o.max_streak:
            return f"{run + 1} {c.value} in a row > {self.o.max_streak}"
        return ""

    def colours_allowed(self, pid: int) -> tuple[bool, bool]:
        """Return (may take Red, may take Black) for ``pid`` (both, when the
        limits are soft)."""
        return (True, True) if self.soft else self._can[pid]

    def _broken(self, red: int, black: int) -> int:
        return (not self._can[red][0]) + (not self._can[black][1])

    def limit_cost(self, a: int, b: int) -> int:
        """Return the fewest colour limits a pair of a and b must break (0-2)."""
        if not self.soft or (a in self._free and b in self._free):
            return 0
        return min(self._broken(a, b), self._broken(b, a))

    def orientations(self, a: int, b: int) -> list[tuple[int, int]]:
        """Return the allowed (red, black) orders for a and b; with soft
        limits, those breaking the fewest limits."""
        if self.soft:
            ab, ba = self._broken(a, b), self._broken(b, a)
            return [o for o, k in (((a, b), ab), ((b, a), ba)) if k == min(ab, ba)]
        out = []
        if self._can[a][0] and self._can[b][1]:
            out.append((a, b))
        if self._can[b][0] and self._can[a][1]:
            out.append((b, a))
        return out

    def allowed(self, a: int, b: int) -> bool:
        """True when a and b may meet: no rematch, no avoided group, and
        (hard limits) a colour order that keeps the limits."""
        pa, pb = self.p[a], self.p[b]
        if b in pa.opponents or a in pb.opponents:
            return False  # 相遇过的对手不再编对
        if self.taboo and frozenset((a, b)) in self.taboo:
            return False
        if self.group_avoid and pa.group is not None and pa.group == pb.group:
            return False
        if self.soft:
            return True
        if a in self._stuck or b in self._stuck:
            return False
        if a in self._free or b in self._free:
            return True
        return bool(self.orientations(a, b))


def _assignment() -> tuple[Any, Any]:
    """numpy and scipy's ``linear_sum_assignment``, imported on first use
    (only pairing needs them; see :mod:`.lsap`)."""
    import numpy

    from qisai.competition.pairing.lsap import linear_sum_assignment

    return numpy, linear_sum_assignment()


def _preference(pl: SwissPlayer) -> tuple[Colour | None, int]:
    """Return the colour an entry should have next and how strongly (2: its
    difference is off balance, 1: alternation only, 0: none)."""
    d = pl.colour_diff
    if d < 0:
        return Colour.RED, 2
    if d > 0:
        return Colour.BLACK, 2
    last, _ = pl.streak()
    if last is None:
        return None, 0
    return last.other, 1


def allocate_colours(a: SwissPlayer, b: SwissPlayer, rules: _Rules | None,
                     rng: random.Random) -> tuple[int, int, str]:
    """Return (red, black, reason) for a pair, by 13.3/Appendix 2 balance.

    The entry with fewer Red games takes Red; on equal balance, the one whose
    last game was Black; if still equal, the higher-placed entry alternates
    from its last colour; with no history at all, by lot.
    """
    options = rules.orientations(a.id, b.id) if rules is not None else [(a.id, b.id), (b.id, a.id)]
    if len(options) == 1:
        forced_red, forced_black = options[0]
        return forced_red, forced_black, "colour forced by the colour limits"
    if a.colour_diff != b.colour_diff:
        red, black = (a, b) if a.colour_diff < b.colour_diff else (b, a)
        return red.id, black.id, f"{red.id} has had fewer Red games"
    la, _ = a.streak()
    lb, _ = b.streak()
    if la is not lb and la is not None and lb is not None:
        red, black = (a, b) if la is Colour.BLACK else (b, a)
        return red.id, black.id, f"{red.id} had Black last round"
    if la is not None:
        hi, lo = (a, b) if (-a.score, a.order) < (-b.score, b.order) else (b, a)
        if la is Colour.BLACK:
            return hi.id, lo.id, f"equal histories: higher-placed {hi.id} alternates to Red"
        return lo.id, hi.id, f"equal histories: higher-placed {hi.id} alternates to Black"
    if rng.random() < 0.5:
        return a.id, b.id, "colours drawn by lot"
    return b.id, a.id, "colours drawn by lot"


def _first_round(players: list[SwissPlayer], options: SwissOptions, rng: random.Random,
                 rules: _Rules) -> tuple[list[tuple[int, int]], list[str]]:
    """Round 1: upper half against lower half; opponents and colours by lot."""
    ordered = sorted(players, key=lambda p: p.order)
    half = len(ordered) // 2
    top, bottom = ordered[:half], ordered[half:]
    notes = [f"round 1: upper half {top[0].id}..{top[-1].id} meets lower half "
             f"{bottom[0].id}..{bottom[-1].id}"]
    opponents = list(bottom)
    if options.first_round == "fold":
        notes.append("opponents by order (1 meets n/2+1)")
    else:
        rng.shuffle(opponents)
        notes.append("lower-half opponents drawn by lot")
    pairs = [(t.id, b.id) for t, b in zip(top, opponents, strict=True)]
    if any(not rules.allowed(a, b) for a, b in pairs):
        # same-group avoidance: keep as many drawn pairs as the groups allow,
        # the new pairs by lot.  A new pair costs more than the lots of all
        # the new pairs together (half * 1000 > half * 999), so the matching
        # changes the fewest drawn pairs and only then follows the lot.
        drawn = {frozenset(p) for p in pairs}
        np, linear_sum_assignment = _assignment()
        cost = np.full((half, half), _FORBIDDEN, dtype=np.int64)
        changed = half * 1000
        for i, t in enumerate(top):
            for j, b in enumerate(bottom):
                if rules.allowed(t.id, b.id):
                    cost[i, j] = (0 if frozenset((t.id, b.id)) in drawn
                                  else changed + rng.randrange(1000))
        chosen = list(zip(*linear_sum_assignment(cost), strict=True))
        if any(cost[i, j] >= _FORBIDDEN for i, j in chosen):
            raise PairingError("第 1 轮：上下半区的任何对阵都避不开同单位选手",
                               "round 1: no pairing of the halves avoids same-group opponents")
        pairs = [(top[i].id, bottom[j].id) for i, j in chosen]
        notes.append("draw repaired to keep same-group entries apart")
    return pairs, notes


class _Solver:
    """Pairs the remaining entries of a round (rounds 2 and later)."""

    def __init__(self, players: dict[int, SwissPlayer], rules: _Rules,
                 options: SwissOptions) -> None:
        self.p = players
        self.rules = rules
        self.o = options
        self.bye: int | None = None
        self.pref = {pid: _preference(pl) for pid, pl in players.items()}
        # a broken limit outweighs the preference costs of a whole round
        self.limit_weight = 2 * (len(players) // 2 + 1) + 1
        self.colour_max = 2 * self.limit_weight + 2 if rules.soft else 2

    def _colour_cost(self, a: int, b: int) -> int:
        """Colour cost of a pair: broken limits (soft limits) first, each
        weighing more than every preference of a segment together, then
        clashing preferences (0-2)."""
        ca, sa = self.pref[a]
        cb, sb = self.pref[b]
        pref = 0 if ca is None or cb is None or ca is not cb else min(sa, sb)
        if self.rules.soft:
            return self.rules.limit_cost(a, b) * self.limit_weight + pref
        return pref

    def _sorted(self, ids: Sequence[int]) -> list[int]:
        return sorted(ids, key=lambda i: (-self.p[i].score, self.p[i].order))

    # -- one segment, fast path: a bipartite assignment between the halves ----
    def _assign(self, bracket: list[int]) -> list[tuple[int, int]] | None:
        m = len(bracket)
        if m < 2:
            return []
        if self.o.segment_pairing == "adjacent":
            s1 = bracket[0:2 * (m // 2):2]
            s2 = bracket[1:2 * (m // 2):2] + bracket[2 * (m // 2):]
        else:
            s1, s2 = bracket[: m // 2], bracket[m // 2:]
        pos = {pid: k for k, pid in enumerate(bracket)}
        pairs = self._assign_sides(s1, s2, lambda i, j, a, b: abs(i - j))
        if pairs is not None:
            return pairs
        # second try: those who need Red against those who need Black, partners
        # still as near to half a segment apart as the colours allow
        half = m // 2

        def need(pid: int) -> int:
            can_red, can_black = self.rules.colours_allowed(pid)
            if can_red and not can_black:
                return 3
            if can_black and not can_red:
                return -3
            colour, strength = self.pref[pid]
            return 0 if colour is None else (strength if colour is Colour.RED else -strength)

        needs = {pid: need(pid) for pid in bracket}
        order = sorted(bracket, key=lambda pid: -needs[pid])
        reds, blacks = sorted(order[:half], key=pos.__getitem__), \
            sorted(order[half:], key=pos.__getitem__)
        # the most pairs the colour limits allow: each pair needs one entry that
        # may take Red and one that may take Black
        must_red = sum(1 for v in needs.values() if v == 3)
        must_black = sum(1 for v in needs.values() if v == -3)
        free = m - must_red - must_black
        most = min(half, must_red + free, must_black + free)
        return self._assign_sides(
            reds, blacks,
            lambda i, j, a, b: abs(abs(pos[a] - pos[b]) - half) + pos[a] + pos[b],
            required=most)

    def _assign_sides(self, s1: list[int], s2: list[int],
                      distance: Callable[[int, int, int, int], int],
                      required: int | None = None) -> list[tuple[int, int]] | None:
        """Bipartite assignment of ``s1`` into ``s2`` (the larger side keeps
        the rest over): colour preferences first, then ``distance``.  Returns
        None unless every row is paired, or, with ``required``, at least that
        many allowed pairs are made (the others float down)."""
        n1, n2 = len(s1), len(s2)
        most = min(n1, n2)  # pairs an assignment makes
        # Colours before places (Appendix 2): a unit of colour cost outweighs
        # the summed distances (each below 3 * (n1 + n2) in both callers'
        # forms), and a forbidden pair every allowed cost of an assignment.
        big = 3 * (n1 + n2) * most + 1
        forbidden = most * (self.colour_max + 1) * big + 1
        np, linear_sum_assignment = _assignment()
        cost = np.full((n1, n2), forbidden, dtype=np.int64)
        allowed = self.rules.allowed
        colour_cost = self._colour_cost
        for i, a in enumerate(s1):
            row = cost[i]
            for j, b in enumerate(s2):
                if allowed(a, b):
                    row[j] = colour_cost(a, b) * big + distance(i, j, a, b)
        pairs = [(s1[i], s2[j]) for i, j in zip(*linear_sum_assignment(cost), strict=True)
                 if cost[i, j] < forbidden]
        if len(pairs) == n1 or (required is not None and len(pairs) >= required):
            return pairs
        return None

    # -- general weighted matching over a set of entries -----------------------
    def _match(self, ids: list[int], bracket_floor: float | None,
               bye_pool: set[int] | None = None) -> list[tuple[int, int]]:
        """Maximum-cardinality matching of ``ids`` with lexicographic weights:
        (1) fewest pairs across each score boundary, top boundary first
        (top-down, nearest score); (2) colour preferences; (3) position in the
        segment.  With ``bracket_floor`` set and an odd count, a phantom
        "float down" node takes the entry that will float to the next segment.
        """
        ids = self._sorted(ids)
        levels = sorted({self.p[i].score for i in ids}, reverse=True)
        lvl = {i: levels.index(self.p[i].score) for i in ids}
        phantom = -1
        nodes = list(ids)
        if (bracket_floor is not None or bye_pool is not None) and len(ids) % 2 == 1:
            nodes.append(phantom)
            lvl[phantom] = len(levels)
        nlev = len(levels) + 1
        n = len(nodes)
        base = n // 2 + 2
        pos = {i: k for k, i in enumerate(nodes)}
        within_max = n + 1
        c2 = within_max * (n // 2 + 1) + 1
        c1 = c2 * (self.colour_max * (n // 2 + 1) + 1)
        wk = [base ** (nlev - 1 - k) for k in range(nlev)]
        prefix = [0]
        for w in wk:
            prefix.append(prefix[-1] + w)
        top_cost = (prefix[-1] + 1) * c1
        target = 1 if self.o.segment_pairing == "adjacent" else max(1, n // 2)
        import networkx as nx  # imported here: a second of start-up for every command

        g = nx.Graph()
        g.add_nodes_from(nodes)
        for x in range(n):
            a = nodes[x]
            for y in range(x + 1, n):
                b = nodes[y]
                if a == phantom or b == phantom:
                    other = b if a == phantom else a
                    if bye_pool is not None and other not in bye_pool:
                        continue
                    cross = prefix[lvl[phantom]] - prefix[lvl[other]]
                    cost = cross * c1 + (n - pos[other])
                else:
                    if not self.rules.allowed(a, b):
                        continue
                    la, lb = lvl[a], lvl[b]
                    cross = prefix[max(la, lb)] - prefix[min(la, lb)]
                    colour = self._colour_cost(a, b)
                    cost = cross * c1 + colour * c2 + abs(abs(y - x) - target)
                g.add_edge(a, b, weight=top_cost - cost)
        matching = nx.max_weight_matching(g, maxcardinality=True)
        pairs = []
        for a, b in matching:
            if a == phantom or b == phantom:
                self.bye = b if a == phantom else a
                continue
            pairs.append((a, b) if pos[a] < pos[b] else (b, a))
        return pairs

    def solve_with_bye(self, pool: list[int]) -> tuple[list[tuple[int, int]], int]:
        """One weighted matching over everyone plus a bye node joined to the
        entries in ``pool``; the top-down weights give the bye to the lowest
        score that still lets everyone else be paired."""
        pairs = self._match(list(self.p), None, bye_pool=set(pool))
        paired = {x for pr in pairs for x in pr}
        if self.bye is None or len(paired) != len(self.p) - 1:
            raise PairingError(f"任何轮空者都找不到{self.rules.terms('zh')}的编排",
                               f"no pairing {self.rules.terms()} exists with any bye holder")
        return pairs, self.bye

    def solve(self) -> tuple[list[tuple[int, int]], list[str]]:
        """Pair every entry, or raise :class:`PairingError`."""
        notes: list[str] = []
        ordered = self._sorted(list(self.p))
        scores = sorted({self.p[i].score for i in ordered}, reverse=True)
        segments = [[i for i in ordered if self.p[i].score == s] for s in scores]
        done: list[tuple[int, list[tuple[int, int]]]] = []  # (first segment, pairs)
        pools: list[list[int]] = []  # what each segment's bracket started with
        carry: list[int] = []
        for k, seg in enumerate(segments):
            score = self.p[seg[0]].score
            bracket = carry + seg
            pools.append(bracket)
            pairs = self._assign(bracket)
            if pairs is None:
                pairs = self._match(bracket, bracket_floor=score)
            paired = {x for pr in pairs for x in pr}
            carry = [i for i in bracket if i not in paired]
            start = k
            # a floater from above found no partner here: the pairs above are
            # taken apart and re-paired together with this segment (拆开重排)
            while done and any(self.p[i].score > score for i in carry):
                above = done[-1][0]  # the block of segments just above
                merged = pools[above] + [x for s in segments[above + 1:k + 1] for x in s]
                if len(merged) > _MERGE_LIMIT:
                    break
                done.pop()
                start = above
                pairs = self._match(merged, bracket_floor=score)
                paired = {x for pr in pairs for x in pr}
                carry = [i for i in merged if i not in paired]
                notes.append(f"segment {score:g} could not take the floaters: re-paired with "
                             f"segment {self.p[segments[start][0]].score:g} (拆开重排)")
            done.append((start, pairs))
            if carry:
                notes.append(
                    f"segment {score:g}: {', '.join(map(str, carry))} "
                    f"float{'s' if len(carry) == 1 else ''} down to the nearest score")
        # 受卡: take apart the segments above the bottom and re-pair them with
        # it, one segment first, then two, four, ... until everything pairs
        last = len(segments) - 1
        step = 1
        k = last
        while carry:
            if k == 0:
                raise PairingError(
                    f"{', '.join(map(str, carry))} 找不到{self.rules.terms('zh')}的编排",
                    f"no pairing {self.rules.terms()} exists for {', '.join(map(str, carry))}")
            k = max(0, last - step)
            step *= 2
            while done and done[-1][0] >= k:
                done.pop()
            paired_above = {x for _, seg in done for pr in seg for x in pr}
            merged = [i for i in ordered if i not in paired_above]
            notes.append(f"stuck at the bottom: segment {self.p[segments[k][0]].score:g} "
                         f"and below re-paired together (受卡, 拆开重排)")
            pairs = self._match(merged, bracket_floor=None)
            done.append((k, pairs))
            paired = {x for pr in pairs for x in pr}
            carry = [i for i in merged if i not in paired]
        return [pr for _, seg in done for pr in seg], notes


def pair_swiss_round(players: Sequence[SwissPlayer], round_no: int, options: SwissOptions,
                     rng: random.Random, *, draw_first_round: bool = True,
                     rounds_left: int = 0) -> SwissResult:
    """Pair round ``round_no`` of a 积分编排制 event.

    ``rounds_left``: rounds still to be paired after this one; the round is
    chosen so that they remain pairable without rematches (look-ahead, see
    :func:`_keep_completable`).
    ``players`` are the entries still in the event (withdrawn ones left out).
    With ``draw_first_round`` off, a round without history is paired by score
    segments like any other (McMahon start scores) instead of the halves draw.
    Returns a :class:`SwissResult` whose boards are ordered by the higher score
    on the board, Red listed first.
    Raises :class:`PairingError` if there are fewer than two entries, ids are
    duplicated, or no pairing without a rematch exists.
    """
    if len(players) < 2:
        raise PairingError(f"第 {round_no} 轮：至少需要两名参赛者",
                           f"round {round_no}: at least two entries are needed")
    by_id = {p.id: p for p in players}
    if len(by_id) != len(players):
        raise PairingError(f"第 {round_no} 轮：参赛者编号重复",
                           f"round {round_no}: duplicate entry ids")
    explanation: list[str] = []
    relaxed: list[str] = []
    attempts = [(True, True, ""),
                (False, True, "colour limits"),
                (False, False, "colour limits and same-group avoidance")]
    last_error: PairingError | None = None
    for colour_limits, group_avoid, label in attempts:
        seed = rng.random()
        try:
            result = _pair_with(by_id, round_no, options, random.Random(seed),
                                colour_limits, group_avoid, draw_first_round)
        except PairingError as exc:
            last_error = exc
            continue
        if rounds_left > 0:
            result = _keep_completable(result, by_id, round_no, options, seed, colour_limits,
                                       group_avoid, draw_first_round, rounds_left)
        if label:
            relaxed.append(label)
            # say why the stricter attempt failed: the arbiter sees which rule gave way
            result.explanation.insert(
                0, f"relaxed: {label} (no pairing satisfied them: {'' if last_error is None else last_error.en})")
        result.relaxed = relaxed + result.relaxed
        result.explanation = explanation + result.explanation
        return result
    assert last_error is not None
    raise PairingError(f"第 {round_no} 轮：{last_error.zh}",
                       f"round {round_no}: {last_error.en}")


def _keep_completable(result: SwissResult, by_id: dict[int, SwissPlayer], round_no: int,
                      options: SwissOptions, seed: float, colour_limits: bool,
                      group_avoid: bool, draw_first_round: bool,
                      rounds_left: int) -> SwissResult:
    """Return ``result`` if the ``rounds_left`` later rounds can still be
    paired without rematches after it ("相遇过的对手不再编对"); otherwise the
    best pairing (fewest crossings of score boundaries, top first, then
    colours) that keeps them pairable, searched exactly on small fields.
    A note in the explanation says what was done; if no such pairing exists
    the result stands with a warning."""
    ids = sorted(by_id)

    def met(a: int, b: int) -> bool:
        return b in by_id[a].opponents or a in by_id[b].opponents

    fresh = {i for i in ids if by_id[i].byes == 0}
    pool = fresh if len(fresh) > rounds_left else set(ids)
    # cheap sufficient bound first (large fields): every node keeps at least
    # n/2 + k - 1 partners after this round (see lookahead's Dirac bound)
    nodes = len(ids) + len(ids) % 2
    need = nodes // 2 + rounds_left - 1
    inside = set(ids)
    least = min(len(ids) - 2 - len(by_id[i].opponents & inside) for i in ids)
    if least >= need and (len(ids) % 2 == 0 or len(pool) - 1 >= need):
        return result
    after = lookahead.remaining_graph(ids, met, pool.__contains__ if len(ids) % 2 else None)

    def taken(pairs: list[tuple[int, int]], bye: int | None) -> list[tuple[int, int]]:
        return pairs + ([(bye, lookahead.BYE)] if bye is not None else [])

    pairs = [(p.red, p.black) for p in result.pairings if p.black is not None]
    verdict = lookahead.completable(lookahead.without(after, taken(pairs, result.bye)),
                                    rounds_left)
    if verdict:
        return result
    if verdict is None:
        result.explanation.append(
            f"look-ahead: could not confirm that the {rounds_left} later round(s) stay "
            "pairable without rematches")
        return result
    if len(after) > lookahead.EXACT_LIMIT:
        return _retry_without(result, by_id, round_no, options, seed, colour_limits,
                              group_avoid, draw_first_round, rounds_left, after, taken)
    rules = _Rules(by_id, options, round_no, colour_limits, group_avoid)
    solver = _Solver(by_id, rules, options)
    candidates = set(_pick_bye(by_id, set())) if len(ids) % 2 else set()
    now = lookahead.remaining_graph(ids, lambda a, b: not rules.allowed(a, b),
                                    candidates.__contains__ if len(ids) % 2 else None)
    score = {i: by_id[i].score for i in ids}
    levels = sorted(set(score.values()), reverse=True)
    lvl = {i: levels.index(score[i]) for i in ids}
    lvl[lookahead.BYE] = len(levels)

    def key(m: list[tuple[int, int]]) -> tuple[list[int], int]:
        cross = [0] * (len(levels) + 1)
        colour = 0
        for a, b in m:
            lo, hi = sorted((lvl[a], lvl[b]))
            for k in range(lo, hi):
                cross[k] += 1
            if lookahead.BYE not in (a, b):
                colour += solver._colour_cost(a, b)
        return cross, colour

    for m in sorted(lookahead.perfect_matchings(now), key=key):
        bye = next((a if b == lookahead.BYE else b for a, b in m
                    if lookahead.BYE in (a, b)), None)
        rest = [(a, b) for a, b in m if lookahead.BYE not in (a, b)]
        if lookahead.completable(lookahead.without(after, taken(rest, bye)), rounds_left):
            note = (f"look-ahead: the first choice would leave the {rounds_left} later "
                    "round(s) without a rematch-free pairing (相遇过的对手不再编对); this is "
                    "the best pairing that keeps them pairable")
            better = _pair_with(by_id, round_no, options, random.Random(seed), colour_limits,
                                group_avoid, draw_first_round, forced=(rest, bye, note))
            return better
    result.explanation.append(
        f"look-ahead: no pairing of this round keeps the {rounds_left} later round(s) "
        "pairable without rematches")
    return result


def _retry_without(result: SwissResult, by_id: dict[int, SwissPlayer], round_no: int,
                   options: SwissOptions, seed: float, colour_limits: bool,
                   group_avoid: bool, draw_first_round: bool, rounds_left: int,
                   after: dict[int, set[int]],
                   taken: Callable[[list[tuple[int, int]], int | None], list[tuple[int, int]]]
                   ) -> SwissResult:
    """Larger fields: re-pair with one board of the first choice ruled out,
    bottom board first, then with the bottom boards ruled out together, until
    the later rounds stay pairable; the first such pairing is returned."""
    pairs = [frozenset((p.red, p.black)) for p in result.pairings if p.black is not None]
    tries = [frozenset({x}) for x in reversed(pairs)]
    tries += [frozenset(pairs[-k:]) for k in range(2, len(pairs) + 1)]
    for taboo in tries[:2 * len(pairs)]:
        try:
            alt = _pair_with(by_id, round_no, options, random.Random(seed), colour_limits,
                             group_avoid, draw_first_round, taboo=taboo)
        except PairingError:
            continue
        alt_pairs = [(p.red, p.black) for p in alt.pairings if p.black is not None]
        if lookahead.completable(lookahead.without(after, taken(alt_pairs, alt.bye)),
                                 rounds_left):
            alt.explanation.insert(0, (
                f"look-ahead: the first choice would leave the {rounds_left} later round(s) "
                "without a rematch-free pairing (相遇过的对手不再编对); re-paired without "
                + ", ".join("-".join(map(str, sorted(x))) for x in taboo)))
            return alt
    result.explanation.append(
        f"look-ahead: no re-pairing found that keeps the {rounds_left} later round(s) "
        "pairable without rematches")
    return result


def _pick_bye(by_id: dict[int, SwissPlayer], exclude: set[int]) -> list[int]:
    """Return bye candidates, best first: lowest score, then fewest rounds
    already without a game, then last in order, among entries without a bye
    (everyone, if all have had one)."""
    pool = [p for p in by_id.values() if p.id not in exclude]
    fresh = [p for p in pool if p.byes == 0] or pool
    fresh.sort(key=lambda p: (p.score, p.unplayed, -p.order))
    return [p.id for p in fresh]


def _pair_with(by_id: dict[int, SwissPlayer], round_no: int, options: SwissOptions,
               rng: random.Random, colour_limits: bool, group_avoid: bool,
               draw_first_round: bool = True,
               forced: tuple[list[tuple[int, int]], int | None, str] | None = None,
               taboo: frozenset[frozenset[int]] = frozenset()) -> SwissResult:
    rules = _Rules(by_id, options, round_no, colour_limits, group_avoid, taboo)
    candidates = _pick_bye(by_id, set()) if len(by_id) % 2 else []
    bye = candidates[0] if candidates else None
    if forced is not None:
        bye = forced[1]
    active = {i: p for i, p in by_id.items() if i != bye}
    notes: list[str] = []
    try:
        if forced is not None:
            raw, more = list(forced[0]), [forced[2]]
        elif draw_first_round and all(not p.colours and not p.opponents
                                    for p in active.values()):
            raw, more = _first_round(list(active.values()), options, rng, rules)
        else:
            raw, more = _Solver(active, rules, options).solve()
    except PairingError:
        if bye is None:
            raise
        # the first choice of bye holder leaves the rest unpairable: let one
        # matching choose the bye among the candidates (lowest score first)
        raw, bye = _Solver(by_id, rules, options).solve_with_bye(candidates)
        more = [f"the bye could not go to {candidates[0]}: the rest would not pair"]
    if bye is not None:
        notes.append(f"{bye} has the bye (lowest placed without a bye, fewest "
                     "rounds missed; 轮空)")
    notes += more
    boards = []
    fold = options.first_round == "fold" and all(not p.colours for p in active.values())
    for k, (a, b) in enumerate(raw):
        if fold:
            # fold: the higher-placed entry has Red on odd boards
            red, black = (a, b) if k % 2 == 0 else (b, a)
            boards.append((red, black, "round 1 fold: colours alternate by board"))
            continue
        red, black, why = allocate_colours(by_id[a], by_id[b], rules, rng)
        boards.append((red, black, why))
    boards.sort(key=lambda t: (-max(by_id[t[0]].score, by_id[t[1]].score),
                               min(by_id[t[0]].order, by_id[t[1]].order)))
    pairings = [Pairing(r, b, k + 1) for k, (r, b, _) in enumerate(boards)]
    broken: list[str] = []
    for k, (r, b, why) in enumerate(boards):
        notes.append(f"board {k + 1}: {r} (Red) - {b} (Black): {why}")
        if rules.soft:
            for pid, colour in ((r, Colour.RED), (b, Colour.BLACK)):
                what = rules.breaks(by_id[pid], colour)
                if what:
                    broken.append(f"colour limits: board {k + 1}: {pid} takes "
                                  f"{colour.value}, {what}")
    if broken:
        # Appendix 2: "在首先服从同分或近分者对弈的原则下" -- the score groups came first
        notes[:0] = [f"relaxed: {line} (score groups first, Appendix 2)" for line in broken]
    if bye is not None:
        pairings.append(Pairing(bye, None, len(pairings) + 1))
    return SwissResult(pairings, bye, broken, notes)
