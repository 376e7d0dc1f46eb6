"""Time-control families (bullet, blitz, rapid, classical, untimed): the
groups a leaderboard is kept by.

A family is decided by the time one side may spend on the first 40 moves
(the estimate lichess and most arenas use): the main time those moves get
(with the stages of 6.1-6.4 added as they come due), plus 40 increments
(the 2007 trial's 30 s a move) and the overtime (Go §3 读秒 reserve,
Japanese periods, one Canadian period).  The rule book calls 6.3 and 6.4
"适用于快棋赛" (for rapid events): both come out as ``rapid``.

A family is a property of a time control alone, so it lives beside the
clock in the referee (as lichess keeps its ``Speed`` beside the clock);
the arena's leaderboards, lobby buttons and stored games read it from
here, and the family of stored settings is
:func:`qisai.web.play.referee_games.family_of_settings`.
"""

from __future__ import annotations

from qisai.referee.clock import ByoyomiKind, SideTimeControl, TimeControl

__all__ = ["FAMILIES", "family_of", "side_seconds"]

FAMILIES: dict[str, tuple[str, str]] = {
    "bullet": ("子弹棋（3分钟内）", "Bullet (under 3 min)"),
    "blitz": ("超快棋（10分钟内）", "Blitz (under 10 min)"),
    "rapid": ("快棋（30分钟内）", "Rapid (under 30 min)"),
    "classical": ("慢棋", "Classical"),
    "untimed": ("不计时", "Untimed"),
}
"""The families, fastest first, with their names in Chinese and English."""

MOVES = 40
"""Moves of one side the estimate counts."""


def side_seconds(control: SideTimeControl) -> float:
    """Return the seconds one side may use for its first :data:`MOVES` moves."""
    total, done = 0.0, 0
    stages = list(control.stages)
    i = 0
    while done < MOVES and i < len(stages):
        stage = stages[i]
        total += stage.seconds
        if stage.moves is None:
            break
        done += stage.moves
        if i == len(stages) - 1 and control.repeat_last:
            continue  # the last stage comes again (6.1-6.4)
        i += 1
    total += MOVES * control.increment
    b = control.byoyomi
    if b is not None:
        if b.kind is ByoyomiKind.CANADIAN:
            total += b.period_seconds
        else:
            total += b.periods * b.period_seconds
    return total


def family_of(control: TimeControl | None) -> str:
    """Return the family of ``control`` (the slower side decides, for the
    2007 time odds); ``untimed`` for no clock."""
    if control is None:
        return "untimed"
    seconds = max(side_seconds(control.first), side_seconds(control.second))
    if seconds < 180:
        return "bullet"
    if seconds < 600:
        return "blitz"
    if seconds < 1800:
        return "rapid"
    return "classical"
