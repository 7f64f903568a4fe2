"""Moves left out at generation in the kernel's joker searches (issue 12 item 2): once the
per-suit state bounds are built, ``kernel._expand`` does not write the moves whose options'
bounds (``kernel._option_bounds``) show they cannot beat the best so far. It only prunes
what the search would prune: the moves it keeps are the others, in the same order, and the
answers stay CP-SAT's."""

from __future__ import annotations

import numpy as np
import pytest

from solver import automaton, kernel, kernel_backend, kernel_jokers, solve_position
from solver.constants import NO_SCORE
from solver.problem import Problem
from tests.test_joker_agreement import joker_positions


def _rows(moves: np.ndarray, end: int, at: int = 0) -> list[tuple[int, ...]]:
    return [tuple(int(v) for v in moves[i]) for i in range(at, end)]


def _is_subsequence(part: list, whole: list) -> bool:
    items = iter(whole)
    return all(any(row == other for other in items) for row in part)


def _what_a_move_adds(tables, ub_rest, bounds, t, row) -> int:
    """A move's gain plus its child's bound (``_node_bound`` with nothing to beat)."""
    split = np.zeros(bounds.shape[3], dtype=np.int64)
    child = row[kernel.MOVE_KEY]
    bound = kernel._node_bound(tables, ub_rest, bounds, kernel.NO_PAIRS, split, t + 1, child,
                               NO_SCORE)
    return row[kernel.MOVE_GAIN] + bound


def _nodes_to_check(tables, steps: int = 4) -> list[tuple[int, int]]:
    """Nodes of the first few steps along the best-ranked moves, and their siblings."""
    nodes, key = [], 0
    for t in range(steps):
        moves, end = kernel._expand_into(t, key, tables, np.empty((512, 4), np.int64), 0)
        if end == 0:
            break
        nodes.extend((t + 1, int(moves[i, kernel.MOVE_KEY])) for i in range(min(end, 3)))
        key = int(moves[0, kernel.MOVE_KEY])
    return [(t, k) for t, k in nodes if t < kernel.N_STEPS]


def branch_tables(problem: Problem, branch, flagged: bool = False):
    """A joker branch's ``(cell, cfg, accept, tables)`` as its search builds them (no table
    arrangement to order moves by, no dominating states; ``flagged``: tahiti's flagged
    automaton), for tests that expand its nodes."""
    cell, cfg, init, delta, accept = kernel_backend._search_inputs(problem, branch, NO_SCORE,
                                                                   flagged)
    tables = kernel._search_tables(cell, cfg, init, delta, accept,
                                   automaton.set_vectors(int(cfg[kernel.COPIES])),
                                   np.zeros((0, 1), np.int64), np.zeros(0, np.int64),
                                   kernel.no_dominators())
    return cell, cfg, accept, tables


def _check_branch(problem: Problem, branch) -> int:
    """At nodes of ``branch``'s search and several limits, the cut keeps every move that
    might beat the limit, in order; returns how many moves it left out."""
    cell, cfg, accept, tables = branch_tables(problem, branch)
    bounds = kernel._suit_state_bounds(tables, accept, int(cfg[kernel.WILD]))
    ub_rest = kernel._gain_bounds(cell)
    left_out = 0
    for t, key in _nodes_to_check(tables):
        every, end = kernel._expand_into(t, key, tables, np.empty((512, 4), np.int64), 0)
        rows = _rows(every, end)
        ahead = kernel._jokers_ahead(tables, t, key)
        adds = {row: _what_a_move_adds(tables, ub_rest, bounds, t, row) - ahead for row in rows}
        for limit in sorted({*adds.values()})[-4:]:
            kept, kept_end, most = kernel._expand_cut_into(
                t, key, tables, np.empty((512, 4), np.int64), 0, bounds, limit)
            kept_rows = _rows(kept, kept_end)
            assert _is_subsequence(kept_rows, rows)
            for row in set(rows) - set(kept_rows):
                assert adds[row] <= limit and adds[row] <= most, (t, row, limit)
            left_out += len(rows) - len(kept_rows)
    return left_out


@pytest.mark.parametrize("variant", ["carousel", "vatican", "tahiti"])
def test_a_move_left_out_could_not_beat_the_limit(variant):
    """``_expand_cut_into`` against ``_expand_into`` at nodes of random joker searches: the
    moves kept are the others in order, and each move left out adds (gain plus its child's
    bound, less the node's jokers ahead) at most the limit and at most ``most``."""
    left_out = 0
    for i, position in enumerate(joker_positions(variant, 40, 900 + len(variant),
                                                 table=(20, 60), hand=(8, 22))):
        problem = Problem.from_position(position, ("cards", "points")[i % 2])
        if not kernel_backend.applies(problem):
            continue
        for branch in kernel_jokers.inputs(problem)[:2]:
            if branch.wild:
                left_out += _check_branch(problem, branch)
    assert left_out >= 100  # the cut does leave moves out


def long_searches_agreeing(positions, also=None) -> int:
    """Each applicable position's kernel score (objective cards, then points, in turn) is
    CP-SAT's, and ``also(problem, answer)`` holds; returns how many searches ran past
    ``LAZY_BOUNDS`` nodes (those cut moves and look for dominating nodes)."""
    long_searches = 0
    for i, position in enumerate(positions):
        objective = ("cards", "points")[i % 2]
        problem = Problem.from_position(position, objective)
        if not kernel_backend.applies(problem):
            continue
        answer = kernel_backend.solve(problem)
        assert answer.optimal
        assert also is None or also(problem, answer), (str(position), objective)
        assert answer.score == solve_position(position, objective, "cpsat").score, \
            (str(position), objective)
        long_searches += answer.stats["nodes"] >= kernel.LAZY_BOUNDS
    return long_searches


@pytest.mark.parametrize("variant", ["carousel", "vatican", "tahiti"])
def test_searches_that_cut_moves_agree_with_cpsat(variant):
    """Big hands with jokers: the kernel's score is CP-SAT's on 100 random positions per
    variant, many of them searches long enough to cut moves."""
    positions = joker_positions(variant, 100, 1700 + len(variant), table=(20, 60),
                                hand=(8, 22))
    assert long_searches_agreeing(positions) >= 15
