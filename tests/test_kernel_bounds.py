"""The kernel's bounds (issue 12): the per-suit state bound (``kernel.state_bounds``) and what
each explored node can still add. Both only prune: the answers stay those of CP-SAT, and the
points objective's hard positions are proved in far fewer nodes."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from solver import Position, kernel, kernel_backend, kernel_jokers, solve_position
from solver.constants import NO_SCORE
from solver.generate import random_position
from solver.problem import Problem
from tests.test_joker_agreement import joker_positions
from tests.test_kernel_cut import branch_tables

# Found by bench.compare --worst: 4,934 nodes for the points objective before the state bound
# (ten points of hand cards that no play can hold: slack to the end of the search).
HARD_POINTS = Position.parse(
    "AS AH AD AC | 4H 5H 6H 7H | 2S 3S 4S 5S 6S | 8H 9H 10H JH QH | 6C 7C 8C 9C 10C JC | "
    "JS JH JD JC | 7S 7H 7D 7C | 5S 5H 5D 5C | 7D 8D 9D 10D JD QD | 8H 9H 10H | AS AH AD AC | "
    "6S 6H 6D 6C | 2H 3H 4H | 2D 3D 4D / 9S 10S 10S 4C KH 8S JS KD 9D 5D 3D 4D 6D KD 2C 3H 9C "
    "/ machiavelli:ace=high")


def test_the_state_bound_proves_a_hard_points_position_at_once():
    problem = Problem.from_position(HARD_POINTS, "points")
    answer = kernel_backend.solve(problem)
    assert answer.optimal and answer.score == 112
    assert answer.stats["nodes"] < 200
    assert solve_position(HARD_POINTS, "points", "cpsat").score == 112


@pytest.mark.parametrize("ace", ["low", "high", "both"])
def test_kernel_and_cpsat_agree_on_both_objectives(ace):
    rng = np.random.default_rng({"low": 1, "high": 2, "both": 3}[ace])
    for _ in range(30):
        position = random_position(rng, f"machiavelli:ace={ace}", int(rng.integers(20, 70)),
                                   int(rng.integers(4, 16)), near=float(rng.uniform(0.3, 0.9)))
        for objective in ("cards", "points"):
            kernel = solve_position(position, objective, "kernel")
            assert kernel.optimal
            assert kernel.score == solve_position(position, objective, "cpsat").score, \
                (str(position), objective)


# Found by bench.joker_games (carousel, a hoarded hand of 20 cards and a joker): 161,895 nodes
# with the bound of every hand card still to come, about 20,000 with the per-suit bound that
# splits the jokers left among the suits (``kernel.joker_state_bounds``).
HOARDED_CAROUSEL = Position.parse(
    "10S 10H 10C | 2S 2H 2D | AC 2C 3C | 2S 3S *4S 5S | 8H 9H 10H | JH JD JC | KS KD KC | "
    "5S 6S 7S 8S | 3H 4H 5H 6H | 6H 7H 8H | 5D 6D 7D 8D 9D | AC 2C 3C 4C 5C 6C 7C | "
    "9C 10C JC QC / 9D 3H 4S 8S 4D JH KD QS AS * 4S 10D 5D 2D KH QS 6S JS 7H AH QC / carousel")


@pytest.mark.parametrize("variant", ["carousel", "vatican", "tahiti"])
def test_the_joker_state_bound_agrees_with_cpsat_on_big_hands(variant):
    """Big hands with jokers: most searches pass ``kernel.LAZY_BOUNDS`` nodes and so prune
    with the per-suit joker bound; every answer must still be CP-SAT's."""
    rng = np.random.default_rng(100 + len(variant))
    bounded = 0
    for i in range(70):
        ace = ("low", "high", "both")[i % 3]
        position = random_position(
            rng, f"{variant}:ace={ace}", int(rng.integers(20, 60)), int(rng.integers(10, 22)),
            singles=int(rng.integers(0, 3)), near=0.7, jokers=int(rng.integers(1, 5)),
            jokers_on_table=float(rng.uniform(0.2, 0.7)))
        nodes = _nodes_agreeing_with_cpsat(position, ("cards", "points")[i % 2])
        bounded += nodes >= kernel.LAZY_BOUNDS
    assert bounded >= 15


def _nodes_agreeing_with_cpsat(position: Position, objective: str) -> int:
    """The kernel's nodes on ``position`` after checking its answer is CP-SAT's (-1: the
    kernel does not answer it)."""
    problem = Problem.from_position(position, objective)
    if not kernel_backend.applies(problem):
        return -1
    answer = kernel_backend.solve(problem)
    assert answer.optimal
    assert answer.score == solve_position(position, objective, "cpsat").score, \
        (str(position), objective)
    return int(answer.stats["nodes"])


