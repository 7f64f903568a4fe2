"""The kernel backend: encodes a ``Problem`` for the numba kernels and decodes their moves.

The numba functions live in ``solver.kernel`` and see arrays only; this module turns card
counts into per-step arrays, runs the search, and rebuilds the groups from the chosen moves.
Step ``t`` of the search is rank index ``t`` (0 the ace, 1..12 the ranks 2..K), so the card of
suit ``s`` at step ``t`` has index ``s * 13 + t``.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from solver import kernel
from solver.cards import N_CARD_TYPES
from solver.kernel import N_STEPS, N_SUITS, NO_SCORE
from solver.problem import POINTS, Partition, Problem, nothing_played, placeable

HIGH_ACE = 13  # rank position of a high ace inside a run (after the king, index 12)


def solve(problem: Problem, node_limit: int = 0) -> Partition:
    """Exact answer from the kernel for any joker-free problem.

    ``node_limit`` (0: none) caps the search; a capped answer is valid but maybe not optimal.
    """
    if problem.hand_only:
        return _solve_opening(problem)
    if problem.run_from_hand:
        best: Partition | None = None
        for run in problem.hand_runs():
            forced = np.zeros_like(problem.hand)
            forced[list(run)] = 1
            answer = _search(problem.with_forced(forced), node_limit)
            if answer is not None and (best is None or answer.score > best.score):
                best = answer
        return best if best is not None else nothing_played(problem, optimal=True)
    answer = _search(problem, node_limit)
    if answer is None:
        raise ValueError("the table cannot be split into valid groups")
    return answer


def step_arrays(problem: Problem) -> tuple[np.ndarray, ...]:
    """``lo, hi, base, hand, weight`` as (step, suit) arrays for ``kernel.search``."""
    ok = placeable(problem)
    hand = np.where(ok, problem.hand, 0)
    free = np.where(ok, problem.free, 0)

    def by_step(counts: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(counts.reshape(N_SUITS, N_STEPS).T, dtype=np.int64)

    lo = by_step(problem.need + problem.forced)
    hi = by_step(problem.need + free + hand)
    return lo, hi, by_step(problem.need), by_step(hand), by_step(problem.weight)


def _search(problem: Problem, node_limit: int) -> Partition | None:
    decks = problem.decks
    init, delta, accept = kernel.run_automaton(decks)
    gmax = 0 if problem.ace == "low" else decks
    r0_ok = problem.ace != "high"
    ref_k, ref_g = reference_moves(problem)
    best, moves, optimal, nodes = kernel.search(
        *step_arrays(problem), gmax, r0_ok, init, delta, accept, kernel.set_vectors(decks),
        ref_k, ref_g, node_limit,
    )
    if best == NO_SCORE:
        return None if optimal else nothing_played(problem, optimal=False)
    groups, used = decode(moves)
    played = np.minimum(np.maximum(used - problem.need, 0), problem.hand)
    return Partition(groups, played, int(best), optimal=bool(optimal), stats={"nodes": nodes})


def reference_moves(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """Set cards per (step, suit) and high aces per suit of the table as it lies."""
    ref_k = np.zeros((N_STEPS, N_SUITS), dtype=np.int64)
    ref_g = np.zeros(N_SUITS, dtype=np.int64)
    for group in problem.table_groups:
        ranks = {card % 13 for card in group}
        if len(ranks) == 1:
            for card in group:
                ref_k[card % 13, card // 13] += 1
        elif 0 in ranks and 1 not in ranks:  # an ace without a two: a high ace
            ref_g[group[0] // 13] += 1
    return ref_k, ref_g


def decode(moves: np.ndarray) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Rebuild groups from ``moves[step, suit] = (u, k, g)``.

    Returns the groups (card indices; runs low to high, a high ace last) and the copies used
    of each card.
    """
    groups: list[tuple[int, ...]] = []
    used = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for t in range(N_STEPS):
        for s in range(N_SUITS):
            used[s * 13 + t] += moves[t, s, 0]
        groups.extend(split_sets([int(moves[t, s, 1]) for s in range(N_SUITS)], t))
    for s in range(N_SUITS):
        u0, k0, g = (int(v) for v in moves[0, s])
        counts = [u0 - k0 - g] + [int(moves[t, s, 0] - moves[t, s, 1]) for t in range(1, N_STEPS)]
        runs = suit_runs(counts, g)
        if runs is None:
            raise kernel_error(s)
        groups.extend(tuple(s * 13 + rank % 13 for rank in run) for run in runs)
    return groups, used


