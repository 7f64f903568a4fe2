"""Kernel, CP-SAT and brute force agree on random joker positions of every joker variant
(docs/rules.md §8; a sample of ``python -m bench.agree``'s joker runs)."""

import numpy as np
import pytest

from solver import Position, kernel_backend, solve_position
from solver.api import CODES
from solver.constants import N_RANKS, N_SUITS
from solver.generate import random_position
from solver.kernel_backend import certified, why_not
from solver.problem import Problem
from solver.reference import best_cards_with_jokers
from solver.validate import play_problems

JOKER_VARIANTS = ("carousel", "vatican", "tahiti")


def joker_positions(variant, count, seed, table, hand, jokers=4):
    """``count`` seeded positions of ``variant`` with 1 to ``jokers`` jokers (as many as the
    variant has at most), on the table and in the hand."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        ace = ("low", "high", "both")[i % 3]
        yield random_position(rng, f"{variant}:ace={ace}", int(rng.integers(*table)),
                              int(rng.integers(*hand)), singles=int(rng.integers(0, 4)),
                              near=0.85, jokers=int(rng.integers(1, jokers + 1)),
                              jokers_on_table=float(rng.uniform(0.3, 0.8)))


def two_or_three_joker_tahiti(seed, count):
    """``(i, position)`` for ``count`` seeded tahiti positions with two or three jokers, some
    on the table (locked groups a hand card may free), in every ace mode by turns."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        yield i, random_position(
            rng, f"tahiti:ace={('low', 'high', 'both')[i % 3]}", int(rng.integers(6, 40)),
            int(rng.integers(2, 10)), near=float(rng.uniform(0.5, 0.95)),
            jokers=int(rng.integers(2, 4)), jokers_on_table=float(rng.uniform(0.0, 0.8)))


def kernel_exact(position, objective="cards"):
    """The kernel answers exactly: by its rules, or (tahiti, two free jokers) certified."""
    problem = Problem.from_position(position, objective)
    return not why_not(problem) or certified(problem)


def solved(position, objective, backend):
    answer = solve_position(position, objective, backend)
    assert answer.optimal, (backend, str(position))
    assert play_problems(position, answer.played, answer.table) == [], (backend, str(position))
    return answer.score


@pytest.mark.parametrize("variant", JOKER_VARIANTS)
def test_small_joker_positions_three_way(variant):
    kernel_answers = 0
    # two jokers at most: the brute force enumerates every joker name
    for position in joker_positions(variant, 30, seed=21, table=(0, 7), hand=(1, 4), jokers=2):
        brute = best_cards_with_jokers(position)
        assert solved(position, "cards", "cpsat") == brute, str(position)
        if kernel_exact(position):
            assert solved(position, "cards", "kernel") == brute, str(position)
            kernel_answers += 1
    assert kernel_answers >= 20


@pytest.mark.parametrize("variant", JOKER_VARIANTS)
@pytest.mark.parametrize("objective", ["cards", "points"])
def test_joker_positions_kernel_vs_cpsat(variant, objective):
    kernel_answers = played = 0
    seed = 31 + JOKER_VARIANTS.index(variant) + 3 * (objective == "points")
    for position in joker_positions(variant, 70, seed, table=(0, 50), hand=(1, 12)):
        if not kernel_exact(position, objective):
            continue
        kernel = solved(position, objective, "kernel")
        assert kernel == solved(position, objective, "cpsat"), str(position)
        kernel_answers += 1
        played += kernel > 0
    assert kernel_answers >= 50 and played >= 35


@pytest.mark.parametrize("table, hand, best", [
    ("*5H 6H 7H 8H | 5S 5C 5D", "4H", 1),  # held beside 6H: *5H 6H 7H 8H grows to 4H
    ("*5H 6H 7H | 5S 5C 5D", "5H 9C", 1),  # the real 5H frees the joker, which must stay
    ("KH *AH QH", "JH 2H 3H", 1),  # a high-ace joker stays high: only JH goes
    ("*AH 2H 3H", "KH QH", 0),  # a low-ace joker stays low: K Q have nowhere to go
    ("4H *5H 6H 7H", "5S 5D 8H 9H", 2),  # *5H must keep 4H or 6H: 8H 9H join the run
    ("*7S 7H 7D", "7C 8S 9S", 1),  # a set joker stays in a set: only 7C goes
    # A..K plus a high ace is cut in two, but not between *3H and 4H, its only neighbour
    ("*3H 4H 5H | 6H 7H 8H | 9H 10H JH", "AH 2H QH KH AH", 5),
])
def test_vatican_held_jokers_in_the_kernel(table, hand, best):
    position = Position.make(table, hand, "vatican")
    assert not why_not(Problem.from_position(position))
    assert solved(position, "cards", "kernel") == solved(position, "cards", "cpsat") == best


