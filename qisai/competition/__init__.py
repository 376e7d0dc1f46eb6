"""Competitions (比赛): entries, pairings, results, scoring and standings.

This layer knows nothing of the rules of play.  Main entry points:

* :class:`Tournament` (individual round robin or 积分编排制) and
  :class:`TeamTournament`; :class:`GroupStage`; :class:`Knockout`;
* :func:`berger_table`, :func:`pair_swiss_round`, :func:`card_draw`,
  :func:`pair_mcmahon_round` (Go);
* :class:`ScoringTable` and its presets, :class:`Criterion` tie-breaks;
* :class:`Series` for two-game, best-of-three and 2021-league matches.
"""

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
from qisai.competition.pairing.swiss import SwissOptions, SwissPlayer, pair_swiss_round
from qisai.competition.scoring import CLASSIC, CXA_2011, TEAM_MATCH, TRIAL_2007, ScoringTable
from qisai.competition.series import Series, SeriesFormat
from qisai.competition.teams import LineupMode, Team, TeamTournament, legal_lineups
from qisai.competition.tiebreaks import ByePolicy, Criterion, Standing, TiebreakPolicy, rank
from qisai.competition.tournament import Player, RoundRecord, System, Tournament

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
