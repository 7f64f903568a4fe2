"""Joker positions worked by hand (docs/rules.md §8), and the rules the validator enforces."""

import numpy as np
import pytest

from solver import (
    Position,
    kernel_backend,
    kernel_jokers,
    parse_cards,
    parse_groups,
    solve,
    solve_position,
)
from solver.cards import Card
from solver.errors import SolverError
from solver.kernel_backend import applies
from solver.problem import Problem
from solver.validate import play_problems

# (variant, table, hand, opened, best number of cards, why)
WORKED = [
    ("carousel", "5H 6H 7H", "*", True, 1,
     "a joker from the hand takes any name that fits: *4H or *8H extends the run"),
    ("carousel", "7S 7H 7D", "*", True, 1,
     "a joker completes a set as the missing suit, *7C"),
    ("carousel", "5H *6H 7H", "6H", True, 1,
     "the real 6H frees the joker, which re-enters at once under a new name (*4H or *8H)"),
    ("carousel", "*5H 6H 7H 8H", "5S 5D", True, 2,
     "a table joker may move to another group as the same card: 5S *5H 5D | 6H 7H 8H"),
    ("carousel", "5H *6H 7H", "8S 9S", True, 0,
     "without the real 6H the joker keeps its name, and 8S 9S need a third spade"),
    ("carousel", "5H *6H 7H | 6H 6S 6D 6C", "2C 3C", True, 2,
     "6H moves from the four-card set into the run, freeing the joker to be *4C: 2C 3C *4C"),
    ("carousel", "5H 6H 7H", "* *", True, 2,
     "carousel allows two jokers in one group: 5H 6H 7H *8H *9H"),
    ("vatican", "*5H 6H 7H 8H", "5S 5D", True, 0,
     "a vatican joker may not leave its neighbour 6H until a real 5H is on the table"),
    ("vatican", "*5H 6H 7H 8H", "5S 5D 5H", True, 3,
     "the real 5H frees the joker: 5H 6H 7H 8H and 5S 5D *5C"),
    ("vatican", "4H 5H *6H 7H 8H 9H 10H", "7S 7D", True, 2,
     "splitting the run keeps 5H beside the joker: 4H 5H *6H | 7S 7H 7D | 8H 9H 10H"),
    ("vatican", "-", "* 4C 5C", False, 0,
     "the opening run of three must be real hand cards, no joker"),
    ("vatican", "-", "4C 5C 6C *", False, 4,
     "after the real opening run, the joker may join it in the same play"),
    ("tahiti", "5H *6H 7H 8H", "8S 8D", True, 0,
     "a locked group gives up no card: 8H may not leave 5H *6H 7H 8H for the set"),
    ("tahiti", "5H *6H 7H", "4H 3H", True, 2,
     "a locked group may grow, but only from the hand: 3H 4H 5H *6H 7H"),
    ("tahiti", "5H *6H 7H | 6H 6S 6D 6C", "2C 3C", True, 0,
     "in tahiti only a 6H laid from the hand frees the joker, never the one on the table"),
    ("tahiti", "5H *6H 7H | 6S 6D 6C", "6H 2C 3C", True, 3,
     "6H from the hand frees the joker: 5H 6H 7H and 2C 3C *4C (or *AC)"),
    ("tahiti", "5H 6H 7H", "* *", True, 1,
     "a tahiti group holds one joker at most, and there is only one group"),
]


@pytest.mark.parametrize("variant, table, hand, opened, best, why", WORKED,
                         ids=[f"{case[0]}-{i}" for i, case in enumerate(WORKED)])
def test_worked_joker_positions(variant, table, hand, opened, best, why):
    position = Position.make(table, hand, variant, opened)
    backends = ["cpsat"] + (["kernel"] if applies(Problem.from_position(position)) else [])
    for backend in backends:
        solution = solve(position, backend=backend)
        assert solution.score == best, f"{backend}: {why}"
        assert play_problems(position, solution.played, solution.table) == [], why


def test_regression_a_locked_group_grows_only_from_cards_actually_played():
    # Found by bench/selfplay.py: CP-SAT grew QD *KD AD with the table's JD while the hand's
    # JD stayed in the hand (copies balance, but only hand cards may join a locked group).
    position = Position.parse(
        "2S 2H *2D 2C | QS QD QC | 8H 8D 8C | AH AD AC | JS JD JC | 4S 5S 6S 7S | "
        "5S *6S 7S 8S 9S | QS KS AS | 8H 8D 8C | 10S 10H 10D 10C | 5H 6H 7H | QD *KD AD | "
        "4C 5C 6C 7C / KH QC JD 3C 7H 4D 2S 9H / tahiti")
    solution = solve(position, backend="cpsat")
    assert solution.score == 3
    assert play_problems(position, solution.played, solution.table) == []