def test_points_with_table_and_hand_jokers_count_the_costliest_names():
    # The hand's joker is worth the costliest joker name on the new table (solver.api).
    position = Position.make("*KH QH JH | 2C 3C 4C", "* 10H", "carousel")
    assert not why_not(Problem.from_position(position, "points"))
    assert solved(position, "points", "kernel") == solved(position, "points", "cpsat")


def test_two_free_tahiti_jokers_are_certified_only_when_one_per_group_holds():
    # Copies would put both jokers in 5H 6H 7H *8H *9H: no certificate holds, and the
    # flagged automaton's search answers (one joker: 1).
    lone = Problem.from_position(Position.make("5H 6H 7H", "* *", "tahiti"))
    assert why_not(lone) and certified(lone)
    assert kernel_backend.solve(lone).stats.get(kernel_backend.FLAGGED) == 1.0
    answer = solve_position(Position.make("5H 6H 7H", "* *", "tahiti"))
    assert answer.backend == "kernel" and answer.score == 1
    assert answer.score == solved(Position.make("5H 6H 7H", "* *", "tahiti"), "cards", "cpsat")
    # Each run needs its own joker to take the hand's cards: the kernel's answer is exact.
    position = Position.make("5H 6H 7H | 2C 3C 4C", "* * 9H 6C", "tahiti")
    assert certified(Problem.from_position(position))
    answer = solve_position(position)
    assert answer.backend == "kernel" and answer.score == 4
    assert answer.score == solved(position, "cards", "cpsat")


# From bench.joker_games: copies put both hand jokers in one run (10C *JC *QC); held back,
# one joker gives 8 cards and the other then extends a joker-free group: 9, the copies' bound.
HELD_BACK = Position.parse(
    "QD KD AD | 4S 5S 6S | AS AH AC | AS AH AD AC | 10S JS QS KS | 5H 5D 5C | 7H 8H 9H 10H | "
    "6D 7D 8D | 7D 8D 9D 10D JD QD | 2D 3D 4D | 2H 3H 4H | 3H 4H 5H | 2C 3C 4C | 9S 9H 9D 9C | "
    "3S 4S 5S 6S 7S 8S 9S 10S | 4C 5C 6C 7C 8C 9C / 4D JS KH * * 10C KC 10C 8C / tahiti")


def test_a_hand_joker_held_back_certifies_two_free_tahiti_jokers():
    assert why_not(Problem.from_position(HELD_BACK))
    assert certified(Problem.from_position(HELD_BACK))
    answer = solve_position(HELD_BACK)
    assert answer.backend == "kernel" and answer.score == 9
    assert answer.score == solved(HELD_BACK, "cards", "cpsat")


def test_certified_two_free_tahiti_jokers_agree_with_cpsat():
    """Random tahiti positions with two jokers free to move: every one the kernel certifies
    (one per group as found, or a hand joker held back) has CP-SAT's score."""
    rng = np.random.default_rng(12)
    two_free = certified_count = 0
    for i in range(300):
        position = random_position(
            rng, f"tahiti:ace={('low', 'high', 'both')[i % 3]}", int(rng.integers(6, 50)),
            int(rng.integers(2, 14)), near=float(rng.uniform(0.3, 0.9)), jokers=2,
            jokers_on_table=float(rng.uniform(0.0, 0.6)))
        problem = Problem.from_position(position)
        if not why_not(problem):
            continue
        two_free += 1
        if certified(problem):
            certified_count += 1
            answer = solve_position(position)
            assert answer.backend == "kernel"
            assert answer.score == solved(position, "cards", "cpsat"), str(position)
    assert two_free >= 150 and certified_count >= 150  # 190 and 174, 14 of them held back


