"""The desk's commands shared by ``qisai tournament`` and ``qisai event``:
a correction after a later round is paired (issue 33.3) and the standings
written as a sheet for Excel (.xlsx, or CSV with a BOM; issue 33.5)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer

from qisai.cli import say

if TYPE_CHECKING:
    from qisai.competition.events.file import EventFile
    from qisai.competition.tournament import Tournament

__all__ = ["correct", "write_standings"]

T = TypeVar("T")


def _run(fn: Callable[[], T]) -> T:
    from qisai.competition.errors import CompetitionError

    try:
        return fn()
    except CompetitionError as exc:
        raise say.refused(exc) from None


def correct(t: Tournament, round_no: int, board: int, res: str, reason: str,
            repair: bool | None, save: Callable[[], None], red_fouls: int = 0,
            black_fouls: int = 0) -> None:
    """Correct board ``board`` of round ``round_no`` after a later round is
    paired: ask for the reason when not given (a terminal; else exit 2
    saying so), log it, warn of every later board the correction affects,
    then re-pair the next round's unplayed boards if ``repair`` (asked on a
    terminal when None); ``save`` writes the event's file."""
    import sys

    from qisai.competition import output
    from qisai.competition.corrections import correct_result, repair_unplayed

    if not reason.strip():
        if not sys.stdin.isatty():
            raise say.fail(f"第 {t.current_round} 轮已编排：更正第 {round_no} 轮须写明理由（--reason）",
                           f"round {t.current_round} is paired: a correction of round "
                           f"{round_no} needs a reason (--reason)")
        reason = typer.prompt("reason for the correction (logged)")
    done = _run(lambda: correct_result(t, round_no, board, res, reason, red_fouls=red_fouls,
                                       black_fouls=black_fouls))
    save()
    typer.echo(f"round {round_no} board {board}: {done.old} -> {done.new} corrected "
               f"(reason: {done.reason}; logged in round {round_no}'s record)")
    for a in done.affected:
        say.warning(a.describe_zh(), a.describe())
    nxt = t.rounds[-1]
    unplayed = [p for p in nxt.pairings if not p.is_bye and p.board not in nxt.results]
    touched = [a for a in done.affected if a.round == nxt.number and not a.played]
    if not unplayed or t.system.value != "swiss" or (not touched and not repair):
        return
    if repair is None:
        if sys.stdin.isatty():
            repair = typer.confirm(f"re-pair the {len(unplayed)} unplayed board(s) of round "
                                   f"{nxt.number}?", default=False)
        else:
            say.note(f"第 {nxt.number} 轮未赛的 {len(unplayed)} 台是按原积分编排的：用 --repair 重新编排",
                     f"round {nxt.number}'s {len(unplayed)} unplayed board(s) were paired on "
                     "the old scores: re-pair them with --repair")
            return
    if not repair:
        return
    number, _ = _run(lambda: repair_unplayed(t, done.reason))
    save()
    typer.echo(f"round {number}: unplayed boards re-paired")
    typer.echo(output.pairings_text(t, number), nl=False)


def write_standings(ef: EventFile, out: Path) -> None:
    """Write the standings of ``ef`` (a group event: every group's table
    too) to ``out`` (.xlsx or .csv with a BOM) and say so."""
    from qisai.competition.events.export import write_tables
    from qisai.competition.events.group_event import GroupEvent
    from qisai.competition.events.views import group_tables, standings_table

    tables = _run(lambda: ([*group_tables(ef)] if isinstance(ef.event, GroupEvent)
                           and ef.started else []) + [standings_table(ef)])
    _run(lambda: write_tables(tables, out))
    typer.echo(f"{out}: {', '.join(t.title for t in tables)}")
