"""The kernel's bounds (issue 12): the per-suit state bound (``kernel.state_bounds``) and what
each explored node can still add. Both only prune: the answers stay those of CP-SAT, and the
points objective's hard positions are proved in far fewer nodes."""

from __future__ import annotations

import numpy as np
import pytest

from solver import Position, kernel_backend, solve_position
from solver.generate import random_position
from solver.problem import Problem

# Found by bench.compare --worst: 4,934 nodes for the points objective before the state bound
# (ten points of hand cards that no play can hold: slack to the end of the search).
HARD_POINTS = Position.parse(
    "AS AH AD AC | 4H 5H 6H 7H | 2S 3S 4S 5S 6S | 8H 9H 10H JH QH | 6C 7C 8C 9C 10C JC | "
    "JS JH JD JC | 7S 7H 7D 7C | 5S 5H 5D 5C | 7D 8D 9D 10D JD QD | 8H 9H 10H | AS AH AD AC | "
    "6S 6H 6D 6C | 2H 3H 4H | 2D 3D 4D / 9S 10S 10S 4C KH 8S JS KD 9D 5D 3D 4D 6D KD 2C 3H 9C "
    "/ machiavelli:ace=high")


def test_the_state_bound_proves_a_hard_points_position_at_once():
    problem = Problem.from_position(HARD_POINTS, "points")
    answer = kernel_backend.solve(problem)
    assert answer.optimal and answer.score == 112
    assert answer.stats["nodes"] < 200
    assert solve_position(HARD_POINTS, "points", "cpsat").score == 112


@pytest.mark.parametrize("ace", ["low", "high", "both"])
def test_kernel_and_cpsat_agree_on_both_objectives(ace):
    rng = np.random.default_rng({"low": 1, "high": 2, "both": 3}[ace])
    for _ in range(30):
        position = random_position(rng, f"machiavelli:ace={ace}", int(rng.integers(20, 70)),
                                   int(rng.integers(4, 16)), near=float(rng.uniform(0.3, 0.9)))
        for objective in ("cards", "points"):
            kernel = solve_position(position, objective, "kernel")
            assert kernel.optimal
            assert kernel.score == solve_position(position, objective, "cpsat").score, \
                (str(position), objective)
