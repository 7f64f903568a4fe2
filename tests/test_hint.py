"""Hints: a best play that changes the fewest table groups, told as steps."""

from __future__ import annotations

import importlib
from itertools import combinations

import numpy as np
import pytest

from solver import Position, solve
from solver.generate import random_position
from solver.hint import changed_groups, hint, hint_position
from solver.reference import best_value

HINT = importlib.import_module("solver.hint")


def fewest_changed(position: Position, best: int) -> int:
    """Brute force: the smallest set of table groups that, taken up with the whole hand,
    still reaches ``best`` while every other group lies untouched."""
    groups = list(position.table)
    for size in range(len(groups) + 1):
        for chosen in combinations(range(len(groups)), size):
            sub = Position.make([groups[i] for i in chosen], position.hand, position.variant)
            if best_value(sub) == best:
                return size
    raise AssertionError("the whole table always reaches the best value")


def small_positions(count: int, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        ace = ["low", "high", "both"][int(rng.integers(3))]
        yield random_position(rng, f"machiavelli:ace={ace}", int(rng.integers(3, 13)),
                              int(rng.integers(2, 6)), near=0.8)


@pytest.mark.parametrize("seed", range(4))
def test_hint_is_best_and_changes_fewest_groups(seed):
    checked = 0
    for position in small_positions(25, seed):
        result = hint_position(position)
        best = best_value(position)
        assert result.solution.score == best, position
        if best == 0:
            assert result.changed_groups == [] and not result.solution.played
            continue
        assert len(result.changed_groups) == fewest_changed(position, best), position
        # every group the hint does not list lies unchanged on the new table
        assert changed_groups(position.table, result.solution.table)[0] == result.changed_groups
        checked += 1
    assert checked >= 5  # the generator gives positions with a play


def test_worked_example_1_changes_one_group():
    result = hint("5C 6C 7C 8C", "8D 8H")
    assert sorted(map(str, result.solution.played)) == ["8D", "8H"]
    assert result.changed_groups == [1]
    assert result.steps[0] == "take 8C from group 1"
    assert any(step.startswith("make ") and "your 8H 8D" in step for step in result.steps)
    assert result.rearranges
    assert result.short() == "8H can be played; groups changed: 1; needs a rearrangement"


def test_prefers_growing_a_group_to_rearranging():
    # 8C fits on group 1 as it lies, or in a set with 8H and 8D taken from groups 2 and 3
    result = hint("5C 6C 7C | 8H 9H 10H JH | 8D 9D 10D JD", "8C")
    assert result.changed_groups == [1]
    assert result.steps == ["add your 8C to group 1: 5C 6C 7C 8C"]
    assert not result.rearranges
    assert "no rearrangement needed" in result.short()


def test_fewer_cards_picked_up_breaks_ties():
    # 7C joins group 1 (3 cards) or group 2 (4 cards): both change one group
    result = hint("4C 5C 6C | 8C 9C 10C JC", "7C")
    assert result.changed_groups == [1]
    assert result.picked_up == 3


def test_nothing_to_play():
    result = hint("6C 7C 8C", "8D 8H")
    assert not result.solution.played and result.changed_groups == []
    assert str(result) == "no card can be played: draw"


def test_json_form():
    data = hint("5C 6C 7C 8C", "8D 8H").to_json()
    assert data["changed_groups"] == [1] and data["score"] == 2
    assert sorted(data["played"]) == ["8D", "8H"]
    assert data["steps"] and data["short"].startswith("8H")


@pytest.mark.parametrize("variant,jokers", [("guadalupe", 2), ("vatican", 2), ("tahiti", 2),
                                            ("carousel", 2)])
def test_hint_with_jokers_reaches_the_best(variant, jokers):
    rng = np.random.default_rng(7)
    for _ in range(15):
        position = random_position(rng, variant, int(rng.integers(6, 20)),
                                   int(rng.integers(3, 8)), jokers=jokers)
        result = hint_position(position)
        assert result.solution.score == solve(position).score, position


def _disturbance(position: Position, table) -> tuple[int, int]:
    changed, picked_up = changed_groups([g for g in position.table if len(g) > 1], table)
    return len(changed), picked_up


def _cpsat_hints_agree(variant: str, seed: int, first, second) -> None:
    """CP-SAT's hints agree on value, groups changed and cards picked up on 12 random
    positions of ``variant`` (no, one or two jokers), made with the module set up by
    ``first(module)`` and then by ``second(module)``; at least 6 play."""
    module = importlib.import_module("solver.hint")
    rng = np.random.default_rng(seed)
    played = 0
    for i in range(12):
        position = random_position(rng, variant, int(rng.integers(20, 96)),
                                   int(rng.integers(3, 10)), jokers=(0, 1, 2)[i % 3],
                                   near=0.8)
        first(module)
        one = hint_position(position, backend="cpsat")
        second(module)
        other = hint_position(position, backend="cpsat")
        assert one.solution.score == other.solution.score, position
        assert (_disturbance(position, one.solution.table)
                == _disturbance(position, other.solution.table)), position
        played += bool(one.solution.played)
    assert played >= 6


@pytest.mark.parametrize("variant", ["machiavelli", "carousel", "guadalupe", "vatican"])
def test_the_cpsat_hint_without_presolve_keeps_the_answer(variant, monkeypatch):
    """CP-SAT's hint model runs without presolve (``solver.hint.CPSAT_PRESOLVE``): the same
    value, groups changed and cards picked up as with it, table jokers and full tables
    included (where no kernel search cross-checks CP-SAT)."""
    _cpsat_hints_agree(variant, 31,
                       lambda module: monkeypatch.setattr(module, "CPSAT_PRESOLVE", False),
                       lambda module: monkeypatch.setattr(module, "CPSAT_PRESOLVE", True))


@pytest.mark.parametrize("variant", ["machiavelli", "carousel", "tahiti", "vatican"])
def test_the_cpsat_hints_symmetry_breaking_keeps_the_answer(variant, monkeypatch):
    """CP-SAT's hint model lays a table group's cards as an ordinary candidate only when that
    group is kept, and keeps the first of two identical groups first
    (``solver.hint._keep_before_copying``): the same value, groups changed and cards picked
    up as without those constraints, with jokers, locked groups and two decks."""
    breaking = importlib.import_module("solver.hint")._keep_before_copying
    _cpsat_hints_agree(
        variant, 53,
        lambda module: monkeypatch.setattr(module, "_keep_before_copying", breaking),
        lambda module: monkeypatch.setattr(module, "_keep_before_copying",
                                           lambda cpsat, keepable: None))


@pytest.mark.parametrize("text, changed, picked_up", [
    ("8H 9H 10H | 8H 9H 10H / 7H", [2], 3),
    ("8H 9H 10H | 8H 9H 10H / 5S 5D 5C", [], 0),
    ("5S 5D 5C | 5S 5D 5C / 5H 5H", [1, 2], 6),
])
def test_the_cpsat_hint_keeps_twice_laid_groups(text, changed, picked_up):
    """Two identical table groups: the CP-SAT hint keeps one and grows the other (reported
    as the second), lays the hand's own copies anew, or grows both."""
    result = hint(Position.parse(text), backend="cpsat")
    assert (result.changed_groups, result.picked_up) == (changed, picked_up)


@pytest.mark.parametrize("cap", [1, 300])
def test_a_capped_kernel_hint_goes_to_cpsat_without_solving_again(cap, monkeypatch):
    """A kernel search stopped at its cap (``LEX_WORK``) hands CP-SAT its own play (its best
    so far, or the kernel's best play) instead of solving the position again: the same
    value, groups changed and cards picked up as CP-SAT's hint, with ``solve`` unused."""
    module = importlib.import_module("solver.hint")
    rng = np.random.default_rng(47)
    cases = []
    for _ in range(8):
        position = random_position(rng, "machiavelli", int(rng.integers(50, 90)),
                                   int(rng.integers(4, 10)), near=0.8)
        cases.append((position, hint_position(position, backend="cpsat")))

    def no_solve(*args, **kwargs):
        raise AssertionError("the position was solved again")

    monkeypatch.setattr(module, "LEX_WORK", cap)
    monkeypatch.setattr(module, "solve_position", no_solve)
    handed = 0
    for position, theirs in cases:
        if not theirs.solution.played:
            continue
        mine = hint_position(position)
        handed += mine.solution.backend == "cpsat"
        assert mine.solution.score == theirs.solution.score, position
        assert (_disturbance(position, mine.solution.table)
                == _disturbance(position, theirs.solution.table)), position
    assert handed >= 4


def test_changed_groups_reads_cards_parsed_anew_and_texts_alike():
    """Groups of the shared ``Card`` objects, of cards parsed anew (other objects, one of
    them a hand joker) and of card texts give the same changed groups."""
    from solver.cards import CODE_CARDS, CODE_OF, Card
    old = [["5C", "6C", "7C"], ["8S", "8D", "8H"], ["8S", "8D", "8H"], ["*", "2H", "3H"]]
    new = [["8H", "8S", "8D"], ["4C", "5C", "6C", "7C"], ["3H", "*", "2H"]]
    want = ([1, 3], 6)

    def shared(groups):
        return [[CODE_CARDS[CODE_OF[text]] for text in group] for group in groups]

    def fresh(groups):
        return [[Card.parse(text) for text in group] for group in groups]

    assert changed_groups(old, new) == want
    for old_cards, new_cards in [(shared(old), shared(new)), (shared(old), fresh(new)),
                                 (fresh(old), shared(new)), (fresh(old), fresh(new)),
                                 (shared(old), new)]:
        assert changed_groups(old_cards, new_cards) == want


def test_changed_groups_on_arrays_is_the_counter_of_sorted_codes():
    """``changed_groups`` of shared ``Card``s (matched on arrays, ``_unmatched``) gives what
    cards parsed anew give (a ``Counter`` of sorted code tuples), on the tables of real hints
    and on shuffled copies with groups twice and groups taken out."""
    from solver.cards import Card
    rng = np.random.default_rng(5)
    compared = 0
    for position in small_positions(40, 9):
        new = list(hint_position(position).solution.table)
        old = list(position.table)
        for _ in range(3):
            mixed = [tuple(rng.permutation(np.array(group, dtype=object)))
                     for group in new + old[: int(rng.integers(0, len(old) + 1))]]
            mixed = [mixed[i] for i in rng.permutation(len(mixed))][: int(rng.integers(
                0, len(mixed) + 1))]
            fresh = [[Card.parse(str(card)) for card in group] for group in mixed]
            assert changed_groups(old, mixed) == changed_groups(old, fresh), position
            compared += 1
    assert compared == 120


@pytest.mark.parametrize("seed, smallest, largest", [(3, 3, 13), (4, 20, 60), (6, 60, 101)])
def test_the_hints_steps_on_arrays_are_explains(seed, smallest, largest):
    """A hint's changed groups and steps, read on arrays (``_explained``), are those of
    ``changed_groups`` and ``explain`` on the cards, singles on the table and every ace mode
    included, from the kernel's hints and CP-SAT's."""
    rng = np.random.default_rng(seed)
    explained = 0
    for i in range(24):
        ace = ("low", "high", "both")[i % 3]
        position = random_position(rng, f"machiavelli:ace={ace}",
                                   int(rng.integers(smallest, largest)),
                                   int(rng.integers(2, 10)), singles=int(i % 4 == 3) * 2,
                                   near=0.8)
        for backend in ("auto", "cpsat"):
            result = hint_position(position, backend=backend)
            if not result.solution.played:
                continue
            changed, picked_up = changed_groups(position.table, result.solution.table)
            assert (result.changed_groups, result.picked_up) == (changed, picked_up), position
            assert result.steps == HINT.explain(position, result.solution), position
            explained += 1
    assert explained >= 24


def test_cpsat_keep_hints_count_a_twice_laid_group_once():
    """CP-SAT's keep hints (``_survivors``): a table group lying twice is kept twice only
    when the play lays it twice."""
    from dataclasses import replace

    from solver.cards import Card
    from solver.hint import _survivors
    group = (20, 21, 22)  # 8H 9H 10H
    play = solve(Position.parse("8H 9H 10H | 8H 9H 10H / 5S"))
    laid = tuple(map(Card.from_code, group))
    assert _survivors([group, group], replace(play, table=[laid])) == [True, False]
    assert _survivors([group, group], replace(play, table=[laid, laid])) == [True, True]
    assert _survivors([group, group], replace(play, table=[laid[::-1]])) == [False, False]


def test_bench_hint_lists_the_slowest_auto_hints(capsys):
    """``python -m bench.hint --slowest N``: the N slowest auto hints, slowest first, with
    the engine that answered and CP-SAT's time beside."""
    from bench.hint import print_slowest
    positions = [Position.parse(text) for text in
                 ("5C 6C 7C / 8C", "5S 5H 5D | 9H 10H JH / 5C", "AS 2S 3S / KD")]
    got = {"auto": [1.0, 3.5, 2.0], "cpsat": [9.0, 8.0, 7.0],
           "engine": ["kernel", "cpsat", "kernel"]}
    print_slowest(positions, got, 2)
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["  #1: 2 groups, 6 cards; auto 3.50 ms (cpsat), CP-SAT 8.00 ms",
                     "  #2: 1 groups, 3 cards; auto 2.00 ms (kernel), CP-SAT 7.00 ms"]
