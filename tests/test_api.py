import numpy as np
import pytest

from solver import Card, Position, parse_groups, solve
from solver.errors import (
    InvalidCardError,
    InvalidGroupError,
    InvalidOptionError,
    InvalidTableError,
    MalformedPositionError,
    TooManyCopiesError,
    UnknownOptionError,
    UnknownVariantError,
    UnsupportedPositionError,
)
from solver.generate import random_position
from solver.validate import play_problems


def test_inputs_as_text_lists_or_position(backend):
    by_text = solve("5C 6C 7C 8C", "8D 8H", backend=backend)
    by_list = solve([["5C", "6C", "7C", "8C"]], ["8D", Card.parse("8H")], backend=backend)
    by_position = solve(Position.parse("5C 6C 7C 8C / 8D 8H / machiavelli"), backend=backend)
    assert by_text.score == by_list.score == by_position.score == 2
    assert by_text.backend == backend


def test_auto_uses_the_kernel():
    assert solve("5C 6C 7C 8C", "8D 8H").backend == "kernel"


def test_points_objective_prefers_the_heavier_play(backend):
    # Either KC alone (10 points: K Q J run) or 2C 3C (5 points, needs AC run) can go.
    table = "QC JC 10C | AC AD AH"
    hand = "KC 2C 3C"
    cards = solve(table, hand, objective="cards", backend=backend)
    points = solve(table, hand, objective="points", backend=backend)
    assert points.score == sum(card.points for card in points.played)
    assert cards.score == len(cards.played)
    assert points.score >= 10


def test_solution_json_has_the_contract_fields():
    data = solve("5C 6C 7C 8C", "8D 8H").to_json()
    assert set(data) == {"played", "table", "score", "optimal", "backend", "elapsed_ms"}
    assert sorted(data["played"]) == ["8D", "8H"]
    assert all(isinstance(card, str) for group in data["table"] for card in group)


def test_unchanged_groups_keep_their_place(backend):
    solution = solve("2S 3S 4S | 9H 9D 9C | 5C 6C 7C 8C", "8D 8H", backend=backend)
    assert solution.table[0] == tuple(parse_groups("2S 3S 4S")[0])
    assert solution.table[1] == tuple(parse_groups("9H 9D 9C")[0])
    assert solution.changed[:2] == [False, False] and all(solution.changed[2:])


def test_long_runs_come_back_whole(backend):
    # CP-SAT builds runs from pieces of 3..5 cards; the tidy step reassembles them.
    solution = solve("2C 3C 4C 5C 6C 7C 8C 9C", "10C", backend=backend)
    assert [len(group) for group in solution.table] == [9]


def test_singles_may_stay_alone_or_join(backend):
    alone = solve("5C | 6D 7D 8D", "9D", "tahiti", backend=backend)
    assert alone.score == 1 and [Card.parse("5C")] in [list(g) for g in alone.table]
    joined = solve("5C | 6C 7C 8C", "9C", "tahiti", backend=backend)
    assert joined.score == 1
    assert play_problems(joined.position, joined.played, joined.table) == []


def test_opening_36_uses_hand_groups_only(backend):
    variant = "machiavelli:opening=36"
    table = "5C 6C 7C"
    # 8C would fit on the table, but an opening may not touch it.
    solution = solve(table, "KS KH KD QS QH QD 8C", variant, backend=backend, opened=False)
    assert solution.score == 6 and Card.parse("8C") not in solution.played
    assert solution.table[0] == tuple(parse_groups(table)[0])
    short = solve(table, "2S 3S 4S 8C", variant, backend=backend, opened=False)
    assert short.score == 0  # 9 points is not an opening
    assert solve(table, "8C", variant, backend=backend).score == 1  # opened players may


def test_vatican_opening_needs_a_hand_run(backend):
    assert solve("5C 6C 7C", "8C", "vatican", backend=backend, opened=False).score == 0
    solution = solve("5C 6C 7C", "2S 3S 4S 8C", "vatican", backend=backend, opened=False)
    assert solution.score == 4


