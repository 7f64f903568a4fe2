"""The tables the kernel searches with, built once per copy count: which cards split into groups.

Whether the cards one suit gives to runs, rank by rank, can be cut into runs of three or more
(with ``g`` high aces closing runs at the king) is a regular language. ``run_automaton`` builds
its minimal automaton (30 states with two decks) by subset construction from the
nondeterministic one (``_nfa_step``: runs of one or two cards must take the next card, complete
runs may) and Moore's partition refinement; ``suit_states`` lists the nondeterministic states
that ``solver.kernel_decode`` replays to cut actual runs. Set cards split into sets of 3-4
distinct suits iff ``sets_count`` finds a number of sets; ``set_vectors`` lists the count
vectors that do (docs/rules.md §2).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from solver.warmup import one_time


@njit(cache=True)
def sets_count(k0, k1, k2, k3):
    """How many sets of 3-4 distinct suits hold ``k`` set cards per suit (-1: impossible)."""
    total = k0 + k1 + k2 + k3
    top = max(max(k0, k1), max(k2, k3))
    if total == 0:
        return 0
    for n in range(max(top, 1), total // 3 + 1):
        if 3 * n <= total <= 4 * n:
            return n
    return -1



def _nfa_step(state: tuple[int, int, int, int], r: int,
              m: int = 0) -> set[tuple[int, int, int, int]]:
    """Run configurations after giving ``r`` cards to runs from ``(n1, n2, n3, pending)``:
    runs of one or two cards must take a card, ``e`` complete runs may, the rest start runs;
    at least ``m`` of the runs must go on from the previous rank (``continuing``)."""
    n1, n2, n3, pending = state
    x = r - n1 - n2
    if x < 0:
        return set()
    return {(x - e, n1, n2 + e, pending) for e in range(min(n3, x) + 1) if n1 + n2 + e >= m}


def _nfa_accepts(state: tuple[int, int, int, int]) -> bool:
    """After the king: no run of one card; runs of two each take a pending high ace."""
    n1, n2, n3, pending = state
    return n1 == 0 and n2 <= pending <= n2 + n3


Subset = frozenset[tuple[int, ...]]  # a state of the determinized automaton
Symbol = tuple[int, int]  # (run cards at a rank, runs that must go on from the rank before)
Moves = dict[tuple[Subset, Symbol], Subset]


@one_time
def run_automaton(decks: int, most_required: int = 0) -> tuple[np.ndarray, np.ndarray,
                                                               np.ndarray]:
    """The minimal automaton of run-decomposable suits: ``(init, delta, accept)``.

    ``init[r0, g]`` is the state after the ace step (``r0`` low aces start runs, ``g`` high
    aces wait for runs through the king), ``delta[q, r, m]`` the state after a rank giving
    ``r`` cards to runs of which at least ``m`` (0..``most_required``) go on runs holding the
    rank before (-1: impossible), ``accept[q]`` whether the suit may end in ``q``. ``m`` is
    how the kernel keeps vatican's jokers beside a neighbour (docs/rules.md §8.2); with
    ``most_required`` 0 the automaton is the plain one (30 states with two decks).
    """
    init_sets: dict[tuple[int, int], Subset] = {
        (r0, g): frozenset({(r0, 0, 0, g)}) for r0 in range(decks + 1) for g in range(decks + 1)
    }
    symbols = [(r, m) for r in range(decks + 1) for m in range(most_required + 1)]
    subsets, moves = _determinize(set(init_sets.values()), symbols, _nfa_step)
    label, n_classes = _minimize(subsets, moves, symbols, _nfa_accepts)
    init = np.full((decks + 1, decks + 1), -1, dtype=np.int64)
    for (r0, g), sub in init_sets.items():
        init[r0, g] = label[sub]
    tables = init, *_tables(subsets, moves, symbols, label, n_classes, _nfa_accepts,
                            (decks + 1, most_required + 1))
    for table in tables:  # shared: read-only, as every table the kernels read (solver.frozen)
        table.setflags(write=False)
    return tables


def _tables(subsets: list[Subset], moves: Moves, symbols: list[Symbol], label: dict,
            n_classes: int, accepts: Callable, shape: tuple[int, int]
            ) -> tuple[np.ndarray, np.ndarray]:
    """``(delta, accept)`` of the minimal automaton: ``delta[q, a, b]`` on symbol ``(a, b)``."""
    delta = np.full((n_classes, *shape), -1, dtype=np.int64)
    accept = np.zeros(n_classes, dtype=np.bool_)
    for sub in subsets:
        q = label[sub]
        accept[q] = any(accepts(s) for s in sub)
        for symbol in symbols:
            delta[(q, *symbol)] = _target_label(label, moves, sub, symbol)
    return delta, accept


def _determinize(start: set[Subset], symbols: list[Symbol],
                 step: Callable) -> tuple[list[Subset], Moves]:
    """Subset construction from the ``start`` subsets: every reachable subset (in a fixed
    order) and the moves between them (a missing move: no configuration survives)."""
    seen = set(start)
    todo = list(seen)
    moves: Moves = {}
    while todo:
        subset = todo.pop()
        for symbol in symbols:
            target = frozenset(x for s in subset for x in step(s, *symbol))
            if target:
                moves[(subset, symbol)] = target
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
    return sorted(seen, key=lambda sub: sorted(sub)), moves


def _minimize(subsets: list[Subset], moves: Moves, symbols: list[Symbol],
              accepts: Callable) -> tuple[dict[Subset, int], int]:
    """Moore's partition refinement: ``(class of each subset, number of classes)``."""
    label = {sub: int(any(accepts(s) for s in sub)) for sub in subsets}
    n_classes = len(set(label.values()))
    while True:
        signature = {
            sub: (label[sub],) + tuple(_target_label(label, moves, sub, symbol)
                                       for symbol in symbols)
            for sub in subsets
        }
        ids: dict[tuple[int, ...], int] = {}
        label = {sub: ids.setdefault(signature[sub], len(ids)) for sub in subsets}
        if len(ids) == n_classes:
            return label, n_classes
        n_classes = len(ids)


