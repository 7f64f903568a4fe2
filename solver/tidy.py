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

from collections.abc import Sequence

import numpy as np
from numba import njit

from solver.constants import JOKER_CODE, MAX_RUN, N_RANKS, ROW_WIDTH

SET, RUN, SINGLE = 0, 1, 2  # kinds of a group row


@njit(cache=True)
def _span(row, n):
    """(kind, suit, first slot, last slot) of a group row."""
    if n == 1:
        return SINGLE, row[0] % JOKER_CODE // N_RANKS, row[0] % N_RANKS, row[0] % N_RANKS
    if row[0] % N_RANKS == row[1] % N_RANKS:
        return SET, 0, row[0] % N_RANKS, row[0] % N_RANKS
    start = row[0] % N_RANKS
    return RUN, row[0] % JOKER_CODE // N_RANKS, start, start + n - 1


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
    spans = np.empty((n_new, 4), dtype=np.int64)  # kind, suit, first, last
    for g in range(n_new):
        spans[g, 0], spans[g, 1], spans[g, 2], spans[g, 3] = _span(new[g], new_len[g])
    used = np.zeros(n_new, dtype=np.bool_)
    out = np.full((n_new + n_old, ROW_WIDTH), -1, dtype=np.int64)
    out_len = np.zeros(n_new + n_old, dtype=np.int64)
    changed = np.zeros(n_new + n_old, dtype=np.bool_)
    matched, count = _keep_intact(new, new_len, old, old_len, used, out, out_len)
    for o in range(n_old):  # a survivor rebuilt from pieces (CP-SAT's 3..5-card runs)
        if not matched[o] and _rebuilt(new, new_len, spans, old[o], old_len[o], used):
            count = _append(out, out_len, count, old[o], old_len[o])
    for g in _rest_in_reading_order(spans, used):
        prev = count - 1
        if prev >= 0 and changed[prev] and _extends(out[prev], out_len[prev], new[g],
                                                    new_len[g], spans[g]):
            out[prev, out_len[prev]: out_len[prev] + new_len[g]] = new[g, : new_len[g]]
            out_len[prev] += new_len[g]
            continue
        changed[count] = True
        count = _append(out, out_len, count, new[g], new_len[g])
    return out[:count], out_len[:count], changed[:count]


@njit(cache=True)
def _append(out, out_len, count, row, n):
    """Copy the group row to ``out[count]``; return the new count."""
    out[count, :n] = row[:n]
    out_len[count] = n
    return count + 1


@njit(cache=True)
def _keep_intact(new, new_len, old, old_len, used, out, out_len):
    """Table groups found unchanged among the new ones, in their old order: ``(matched, count)``
    with ``matched[o]`` for each old group kept, the new groups taken marked in ``used``.
    Rows are compared whole only when their ``_row_key``s agree (a few in a whole table)."""
    matched = np.zeros(old_len.shape[0], dtype=np.bool_)
    new_keys = np.empty(new_len.shape[0], dtype=np.int64)
    for g in range(new_len.shape[0]):
        new_keys[g] = _row_key(new[g], new_len[g])
    count = 0
    for o in range(old_len.shape[0]):
        key = _row_key(old[o], old_len[o])
        for g in range(new_len.shape[0]):
            if new_keys[g] == key and not used[g] and _same(new[g], new_len[g], old[o],
                                                            old_len[o]):
                used[g] = True
                matched[o] = True
                count = _append(out, out_len, count, new[g], new_len[g])
                break
    return matched, count


@njit(cache=True, inline="always")
def _row_key(row, n):
    """A number equal for equal group rows: their length, first and last code."""
    return (n * 256 + row[0]) * 256 + row[n - 1]


@njit(cache=True)
def _rebuilt(new, new_len, spans, row, n, used):
    """True (and the pieces marked in ``used``) when unused new runs, end to end, rebuild the
    old run ``row[:n]`` exactly."""
    kind, suit, at, end = _span(row, n)
    if kind != RUN:
        return False
    pieces = np.empty(new_len.shape[0], dtype=np.int64)
    n_pieces = 0
    while at <= end:
        found = -1
        offset = at - row[0] % N_RANKS
        for g in range(new_len.shape[0]):
            if not used[g] and spans[g, 0] == RUN and spans[g, 1] == suit and \
                    spans[g, 2] == at and spans[g, 3] <= end and \
                    _same(new[g], new_len[g], row[offset:], new_len[g]):
                found = g
                break
        if found < 0:
            for p in range(n_pieces):
                used[pieces[p]] = False
            return False
        used[found] = True
        pieces[n_pieces] = found
        n_pieces += 1
        at = spans[found, 3] + 1
    return True


@njit(cache=True)
def _rest_in_reading_order(spans, used):
    """The unused new groups in reading order: sets by rank, runs by suit and start, singles
    last."""
    rest = np.flatnonzero(~used)
    keys = np.empty(rest.shape[0], dtype=np.int64)
    for i in range(rest.shape[0]):
        kind, suit, first = spans[rest[i], 0], spans[rest[i], 1], spans[rest[i], 2]
        keys[i] = (kind * 16 + (suit if kind == RUN else first)) * 64 + (
            first if kind == RUN else suit)
    return rest[np.argsort(keys, kind="mergesort")]


@njit(cache=True)
def _extends(prev, prev_len, row, n, span):
    """True when the run ``row[:n]`` continues the changed run ``prev`` (same suit, next rank,
    no joker in either, at most ``MAX_RUN`` cards together)."""
    return span[0] == RUN and prev_len >= 3 and not _has_joker(row, n) \
        and not _has_joker(prev, prev_len) \
        and prev[0] % N_RANKS != prev[1] % N_RANKS \
        and prev[0] % JOKER_CODE // N_RANKS == span[1] \
        and prev[0] % N_RANKS + prev_len == span[2] \
        and prev_len + n <= MAX_RUN


def pad(groups: Sequence[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """Index tuples as a padded array and lengths."""
    array = np.full((len(groups), ROW_WIDTH), -1, dtype=np.int64)
    for row, group in enumerate(groups):
        array[row, : len(group)] = group
    return array, np.array([len(g) for g in groups], dtype=np.int64)
