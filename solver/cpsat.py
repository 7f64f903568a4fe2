"""The OR-Tools CP-SAT model: the same question as the kernel, asked independently.

Variables (one line each, as in the CP-SAT samples):

- ``x[g]``: how many copies of candidate group ``g`` (a set, or a run of 3..5 cards) the new
  table holds; longer runs are unions of these, so 3..5 is enough.
- ``p[c]``: hand copies of card ``c`` played; ``f[c]``: original singles of ``c`` used.
- ``z[r]``: (vatican opening) the hand's 3-card run ``r`` is laid.

Balance per card: ``sum(x[g] for g holding c) == need[c] + p[c] + f[c]``. Objective: maximize
``sum(weight[c] * p[c])``. Parameters: one worker and ``linearization_level = 2`` by default
(the default linearization took seconds on positions that take milliseconds with 2).
"""

from __future__ import annotations

import time

import numpy as np
from ortools.sat.python import cp_model

from solver.cards import N_CARD_TYPES
from solver.groups import candidate_runs, candidate_sets
from solver.problem import POINTS, Partition, Problem, nothing_played


def candidate_groups(problem: Problem) -> list[tuple[int, ...]]:
    """Every set and run of 3..5 cards whose cards are all available (index tuples)."""
    avail = problem.need + problem.free + problem.hand
    groups = [group for rank in range(1, 14) for group in candidate_sets(rank)]
    groups += list(candidate_runs(problem.ace, 3, 5))
    return [group for group in groups if all(avail[c] > 0 for c in group)]


def split_run_lengths(length: int) -> list[int]:
    """Cut a run of ``length >= 3`` cards into pieces of 3..5 (3s first)."""
    pieces = []
    while length > 5:
        pieces.append(3)
        length -= 3
    return pieces + [length]


def build_model(problem: Problem, groups: list[tuple[int, ...]]):
    """A pure function of the problem: the model and its variables ``(model, x, p, f)``."""
    model = cp_model.CpModel()
    avail = problem.need + problem.free + problem.hand
    # x[g]: copies of candidate group g on the new table.
    x = [
        model.new_int_var(0, int(min(avail[c] for c in group)), f"x{gi}")
        for gi, group in enumerate(groups)
    ]
    # p[c]: hand copies of card c played; f[c]: original singles of c joining a group.
    p = [model.new_int_var(int(problem.forced[c]), int(problem.hand[c]), f"p{c}")
         for c in range(N_CARD_TYPES)]
    f = [model.new_int_var(0, int(problem.free[c]), f"f{c}") for c in range(N_CARD_TYPES)]
    holders: list[list[int]] = [[] for _ in range(N_CARD_TYPES)]
    for gi, group in enumerate(groups):
        for c in group:
            holders[c].append(gi)
    for c in range(N_CARD_TYPES):
        model.add(sum(x[gi] for gi in holders[c]) == int(problem.need[c]) + p[c] + f[c])
    if problem.min_points:
        model.add(sum(int(POINTS[c]) * p[c] for c in range(N_CARD_TYPES)) >= problem.min_points)
    if problem.run_from_hand:
        runs = problem.hand_runs()
        # z[r]: the hand's 3-card run r is among the played cards.
        z = [model.new_bool_var(f"z{ri}") for ri in range(len(runs))]
        model.add(sum(z) >= 1)
        for ri, run in enumerate(runs):
            for c in run:
                model.add(p[c] >= 1).only_enforce_if(z[ri])
    model.maximize(sum(int(problem.weight[c]) * p[c] for c in range(N_CARD_TYPES)))
    return model, x, p, f


def table_hint(problem: Problem, groups: list[tuple[int, ...]]) -> list[int] | None:
    """Counts of candidate groups that rebuild the table as it lies (play nothing), or None."""
    index = {group: gi for gi, group in enumerate(groups)}
    counts = [0] * len(groups)
    for group in problem.table_groups:
        ranks = {c % 13 for c in group}
        if len(ranks) == 1:
            pieces = [tuple(sorted(group))]
        else:
            pieces, at = [], 0
            for length in split_run_lengths(len(group)):
                pieces.append(tuple(group[at: at + length]))
                at += length
        for piece in pieces:
            gi = index.get(piece)
            if gi is None:
                return None
            counts[gi] += 1
    return counts


def solve(problem: Problem, time_limit: float | None = None, workers: int = 1) -> Partition:
    """Exact answer from CP-SAT; with ``time_limit`` the best found so far (``optimal`` False)."""
    started = time.perf_counter()
    groups = candidate_groups(problem)
    model, x, p, f = build_model(problem, groups)
    if not problem.hand_only and not problem.run_from_hand:
        hint = table_hint(problem, groups)
        if hint is not None:
            for var, value in zip(x, hint, strict=True):
                model.add_hint(var, value)
            for c in range(N_CARD_TYPES):
                model.add_hint(p[c], 0)
                model.add_hint(f[c], 0)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.linearization_level = 2
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    status = solver.solve(model)
    stats = {"model_ms": (time.perf_counter() - started) * 1000, "candidates": float(len(groups))}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen: list[tuple[int, ...]] = []
        for gi, var in enumerate(x):
            chosen.extend([groups[gi]] * solver.value(var))
        played = np.array([solver.value(var) for var in p], dtype=np.int64)
        score = int(round(solver.objective_value))
        return Partition.from_groups(chosen, played, score, status == cp_model.OPTIMAL, **stats)
    if status == cp_model.INFEASIBLE and (problem.hand_only or problem.run_from_hand):
        return nothing_played(problem, optimal=True)  # no opening play exists
    if status == cp_model.INFEASIBLE:
        raise ValueError("the table cannot be split into valid groups")
    return nothing_played(problem, optimal=False)  # out of time before any solution