def _target_label(label: dict[Subset, int], moves: Moves, sub: Subset, symbol: Symbol) -> int:
    """The class the move from ``sub`` on ``symbol`` leads to (-1: none)."""
    target = moves.get((sub, symbol))
    return -1 if target is None else label[target]


@one_time
def suit_states(decks: int) -> np.ndarray:
    """Every run configuration ``(n1, n2, n3)`` of one suit (at most ``decks`` runs open)."""
    return np.array(
        [(n1, n2, total - n1 - n2) for total in range(decks + 1)
         for n1 in range(total + 1) for n2 in range(total - n1 + 1)],
        dtype=np.int64,
    )


def sets_needed(k: tuple[int, ...] | np.ndarray) -> int:
    """How many sets the set cards ``k`` (count per suit) split into, or -1 if they cannot.

    ``n`` sets of 3-4 distinct suits hold ``k`` iff ``max(k) <= n`` and ``3n <= sum(k) <= 4n``
    (deal the copies round-robin: sizes then differ by at most one). Runs ``sets_count`` as
    Python: the tables are built once, and a fresh process need not load its compiled code.
    """
    return int(sets_count.py_func(*(int(v) for v in k)))


@one_time
def set_vectors(decks: int) -> np.ndarray:
    """Every per-suit count vector of set cards that splits into valid sets (zeros first)."""
    vectors = [
        (a, b, c, d)
        for a in range(decks + 1)
        for b in range(decks + 1)
        for c in range(decks + 1)
        for d in range(decks + 1)
        if sets_needed((a, b, c, d)) >= 0
    ]
    vectors.sort(key=sum)
    return np.array(vectors, dtype=np.int64)



@one_time
def dominators(decks: int, most_required: int = 0) -> np.ndarray:
    """Per state ``q`` of ``run_automaton(decks, most_required)``, the other states that
    dominate it (``dominance``), in increasing order, padded with -1: ``rows[q, :]``.

    A state dominates ``q`` when every way to finish a suit from ``q`` also finishes it from
    there: the kernel then skips a node whose suit states are each dominated by (or equal to)
    those of a node explored before with the same jokers and at least its score
    (``kernel._dominating``). Built once per automaton, for the searches with jokers."""
    _, delta, accept = run_automaton(decks, most_required)
    rows = dominator_rows(delta, accept)
    rows.setflags(write=False)
    return rows


def dominator_rows(delta: np.ndarray, accept: np.ndarray) -> np.ndarray:
    """``dominators``' rows for the automaton ``(delta, accept)`` (any symbols)."""
    dom = dominance(delta.reshape(delta.shape[0], -1), accept)
    np.fill_diagonal(dom, False)
    counts = dom.sum(axis=0)
    rows = np.full((delta.shape[0], int(counts.max(initial=0)) + 1), -1, dtype=np.int64)
    for q in range(delta.shape[0]):
        above = np.flatnonzero(dom[:, q])
        rows[q, : len(above)] = above
    return rows


@njit(cache=True)
def dominance(moves, accept):
    """``dom[a, b]``: state ``a`` dominates state ``b`` of the automaton with transitions
    ``moves[q, x]`` (one column per symbol, -1: no move) and final states ``accept``: the
    language from ``a`` holds the language from ``b``.

    The greatest relation with ``accept[b] -> accept[a]`` and, on every symbol ``b`` can
    read, ``a`` can read it too into a state that dominates ``b``'s: a fixpoint from
    everything, removing pairs that break it until none does (a simulation preorder, which
    for a deterministic automaton is exactly language inclusion)."""
    n, symbols = moves.shape
    dom = np.ones((n, n), dtype=np.bool_)
    for a in range(n):
        for b in range(n):
            if accept[b] and not accept[a]:
                dom[a, b] = False
    changed = True
    while changed:
        changed = False
        for a in range(n):
            for b in range(n):
                if a == b or not dom[a, b]:
                    continue
                for x in range(symbols):
                    nb, na = moves[b, x], moves[a, x]
                    if nb >= 0 and (na < 0 or not dom[na, nb]):
                        dom[a, b] = False
                        changed = True
                        break
    return dom
