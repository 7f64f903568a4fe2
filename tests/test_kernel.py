"""The kernel's building blocks against plain-Python references."""

from itertools import product

import numpy as np

from solver import kernel
from solver.dp_backend import split_sets, suit_runs
from solver.kernel import _nfa_accepts, _nfa_step, run_automaton, sets_needed


def nfa_accepts(r0, g, counts):
    """Reference: simulate the nondeterministic run automaton directly."""
    states = {(r0, 0, 0, g)}
    for r in counts:
        states = {nxt for s in states for nxt in _nfa_step(s, r)}
    return any(_nfa_accepts(s) for s in states)


def dfa_accepts(init, delta, accept, r0, g, counts):
    q = init[r0, g]
    for r in counts:
        if q < 0:
            return False
        q = delta[q, r]
    return q >= 0 and bool(accept[q])


def test_minimal_automaton_matches_the_nfa():
    init, delta, accept = run_automaton(2)
    assert delta.shape == (30, 3)
    rng = np.random.default_rng(0)
    for _ in range(3000):
        length = int(rng.integers(0, 13))
        counts = [int(c) for c in rng.integers(0, 3, size=length)]
        r0, g = (int(v) for v in rng.integers(0, 3, size=2))
        assert nfa_accepts(r0, g, counts) == dfa_accepts(init, delta, accept, r0, g, counts)


def test_suit_runs_cuts_exactly_the_accepted_sequences():
    for counts in product(range(3), repeat=6):
        for g in range(3):
            runs = suit_runs(list(counts), g)
            assert (runs is not None) == nfa_accepts(counts[0], g, list(counts[1:]))
            if runs is not None:
                assert all(len(run) >= 3 for run in runs)
                tally = [0] * 14
                for run in runs:
                    # a high ace (13) follows the last rank given (the "king" here)
                    ranks = [len(counts) if rank == 13 else rank for rank in run]
                    assert ranks == list(range(ranks[0], ranks[0] + len(ranks)))
                    for rank in run:
                        tally[rank] += 1
                assert tally[:6] == list(counts) and tally[13] == g


def test_sets_needed_matches_brute_force():
    for counts in product(range(3), repeat=4):
        cards = [s for s in range(4) for _ in range(counts[s])]
        possible = any(
            all(3 <= len(set(part)) == len(part) <= 4 for part in parts)
            for n in range(1, 3) for parts in _partitions(cards, n)
        ) if cards else True
        assert (sets_needed(counts) >= 0) == possible
        if sets_needed(counts) > 0:
            groups = split_sets(list(counts), 5)
            assert all(3 <= len(g) <= 4 and len({c // 13 for c in g}) == len(g) for g in groups)


def _partitions(items, n):
    for labels in product(range(n), repeat=len(items)):
        if len(set(labels)) == n:
            yield [[items[i] for i in range(len(items)) if labels[i] == j] for j in range(n)]


def test_set_vectors_start_with_no_sets():
    vectors = kernel.set_vectors(2)
    assert tuple(vectors[0]) == (0, 0, 0, 0) and len(vectors) == 21