def test_kernel_covers_every_joker_rule():
    assert applies(Problem.from_position(Position.make("5H 6H 7H", "* *", "carousel")))
    assert applies(Problem.from_position(Position.make("5H *6H 7H", "6H", "carousel")))
    assert applies(Problem.from_position(Position.make("5H *6H 7H", "6H", "tahiti")))
    assert applies(Problem.from_position(Position.make("5H *6H 7H", "8H", "vatican")))
    assert applies(Problem.from_position(Position.make("5H *6H 7H", "8H *", "carousel")),
                   ) and applies(Problem.from_position(
                       Position.make("5H *6H 7H", "8H *", "vatican"), "points"))


def problems(variant, table, hand, played, new_table):
    position = Position.make(table, hand, variant)
    return play_problems(position, parse_cards(played), parse_groups(new_table))


def test_a_joker_may_not_change_name_without_its_real_card():
    found = problems("carousel", "5H *6H 7H | 9S 9D 9C", "8H", "8H", "5H *6H 7H 8H | 9S 9D 9C")
    assert found == []
    found = problems("carousel", "5H 6H 7H *8H | 9S 9D 9C", "4H", "4H",
                     "4H 5H 6H 7H | 9S 9D 9C *9H")
    assert any("new name" in reason for reason in found)


def test_tahiti_forbids_two_jokers_in_a_group():
    found = problems("tahiti", "5H 6H 7H", "* *", "* *", "5H 6H 7H *8H *9H")
    assert any("more than one joker" in reason for reason in found)


def test_tahiti_locked_group_takes_no_table_card():
    found = problems("tahiti", "5H *6H 7H | 8S 8H 8D 8C", "9H", "9H",
                     "5H *6H 7H 8H 9H | 8S 8D 8C")
    assert any("locked" in reason for reason in found)
    assert problems("tahiti", "5H *6H 7H | 8S 8D 8C", "8H", "8H", "5H *6H 7H 8H | 8S 8D 8C") == []


def test_vatican_joker_stays_with_a_neighbour():
    found = problems("vatican", "*5H 6H 7H 8H | 9S 9D 9C", "5S 5D", "5S 5D",
                     "5S *5H 5D | 6H 7H 8H | 9S 9D 9C")
    assert any("next to" in reason for reason in found)


def test_table_jokers_must_be_named_and_hand_jokers_stay_unnamed():
    found = problems("carousel", "5H 6H 7H", "*", "*", "5H 6H 7H *")
    assert any("named" in reason for reason in found)
    with pytest.raises(ValueError, match="written"):
        Position.make("5H 6H 7H", "*8H", "carousel")


# A tahiti position found by planner6's 200-game run: 6S frees *6S, copies lay the freed
# joker and the hand joker in 10H *JH *QH (not certified), and with the hand joker held back
# the kernel plays 7 cards; it used to lay the held joker as *6S in 6H 6D 6C, which reads as
# the freed joker keeping its name (its group then locked: docs/rules.md §8.3).
TWO_JOKERS_ONE_GROUP = (
    "JC | 10H 10D 10C | QS QD QC | 9S 10S JS | 4S 5S *6S 7S | 6C 7C 8C 9C | 6H 6D 6C | "
    "7D 8D 9D | 3S 3H 3D | 2C 3C 4C | 2S 2H 2D | 3H 4H 5H 6H 7H 8H / 5S * AC 4D 10H AH AS 6S"
    " / tahiti")


def test_a_held_back_joker_is_never_named_like_a_freed_joker():
    _kernel_plays_with_no_joker_named(TWO_JOKERS_ONE_GROUP, 8, "6S")


def _kernel_plays_with_no_joker_named(text: str, score: int, name: str) -> None:
    """``backend`` kernel and auto answer ``text`` with the kernel, a valid play of CP-SAT's
    ``score``, and no joker of it names ``name``."""
    position = Position.parse(text)
    cpsat = solve_position(position, backend="cpsat")
    for backend in ("kernel", "auto"):
        answer = solve_position(position, backend=backend)
        assert answer.score == cpsat.score == score and answer.backend == "kernel"
        assert not play_problems(position, answer.played, answer.table)
        assert all(card.real != Card.parse(name) for group in answer.table
                   for card in group if card.joker)


def test_auto_answers_with_cpsat_when_the_kernels_play_fails_the_check(monkeypatch):
    # The old bug brought back: the held-back joker may take the freed joker's name again.
    unbarred = kernel_jokers.with_one_more_joker
    monkeypatch.setattr(kernel_jokers, "with_one_more_joker",
                        lambda groups, lengths, ace, barred_names=frozenset():
                        unbarred(groups, lengths, ace))
    position = Position.parse(TWO_JOKERS_ONE_GROUP)
    answer = solve_position(position)
    assert answer.score == 8 and answer.backend == "cpsat"
    assert not play_problems(position, answer.played, answer.table)
    with pytest.raises(SolverError):
        solve_position(position, backend="kernel")


