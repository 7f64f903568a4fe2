"""The ace step of tahiti's flagged automaton, expanded with its options sorted by jokers
(``kernel._expand_by_jokers``): the same moves, in the same order, as going through every
combination of the options as ``kernel._suit_options`` lists them, which this test does
apart with numpy."""

from __future__ import annotations

import numpy as np

from solver import kernel, kernel_backend, kernel_jokers
from solver.constants import N_SUITS
from solver.problem import Problem
from tests.test_joker_agreement import two_or_three_joker_tahiti
from tests.test_kernel_cut import branch_tables


def _listed_options(tables, wild: int) -> list[list[np.ndarray]]:
    """Each suit's options at the ace step per number of set cards, as listed."""
    ex = kernel._expansion(tables)
    tables.q_of[:] = 0
    for s in range(N_SUITS):
        kernel._suit_options(ex, 0, s, wild)
    return [[tables.opts[s, k, : tables.n_opt[s, k]].copy()
             for k in range(tables.n_opt.shape[1])] for s in range(N_SUITS)]


def _summed(picked: list[np.ndarray], field: int, shift: int = 0) -> np.ndarray:
    """A field of the suits' options over every combination (``picked``: each suit's
    options on its own axis), summed, suit ``s``'s shifted by ``s * shift`` bits."""
    shape = np.broadcast_shapes(*(p.shape[:-1] for p in picked))
    return sum(np.broadcast_to(p[..., field], shape) << (shift * s)
               for s, p in enumerate(picked))


def _every_combination(tables, cfg, wild: int) -> np.ndarray:
    """The ace step's moves by brute force: every live set vector in ``kvecs`` order, every
    combination of its suits' options (the first suit's slowest) within the jokers and with
    at most one joker per set, then a stable sort by rank, best first."""
    options = _listed_options(tables, wild)
    rows = []
    for kv in tables.kvecs:
        lists = [options[s][kv[s]] for s in range(N_SUITS)]
        if any(len(o) == 0 for o in lists):
            continue
        grid = np.ix_(*(np.arange(len(o)) for o in lists))
        picked = [lists[s][grid[s]] for s in range(N_SUITS)]  # broadcast: a-major order
        jokers = _summed(picked, kernel.OPT_JOKERS)
        keep = (jokers <= wild) & (_summed(picked, kernel.OPT_SET_JOKERS) <= kv.sum() // 3)
        key = kernel.BASE_KEY * jokers + _summed(picked, kernel.OPT_NEXT, kernel.KEY_BITS)
        code = _summed(picked, kernel.OPT_CODE, kernel.CODE_BITS)
        rows.append(np.stack([key[keep], _summed(picked, kernel.OPT_GAIN)[keep], code[keep],
                              _summed(picked, kernel.OPT_RANK)[keep]], axis=1))
    moves = np.concatenate(rows)
    return moves[np.argsort(-moves[:, kernel.MOVE_RANK], kind="stable")]


def test_the_flagged_ace_step_gives_every_combination_in_order():
    checked = 0
    for i, position in two_or_three_joker_tahiti(4242, 60):
        problem = Problem.from_position(position, ("cards", "points")[i % 2])
        for branch in kernel_jokers.inputs(problem):
            if branch.wild < 2 or not kernel_backend._flagged(problem, branch):
                continue
            _, cfg, _, tables = branch_tables(problem, branch, flagged=True)
            if cfg[kernel.ALL_TABLE_JOKERS]:  # table jokers' gain: not in this brute force
                continue
            moves, end = kernel._expand_into(0, 0, tables, np.empty((512, 4), np.int64), 0)
            expected = _every_combination(tables, cfg, branch.wild)
            assert np.array_equal(moves[:end], expected), str(position)
            checked += 1
        if checked >= 10:
            break
    assert checked >= 10
