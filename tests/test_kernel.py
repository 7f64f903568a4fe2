"""The kernel's building blocks against plain-Python references."""

from itertools import product

import numpy as np

from solver import automaton, kernel
from solver.automaton import _nfa_accepts, _nfa_step, run_automaton, sets_needed
from solver.cards import CARDS, SUITS
from solver.groups import group_kind
from solver.kernel_decode import decode_moves

NO_REQUIREMENT = np.zeros((13, 4), dtype=np.int64)


def nfa_accepts(r0, g, counts, required=None):
    """Reference: simulate the nondeterministic run automaton directly."""
    states = {(r0, 0, 0, g)}
    for i, r in enumerate(counts):
        m = 0 if required is None else required[i]
        states = {nxt for s in states for nxt in _nfa_step(s, r, m)}
    return any(_nfa_accepts(s) for s in states)


def dfa_accepts(init, delta, accept, r0, g, counts, required=None):
    q = init[r0, g]
    for i, r in enumerate(counts):
        if q < 0:
            return False
        q = delta[q, r, 0 if required is None else required[i]]
    return q >= 0 and bool(accept[q])


def test_automaton_with_runs_required_to_go_on_matches_the_nfa():
    init, delta, accept = run_automaton(3, 2)
    assert delta.shape[1:] == (4, 3)
    rng = np.random.default_rng(4)
    differs = 0
    for _ in range(3000):
        length = int(rng.integers(0, 13))
        counts = [int(c) for c in rng.integers(0, 4, size=length)]
        required = [int(m) for m in rng.integers(0, 3, size=length) * (rng.random(length) < 0.3)]
        r0, g = (int(v) for v in rng.integers(0, 4, size=2))
        expected = nfa_accepts(r0, g, counts, required)
        assert expected == dfa_accepts(init, delta, accept, r0, g, counts, required)
        differs += expected != nfa_accepts(r0, g, counts)
    assert differs > 10  # the requirement must bite on some inputs


def test_minimal_automaton_matches_the_nfa():
    init, delta, accept = run_automaton(2)
    assert delta.shape == (30, 3, 1)
    rng = np.random.default_rng(0)
    for _ in range(3000):
        length = int(rng.integers(0, 13))
        counts = [int(c) for c in rng.integers(0, 3, size=length)]
        r0, g = (int(v) for v in rng.integers(0, 3, size=2))
        assert nfa_accepts(r0, g, counts) == dfa_accepts(init, delta, accept, r0, g, counts)


def test_decode_cuts_every_accepted_suit_into_runs():
    rng = np.random.default_rng(1)
    states = automaton.suit_states(2)
    decoded = 0
    while decoded < 400:
        counts = [int(c) for c in rng.integers(0, 3, size=12)]
        r0, g = (int(v) for v in rng.integers(0, 3, size=2))
        if r0 + g > 2 or not nfa_accepts(r0, g, counts):
            continue
        moves = np.zeros((13, 4, 4), dtype=np.int64)
        suit = decoded % 4
        moves[0, suit] = (r0 + g, 0, g, 0)
        for t, r in enumerate(counts, start=1):
            moves[t, suit, 0] = r
        groups, lengths, _ = decode_moves(moves, states, 2, NO_REQUIREMENT)
        assert len(lengths) == 0 or lengths[0] >= 0
        tally = np.zeros(14, dtype=np.int64)
        high = 0
        for row, n in zip(groups, lengths, strict=False):
            run = [CARDS[c] for c in row[:n]]
            assert group_kind(run, "both") == "run"
            assert all(card.suit == SUITS[suit] for card in run)
            for position, c in enumerate(row[:n]):
                if c % 13 == 0 and position == n - 1 and n > 1 and row[n - 2] % 13 == 12:
                    high += 1
                else:
                    tally[c % 13] += 1
        assert list(tally[:13]) == [r0, *counts] and high == g
        decoded += 1


def test_a_run_from_the_low_ace_is_cut_before_it_takes_a_high_ace():
    # One of each card A..K of spades plus a second ace: A..K + A is no run, but
    # A 2 3 | 4..K A is (docs/rules.md §2: an ace is never at both ends).
    moves = np.zeros((13, 4, 4), dtype=np.int64)
    moves[0, 0] = (2, 0, 1, 0)
    moves[1:, 0, 0] = 1
    groups, lengths, _ = decode_moves(moves, automaton.suit_states(2), 2, NO_REQUIREMENT)
    runs = sorted(tuple(row[:n]) for row, n in zip(groups.tolist(), lengths.tolist(),
                                                   strict=True))
    assert runs == [(0, 1, 2), (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0)]


