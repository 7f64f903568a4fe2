"""The kernel's bounds (issue 12): the per-suit state bound (``kernel.state_bounds``) and what
each explored node can still add. Both only prune: the answers stay those of CP-SAT, and the
points objective's hard positions are proved in far fewer nodes."""

from __future__ import annotations

import numpy as np
import pytest

from solver import Position, kernel, kernel_backend, solve_position
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


# Found by bench.joker_games (carousel, a hoarded hand of 20 cards and a joker): 161,895 nodes
# with the bound of every hand card still to come, about 20,000 with the per-suit bound that
# splits the jokers left among the suits (``kernel.joker_state_bounds``).
HOARDED_CAROUSEL = Position.parse(
    "10S 10H 10C | 2S 2H 2D | AC 2C 3C | 2S 3S *4S 5S | 8H 9H 10H | JH JD JC | KS KD KC | "
    "5S 6S 7S 8S | 3H 4H 5H 6H | 6H 7H 8H | 5D 6D 7D 8D 9D | AC 2C 3C 4C 5C 6C 7C | "
    "9C 10C JC QC / 9D 3H 4S 8S 4D JH KD QS AS * 4S 10D 5D 2D KH QS 6S JS 7H AH QC / carousel")


def test_the_joker_state_bound_proves_a_hoarded_hand_in_fewer_nodes():
    answer = kernel_backend.solve(Problem.from_position(HOARDED_CAROUSEL))
    assert answer.optimal and answer.score == 18
    assert answer.stats["nodes"] < 40_000
    assert solve_position(HOARDED_CAROUSEL, "cards", "cpsat").score == 18


@pytest.mark.parametrize("variant", ["carousel", "vatican", "tahiti"])
def test_the_joker_state_bound_agrees_with_cpsat_on_big_hands(variant):
    """Big hands with jokers: most searches pass ``kernel.LAZY_BOUNDS`` nodes and so prune
    with the per-suit joker bound; every answer must still be CP-SAT's."""
    rng = np.random.default_rng(100 + len(variant))
    bounded = 0
    for i in range(70):
        ace = ("low", "high", "both")[i % 3]
        position = random_position(
            rng, f"{variant}:ace={ace}", int(rng.integers(20, 60)), int(rng.integers(10, 22)),
            singles=int(rng.integers(0, 3)), near=0.7, jokers=int(rng.integers(1, 5)),
            jokers_on_table=float(rng.uniform(0.2, 0.7)))
        objective = ("cards", "points")[i % 2]
        problem = Problem.from_position(position, objective)
        if not kernel_backend.applies(problem):
            continue
        answer = kernel_backend.solve(problem)
        assert answer.optimal
        bounded += answer.stats["nodes"] >= kernel.LAZY_BOUNDS
        assert answer.score == solve_position(position, objective, "cpsat").score, \
            (str(position), objective)
    assert bounded >= 15
