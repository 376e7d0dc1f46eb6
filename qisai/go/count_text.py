"""The count of a Go position written out as the rule text does (issue
32.4): who owns each point, and the arithmetic of the result.

Area counting (数子法; the Go seed 003, 胜负判别 and its worked example):
Black's stones on the board plus the points Black surrounds (a point both
sides touch, 单官, counts half to each) are Black's count in stones (子).
The komi of 3¾ stones (贴 3¾ 子 = 7.5 points: one stone is two points) is
taken from it and the rest compared with the par (归本数), half the points
of the board: 180½ on 19x19.  The seed's example: Black 140 子 + 44 空 =
184 子; 184 − 3¾ = 180¼ < 180½, so White wins by ¼ 子.

Territory counting (数目法): each side's territory plus its prisoners in
points (目); Black gives the komi in points (6.5 目) and the two are
compared: 44 − 6.5 = 37.5 > 37, Black wins by ½ 目.

Pure functions of a :class:`qisai.go.scoring.Score`; no I/O.
"""

from __future__ import annotations

from fractions import Fraction

from qisai.go.coords import gtp_name
from qisai.go.rules import Color, Scoring
from qisai.go.scoring import Score

__all__ = ["arithmetic", "owners", "stones_text"]

_PARTS = {Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}


def stones_text(value: Fraction) -> str:
    """Return ``value`` as the rule text writes stones: ``184``, ``3¾``,
    ``180½``, ``¼``; other fractions as decimals (``2.125``)."""
    sign = "-" if value < 0 else ""
    value = abs(value)
    whole = int(value)
    part = value - whole
    if part == 0:
        return f"{sign}{whole}"
    if part in _PARTS:
        return f"{sign}{whole if whole else ''}{_PARTS[part]}"
    return f"{sign}{float(value):g}"


def _points(value: Fraction) -> str:
    """Points as decimals: ``6.5``, ``37``."""
    return f"{float(value):g}"


def owners(count: Score) -> dict[str, list[str]]:
    """Return who owns each point of the count by GTP name: ``black`` and
    ``white`` (the empty points each surrounds and the dead stones it
    captures: area or territory per the rules), ``dame`` (points nobody
    owns, 单官), ``dead`` (stones both sides agreed are dead, 4(5)),
    ``seki`` (stones alive in seki, whose points count for nobody under
    territory counting) and ``fill`` (points an owner must still fill,
    territory rules that deduct them)."""
    def names(points: frozenset[tuple[int, int]]) -> list[str]:
        return sorted(gtp_name(p, count.size) for p in points)

    return {"black": names(count.black_territory), "white": names(count.white_territory),
            "dame": names(count.shared), "dead": names(count.dead),
            "seki": names(count.seki), "fill": names(count.fill)}


def _verdict(diff: Fraction, count: Score, unit_zh: str, unit_en: str,
             shown: str) -> tuple[str, str]:
    if diff == 0:
        if count.tie_winner is Color.BLACK:
            return "同点黑胜", "equal: Black wins a tie"
        if count.tie_winner is Color.WHITE:
            return "同点白胜", "equal: White wins a tie"
        return "和棋", "a draw"
    who_zh, who_en = ("黑胜", "Black wins") if diff > 0 else ("白胜", "White wins")
    return f"{who_zh} {shown}{unit_zh}", f"{who_en} by {shown} {unit_en}"


def arithmetic(count: Score) -> list[dict[str, str]]:
    """Return the count's arithmetic line by line, each ``{"zh", "en"}``,
    as the rule text writes it (see the module): each side's count, the
    komi taken from Black's, the comparison and the result."""
    lines: list[dict[str, str]] = []
    if count.scoring is Scoring.AREA:
        half = Fraction(len(count.shared), 2)
        for zh, en, st, terr, total in (
                ("黑方", "Black", count.black_stones, count.black_territory, count.black_count),
                ("白方", "White", count.white_stones, count.white_territory, count.white_count)):
            extra_zh = f" + 单官 {stones_text(half)}" if half else ""
            extra_en = f" + {stones_text(half)} shared" if half else ""
            lines.append({"zh": f"{zh} {st} 子 + {len(terr)} 空{extra_zh} = {stones_text(total)} 子",
                          "en": f"{en}: {st} stones + {len(terr)} points{extra_en} = "
                                f"{stones_text(total)} stones"})
        komi, giveback = count.komi / 2, count.giveback / 2
        after = count.black_count - komi - giveback
        back_zh = f"，还让子 {stones_text(giveback)} 子" if giveback else ""
        back_en = f", handicap give-back {stones_text(giveback)}" if giveback else ""
        lines.append({"zh": f"贴 {stones_text(komi)} 子{back_zh}：{stones_text(count.black_count)} − "
                            f"{stones_text(komi + giveback)} = {stones_text(after)} 子",
                      "en": f"komi {stones_text(komi)} stones{back_en}: "
                            f"{stones_text(count.black_count)} − {stones_text(komi + giveback)} = "
                            f"{stones_text(after)}"})
        par = count.par
        diff = after - par  # = margin / 2
        sign = ">" if diff > 0 else "<" if diff < 0 else "="
        verdict = _verdict(diff, count, " 子", "stones", stones_text(abs(diff)))
        lines.append({"zh": f"归本数 {stones_text(par)} 子（{count.size * count.size} 点的一半）："
                            f"{stones_text(after)} {sign} {stones_text(par)}，{verdict[0]}",
                      "en": f"par {stones_text(par)} (half of {count.size * count.size} points): "
                            f"{stones_text(after)} {sign} {stones_text(par)}, {verdict[1]}"})
        return lines
    for zh, en, terr, prisoners, total in (
            ("黑方", "Black", count.black_territory, count.black_prisoners, count.black_count),
            ("白方", "White", count.white_territory, count.white_prisoners, count.white_count)):
        lines.append({"zh": f"{zh} {len(terr)} 目 + 提子 {prisoners} = {_points(total)} 目",
                      "en": f"{en}: {len(terr)} points of territory + {prisoners} prisoners = "
                            f"{_points(total)} points"})
    after = count.black_count - count.komi
    lines.append({"zh": f"贴 {_points(count.komi)} 目：{_points(count.black_count)} − "
                        f"{_points(count.komi)} = {_points(after)} 目",
                  "en": f"komi {_points(count.komi)} points: {_points(count.black_count)} − "
                        f"{_points(count.komi)} = {_points(after)}"})
    diff = count.margin
    sign = ">" if diff > 0 else "<" if diff < 0 else "="
    verdict = _verdict(diff, count, " 目", "points", _points(abs(diff)))
    lines.append({"zh": f"{_points(after)} {sign} {_points(count.white_count)}（白方），{verdict[0]}",
                  "en": f"{_points(after)} {sign} {_points(count.white_count)} (White), {verdict[1]}"})
    return lines
