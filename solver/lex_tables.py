"""The arrays of the lexicographic hint search (``solver.kernel_lex``), built in numba.

The table's groups (padded rows of card codes in reading order, docs/rules.md §2) become
*runs* (one suit, consecutive ranks; a run closed by a high ace holds the ace step too) and
*sets* (one rank, distinct suits). Each gets the weight keeping it is worth. A run's keep is
decided at its first step (the ace step for a run closed by a high ace) and it is live until
its last. A set's keep is a lookup per step and set-card vector. Building all of it here
keeps a hint's set-up to one call.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver import kernel
from solver.automaton import sets_count
from solver.constants import N_RANKS, N_SUITS
from solver.kernel_lex import (
    MAX_OPTIONS,
    N_OPT_FIELDS,
    N_STEPS,
    LexTables,
    _widened_bounds,
    _widened_live,
)

MAX_SETS = 8
"""The most table sets of one rank the search keeps track of (two decks hold two)."""


@njit(cache=True)
def split_groups(rows, lengths, weights):
    """Runs and sets of the table's groups: ``(run_suit, run_dec, run_end, run_cover,
    run_group, set_suits, set_weight, set_group, n_sets)``; a run's ``run_dec`` is the step
    its keep is decided at, ``run_end`` its last live step; ``set_*[t, i]`` the ``i``-th set
    of step ``t`` (suits as bits, weight, group index). ``n_sets[t]`` is -1 when a step has
    more than ``MAX_SETS`` sets."""
    n = lengths.shape[0]
    n_runs = 0
    for i in range(n):
        if rows[i, 0] % N_RANKS != rows[i, 1] % N_RANKS:
            n_runs += 1
    run_suit = np.zeros(n_runs, dtype=np.int64)
    run_dec = np.zeros(n_runs, dtype=np.int64)
    run_end = np.zeros(n_runs, dtype=np.int64)
    run_cover = np.zeros((n_runs, N_STEPS), dtype=np.int64)
    run_group = np.zeros(n_runs, dtype=np.int64)
    set_suits = np.zeros((N_STEPS, MAX_SETS), dtype=np.int64)
    set_weight = np.zeros((N_STEPS, MAX_SETS), dtype=np.int64)
    set_group = np.zeros((N_STEPS, MAX_SETS), dtype=np.int64)
    n_sets = np.zeros(N_STEPS, dtype=np.int64)
    j = 0
    for i in range(n):
        first, last = rows[i, 0], rows[i, lengths[i] - 1]
        if first % N_RANKS == rows[i, 1] % N_RANKS:
            t = first % N_RANKS
            if n_sets[t] < 0 or n_sets[t] == MAX_SETS:
                n_sets[t] = -1
                continue
            for c in range(lengths[i]):
                set_suits[t, n_sets[t]] |= 1 << (rows[i, c] // N_RANKS)
            set_weight[t, n_sets[t]], set_group[t, n_sets[t]] = weights[i], i
            n_sets[t] += 1
            continue
        high = last % N_RANKS == 0 and first % N_RANKS != 0
        run_suit[j], run_group[j] = first // N_RANKS, i
        run_dec[j] = 0 if high else first % N_RANKS
        run_end[j] = N_STEPS - 1 if high else last % N_RANKS
        for c in range(lengths[i]):
            run_cover[j, rows[i, c] % N_RANKS] = 1
        j += 1
    return (run_suit, run_dec, run_end, run_cover, run_group, set_suits, set_weight,
            set_group, n_sets)


@njit(cache=True)
def set_keeps(kvecs, set_suits, set_weight, n_sets):
    """``(set_keep[t, kv], set_choice[t, kv])``: the most weight of step ``t``'s table sets
    that the set cards ``kvecs[kv]`` can hold with the rest still splitting into sets, and
    those sets (bits)."""
    keep = np.zeros((N_STEPS, kvecs.shape[0]), dtype=np.int64)
    choice = np.zeros((N_STEPS, kvecs.shape[0]), dtype=np.int64)
    rest = np.zeros(N_SUITS, dtype=np.int64)
    for t in range(N_STEPS):
        for kv in range(kvecs.shape[0]):
            for sub in range(1, 1 << max(n_sets[t], 0)):
                rest[:] = kvecs[kv]
                weight = 0
                for i in range(n_sets[t]):
                    if sub >> i & 1:
                        weight += set_weight[t, i]
                        for s in range(N_SUITS):
                            rest[s] -= set_suits[t, i] >> s & 1
                if rest.min() < 0 or weight <= keep[t, kv]:
                    continue
                if sets_count(rest[0], rest[1], rest[2], rest[3]) >= 0:
                    keep[t, kv], choice[t, kv] = weight, sub
    return keep, choice


@njit(cache=True)
def _run_index(run_suit, run_dec, run_end, run_cover, run_weight):
    """``(dec_runs, n_dec, suit_mask, ends_at, cover_max, keep_runs)``: the runs decided at
    each step and suit, each suit's runs and the runs ending at each step (bits), how many
    runs of a suit hold a card of each step, and the run weight decided at steps ``t``..."""
    n_runs = run_suit.shape[0]
    dec_runs = np.zeros((N_STEPS, N_SUITS, max(n_runs, 1)), dtype=np.int64)
    n_dec = np.zeros((N_STEPS, N_SUITS), dtype=np.int64)
    suit_mask = np.zeros(N_SUITS, dtype=np.int64)
    ends_at = np.zeros(N_STEPS, dtype=np.int64)
    cover_max = np.zeros((N_STEPS, N_SUITS), dtype=np.int64)
    keep_runs = np.zeros(N_STEPS + 1, dtype=np.int64)
    for j in range(n_runs):
        s, t = run_suit[j], run_dec[j]
        dec_runs[t, s, n_dec[t, s]] = j
        n_dec[t, s] += 1
        suit_mask[s] |= 1 << j
        ends_at[run_end[j]] |= 1 << j
        cover_max[:, s] += run_cover[j]
        keep_runs[: t + 1] += run_weight[j]
    return dec_runs, n_dec, suit_mask, ends_at, cover_max, keep_runs


@njit(cache=True, nogil=True)
def build(cell, cfg, init, delta, accept, kvecs, rows, lengths, weights, big, runs, sets,
          hand, free, triples, value, room):
    """The ``LexTables`` of one search: ``runs``/``sets`` from ``split_groups``, ``weights``
    per group, ``big`` the value's multiplier ``W``, ``hand``/``free`` the hand's and the
    singles' counts, ``triples`` the three-card runs (``hand_cores``), ``value`` the best
    value, ``room`` the key bits left for tracking hand cores (``core_tracking``)."""
    run_suit, run_dec, run_end, run_cover = runs
    set_suits, set_weight, n_sets = sets
    run_weight = np.zeros(run_suit.shape[0], dtype=np.int64)
    j = 0
    for i in range(lengths.shape[0]):
        if rows[i, 0] % N_RANKS != rows[i, 1] % N_RANKS:
            run_weight[j] = weights[i]
            j += 1
    dec_runs, n_dec, suit_mask, ends_at, cover_max, keep_runs = _run_index(
        run_suit, run_dec, run_end, run_cover, run_weight)
    set_keep, set_choice = set_keeps(kvecs, set_suits, set_weight, n_sets)
    keep_rest = keep_runs.copy()
    for t in range(N_STEPS - 1, -1, -1):
        keep_rest[t] += keep_rest[t + 1] - keep_runs[t + 1] + set_keep[t].max()
    copies = cfg[kernel.COPIES]
    ref_k, ref_g, _ = kernel.table_reference(rows, lengths)
    n_q = delta.shape[0]
    decided = _decided(run_dec, run_end, set_weight, n_sets)
    set_flat, set_w = decided[3], decided[4]
    gains = kernel._gain_bounds(cell)
    cores = hand_cores(cell, hand + free, (run_suit, run_end, run_cover),
                       (set_suits, set_flat, n_sets), triples, value == gains[0])
    last, hit_runs, hit_sets, core_alive = core_tracking(
        cores, min(max(room, 0), cores[0].shape[0]), run_suit.shape[0], set_choice, n_sets,
        set_flat)
    return LexTables(
        cell, cfg, init, delta, accept, _widened_live(cell, delta, accept, cover_max, copies),
        ref_k, ref_g, kvecs, n_q, n_q ** N_SUITS, big, dec_runs, n_dec, run_cover, run_weight,
        suit_mask, ends_at, set_keep, set_choice, keep_rest,
        _widened_bounds(cell, delta, accept, cover_max, copies), gains,
        np.zeros((N_SUITS, copies + 1, MAX_OPTIONS, N_OPT_FIELDS), dtype=np.int64),
        np.zeros((N_SUITS, copies + 1), dtype=np.int64), np.zeros(N_SUITS, dtype=np.int64),
        last, cores[1], cores[2], decided[0], decided[1], decided[2], set_w,
        run_suit.shape[0], hit_runs, hit_sets, core_alive,
        np.zeros(max(run_suit.shape[0], 1), dtype=np.int64), np.zeros_like(set_w))


@njit(cache=True)
def core_tracking(cores, n_track, n_runs, set_choice, n_sets, set_flat):
    """The key's record of the hand cores (``hand_cores``, smallest first) a play has
    already met: each of the first ``n_track`` gets a bit, set when a run or set of the core
    is decided changed (a run decided and not kept; a set of a step that the step's set
    cards ``kvecs[kv]`` do not keep, ``set_choice``) and kept until the core's own step, so
    that ``kernel_lex._core_penalty`` looks at the core until then, not only while every
    one of its groups is still undecided or live. Returns ``(last, hit_runs[j],
    hit_sets[t, kv], alive[t])``: the cores' last steps, the core bits each run and each
    step's set choice set, the bits kept in a key of step ``t``."""
    last, core_runs, core_sets, own = cores
    last = last.copy()
    hit_runs = np.zeros(max(n_runs, 1), dtype=np.int64)
    hit_sets = np.zeros(set_choice.shape, dtype=np.int64)
    alive = np.zeros(N_STEPS + 1, dtype=np.int64)
    for i in range(n_track):
        last[i] = own[i]
        bit = 1 << i
        for j in range(n_runs):
            if core_runs[i] >> j & 1:
                hit_runs[j] |= bit
        for t in range(N_STEPS):
            for k in range(max(n_sets[t], 0)):
                if core_sets[i] >> set_flat[t, k] & 1:
                    for kv in range(set_choice.shape[1]):
                        if not set_choice[t, kv] >> k & 1:
                            hit_sets[t, kv] |= bit
        for t in range(own[i] + 1):
            alive[t] |= bit
    return last, hit_runs, hit_sets, alive


