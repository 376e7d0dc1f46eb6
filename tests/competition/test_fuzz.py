"""Bad input never crashes: every malformed file gives qisai's own error."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.competition.errors import CompetitionError
from qisai.competition.tournament import Tournament
from qisai.competition.trf import parse_trf

from ._sim import make_event, play_round

_LINE = ("001    1      Test0001 Player0001               2720                             "
         "1.0    1     3 w 1")


@settings(max_examples=150, deadline=None)
@given(cut=st.integers(0, len(_LINE)), junk=st.text(max_size=12), pos=st.integers(0, 120))
def test_trf_reader_never_crashes(cut: int, junk: str, pos: int) -> None:
    line = _LINE[:cut]
    line = line[:pos] + junk + line[pos:]
    text = f"012 fuzz\n{line}\n001    2      B{'':32}2000{'':29}0.0    2     1 b 0\n"
    try:
        t = parse_trf(text)
        t.games()
        t.swiss_players(1)
    except CompetitionError:
        pass


def _event_dict() -> dict:  # type: ignore[type-arg]
    t = make_event(5, "swiss", 3, 1)
    rng = random.Random(1)
    play_round(t, rng)
    play_round(t, rng)
    return t.to_dict()


_GOOD = _event_dict()


def _paths(obj, prefix=()):  # type: ignore[no-untyped-def]
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))


_ALL = list(_paths(_GOOD))


@settings(max_examples=200, deadline=None)
@given(idx=st.integers(0, len(_ALL) - 1),
       value=st.one_of(st.none(), st.integers(-3, 99), st.text(max_size=5), st.booleans(),
                       st.lists(st.integers(0, 9), max_size=3), st.just({})))
def test_event_loader_never_crashes(idx: int, value: object) -> None:
    data = json.loads(json.dumps(_GOOD))
    path = _ALL[idx]
    node = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    try:
        t = Tournament.from_dict(data)
        t.standings()
        if not t.finished:
            t.pair_next_round()
    except CompetitionError:
        pass
