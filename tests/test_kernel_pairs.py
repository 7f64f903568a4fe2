"""The kernel's suit-pair bound (``kernel.pair_state_bounds``, issue 12 item 1b) and the
search that goes past ``kernel.ASPIRE_WORK``: an aspiration at the pairs' bound (the suits'
with jokers), then the first search resumed from its transposition table. Bounds only
prune: the answers stay CP-SAT's, and the points objective's ``ace=both`` worst cases are
proved in a few hundred nodes instead of thousands."""

from __future__ import annotations

import numpy as np
import pytest

from solver import Position, automaton, kernel, kernel_backend, solve_position
from solver.constants import ACE_CODES, N_CARD_TYPES, NO_SCORE
from solver.generate import random_position
from solver.kernel_backend import config_vector
from solver.kernel_jokers import N_JOKER_ROWS
from solver.problem import Problem

# From bench.compare --worst: 7,217 nodes (7.8 ms) before the pair bound. The best play
# lies under the 20th of 35 equal ace moves, and the per-suit bound leaves 8 points of slack
# (KS can join neither its set nor a run Q K A without taking a queen a set needs).
WORST_POINTS = Position.parse(
    "AH 2H 3H 4H 5H | 5S 6S 7S | KS KH KD KC | 8S 8D 8C | 6S 7S 8S 9S 10S | 7H 8H 9H | "
    "6C 7C 8C | QS QD QC | 6H 7H 8H 9H 10H JH | 4H 5H 6H | AS AH AD AC | 3S 3H 3D 3C | "
    "QD KD AD | 9S 9D 9C | 2C 3C 4C 5C | 5D 6D 7D 8D / 5S AC 9C KS AS 3D 7D 10D 6D 7C 2S "
    "/ machiavelli")
# The second worst (3,421 nodes, 5.6 ms), and one whose first ace moves lead to no
# partition at all (2,288 nodes without an answer to prune by; the aspiration ends it).
SECOND_POINTS = Position.parse(
    "KS KD KC | 2C 3C 4C 5C | 10S 10H 10D 10C | 3H 4H 5H 6H 7H | 8S 9S 10S JS QS KS | "
    "5D 6D 7D | 4H 5H 6H 7H 8H 9H | 4C 5C 6C 7C 8C 9C | 10C JC QC | 9D 10D JD QD | "
    "8S 8H 8D 8C | 2S 2D 2C | AD 2D 3D 4D 5D | AH 2H 3H / KC 6S QC 6C 9C 8D AC 9D AH 7C JH "
    "QD 2S 9S 9H / machiavelli")
DEAD_ENDS_FIRST = Position.parse(
    "3D 4D 5D 6D 7D | 2S 2H 2C | 5D 6D 7D | JS JH JD JC | 5S 6S 7S 8S 9S 10S | 5S 5H 5C | "
    "10C JC QC | 7S 8S 9S 10S JS | 6S 6H 6C | AS 2S 3S | 7H 8H 9H 10H JH | KS KH KD KC | "
    "5H 6H 7H 8H | JD QD KD AD | AS AH AC / 10H 7C QD 9C KC 8C 9H 4C QH AH 4D 9D 6C QH AD "
    "KS 3D 8D / machiavelli")


@pytest.mark.parametrize(("position", "score", "most_nodes"), [
    (WORST_POINTS, 51, 1_000), (SECOND_POINTS, 94, 1_500), (DEAD_ENDS_FIRST, 129, 1_000)])
def test_the_worst_points_positions_are_proved_in_fewer_nodes(position, score, most_nodes):
    answer = kernel_backend.solve(Problem.from_position(position, "points"))
    assert answer.optimal and answer.score == score
    assert answer.stats["nodes"] < most_nodes
    assert solve_position(position, "points", "cpsat").score == score


# Carousel hands from bench.joker_games --seed 2026 (two decks, two jokers, 26 hand cards). The
# first plays its whole hand, the root bound, yet the plain search took 20,555 nodes to find
# it; a search for that score alone (the aspiration, past ``ASPIRE_WORK`` with nothing found)
# ends in 2,301. On the second no play is worth the bound (26), and a second aspiration
# finds a 25 (4,592 nodes, 8,800 before).
FULL_HAND_CAROUSEL = Position.parse(
    "KS KH KC | AD 2D 3D 4D | 3D 4D 5D | KS KH KD | AS 2S *3S | 10S 10H 10C | JS JH JC | "
    "AS 2S 3S 4S 5S | 5S 6S 7S 8S | 9D 10D *JD QD | 10D JD QD | 3C 4C 5C | "
    "5C 6C 7C 8C 9C 10C | QC KC AC | 6S 6H 6D / 3S AC 8H 9C 9S 8H AH 5H AH QH 8D 10H 5H 2C "
    "JC 7D QC 4S 4C 9S 7C 8D 4H 7H 7S 2D / carousel")
