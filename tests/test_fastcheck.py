"""The numba re-check agrees with the rules validator (solver.groups) on random groups."""

import numpy as np
import pytest

from solver.cards import CARDS
from solver.fastcheck import check_table, group_ok
from solver.groups import arrange_group, group_kind
from solver.tidy import lay_out, pad

ACE = {"low": 0, "high": 1, "both": 2}


def reading_order(cards, ace):
    return arrange_group(cards, ace) if group_kind(cards, ace) else cards


@pytest.mark.parametrize("ace", ["low", "high", "both"])
def test_group_ok_matches_group_kind(ace):
    rng = np.random.default_rng(ACE[ace])
    checked = valid = 0
    while checked < 6000:
        shape = rng.integers(3)
        n = int(rng.integers(1, 15))
        if shape == 0:  # near-runs: one suit, a window of ranks, sometimes a hole or duplicate
            suit = int(rng.integers(4))
            start = int(rng.integers(0, 14))
            ranks = [(start + j) % 13 for j in range(n)]
            if rng.random() < 0.3:
                ranks[int(rng.integers(n))] = int(rng.integers(13))
            cards = [CARDS[suit * 13 + r] for r in ranks]
        elif shape == 1:  # near-sets
            rank = int(rng.integers(13))
            cards = [CARDS[int(s) * 13 + rank] for s in rng.integers(4, size=min(n, 5))]
        else:
            cards = [CARDS[int(c)] for c in rng.integers(52, size=n)]
        ordered = reading_order(cards, ace)
        row = np.array([c.index for c in ordered] + [-1] * (14 - len(ordered)), dtype=np.int64)
        expected = group_kind(cards, ace) is not None
        assert group_ok(row, len(ordered), ACE[ace]) == expected, [str(c) for c in ordered]
        checked += 1
        valid += expected
    assert valid > 600


def test_check_table_codes():
    table = np.zeros(52, dtype=np.int64)
    hand = np.zeros(52, dtype=np.int64)
    singles = np.zeros(52, dtype=np.int64)
    table[[4, 5, 6]] = 1  # 5S 6S 7S
    hand[7] = 1  # 8S
    played = hand.copy()
    rows, lengths = pad([(4, 5, 6, 7)])
    assert check_table(rows, lengths, table, singles, hand, played, 2, 0, 0, 0) == 0
    rows, lengths = pad([(4, 5, 6), (7,)])
    assert check_table(rows, lengths, table, singles, hand, played, 2, 0, 0, 0) == 2
    rows, lengths = pad([(4, 5, 7)])
    assert check_table(rows, lengths, table, singles, hand, played, 2, 0, 0, 0) == 1
    rows, lengths = pad([(4, 5, 6)])
    assert check_table(rows, lengths, table, singles, hand, played, 2, 0, 0, 0) == 3
    assert check_table(rows, lengths, table, singles, hand, played * 2, 2, 0, 0, 0) == 4


def test_lay_out_keeps_survivors_and_rebuilds_split_runs():
    clubs = tuple(range(40, 47))  # 2C .. 8C
    old_rows, old_len = pad([(0, 1, 2), (13 + 4, 26 + 4, 39 + 4), clubs])
    # the 7-card club run comes back as 3 + 4 pieces; a new run 9S 10S JS abuts nothing
    new_rows, new_len = pad([(8, 9, 10), clubs[:3], clubs[3:], (13 + 4, 26 + 4, 39 + 4),
                             (0, 1, 2)])
    rows, lengths, changed = lay_out(new_rows, new_len, old_rows, old_len)
    groups = [tuple(r[:n]) for r, n in zip(rows.tolist(), lengths.tolist(), strict=True)]
    assert groups[:3] == [(0, 1, 2), (17, 30, 43), clubs]
    assert groups[3] == (8, 9, 10) and list(changed) == [False, False, False, True]


def test_lay_out_merges_abutting_new_runs():
    old_rows, old_len = pad([(0, 1, 2, 3, 4, 5)])
    new_rows, new_len = pad([(0, 1, 2), (3, 4, 5, 6)])  # 7S added: the run is changed
    rows, lengths, changed = lay_out(new_rows, new_len, old_rows, old_len)
    assert lengths.tolist() == [7] and changed.tolist() == [True]
