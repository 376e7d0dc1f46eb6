"""Pairings by hand: the arbiter swaps two entries, re-pairs a round, or
fixes boards before the pairer pairs the rest; every change is checked
against the rules and logged with its reason in the round's explanation.

What is checked, and the clause it cites:

* everyone still in plays once, nobody withdrawn is paired, one bye at most
  for an odd field -- always refused;
* a rematch ("相遇过的对手不再编对", Appendix 2; 11.2: a round robin meets
  each opponent once a cycle) -- refused unless forced;
* Swiss colour limits (13.3 and Appendix 2 "尽量平衡每个人先后走的次数", the
  event's |Red-Black| and run limits) -- a warning;
* Swiss score groups (Appendix 2 "同分者编对 ... 以近分者编对"): a warning
  when the boards cross score boundaries more than the best rematch-free
  pairing would (compared top boundary first), naming the boards;
* a second bye, same-group opponents in the avoided rounds -- warnings;
* a round robin's board that differs from the Berger table (13.1, Appendix 1)
  -- a warning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from qisai.competition.errors import EventStateError, PairingError
from qisai.competition.model import Colour, Pairing
from qisai.competition.tournament import RoundRecord, System, Tournament

REMATCH = "rematch"
ERROR = "error"
WARNING = "warning"


_SEVERITY_ZH = {ERROR: "错误", REMATCH: "重复对阵", WARNING: "提醒"}


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a manual pairing breaks: its severity (``error``: always
    refused; ``rematch``: refused unless forced; ``warning``), the clause,
    and what is wrong."""

    severity: str
    clause: str
    message: str
    """What is wrong, in English."""
    zh: str = ""
    """What is wrong, in Chinese (issue 32.8)."""

    def __str__(self) -> str:
        return f"{self.severity}: [{self.clause}] {self.message}"

    def text_zh(self) -> str:
        """Return the finding in Chinese: ``错误：[条款] 说明``."""
        return f"{_SEVERITY_ZH.get(self.severity, self.severity)}：[{self.clause}] " \
               f"{self.zh or self.message}"


class ManualPairingError(PairingError):
    """A manual pairing was refused; :attr:`findings` says why."""

    def __init__(self, findings: Sequence[Finding]) -> None:
        self.findings = list(findings)
        self.problems = [str(f) for f in self.findings]
        super().__init__("人工编排被拒绝：" + "；".join(f.text_zh() for f in self.findings),
                         "manual pairing refused: " + "; ".join(self.problems))


def parse_boards(text: str) -> list[Pairing]:
    """Parse ``"1-5, 2-6, 7"`` (Red first; a lone number is the bye) into
    boards numbered in order.  Raises :class:`PairingError` naming the item."""
    out: list[Pairing] = []
    for k, item in enumerate((x.strip() for x in re.split(r"[,;\n]", text)), start=1):
        if not item:
            continue
        m = re.fullmatch(r"(\d+)\s*(?:[-:vV]\s*(\d+))?", item)
        if m is None:
            raise PairingError(f"第 {k} 项对阵 {item!r}：写作 红-黑，轮空只写一个号码",
                               f"board item {k} {item!r}: write RED-BLACK, or one number "
                               "for the bye")
        black = int(m.group(2)) if m.group(2) else None
        out.append(Pairing(int(m.group(1)), black, len(out) + 1))
    if not out:
        raise PairingError("没有给出对阵",
                           "no boards given")
    return out


def _crossings(pairs: Sequence[tuple[int, int]], score: dict[int, float],
               levels: list[float]) -> list[int]:
    v = [0] * len(levels)
    for a, b in pairs:
        lo, hi = sorted((levels.index(score[a]), levels.index(score[b])))
        for k in range(lo, hi):
            v[k] += 1
    return v


def _best_crossings(ids: list[int], score: dict[int, float], met: set[frozenset[int]],
                    levels: list[float]) -> list[int] | None:
    """The best crossing vector (top boundary first) of a rematch-free
    pairing of ``ids``: a maximum-weight matching with lexicographic weights."""
    import networkx as nx

    base = len(ids) // 2 + 2
    weight = [base ** (len(levels) - 1 - k) for k in range(len(levels))]
    top = sum(weight) + 1
    g = nx.Graph()
    g.add_nodes_from(ids)
    for x, a in enumerate(ids):
        for b in ids[x + 1:]:
            if frozenset((a, b)) not in met:
                lo, hi = sorted((levels.index(score[a]), levels.index(score[b])))
                g.add_edge(a, b, weight=top - sum(weight[lo:hi]))
    m = nx.max_weight_matching(g, maxcardinality=True)
    if 2 * len(m) != len(ids):
        return None
    return _crossings(list(m), score, levels)


