"""Competitions (比赛): entries, pairings, results, scoring and standings.

This layer knows nothing of the rules of play.  Main entry points:

* :class:`Tournament` (individual round robin or 积分编排制) and
  :class:`TeamTournament`; :class:`GroupStage`; :class:`Knockout`;
* :func:`berger_table`, :func:`pair_swiss_round`, :func:`card_draw`,
  :func:`pair_mcmahon_round` (Go);
* :class:`ScoringTable` and its presets, :class:`Criterion` tie-breaks;
* :class:`Series` for two-game, best-of-three and 2021-league matches.

Names are imported on first use (PEP 562), so that ``import qisai.competition``
and the command line do not load the pairing solvers (scipy, networkx) until a
round is paired.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from qisai.competition.errors import (
        CompetitionError,
        EntryError,
        EventFileError,
        EventStateError,
        LineupError,
        PairingError,
        ResultError,
    )
    from qisai.competition.groups import GroupStage, snake_groups
    from qisai.competition.model import Colour, Game, Outcome, Pairing, Result
    from qisai.competition.pairing.berger import berger_round, berger_table, double_round_robin
    from qisai.competition.pairing.knockout import Knockout, bracket_order, card_draw
    from qisai.competition.pairing.mcmahon import initial_scores, pair_mcmahon_round
    from qisai.competition.pairing.swiss import SwissPlayer, pair_swiss_round
    from qisai.competition.pairing.swiss_options import SwissOptions
    from qisai.competition.scoring import CLASSIC, CXA_2011, TEAM_MATCH, TRIAL_2007, ScoringTable
    from qisai.competition.series import Series, SeriesFormat
    from qisai.competition.teams import LineupMode, Team, TeamTournament, legal_lineups
    from qisai.competition.tiebreaks import ByePolicy, Criterion, Standing, TiebreakPolicy, rank
    from qisai.competition.tournament import Player, RoundRecord, System, Tournament

_LAZY = {
    "ByePolicy": "qisai.competition.tiebreaks",
    "CLASSIC": "qisai.competition.scoring",
    "CXA_2011": "qisai.competition.scoring",
    "Colour": "qisai.competition.model",
    "CompetitionError": "qisai.competition.errors",
    "Criterion": "qisai.competition.tiebreaks",
    "EntryError": "qisai.competition.errors",
    "EventFileError": "qisai.competition.errors",
    "EventStateError": "qisai.competition.errors",
    "Game": "qisai.competition.model",
    "GroupStage": "qisai.competition.groups",
    "Knockout": "qisai.competition.pairing.knockout",
    "LineupError": "qisai.competition.errors",
    "LineupMode": "qisai.competition.teams",
    "Outcome": "qisai.competition.model",
    "Pairing": "qisai.competition.model",
    "PairingError": "qisai.competition.errors",
    "Player": "qisai.competition.tournament",
    "Result": "qisai.competition.model",
    "ResultError": "qisai.competition.errors",
    "RoundRecord": "qisai.competition.tournament",
    "ScoringTable": "qisai.competition.scoring",
    "Series": "qisai.competition.series",
    "SeriesFormat": "qisai.competition.series",
    "Standing": "qisai.competition.tiebreaks",
    "SwissOptions": "qisai.competition.pairing.swiss_options",
    "SwissPlayer": "qisai.competition.pairing.swiss",
    "System": "qisai.competition.tournament",
    "TEAM_MATCH": "qisai.competition.scoring",
    "TRIAL_2007": "qisai.competition.scoring",
    "Team": "qisai.competition.teams",
    "TeamTournament": "qisai.competition.teams",
    "TiebreakPolicy": "qisai.competition.tiebreaks",
    "Tournament": "qisai.competition.tournament",
    "berger_round": "qisai.competition.pairing.berger",
    "berger_table": "qisai.competition.pairing.berger",
    "bracket_order": "qisai.competition.pairing.knockout",
    "card_draw": "qisai.competition.pairing.knockout",
    "double_round_robin": "qisai.competition.pairing.berger",
    "initial_scores": "qisai.competition.pairing.mcmahon",
    "legal_lineups": "qisai.competition.teams",
    "pair_mcmahon_round": "qisai.competition.pairing.mcmahon",
    "pair_swiss_round": "qisai.competition.pairing.swiss",
    "rank": "qisai.competition.tiebreaks",
    "snake_groups": "qisai.competition.groups",
}


def __getattr__(name: str) -> Any:
    """Import ``name`` from its module on first use. Raises AttributeError."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'qisai.competition' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "CLASSIC", "CXA_2011", "TEAM_MATCH", "TRIAL_2007",
    "ByePolicy", "Colour", "CompetitionError", "Criterion", "EntryError", "EventFileError",
    "EventStateError", "Game", "GroupStage", "Knockout", "LineupError", "LineupMode",
    "Outcome", "Pairing", "PairingError", "Player", "Result", "ResultError", "RoundRecord",
    "ScoringTable", "Series", "SeriesFormat", "Standing", "SwissOptions", "SwissPlayer",
    "System", "Team", "TeamTournament", "TiebreakPolicy", "Tournament",
    "berger_round", "berger_table", "bracket_order", "card_draw", "double_round_robin",
    "initial_scores", "legal_lineups", "pair_mcmahon_round", "pair_swiss_round", "rank",
    "snake_groups",
]
