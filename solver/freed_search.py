"""The least-change branch and bound of ``solver.least_change`` in one numba call, for
problems without jokers: each question "does freeing these table groups still reach the
best value?" is a direct call of the kernel's search (``solver.kernel``) on arrays, with no
Python set-up between questions (docs/rules.md §3: a play may rearrange the whole table).

The search is the one ``solver.least_change`` describes (the same sets, in the same order,
with the same bounds and memory of answers, ``solver.freed_sets``); the caller prepares the
arrays once (``FreedSearch``) and lays out the answer. Every question shares the kernel
tables of the whole problem: the run automaton for its number of copies serves every
smaller problem too.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from solver import freed_sets, kernel
from solver.constants import ROW_WIDTH
from solver.frozen import frozen

MASK_ROOM = 1 << 14
"""Room for this many reaching (and as many failing) sets; a search that needs more gives
up, like one that runs out of visits."""
# Fields of the ``state`` vector: counts and flags the search updates.
N_REACHING, N_FAILING, CALLS, WORK, VISITS_LEFT, STOPPED, GAVE_UP, BEST_SET, BEST_COST = \
    range(9)
N_STATE = 9

FreedSearch = namedtuple("FreedSearch", [
    "cell_inputs", "joker_rows", "kernel_tables", "cfg", "ace", "groups", "group_len",
    "kept_counts", "of_group", "of_hand", "reach", "triples", "hand_cores", "cost", "order",
    "rest",
    "best", "work_limit", "reaching", "failing", "state",
])
FreedSearch.__doc__ = """Everything one search reads, and what it remembers.