def check_round(t: Tournament, round_no: int, boards: Sequence[Pairing],
                partial: bool = False) -> list[Finding]:
    """Check ``boards`` as round ``round_no`` of ``t`` (the results of the
    rounds before it count); ``partial``: only some boards of the round
    (fixed before pairing), so nobody is missing yet.  Returns the findings,
    most serious first."""
    out: list[Finding] = []
    active = {p.id for p in t.active(round_no)}
    known = {p.id for p in t.players}
    seen: dict[int, int] = {}
    byes = [p for p in boards if p.is_bye]
    for p in boards:
        for pid in p.players():
            if pid not in known:
                out.append(Finding(ERROR, "entries", f"board {p.board}: no entry {pid}",
                                   zh=f"第 {p.board} 台：没有参赛者 {pid}"))
            elif pid not in active:
                out.append(Finding(ERROR, "20.3/20.4", f"board {p.board}: {pid} has withdrawn",
                                   zh=f"第 {p.board} 台：{pid} 已退赛"))
            if pid in seen:
                out.append(Finding(ERROR, "entries", f"board {p.board}: {pid} is also on "
                                                     f"board {seen[pid]}",
                                   zh=f"第 {p.board} 台：{pid} 也在第 {seen[pid]} 台"))
            seen[pid] = p.board
        if p.black is not None and p.red == p.black:
            out.append(Finding(ERROR, "entries", f"board {p.board}: {p.red} against itself",
                               zh=f"第 {p.board} 台：{p.red} 与自己对阵"))
    missing = sorted(active - set(seen))
    if missing and not partial:
        out.append(Finding(ERROR, "entries", f"not paired: {', '.join(map(str, missing))}",
                           zh=f"未编排：{', '.join(map(str, missing))}"))
    if len(byes) > (len(active) % 2 if not partial else 1):
        out.append(Finding(ERROR, "轮空", f"{len(byes)} byes for {len(active)} entries",
                           zh=f"{len(active)} 名参赛者有 {len(byes)} 个轮空"))
    if any(f.severity == ERROR for f in out):
        return out
    games = [g for rec in t.rounds[:round_no - 1] for g in rec.results.values()]
    met = {frozenset((g.red, g.black)) for g in games if g.black is not None}
    for p in boards:
        if p.black is not None and frozenset((p.red, p.black)) in met:
            clause = ("附录二 相遇过的对手不再编对" if t.system is System.SWISS
                      else "11.2 (each pair meets once a cycle)")
            if t.system is System.DOUBLE_ROUND_ROBIN:
                continue  # the second cycle meets everyone again
            out.append(Finding(REMATCH, clause, f"board {p.board}: {p.red} and {p.black} "
                                                "have met already",
                               zh=f"第 {p.board} 台：{p.red} 与 {p.black} 已相遇过"))
    if t.system is System.SWISS:
        out += _swiss_findings(t, round_no, boards, met, partial)
    else:
        from qisai.competition.pairing.berger import berger_table, double_round_robin

        table = (double_round_robin(len(t.players)) if t.system is System.DOUBLE_ROUND_ROBIN
                 else berger_table(len(t.players)))[round_no - 1]
        want = {(p.red, p.black) for p in table}
        for p in boards:
            if (p.red, p.black) not in want:
                out.append(Finding(WARNING, "13.1 附录一 表上每轮号码列前者执红棋",
                                   f"board {p.board}: {p.red}-{p.black} is not in the Berger "
                                   f"table of round {round_no}",
                                   zh=f"第 {p.board} 台：{p.red}-{p.black} 不在第 {round_no} 轮的贝格尔编排表中"))
    order = {ERROR: 0, REMATCH: 1, WARNING: 2}
    return sorted(out, key=lambda f: order[f.severity])