@njit(cache=True)
def _decided(run_dec, run_end, set_weight, n_sets):
    """Per step ``t``: the runs still undecided (decided at ``t`` or later), the runs decided
    before ``t`` and live at ``t`` (kept or not: the node's mask tells), the sets still
    undecided (bits over a flat numbering of sets: ``set_flat[t, i]``, weights ``set_w``)."""
    undecided_runs = np.zeros(N_STEPS + 1, dtype=np.int64)
    open_runs = np.zeros(N_STEPS + 1, dtype=np.int64)
    undecided_sets = np.zeros(N_STEPS + 1, dtype=np.int64)
    for j in range(run_dec.shape[0]):
        for t in range(N_STEPS + 1):
            if run_dec[j] >= t:
                undecided_runs[t] |= 1 << j
            elif t <= run_end[j]:
                open_runs[t] |= 1 << j
    set_flat = np.zeros((N_STEPS, MAX_SETS), dtype=np.int64)
    set_w = np.zeros(N_STEPS * MAX_SETS, dtype=np.int64)
    flat = 0
    for r in range(N_STEPS):
        for i in range(max(n_sets[r], 0)):
            set_flat[r, i], set_w[flat] = flat, set_weight[r, i]
            for t in range(r + 1):
                undecided_sets[t] |= 1 << flat
            flat += 1
    return undecided_runs, open_runs, undecided_sets, set_flat, set_w


