"""The opening play in numba: the most valuable disjoint groups from the hand alone.

While a variant's opening rule binds (docs/rules.md: 36 points from the hand before touching the
table), the play is a packing of candidate groups into the hand's cards. ``pack_hand`` is an
exact depth-first search over cards in index order: each card's options are the candidate groups
whose smallest card it is, then "keep its remaining copies in the hand"; branches that cannot
beat the best packing or reach the points needed are cut.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.constants import NO_SCORE

# Fields of a search frame, ``frames[d, :]``: its card, its next option, the group its current
# option took (-1: none), the copies of the card it set aside (-1: none), score and points so far.
CARD, NEXT, GROUP, SAVED, SCORE, POINTS = range(6)
N_FRAME_FIELDS = 6


@njit(cache=True)
def pack_hand(counts, weight, points, min_points, group_cards, group_len):
    """Most valuable set of disjoint groups from ``counts`` worth at least ``min_points``.

    ``group_cards[g, :group_len[g]]`` lists the card indices of candidate group ``g``.
    Returns ``(best, chosen)``: the best weight (``NO_SCORE`` if no packing reaches
    ``min_points``) and the indices of the chosen groups.
    """
    n = counts.shape[0]
    by_min, by_min_ptr = _groups_by_smallest_card(n, group_cards, group_len)
    rest_w = _suffix_sums(counts * weight)
    rest_p = _suffix_sums(counts * points)
    work = counts.copy()
    # Iterative depth-first search (numba cannot cache recursive functions): frame d works on
    # card frames[d, CARD], trying its options frames[d, NEXT] onwards.
    frames = np.zeros((counts.sum() + 2, N_FRAME_FIELDS), dtype=np.int64)
    frames[:, GROUP] = -1
    frames[:, SAVED] = -1
    best = 0 if min_points <= 0 else NO_SCORE
    best_groups = np.zeros(frames.shape[0], dtype=np.int64)
    n_best = 0
    first = _next_card(work, 0)
    if first == n:
        return best, best_groups[:0].copy()
    _open_frame(frames[0], first, by_min_ptr[first], 0, 0)
    depth = 0
    while depth >= 0:
        i = frames[depth, CARD]
        _undo(frames[depth], work, group_cards, group_len)
        option = frames[depth, NEXT]
        if option > by_min_ptr[i + 1]:
            depth -= 1
            continue
        frames[depth, NEXT] = option + 1
        gain_w = 0
        gain_p = 0
        if option < by_min_ptr[i + 1]:
            g = by_min[option]
            if not _fits(work, group_cards[g], group_len[g]):
                continue
            gain_w, gain_p = _take(work, group_cards[g], group_len[g], weight, points)
            frames[depth, GROUP] = g
        else:  # keep the remaining copies of card i in the hand
            frames[depth, SAVED] = work[i]
            work[i] = 0
        child = _next_card(work, i)
        score = frames[depth, SCORE] + gain_w
        pts = frames[depth, POINTS] + gain_p
        if child == n:
            if pts >= min_points and score > best:
                best = score
                n_best = _collect(frames, depth, best_groups)
            continue
        if score + rest_w[child] <= best or pts + rest_p[child] < min_points:
            continue
        depth += 1
        _open_frame(frames[depth], child, by_min_ptr[child], score, pts)
    return best, best_groups[:n_best].copy()


@njit(cache=True)
def _groups_by_smallest_card(n, group_cards, group_len):
    """``(by_min, ptr)``: group indices sorted by their smallest card (stable), and the start
    of each card's run in that order (``ptr[i] .. ptr[i + 1]``)."""
    n_groups = group_cards.shape[0]
    low = np.empty(n_groups, dtype=np.int64)
    for g in range(n_groups):
        m = group_cards[g, 0]
        for j in range(group_len[g]):
            m = min(m, group_cards[g, j])
        low[g] = m
    by_min = np.argsort(low, kind="mergesort").astype(np.int64)
    ptr = np.zeros(n + 1, dtype=np.int64)
    for g in range(n_groups):
        ptr[low[g] + 1] += 1
    for i in range(n):
        ptr[i + 1] += ptr[i]
    return by_min, ptr


@njit(cache=True)
def _suffix_sums(values):
    """``out[i] = values[i:].sum()``, with ``out[len(values)] = 0``."""
    out = np.zeros(values.shape[0] + 1, dtype=np.int64)
    for i in range(values.shape[0] - 1, -1, -1):
        out[i] = out[i + 1] + values[i]
    return out


@njit(cache=True)
def _next_card(work, i):
    """The first card from ``i`` on with copies left (``len(work)`` if none)."""
    while i < work.shape[0] and work[i] == 0:
        i += 1
    return i


@njit(cache=True)
def _undo(frame, work, group_cards, group_len):
    """Give back what the frame's previous option took from ``work``."""
    g = frame[GROUP]
    if g >= 0:
        for j in range(group_len[g]):
            work[group_cards[g, j]] += 1
        frame[GROUP] = -1
    if frame[SAVED] >= 0:
        work[frame[CARD]] = frame[SAVED]
        frame[SAVED] = -1


@njit(cache=True)
def _open_frame(frame, card, first_option, score, pts):
    """Start a frame on ``card`` with its first option, nothing taken yet."""
    frame[CARD] = card
    frame[NEXT] = first_option
    frame[GROUP] = -1
    frame[SAVED] = -1
    frame[SCORE] = score
    frame[POINTS] = pts


@njit(cache=True)
def _fits(work, cards, length):
    """True when every card of the group is still in ``work``."""
    for j in range(length):
        if work[cards[j]] == 0:
            return False
    return True


@njit(cache=True)
def _take(work, cards, length, weight, points):
    """Take the group's cards out of ``work``: ``(weight, points)`` it adds."""
    gain_w = 0
    gain_p = 0
    for j in range(length):
        c = cards[j]
        work[c] -= 1
        gain_w += weight[c]
        gain_p += points[c]
    return gain_w, gain_p


@njit(cache=True)
def _collect(frames, depth, best_groups):
    """Copy the groups chosen on frames ``0..depth`` to ``best_groups``; return how many."""
    n_best = 0
    for d in range(depth + 1):
        if frames[d, GROUP] >= 0:
            best_groups[n_best] = frames[d, GROUP]
            n_best += 1
    return n_best
