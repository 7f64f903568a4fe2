"""docs/rules.md §9.1-§9.4 worked examples, on both backends (§9.5 is in test_groups.py)."""

from collections import Counter

from solver import Card, parse_groups, solve
from solver.validate import play_problems


def as_multiset(table):
    return Counter(tuple(sorted(group)) for group in table)


def test_example_1_split_a_run_for_a_set(backend):
    solution = solve("5C 6C 7C 8C", "8D 8H", backend=backend)
    assert solution.score == 2 and solution.optimal
    assert as_multiset(solution.table) == as_multiset(parse_groups("5C 6C 7C | 8C 8D 8H"))


def test_example_1_shorter_run_cannot_take_the_pair(backend):
    solution = solve("6C 7C 8C", "8D 8H", backend=backend)
    assert solution.score == 0 and solution.played == []
    assert solution.table == [tuple(parse_groups("6C 7C 8C")[0])]


def test_example_2_sets_become_runs_with_a_high_ace(backend):
    solution = solve("KH KD KC | QH QD QC | JH JD JC", "AC", backend=backend)
    assert solution.played == [Card.parse("AC")]
    assert as_multiset(solution.table) == as_multiset(
        parse_groups("JH QH KH | JD QD KD | JC QC KC AC"))


def test_example_3_one_card_alone_cannot_go(backend):
    table = "10H 10D 10S | JH JD JS | QH QD QC"
    assert solve(table, "9S", backend=backend).score == 0
    solution = solve(table, "9S QD QS", backend=backend)
    assert solution.score == 3
    assert as_multiset(solution.table) == as_multiset(
        parse_groups("10H JH QH | 10D JD QD | 9S 10S JS | QC QD QS"))


def test_example_4_all_six_cards(backend):
    solution = solve("3C 4C 5C 6C | QH QD QS", "5C 7C 8C QC JH KH", backend=backend)
    assert solution.score == 6 and len(solution.played) == 6
    assert as_multiset(solution.table) == as_multiset(
        parse_groups("3C 4C 5C | 5C 6C 7C 8C | JH QH KH | QD QS QC"))


def test_every_answer_passes_the_independent_check(backend):
    solution = solve("3C 4C 5C 6C | QH QD QS", "5C 7C 8C QC JH KH", backend=backend)
    assert play_problems(solution.position, solution.played, solution.table) == []
