"""Solves and hints from many threads at once give the answers they give one by one.

The search kernels release the GIL (``solver.kernel``'s docstring), so threads really do run
them side by side: the web server's games, a user's thread pool. A kernel that wrote to an
array another call also uses (a shared table, a scratch buffer kept between calls) would
make answers differ here, where with the GIL held each call ran alone."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from solver import hint, solve
from solver.generate import random_position

VARIANTS = (("machiavelli", 0), ("carousel", 2), ("vatican", 2), ("tahiti", 2), ("bga", 2))
THREADS = 4


def _positions(count: int) -> list:
    positions = []
    for i in range(count):
        variant, jokers = VARIANTS[i % len(VARIANTS)]
        positions.append(random_position(1000 + i, variant, table_cards=30 + i % 20,
                                         hand_cards=8 + i % 8, jokers=jokers))
    return positions


def _solved(position) -> tuple:
    """One solve from card texts, as a user calls it: its play, table and score."""
    table = [[str(card) for card in group] for group in position.table]
    hand = [str(card) for card in position.hand]
    solution = solve(table, hand, variant=position.variant)
    return solution.played, solution.table, solution.score, solution.optimal


def _hinted(position) -> tuple:
    given = hint(position)
    return given.solution.table, given.changed_groups, given.picked_up


@pytest.mark.parametrize("call", [_solved, _hinted], ids=["solve", "hint"])
def test_threads_side_by_side_give_the_answers_of_one_by_one(call):
    positions = _positions(30)
    alone = [call(position) for position in positions]
    order = list(range(len(positions))) * 3
    random.Random(7).shuffle(order)
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        together = list(pool.map(lambda i: (i, call(positions[i])), order))
    for i, answer in together:
        assert answer == alone[i], positions[i]
