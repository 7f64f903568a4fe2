"""A Lagrangian bound for the lexicographic hint search (``solver.kernel_lex``).

The search maximizes ``value * W + kept`` over plays laid rank by rank. Its own bound counts
every group still undecided as kept, less what the hand's cores must change: on the suite's
slowest hints about 2 groups at the root against about 6 changed in the answers. This bound
splits the play in two parts linked only by the set cards ``k[t, s]`` each suit gives to
sets at each step:

- per suit, its run cards through the automaton, which of its table runs are kept, its
  value (``W`` per point) and kept run weight: a dynamic program over (step, automaton
  state, kept runs still live) (``suit_values``), exact for one suit;
- per step, the set cards ``kv`` and the table sets they keep (``set_keep``).

With prices ``lam[t, s, k]`` on "suit ``s`` gives ``k`` set cards at step ``t``" (added to
the suit part, taken from the set part), the sum of the two parts' maxima bounds every play
(weak duality), for any prices; the prices are improved by subgradient steps at the root.
A price ``mu`` on a point (the suit part counts ``W - mu`` per point, a node adds ``mu`` per
point still to play up to the best value) helps where not every hand card can be played:
with ``mu >= 0``, and no play worth more than the best value, the bound stays above every
play (``value * W <= value * (W - mu) + mu * best``). A node's bound is the sum of its
suits' values from their states plus the set part's maxima for the steps to come, and
``mu`` per point still to play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver import kernel
from solver.constants import N_RANKS, N_SUITS, NO_SCORE
from solver.kernel import BASE, HAND, HI, LO, WEIGHT, _gain

N_STEPS = N_RANKS
MAX_OPTIONS = 256
"""``kernel_lex.MAX_OPTIONS`` (defined here, since ``kernel_lex`` imports this module): the
most options of one suit and set-card count, the size of ``dual``'s ``parts``."""
PATIENCE = 3
"""Subgradient steps without a better bound before the step size halves."""
THETA = 1.0
"""The first step's share of Polyak's step (bound less target over the squared subgradient).
With ``PATIENCE`` these were compared at the root of the bench's slowest positions
(``python -m bench.hint``, 2026-12-01): 3 / 1.0 over 60 steps reached 4.6 groups changed on
#79, 10 / 2.0 over 300 steps 4.8, 20 / 2.0 over 1,000 steps 4.85; the search with the longer
runs was no cheaper in all (``kernel_lex.DUAL_STEPS``)."""


@njit(cache=True)
def open_lists(tables):
    """``(runs[t, s, i], n_open[t, s])``: the runs of suit ``s`` live at node ``t`` (kept
    or not: decided before ``t``, ending at ``t`` or later), global indices."""
    most = 1
    n_open = np.zeros((N_STEPS + 1, N_SUITS), dtype=np.int64)
    for t in range(N_STEPS + 1):
        for s in range(N_SUITS):
            bits = tables.open_runs[t] & tables.suit_mask[s]
            count = 0
            while bits:
                count += bits & 1
                bits >>= 1
            n_open[t, s] = count
            most = max(most, count)
    runs = np.zeros((N_STEPS + 1, N_SUITS, most), dtype=np.int64)
    for t in range(N_STEPS + 1):
        for s in range(N_SUITS):
            bits = tables.open_runs[t] & tables.suit_mask[s]
            i, j = 0, 0
            while bits:
                if bits & 1:
                    runs[t, s, i] = j
                    i += 1
                bits >>= 1
                j += 1
    return runs, n_open


@njit(cache=True, inline="always")
def _local(mask, runs, n_open, t, s):
    """The index of the live kept runs ``mask`` (global bits) among suit ``s``'s open runs at
    node ``t``."""
    local = 0
    for i in range(n_open[t, s]):
        local |= (mask >> runs[t, s, i] & 1) << i
    return local


@njit(cache=True, inline="always")
def _global(local, runs, n_open, t, s):
    """The global bits of the runs ``local`` indexes at node ``t`` (``_local`` undone)."""
    mask = 0
    for i in range(n_open[t, s]):
        if local >> i & 1:
            mask |= 1 << runs[t, s, i]
    return mask


# Fields of a transition of one suit's program: from state, set cards, to state, points,
# run weight kept. A state is ``q * n_local + local`` (``_local``).
TR_FROM, TR_K, TR_TO, TR_POINTS, TR_WEIGHT = range(5)
N_TR_FIELDS = 5


