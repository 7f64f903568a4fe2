"""The counts-level entry point (solver/counts.py) and card codes (solver/codes.py): the same
plays as ``solve_position``, laid out the same way, from code rows and count vectors."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from solver import counts, kernel, tidy
from solver.api import solve_position
from solver.cards import CARDS, CODES, Card
from solver.codes import (
    NOT_A_CARD,
    TEXTS,
    UNNAMED_JOKER,
    arrange,
    card_code,
    codes_of,
    group_rows,
    play_cards,
)
from solver.constants import ACE_CODES, N_CARD_TYPES
from solver.generate import random_position
from solver.groups import arrange_group, is_valid_group
from solver.position import Position
from solver.validate import JOKER
from solver.variants import Variant

VARIANTS = ["machiavelli", "machiavelli:ace=low", "machiavelli:ace=high", "shanghai", "bga",
            "guadalupe", "machiavelli:opening=36", "vatican", "tahiti", "carousel"]


def positions(count: int, seed: int, jokers: int = 0):
    rng = np.random.default_rng(seed)
    for i in range(count):
        variant = VARIANTS[i % len(VARIANTS)]
        position = random_position(rng, variant, int(rng.integers(0, 60)),
                                   int(rng.integers(1, 14)), singles=2, jokers=jokers)
        rules = position.variant
        opened = bool(rng.integers(2)) or not (rules.opening_points or rules.opening_run)
        yield Position(position.table, position.hand, rules, opened)


def counts_play(position: Position, objective: str = "cards"):
    rows, lengths = group_rows(position.table, ACE_CODES[position.variant.ace])
    return counts.best_play(rows, lengths, position.hand_counts().copy(), position.variant,
                            position.opened, objective)


@pytest.mark.parametrize("objective", ["cards", "points"])
def test_best_play_is_the_play_solve_position_gives_laid_out_alike(objective):
    checked = 0
    for position in positions(300, 12 if objective == "cards" else 13):
        answer = counts_play(position, objective)
        expected = solve_position(position, objective)
        assert answer is not None, position
        played, table = play_cards(answer.played, answer.rows, answer.lengths)
        assert list(played) == expected.played, position
        assert [tuple(group) for group in table] == expected.table, position
        assert answer.changed.tolist() == expected.changed
        assert answer.score == expected.score and answer.optimal == expected.optimal
        checked += bool(played)
    assert checked > 150  # most positions have a play


def test_best_play_leaves_jokers_to_solve_position():
    rules = Variant.parse("carousel")
    on_table = Position.make("5H *6H 7H", "8H", rules)
    assert counts_play(on_table) is None
    rows, lengths = group_rows(on_table.table, ACE_CODES["both"])
    assert rows.max() >= N_CARD_TYPES  # the joker's code
    in_hand = Position.make("5H 6H 7H", "* 8H", rules)  # jokers in hand: the bots decide
    assert counts_play(in_hand) is not None


def test_the_counts_path_adds_no_compiled_kernel_version():
    """Arrays reach the kernels typed as solve_position hands them: no numba version is
    compiled or loaded inside a self-play game."""
    sample = list(positions(40, 3))
    for position in sample:
        solve_position(position)

    def versions():
        return {f"{m.__name__}.{n}": len(f.signatures) for m in (tidy, kernel)
                for n, f in vars(m).items() if isinstance(f, CPUDispatcher)}

    before = versions()
    for position in sample:
        counts_play(position)
    assert versions() == before


def test_group_rows_are_the_position_group_array():
    for position in positions(200, 5, jokers=2):
        rows, lengths = group_rows(position.table, ACE_CODES[position.variant.ace])
        expected_rows, expected_lengths = position.group_array
        assert np.array_equal(rows, expected_rows) and np.array_equal(lengths, expected_lengths)
        assert not rows.flags.writeable


@pytest.mark.parametrize("ace", ["low", "high", "both"])
def test_arrange_judges_groups_as_the_rules_do(ace):
    rng = np.random.default_rng(len(ace))
    pool = list(CARDS) + [Card.named_joker(c) for c in CARDS[:26]] + [JOKER]
    for _ in range(3000):
        size = int(rng.integers(0, 7))
        if rng.random() < 0.5:  # near-runs and near-sets, so that many are valid
            suit, start = int(rng.integers(4)), int(rng.integers(13))
            step = 1 if rng.random() < 0.5 else 13
            group = [CARDS[(suit * 13 + (start + i) % 13) if step == 1
                           else ((start % 13) + 13 * ((suit + i) % 4))] for i in range(size)]
            if group and rng.random() < 0.3:
                group[int(rng.integers(size))] = Card.named_joker(group[0])
        else:
            group = [pool[int(i)] for i in rng.integers(len(pool), size=size)]
        rows, _, valid = arrange(np.array(codes_of(group), dtype=np.int64),
                                 np.array([len(group)], dtype=np.int64), ACE_CODES[ace])
        expected = len(group) >= 3 and is_valid_group(group, ace)
        assert bool(valid[0]) == expected, (group, ace)
        if expected:
            assert rows[0, :len(group)].tolist() == [c.code for c in arrange_group(group, ace)]


def test_codes_by_lookup_match_the_cards():
    assert [card_code(c) for c in CODES] == list(range(2 * N_CARD_TYPES))
    assert card_code(JOKER) == UNNAMED_JOKER
    assert card_code(Card.parse("10h")) == Card.parse("10H").code  # an equal, new object
    assert card_code(Card.parse("*")) == UNNAMED_JOKER
    assert codes_of(["7H", 7, None]) == [NOT_A_CARD] * 3
    assert codes_of([CARDS[3], Card.parse("*7H")]) == [3, Card.parse("*7H").code]
    assert list(TEXTS) == [str(c) for c in CODES] + ["*"]