def _swiss_findings(t: Tournament, round_no: int, boards: Sequence[Pairing],
                    met: set[frozenset[int]], partial: bool) -> list[Finding]:
    out: list[Finding] = []
    states = {s.id: s for s in t.swiss_states(round_no)}
    o = t.swiss
    for p in boards:
        if p.is_bye:
            if states[p.red].byes:
                out.append(Finding(WARNING, "轮空", f"{p.red} has had a bye already",
                                   zh=f"{p.red} 已轮空过"))
            continue
        assert p.black is not None
        for pid, colour in ((p.red, Colour.RED), (p.black, Colour.BLACK)):
            s = states[pid]
            diff = s.colour_diff + (1 if colour is Colour.RED else -1)
            last, run = s.streak()
            run = run + 1 if last is colour else 1
            name = "Red" if colour is Colour.RED else "Black"
            if abs(diff) > o.max_colour_diff:
                out.append(Finding(WARNING, "13.3 附录二 平衡先后走",
                                   f"board {p.board}: {pid} takes {name}: |Red - Black| "
                                   f"becomes {abs(diff)} > {o.max_colour_diff}",
                                   zh=f"第 {p.board} 台：{pid} 执{'红' if colour is Colour.RED else '黑'}：红黑次数之差成为 {abs(diff)} > {o.max_colour_diff}"))
            if run > o.max_streak:
                out.append(Finding(WARNING, "13.3 附录二 平衡先后走",
                                   f"board {p.board}: {pid} takes {name} {run} times in a "
                                   f"row > {o.max_streak}",
                                   zh=f"第 {p.board} 台：{pid} 连续第 {run} 次执{'红' if colour is Colour.RED else '黑'}，超过 {o.max_streak}"))
        a, b = t.player(p.red), t.player(p.black)
        group_a = a.team or a.club or a.federation
        if round_no <= o.avoid_group_rounds and group_a and \
                group_a == (b.team or b.club or b.federation):
            out.append(Finding(WARNING, "同队回避", f"board {p.board}: {p.red} and {p.black} "
                                                f"are both of {group_a} (avoided in rounds "
                                                f"1-{o.avoid_group_rounds})",
                               zh=f"第 {p.board} 台：{p.red} 与 {p.black} 同属 {group_a}（第 1-{o.avoid_group_rounds} 轮回避）"))
    if partial:
        return out
    score = {i: s.score for i, s in states.items()}
    levels = sorted(set(score.values()), reverse=True)
    pairs = [(p.red, p.black) for p in boards if p.black is not None]
    bye = [p.red for p in boards if p.is_bye]
    ids = sorted(i for i in states if i not in bye)
    best = _best_crossings(ids, score, met, levels)
    ours = _crossings(pairs, score, levels)
    if best is not None and ours > best:
        across = [f"{p.board} ({p.red} {score[p.red]:g} - {p.black} {score[p.black]:g})"
                  for p in boards if p.black is not None and score[p.red] != score[p.black]]
        out.append(Finding(WARNING, "附录二 同分者编对，以近分者编对",
                           "the boards cross score groups more than needed; across scores: "
                           + ", ".join(across),
                           zh="对阵跨分组多于必要；跨分组的台：" + "，".join(across)))
    return out


def _apply(t: Tournament, round_no: int, boards: list[Pairing], action: str, reason: str,
           force: bool, partial: bool = False) -> list[Finding]:
    findings = check_round(t, round_no, boards, partial)
    refused = [f for f in findings if f.severity == ERROR
               or (f.severity == REMATCH and not force)]
    if refused:
        raise ManualPairingError(refused)
    return findings


def _log(rec: RoundRecord, action: str, reason: str, findings: Sequence[Finding]) -> None:
    rec.explanation.append(f"arbiter: {action}; reason: {reason or '(none given)'}")
    rec.explanation += [f"arbiter: {f}" for f in findings]


def _open_round(t: Tournament, round_no: int) -> RoundRecord:
    if not 1 <= round_no <= len(t.rounds):
        raise EventStateError(f"{t.name}：第 {round_no} 轮尚未编排",
                              f"{t.name}: round {round_no} has not been paired")
    if round_no != len(t.rounds):
        raise EventStateError(f"{t.name}：只能改最后一轮（第 {len(t.rounds)} 轮）",
                              f"{t.name}: only the last round ({len(t.rounds)}) can be "
                              "changed")
    return t.rounds[round_no - 1]