@njit(cache=True)
def transitions(tables, runs, n_open):
    """Each suit's moves from every state reachable from the root: ``(tr, start,
    n_local)``, the moves of suit ``s`` at step ``t`` being rows ``start[t, s]`` to
    ``start[t, s + 1]`` (``start[t + 1, 0]`` after the last suit) of ``tr``. The same moves
    as ``kernel_lex._suit_options`` makes (a subset of the runs decided here kept, ``u``
    copies, ``k`` of them in sets, the rest to the automaton), without prices: those change
    from one subgradient step to the next, the moves do not."""
    cell, cfg, init, delta = tables.cell, tables.cfg, tables.init, tables.delta
    alive = tables.alive
    dec_runs, n_dec, run_cover = tables.dec_runs, tables.n_dec, tables.run_cover
    run_weight, ends_at = tables.run_weight, tables.ends_at
    n_q = delta.shape[0]
    n_local = 1 << runs.shape[2]
    reach = np.zeros((N_STEPS + 1, N_SUITS, n_q * n_local), dtype=np.bool_)
    reach[0, :, 0] = True
    tr = np.zeros((1 << 10, N_TR_FIELDS), dtype=np.int64)
    start = np.zeros(N_STEPS * N_SUITS + 1, dtype=np.int64)
    n = 0
    for t in range(N_STEPS):
        for s in range(N_SUITS):
            start[t * N_SUITS + s] = n
            nd = n_dec[t, s]
            for state in range(n_q * n_local):
                if not reach[t, s, state]:
                    continue
                q, lm = state // n_local, state % n_local
                incoming = _global(lm, runs, n_open, t, s)
                for sub in range((1 << nd) - 1, -1, -1):
                    chosen, weight = 0, 0
                    for i in range(nd):
                        if sub >> i & 1:
                            chosen |= 1 << dec_runs[t, s, i]
                            weight += run_weight[dec_runs[t, s, i]]
                    live = incoming | chosen
                    held = 0
                    bits, j = live, 0
                    while bits:
                        if bits & 1:
                            held += run_cover[j, t]
                        bits >>= 1
                        j += 1
                    after = _local(live & ~ends_at[t], runs, n_open, t + 1, s)
                    for u in range(cell[t, s, HI], max(cell[t, s, LO], held) - 1, -1):
                        points = _gain(u, cell[t, s, BASE], cell[t, s, HAND],
                                       cell[t, s, WEIGHT])
                        for k in range(0, u - held + 1):
                            r = u - held - k
                            for g in range(min(cfg[kernel.GMAX], r) if t == 0 else 0, -1, -1):
                                if t == 0:
                                    if r - g > 0 and cfg[kernel.R0_OK] == 0:
                                        continue
                                    nxt = init[r - g, g]
                                else:
                                    nxt = delta[q, r, 0]
                                if nxt < 0 or not alive[t + 1, s, nxt]:
                                    continue
                                if n == tr.shape[0]:
                                    tr = np.concatenate((tr, np.zeros_like(tr)))
                                tr[n, TR_FROM], tr[n, TR_K] = state, k
                                tr[n, TR_TO] = nxt * n_local + after
                                tr[n, TR_POINTS], tr[n, TR_WEIGHT] = points, weight
                                reach[t + 1, s, nxt * n_local + after] = True
                                n += 1
    start[N_STEPS * N_SUITS] = n
    return tr[:n], start, n_local


@njit(cache=True)
def suit_values(tables, tr, start, lam, big, values):
    """Fill ``values[t, s, state]`` (``NO_SCORE``: no way on): the most suit ``s`` adds from
    node ``t`` in ``state`` (``transitions``), ``big`` per point and prices ``lam[t, s,
    k]`` added for its set cards; return the root's value per suit."""
    n_local = values.shape[2] // tables.delta.shape[0]
    values[:] = NO_SCORE
    for s in range(N_SUITS):
        for q in range(tables.delta.shape[0]):
            if tables.accept[q]:
                values[N_STEPS, s, q * n_local] = 0
    for t in range(N_STEPS - 1, -1, -1):
        for s in range(N_SUITS):
            for i in range(start[t * N_SUITS + s], start[t * N_SUITS + s + 1]):
                after = values[t + 1, s, tr[i, TR_TO]]
                if after == NO_SCORE:
                    continue
                value = tr[i, TR_POINTS] * big + tr[i, TR_WEIGHT] + lam[t, s, tr[i, TR_K]] \
                    + after
                if value > values[t, s, tr[i, TR_FROM]]:
                    values[t, s, tr[i, TR_FROM]] = value
    root = np.empty(N_SUITS, dtype=np.int64)
    for s in range(N_SUITS):
        root[s] = values[0, s, 0]
    return root


@njit(cache=True)
def suit_path(tr, start, lam, big, values, s, ks):
    """Write to ``ks[t]`` the set cards suit ``s`` gives at each step on a play reaching its
    root value (``suit_values``); return its points (-1: none)."""
    state, points = 0, 0
    for t in range(N_STEPS):
        want = values[t, s, state]
        found = False
        for i in range(start[t * N_SUITS + s], start[t * N_SUITS + s + 1]):
            if tr[i, TR_FROM] != state:
                continue
            after = values[t + 1, s, tr[i, TR_TO]]
            if after == NO_SCORE:
                continue
            if tr[i, TR_POINTS] * big + tr[i, TR_WEIGHT] + lam[t, s, tr[i, TR_K]] + after \
                    == want:
                ks[t], points, state = tr[i, TR_K], points + tr[i, TR_POINTS], tr[i, TR_TO]
                found = True
                break
        if not found:
            return -1
    return points


