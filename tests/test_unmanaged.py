"""``solver.unmanaged``: views without reference counts see and change the very memory of
the array they are made from, whatever its shape and dtype, and the kernel that reads its
arrays through them stops and goes on (``kernel._descend``) without changing an answer."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from solver import kernel_backend
from solver.problem import Problem
from solver.unmanaged import unmanaged


@njit(cache=True)
def _view_round_trip(array, flat_index, value):
    """Write ``value`` at ``flat_index`` through a view; return the view's shape and sum."""
    view = unmanaged(array)
    view.reshape(-1)[flat_index] = value
    return view.shape, view.sum()


@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (2, 1, 3, 2)])
@pytest.mark.parametrize("dtype", [np.int64, np.bool_])
def test_a_view_reads_and_writes_its_arrays_memory(shape, dtype):
    array = np.zeros(shape, dtype=dtype)
    flat = array.size - 1
    value = True if dtype is np.bool_ else 41
    view_shape, total = _view_round_trip(array, flat, value)
    assert view_shape == shape
    assert array.reshape(-1)[flat] == value  # written through to the owner
    assert total == (1 if dtype is np.bool_ else 41)


def test_a_joker_search_that_grows_its_arrays_keeps_its_answer():
    """A 21-card carousel hand with two jokers: its search grows the transposition table and
    builds the suits' bounds mid-way (each a stop and a start of ``_descend``); its score and
    node count are those of the search on arrays it owns (18 cards; 3,863 nodes since
    ``_combine`` cuts with the jokers a move leaves, 3,864 since a dominating node's known
    future prunes too, 4,033 before)."""
    from solver import Position

    position = Position.parse(
        "10S 10H 10C | 2S 2H 2D | AC 2C 3C | 2S 3S *4S 5S | 8H 9H 10H | JH JD JC | KS KD KC | "
        "5S 6S 7S 8S | 3H 4H 5H 6H | 6H 7H 8H | 5D 6D 7D 8D 9D | AC 2C 3C 4C 5C 6C 7C | "
        "9C 10C JC QC / 9D 3H 4S 8S 4D JH KD QS AS * 4S 10D 5D 2D KH QS 6S JS 7H AH QC / "
        "carousel")
    answer = kernel_backend.solve(Problem.from_position(position))
    assert (answer.score, answer.optimal, answer.stats["nodes"]) == (18, True, 3863)
