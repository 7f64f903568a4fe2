"""Searches with four jokers free to move whose ace step has thousands of moves start in
windows below their upper bound (``kernel.search_with``, ``WIDE_ROOT``): each branch's answer
is the one the search gives without them (a search with a node limit takes none)."""

from __future__ import annotations

import numpy as np

from solver import automaton, kernel, kernel_backend, kernel_jokers
from solver.generate import random_position
from solver.problem import Problem

SEARCHED_ANYWAY = 10 ** 9  # a node limit no search here reaches: the search without windows


def test_windowed_wide_roots_answer_as_the_plain_search():
    rng = np.random.default_rng(60221)
    wide = 0
    for i in range(80):
        position = random_position(rng, "tahiti", int(rng.integers(20, 60)),
                                   int(rng.integers(8, 16)), near=0.8, jokers=4,
                                   jokers_on_table=float(rng.uniform(0.3, 1.0)))
        problem = Problem.from_position(position, ("cards", "points")[i % 2])
        for branch in kernel_jokers.inputs(problem):
            if branch.wild < 4:
                continue
            windowed = kernel_backend._search(problem, branch, 0)
            plain = kernel_backend._search(problem, branch, SEARCHED_ANYWAY)
            assert (windowed is None) == (plain is None), str(position)
            if windowed is not None:
                assert windowed.optimal and plain.optimal
                assert windowed.score == plain.score, str(position)
            wide += _root_moves(problem, branch) > kernel.WIDE_ROOT
    assert wide >= 5


def _root_moves(problem: Problem, branch) -> int:
    """How many moves the branch's ace step has, about (``kernel._move_count``)."""
    cell, cfg, init, delta, accept = kernel_backend._search_inputs(problem, branch,
                                                                   kernel.NO_SCORE)
    tables = kernel._search_tables(cell, cfg, init, delta, accept,
                                   automaton.set_vectors(int(cfg[kernel.COPIES])),
                                   np.zeros((0, 1), np.int64), np.zeros(0, np.int64),
                                   kernel.no_dominators())
    return int(kernel._move_count(tables, 0, 0))