# Found by bench.joker_games (carousel, 20 cards and a joker in hand, a joker on the table):
# 9,112 nodes when any card could join a set of jokers for free, about 600 once each set card
# is charged the jokers its set must hold (``kernel._joker_charges``).
SCATTERED_CAROUSEL = Position.parse(
    "6S 6H 6D | 5S 5H 5D | 9S 9H 9D | 3S 3H 3C | 4S 4D 4C | 5S 5D 5C | 6S 6H 6C | 6D 7D 8D | "
    "AS AD AC | 2S 2D 2C | 10S *JS QS | AH 2H 3H | 3C 4C 5C 6C 7C 8C 9C 10C / * QC KD 7S 3D JD "
    "AC QC 8S 8S 3S 10S 7D KH 10D 4D 5H 4H 7H 10C 10D / carousel")


@pytest.mark.parametrize(("position", "score", "most_nodes"), [
    (HOARDED_CAROUSEL, 18, 40_000), (SCATTERED_CAROUSEL, 18, 2_000)])
def test_the_joker_state_bound_proves_big_hands_in_fewer_nodes(position, score, most_nodes):
    answer = kernel_backend.solve(Problem.from_position(position))
    assert answer.optimal and answer.score == score
    assert answer.stats["nodes"] < most_nodes
    assert solve_position(position, "cards", "cpsat").score == score


def test_the_joker_charges_never_exceed_twice_the_jokers_placed():
    """``_joker_charges`` on one rank: a lone card (no partner suit) pays two jokers per set
    card, a card with one partner half a joker, with two partners nothing; a run joker two
    halves. So a set {card, joker, joker} is charged 4 and {card, card, joker} 1 + 1
    (``gains[r, c]``: the card's weight with ``r`` run cards and ``c`` half jokers; 0 when
    the card is not played)."""
    cell = np.zeros((kernel.N_STEPS, 4, kernel.N_FIELDS), dtype=np.int64)
    cell[5, 0, [kernel.HI, kernel.HAND, kernel.WEIGHT]] = (1, 1, 1)
    gains = np.empty((5, 5), dtype=np.int64)
    kernel._joker_charges(cell, 5, 0, 2, gains)
    assert gains[0, 4] == 1 and gains[0, :4].max() == 0  # in a set: 2 jokers, else not played
    assert gains[1, 0] == 1 and gains[2, 2] == 1 and gains[3, 4] == 1  # runs: 0-2 jokers
    cell[5, 1, kernel.HI] = 1
    kernel._joker_charges(cell, 5, 0, 2, gains)
    assert gains[0, 1] == 1 and gains[0, 0] == 0
    cell[5, 2, kernel.HI] = 1
    kernel._joker_charges(cell, 5, 0, 2, gains)
    assert gains[0, 0] == 1


@pytest.mark.parametrize("variant", ["carousel", "vatican"])
def test_the_half_joker_bound_agrees_with_cpsat_with_two_jokers(variant):
    """Two jokers in play, big hands: the searches that pass ``kernel.LAZY_BOUNDS`` nodes
    prune with the half-joker charges; every answer must still be CP-SAT's."""
    rng = np.random.default_rng(7 + len(variant))
    bounded = checked = 0
    for i in range(100):
        position = random_position(
            rng, f"{variant}:ace={('low', 'high', 'both')[i % 3]}", int(rng.integers(15, 55)),
            int(rng.integers(8, 22)), singles=int(rng.integers(0, 3)),
            near=float(rng.uniform(0.4, 0.9)), jokers=2,
            jokers_on_table=float(rng.uniform(0.0, 0.8)))
        nodes = _nodes_agreeing_with_cpsat(position, ("cards", "points")[i % 2])
        checked += nodes >= 0
        bounded += nodes >= kernel.LAZY_BOUNDS
    assert checked >= 80 and bounded >= 10


def _least_set_charge(k: int, copies: tuple[int, ...]) -> int:
    """By brute force: the least ``_joker_charges`` rule charge of ``k`` sets, each holding one
    card of the suit and distinct-suit partners among the other suits' ``copies``."""
    options = [tuple(o for o in range(len(copies)) if mask >> o & 1)
               for mask in range(1 << len(copies))]
    least = None
    for choice in product(options, repeat=k):
        if all(sum(o in chosen for chosen in choice) <= copies[o] for o in range(len(copies))):
            charge = sum((4, 1, 0, 0)[len(chosen)] for chosen in choice)
            least = charge if least is None else min(least, charge)
    assert least is not None
    return least