def kernel_error(suit: int) -> RuntimeError:
    from solver.errors import SolverError

    return SolverError(f"kernel moves for suit {suit} do not split into runs")


def suit_runs(counts: list[int], high_aces: int) -> list[list[int]] | None:
    """Cut one suit's run cards into runs: ``counts[t]`` cards at rank index ``t`` (0 the ace),
    plus ``high_aces`` aces that must close runs through the king. None if impossible."""

    def place(t: int, open_runs: list[list[int]], done: list[list[int]]) -> list[list[int]] | None:
        if t == len(counts):
            short = [run for run in open_runs if len(run) < 3]
            if any(len(run) == 1 for run in short):
                return None
            complete = [run for run in open_runs if len(run) >= 3]
            if not len(short) <= high_aces <= len(short) + len(complete):
                return None
            takers = short + complete[: high_aces - len(short)]
            return done + [run + [HIGH_ACE] for run in takers] + complete[high_aces - len(short):]
        short = [run for run in open_runs if len(run) < 3]
        complete = [run for run in open_runs if len(run) >= 3]
        spare = counts[t] - len(short)
        if spare < 0:
            return None
        for extend in range(min(len(complete), spare), -1, -1):
            carried = [run + [t] for run in short + complete[:extend]]
            fresh = [[t] for _ in range(spare - extend)]
            result = place(t + 1, carried + fresh, done + complete[extend:])
            if result is not None:
                return result
        return None

    return place(0, [], [])


def split_sets(counts: list[int], rank: int) -> list[tuple[int, ...]]:
    """Deal ``counts[suit]`` copies of rank index ``rank`` into sets of 3-4 distinct suits."""
    n = kernel.sets_needed(tuple(counts))
    if n <= 0:
        return []
    sets: list[list[int]] = [[] for _ in range(n)]
    position = 0
    for suit in sorted(range(N_SUITS), key=lambda s: -counts[s]):
        for _ in range(counts[suit]):
            sets[position % n].append(suit * 13 + rank)
            position += 1
    return [tuple(sorted(group)) for group in sets]


def _hand_groups(problem: Problem) -> np.ndarray:
    """Every set and run (any length) the hand alone can form, as padded card-index rows."""
    have = problem.hand > 0
    rows: list[tuple[int, ...]] = []
    for rank in range(13):
        suits = [s for s in range(N_SUITS) if have[s * 13 + rank]]
        for size in (3, 4):
            rows.extend(tuple(s * 13 + rank for s in combo) for combo in combinations(suits, size))
    low = 0 if problem.ace != "high" else 1
    high = 13 if problem.ace != "low" else 12
    for suit in range(N_SUITS):
        for start in range(low, high + 1):
            run: list[int] = []
            for rank in range(start, min(start + 13, high + 1)):
                card = suit * 13 + rank % 13
                if not have[card]:
                    break
                run.append(card)
                if len(run) >= 3:
                    rows.append(tuple(run))
    table = np.full((len(rows), 13), -1, dtype=np.int64)
    for g, row in enumerate(rows):
        table[g, : len(row)] = row
    return table


def _solve_opening(problem: Problem) -> Partition:
    table = _hand_groups(problem)
    lengths = (table >= 0).sum(axis=1).astype(np.int64)
    best, chosen = kernel.pack_hand(problem.hand.copy(), problem.weight, POINTS,
                                    problem.min_points, table, lengths)
    if best == NO_SCORE or len(chosen) == 0:
        return nothing_played(problem, optimal=True)
    groups = [tuple(int(c) for c in table[g, : lengths[g]]) for g in chosen]
    played = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for group in groups:
        for card in group:
            played[card] += 1
    return Partition(groups, played, int(best), optimal=True)
