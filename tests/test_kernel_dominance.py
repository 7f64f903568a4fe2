"""Automaton state dominance in the kernel's joker searches (issue 12 item 2): a node whose suit
states are dominated by those of a node explored before, with the same jokers used and at
least its score, is not explored (``kernel._dominating``). It only prunes: the answers stay
those of CP-SAT and of the search without it, and long proofs take fewer nodes."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from solver import automaton, kernel, kernel_backend
from solver.problem import Problem
from tests.test_joker_agreement import joker_positions
from tests.test_kernel_bounds import HOARDED_CAROUSEL
from tests.test_kernel_cut import long_searches_agreeing


def _accepted_words(delta: np.ndarray, accept: np.ndarray, length: int) -> list[set]:
    """Per state, the words of ``length`` symbols (``(r, m)`` pairs) it accepts."""
    symbols = list(np.ndindex(delta.shape[1:]))
    words: list[set] = [set() for _ in range(delta.shape[0])]
    for word in product(symbols, repeat=length):
        for q in range(delta.shape[0]):
            state = q
            for symbol in word:
                state = delta[(state, *symbol)]
                if state < 0:
                    break
            if state >= 0 and accept[state]:
                words[q].add(word)
    return words


@pytest.mark.parametrize(("decks", "most_required", "length"), [(2, 0, 4), (3, 0, 3),
                                                                 (2, 2, 3)])
def test_a_dominating_state_accepts_every_word_the_dominated_one_does(decks, most_required,
                                                                       length):
    _, delta, accept = automaton.run_automaton(decks, most_required)
    rows = automaton.dominators(decks, most_required)
    by_length = [_accepted_words(delta, accept, n) for n in range(length + 1)]
    pairs = 0
    for q in range(delta.shape[0]):
        for above in rows[q][rows[q] >= 0]:
            assert above != q
            pairs += 1
            for words in by_length:
                assert words[q] <= words[above], (q, above)
    assert pairs >= delta.shape[0]  # most states have a dominator


def test_dominance_is_the_greatest_such_relation_on_small_automata():
    """A pair left out breaks the rule in one step: acceptance, or a symbol read into states
    that are not dominated in turn (the fixpoint removed only such pairs)."""
    _, delta, accept = automaton.run_automaton(2)
    dom = automaton.dominance(delta.reshape(delta.shape[0], -1), accept)
    moves = delta.reshape(delta.shape[0], -1)
    for a, b in zip(*np.nonzero(~dom), strict=True):
        broken = accept[b] and not accept[a]
        for x in range(moves.shape[1]):
            nb, na = moves[b, x], moves[a, x]
            broken = broken or (nb >= 0 and (na < 0 or not dom[na, nb]))
        assert broken, (a, b)


def test_dominance_proves_the_hoarded_carousel_hand_in_fewer_nodes():
    """8,213 nodes without dominance, about 4,200 with it (15,167 and 6,753 before the set
    cards' charges counted the partners' copies, ``kernel._set_charge``); the same best
    play's score."""
    problem = Problem.from_position(HOARDED_CAROUSEL)
    answer = kernel_backend.solve(problem)
    assert answer.optimal and answer.score == 18
    assert answer.stats["nodes"] < 5_000
    without = _without_dominance(problem)
    assert without.score == 18 and without.stats["nodes"] > 7_000


def _without_dominance(problem: Problem):
    """``kernel_backend.solve`` with no dominating states given to the searches."""
    dominators = kernel_backend._dominators
    kernel_backend._dominators = lambda *_: kernel.no_dominators()
    try:
        return kernel_backend.solve(problem)
    finally:
        kernel_backend._dominators = dominators


@pytest.mark.parametrize("variant", ["carousel", "vatican", "tahiti"])
def test_dominance_agrees_with_cpsat_and_the_search_without_it(variant):
    """Big hands with jokers, where searches run long: the same score with and without
    dominance, and CP-SAT's."""
    positions = joker_positions(variant, 120, 600 + len(variant), table=(20, 60), hand=(8, 22))
    assert long_searches_agreeing(
        positions, lambda problem, answer: answer.score == _without_dominance(problem).score
    ) >= 20


def test_the_root_bound_is_above_every_answer_and_names_the_proofs_gap():
    """``kernel_backend.root_bound``: at least the best score on random joker positions, and
    three cards above it on the hoarded carousel hand (the proof dominance shortens)."""
    problem = Problem.from_position(HOARDED_CAROUSEL)
    assert kernel_backend.root_bound(problem) == 21
    for i, position in enumerate(joker_positions("vatican", 30, 77, table=(10, 50),
                                                 hand=(4, 16))):
        problem = Problem.from_position(position, ("cards", "points")[i % 2])
        if kernel_backend.applies(problem):
            assert kernel_backend.root_bound(problem) >= kernel_backend.solve(problem).score
