"""A numba re-check of solver output: group rules and card balance on card indices.

It is written from the rules (docs/rules.md §2), not from the search, and tests hold it to the
Python validator in ``solver.groups`` on random groups. Groups must be in reading order (runs
low to high with a low ace first and a high ace last; sets in any order), which is what the
solver's layout produces. The referee, which sees arbitrary input, uses ``solver.validate``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.constants import ACE_HIGH, ACE_LOW, JOKER_CODE, MAX_RUN, N_CARD_TYPES, N_RANKS
from solver.frozen import frozen
from solver.tidy import lay_out


@njit(cache=True)
def group_ok(row, n, ace_mode):
    """True if the ``n`` card codes in ``row`` (reading order) are a set or a run; a joker
    (code ``52 + i``) counts as the card ``i`` it names."""
    if n < 3:
        return False
    rank = row[0] % N_RANKS
    if row[1] % N_RANKS == rank:  # a set: one rank, distinct suits, 3 or 4 cards
        if n > 4:
            return False
        seen = 0
        for j in range(n):
            if row[j] % N_RANKS != rank:
                return False
            bit = 1 << (row[j] % JOKER_CODE // N_RANKS)
            if seen & bit:
                return False
            seen |= bit
        return True
    if n > MAX_RUN:
        return False
    suit = row[0] % JOKER_CODE // N_RANKS
    if rank == 0 and ace_mode == ACE_HIGH:  # a low ace
        return False
    for j in range(n):
        if row[j] % JOKER_CODE // N_RANKS != suit:
            return False
        slot = rank + j
        if slot == N_RANKS:  # a high ace closes the run
            if row[j] % N_RANKS != 0 or ace_mode == ACE_LOW or rank == 0:
                return False
        elif slot > N_RANKS or row[j] % N_RANKS != slot:
            return False
    return True


@njit(cache=True)
def check_table(groups, lengths, table_counts, single_counts, hand_counts, played, ace_mode,
                jokers_before, jokers_played, hand_jokers):
    """0 if the new table is legal, else a code: 1 a bad group, 2 a lone card that is not an
    original single, 3 cards not balanced (new table != old table + played), 4 played cards
    not in the hand. Jokers balance as one kind; their naming rules are checked elsewhere."""
    if jokers_played < 0 or jokers_played > hand_jokers:
        return 4
    for c in range(N_CARD_TYPES):
        if played[c] < 0 or played[c] > hand_counts[c]:
            return 4
    counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
    jokers = 0
    spare = single_counts.copy()
    for g in range(lengths.shape[0]):
        n = lengths[g]
        for j in range(n):
            if groups[g, j] >= JOKER_CODE:
                jokers += 1
            else:
                counts[groups[g, j]] += 1
        if n == 1:
            if groups[g, 0] >= JOKER_CODE or spare[groups[g, 0]] == 0:
                return 2
            spare[groups[g, 0]] -= 1
        elif not group_ok(groups[g], n, ace_mode):
            return 1
    for c in range(N_CARD_TYPES):
        if counts[c] != table_counts[c] + played[c]:
            return 3
    if jokers != jokers_before + jokers_played:
        return 3
    return 0


CHECK_MESSAGES = {
    1: "a group is not a set or a run",
    2: "a lone card is not an original single",
    3: "the new table is not the old table plus the played cards",
    4: "played cards are not in the hand",
}


@njit(cache=True)
def lay_out_and_check(new, new_len, old, old_len, table_counts, single_counts, hand_counts,
                      played, ace_mode, jokers_before, jokers_played, hand_jokers):
    """``solver.tidy.lay_out`` then ``check_table`` on its layout, in one call (both sit on
    every solve's path): ``(rows, lengths, changed, code)``."""
    rows, lengths, changed = lay_out(frozen(new), frozen(new_len), frozen(old),
                                     frozen(old_len))
    code = check_table(rows, lengths, table_counts, single_counts, hand_counts, played,
                       ace_mode, jokers_before, jokers_played, hand_jokers)
    return rows, lengths, changed, code
