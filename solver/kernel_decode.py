"""Groups from the kernel's moves: sets dealt round-robin, runs cut along an automaton path.

The search (``solver.kernel``) only counts, per rank and suit, the copies used, how many go into
sets (``k``), the high aces (``g``) and the jokers (``z``): ``moves[t, s] = (copies, k, g,
z)``. ``decode_moves`` turns those counts back into actual groups, card codes in reading order
(docs/rules.md §2), padded with -1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.automaton import sets_count
from solver.constants import JOKER_CODE, MAX_GROUPS, N_CARD_TYPES, N_RANKS, N_SUITS, ROW_WIDTH

N_STEPS = N_RANKS  # one step per rank: the ace first, then 2 .. K
USED, SET_CARDS, HIGH_ACES, JOKERS = range(4)  # fields of ``moves[t, s, :]``


@njit(cache=True)
def decode_moves(moves, states, decks, required):
    """Groups (card codes in reading order, padded with -1) from the search's moves.

    ``moves[t, s] = (copies, k, g, z)``. Sets: a step's set cards dealt round-robin into
    ``sets_count`` sets. Runs: per suit, the run-card counts are replayed through the
    nondeterministic run automaton (``states`` lists its ``(n1, n2, n3)``), a path to
    acceptance is found backwards (at least ``required[t, s]`` runs going on from rank ``t - 1``
    to ``t``), and followed forwards with actual runs. Last, ``z`` copies
    of each card become jokers naming it (code ``JOKER_CODE + card``). Returns ``(groups,
    lengths, used)`` with ``used`` the real copies of each card placed; a first length of -1
    flags an undecodable suit.
    """
    groups = np.full((MAX_GROUPS, ROW_WIDTH), -1, dtype=np.int64)
    lengths = np.zeros(MAX_GROUPS, dtype=np.int64)
    n_groups = _deal_sets(moves, groups, lengths)
    index = _state_index(states, decks)
    run_start = np.zeros(decks, dtype=np.int64)
    run_len = np.zeros(decks, dtype=np.int64)
    keep = np.zeros(decks, dtype=np.bool_)
    # scratch space shared by the suits: run cards, reachable states, the path
    r = np.zeros(N_STEPS, dtype=np.int64)
    reach = np.zeros((N_STEPS, states.shape[0]), dtype=np.bool_)
    path = np.zeros(N_STEPS, dtype=np.int64)
    for s in range(N_SUITS):
        _run_cards(moves, s, r)
        g_high = moves[0, s, HIGH_ACES]
        if not _run_path(r, g_high, states, index, required[:, s], reach, path):
            lengths[0] = -1
            return groups, lengths[:1], np.zeros(N_CARD_TYPES, dtype=np.int64)
        n_open, n_groups = _follow_runs(s, r, path, states, run_start, run_len, keep, groups,
                                        lengths, n_groups)
        n_groups = _close_runs(s, g_high, run_start, run_len, n_open, groups, lengths,
                               n_groups, required[:, s])
    _name_jokers(moves, groups, lengths, n_groups)
    used = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for g in range(n_groups):
        for j in range(lengths[g]):
            if groups[g, j] < JOKER_CODE:
                used[groups[g, j]] += 1
    return groups[:n_groups], lengths[:n_groups], used


@njit(cache=True)
def _deal_sets(moves, groups, lengths):
    """Deal each step's set cards round-robin into its sets, suits with most cards first (so
    copies of one suit land in different sets); returns the number of groups written."""
    n_groups = 0
    order = np.zeros(N_SUITS, dtype=np.int64)
    for t in range(N_STEPS):
        n = sets_count(moves[t, 0, SET_CARDS], moves[t, 1, SET_CARDS], moves[t, 2, SET_CARDS],
                       moves[t, 3, SET_CARDS])
        if n <= 0:
            continue
        for s in range(N_SUITS):
            order[s] = s
        for i in range(1, N_SUITS):  # stable insertion sort, most set cards first
            j = i
            while j > 0 and moves[t, order[j], SET_CARDS] > moves[t, order[j - 1], SET_CARDS]:
                tmp = order[j]
                order[j] = order[j - 1]
                order[j - 1] = tmp
                j -= 1
        position = 0
        for i in range(N_SUITS):
            s = order[i]
            for _ in range(moves[t, s, SET_CARDS]):
                g = n_groups + position % n
                groups[g, lengths[g]] = s * N_RANKS + t
                lengths[g] += 1
                position += 1
        for g in range(n_groups, n_groups + n):  # reading order: suits S H D C
            _sort_short(groups[g], lengths[g])
        n_groups += n
    return n_groups


@njit(cache=True)
def _sort_short(row, n):
    """Sort ``row[:n]`` in place (a set: at most four cards)."""
    for i in range(1, n):
        code = row[i]
        j = i
        while j > 0 and row[j - 1] > code:
            row[j] = row[j - 1]
            j -= 1
        row[j] = code


@njit(cache=True)
def _state_index(states, decks):
    """``index[n1, n2, n3]``: the row of ``states`` holding that run configuration."""
    index = np.full((decks + 1, decks + 1, decks + 1), -1, dtype=np.int64)
    for i in range(states.shape[0]):
        index[states[i, 0], states[i, 1], states[i, 2]] = i
    return index


@njit(cache=True)
def _run_cards(moves, s, r):
    """Write to ``r`` the cards suit ``s`` gives to runs at each step (at the ace: the low
    aces only)."""
    r[0] = moves[0, s, USED] - moves[0, s, SET_CARDS] - moves[0, s, HIGH_ACES]
    for t in range(1, N_STEPS):
        r[t] = moves[t, s, USED] - moves[t, s, SET_CARDS]


@njit(cache=True)
def _run_path(r, g_high, states, index, required, reach, path):
    """True when ``path`` (written here) holds automaton states, step by step, from the ace
    to an accepting state after the king (no run of one card, the runs of two each taking a
    high ace), with at least ``required[t]`` runs going on into step ``t``; ``reach`` is
    scratch space."""
    n_states = states.shape[0]
    reach[:] = False
    reach[0, index[r[0], 0, 0]] = True
    for t in range(1, N_STEPS):
        for i in range(n_states):
            if not reach[t - 1, i]:
                continue
            n1, n2, n3 = states[i, 0], states[i, 1], states[i, 2]
            x = r[t] - n1 - n2
            if x < 0:
                continue
            for e in range(min(n3, x) + 1):
                if n1 + n2 + e >= required[t]:
                    reach[t, index[x - e, n1, n2 + e]] = True
    path[:] = 0
    end = -1
    for j in range(n_states):
        if reach[N_STEPS - 1, j] and states[j, 0] == 0 and \
                states[j, 1] <= g_high <= states[j, 1] + states[j, 2]:
            end = j
            break
    if end < 0:
        return False
    path[N_STEPS - 1] = end
    for t in range(N_STEPS - 1, 0, -1):  # backwards: a reachable predecessor of each state
        j = path[t]
        for i in range(n_states):
            if not reach[t - 1, i]:
                continue
            e = states[j, 2] - states[i, 1]
            x = r[t] - states[i, 0] - states[i, 1]
            if states[j, 1] == states[i, 0] and e >= 0 and e <= min(states[i, 2], x) and \
                    states[j, 0] == x - e and states[i, 0] + states[i, 1] + e >= required[t]:
                path[t - 1] = i
                break
    return True


@njit(cache=True)
def _emit_run(groups, lengths, n_groups, s, start, length):
    """Write the run of suit ``s`` from rank index ``start`` as group ``n_groups``."""
    for a in range(length):
        groups[n_groups, a] = s * N_RANKS + start + a
    lengths[n_groups] = length
    return n_groups + 1


@njit(cache=True)
def _follow_runs(s, r, path, states, run_start, run_len, keep, groups, lengths, n_groups):
    """Follow ``path`` with real runs ``(run_start, run_len)``, up to ``decks`` open: at each
    step the short runs and ``e`` complete ones take a card, the other complete runs end,
    the rest of the cards start runs (``keep``: scratch space). Returns ``(open runs,
    groups written)``."""
    n_open = 0
    for _ in range(r[0]):
        run_start[n_open] = 0
        run_len[n_open] = 1
        n_open += 1
    for t in range(1, N_STEPS):
        i = path[t - 1]
        j = path[t]
        e = states[j, 2] - states[i, 1]
        x = r[t] - states[i, 0] - states[i, 1]
        extended = 0
        for q in range(n_open):
            keep[q] = run_len[q] < 3
            if run_len[q] >= 3 and extended < e:
                keep[q] = True
                extended += 1
        m = 0
        for q in range(n_open):
            if keep[q]:
                run_start[m] = run_start[q]
                run_len[m] = run_len[q] + 1
                m += 1
            else:
                n_groups = _emit_run(groups, lengths, n_groups, s, run_start[q], run_len[q])
        for _ in range(x - e):
            run_start[m] = t
            run_len[m] = 1
            m += 1
        n_open = m
    return n_open, n_groups


@njit(cache=True)
def _close_runs(s, g_high, run_start, run_len, n_open, groups, lengths, n_groups,
                required):
    """After the king: runs of two take a high ace first, then complete runs; the rest end.

    No run may hold both aces: a run that began at the low ace (A..K) is cut in two before
    its second part takes the high ace: after A 2 3, or later where a run must go on into
    the next rank (``required``, vatican's held jokers). Returns the number of groups
    written.
    """
    aces = g_high
    for want_short in (True, False):
        for q in range(n_open):
            if (run_len[q] < 3) != want_short or aces == 0 or run_len[q] == 0:
                continue
            if run_start[q] == 0:
                cut = 3
                while cut < N_STEPS - 2 and required[cut] > 0:
                    cut += 1
                n_groups = _emit_run(groups, lengths, n_groups, s, 0, cut)
                run_start[q] = cut
                run_len[q] -= cut
            n_groups = _emit_run(groups, lengths, n_groups, s, run_start[q], run_len[q])
            groups[n_groups - 1, run_len[q]] = s * N_RANKS  # the high ace
            lengths[n_groups - 1] += 1
            aces -= 1
            run_len[q] = 0
    for q in range(n_open):
        if run_len[q] > 0:
            n_groups = _emit_run(groups, lengths, n_groups, s, run_start[q], run_len[q])
    return n_groups


@njit(cache=True)
def _name_jokers(moves, groups, lengths, n_groups):
    """Make ``z`` copies of each card jokers naming it, the first copies in group order."""
    for t in range(N_STEPS):
        for s in range(N_SUITS):
            left = moves[t, s, JOKERS]
            code = s * N_RANKS + t
            for g in range(n_groups):
                if left == 0:
                    break
                for j in range(lengths[g]):
                    if groups[g, j] == code:
                        groups[g, j] = code + JOKER_CODE
                        left -= 1
                        break
