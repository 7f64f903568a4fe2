"""Tahiti's flagged run automaton (one joker per run) and the groups laid from it."""

from itertools import product

import numpy as np
import pytest

from solver import (
    Position,
    automaton,
    automaton_flagged,
    kernel_backend,
    kernel_jokers,
    solve_position,
)
from solver.automaton import sets_needed
from solver.constants import JOKER_CODE, N_SUITS
from solver.errors import SolverError
from solver.flagged_decode import _sets
from solver.kernel_jokers import free_jokers
from solver.problem import Problem
from solver.validate import play_problems
from tests.test_joker_agreement import two_or_three_joker_tahiti


@pytest.mark.parametrize("copies, wild", [(2, 2), (3, 2)])
def test_the_shipped_tables_are_the_ones_built_here(copies, wild):
    shipped = automaton_flagged._shipped()
    built = automaton_flagged.build(copies, wild)
    for name, table in zip(("init", "delta", "accept"), built, strict=True):
        assert np.array_equal(shipped[f"{copies}_{wild}_{name}"], table), name


def _nfa_accepts(copies: int, wild: int, word: list[tuple[int, int]],
                 ace: tuple[int, int, int, int]) -> bool:
    """The nondeterministic automaton's verdict on ``word`` after the ace ``ace``."""
    states = {automaton_flagged.start(*ace)}
    for r, j in word:
        states = {after for state in states for after in automaton_flagged._step(
            state, r, j, wild)}
    return any(automaton_flagged._accepts(state) for state in states)


def _dfa_accepts(tables, copies: int, word: list[tuple[int, int]],
                 ace: tuple[int, int, int, int]) -> bool:
    init, delta, accept = tables
    q = init[automaton_flagged.init_index(copies, *ace)]
    for r, j in word:
        if q < 0:
            return False
        q = delta[q, r, j]
    return bool(q >= 0 and accept[q])


def _laid_suit(rng, copies: int, wild: int):
    """A random suit laid as runs, at most ``copies`` cards and ``wild`` jokers a rank, each
    run with at most one joker: ``(word, ace)`` as the automaton reads it (accepted)."""
    cover, jokers = np.zeros(13, dtype=int), np.zeros(13, dtype=int)
    low = [0, 0]  # low aces, jokers among them
    high = [0, 0]  # high aces, jokers among them
    for _ in range(int(rng.integers(0, copies + 1))):
        start = int(rng.integers(0, 11))
        length = int(rng.integers(3, 14 - start))
        if (cover[start:start + length] >= copies).any():
            continue
        cover[start:start + length] += 1
        joker = -1
        if jokers.sum() + high[1] + low[1] < wild and rng.random() < 0.5:
            joker = start + int(rng.integers(0, length))
            jokers[joker] += 1
        if start == 0:
            low[0] += 1
            low[1] += joker == 0
        if start + length == 13 and start > 0 and high[0] < copies and rng.random() < 0.5:
            high[0] += 1
            if joker < 0 and jokers.sum() + high[1] + low[1] < wild and rng.random() < 0.5:
                high[1] += 1
    word = [(int(cover[t]), int(jokers[t])) for t in range(1, 13)]
    return word, (low[0], high[0], low[1], high[1])


@pytest.mark.parametrize("copies, wild", [(4, 2), (5, 3)])
def test_the_minimal_automaton_decides_as_the_nondeterministic_one(copies, wild):
    """Random suits laid as runs (accepted), half of them with one symbol changed (mostly
    not): the shipped tables and the nondeterministic automaton agree on every one."""
    tables = automaton_flagged.flagged_run_automaton(copies, wild)
    rng = np.random.default_rng(copies)
    verdicts = {True: 0, False: 0}
    for i in range(1500):
        word, ace = _laid_suit(rng, copies, wild)
        if i % 2:
            t = int(rng.integers(0, 12))
            r = int(rng.integers(0, copies + 1))
            word[t] = (r, int(rng.integers(0, min(r, wild) + 1)))
        verdict = _nfa_accepts(copies, wild, word, ace)
        assert _dfa_accepts(tables, copies, word, ace) == verdict, (word, ace)
        assert verdict or i % 2, (word, ace)  # a laid suit is accepted
        verdicts[verdict] += 1
    assert verdicts[True] >= 700 and verdicts[False] >= 300


def _few(copies: int) -> np.ndarray:
    weights = np.array([4.0, 4.0, 2.0] + [0.5] * (copies - 2))
    return weights / weights.sum()


