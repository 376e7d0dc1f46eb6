"""The options of a 积分编排制 (Swiss) event (Appendix 2): the colour
limits, the rounds in which entries of one group are kept apart, and how
score groups and round 1 are paired.  The pairer is
:mod:`qisai.competition.pairing.swiss`."""

from __future__ import annotations

from dataclasses import dataclass

from qisai.competition.errors import PairingError

__all__ = ["SwissOptions"]


_CHOICES: dict[str, dict[str, str]] = {
    "segment_pairing": {"halves": "上下半区", "adjacent": "相邻"},
    "first_round": {"lot": "抽签", "fold": "按序"},
    "colour_rule": {"score_first": "分数优先", "hard": "硬性"},
}
"""The options that take one of a few words, each with its Chinese gloss."""

@dataclass(frozen=True, slots=True)
class SwissOptions:
    """Per-event parameters of 积分编排制.

    ``max_colour_diff``: largest allowed |Red - Black| after the round.
    ``max_streak``: longest allowed run of one colour.
    ``avoid_group_rounds``: in rounds 1..k entries of the same group (team,
    club or federation) are not paired (e.g. "前三轮同队不相遇").
    ``segment_pairing``: ``"halves"`` (upper half meets lower half) or
    ``"adjacent"`` (1-2, 3-4, ...).
    ``first_round``: ``"lot"`` (Appendix 2) or ``"fold"`` (1 meets n/2 + 1,
    colours alternating from the top, for reproducible test events).
    ``colour_rule``: ``"score_first"`` (Appendix 2's order: equal or near
    scores first, the colour limits a strong preference inside that) or
    ``"hard"`` (the limits beat the score groups).
    """

    max_colour_diff: int = 2
    max_streak: int = 2
    avoid_group_rounds: int = 0
    segment_pairing: str = "halves"
    first_round: str = "lot"
    colour_rule: str = "score_first"

    def __post_init__(self) -> None:
        for key in ("max_colour_diff", "max_streak", "avoid_group_rounds"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise PairingError(f"{key} 须为不小于 0 的整数，不是 {value!r}",
                                   f"{key} must be a whole number >= 0, not {value!r}")
        for key, choices in _CHOICES.items():
            value = getattr(self, key)
            if value not in choices:
                zh = "或".join(f"{c!r}（{gloss}）" for c, gloss in choices.items())
                en = " or ".join(repr(c) for c in choices)
                raise PairingError(f"{key} 须为 {zh}，不是 {value!r}",
                                   f"{key} must be {en}, not {value!r}")
        if self.max_colour_diff < 1 or self.max_streak < 1:
            raise PairingError("先后手限制至少为 1",
                               "colour limits must be at least 1")
