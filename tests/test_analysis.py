"""Position analysis: best values, distinct best plays, outs (re-solved), stuck cards."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from bots.app.cli import main
from bots.players.estimate import win_chance
from solver import Card, Position, TooManyCopiesError
from solver.analysis import analyze, not_seen
from solver.generate import random_position
from solver.reference import best_value


def test_worked_example_3():
    position = Position.make("10H 10D 10S | JH JD JS | QH QD QC", "9S QD QS 2C")
    result = analyze(position)
    assert (result.best_cards, result.best_points) == (3, 29)
    assert [sorted(map(str, play)) for play in result.plays] == [["9S", "QD", "QS"]]
    assert not result.goes_out and not result.plays_capped
    stuck = dict((str(card), why) for card, why in result.stuck)
    assert list(stuck) == ["2C"]
    assert "AC 3C" in stuck["2C"] and "2H 2D" in stuck["2C"]


def test_stuck_card_whose_group_would_break_the_table():
    result = analyze(Position.make("6C 7C 8C", "8D 8H"))
    assert result.best_cards == 0 and result.plays == []
    assert {str(card) for card, _ in result.stuck} == {"8D", "8H"}
    assert all("leaves other table cards" in why for _, why in result.stuck)


def test_goes_out():
    result = analyze(Position.make("3C 4C 5C 6C | QH QD QS", "5C 7C 8C QC JH KH"))
    assert result.goes_out and result.best_cards == 6


def test_every_distinct_best_play_is_listed():
    position = Position.make("6H 7H 8H", "3H 4H 5H 9C")
    result = analyze(position)
    plays = sorted(tuple(sorted(map(str, play))) for play in result.plays)
    assert result.best_cards == 3
    assert plays == [("3H", "4H", "5H")]
    position = Position.make("6H 7H 8H | 6C 6D 6S", "4H 5H 9H 10H")
    result = analyze(position)
    assert result.best_cards == 4 and len(result.plays) == 1
    # 7C makes a set with 7D 7H, or 10C with 10D 10H: not both (8C 9C would be left)
    position = Position.make("7C 8C 9C 10C", "7D 7H 10D 10H")
    result = analyze(position)
    assert result.best_cards == 2
    assert sorted(tuple(sorted(map(str, p))) for p in result.plays) == [
        ("10D", "10H"), ("7D", "7H")]


def test_plays_are_capped():
    result = analyze(Position.make("7C 8C 9C 10C", "7D 7H 10D 10H"), max_plays=1)
    assert len(result.plays) == 1 and result.plays_capped
    position = Position.make("KC KD KH", "KS 2C 2D")
    result = analyze(position, max_plays=1)
    assert result.best_cards == 1 and len(result.plays) == 1 and not result.plays_capped


@pytest.mark.parametrize("seed", range(3))
def test_outs_match_re_solving_with_each_card(seed):
    rng = np.random.default_rng(seed)
    for _ in range(6):
        position = random_position(rng, "machiavelli", int(rng.integers(3, 10)),
                                   int(rng.integers(2, 5)), near=0.8)
        result = analyze(position)
        assert result.best_cards == best_value(position)
        outs = {str(card): more for card, more in result.outs}
        for card in not_seen(position):
            bigger = Position.make(position.table, list(position.hand) + [card],
                                   position.variant)
            assert outs.get(str(card), 0) == best_value(bigger) - result.best_cards, card


def test_not_seen_counts_both_packs():
    position = Position.make("5C 6C 7C", "5C 8C")
    unseen = Counter(str(card) for card in not_seen(position))
    assert "5C" not in unseen and unseen["6C"] == 1 and len(unseen) == 52 - 1


def test_win_chance_is_an_estimate_with_an_interval():
    position = Position.make("3C 4C 5C 6C | QH QD QS", "5C 7C 8C QC JH KH")
    chance = win_chance(position, [10], rollouts=20, seed=1)
    assert chance.chance == 1.0  # it goes out at once
    lo, hi = win_chance(Position.make("5C 6C 7C", "2D 9H KS 4C"), [2], 30, seed=1).ci95
    assert 0.0 <= lo <= hi <= 1.0


def test_cli_analyze(capsys):
    assert main(["analyze", "--table", "10H 10D 10S | JH JD JS | QH QD QC",
                 "--hand", "9S QD QS 2C", "--unseen", "8S 2S", "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["best"] == {"cards": 3, "points": 29}
    assert data["outs"] == [{"card": "8S", "more": 1}]
    assert data["stuck"][0]["card"] == "2C"
    assert main(["analyze", "--table", "5C 6C 7C", "--hand", "8C", "--unseen", "ZZ"]) == 2
    assert "'ZZ'" in capsys.readouterr().err
    assert main(["analyze", "--table", "5C 6C 7C", "--hand", "8C", "--unseen", "9C 9C 9C"]) == 2
    assert "3 copies of 9C" in capsys.readouterr().err


@pytest.mark.parametrize("unseen, fits", [
    ("9C 9C", True), (["9C", "9C"], True), ("*", False), ("8C 8C", False), (["5C", "5C"], False),
])
def test_unseen_cards_must_fit_in_the_packs_beside_the_table_and_hand(unseen, fits):
    """Two decks: two 9C may be unseen, but not a third 8C or 5C, nor a joker machiavelli has
    not; a text and a list are read alike."""
    position = Position.make("5C 6C 7C", "8C 2D")
    if fits:
        assert [card for card, _ in analyze(position, unseen=unseen).outs] == [Card.parse("9C")]
    else:
        with pytest.raises(TooManyCopiesError, match="do not fit beside the table and the hand"):
            analyze(position, unseen=unseen)


def test_cli_hint(capsys):
    assert main(["hint", "--table", "5C 6C 7C 8C | 9H 9D 9S", "--hand", "8D 8H"]) == 0
    out = capsys.readouterr().out
    assert "take 8C from group 1" in out and "New table" in out
    assert main(["hint", "--table", "5C 6C 7C", "--hand", "8C", "--short"]) == 0
    assert capsys.readouterr().out.strip() == (
        "8C can be played; groups changed: 1; no rearrangement needed")
    assert main(["hint", "--table", "5C 6C 7C", "--hand", "8X"]) == 2
    assert "8X" in capsys.readouterr().err


def test_card_type_is_value():
    assert str(Card.parse("*")) == "*"
