"""The least-disturbing best play in one kernel search: a lexicographic objective.

A hint (``solver.hint``) wants, among the plays reaching the best value, the one that keeps
the most table groups as they lie, then picks up the fewest table cards (docs/rules.md §3: a
play may rearrange the whole table). Keeping table group ``g`` is the same as the new table
holding a group of exactly ``g``'s cards (two-deck copies are identical), so the hint is the
partition maximizing ``value * W + kept``, where ``kept`` sums the weights
``T + 1 + |g|`` (``T`` table cards) of the new groups that match distinct table groups and
``W`` exceeds every ``kept``: the hint's ``changed * (T + 1) + picked_up`` turned around.

The search is the kernel's (``solver.kernel``: ranks as steps, each suit's run cards
following the minimal run automaton, a transposition table), with two additions:

- **kept sets**: a set lies at one rank, so the best weight of the table's sets that a
  step's set cards ``k`` can keep (the rest still splitting into sets) is a table lookup
  (``set_keep[t, kv]``, built by ``solver.lex_hint``);
- **kept runs**: a table run is kept whole or not at all. The choice is made at its first
  step (the ace step for a run closed by a high ace), and until its last step the run is
  *live*: its cards are used, outside the automaton, which takes the suit's other run cards.
  A node's key is the kernel's four automaton states plus the mask of live kept runs.

Nodes are bounded by ``W`` times the kernel's per-suit value bound (widened: kept runs take
cards away from the automaton) plus every weight still to be decided, less what the hand's
cores must still change (``_core_penalty``; the key records which cores a play has met, as
far as its bits allow, so a core counts until its card's step). That bound sees about 2
groups change at the root of the suite's slowest hints, whose answers change about 6; past
``DUAL_AFTER`` work the search also takes ``solver.lex_dual``'s Lagrangian bound (each
suit's runs exact, each rank's sets exact, tied by prices on the set cards), which sees
4-6 there. It is separable by suit, so an expansion leaves out the suit-option combinations
it cuts before writing them as moves (``_combine``; the node's ``ahead`` then counts them as
adding at most what beats nothing). #79's search went from 585,000 work units to 92,000 with
the bound on nodes, and to about 15,000 with the moves left out (145 ms to 23 ms, then to
about 15 ms of CPU at load ~3), the same answers on all 95 of ``python -m bench.hint``'s
positions (2026-12-01). Without jokers only;
``solver.lex_hint`` prepares the arrays and lays out the answer.

Speed: the functions run for every node or move take plain tuples of the arrays they read
(``_expansion``, ``_cores``), never the whole ``LexTables``, and are inlined into the search
loop: numba counts references to every array a call's tuple holds (an atomic add and
subtract each), and calls given ``LexTables`` (40 fields) spent about 45% of a slow search
in those counts (``perf``, 2026-11-30). Rows are read and written element by element for
the same reason (a row view counts a reference). The search's nodes, work and answers are
those of the earlier form; it takes about 0.4x its time (CPU, the 25 slowest bench
positions).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from solver import kernel, lex_dual
from solver.constants import N_RANKS, N_SUITS, NO_SCORE
from solver.kernel import BASE, HAND, HI, LO, WEIGHT, _gain
from solver.kernel_decode import decode_moves

N_STEPS = N_RANKS
# Fields of a generated move: child key, lex gain, move code, rank, runs chosen, sets kept.
MOVE_KEY, MOVE_GAIN, MOVE_CODE, MOVE_RANK, MOVE_RUNS, MOVE_SETS = range(6)
N_MOVE_FIELDS = 6
# Fields of a suit option: code, next automaton state, live mask after, gain, rank, chosen,
# hand cores met (the runs decided here and not kept). Its part of ``lex_dual``'s bound is
# kept apart, in the bound's own scratch (``lex_dual.dual``: ``parts``).
OPT_CODE, OPT_NEXT, OPT_LIVE, OPT_GAIN, OPT_RANK, OPT_CHOSEN, OPT_HIT = range(7)
N_OPT_FIELDS = 7
DUAL_AFTER = 500
"""Work (nodes plus the moves they generate) after which the search builds ``lex_dual``'s
bound (about 1-1.5 ms on a full table, ``DUAL_STEPS`` subgradient steps), bounds every node
with it and leaves out of an expansion the moves it cuts. The search alone on ``python -m
bench.hint``'s 95 positions (thread CPU, best of 3, 2026-12-01, load ~2-3): building it
after 500 / 2,000 / 3,000 / 5,000 units gave medians 1.51 / 1.83 / 2.08 / 2.43 ms, sums
204-242 ms against 1,275 ms without it. The whole hint beside main (interleaved per
position, best of 3, load ~2.5): with 500, median 2.67 against 3.23 ms, worst 14.9 against
44.4 ms, per-position ratio median 0.89; with 2,000 (another run), 3.22 against 3.34 ms,
worst 23.6 against 63.3 ms, ratio median 0.98. The cost: with 500 the positions whose
search ends within a few thousand units (0.9-1.5 ms on main) pay the build, 1.6-2.3x
slower (up to about 2.7 ms)."""
DUAL_STEPS = 60
"""Subgradient steps of ``lex_dual.dual``: on the slowest positions its root bound stops
improving after about 60 (#79: 4.6 groups changed at 60, 4.8 at 1,000, against 6.2 in the
answer; 2.1 by the search's own bound), and 150 or 300 steps saved less search than they
cost (the sweep of ``DUAL_AFTER``)."""
# per suit and set-card count: copies x kept-run subsets x high aces
MAX_OPTIONS = lex_dual.MAX_OPTIONS

LexTables = namedtuple("LexTables", [
    "cell", "cfg", "init", "delta", "accept", "alive", "ref_k", "ref_g", "kvecs", "n_q",
    "base_key", "big", "dec_runs", "n_dec", "run_cover", "run_weight", "suit_mask",
    "ends_at", "set_keep", "set_choice", "keep_rest", "bounds", "ub_rest", "opts", "n_opt",
    "q_of", "core_last", "core_runs", "core_sets", "undecided_runs", "open_runs",
    "undecided_sets", "set_w", "core_shift", "core_hit_runs", "core_hit_sets", "core_alive",
    "run_left", "set_left",
])
LexTables.__doc__ = """What every expansion of one lexicographic search reads.

``cell``/``cfg``/``init``/``delta``/``accept``/``kvecs`` as ``kernel.search`` takes them;
``alive`` and ``bounds`` the widened ``live_states``/``state_bounds``; ``ref_k``/``ref_g``
the table as it lies (move order); ``big`` is ``W``. Runs (global index ``j``):
``dec_runs[t, s, :n_dec[t, s]]`` those whose keep is decided at step ``t``,
``run_cover[j, t]`` whether ``j`` holds a card at step ``t``, ``run_weight[j]``,
``suit_mask[s]`` the runs of suit ``s``, ``ends_at[t]`` those live for the last time at
``t``. ``set_keep[t, kv]``/``set_choice[t, kv]``: the most set weight the set cards
``kvecs[kv]`` keep at step ``t`` and which of the step's table sets (bits). ``keep_rest[t]``:
every weight decided at steps ``t``.. . ``opts``/``n_opt``/``q_of``: scratch. ``core_*``:
the hand cores of ``lex_tables.hand_cores``; ``undecided_runs``/``open_runs``/
``undecided_sets`` and ``set_w`` as ``lex_tables._decided`` builds them. A key's mask
holds the live kept runs (bits ``j``) and, from bit ``core_shift``, the tracked hand cores
already met; ``core_hit_runs``/``core_hit_sets``/``core_alive`` as
``lex_tables.core_tracking`` builds them; ``run_left``/``set_left``: scratch of
``_core_penalty``."""


@njit(cache=True)
def _widened_live(cell, delta, accept, cover_max, copies):
    """``kernel.live_states`` where kept runs (``cover_max[t, s]`` at most) may take cards
    from the automaton: a relaxation, every state it kills is dead."""
    n_q = delta.shape[0]
    alive = np.zeros((N_STEPS + 1, N_SUITS, n_q), dtype=np.bool_)
    for s in range(N_SUITS):
        for q in range(n_q):
            alive[N_STEPS, s, q] = accept[q]
    for t in range(N_STEPS - 1, 0, -1):
        for s in range(N_SUITS):
            top = min(cell[t, s, HI], copies)
            k_max = top if kernel._partners(cell, t, s) >= 2 else 0
            r_min = max(0, cell[t, s, LO] - k_max - cover_max[t, s])
            for q in range(n_q):
                for r in range(r_min, top + 1):
                    nxt = delta[q, r, 0]
                    if nxt >= 0 and alive[t + 1, s, nxt]:
                        alive[t, s, q] = True
                        break
    return alive


@njit(cache=True)
def _widened_bounds(cell, delta, accept, cover_max, copies):
    """``kernel.state_bounds`` where kept runs (``cover_max[t, s]`` at most) may take cards
    from the automaton: the most suit ``s``'s hand cards add from step ``t`` in state ``q``."""
    n_q = delta.shape[0]
    bounds = np.full((N_STEPS + 1, N_SUITS, n_q), NO_SCORE, dtype=np.int64)
    for s in range(N_SUITS):
        for q in range(n_q):
            if accept[q]:
                bounds[N_STEPS, s, q] = 0
    for t in range(N_STEPS - 1, 0, -1):
        for s in range(N_SUITS):
            sets = kernel._partners(cell, t, s) >= 2
            for q in range(n_q):
                most = NO_SCORE
                for u in range(cell[t, s, LO], min(cell[t, s, HI], copies) + 1):
                    gain = _gain(u, cell[t, s, BASE], cell[t, s, HAND], cell[t, s, WEIGHT])
                    low = 0 if sets else max(0, u - cover_max[t, s])
                    for r in range(low, u + 1):
                        nxt = delta[q, r, 0]
                        if nxt >= 0 and bounds[t + 1, s, nxt] > NO_SCORE:
                            most = max(most, gain + bounds[t + 1, s, nxt])
                bounds[t, s, q] = most
    return bounds


@njit(cache=True, inline="always")
def _put(opts, n_opt, s, k, code, nxt, live, gain, rank, chosen, hit):
    j = n_opt[s, k]
    # element writes, no row view: a view costs two atomic reference counts
    opts[s, k, j, OPT_CODE], opts[s, k, j, OPT_NEXT] = code, nxt
    opts[s, k, j, OPT_LIVE], opts[s, k, j, OPT_GAIN] = live, gain
    opts[s, k, j, OPT_RANK], opts[s, k, j, OPT_CHOSEN] = rank, chosen
    opts[s, k, j, OPT_HIT] = hit
    n_opt[s, k] = j + 1


@njit(cache=True, inline="always")
def _option_dual(dual, n_opt, t, s, k, nxt, after, gain, points):
    """Write the next option's (``n_opt[s, k]``) part of ``lex_dual``'s bound on the child
    (step ``t + 1``) to ``parts``: its gain less ``mu`` per point, plus suit ``s``'s value
    from state ``nxt`` with the live kept runs ``after`` (``NO_SCORE`` when none)."""
    values, runs, n_open, n_local, set_rest, mu, vstar, big, parts = dual
    local = 0
    for i in range(n_open[t + 1, s]):
        local |= (after >> runs[t + 1, s, i] & 1) << i
    rest = values[t + 1, s, nxt * n_local + local]
    parts[s, k, n_opt[s, k]] = NO_SCORE if rest == NO_SCORE else gain - mu * points + rest


@njit(cache=True, inline="always")
def _suit_options(ex, t, s, mask, dual, use):
    """List in ``opts[s, k]`` (every ``k``; ``ex``: ``_expansion``) the options of suit ``s``
    at step ``t`` with the live kept runs ``mask``: a subset of the runs decided here kept
    (most first), ``u`` copies used, ``k`` of them in sets, the rest (less the kept runs'
    cards) to the automaton (at the ace: ``g`` high aces and low aces); with ``use``, each
    with its part of ``lex_dual``'s bound (``dual``)."""
    (cell, cfg, init, delta, alive, ref_k, ref_g, kvecs, n_q, base_key, big, dec_runs, n_dec,
     run_cover, run_weight, suit_mask, ends_at, set_keep, set_choice, opts, n_opt, q_of,
     hit_runs, hit_sets, core_alive, core_shift) = ex
    n_dec_here, q = n_dec[t, s], q_of[s]
    incoming = mask & suit_mask[s]
    ends = ends_at[t]
    for k in range(n_opt.shape[1]):
        n_opt[s, k] = 0
    for sub in range((1 << n_dec_here) - 1, -1, -1):
        chosen, weight, hit = 0, 0, 0
        for i in range(n_dec_here):
            j = dec_runs[t, s, i]
            if sub >> i & 1:
                chosen |= 1 << j
                weight += run_weight[j]
            else:
                hit |= hit_runs[j]
        live = incoming | chosen
        held = 0
        bits, j = live, 0
        while bits:
            if bits & 1:
                held += run_cover[j, t]
            bits >>= 1
            j += 1
        after = live & ~ends
        for u in range(cell[t, s, HI], max(cell[t, s, LO], held) - 1, -1):
            points = _gain(u, cell[t, s, BASE], cell[t, s, HAND], cell[t, s, WEIGHT])
            gain = points * big + weight
            for k in range(0, u - held + 1):
                r = u - held - k
                code = kernel._option_code(u, k, 0, 0)
                if t > 0:
                    nxt = delta[q, r, 0]
                    if nxt >= 0 and alive[t + 1, s, nxt]:
                        rank = gain * 16 - abs(k - ref_k[t, s])
                        if use:
                            _option_dual(dual, n_opt, t, s, k, nxt, after, gain, points)
                        _put(opts, n_opt, s, k, code, nxt, after, gain, rank, chosen, hit)
                    continue
                for g in range(min(cfg[kernel.GMAX], r), -1, -1):
                    if r - g > 0 and cfg[kernel.R0_OK] == 0:
                        continue
                    nxt = init[r - g, g]
                    if nxt < 0 or not alive[1, s, nxt]:
                        continue
                    rank = gain * 16 - abs(k - ref_k[0, s]) - abs(g - ref_g[s])
                    if use:
                        _option_dual(dual, n_opt, t, s, k, nxt, after, gain, points)
                    _put(opts, n_opt, s, k, kernel._option_code(u, k, g, 0), nxt, after,
                         gain, rank, chosen, hit)


@njit(cache=True, inline="always")
def _combine(ex, t, kv, met, moves, end, parts, room):
    """Write every combination of the suits' options (``ex``: ``_expansion``) with the set
    cards ``kvecs[kv]`` to ``moves`` from ``end`` (``met``: the tracked hand cores the node
    has met), but those whose parts of ``lex_dual``'s bound add up to ``room`` at most (they
    cannot beat the best: ``_expand``); return the new end and whether any was left out."""
    (cell, cfg, init, delta, alive, ref_k, ref_g, kvecs, n_q, base_key, big, dec_runs, n_dec,
     run_cover, run_weight, suit_mask, ends_at, set_keep, set_choice, opts, n_opt, q_of,
     hit_runs, hit_sets, core_alive, core_shift) = ex
    kvec = kvecs[kv]
    o0, o1 = opts[0, kvec[0]], opts[1, kvec[1]]
    o2, o3 = opts[2, kvec[2]], opts[3, kvec[3]]
    n0, n1 = n_opt[0, kvec[0]], n_opt[1, kvec[1]]
    n2, n3 = n_opt[2, kvec[2]], n_opt[3, kvec[3]]
    set_gain, set_bits = set_keep[t, kv], set_choice[t, kv]
    met |= hit_sets[t, kv]
    alive, shift = core_alive[t + 1], core_shift
    use, left = room > NO_SCORE, room - set_gain
    k0, k1, k2, k3 = kvec[0], kvec[1], kvec[2], kvec[3]
    cut = False
    for a in range(n0):
        for b in range(n1):
            for c in range(n2):
                for d in range(n3):
                    if use and parts[0, k0, a] + parts[1, k1, b] + parts[2, k2, c] + \
                            parts[3, k3, d] <= left:
                        cut = True
                        continue
                    live = o0[a, OPT_LIVE] | o1[b, OPT_LIVE] | o2[c, OPT_LIVE] | o3[d, OPT_LIVE]
                    hit = met | o0[a, OPT_HIT] | o1[b, OPT_HIT] | o2[c, OPT_HIT] | o3[d, OPT_HIT]
                    live |= (hit & alive) << shift
                    # element writes, not a row view (a view costs two atomic refcounts)
                    moves[end, MOVE_KEY] = o0[a, OPT_NEXT] + n_q * (o1[b, OPT_NEXT] + n_q * (
                        o2[c, OPT_NEXT] + n_q * o3[d, OPT_NEXT])) + base_key * live
                    moves[end, MOVE_GAIN] = o0[a, OPT_GAIN] + o1[b, OPT_GAIN] + o2[c, OPT_GAIN] + \
                        o3[d, OPT_GAIN] + set_gain
                    moves[end, MOVE_RANK] = o0[a, OPT_RANK] + o1[b, OPT_RANK] + o2[c, OPT_RANK] + \
                        o3[d, OPT_RANK] + set_gain * 16
                    moves[end, MOVE_CODE] = o0[a, OPT_CODE] | (
                        o1[b, OPT_CODE] << kernel.CODE_BITS) | (
                        o2[c, OPT_CODE] << (2 * kernel.CODE_BITS)) | (
                        o3[d, OPT_CODE] << (3 * kernel.CODE_BITS))
                    moves[end, MOVE_RUNS] = o0[a, OPT_CHOSEN] | o1[b, OPT_CHOSEN] | \
                        o2[c, OPT_CHOSEN] | o3[d, OPT_CHOSEN]
                    moves[end, MOVE_SETS] = set_bits
                    end += 1
    return end, cut


@njit(cache=True, inline="always")
def _expand(t, key, ex, moves, at, dual, room):
    """Write the moves of node (``t``, ``key``) to ``moves`` from row ``at``, best rank
    first; return the new end (``-need`` when ``moves`` needs ``need`` rows) and whether
    some moves were left out: those ``lex_dual``'s bound (``dual``) says add at most
    ``room`` (``NO_SCORE``: none left out, the bound unused). ``ex``: ``_expansion``."""
    (cell, cfg, init, delta, alive, ref_k, ref_g, kvecs, n_q, base_key, big, dec_runs, n_dec,
     run_cover, run_weight, suit_mask, ends_at, set_keep, set_choice, opts, n_opt, q_of,
     hit_runs, hit_sets, core_alive, core_shift) = ex
    rest = key % base_key
    mask = key // base_key
    for s in range(N_SUITS):
        q_of[s] = rest % n_q
        rest //= n_q
    use = room > NO_SCORE
    for s in range(N_SUITS):
        _suit_options(ex, t, s, mask, dual, use)
    end, cut = at, False
    for kv in range(kvecs.shape[0]):  # elements, not a row view: no reference counts
        count = n_opt[0, kvecs[kv, 0]] * n_opt[1, kvecs[kv, 1]] * n_opt[2, kvecs[kv, 2]] \
            * n_opt[3, kvecs[kv, 3]]
        if count == 0:
            continue
        if end + count > moves.shape[0]:
            return -(end + count), cut
        end, some = _combine(ex, t, kv, mask >> core_shift, moves, end, dual[-1], room)
        cut |= some
    _sort_moves(moves, at, end)
    return end, cut


@njit(cache=True)
def _expansion(tables):
    """The parts of ``tables`` a node's expansion reads (``_expand``, ``_suit_options``,
    ``_combine``), as one plain tuple: those run for every node, and a call given the whole
    ``LexTables`` cost about ten times more (measured, 2026-11-30)."""
    return (tables.cell, tables.cfg, tables.init, tables.delta, tables.alive, tables.ref_k,
            tables.ref_g, tables.kvecs, tables.n_q, tables.base_key, tables.big,
            tables.dec_runs, tables.n_dec, tables.run_cover, tables.run_weight,
            tables.suit_mask, tables.ends_at, tables.set_keep, tables.set_choice, tables.opts,
            tables.n_opt, tables.q_of, tables.core_hit_runs, tables.core_hit_sets,
            tables.core_alive, tables.core_shift)


@njit(cache=True)
def _sort_moves(moves, at, end):
    """Best rank first over ``moves[at:end]``, ties in generation order: an insertion sort
    for short segments, a stable merge sort for long ones."""
    if end - at > 24:
        order = np.argsort(-moves[at:end, MOVE_RANK], kind="mergesort")
        moves[at:end] = moves[at:end][order]
        return
    row = np.empty(N_MOVE_FIELDS, dtype=np.int64)
    for i in range(at + 1, end):
        _copy_row(moves, i, row)
        j = i - 1
        while j >= at and moves[j, MOVE_RANK] < row[MOVE_RANK]:
            for f in range(N_MOVE_FIELDS):
                moves[j + 1, f] = moves[j, f]
            j -= 1
        for f in range(N_MOVE_FIELDS):
            moves[j + 1, f] = row[f]


@njit(cache=True, inline="always")
def _copy_row(moves, i, into):
    """``into[:] = moves[i]`` field by field: a row view costs two atomic refcounts, and
    this runs for every move of every node."""
    for f in range(N_MOVE_FIELDS):
        into[f] = moves[i, f]


@njit(cache=True, inline="always")
def _expand_into(t, key, ex, moves, at, dual, room):
    """``_expand``, growing ``moves`` until the node's moves fit: ``(moves, end, cut)``."""
    end, cut = _expand(t, key, ex, moves, at, dual, room)
    while end < 0:
        moves = kernel._grow(moves, max(2 * moves.shape[0], -end))
        end, cut = _expand(t, key, ex, moves, at, dual, room)
    return moves, end, cut


@njit(cache=True, inline="always")
def _bound(bounds, ub_rest, keep_rest, base_key, n_q, big, t, key, enough):
    """``(bound, cores)``: the most node (``t``, ``key``) can still add, ``W`` (``big``) times
    its value bound (every hand card to come, or the suits' widened state bounds) plus every
    weight still undecided; and True when that is every hand card and more than ``enough``,
    so that what the hand's cores must change counts (``_less_cores``). Otherwise the node
    is cut either way. Arrays one by one and no cores: this runs for every move, and a call
    given the whole ``LexTables`` cost about ten times more (measured, 2026-11-30)."""
    rest = key % base_key
    value = 0
    for s in range(N_SUITS):
        here = bounds[t, s, rest % n_q]
        if here == NO_SCORE:
            return NO_SCORE, False
        value += here
        rest //= n_q
    if value < ub_rest[t] or value * big + keep_rest[t] <= enough:
        return min(value, ub_rest[t]) * big + keep_rest[t], False
    return ub_rest[t] * big + keep_rest[t], True


@njit(cache=True)
def _less_cores(bound, cores, t, mask, big):
    """``bound`` (every hand card to come) less what the hand's cores must change
    (``_penalty``), or less ``big`` when some core cannot be met."""
    penalty = _penalty(cores, t, mask)
    return bound - big if penalty < 0 else bound - penalty


@njit(cache=True)
def _cores(tables):
    """The arrays of ``tables`` that ``_penalty`` reads, as one plain tuple."""
    return (tables.open_runs, tables.core_shift, tables.core_last, tables.core_runs,
            tables.undecided_runs, tables.core_sets, tables.undecided_sets,
            tables.run_weight, tables.set_w, tables.run_left, tables.set_left)


@njit(cache=True)
def _core_penalty(tables, t, mask):
    """``_penalty`` with ``tables``' arrays."""
    return _penalty(_cores(tables), t, mask)


@njit(cache=True)
def _penalty(cores, t, mask):
    """What a play of every hand card still to come must give up, from the node's kept runs
    ``mask``: each hand core the key still tells about (``t`` up to its ``core_last``) not
    met by a run already changed (nor, for a tracked core, by any group: its bit in
    ``mask``) needs one of its undecided groups changed. Two lower bounds of that covering
    problem, the larger counts: disjoint cores, smallest first, each cost their lightest
    group; and a feasible dual of its linear relaxation, where cores, smallest first, each
    charge the least weight their groups have left and take it from all of them. -1 when
    some core has no group left to change (then the node cannot play every hand card)."""
    open_runs, core_shift, core_last, core_runs, undecided_runs = cores[:5]
    core_sets, undecided_sets, run_weight, set_w, run_left, set_left = cores[5:]
    changed = open_runs[t] & ~mask
    met = mask >> core_shift
    run_seen, set_seen, dual = 0, 0, 0
    taken_runs, taken_sets, disjoint = 0, 0, 0
    for i in range(core_last.shape[0]):
        if t > core_last[i] or core_runs[i] & changed or met >> i & 1:
            continue
        runs = core_runs[i] & undecided_runs[t]
        sets = core_sets[i] & undecided_sets[t]
        if runs == 0 and sets == 0:
            return -1
        if not (runs & taken_runs or sets & taken_sets):
            taken_runs |= runs
            taken_sets |= sets
            disjoint += min(_least_left(runs, run_weight, run_left, 0),
                            _least_left(sets, set_w, set_left, 0))
        charge = min(_least_left(runs, run_weight, run_left, run_seen),
                     _least_left(sets, set_w, set_left, set_seen))
        if charge > 0:
            dual += charge
            run_seen = _charge(runs, run_weight, run_left, run_seen, charge)
            set_seen = _charge(sets, set_w, set_left, set_seen, charge)
    return max(dual, disjoint)


@njit(cache=True)
def _least_left(mask, weight, left, seen):
    """The least weight left among the groups of ``mask`` (``left[i]`` where bit ``i`` of
    ``seen`` is set, else ``weight[i]``); ``W``-sized (no group) when ``mask`` is empty."""
    least = 1 << 62
    i = 0
    while mask:
        if mask & 1:
            least = min(least, left[i] if seen >> i & 1 else weight[i])
        mask >>= 1
        i += 1
    return least


@njit(cache=True)
def _charge(mask, weight, left, seen, charge):
    """Take ``charge`` from the weight left of every group of ``mask``; the new ``seen``."""
    i = 0
    while mask:
        if mask & 1:
            left[i] = (left[i] if seen >> i & 1 else weight[i]) - charge
            seen |= 1 << i
        mask >>= 1
        i += 1
    return seen


@njit(cache=True, inline="always")
def _room(dual, use, t, best, score):
    """The most the moves of node ``t`` reached with ``score`` may add by ``lex_dual``'s
    bound (the sum of their options' parts and the step's kept sets) and still be left
    out, since they cannot beat ``best``; ``NO_SCORE`` without the bound."""
    if not use:
        return NO_SCORE
    values, runs, n_open, n_local, set_rest, mu, vstar, big, parts = dual
    return best - score - set_rest[t + 1] - mu * (vstar - score // big)


@njit(cache=True, inline="always")
def _dual_bound(dual, base_key, n_q, t, key, score):
    """``lex_dual``'s bound (``dual``, as ``lex_dual.dual`` gives it) on what node (``t``,
    ``key``) reached with ``score`` can still add: each suit's value from its automaton
    state and live kept runs, the set part's maxima from step ``t``, and ``mu`` per point
    still to play (``vstar`` the best value)."""
    values, runs, n_open, n_local, set_rest, mu, vstar, big, parts = dual
    rest = key % base_key
    mask = key // base_key
    total = set_rest[t] + mu * (vstar - score // big)
    for s in range(N_SUITS):
        local = 0
        for i in range(n_open[t, s]):
            local |= (mask >> runs[t, s, i] & 1) << i
        here = values[t, s, rest % n_q * n_local + local]
        if here == NO_SCORE:
            return NO_SCORE
        total += here
        rest //= n_q
    return total


@njit(cache=True)
def _branch_and_bound(tables, floor, node_limit, dual_after):
    """The depth-first search, as ``kernel._branch_and_bound`` without jokers: ``(best,
    path, complete, nodes, work)``, per step the move code, the runs and sets it keeps; only
    answers above ``floor`` count; past ``dual_after`` work ``lex_dual``'s bound joins in."""
    base_key, n_q, accept = tables.base_key, tables.n_q, tables.accept
    bounds, ub_rest, keep_rest, big = tables.bounds, tables.ub_rest, tables.keep_rest, tables.big
    cores = _cores(tables)
    upper = tables.ub_rest[0] * tables.big + tables.keep_rest[0]
    moves = np.empty((1 << 10, N_MOVE_FIELDS), dtype=np.int64)
    seg_pos = np.zeros(N_STEPS + 1, dtype=np.int64)
    seg_end = np.zeros(N_STEPS + 1, dtype=np.int64)
    score = np.zeros(N_STEPS + 1, dtype=np.int64)
    ahead = np.full(N_STEPS + 1, NO_SCORE, dtype=np.int64)
    node_keys = np.zeros(N_STEPS + 1, dtype=np.int64)
    best_rows = np.zeros((N_STEPS, N_MOVE_FIELDS), dtype=np.int64)
    path_rows = np.zeros((N_STEPS, N_MOVE_FIELDS), dtype=np.int64)
    best = floor
    tt_keys, tt_vals, tt_fut, tt_used = kernel._new_table()
    nodes, work, complete = 0, 0, True
    ex = _expansion(tables)
    dual, use_dual, vstar = lex_dual.unset(), False, (floor + 1) // big  # the best value
    moves, end, _ = _expand_into(0, 0, ex, moves, 0, dual, NO_SCORE)
    seg_end[0] = end
    depth = 0
    while depth >= 0:
        if seg_pos[depth] == seg_end[depth] or best == upper:
            if depth > 0 and best != upper:
                kernel._settle(tt_keys, tt_fut, node_keys[depth], ahead[depth])
                gain = score[depth] - score[depth - 1]
                ahead[depth - 1] = max(ahead[depth - 1], gain + ahead[depth])
            depth -= 1
            continue
        i = seg_pos[depth]
        seg_pos[depth] = i + 1
        for f in range(N_MOVE_FIELDS):
            path_rows[depth, f] = moves[i, f]
        child_key = moves[i, MOVE_KEY]
        gain = moves[i, MOVE_GAIN]
        child_score = score[depth] + gain
        t = depth + 1
        if t == N_STEPS:
            if kernel._accepted(child_key, base_key, n_q, accept):
                ahead[depth] = max(ahead[depth], gain)
                if child_score > best:
                    best = child_score
                    best_rows[:] = path_rows
            continue
        bound, look = _bound(bounds, ub_rest, keep_rest, base_key, n_q, big, t, child_key,
                             best - child_score)
        if look:
            bound = _less_cores(bound, cores, t, child_key // base_key, big)
        if use_dual and child_score + bound > best:
            bound = min(bound, _dual_bound(dual, base_key, n_q, t, child_key, child_score))
        if child_score + bound <= best:
            ahead[depth] = max(ahead[depth], gain + bound)
            continue
        tt_keys, tt_vals, tt_fut, tt_used, explore, future = kernel._remember(
            tt_keys, tt_vals, tt_fut, tt_used, child_key * N_STEPS + t, child_score, best)
        if not explore:
            ahead[depth] = max(ahead[depth], gain + min(future, bound))
            continue
        if node_limit > 0 and work >= node_limit:
            complete = False
            break
        nodes += 1
        start = seg_end[depth]
        moves, end, cut = _expand_into(t, child_key, ex, moves, start, dual,
                                       _room(dual, use_dual, t, best, child_score))
        depth = t
        score[depth] = child_score
        node_keys[depth] = child_key * N_STEPS + t
        ahead[depth] = best - child_score if cut else NO_SCORE  # what a move left out adds
        seg_pos[depth] = start
        seg_end[depth] = end
        work += 1 + end - start
        if not use_dual and work >= dual_after:
            (root, dual), use_dual = lex_dual.dual(tables, best, vstar, DUAL_STEPS), True
            if root <= best:  # nothing can beat the best so far: it is the answer
                break
    return best, best_rows, complete, nodes, work


@njit(cache=True)
def _residual_moves(tables, rows, set_suits):
    """``kernel_decode``'s moves for the cards the kept groups leave: per step and suit
    ``(copies, k, g, 0)`` less the kept runs' and kept sets' cards (``set_suits[t, i]``: the
    suits of step ``t``'s ``i``-th table set, as bits)."""
    moves = np.zeros((N_STEPS, N_SUITS, 4), dtype=np.int64)
    kept = 0
    for t in range(N_STEPS):
        kept |= rows[t, MOVE_RUNS]
    mask = (1 << kernel.CODE_BITS) - 1
    for t in range(N_STEPS):
        for s in range(N_SUITS):
            part = (rows[t, MOVE_CODE] >> (kernel.CODE_BITS * s)) & mask
            for f in range(3):
                moves[t, s, f] = (part >> (kernel.FIELD_BITS * f)) & kernel.FIELD_MASK
            in_sets = 0
            for i in range(set_suits.shape[1]):
                if rows[t, MOVE_SETS] >> i & 1 and set_suits[t, i] >> s & 1:
                    in_sets += 1
            held = 0
            for j in range(tables.run_cover.shape[0]):
                if kept >> j & 1 and tables.suit_mask[s] >> j & 1:
                    held += tables.run_cover[j, t]
            moves[t, s, 0] -= in_sets + held
            moves[t, s, 1] -= in_sets
    return moves, kept


@njit(cache=True, nogil=True)
def search(tables, floor, node_limit, states, set_suits):
    """The best ``value * W + kept`` above ``floor``, and its play: ``(best, complete,
    nodes, work, kept runs (mask), kept sets (per step, bits), groups, lengths, used)``, the
    groups and ``used`` (real copies per card) those of the cards the kept groups leave
    (``kernel_decode.decode_moves``); ``best`` is ``floor`` when nothing beats it.
    ``floor`` is at least ``W`` times the best value less one: ``lex_dual``'s bound takes
    ``(floor + 1) // W`` for the best value (a node adds at most the points still to play)."""
    best, rows, complete, nodes, work = _branch_and_bound(tables, floor, node_limit,
                                                          DUAL_AFTER)
    kept_sets = rows[:, MOVE_SETS].copy()
    if best == floor:
        kept_sets[:] = 0
    moves, kept_runs = _residual_moves(tables, rows, set_suits)
    groups, lengths, used = decode_moves(moves, states, tables.cfg[kernel.COPIES],
                                         np.zeros((N_STEPS, N_SUITS), dtype=np.int64))
    return best, complete or best == tables.ub_rest[0] * tables.big + tables.keep_rest[0], \
        nodes, work, kept_runs, kept_sets, groups, lengths, used
