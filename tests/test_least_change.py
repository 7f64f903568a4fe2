"""The kernel's least-disturbing best play (solver.least_change) against CP-SAT's."""

from __future__ import annotations

import importlib
from dataclasses import replace

import numpy as np
import pytest

from solver import Limit, Position, kernel_backend
from solver.errors import InvalidArgumentError, UnsupportedPositionError
from solver.generate import random_position
from solver.hint import changed_groups, hint, hint_position
from solver.least_change import _Neighbours, _Oracle
from solver.problem import Problem
from solver.tidy import pad

hint_module = importlib.import_module("solver.hint")

# (variant, jokers, singles): every ace mode, singles, and jokers in the hand
CASES = [("machiavelli", 0, 0), ("machiavelli:ace=high", 0, 0), ("machiavelli:ace=both", 0, 0),
         ("tahiti", 1, 4), ("carousel", 2, 0), ("vatican", 2, 0), ("carousel:ace=both", 1, 0)]


def disturbance(position: Position, table) -> tuple[int, int]:
    """What a hint minimizes: the table's groups (not its singles) that do not lie unchanged
    on ``table``, and their cards."""
    changed, picked_up = changed_groups([g for g in position.table if len(g) > 1], table)
    return len(changed), picked_up


def positions(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for i in range(count):
        variant, jokers, singles = CASES[i % len(CASES)]
        opened = variant != "vatican" or rng.random() < 0.7
        position = random_position(rng, variant, int(rng.integers(6, 40)),
                                   int(rng.integers(2, 9)), singles=singles, near=0.8,
                                   jokers=jokers, jokers_on_table=0.0)
        if not opened:
            position = Position.make(position.table, position.hand, position.variant,
                                     opened=False)
        yield position, ("cards", "points")[i % 2]


@pytest.mark.parametrize("seed", range(4))
def test_kernel_hint_matches_cpsat(seed):
    by_kernel = 0
    for position, objective in positions(seed, 80):
        mine = hint_position(position, objective, backend="kernel")
        theirs = hint_position(position, objective, backend="cpsat")
        assert mine.solution.score == theirs.solution.score, position
        assert mine.solution.optimal
        assert (disturbance(position, mine.solution.table)
                == disturbance(position, theirs.solution.table)), (position, objective)
        if mine.solution.played:
            by_kernel += mine.solution.backend == "kernel"
            assert mine.steps
    assert by_kernel >= 30


def test_auto_uses_the_kernel_where_it_applies_and_cpsat_beyond(monkeypatch):
    """The kernel where the lexicographic search's keys fit or on small tables; CP-SAT on
    a bigger table where neither holds."""
    small = hint("5C 6C 7C 8C | 8S 8D 8H", "8D 8H 9C")
    assert small.solution.backend == "kernel" and small.changed_groups == [1]
    rng = np.random.default_rng(5)
    big = random_position(rng, "machiavelli", 60, 6)
    assert hint_position(big).solution.backend == "kernel"
    monkeypatch.setattr(hint_module, "KERNEL_GROUPS", len(big.table) - 1)
    assert hint_position(big).solution.backend == "kernel"
    monkeypatch.setattr(hint_module.lex_hint, "KEY_BITS", 0)
    result = hint_position(big)
    assert result.solution.played and result.solution.backend == "cpsat"


def test_auto_hands_over_to_cpsat_at_the_work_cap(monkeypatch):
    """The kernel's search stopped at ``LEX_WORK``: CP-SAT answers, the same."""
    rng = np.random.default_rng(5)
    big = random_position(rng, "machiavelli", 60, 6)
    mine = hint_position(big)
    monkeypatch.setattr(hint_module, "LEX_WORK", 1)
    theirs = hint_position(big)
    assert mine.solution.backend == "kernel" and theirs.solution.backend == "cpsat"
    assert disturbance(big, mine.solution.table) == disturbance(big, theirs.solution.table)
    monkeypatch.setattr(hint_module, "LEX_WORK", 400)  # a capped search's play warm-starts
    warmed = hint_position(big)
    assert disturbance(big, warmed.solution.table) == disturbance(big, mine.solution.table)


def test_kernel_hint_refuses_table_jokers():
    position = Position.parse("5C *6C 7C | 8S 8D 8H / 8C / carousel")
    with pytest.raises(UnsupportedPositionError):
        hint_position(position, backend="kernel")
    assert hint_position(position).solution.score == hint_position(
        position, backend="cpsat").solution.score


def test_unknown_backend_is_refused():
    with pytest.raises(InvalidArgumentError):
        hint("5C 6C 7C 8C", "8D 8H", backend="fast")


def test_a_work_limit_keeps_the_best_value():
    rng = np.random.default_rng(11)
    position = random_position(rng, "machiavelli", 36, 8, near=0.8)
    full = hint_position(position, backend="kernel")
    capped = hint_position(position, backend="kernel", limit=Limit(work=1))
    assert capped.solution.score == full.solution.score
    assert len(capped.changed_groups) >= len(full.changed_groups)


def big_positions(seed: int, count: int):
    """Joker-free positions on tables of 40 to 75 cards (up to about 20 groups), where the
    kernel's search leans on the linking lemma (``_Neighbours.linked``)."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        variant = ("machiavelli", "machiavelli:ace=high", "machiavelli:ace=both")[i % 3]
        yield random_position(rng, variant, int(rng.integers(40, 76)), int(rng.integers(2, 9)),
                              near=0.8), ("cards", "points")[i % 2]


@pytest.mark.parametrize("seed", range(3))
def test_kernel_hint_matches_cpsat_on_big_tables(seed):
    for position, objective in big_positions(100 + seed, 40):
        mine = hint_position(position, objective, backend="kernel")
        theirs = hint_position(position, objective, backend="cpsat")
        assert mine.solution.score == theirs.solution.score, position
        assert (disturbance(position, mine.solution.table)
                == disturbance(position, theirs.solution.table)), (position, objective)


def _problem(text: str) -> tuple[Problem, list[tuple[int, ...]]]:
    problem = Problem.from_position(Position.parse(text))
    return problem, list(problem.table_groups)


def test_groups_not_linked_to_the_hand_are_left_out():
    problem, groups = _problem("5C 6C 7C | KH KS KD | 9C 10C JC / 8C / machiavelli")
    near = _Neighbours(problem, groups, problem.need)
    assert near.linked(0b111) == 0b101  # the kings touch neither the hand nor the clubs
    assert near.linked(0b110) == 0b100
    assert near.linked(0b010) == 0


@pytest.mark.parametrize("seed", range(2))
def test_a_freed_set_reaches_exactly_what_its_linked_part_reaches(seed):
    """The lemma itself, on the kernel's values: freeing groups that no chain of cards next
    to each other ties to the hand changes nothing."""
    rng = np.random.default_rng(200 + seed)
    checked = 0
    for position, objective in big_positions(300 + seed, 25):
        problem = Problem.from_position(position, objective)
        groups = list(problem.table_groups)
        near = _Neighbours(problem, groups, problem.need)
        for _ in range(20):
            freed = sum(1 << int(i) for i in np.flatnonzero(rng.random(len(groups)) < 0.2))
            linked = near.linked(freed)
            checked += linked != freed
            assert _value(problem, groups, freed) == _value(problem, groups, linked)
    assert checked >= 25


def _value(problem: Problem, groups: list[tuple[int, ...]], freed: int) -> int:
    """The kernel's best value when only the groups of ``freed`` may be taken up."""
    kept = [group for i, group in enumerate(groups) if not freed >> i & 1]
    need = problem.need.copy()
    for group in kept:
        np.subtract.at(need, list(group), 1)
    sub = replace(problem, need=need,
                  table_array=pad([g for i, g in enumerate(groups) if freed >> i & 1]))
    return kernel_backend.solve(sub).score


@pytest.mark.parametrize("seed", range(2))
def test_every_reaching_set_meets_the_hand_cores(seed):
    """A hand core names the groups one of which any play of the best value must free:
    freeing every other group falls short of the best."""
    checked = 0
    for position, objective in big_positions(400 + seed, 25):
        problem = Problem.from_position(position, objective)
        groups = list(problem.table_groups)
        best = kernel_backend.solve(problem).score
        oracle = _Oracle(problem, groups, best)
        everything = (1 << len(groups)) - 1
        for core in oracle.hand_cores.tolist():
            assert _value(problem, groups, everything & ~core) < best, (position, core)
            checked += 1
    assert checked >= 10


def test_kernel_hint_matches_cpsat_on_full_tables():
    """Tables of 85-100 cards (about 22-28 groups), where the numba search visits the most
    sets: the kernel's least change is CP-SAT's."""
    rng = np.random.default_rng(500)
    for i in range(12):
        variant = ("machiavelli", "machiavelli:ace=high", "machiavelli:ace=both")[i % 3]
        position = random_position(rng, variant, int(rng.integers(85, 101)),
                                   int(rng.integers(4, 12)))
        objective = ("cards", "points")[i % 2]
        mine = hint_position(position, objective, backend="kernel")
        theirs = hint_position(position, objective, backend="cpsat")
        assert mine.solution.score == theirs.solution.score, position
        assert (disturbance(position, mine.solution.table)
                == disturbance(position, theirs.solution.table)), (position, objective)