# From bench.joker_games: the copies put two jokers in one run (5H *6H *7H 8H 9H, 4D *5D *6D
# 7D); with no joker named 6H (or 5D) the kernel finds a play of the same score laid one
# joker per group. The third frees two jokers from locked groups, the fourth has two in hand.
BARRED_POSITIONS = [
    "AH *2H 3H 4H 5H | 8H 9H 10H | AS 2S 3S 4S 5S *6S 7S 8S | QS QD QC / JH AD JD 2S * 4C 4D "
    "2H JC QH 10C 10D / tahiti",
    "AH *2H 3H 4H 5H | 8H 9H 10H | QS QD QC | JH JD JC | QS KS AS | 2S 3S 4S 5S | 5S 6S 7S | "
    "6S 7S 8S *9S 10S / AD 2S * 4C 4D 2H QH 10C 10D / tahiti",
    "QS QD QC | 8D 9D 10D JD | 10S *JS QS KS | AH AD AC | AC 2C 3C | JC QC KC | 2S 3S 4S | "
    "7C 8C 9C 10C JC | 7S 7H 7C | 4H 5H 6H | 5H 6H 7H 8H 9H | 2S 3S 4S 5S 6S 7S | "
    "4D 5D *6D 7D 8D 9D | KH *KD KC | 2D 3D 4D 5D 6D / KD 9H 6D / tahiti",
    "4H | QD KD AD | 9S 9H 9C | 10S JS QS KS | 8S 8H 8D | AS AH AD AC | 7S 7D 7C | "
    "9S 9H 9D 9C | 3S 3H 3C | 4S 5S 6S | 7D 8D 9D 10D JD QD | 4C 5C 6C / 5S 4D JS KH 2H * * "
    "10C KC 10C / tahiti",
]


@pytest.mark.parametrize("text", BARRED_POSITIONS)
def test_barring_a_shared_jokers_name_certifies_two_free_tahiti_jokers(text):
    position = Position.parse(text)
    problem = Problem.from_position(position)
    assert why_not(problem) and certified(problem)
    answer = solve_position(position)
    assert answer.backend == "kernel" and answer.optimal
    assert answer.score == solved(position, "cards", "cpsat")
    assert play_problems(position, answer.played, answer.table) == []


@pytest.mark.parametrize("seed", [1, 2])
def test_barred_certificates_agree_with_cpsat(seed):
    """300 random tahiti positions a seed, two or three jokers: every position the kernel
    certifies (as found, a hand joker held back, or joker names barred) has CP-SAT's score
    and a valid play; some are certified only by barring names."""
    barred = checked = 0
    for _, position in two_or_three_joker_tahiti(seed, 300):
        problem = Problem.from_position(position)
        if not why_not(problem) or not certified(problem):
            continue
        barred += kernel_backend.BARRED in kernel_backend.solve(problem).stats  # certified
        answer = solve_position(position)
        assert answer.backend == "kernel" and answer.optimal
        assert answer.score == solved(position, "cards", "cpsat"), str(position)
        assert play_problems(position, answer.played, answer.table) == [], str(position)
        checked += 1
    assert checked >= 140 and barred >= 5


def freeing_positions(count, seed):
    """``count`` seeded tahiti positions (some skipped: too many copies or no locked group)
    whose hand holds a locked joker's real card and a joker, and whose table holds the other
    three cards of that real card's rank: the hand may free the joker, a hand joker held back
    may grow the set under the freed joker's name (docs/rules.md §8.3)."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        base = random_position(
            rng, f"tahiti:ace={('low', 'high', 'both')[i % 3]}", int(rng.integers(6, 40)),
            int(rng.integers(2, 9)), near=float(rng.uniform(0.5, 0.95)),
            jokers=int(rng.integers(1, 4)), jokers_on_table=1.0)
        problem = Problem.from_position(base)
        if not problem.locked or problem.table_jokers + problem.hand_jokers >= 4:
            continue
        table, hand, variant = str(base).split(" / ")
        name = problem.locked[int(rng.integers(len(problem.locked)))][0]
        trio = " ".join(str(CODES[suit * N_RANKS + name % N_RANKS]) for suit in range(N_SUITS)
                        if suit != name // N_RANKS)
        try:
            yield Position.parse(f"{table} | {trio} / {hand} {CODES[name]} * / {variant}")
        except ValueError:  # more copies of a card than the decks hold
            continue


def test_freed_tahiti_jokers_with_a_hand_joker_kernel_vs_cpsat():
    """Every freeing position the kernel answers (by its rules or certified) gets a valid
    play of CP-SAT's score from ``backend='kernel'`` itself, never CP-SAT's fallback."""
    checked = 0
    for position in freeing_positions(300, seed=7):
        if kernel_exact(position):
            assert solved(position, "cards", "kernel") == solved(position, "cards", "cpsat"), \
                str(position)
            checked += 1
    assert checked >= 120  # 154 of 163 positions