``cell_inputs`` rows: the table cards every question must place besides the freed groups'
(``need`` less every group's cards), the singles, the hand, the weights and the forced
cards; ``joker_rows`` and ``cfg`` as ``kernel.cell_arrays`` and ``kernel.search`` take them
(no jokers), ``ace`` the ace code. ``kernel_tables``: the automaton (``init``, ``delta``,
``accept``), the set vectors and the suit states, as a tuple. ``groups``/``group_len``: the
table's groups as padded rows, ``kept_counts[i]`` group ``i``'s card counts,
``of_group``/``of_hand`` the groups next to each group and to the hand, ``reach`` the
hand-and-singles counts and the hand's weights for ``freed_sets.reach_bound`` with ``triples``,
``hand_cores`` as ``freed_sets.extra_cost`` takes them. ``cost[i]`` what freeing group ``i``
costs, ``order`` the order groups are added in, ``rest[j]`` the mask of ``order[j:]``.
``best``: the value to reach; ``work_limit`` the kernel nodes allowed over all questions (0:
none). ``reaching``/``failing`` (``MASK_ROOM`` masks each) and ``state`` (fields
``N_REACHING`` .. ``BEST_COST``) are written by the search."""


@njit(cache=True)
def _ask(fs, freed):
    """The kernel's answer with only ``freed`` taken up: the groups of ``freed`` its play
    changes (-1 when it falls short of ``fs.best``)."""
    need, free, hand, weight, forced = fs.cell_inputs
    sub_need = need.copy()
    n_rows = 0
    for i in range(fs.groups.shape[0]):
        if freed >> i & 1:
            sub_need += fs.kept_counts[i]
            n_rows += 1
    ref = np.empty((n_rows, ROW_WIDTH), dtype=np.int64)
    ref_len = np.empty(n_rows, dtype=np.int64)
    row = 0
    for i in range(fs.groups.shape[0]):
        if freed >> i & 1:
            ref[row] = fs.groups[i]
            ref_len[row] = fs.group_len[i]
            row += 1
    cell = kernel.cell_arrays(frozen(sub_need), free, hand, weight, frozen(forced), weight,
                              frozen(fs.joker_rows), fs.ace, np.int64(0))
    init, delta, accept, kvecs, states = fs.kernel_tables
    best, _, nodes, rows, lengths, _, _ = kernel.search_and_decode(
        cell, fs.cfg, frozen(init), frozen(delta), frozen(accept), kvecs, frozen(ref),
        frozen(ref_len), np.int64(0), states, frozen(sub_need), frozen(hand))
    fs.state[CALLS] += 1
    fs.state[WORK] += nodes
    if best < fs.best:
        return -1
    return _still_changed(fs, freed, rows, lengths)


@njit(cache=True)
def _still_changed(fs, freed, rows, lengths):
    """``freed`` without the groups the kernel's play (``rows``/``lengths``) rebuilds
    exactly as they lay."""
    used = np.zeros(lengths.shape[0], dtype=np.bool_)
    changed = 0
    for i in range(fs.groups.shape[0]):
        if not freed >> i & 1:
            continue
        kept = False
        for r in range(lengths.shape[0]):
            if used[r] or lengths[r] != fs.group_len[i]:
                continue
            same = True
            for j in range(lengths[r]):
                if rows[r, j] != fs.groups[i, j]:
                    same = False
                    break
            if same:
                used[r] = True
                kept = True
                break
        if not kept:
            changed |= 1 << i
    return changed


@njit(cache=True)
def _reaches(fs, freed):
    """True when freeing the groups of ``freed`` (and keeping the others) reaches best."""
    state = fs.state
    freed = freed_sets.linked(freed, fs.of_group, fs.of_hand)
    if freed_sets.covers_any(fs.reaching, state[N_REACHING], freed):
        return True
    if freed_sets.inside_any(fs.failing, state[N_FAILING], freed):
        return False
    changed = -1
    base, hand_weight = fs.reach
    if freed_sets.reach_bound(freed, fs.kept_counts, base, hand_weight, 0,
                              fs.triples) >= fs.best:
        changed = _ask(fs, freed)
    if changed < 0:
        count = freed_sets.add_failing(fs.failing, state[N_FAILING], freed)
    else:
        count = freed_sets.add_reaching(fs.reaching, state[N_REACHING], changed)
    if count < 0:  # out of room: give up
        state[GAVE_UP] = 1
        return False
    state[N_FAILING if changed < 0 else N_REACHING] = count
    return changed >= 0


@njit(cache=True)
def _improve(fs, freed):
    """Take the cheapest reaching set inside ``freed`` if it beats the best so far."""
    state = fs.state
    changed, cost = freed_sets.cheapest_inside(fs.reaching, state[N_REACHING], freed,
                                               fs.cost)
    if 0 <= cost < state[BEST_COST]:
        state[BEST_SET] = changed
        state[BEST_COST] = cost


@njit(cache=True)
def _out_of_budget(fs):
    state = fs.state
    state[VISITS_LEFT] -= 1
    if state[VISITS_LEFT] < 0:
        state[GAVE_UP] = 1
    if fs.work_limit and state[WORK] > fs.work_limit:
        state[STOPPED] = 1
    return state[STOPPED] or state[GAVE_UP]


@njit(cache=True)
def _enter(fs, freed, start, cost):
    """The checks of one visited set: True when its supersets from ``order[start:]`` must
    be visited (it falls short, and no bound rules them out)."""
    if cost >= fs.state[BEST_COST] or _out_of_budget(fs):
        return False
    if _reaches(fs, freed):
        _improve(fs, freed)
        return False
    rest = fs.rest[start]
    bound = freed_sets.extra_cost(fs.failing, fs.state[N_FAILING], fs.hand_cores, freed, rest,
                                  fs.cost)
    if bound == freed_sets.NO_BOUND or cost + bound >= fs.state[BEST_COST]:
        return False
    return _reaches(fs, freed | rest)


@njit(cache=True)
def _shrink(fs):
    """Drop groups from the first answer while it still reaches best, the costliest first."""
    first = fs.state[BEST_SET]
    n = fs.groups.shape[0]
    members = np.array([i for i in range(n) if first >> i & 1], dtype=np.int64)
    by_cost = members[np.argsort(-fs.cost[members], kind="mergesort")]
    for group in by_cost:
        best_set = fs.state[BEST_SET]
        smaller = best_set & ~(1 << group)
        if smaller != best_set and _reaches(fs, smaller):
            _improve(fs, smaller)


@njit(cache=True, nogil=True)
def run(fs):
    """The least-cost freed set that reaches ``fs.best`` (its mask in
    ``fs.state[BEST_SET]``; ``STOPPED``/``GAVE_UP`` as ``solver.least_change._Search``)."""
    _shrink(fs)
    n = fs.order.shape[0]
    frame_set = np.zeros(n + 1, dtype=np.int64)
    frame_next = np.zeros(n + 1, dtype=np.int64)
    frame_cost = np.zeros(n + 1, dtype=np.int64)
    depth = 0
    if _enter(fs, np.int64(0), np.int64(0), np.int64(0)):  # int64s: one version each
        depth = 1
    while depth > 0:
        top = depth - 1
        j = frame_next[top]
        if j == n:
            depth -= 1
            continue
        frame_next[top] = j + 1
        group = fs.order[j]
        child = frame_set[top] | (1 << group)
        cost = frame_cost[top] + fs.cost[group]
        if _enter(fs, child, j + 1, cost):
            frame_set[depth], frame_next[depth], frame_cost[depth] = child, j + 1, cost
            depth += 1


def new_state(first: int, first_cost: int, max_visits: int) -> tuple[np.ndarray, np.ndarray]:
    """A fresh ``state`` vector with ``first`` (a reaching set) as the best so far, and the
    reaching sets' array holding it."""
    state = np.zeros(N_STATE, dtype=np.int64)
    state[VISITS_LEFT] = min(max_visits, 1 << 62)
    state[BEST_SET], state[BEST_COST] = first, first_cost
    state[N_REACHING] = 1
    reaching = np.zeros(MASK_ROOM, dtype=np.int64)
    reaching[0] = first
    return state, reaching


def empty_masks() -> np.ndarray:
    """Room for ``MASK_ROOM`` masks."""
    return np.zeros(MASK_ROOM, dtype=np.int64)

