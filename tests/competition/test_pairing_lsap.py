"""The pairer's linear-sum assignment, loaded without ``scipy.optimize``
(:mod:`qisai.competition.pairing.lsap`, issue 29), is scipy's: the same
assignments as ``scipy.optimize.linear_sum_assignment`` on square and
rectangular costs, with ties (many equal optima, where another solver
could choose another) and with the large forbidding costs the pairer
uses."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment as public

from qisai.competition.pairing.lsap import linear_sum_assignment, load_extension


def test_the_extension_loads_alone() -> None:
    code = ("import sys; from qisai.competition.pairing.lsap import load_extension; "
            "fn = load_extension(); assert fn is not None; "
            "assert 'scipy.optimize' not in sys.modules, 'scipy.optimize was imported'")
    subprocess.run([sys.executable, "-c", code], check=True)
    assert load_extension() is not None


@pytest.mark.parametrize("seed", range(12))
def test_same_assignments_as_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    fn = linear_sum_assignment()
    rows, cols = int(rng.integers(1, 40)), int(rng.integers(1, 40))
    for cost in (rng.random((rows, cols)),
                 rng.integers(0, 3, (rows, cols)).astype(float),  # ties everywhere
                 np.where(rng.random((rows, rows)) < 0.2, 10.0 ** 12,
                          rng.integers(0, 5, (rows, rows)).astype(float))):
        for maximize in (False, True):
            mine, theirs = fn(cost, maximize=maximize), public(cost, maximize=maximize)
            assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])