ONE_SHORT_CAROUSEL = Position.parse(
    "KS KH KC | AD 2D 3D | 3D 4D 5D | KS KH KD | 9D 10D JD QD | AS 2S *3S | "
    "AS 2S 3S 4S 5S 6S 7S 8S | 10S 10H 10D 10C | 3C 4C 5C *6C | 5C 6C 7C 8C 9C 10C JC QC KC AC "
    "/ 3S AC 8H 9C 9S 8H AH 5H AH QH 8D 10H 5H 2C JC 7D QC 4S 4C 9S 7C 8D 4H 7H 4D 7S "
    "/ carousel")


@pytest.mark.parametrize(("position", "score", "most_nodes"), [
    (FULL_HAND_CAROUSEL, 26, 5_000), (ONE_SHORT_CAROUSEL, 25, 6_000)])
def test_searches_with_jokers_aspire_to_their_root_bound(position, score, most_nodes):
    """Past ``ASPIRE_WORK`` with no answer yet, a search with jokers looks for the root
    bound's score alone first, then for one less; exact either way (CP-SAT's score), and
    with its work capped it still stops within the cap with a valid answer."""
    problem = Problem.from_position(position)
    answer = kernel_backend.solve(problem)
    assert answer.optimal and answer.score == score
    assert kernel_backend.root_bound(problem) == 26
    assert answer.stats["nodes"] < most_nodes
    assert solve_position(position, backend="cpsat").score == score
    for limit in (kernel.ASPIRE_WORK + 100, 3 * kernel.ASPIRE_WORK):
        capped = kernel_backend.solve(problem, limit)
        assert capped.score <= score and capped.stats.get("nodes", 0) <= limit


def search_inputs(position: Position, objective: str) -> tuple:
    """``kernel.search``'s arguments but the node limit, for a joker-free position."""
    problem = Problem.from_position(position, objective)
    ace = ACE_CODES[problem.ace]
    copies = 2
    cell = kernel.cell_arrays(problem.need, problem.free, problem.hand, problem.weight,
                              np.zeros(N_CARD_TYPES, dtype=np.int64), problem.weight,
                              np.zeros((N_JOKER_ROWS, N_CARD_TYPES), dtype=np.int64), ace, 0)
    cfg = config_vector(ace, copies, 0, 0, int(problem.weight.max()), 0, NO_SCORE)
    init, delta, accept = automaton.run_automaton(copies)
    return (cell, cfg, init, delta, accept, automaton.set_vectors(copies),
            *problem.table_array)


