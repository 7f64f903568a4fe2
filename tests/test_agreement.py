"""Kernel, CP-SAT and brute force agree on the optimal value (a sample of bench/agree.py)."""

import numpy as np
import pytest

from solver import Position, solve_position
from solver.generate import random_position
from solver.reference import best_value
from solver.validate import play_problems


def small_positions(count, seed):
    rng = np.random.default_rng(seed)
    for i in range(count):
        ace = ("low", "high", "both")[i % 3]
        name = "tahiti" if i % 4 == 0 else "machiavelli"
        yield random_position(rng, f"{name}:ace={ace}", int(rng.integers(0, 13)),
                              int(rng.integers(1, 7)), singles=int(rng.integers(0, 3)), near=0.8)


@pytest.mark.parametrize("objective", ["cards", "points"])
def test_small_positions_three_way(objective):
    checked = 0
    for position in small_positions(120, seed=7 if objective == "cards" else 8):
        kernel = solve_position(position, objective, "kernel")
        cpsat = solve_position(position, objective, "cpsat")
        brute = best_value(position, objective)
        assert kernel.score == cpsat.score == brute, str(position)
        for answer in (kernel, cpsat):
            assert answer.optimal
            assert play_problems(position, answer.played, answer.table) == []
        checked += brute > 0
    assert checked > 40  # the sample must contain real plays, not only empty ones


def test_positions_of_all_sizes_kernel_vs_cpsat():
    rng = np.random.default_rng(11)
    for i in range(90):
        ace = ("low", "high", "both")[i % 3]
        table = (10, 30, 60, 90)[i % 4]
        position = random_position(rng, f"machiavelli:ace={ace}", table, int(rng.integers(5, 21)))
        kernel = solve_position(position, "cards", "kernel")
        cpsat = solve_position(position, "cards", "cpsat")
        assert kernel.score == cpsat.score, str(position)
        assert kernel.optimal and cpsat.optimal


def test_openings_three_way():
    rng = np.random.default_rng(5)
    found = 0
    for i in range(60):
        variant = ("machiavelli:opening=36", "vatican")[i % 2]
        start = random_position(rng, variant, int(rng.integers(0, 10)), int(rng.integers(5, 10)),
                                near=0.95)
        position = Position(start.table, start.hand, start.variant, opened=False)
        kernel = solve_position(position, "cards", "kernel").score
        cpsat = solve_position(position, "cards", "cpsat").score
        assert kernel == cpsat == best_value(position), str(position)
        found += kernel > 0
    assert found >= 3
