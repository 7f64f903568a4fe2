import pytest

from solver.cards import parse_cards
from solver.groups import arrange_group, candidate_runs, candidate_sets, group_kind


def kind(text, ace):
    return group_kind(parse_cards(text), ace)


# docs/rules.md §9.5, and the table of §2.
@pytest.mark.parametrize("ace", ["low", "high", "both"])
def test_k_a_2_is_never_a_run(ace):
    assert kind("KH AH 2H", ace) is None
    assert kind("QH KH AH 2H 3H", ace) is None


@pytest.mark.parametrize("ace", ["low", "high", "both"])
def test_duplicate_suits_are_never_a_set(ace):
    assert kind("7H 7H 7D", ace) is None
    assert kind("7H 7D 7C", ace) == "set"
    assert kind("7H 7D 7C 7S", ace) == "set"
    assert kind("7H 7D 7C 7S 7H", ace) is None


def test_ace_modes():
    assert kind("AH 2H 3H", "low") == kind("AH 2H 3H", "both") == "run"
    assert kind("AH 2H 3H", "high") is None
    assert kind("QH KH AH", "high") == kind("QH KH AH", "both") == "run"
    assert kind("QH KH AH", "low") is None
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert kind(full, "both") == kind(full, "low") == "run"
    assert kind(full.replace("AH ", "") + " AH", "both") == "run"


def test_other_shapes():
    assert kind("5C 6C", "both") is None
    assert kind("5C 6C 8C", "both") is None
    assert kind("5C 6D 7C", "both") is None
    assert kind("5C 6C 6C 7C", "both") is None
    assert kind("*7H 7D 7C", "both") == "set"
    assert kind("* 7D 7C", "both") is None


def test_arrange_puts_high_ace_last():
    assert [str(c) for c in arrange_group(parse_cards("AH KH QH"), "both")] == ["QH", "KH", "AH"]
    assert [str(c) for c in arrange_group(parse_cards("3H AH 2H"), "both")] == ["AH", "2H", "3H"]


def test_candidate_counts():
    assert len(list(candidate_sets(7))) == 5
    # per suit: 3-, 4-, 5-card windows over 13 (low/high) or 14 (both) slots
    assert len(list(candidate_runs("low"))) == 4 * (11 + 10 + 9)
    assert len(list(candidate_runs("both"))) == 4 * (12 + 11 + 10)