# Ace high: the locked group's joker names AS; a spades run 2S .. KS can only grow at its top,
# by a joker on the ace-high slot, which is named AS too.
ACE_HIGH_LOCKED = "QS KS *AS | 2S 3S 4S / AS * / tahiti:ace=high"


def test_a_held_back_joker_is_never_named_like_a_freed_ace_high_joker():
    """``with_one_more_joker`` on ace high: the ace-high slot's joker and the locked group's
    ``*AS`` compare as the same name, so the run 2S .. KS is not grown by ``*AS`` (its one
    way up) while that name is barred, and is when it is not; the kernel's play of the
    position frees ``*AS`` and names no joker AS."""
    problem = Problem.from_position(Position.parse(ACE_HIGH_LOCKED))
    locked_names = frozenset(name for name, _ in problem.locked)
    assert locked_names == {Card.parse("AS").index}
    run = [Card.parse(f"{rank}S").index for rank in (*range(2, 11), "J", "Q", "K")]
    groups = np.array([run], dtype=np.int64)
    lengths = np.array([len(run)], dtype=np.int64)
    assert kernel_jokers.with_one_more_joker(groups, lengths, "high", locked_names) is None
    grown, grown_lengths = kernel_jokers.with_one_more_joker(groups, lengths, "high")
    assert grown_lengths.tolist() == [13]
    assert Card.from_code(int(grown[0, 12])) == Card.parse("*AS")
    _kernel_plays_with_no_joker_named(ACE_HIGH_LOCKED, 2, "AS")


# From bench.joker_games --seed 99: the hand's 9D and JS may free *9D and *JS, so ten tahiti
# branches, all with the same ceiling (21). The branch that frees both answers 21 in a few
# hundred nodes; searched last, after nine branches each proving it cannot beat the best so
# far, the position took 9,367 nodes over its branches.
TEN_BRANCHES = Position.parse(
    "8D *9D 10D | 5S 5D 5C | QS QH QC | 2S 2H 2D | 2S 2H 2C | 7H 8H 9H 10H JH | "
    "10S 10H 10D 10C | QD KD AD | QC KC AC | 8S 9S 10S *JS QS KS | 5S 5H 5D | 3H 3D 3C | "
    "4S 4H 4D 4C | 4H 5H 6H 7H 8H | 4C 5C 6C / KC 9D 8D JH 3S 9D 7C AS 3D 6D KS 6H 8S 10C "
    "JS AS 4D 6C 7S 7S QH / tahiti")


def test_tahiti_branches_with_more_free_jokers_go_first_among_equal_ceilings():
    problem = Problem.from_position(TEN_BRANCHES)
    assert len(kernel_jokers.inputs(problem)) == 10
    before = kernel_backend.nodes_expanded()
    answer = solve_position(TEN_BRANCHES, backend="auto")
    assert answer.backend == "kernel" and answer.score == 21
    assert kernel_backend.nodes_expanded() - before < 2_000
    assert solve_position(TEN_BRANCHES, backend="cpsat").score == 21


# From bench.joker_games --seed 2718: an unopened vatican hand of 25 cards whose first play
# must hold a run of its own (docs/rules.md §6); three such runs, and the first one's search
# lays the whole hand.
UNOPENED_VATICAN = Position.parse(
    "2S 2H 2C | *AH AD AC | 4S 4H 4C | 3H 3D 3C | 5H 5D 5C | 7H 7D 7C | "
    "2S 3S 4S 5S 6S 7S 8S 9S | AS *AH AC | JS JH JD | 8H 9H 10H | 3D 4D 5D 6D 7D 8D 9D 10D | "
    "QD KD AD / 6S 4H 6C 9H 2H 6D 9C 7H KS 5S 10H 10S KH AH QC 10D 9S JD AS AH KS 10C 3H KC "
    "QD / vatican / unopened")


def test_an_opening_runs_search_must_beat_the_runs_before_it(monkeypatch):
    """One search per run the opening may hold, each looking only for more than the best so
    far: once a run's search lays the whole hand, the other runs are not searched."""
    problem = Problem.from_position(UNOPENED_VATICAN)
    assert len(problem.hand_runs()) == 3
    searched = []
    search = kernel_backend._search
    monkeypatch.setattr(kernel_backend, "_search",
                        lambda *args, **kwargs: searched.append(1) or search(*args, **kwargs))
    answer = kernel_backend.solve(problem)
    assert answer.score == 25 and answer.optimal and len(searched) == 1
    monkeypatch.undo()
    assert solve_position(UNOPENED_VATICAN, backend="cpsat").score == 25
