"""The bookkeeping of the least-change search (``solver.least_change``), compiled with numba.

The search over which table groups a play frees (docs/rules.md §3) remembers every kernel
answer as a bit mask over the table's groups: the sets that reach the best value (each
superset reaches it too) and the sets that fall short (each subset falls short too). On a
full table it asks thousands of questions of those lists and only a few hundred of the
kernel, so the scans over them, not the kernel, took most of its time in Python. Here they
are loops over ``int64`` arrays: ``masks[:count]`` is a list, kept as an antichain (no
member inside another), grown by the caller when full (``add_*`` return -1 then).

Masks are ``int64``: tables of up to ``MAX_GROUPS`` groups.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.constants import N_CARD_TYPES, N_RANKS, N_SUITS
from solver.position_arrays import bin_count

MAX_GROUPS = 62
"""The most table groups a mask holds (bit 63 is the sign)."""
NO_BOUND = -1
"""``extra_cost``: some failing set has no group left to add, so no completion reaches."""


@njit(cache=True)
def covers_any(reaching: np.ndarray, count: int, freed: int) -> bool:
    """True when ``freed`` holds one of ``reaching[:count]`` (then it reaches too)."""
    for i in range(count):
        if freed & reaching[i] == reaching[i]:
            return True
    return False


@njit(cache=True)
def inside_any(failing: np.ndarray, count: int, freed: int) -> bool:
    """True when ``freed`` lies inside one of ``failing[:count]`` (then it fails too)."""
    for i in range(count):
        if freed & failing[i] == freed:
            return True
    return False


@njit(cache=True)
def add_failing(failing: np.ndarray, count: int, freed: int) -> int:
    """Add ``freed`` to the failing sets, dropping those inside it; the new count, or -1
    when the array is full (nothing changed)."""
    kept = 0
    for i in range(count):
        if failing[i] & freed != failing[i]:
            kept += 1
    if kept >= failing.shape[0]:
        return -1
    kept = 0
    for i in range(count):
        if failing[i] & freed != failing[i]:
            failing[kept] = failing[i]
            kept += 1
    failing[kept] = freed
    return kept + 1


@njit(cache=True)
def add_reaching(reaching: np.ndarray, count: int, changed: int) -> int:
    """Add ``changed`` to the reaching sets, dropping those that hold it; the new count, or
    -1 when the array is full (nothing changed)."""
    kept = 0
    for i in range(count):
        if reaching[i] & changed != changed:
            kept += 1
    if kept >= reaching.shape[0]:
        return -1
    kept = 0
    for i in range(count):
        if reaching[i] & changed != changed:
            reaching[kept] = reaching[i]
            kept += 1
    reaching[kept] = changed
    return kept + 1


@njit(cache=True)
def set_cost(mask: int, cost: np.ndarray) -> int:
    """The summed cost of the groups of ``mask``."""
    total = 0
    i = 0
    while mask:
        if mask & 1:
            total += cost[i]
        mask >>= 1
        i += 1
    return total


@njit(cache=True)
def cheapest_inside(reaching: np.ndarray, count: int, freed: int,
                    cost: np.ndarray) -> tuple[int, int]:
    """The cheapest reaching set inside ``freed`` and its cost (``(0, -1)``: none)."""
    best, best_cost = 0, -1
    for i in range(count):
        if freed & reaching[i] == reaching[i]:
            c = set_cost(reaching[i], cost)
            if best_cost < 0 or c < best_cost:
                best, best_cost = reaching[i], c
    return best, best_cost


@njit(cache=True)
def extra_cost(failing: np.ndarray, count: int, hand_cores: np.ndarray, freed: int,
               rest: int, cost: np.ndarray) -> int:
    """A lower bound on the cost of the groups of ``rest`` that ``freed`` still needs:
    every failing set holding ``freed`` must be left by adding one group of ``rest``
    outside it (its core), and every one of ``hand_cores`` that ``freed`` misses must be
    met by a group of ``rest``; disjoint cores, smallest first, each add their cheapest
    group. ``NO_BOUND`` when some core is empty."""
    cores = np.empty(count + hand_cores.shape[0], dtype=np.int64)
    sizes = np.empty(count + hand_cores.shape[0], dtype=np.int64)
    n = 0
    for i in range(hand_cores.shape[0]):
        if freed & hand_cores[i] == 0:
            core = rest & hand_cores[i]
            if core == 0:
                return NO_BOUND
            cores[n] = core
            sizes[n] = bin_count(core)
            n += 1
    for i in range(count):
        if freed & failing[i] == freed:
            core = rest & ~failing[i]
            if core == 0:
                return NO_BOUND
            cores[n] = core
            sizes[n] = bin_count(core)
            n += 1
    starts = np.zeros(MAX_GROUPS + 2, dtype=np.int64)  # a counting sort by size, stable
    for j in range(n):
        starts[sizes[j] + 1] += 1
    for size in range(1, MAX_GROUPS + 2):
        starts[size] += starts[size - 1]
    by_size = np.empty(n, dtype=np.int64)
    for j in range(n):
        by_size[starts[sizes[j]]] = cores[j]
        starts[sizes[j]] += 1
    taken, bound = 0, 0
    for j in range(n):
        core = by_size[j]
        if core & taken == 0:
            taken |= core
            bound += _cheapest(core, cost)
    return bound


@njit(cache=True)
def _cheapest(mask: int, cost: np.ndarray) -> int:
    """The cost of the cheapest group of ``mask`` (not empty)."""
    best = -1
    i = 0
    while mask:
        if mask & 1 and (best < 0 or cost[i] < best):
            best = cost[i]
        mask >>= 1
        i += 1
    return best


@njit(cache=True)
def linked(freed: int, of_group: np.ndarray, of_hand: int) -> int:
    """The groups of ``freed`` tied to the hand through a chain of freed groups next to each
    other (``of_group[i]``: the groups next to group ``i``; ``of_hand``: next to the hand)."""
    tied, grow = 0, freed & of_hand
    while grow:
        tied |= grow
        near = 0
        i = 0
        bits = grow
        while bits:
            if bits & 1:
                near |= of_group[i]
            bits >>= 1
            i += 1
        grow = near & freed & ~tied
    return tied


@njit(cache=True)
def reach_bound(freed: int, kept_counts: np.ndarray, base: np.ndarray, weight: np.ndarray,
                wild: int, triples: np.ndarray) -> int:
    """The most the hand's real cards can score with the groups of ``freed`` taken up: the
    weights (``weight``: each hand card type's weight times its copies in the hand) of the
    cards ``placeable`` counts; meant for ``wild`` < 2."""
    ok = placeable(freed, kept_counts, base, wild, triples)
    total = 0
    for c in range(N_CARD_TYPES):
        if ok[c]:
            total += weight[c]
    return total


@njit(cache=True)
def placeable(freed: int, kept_counts: np.ndarray, base: np.ndarray, wild: int,
              triples: np.ndarray) -> np.ndarray:
    """Per card type, with the groups of ``freed`` taken up: True where a set or a
    three-card run could hold it beside available cards (``base``: the hand and the singles,
    the freed cards, ``wild`` jokers filling gaps); ``triples[j] = (card, one partner, the
    other)`` for every three-card run."""
    there = base.copy()
    i = 0
    bits = freed
    while bits:
        if bits & 1:
            there += kept_counts[i]
        bits >>= 1
        i += 1
    ok = np.zeros(N_CARD_TYPES, dtype=np.bool_)
    for rank in range(N_RANKS):
        suits = 0
        for s in range(N_SUITS):
            suits += there[s * N_RANKS + rank] > 0
        for s in range(N_SUITS):
            c = s * N_RANKS + rank
            ok[c] = suits - (there[c] > 0) + wild >= 2
    for j in range(triples.shape[0]):
        missing = 2 - (there[triples[j, 1]] > 0) - (there[triples[j, 2]] > 0)
        if missing <= wild:
            ok[triples[j, 0]] = True
    return ok
