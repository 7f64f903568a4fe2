"""The rules check of a proposed move on card codes: the referee's fast judge.

``check_move`` answers, in numba, what ``solver.validate.card_problems`` and the group part
of ``solver.validate.play_problems`` ask of a move (docs/rules.md §2, §5): the played cards
are in the hand, the new table holds exactly the old table's cards plus the played ones
(jokers as one kind), every joker on it is named, every lone card is an original single, and
every other group is a set or a run. It says only *whether* the move passes; the referee
asks ``solver.validate`` for the reasons of a move that fails, and for the rules that look
past single groups (jokers' names, openings), so the reasons are always the validator's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.codes import N_CODES, UNNAMED_JOKER, arrange
from solver.constants import JOKER_CODE

PASSED = 0
"""``check_move``'s status for a move that passes every check."""
NOT_HELD, UNBALANCED, UNNAMED, NOT_SINGLE, BAD_GROUP = 1, 2, 3, 4, 5


@njit(cache=True)
def _held(codes):
    """Counts per code of cards as held: any joker counts as the unnamed one."""
    counts = np.zeros(N_CODES, dtype=np.int64)
    for code in codes:
        counts[UNNAMED_JOKER if code >= JOKER_CODE else code] += 1
    return counts


@njit(cache=True)
def _old_singles(old_flat, old_len):
    """Counts of the real cards lying alone on the old table (the original singles)."""
    singles = np.zeros(N_CODES, dtype=np.int64)
    at = 0
    for g in range(old_len.shape[0]):
        if old_len[g] == 1 and old_flat[at] < JOKER_CODE:
            singles[old_flat[at]] += 1
        at += old_len[g]
    return singles


@njit(cache=True)
def check_move(old_flat, old_len, new_flat, new_len, played, hand, ace_mode):
    """``(status, rows, lengths)``: ``PASSED`` or the first failed check, and the new table's
    groups in reading order (``solver.codes.arrange``). Groups are card codes cut by lengths;
    ``played`` and ``hand`` are codes (``hand``: the cards the player may play now)."""
    rows, lengths, valid = arrange(new_flat, new_len, ace_mode)
    spent = _held(played)
    have = _held(hand)
    for code in range(N_CODES):
        if spent[code] > have[code]:
            return NOT_HELD, rows, lengths
    before = _held(old_flat)
    after = _held(new_flat)
    for code in range(N_CODES):
        if after[code] != before[code] + spent[code]:
            return UNBALANCED, rows, lengths
    for code in new_flat:
        if code == UNNAMED_JOKER:
            return UNNAMED, rows, lengths
    spare = _old_singles(old_flat, old_len)
    at = 0
    for g in range(new_len.shape[0]):
        if new_len[g] == 1:
            code = new_flat[at]
            if code >= JOKER_CODE or spare[code] == 0:
                return NOT_SINGLE, rows, lengths
            spare[code] -= 1
        elif not valid[g]:
            return BAD_GROUP, rows, lengths
        at += new_len[g]
    return PASSED, rows, lengths
