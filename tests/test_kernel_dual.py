"""The Lagrangian bound of searches with jokers (``kernel.dual_bounds``, docs/performance.md
§3, session 30): prices on each suit's set cards per step and on the jokers, tuned at the
root, bound every node. Bounds only prune, so every answer stays exact (checked here with
the bound built at a search's first node, where the kernel builds it only after
``kernel.DUAL_LAZY`` nodes); on the slowest carousel hand of seed 2718's games the search
that builds it expands about a quarter of the nodes it did."""

from __future__ import annotations

import numpy as np
import pytest

from bench.agree import random_joker_case
from solver import Position, kernel, kernel_backend, kernel_jokers, solve_position
from solver.automaton import set_vectors
from solver.constants import NO_SCORE
from solver.problem import Problem

# bench.joker_games --seed 2718: best 19 of 21 hand cards; the per-suit bounds allow 21, and
# the search took 6,279 nodes (12.5 ms) to prove 20 out of reach and find the 19
SEED_2718_CAROUSEL = Position.parse(
    "10S 10H 10D | 2S 2D 2C | 4S 4D 4C | 9S 9H 9D | 3H 4H 5H 6H 7H | AS AH AC | 2S 2H 2D | "
    "3S 3H 3D | 4S 4H 4C | 6H 6D 6C | 8S 8D 8C | 5S 6S 7S | 7H 8H 9H 10H JH QH KH | "
    "3D 4D 5D 6D 7D | 7D 8D 9D 10D JD QD / 8C 3S 9C 5C 10S QH 9C 5C AD KS JC * 7S JD 3C 5H "
    "AS 2H 5D KS QS / carousel")
NO_GROUPS = (np.zeros((0, 1), dtype=np.int64), np.zeros(0, dtype=np.int64))


def branch_tables(problem: Problem, branch: kernel_jokers.KernelInput):
    """A plain joker branch's search tables, its ``accept`` and its ``cell``."""
    cell, cfg, init, delta, accept = kernel_backend._search_inputs(problem, branch, NO_SCORE)
    tables = kernel._search_tables(cell, cfg, init, delta, accept,
                                   set_vectors(int(cfg[kernel.COPIES])), *NO_GROUPS,
                                   kernel.no_dominators())
    return tables, accept, cell


def test_sets_take_the_fewest_jokers():
    fewest = kernel._dual_set_jokers
    assert fewest(np.array([0, 0, 0, 0])) == 0
    assert fewest(np.array([1, 1, 1, 0])) == 0
    assert fewest(np.array([1, 1, 0, 0])) == 1
    assert fewest(np.array([2, 1, 1, 0])) == 2  # two sets of two cards
    assert fewest(np.array([2, 2, 2, 0])) == 0
    assert fewest(np.array([3, 0, 0, 0])) == 6


def test_the_slow_carousel_hand_is_solved_in_a_fraction_of_the_nodes():
    answer = kernel_backend.solve(Problem.from_position(SEED_2718_CAROUSEL))
    assert answer.optimal and answer.score == 19
    assert answer.stats["nodes"] < 2_000  # 6,279 without the bound
    assert solve_position(SEED_2718_CAROUSEL, backend="cpsat").score == 19


def test_the_bound_at_the_root_is_below_the_suits_own():
    problem = Problem.from_position(SEED_2718_CAROUSEL)
    tables, accept, cell = branch_tables(problem, kernel_jokers.inputs(problem)[0])
    gains = kernel._gain_bounds(cell)
    suits = kernel._suit_state_bounds(tables, accept, tables.cfg[kernel.WILD])
    dual = kernel.dual_bounds(tables, accept, NO_SCORE)
    assert kernel._root_bound(tables, gains, kernel.NO_PAIRS, suits) == 21
    assert kernel._root_bound(tables, gains, dual, suits) == 19
    # told that a 19 is found, the steps stop as soon as the root shows nothing beats it
    proved = kernel.dual_bounds(tables, accept, 19)
    assert kernel._root_bound(tables, gains, proved, suits) == 19


@pytest.mark.parametrize("seed", range(4))
def test_a_search_with_the_bound_from_its_first_node_finds_the_same_answers(seed):
    rng = np.random.default_rng(3_000 + seed)
    checked = 0
    while checked < 25:
        position, _ = random_joker_case(rng, small=False)
        problem = Problem.from_position(position)
        if problem.hand_only or problem.run_from_hand:
            continue
        for branch in kernel_jokers.inputs(problem):
            tables, accept, cell = branch_tables(problem, branch)
            if tables.cfg[kernel.WILD] == 0 or tables.cfg[kernel.FLAGGED]:
                continue
            gains = kernel._gain_bounds(cell)
            upper = gains[0] + (tables.cfg[kernel.WILD] - tables.cfg[kernel.TABLE_JOKERS]) * \
                tables.cfg[kernel.JOKER_WEIGHT_MAX]
            plain = kernel._branch_and_bound(tables, accept, gains, upper, 0, NO_SCORE,
                                             kernel.NO_PAIRS, kernel._new_table(), 0,
                                             kernel._none_built())
            dual = kernel.dual_bounds(tables, accept, NO_SCORE)
            bounded = kernel._branch_and_bound(tables, accept, gains, upper, 0, NO_SCORE,
                                               dual, kernel._new_table(), 0,
                                               kernel._none_built())
            assert plain[2] and bounded[2], position  # both searches complete
            assert bounded[0] == plain[0], position
            suits = kernel._suit_state_bounds(tables, accept, tables.cfg[kernel.WILD])
            if plain[0] > NO_SCORE:
                assert kernel._root_bound(tables, gains, dual, suits) >= plain[0], position
            checked += 1