def test_regression_low_and_high_ace_never_share_a_run(backend):
    # Found by bench/agree.py: the kernel once laid AC 2C .. KC AC as one run.
    position = Position.parse(
        "KS KH KD KC | 5S 6S 7S 8S 9S | 8C 9C 10C JC QC | 6D 7D 8D 9D 10D | 9D 10D JD QD | "
        "8S 9S 10S | 4H 5H 6H 7H 8H 9H | 3C 4C 5C 6C 7C 8C | 7S 7D 7C | 2S 3S 4S 5S 6S | "
        "AS AH AD | JS JH JD | QD KD AD | 3H 3D 3C | AH 2H 3H 4H 5H 6H | 2S 3S 4S | "
        "9C 10C JC QC KC AC | 2H 2D 2C | 10H JH QH KH | 8H 9H 10H | 4C 5C 6C "
        "/ 2D 7H 6D AC 5D KS 10S 8D QH 2C / machiavelli")
    for objective in ("cards", "points"):
        solution = solve(position, objective=objective, backend=backend)
        assert play_problems(position, solution.played, solution.table) == []
        assert all(len(group) <= 13 for group in solution.table)


def test_time_limit_returns_a_valid_table():
    position = random_position(3, "machiavelli", 90, 14)
    for backend in ("cpsat", "kernel"):
        cut = solve(position, backend=backend, time_limit=1e-6)
        assert not cut.optimal  # stopped before it could prove anything
        assert play_problems(position, cut.played, cut.table) == []
        full = solve(position, backend=backend)
        assert full.optimal and cut.score < full.score


def test_kernel_node_budget_marks_answers_unproved():
    rng = np.random.default_rng(0)
    position = random_position(rng, "machiavelli", 80, 10)
    cut = solve(position, backend="kernel", time_limit=1e-6)
    assert play_problems(position, cut.played, cut.table) == []
    assert not cut.optimal or cut.score == len(position.hand)


@pytest.mark.parametrize("call, error, token", [
    (lambda: solve("5C 6C 7C", "8X"), InvalidCardError, "'8X'"),
    (lambda: solve("5C 6C 7C", "8D 8D 8D"), TooManyCopiesError, "8D"),
    (lambda: solve("5C 6C", "8D"), InvalidGroupError, "'5C 6C'"),
    (lambda: solve("5C 6C 7C", "8D", "rummy"), UnknownVariantError, "'rummy'"),
    (lambda: solve("5C 6C 7C", "8D", "machiavelli:colour=red"), UnknownOptionError, "'colour'"),
    (lambda: solve("5C 6C 7C", "8D", "machiavelli:deal=1"), InvalidOptionError, "deal"),
    (lambda: solve("5C 6C 7C", "8D", objective="fun"), InvalidOptionError, "'fun'"),
    (lambda: solve("5C 6C 7C", "8D", backend="gpu"), InvalidOptionError, "'gpu'"),
    (lambda: solve("5C 6C 7C", "8D", time_limit=-1), InvalidOptionError, "-1"),
    (lambda: solve("5H 6H 7H", "* * * *", "tahiti", backend="kernel"), UnsupportedPositionError,
     "kernel"),
    (lambda: solve("5C 6C 7C", "8D", opened=False), InvalidTableError, "unopened"),
    (lambda: solve(Position.parse("5C 6C 7C / 8D / machiavelli / x")), MalformedPositionError,
     "'x'"),
])
def test_bad_input_raises_value_errors_naming_the_token(call, error, token):
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert token in str(info.value)


def test_vatican_opening_run_may_be_rearranged_in_the_same_turn(backend):
    """docs/rules.md §6's worked example: the hand cards include the run 6H 7H 8H, laid and
    then rearranged into the sets, so all five cards go. The reading is deliberate."""
    table, hand = "7S 7D 7C | 8S 8D 8C", "6H 7H 8H 6S 6D"
    solution = solve(table, hand, "vatican", backend=backend, opened=False)
    assert solution.score == 5
    assert sorted(map(sorted, map(lambda g: [str(c) for c in g], solution.table))) == [
        ["6D", "6H", "6S"], ["7C", "7D", "7H", "7S"], ["8C", "8D", "8H", "8S"]]
    # without a suited run among the hand cards, an unopened player cannot play at all
    assert solve(table, "6H 7H 6S 6D", "vatican", backend=backend, opened=False).score == 0