@njit(cache=True)
def _alone(there, s, rank, triples):
    """True when the cards ``there`` (the hand's and the singles') alone give the card of
    suit ``s`` at ``rank`` a set (two other suits) or a three-card run (``triples``: each
    three-card run as (card, partner, partner), every card first once)."""
    suits = 0
    for o in range(N_SUITS):
        if o != s and there[o * N_RANKS + rank] > 0:
            suits += 1
    card = s * N_RANKS + rank
    for j in range(triples.shape[0]):
        if triples[j, 0] == card and there[triples[j, 1]] > 0 and there[triples[j, 2]] > 0:
            return True
    return suits >= 2


@njit(cache=True)
def _partner_types(card, triples):
    """Per card type: True where it can share a three-card group with ``card``."""
    partner = np.zeros(N_RANKS * N_SUITS, dtype=np.bool_)
    for o in range(N_SUITS):
        partner[o * N_RANKS + card % N_RANKS] = True
    for j in range(triples.shape[0]):
        if triples[j, 0] == card:
            partner[triples[j, 1]] = partner[triples[j, 2]] = True
    partner[card] = False
    return partner


@njit(cache=True)
def hand_cores(cell, there, runs, sets, triples, all_played):
    """Per hand card that the hand and the singles (``there``) alone cannot place: the table
    runs and sets holding a partner of it (bits; ``runs`` = ``(run_suit, run_end,
    run_cover)``, ``sets`` = ``(set_suits, set_flat, n_sets)``) and the last step at which
    the node's key still tells whether one of them changed (every set still undecided,
    every run still live; and, unless ``all_played`` (every hand card is in the best
    value), not after the card's own step), and that own step (``N_STEPS`` when
    ``all_played``): a core the key tracks (``core_tracking``) is looked at until then. Any
    play of the best value that plays the card changes one of them
    (``kernel_lex._core_penalty``). Sorted smallest first."""
    run_suit, run_end, run_cover = runs
    set_suits, set_flat, n_sets = sets
    n = 0
    last = np.zeros(N_RANKS * N_SUITS, dtype=np.int64)
    own = np.zeros(N_RANKS * N_SUITS, dtype=np.int64)
    core_runs = np.zeros(N_RANKS * N_SUITS, dtype=np.int64)
    core_sets = np.zeros(N_RANKS * N_SUITS, dtype=np.int64)
    sizes = np.zeros(N_RANKS * N_SUITS, dtype=np.int64)
    for s in range(N_SUITS):
        for rank in range(N_RANKS):
            if cell[rank, s, kernel.HAND] == 0 or _alone(there, s, rank, triples):
                continue
            partner = _partner_types(s * N_RANKS + rank, triples)
            last[n] = own[n] = N_STEPS if all_played else rank
            for j in range(run_suit.shape[0]):
                for t in range(N_STEPS):
                    if run_cover[j, t] and partner[run_suit[j] * N_RANKS + t]:
                        core_runs[n] |= 1 << j
                        last[n] = min(last[n], run_end[j])
                        sizes[n] += 1
                        break
            for r in range(N_STEPS):
                for i in range(max(n_sets[r], 0)):
                    for o in range(N_SUITS):
                        if set_suits[r, i] >> o & 1 and partner[o * N_RANKS + r]:
                            core_sets[n] |= 1 << set_flat[r, i]
                            last[n] = min(last[n], r)
                            sizes[n] += 1
                            break
            n += 1
    order = np.argsort(sizes[:n], kind="mergesort")
    return last[:n][order], core_runs[:n][order], core_sets[:n][order], own[:n][order]