@pytest.mark.parametrize("copies, wild", [(3, 2), (4, 3)])
def test_without_jokers_it_is_the_plain_automaton(copies, wild):
    """Read with joker-free symbols from a joker-free ace, the flagged automaton accepts
    what the plain one does: the kernel's bounds read those symbols only."""
    flagged = automaton_flagged.flagged_run_automaton(copies, wild)
    init, delta, accept = automaton.run_automaton(copies)
    rng = np.random.default_rng(7)
    for _ in range(1000):
        r0, g = (int(v) for v in rng.integers(0, 2, size=2))
        word = [(int(rng.choice(copies + 1, p=_few(copies))), 0) for _ in range(12)]
        q = init[r0, g]
        for r, _ in word:
            q = delta[q, r, 0] if q >= 0 else -1
        plain = bool(q >= 0 and accept[q])
        assert _dfa_accepts(flagged, copies, word, (r0, g, 0, 0)) == plain


def test_set_jokers_up_to_a_third_of_the_set_cards_always_deal_one_per_set():
    """The kernel lets a rank's sets hold at most a third of its set cards in jokers
    (``kernel._combine``): every such split deals with no set holding two."""
    for k in product(range(6), repeat=N_SUITS):
        if sets_needed(k) < 0:
            continue
        for zs in product(*(range(min(v, 3) + 1) for v in k)):
            if sum(zs) > sum(k) // 3:
                continue
            sets = _sets(4, k, zs)
            assert all(sum(code >= JOKER_CODE for code in group) <= 1 for group in sets)
            assert all(3 <= len(group) <= 4 for group in sets)
            assert sorted(code % JOKER_CODE // 13 for group in sets for code in group) == \
                sorted(s for s in range(N_SUITS) for _ in range(k[s]))


def test_set_jokers_that_cannot_be_dealt_raise():
    with pytest.raises(SolverError):
        _sets(4, (1, 1, 1, 0), (1, 1, 0, 0))


# From bench.joker_games (seed 99): the plays found with jokers as copies put two jokers in
# one group, and neither holding a hand joker back nor barring joker names certified them.
FLAGGED_POSITIONS = [
    "KS | KH | 2D 3D 4D | 6D *7D 8D / 8C 2S 5C * 4C 7D / tahiti",
    "2D 3D 4D | KS KH KD | 3H 4H *5H | 6D *7D 8D 9D / 8C 2S 5C * 4C 7D JC 7S 6H / tahiti",
    "6S | 5D | AC | 9S 10S JS *QS / QS 5S 2S 10C 8D * / tahiti",
    "5D | AC | 9S 10S JS QS *KS | 4S 5S 6S *7S 8S / 4C QH 6H * 2H KS / tahiti",
    "8D | 8C | 4S 5S *6S | 2H 3H 4H 5H | 2S 2H 2D 2C / * QH 5C 8S * 7C * / tahiti",
]


@pytest.mark.parametrize("text", FLAGGED_POSITIONS)
def test_the_flagged_search_answers_what_the_certificates_could_not(text):
    position = Position.parse(text)
    problem = Problem.from_position(position)
    assert kernel_backend.why_not(problem) and kernel_backend.certified(problem)
    assert kernel_backend.solve(problem).stats.get(kernel_backend.FLAGGED) == 1.0
    answer = solve_position(position)
    assert answer.backend == "kernel" and answer.optimal
    assert answer.score == solve_position(position, backend="cpsat").score
    assert play_problems(position, answer.played, answer.table) == []


@pytest.mark.parametrize("seed", [3, 4])
def test_two_or_three_free_jokers_are_always_certified_and_agree_with_cpsat(seed):
    """Random tahiti positions with two or three jokers free to move: the kernel answers
    every one (certified, or by the flagged search), with CP-SAT's score and a valid play,
    on both objectives; some need the flagged search."""
    checked = flagged = 0
    for i, position in two_or_three_joker_tahiti(seed, 160):
        objective = ("cards", "points")[i % 2]
        problem = Problem.from_position(position, objective)
        if not 2 <= free_jokers(problem) <= automaton_flagged.MOST_WILD:
            continue
        assert kernel_backend.certified(problem), str(position)
        flagged += kernel_backend.FLAGGED in kernel_backend.solve(problem).stats
        answer = solve_position(position, objective)
        assert answer.backend == "kernel" and answer.optimal
        assert answer.score == solve_position(position, objective, "cpsat").score, \
            str(position)
        assert play_problems(position, answer.played, answer.table) == [], str(position)
        checked += 1
    assert checked >= 80 and flagged >= 1


def _logged_searches(monkeypatch) -> list[tuple[int, bool, int | None, int]]:
    """Patch ``kernel_backend._search`` to log each search: (free jokers, flagged asked,
    score found or None, nodes)."""
    searched = []
    search = kernel_backend._search

    def logged(problem, branch, node_limit, floor=kernel_backend.NO_SCORE, flagged=False,
               ceiling=kernel_backend.NO_CEILING):
        before = kernel_backend.nodes_expanded()
        answer = search(problem, branch, node_limit, floor, flagged, ceiling)
        searched.append((branch.wild, flagged, None if answer is None else answer.score,
                         kernel_backend.nodes_expanded() - before))
        return answer

    monkeypatch.setattr(kernel_backend, "_search", logged)
    return searched


# From bench.joker_games --seed 777: 3C, 9H and AC free three locked jokers; the plays found
# with jokers as copies reach 13 (every hand card) only with two jokers in one group, and
# the best play is 12. Of its eight branches, two with two free jokers (and every branch with
# one or none) showed in that first search that they cannot reach 13.
SEED_777_TAHITI = Position.parse(
    "3H 3D *3C | 8H 8D 8C | 7S 7D 7C | 7H 7D 7C | 9S 10S JS *QS KS AS | QH QD QC | "
    "JH JD JC | 9S *9H 9D 9C | AS AH AD *AC | 3S 4S 5S 6S | 2S 2H 2D 2C | KS KH KD KC / "
    "10H 4C 3C 6D 8C AC AC 6H 9H 5S 10C 3H 8D / tahiti")


def test_branches_the_copies_ruled_out_are_not_searched_again(monkeypatch):
    """The barred-name and flagged searches skip the branches whose search with jokers as
    copies (a relaxation of both) proved they cannot reach the ceiling; the answer stays
    exact."""
    problem = Problem.from_position(SEED_777_TAHITI)
    assert len(kernel_jokers.inputs(problem)) == 8
    searched = _logged_searches(monkeypatch)
    assert kernel_backend.certified(problem)
    answer = kernel_backend.solve(problem)
    assert answer.score == 12 and answer.stats.get(kernel_backend.FLAGGED) == 1.0
    copies, rest = searched[:8], searched[8:]
    assert [wild for wild, *_ in copies] == [3, 2, 2, 2, 1, 1, 1, 0]
    # the first reaches 13 with two jokers in a group: the others look for a tie laid one
    # joker per group (``kernel_backend._tie``), which the two-joker branches' flagged
    # automaton keeps, and find none
    assert [flagged for _, flagged, *_ in copies] == [False] + [True] * 7
    barred = [s for s in rest if not s[1]]
    flagged = [s for s in rest if s[1]]
    assert len(barred) == 2 and {wild for wild, *_ in barred} == {3}
    # of 8: the two-joker branch proved in its tie search that it cannot reach 13
    assert [wild for wild, *_ in flagged] == [3]
    monkeypatch.undo()
    assert solve_position(SEED_777_TAHITI, backend="cpsat").score == 12


# From bench.joker_games --seed 8086: the two 2H free two locked jokers; with jokers as
# copies every hand card goes (10), two jokers in one run; the best play is 9.
SEED_8086_TAHITI = Position.parse(
    "2S *2H 2D 2C | AS AH AC | AS AH AD AC | 9S 9H 9C | 10S JS QS KS | KS KH KC | "
    "9H 10H JH QH | 8C 9C 10C JC QC | 3S 4S 5S | 6S 6H 6C | 5D 6D 7D 8D 9D 10D | "
    "2S *2H 2D 2C | 9D 10D JD QD KD AD / 10S 4D 3H 5C 2H 2H 5H JC 6H QC / tahiti")


def test_two_free_jokers_go_straight_to_the_flagged_search(monkeypatch):
    """A branch with two free jokers is not searched again with joker names barred: its
    flagged search answers exactly, and a barred-name search that finds nothing would
    leave it to that search anyway (two such searches took longer than it on this hand)."""
    problem = Problem.from_position(SEED_8086_TAHITI)
    searched = _logged_searches(monkeypatch)
    assert kernel_backend.certified(problem)
    answer = kernel_backend.solve(problem)
    assert answer.score == 9 and answer.stats.get(kernel_backend.FLAGGED) == 1.0
    assert kernel_backend.BARRED not in answer.stats
    wild_two = [flagged for wild, flagged, *_ in searched if wild == 2]
    assert wild_two == [False, True]  # the copies' search, then the flagged one: no barring
    monkeypatch.undo()
    assert solve_position(SEED_8086_TAHITI, backend="cpsat").score == 9


# From bench.joker_games' harvest of seed 1234 (tahiti): every branch can lay the whole hand
# (14 cards) with jokers as copies, the first three only with two jokers in one group.
SEED_1234_WHOLE_HAND = Position.parse(
    "5H 5D 5C | 6S 7S 8S 9S 10S | 7C 8C 9C *10C JC QC KC AC | 7S 7H 7D | 8H 8D 8C | AS AH AD | "
    "AH 2H 3H 4H | 3H 4H 5H 6H | 2C 3C 4C | 4C 5C 6C | QC KC AC | AS 2S 3S 4S 5S 6S | "
    "9H *10H JH | 2S 2H 2D 2C | 2D 3D 4D 5D 6D | 6D 7D 8D 9D 10D JD QD KD / "
    "8H QH 3C JD * * 4S JC 3S QH 6C 10C 8S AD / tahiti")
# From the same harvest: the copies reach 7 only with two jokers in one group; barred names
# find nothing, and the flagged search's best is 6.
SEED_1234_PROBED = Position.parse(
    "9S 9H 9D 9C | 10S 10H 10C | 7C 8C 9C | 5S 5H 5D 5C | KS KH KD | QH QD QC | 3S 3H 3D | "
    "8D 9D 10D JD QD | 4H 4D 4C | 5H 6H 7H 8H | AD 2D 3D | 5D 6D 7D 8D | AS AH AD | "
    "JH JD JC | 8H 9H 10H | QC KC AC / 3H 2S AH * 10S KS * * / tahiti")


def test_a_tie_is_looked_for_with_one_joker_per_group(monkeypatch):
    """Once a branch's best shares a group between two jokers, the next looks for a tie
    with the flagged automaton (``kernel_backend._tie``): the first it finds keeps the rule
    and ends the search, where plain ties found plays sharing a group again (7,726 nodes
    over four branches before)."""
    searched = _logged_searches(monkeypatch)
    answer = kernel_backend.solve(Problem.from_position(SEED_1234_WHOLE_HAND))
    monkeypatch.undo()
    assert answer.score == 14 and answer.optimal
    assert answer.stats[kernel_backend.ONE_JOKER_PER_GROUP] == 1.0
    assert [flagged for _, flagged, _, _ in searched] == [False, True]
    assert searched[1][2] == 14 and sum(nodes for *_, nodes in searched) < 4_000
    solution = solve_position(SEED_1234_WHOLE_HAND)
    assert solution.backend == "kernel" and solution.score == 14
    assert play_problems(SEED_1234_WHOLE_HAND, solution.played, solution.table) == []
    assert solve_position(SEED_1234_WHOLE_HAND, backend="cpsat").score == 14


def test_a_barred_name_search_is_a_probe_when_the_flagged_search_covers(monkeypatch):
    """Where every branch with two free jokers or more takes the flagged automaton, a
    barred-name search that finds nothing stops within ``BARRED_PROBE_WORK`` (it took over
    4,000 nodes here before), and the flagged search answers exactly."""
    problem = Problem.from_position(SEED_1234_PROBED)
    assert kernel_backend._flagged_covers(problem)
    searched = _logged_searches(monkeypatch)
    answer = kernel_backend.solve(problem) if kernel_backend.certified(problem) else None
    monkeypatch.undo()
    assert answer is not None and answer.score == 6
    assert answer.stats.get(kernel_backend.FLAGGED) == 1.0
    barred = [nodes for wild, flagged, score, nodes in searched if wild == 3 and not flagged
              and score != 7]  # the copies' own search found 7; a capped one, nothing
    assert len(barred) == 2 and all(nodes < kernel_backend.BARRED_PROBE_WORK for nodes in barred)
    assert solve_position(SEED_1234_PROBED, backend="cpsat").score == 6


def test_a_search_stops_at_the_ceiling_its_caller_proved():
    """Given the most a branch can score (``ceiling``, here its own exact answer), the
    search stops at the first play worth it instead of trying to beat it: the same answer,
    still optimal, in fewer nodes."""
    position = Position.parse("10D | 7S | 9S *9D 9C | 4C 5C 6C | AS AH AD AC | 2C *3C 4C / "
                              "6D 4D KD 5S AH * 8H 9D 2H 3D 4S AS 5D 3H / tahiti")
    problem = Problem.from_position(position)
    branch = next(b for b in kernel_jokers.inputs(problem) if b.wild == 2)
    nodes = []
    for ceiling in (kernel_backend.NO_CEILING, 12):
        before = kernel_backend.nodes_expanded()
        answer = kernel_backend._search(problem, branch, 0, ceiling=ceiling)
        nodes.append(kernel_backend.nodes_expanded() - before)
        assert answer is not None and answer.score == 12 and answer.optimal
    assert nodes[1] < nodes[0]