def hard_positions(seed: int, count: int):
    """Big random ``ace=both`` positions with long hands: the points objective's hard
    kind."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield random_position(rng, "machiavelli:ace=both", int(rng.integers(40, 70)),
                              int(rng.integers(8, 20)), near=float(rng.uniform(0.3, 0.9)))


def test_the_pair_bound_lies_between_the_optimum_and_the_suit_bound():
    """At the root, the pairs' bound is at least the best score and, move by move, at most
    the sum of the per-suit ``state_bounds`` (the least of three pairings of the suits)."""
    tighter = 0
    for position in hard_positions(11, 40):
        cell, cfg, init, delta, accept, kvecs, groups, lengths = search_inputs(position,
                                                                               "points")
        best, _, optimal, _ = kernel.search(cell, cfg, init, delta, accept, kvecs, groups,
                                            lengths, 0)
        tables = kernel._search_tables(cell, cfg, init, delta, accept, kvecs, groups, lengths,
                                       kernel.no_dominators())
        pairs = kernel.pair_state_bounds(cell, init, delta, accept, tables.alive, kvecs)
        singles = kernel.state_bounds(cell, delta, accept)
        ub_rest = kernel._gain_bounds(cell)
        assert optimal and kernel._root_bound(tables, ub_rest, pairs, kernel.NO_PAIRS) >= best
        moves = np.empty((1 << 9, kernel.N_MOVE_FIELDS), dtype=np.int64)
        moves, end = kernel._expand_into(0, 0, tables, moves, 0)
        for key in moves[:end, kernel.MOVE_KEY]:
            pair = kernel._pair_bound(pairs, 1, key)
            states = [key // kernel.KEY_RADIX ** s % kernel.KEY_RADIX for s in range(4)]
            suits = sum(singles[1, s, q] for s, q in enumerate(states))
            if suits > NO_SCORE // 2:
                assert pair <= suits
                tighter += pair < suits
    assert tighter > 0  # the pairs must see what the suits alone do not


@pytest.mark.parametrize("cut", [40, 300])
def test_a_search_cut_short_and_finished_with_the_pairs_is_exact(cut):
    """``_search_on`` after a first search cut at ``cut`` work (the open nodes
    forgotten, the settled ones kept): the same best score as one whole search."""
    finished = 0
    for position in hard_positions(12 + cut, 40):
        for objective in ("cards", "points"):
            inputs = search_inputs(position, objective)
            whole, _, _, _ = kernel.search(*inputs, 0)
            cell, cfg, init, delta, accept, kvecs, groups, lengths = inputs
            tables = kernel._search_tables(cell, cfg, init, delta, accept, kvecs, groups,
                                           lengths, kernel.no_dominators())
            ub_rest = kernel._gain_bounds(cell)
            best, path, complete, _, _, table, _, _ = kernel._branch_and_bound(
                tables, accept, ub_rest, ub_rest[0], cut, NO_SCORE, kernel.NO_PAIRS,
                kernel._new_table(), 0, kernel._none_built())
            if complete:
                continue
            finished += 1
            pairs, suit_bounds = kernel._aspiration_bounds(tables, accept, True, kernel.NO_PAIRS,
                                                           kernel.NO_PAIRS)
            cap = min(kernel._root_bound(tables, ub_rest, pairs, suit_bounds),
                      cfg[kernel.CEILING])
            best, _, complete, _ = kernel._search_on(tables, accept, ub_rest, 0, best, path,
                                                     table, pairs, suit_bounds, 1, cap)
            assert complete and best == whole, (str(position), objective)
    assert finished >= 10


def test_kernel_and_cpsat_agree_on_random_ace_both_points_positions():
    """A few hundred ``ace=both`` positions on the points objective, the kernel against
    CP-SAT; some of them run past ``kernel.ASPIRE_WORK``."""
    paired = 0
    for position in hard_positions(13, 300):
        problem = Problem.from_position(position, "points")
        answer = kernel_backend.solve(problem)
        assert answer.optimal
        assert answer.score == solve_position(position, "points", "cpsat").score, \
            str(position)
        paired += answer.stats["nodes"] > 200
    assert paired > 0


def test_a_work_limit_still_caps_a_search_past_pair_work():
    """With a node limit above ``ASPIRE_WORK`` the search still stops within it, its answer
    valid (at most the optimum)."""
    inputs = search_inputs(WORST_POINTS, "points")
    whole, _, optimal, _ = kernel.search(*inputs, 0)
    assert optimal and whole == 51
    for limit in (kernel.ASPIRE_WORK // 2, kernel.ASPIRE_WORK + 50, 3 * kernel.ASPIRE_WORK):
        best, _, optimal, nodes = kernel.search(*inputs, limit)
        assert best <= whole and (optimal or nodes <= limit)


@pytest.mark.parametrize("ace", ["low", "high", "both"])
def test_the_first_descent_gives_the_search_its_own_answer(ace):
    """``kernel._first_descent`` stands in for a joker-free search that goes straight down
    to its upper bound: the same best, moves, proof and nodes as the search run in full
    (a floor one above ``NO_SCORE`` turns the descent off and changes nothing else), on
    random positions of every size, most of them answered by the descent."""
    rng = np.random.default_rng(20261205)
    descended = 0
    for _ in range(60):
        position = random_position(rng, f"machiavelli:ace={ace}", int(rng.integers(3, 100)),
                                   int(rng.integers(1, 16)), near=float(rng.uniform(0.2, 1)))
        for objective in ("cards", "points"):
            inputs = search_inputs(position, objective)
            full_cfg = inputs[1].copy()
            full_cfg[kernel.FLOOR] = NO_SCORE + 1
            quick = kernel.search(*inputs, 0)
            full = kernel.search(inputs[0], full_cfg, *inputs[2:], 0)
            assert quick[0] == full[0] and quick[2] == full[2] and quick[3] == full[3]
            assert np.array_equal(quick[1], full[1])
            cell, cfg, init, delta, accept, kvecs, groups, lengths = inputs
            tables = kernel._search_tables(cell, cfg, init, delta, accept, kvecs, groups,
                                           lengths, kernel.no_dominators())
            upper = kernel._gain_bounds(cell)[0]
            found, _ = kernel._first_descent(tables, accept, upper, kernel.ASPIRE_WORK)
            if found:
                assert full[0] == upper and full[3] == kernel.N_STEPS - 1
            descended += found
    assert descended >= 30