def set_round(t: Tournament, boards: Sequence[Pairing], reason: str, *,
              round_no: int | None = None, force: bool = False) -> list[Finding]:
    """Pair a round by hand: the next round, or (``round_no``) replace the
    last round while none of its boards has a result.

    Returns the warnings (logged in the round with the reason).  Raises
    :class:`ManualPairingError` for errors, or a rematch without ``force``;
    :class:`EventStateError` when the round cannot be set.
    """
    if round_no is None or round_no == len(t.rounds) + 1:
        number = len(t.rounds) + 1
        if not t.started or (t.rounds_planned is not None and number > t.rounds_planned):
            raise EventStateError(f"{t.name}：没有可编排的第 {number} 轮",
                                  f"{t.name}: no round {number} to pair")
        if t.rounds and not t.rounds[-1].complete:
            raise EventStateError(f"{t.name}：第 {len(t.rounds)} 轮尚缺成绩",
                                  f"{t.name}: round {len(t.rounds)} still lacks results")
        replacing = False
    else:
        rec = _open_round(t, round_no)
        number = round_no
        if any(b in rec.results and not rec.board(b).is_bye
               for b in (p.board for p in rec.pairings)):
            raise EventStateError(f"{t.name}：第 {round_no} 轮已有成绩，不能重新编排",
                                  f"{t.name}: round {round_no} has results; it cannot be "
                                  "re-paired")
        replacing = True
    numbered = [Pairing(p.red, p.black, k) for k, p in enumerate(boards, start=1)]
    findings = _apply(t, number, numbered, "manual pairing", reason, force)
    if replacing:
        t.rounds.pop()
    rec = t.install_round(number, numbered)
    _log(rec, "re-paired by hand" if replacing else "paired by hand", reason, findings)
    return findings


def swap(t: Tournament, round_no: int, a: int, b: int, reason: str, *,
         force: bool = False) -> list[Finding]:
    """Swap entries ``a`` and ``b`` in round ``round_no`` (the last round):
    each takes the other's place and colour; on one board they swap
    colours.  Boards with a result cannot change.

    Returns the warnings (logged with the reason).  Raises
    :class:`ManualPairingError` or :class:`EventStateError`.
    """
    rec = _open_round(t, round_no)
    where = {pid: p for p in rec.pairings for pid in p.players()}
    for x in (a, b):
        if x not in where:
            raise ManualPairingError([Finding(ERROR, "entries",
                                              f"{x} is not paired in round {round_no}",
                                              zh=f"{x} 在第 {round_no} 轮没有编排")])
        if where[x].board in rec.results and not where[x].is_bye:
            raise EventStateError(f"第 {round_no} 轮第 {where[x].board} 台已有成绩",
                                  f"round {round_no} board {where[x].board} has a result")

    def moved(x: int | None) -> int | None:
        return b if x == a else a if x == b else x

    boards = []
    for p in rec.pairings:
        red, black = moved(p.red), moved(p.black)
        assert red is not None
        if black is None:
            boards.append(Pairing(red, None, p.board))
        else:
            boards.append(Pairing(red, black, p.board))
    findings = _apply(t, round_no, boards, "swap", reason, force)
    t.rounds.pop()
    new = t.install_round(round_no, boards, rec.explanation)
    _log(new, f"swapped {a} and {b}", reason, findings)
    return findings


def pair_with_fixed(t: Tournament, fixed: Sequence[Pairing], reason: str, *,
                    force: bool = False) -> tuple[RoundRecord, list[Finding]]:
    """Fix ``fixed`` boards of the next round and let the pairer pair the
    rest (Swiss).  The fixed boards are checked first, the whole round after.

    Returns the round and the warnings.  Raises :class:`ManualPairingError`
    or the pairer's :class:`PairingError`.
    """
    number = len(t.rounds) + 1
    _apply(t, number, list(fixed), "fixed boards", reason, force, partial=True)
    rec = t.pair_around(fixed)
    findings = check_round(t, number, rec.pairings)
    findings = [f for f in findings if f.severity != REMATCH or force]
    _log(rec, "boards fixed by hand: " + ", ".join(
        f"{p.red}-{p.black}" if p.black is not None else f"{p.red} bye" for p in fixed),
        reason, findings)
    return rec, findings