def test_the_set_charge_is_the_least_any_sets_pay():
    """``kernel._set_charge`` is at most the brute-force least charge of ``k`` sets for every
    split of up to two copies among three other suits (so at most what a play pays), equal
    to it with one copy each, and grows with ``k``."""
    for copies in product(range(3), repeat=3):
        partners, beside = sum(c > 0 for c in copies), sum(copies)
        charges = [kernel._set_charge(k, partners, beside) for k in range(5)]
        assert charges == sorted(charges)
        for k in range(4):
            assert charges[k] <= _least_set_charge(k, copies), (copies, k)
            if max(copies) <= 1:
                assert charges[k] == _least_set_charge(k, copies), (copies, k)


def test_two_set_copies_with_three_partner_copies_are_charged():
    """Two decks: two 10C can only go into sets with one 10S, 10H and 10D between them, so
    two sets hold at least one joker between them: half a joker charged (none before)."""
    cell = np.zeros((kernel.N_STEPS, 4, kernel.N_FIELDS), dtype=np.int64)
    cell[9, 3, [kernel.HI, kernel.HAND, kernel.WEIGHT]] = (2, 2, 1)
    cell[9, :3, kernel.HI] = 1
    gains = np.empty((5, 5), dtype=np.int64)
    kernel._joker_charges(cell, 9, 3, 2, gains)
    assert gains[0, 1] == 2 and gains[0, 0] == 1  # both in sets: 1 half joker; one: none


@pytest.mark.parametrize("variant", ["carousel", "vatican", "tahiti"])
def test_every_state_a_search_meets_is_one_the_joker_bounds_fill_in(variant):
    """``kernel.joker_state_bounds`` fills in only the states ``kernel._reachable`` says a suit
    can reach; a node in another would be pruned as unable to end validly. So every move of
    every node a joker search explores (all of them, as ``_expand_into`` lists them, none
    left out by a bound) leads to a child with each suit in a reachable state."""
    children = 0
    for i, position in enumerate(joker_positions(variant, 12, 40 + len(variant),
                                                 table=(20, 60), hand=(8, 22))):
        problem = Problem.from_position(position, ("cards", "points")[i % 2])
        if not kernel_backend.applies(problem):
            continue
        for branch in kernel_jokers.inputs(problem)[:2]:
            children += _children_in_reachable_states(problem, branch)
    assert children >= 2_000


def test_every_state_a_flagged_search_meets_is_one_the_joker_bounds_fill_in():
    """The same with tahiti's flagged automaton (two or three free jokers), whose states
    with jokers in runs ``_reachable`` reaches through every joker count."""
    children = 0
    for i, position in enumerate(joker_positions("tahiti", 40, 47, table=(20, 60),
                                                 hand=(8, 22))):
        problem = Problem.from_position(position, ("cards", "points")[i % 2])
        for branch in kernel_jokers.inputs(problem)[:2]:
            if kernel_backend._flagged(problem, branch):
                children += _children_in_reachable_states(problem, branch, flagged=True)
    assert children >= 2_000


def _children_in_reachable_states(problem: Problem, branch, flagged: bool = False) -> int:
    """Search ``branch``, expand every node of its table (and the root) and check each
    child's states against ``_reachable``; returns how many children."""
    cell, cfg, accept, tables = branch_tables(problem, branch, flagged)
    wild = int(cfg[kernel.WILD])
    ub_rest = kernel._gain_bounds(cell)
    upper = ub_rest[0] + (wild - cfg[kernel.TABLE_JOKERS]) * cfg[kernel.JOKER_WEIGHT_MAX]
    *_, table, _, _ = kernel._branch_and_bound(tables, accept, ub_rest, upper, 0, NO_SCORE,
                                            kernel.NO_PAIRS, kernel._new_table(), 0,
                                            kernel._none_built())
    reach = kernel._reachable(cell, tables.init, tables.delta, wild, cfg[kernel.FLAGGED])
    key_space = kernel.BASE_KEY * (wild + 1)
    children = 0
    for node in [0, *table[0][table[0] >= 0]]:
        t, key = int(node // key_space), int(node % key_space)
        moves, end = kernel._expand_into(t, key, tables, np.empty((512, 4), np.int64), 0)
        for child in moves[:end, kernel.MOVE_KEY]:
            states = int(child % kernel.BASE_KEY)
            for s in range(kernel.N_SUITS):
                assert reach[t + 1, s, states % kernel.KEY_RADIX], (t + 1, s)
                states //= kernel.KEY_RADIX
        children += end
    return children
