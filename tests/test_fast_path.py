"""The fast path from card texts (``solver.position_arrays``, ``Position.make``) against the
Python path it stands in for: the same positions, the same arrays, the same answers and, on
bad input, the same error with the same message, on random positions of every variant."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from solver import Position, PositionError, solve, solve_position
from solver.cards import CODE_CARDS, CODE_OF, Card
from solver.generate import random_position
from solver.groups import arrange_group
from solver.variants import VARIANT_NAMES, Variant

VARIANTS = [name for name in VARIANT_NAMES] + [
    f"{name}:ace={ace}" for name in ("machiavelli", "carousel", "tahiti") for ace in
    ("low", "high", "both")]
# Spellings people type, and tokens that are no card: each may replace a card.
ODD_TOKENS = ("10h", "th", "A♠", "a♤", "q♥\ufe0f", "*", "*7H", "*7h", " 7H", "1H", "ZZ", "",
              "10", "*X", "K", "♠A", "7H,", "-")


def outcome(make):
    """What a constructor gives: the error (type and message), or the position and what the
    solver reads of it."""
    try:
        position = make()
    except PositionError as error:
        return type(error).__name__, str(error)
    rows, lengths = position.group_array
    return (position, position.index_groups, rows.tolist(), lengths.tolist(),
            position.table_counts().tolist(), position.hand_counts().tolist(),
            position.single_counts().tolist(), position.mandatory_counts().tolist(),
            position.has_jokers)


def reference(position: Position):
    """The arrays as the Python code computed them before the fast path."""
    ace = position.variant.ace
    groups = tuple(tuple(card.code for card in arrange_group(group, ace)) if len(group) > 1
                   else (group[0].code,) for group in position.table)

    def counts(cards):
        tally = Counter(card.index for card in cards)
        return [tally[i] for i in range(52)]

    table = counts(card for group in position.table for card in group if not card.joker)
    singles = counts(group[0] for group in position.table if len(group) == 1)
    hand = counts(card for card in position.hand if not card.joker)
    jokers = any(card.joker for group in position.table for card in group) or any(
        card.joker for card in position.hand)
    return groups, table, hand, singles, [t - s for t, s in zip(table, singles, strict=True)], \
        jokers


def mutate(rng: random.Random, table: list[list[str]], hand: list[str]) -> None:
    """One random change that may make the position invalid (or leave it valid)."""
    kind = rng.randrange(7)
    cards = [(g, i) for g, group in enumerate(table) for i in range(len(group))]
    if kind == 0 and cards:
        g, i = rng.choice(cards)
        table[g][i] = rng.choice(ODD_TOKENS)
    elif kind == 1 and hand:
        hand[rng.randrange(len(hand))] = rng.choice(ODD_TOKENS)
    elif kind == 2 and cards:
        g, i = rng.choice(cards)
        hand.append(table[g][i])  # one copy too many, perhaps
    elif kind == 3 and cards:
        g, i = rng.choice(cards)
        table.append([table[g].pop(i)])  # a lone card, and a shorter group
    elif kind == 4 and len(table) > 1:
        table[0] += table.pop()
    elif kind == 5 and cards:
        g, i = rng.choice(cards)
        table[g][i] = table[g][i].lower()
    else:
        rng.shuffle(hand)
        for group in table:
            rng.shuffle(group)


def texts(position: Position) -> tuple[list[list[str]], list[str]]:
    return [[str(card) for card in group] for group in position.table], \
        [str(card) for card in position.hand]


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_and_python_paths_agree(variant):
    rng = random.Random(f"fast path {variant}")
    rules = Variant.parse(variant)
    errors = 0
    for case in range(60):
        position = random_position(rng.randrange(2**32), rules, rng.choice((8, 30, 60)),
                                   rng.randrange(0, 12), singles=4, jokers=rng.randrange(3))
        table, hand = texts(position)
        for _ in range(rng.randrange(3)):
            mutate(rng, table, hand)
        opened = rng.random() < 0.8 or not (rules.opening_points or rules.opening_run)
        fast = outcome(lambda t=table, h=hand, o=opened: Position.make(t, h, variant, o))
        slow = outcome(lambda t=table, h=hand, o=opened: Position.make_in_python(t, h, rules, o))
        assert fast == slow, (case, table, hand)
        as_text = outcome(lambda t=table, h=hand, o=opened: Position.make(
            " | ".join(" ".join(group) for group in t), ", ".join(h), variant, o))
        if joins_cleanly(table, hand):
            assert as_text == fast, (case, table, hand)
        errors += not isinstance(fast[0], Position)
        if isinstance(fast[0], Position):
            made = fast[0]
            assert reference(made) == (fast[1], *fast[4:]), (case, table, hand)
            assert Position.parse(str(made)) == made
    assert 5 < errors < 55  # both paths were exercised, valid input and errors


def joins_cleanly(table: list[list[str]], hand: list[str]) -> bool:
    """True when joining the tokens into one text keeps them as they are (no empty group,
    no token that spaces, commas or ``-`` would change)."""
    tokens = [token for group in table for token in group] + hand
    return all(table) and all(token.strip() == token and token not in ("", "-")
                              and "," not in token for token in tokens)


@pytest.mark.parametrize("variant", ["machiavelli:ace=low", "machiavelli:ace=high",
                                     "machiavelli", "carousel", "vatican", "tahiti"])
def test_solve_from_texts_answers_as_from_a_python_position(variant):
    rng = np.random.default_rng(abs(hash(variant)) % 2**32)
    rules = Variant.parse(variant)
    for _ in range(25):
        position = random_position(rng, rules, int(rng.integers(10, 70)),
                                   int(rng.integers(1, 12)), singles=4,
                                   jokers=int(rng.integers(0, 3)))
        table, hand = texts(position)
        slow = Position.make_in_python(table, hand, rules, True)
        for objective in ("cards", "points"):
            fast = solve(table, hand, variant=variant, objective=objective).to_json()
            reference_answer = solve_position(slow, objective).to_json()
            fast.pop("elapsed_ms")
            reference_answer.pop("elapsed_ms")
            assert fast == reference_answer


def test_every_spelling_in_the_lookup_parses_to_its_card():
    for text, code in CODE_OF.items():
        card = text if isinstance(text, Card) else Card.parse(text)
        assert CODE_CARDS[code] == card


def test_a_position_built_directly_computes_the_same_arrays():
    position = random_position(7, "carousel", 40, 8, jokers=2)
    direct = Position(position.table, position.hand, position.variant, position.opened)
    assert outcome(lambda: direct) == outcome(lambda: position)
    assert reference(direct) == (outcome(lambda: direct)[1], *outcome(lambda: direct)[4:])
