"""The kernel backend: encodes a ``Problem`` for the numba kernels and decodes their moves.

The numba functions live in ``solver.kernel`` and see arrays only; this module turns card
counts into per-step arrays, runs the search, and rebuilds the groups from the chosen moves.
Step ``t`` of the search is rank index ``t`` (0 the ace, 1..12 the ranks 2..K), so the card of
suit ``s`` at step ``t`` has index ``s * 13 + t``.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from solver import automaton, kernel, opening
from solver.cards import N_CARD_TYPES
from solver.constants import ACE_CODES, MAX_COPIES, MAX_RUN, N_RANKS, N_SUITS, NO_SCORE, ROW_WIDTH
from solver.errors import SolverError
from solver.problem import POINTS, Partition, Problem, nothing_played, read_only
from solver.warmup import load_opening


def why_not(problem: Problem) -> str:
    """Why the kernel does not apply to ``problem`` ('' when it does).

    The kernel treats jokers as wildcards that name the card whose slot they fill. That is
    exact for jokers free to take any name (from the hand, or on a carousel table with the
    real card's support counted per name), not for vatican jokers that must stay beside a
    neighbour or tahiti's locked groups and one-joker-per-group rule.
    """
    jokers = problem.table_jokers + problem.hand_jokers
    if problem.stuck:
        return "vatican jokers that must stay beside their neighbours"
    if problem.locked:
        return "tahiti's locked groups"
    if problem.joker_rule == "tahiti" and jokers > 1:
        return "tahiti allows one joker per group"
    if problem.table_jokers and not (problem.weight == 1).all():
        return "the points objective with jokers already on the table"
    fixed = np.maximum(problem.joker_names - problem.table_real - problem.hand, 0)
    real = int((np.minimum(problem.need + problem.free + problem.hand, problem.decks)
                + fixed).max(initial=0))
    if real + jokers - int(fixed.sum()) > MAX_COPIES:
        return f"more than {MAX_COPIES} copies of a card with jokers"
    return ""


def applies(problem: Problem) -> bool:
    """True when the kernel answers ``problem`` exactly."""
    return not why_not(problem)


def solve(problem: Problem, node_limit: int = 0) -> Partition:
    """Exact answer from the kernel for any joker-free problem.

    ``node_limit`` (0: none) caps the search; a capped answer is valid but maybe not optimal.
    """
    if problem.hand_only:
        return _solve_opening(problem)
    if problem.run_from_hand:
        best: Partition | None = None
        runs = problem.hand_runs()
        # one search per run the opening may hold: they share the budget
        share = max(1, node_limit // max(len(runs), 1)) if node_limit else 0
        for run in runs:
            forced = np.zeros_like(problem.hand)
            forced[list(run)] = 1
            answer = _search(problem.with_forced(forced), share)
            if answer is not None and (best is None or answer.score > best.score):
                best = answer
        return best if best is not None else nothing_played(problem, optimal=True)
    answer = _search(problem, node_limit)
    if answer is None:
        raise ValueError("the table cannot be split into valid groups")
    return answer


def search(problem: Problem, node_limit: int = 0) -> Partition | None:
    """The kernel's answer for a joker-free problem as it stands (forced cards included), or
    None when no partition exists: the forced cards cannot all be placed."""
    return _search(problem, node_limit)


NO_GROUPS = (read_only(np.zeros((0, ROW_WIDTH), dtype=np.int64)),
             read_only(np.zeros(0, dtype=np.int64)))


def _search(problem: Problem, node_limit: int) -> Partition | None:
    # A table joker can take a new name only with a real card of its name on the new table;
    # with none available (not on the table, not in the hand) it is a fixed copy of its card.
    fixed = np.maximum(problem.joker_names - problem.table_real - problem.hand, 0)
    deficit = np.maximum(problem.joker_names - problem.table_real - fixed, 0)
    mandatory = problem.table_jokers - int(fixed.sum())
    wild = mandatory + problem.hand_jokers
    # Copies of one card in play: the most of any card available, plus the wildcards.
    real = int((np.minimum(problem.need + problem.free + problem.hand, problem.decks)
                + fixed).max(initial=0))
    copies = max(1, real + wild)
    init, delta, accept = automaton.run_automaton(copies)
    if problem.table_array is not None:
        ref_groups, ref_len = problem.table_array
    else:
        ref_groups, ref_len = NO_GROUPS
    cell = kernel.cell_arrays(problem.need + fixed, problem.free, problem.hand, problem.weight,
                              problem.forced, problem.weight, deficit, ACE_CODES[problem.ace],
                              wild)
    cfg = np.array([
        0 if problem.ace == "low" else copies,  # GMAX
        int(problem.ace != "high"),  # R0_OK
        copies, wild, mandatory, int(problem.weight.max()),
    ], dtype=np.int64)
    best, optimal, nodes, groups, lengths, played, jokers = kernel.search_and_decode(
        cell, cfg, init, delta, accept, automaton.set_vectors(copies), ref_groups, ref_len,
        node_limit, automaton.suit_states(copies), problem.need, problem.hand, fixed,
    )
    if best == NO_SCORE:
        return None if optimal else nothing_played(problem, optimal=False)
    if len(lengths) and lengths[0] < 0:
        raise SolverError("kernel moves do not split into runs")
    return Partition(groups, lengths, played, int(best), bool(optimal), {"nodes": nodes},
                     int(jokers) - problem.table_jokers)


def _hand_groups(problem: Problem) -> np.ndarray:
    """Every set and run (any length) the hand alone can form, as padded card-index rows."""
    have = problem.hand > 0
    rows: list[tuple[int, ...]] = []
    for rank in range(N_RANKS):
        suits = [s for s in range(N_SUITS) if have[s * N_RANKS + rank]]
        for size in (3, 4):
            rows.extend(tuple(s * N_RANKS + rank for s in combo)
                        for combo in combinations(suits, size))
    low = 0 if problem.ace != "high" else 1
    high = N_RANKS if problem.ace != "low" else N_RANKS - 1
    for suit in range(N_SUITS):
        for start in range(low, high + 1):
            run: list[int] = []
            for rank in range(start, min(start + MAX_RUN, high + 1)):
                card = suit * N_RANKS + rank % N_RANKS
                if not have[card]:
                    break
                run.append(card)
                if len(run) >= 3:
                    rows.append(tuple(run))
    table = np.full((len(rows), MAX_RUN), -1, dtype=np.int64)
    for g, row in enumerate(rows):
        table[g, : len(row)] = row
    return table


def _solve_opening(problem: Problem) -> Partition:
    load_opening()  # its own kernel, loaded when first needed (set-up, not solve time)
    table = _hand_groups(problem)
    lengths = (table >= 0).sum(axis=1).astype(np.int64)
    best, chosen = opening.pack_hand(problem.hand.copy(), problem.weight, POINTS,
                                    problem.min_points, table, lengths)
    if best == NO_SCORE or len(chosen) == 0:
        return nothing_played(problem, optimal=True)
    groups = [tuple(int(c) for c in table[g, : lengths[g]]) for g in chosen]
    played = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for group in groups:
        for card in group:
            played[card] += 1
    return Partition.from_groups(groups, played, int(best), optimal=True)
