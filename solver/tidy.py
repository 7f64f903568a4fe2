"""Lay out a backend's partition for people: the table's surviving groups stay where they were.

Backends return *some* partition (CP-SAT cuts long runs into pieces of 3..5; the kernel may end
a run and start the next one at the following rank). ``lay_out`` keeps every table group that
survives intact (or is rebuilt exactly from run pieces) in its original place, then lists the
new and changed groups after them, sets by rank then runs by suit, with abutting runs merged
(never a run holding a joker: a tahiti locked group may grow only from the hand).

Groups are padded rows of card codes in reading order: runs low to high (a low ace first, a
high ace last), sets by suit; code ``52 + i`` is a joker naming card ``i``. Numba, because it
sits on the path of every solve.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.constants import JOKER_CODE, MAX_RUN, N_RANKS, ROW_WIDTH


@njit(cache=True)
def _span(row, n):
    """(kind, suit, first slot, last slot): kind 0 set, 1 run, 2 single."""
    if n == 1:
        return 2, row[0] % JOKER_CODE // N_RANKS, row[0] % N_RANKS, row[0] % N_RANKS
    if row[0] % N_RANKS == row[1] % N_RANKS:
        return 0, 0, row[0] % N_RANKS, row[0] % N_RANKS
    start = row[0] % N_RANKS
    return 1, row[0] % JOKER_CODE // N_RANKS, start, start + n - 1


@njit(cache=True)
def _same(a, na, b, nb):
    if na != nb:
        return False
    for j in range(na):
        if a[j] != b[j]:
            return False
    return True


@njit(cache=True)
def _has_joker(row, n):
    for j in range(n):
        if row[j] >= JOKER_CODE:
            return True
    return False


@njit(cache=True)
def lay_out(new, new_len, old, old_len):
    """``(rows, lengths, changed)``: the new table in reading order, survivors first."""
    n_new = new_len.shape[0]
    n_old = old_len.shape[0]
    kind = np.empty(n_new, dtype=np.int64)
    suit = np.empty(n_new, dtype=np.int64)
    first = np.empty(n_new, dtype=np.int64)
    last = np.empty(n_new, dtype=np.int64)
    for g in range(n_new):
        kind[g], suit[g], first[g], last[g] = _span(new[g], new_len[g])
    used = np.zeros(n_new, dtype=np.bool_)
    out = np.full((n_new + n_old, ROW_WIDTH), -1, dtype=np.int64)
    out_len = np.zeros(n_new + n_old, dtype=np.int64)
    changed = np.zeros(n_new + n_old, dtype=np.bool_)
    count = 0
    matched = np.zeros(n_old, dtype=np.bool_)
    for o in range(n_old):
        for g in range(n_new):
            if not used[g] and _same(new[g], new_len[g], old[o], old_len[o]):
                used[g] = True
                matched[o] = True
                out[count, : new_len[g]] = new[g, : new_len[g]]
                out_len[count] = new_len[g]
                count += 1
                break
    pieces = np.empty(n_new, dtype=np.int64)
    for o in range(n_old):  # a survivor rebuilt from pieces (CP-SAT's 3..5-card runs)
        o_kind, o_suit, at, end = _span(old[o], old_len[o])
        if matched[o] or o_kind != 1:
            continue
        n_pieces = 0
        while at <= end:
            found = -1
            offset = at - old[o, 0] % N_RANKS
            for g in range(n_new):
                if not used[g] and kind[g] == 1 and suit[g] == o_suit and first[g] == at \
                        and last[g] <= end and _same(new[g], new_len[g], old[o, offset:],
                                                     new_len[g]):
                    found = g
                    break
            if found < 0:
                break
            used[found] = True
            pieces[n_pieces] = found
            n_pieces += 1
            at = last[found] + 1
        if at > end:
            out[count, : old_len[o]] = old[o, : old_len[o]]
            out_len[count] = old_len[o]
            count += 1
        else:
            for p in range(n_pieces):
                used[pieces[p]] = False
    # The rest, in reading order: sets by rank, runs by suit and start, singles last.
    rest = np.empty(n_new, dtype=np.int64)
    n_rest = 0
    for g in range(n_new):
        if not used[g]:
            rest[n_rest] = g
            n_rest += 1
    keys = np.empty(n_rest, dtype=np.int64)
    for i in range(n_rest):
        g = rest[i]
        keys[i] = (kind[g] * 16 + (suit[g] if kind[g] == 1 else first[g])) * 64 + (
            first[g] if kind[g] == 1 else suit[g])
    order = np.argsort(keys, kind="mergesort")
    for i in range(n_rest):
        g = rest[order[i]]
        prev = count - 1
        if kind[g] == 1 and prev >= 0 and changed[prev] and out_len[prev] >= 3 \
                and not _has_joker(new[g], new_len[g]) and not _has_joker(out[prev],
                                                                          out_len[prev]) \
                and out[prev, 0] % N_RANKS != out[prev, 1] % N_RANKS \
                and out[prev, 0] % JOKER_CODE // N_RANKS == suit[g] \
                and out[prev, 0] % N_RANKS + out_len[prev] == first[g] \
                and out_len[prev] + new_len[g] <= MAX_RUN:
            out[prev, out_len[prev]: out_len[prev] + new_len[g]] = new[g, : new_len[g]]
            out_len[prev] += new_len[g]
            continue
        out[count, : new_len[g]] = new[g, : new_len[g]]
        out_len[count] = new_len[g]
        changed[count] = True
        count += 1
    return out[:count], out_len[:count], changed[:count]


def pad(groups: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """Index tuples as a padded array and lengths."""
    array = np.full((len(groups), ROW_WIDTH), -1, dtype=np.int64)
    for row, group in enumerate(groups):
        array[row, : len(group)] = group
    return array, np.array([len(g) for g in groups], dtype=np.int64)