@njit(cache=True)
def set_values(tables, lam, picks):
    """Per step, the most the set part adds (``set_keep`` less the prices of its set cards)
    over the set card vectors each suit can give; ``picks[t]`` the vector chosen."""
    cell, kvecs, set_keep = tables.cell, tables.kvecs, tables.set_keep
    out = np.zeros(N_STEPS, dtype=np.int64)
    for t in range(N_STEPS):
        most, pick = NO_SCORE, -1
        for kv in range(kvecs.shape[0]):
            ok = True
            value = set_keep[t, kv]
            for s in range(N_SUITS):
                if kvecs[kv, s] > cell[t, s, HI]:
                    ok = False
                    break
                value -= lam[t, s, kvecs[kv, s]]
            if ok and value > most:
                most, pick = value, kv
        out[t], picks[t] = most, pick
    return out


@njit(cache=True)
def dual(tables, target, vstar, iterations):
    """Subgradient descent from zero prices, at most ``iterations`` steps (Polyak's, aimed at
    ``target``, the best play known): ``(bound, (values, runs, n_open, n_local, set_rest,
    mu, vstar, W, parts))`` at the prices of the lowest root bound met, ``set_rest[t]`` the set
    part's maxima over steps ``t``.., ``mu`` the price of a point (``vstar``: the best value;
    ``suit_values`` runs with ``W - mu`` per point, and a node adds ``mu`` times the points
    still to play; ``parts``: scratch for ``kernel_lex``'s options, each one's part of a
    child's bound). Stops early once the bound is at most ``target``."""
    runs, n_open = open_lists(tables)
    tr, start, n_local = transitions(tables, runs, n_open)
    copies = tables.cfg[kernel.COPIES]
    big = tables.big
    n_q = tables.delta.shape[0]
    values = np.empty((N_STEPS + 1, N_SUITS, n_q * n_local), dtype=np.int64)
    lam = np.zeros((N_STEPS, N_SUITS, copies + 1), dtype=np.int64)
    price = np.zeros((N_STEPS, N_SUITS, copies + 1), dtype=np.float64)
    best_lam = lam.copy()
    picks = np.zeros(N_STEPS, dtype=np.int64)
    ks = np.zeros(N_STEPS, dtype=np.int64)
    step = np.zeros((N_STEPS, N_SUITS, copies + 1), dtype=np.float64)
    best, best_mu = NO_SCORE, 0
    mu, mu_price = 0, 0.0
    theta = THETA
    since = 0
    for _ in range(iterations):
        root = suit_values(tables, tr, start, lam, big - mu, values)
        sets = set_values(tables, lam, picks)
        bound = root.sum() + sets.sum() + mu * vstar
        if best == NO_SCORE or bound < best:
            best, best_mu = bound, mu
            best_lam[:] = lam
            since = 0
        else:
            since += 1
            if since >= PATIENCE:
                theta /= 2
                since = 0
        if bound <= target:
            break
        step[:] = 0
        points = 0
        for s in range(N_SUITS):
            points += suit_path(tr, start, lam, big - mu, values, s, ks)
            for t in range(N_STEPS):
                step[t, s, ks[t]] += 1
                step[t, s, tables.kvecs[picks[t], s]] -= 1
        d_mu = vstar - points
        norm = (step * step).sum() + d_mu * d_mu
        if norm == 0:
            break
        size = theta * (bound - target) / norm
        price -= size * step
        lam[:] = np.rint(price).astype(np.int64)
        mu_price = min(max(mu_price - size * d_mu, 0.0), big - 1.0)
        mu = int(np.rint(mu_price))
    suit_values(tables, tr, start, best_lam, big - best_mu, values)
    set_rest = np.zeros(N_STEPS + 1, dtype=np.int64)
    sets = set_values(tables, best_lam, picks)
    for t in range(N_STEPS - 1, -1, -1):
        set_rest[t] = set_rest[t + 1] + sets[t]
    parts = np.zeros((N_SUITS, copies + 1, MAX_OPTIONS), dtype=np.int64)
    return best, (values, runs, n_open, n_local, set_rest, best_mu, vstar, big, parts)


@njit(cache=True)
def unset():
    """A stand-in for ``dual``'s bound before it is built (the same types; never read)."""
    return (np.zeros((1, 1, 1), dtype=np.int64), np.zeros((1, 1, 1), dtype=np.int64),
            np.zeros((1, 1), dtype=np.int64), 1, np.zeros(1, dtype=np.int64), 0, 0, 1,
            np.zeros((1, 1, 1), dtype=np.int64))