def test_sets_needed_matches_brute_force():
    for counts in product(range(3), repeat=4):
        cards = [s for s in range(4) for _ in range(counts[s])]
        possible = any(
            all(3 <= len(set(part)) == len(part) <= 4 for part in parts)
            for n in range(1, 3) for parts in _partitions(cards, n)
        ) if cards else True
        assert (sets_needed(counts) >= 0) == possible
        if sets_needed(counts) > 0:
            moves = np.zeros((13, 4, 4), dtype=np.int64)
            moves[5, :, 0] = counts
            moves[5, :, 1] = counts
            groups, lengths, _ = decode_moves(moves, automaton.suit_states(2), 2, NO_REQUIREMENT)
            assert len(lengths) == sets_needed(counts) and sum(lengths) == sum(counts)
            for row, n in zip(groups, lengths, strict=False):
                assert group_kind([CARDS[c] for c in row[:n]], "both") == "set"


def _partitions(items, n):
    for labels in product(range(n), repeat=len(items)):
        if len(set(labels)) == n:
            yield [[items[i] for i in range(len(items)) if labels[i] == j] for j in range(n)]


def test_usable_cards_drops_only_hopeless_hand_cards():
    need = np.zeros(52, dtype=np.int64)
    hand = np.zeros(52, dtype=np.int64)
    free = np.zeros(52, dtype=np.int64)
    need[[4, 5, 6]] = 1  # 5S 6S 7S on the table
    hand[[7, 13 + 9, 26 + 9]] = 1  # 8S (fits the run), 10H and 10D (no third ten)
    ok = kernel.usable_cards(need, free, hand, 2, 0)
    assert ok[7] and not ok[13 + 9] and not ok[26 + 9] and ok[4]
    # one joker could complete 10H 10D *10x: both tens become usable
    ok = kernel.usable_cards(need, free, hand, 2, 1)
    assert ok[13 + 9] and ok[26 + 9]


def test_set_vectors_start_with_no_sets():
    vectors = automaton.set_vectors(2)
    assert tuple(vectors[0]) == (0, 0, 0, 0) and len(vectors) == 21


def test_a_nodes_moves_are_sorted_like_a_stable_sort_by_rank():
    """``kernel._sort_moves`` (insertion sort, packed keys in scratch, or argsort past
    ``SORT_SCRATCH``) orders ``moves[at:end]`` best rank first, ties in generation order,
    exactly as a stable sort, and leaves the other rows alone."""
    rng = np.random.default_rng(8)
    keys = np.empty(kernel.SORT_SCRATCH, dtype=np.int64)
    sizes = [0, 1, 2, 7, 8, 9, 32, 33, 100, kernel.SORT_SCRATCH, kernel.SORT_SCRATCH + 1, 900]
    for n, spread in product(sizes, [3, 1 << 12]):
        at = int(rng.integers(0, 5))
        moves = rng.integers(-(1 << 20), 1 << 20, size=(at + n + 3, kernel.N_MOVE_FIELDS))
        moves[:, kernel.MOVE_RANK] = rng.integers(-spread, spread, size=len(moves)) * 1000
        order = np.argsort(-moves[at: at + n, kernel.MOVE_RANK], kind="stable")
        expected = moves.copy()
        expected[at: at + n] = moves[at: at + n][order]
        kernel._sort_moves(moves, at, at + n, keys)
        assert np.array_equal(moves, expected), (n, spread)


def test_every_automaton_a_move_code_can_describe_fits_a_node_key_digit():
    """Node keys hold one suit's automaton state per ``KEY_RADIX`` digit: every copy count a
    move code's field holds (``FIELD_MASK``), with or without runs that must go on, has at most
    that many states, and a node's table key (step, jokers, four digits) fits in 63 bits."""
    for copies in range(1, kernel.FIELD_MASK + 1):
        for most_required in (0, 2):
            assert run_automaton(copies, most_required)[1].shape[0] <= kernel.KEY_RADIX
    key_space = kernel.BASE_KEY * (kernel.FIELD_MASK + 1)  # jokers used below 8
    assert (kernel.N_STEPS + 1) * key_space < 1 << 62
