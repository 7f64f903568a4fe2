"""The numba core: an exact depth-first branch and bound over ranks.

The problem: every mandatory card must go into a valid group, optional cards (hand cards,
original singles) may; maximize the weight of the hand cards used. The search walks 13 steps:
the ace, then the ranks 2..K. At each step it chooses, per suit, how many copies ``u`` of the
card to use and how many of them go into sets (``k``); for the ace also how many are high
aces (``g``, closing a run ...Q K A). The set cards of a step are feasible iff they split into
sets of 3-4 distinct suits, which depends only on the count vector ``k``.

Whether the cards each suit gives to runs, step by step, can be cut into runs of three or more
(with ``g`` high aces closing runs at the king) is a regular language; its minimal automaton
(30 states with two decks) is each suit's state, so the search never branches on *which* run a
card joins. Nodes are (step, four automaton states); a transposition table keeps the best score
with which each node was explored, moves are tried best-gain first, and the search stops as soon
as it reaches the upper bound (every playable hand card played) — which on full tables is the
usual case.

Kernels see arrays and scalars only; ``solver.kernel_backend`` validates and encodes positions.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from solver.constants import (
    ACE_HIGH,
    ACE_LOW,
    JOKER_CODE,
    MAX_GROUPS,
    MAX_SUIT_OPTIONS,
    N_CARD_TYPES,
    N_RANKS,
    N_SUITS,
    ROW_WIDTH,
)

N_STEPS = N_RANKS  # one step per rank: the ace first, then 2 .. K
NO_SCORE = -(1 << 60)
PRIORITY = 1 << 10  # move rank = real gain * PRIORITY - jokers * JOKER_COST - distance
JOKER_COST = 1 << 6  # from the table's arrangement (below PRIORITY, above any distance)


# -- tables built once per deck count ---------------------------------------------------------
def _nfa_step(state: tuple[int, int, int, int], r: int) -> set[tuple[int, int, int, int]]:
    """Run configurations after giving ``r`` cards to runs from ``(n1, n2, n3, pending)``:
    runs of one or two cards must take a card, ``e`` complete runs may, the rest start runs."""
    n1, n2, n3, pending = state
    x = r - n1 - n2
    if x < 0:
        return set()
    return {(x - e, n1, n2 + e, pending) for e in range(min(n3, x) + 1)}


def _nfa_accepts(state: tuple[int, int, int, int]) -> bool:
    """After the king: no run of one card; runs of two each take a pending high ace."""
    n1, n2, n3, pending = state
    return n1 == 0 and n2 <= pending <= n2 + n3


@cache
def run_automaton(decks: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The minimal automaton of run-decomposable suits: ``(init, delta, accept)``.

    ``init[r0, g]`` is the state after the ace step (``r0`` low aces start runs, ``g`` high
    aces wait for runs through the king), ``delta[q, r]`` the state after a rank giving ``r``
    cards to runs (-1: impossible), ``accept[q]`` whether the suit may end in ``q``.
    """
    init_sets = {
        (r0, g): frozenset({(r0, 0, 0, g)}) for r0 in range(decks + 1) for g in range(decks + 1)
    }
    seen = set(init_sets.values())
    todo = list(seen)
    moves: dict[tuple[frozenset, int], frozenset] = {}
    while todo:
        subset = todo.pop()
        for r in range(decks + 1):
            target = frozenset(x for s in subset for x in _nfa_step(s, r))
            if target:
                moves[(subset, r)] = target
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
    subsets = sorted(seen, key=lambda sub: sorted(sub))
    # Moore's partition refinement.
    label = {sub: int(any(_nfa_accepts(s) for s in sub)) for sub in subsets}
    n_classes = len(set(label.values()))
    while True:
        signature = {
            sub: (label[sub],) + tuple(label.get(moves.get((sub, r)), -1) for r in range(decks + 1))
            for sub in subsets
        }
        ids: dict[tuple, int] = {}
        refined = {sub: ids.setdefault(signature[sub], len(ids)) for sub in subsets}
        label = refined
        if len(ids) == n_classes:
            break
        n_classes = len(ids)
    init = np.full((decks + 1, decks + 1), -1, dtype=np.int64)
    for (r0, g), sub in init_sets.items():
        init[r0, g] = label[sub]
    delta = np.full((n_classes, decks + 1), -1, dtype=np.int64)
    accept = np.zeros(n_classes, dtype=np.bool_)
    for sub in subsets:
        q = label[sub]
        accept[q] = any(_nfa_accepts(s) for s in sub)
        for r in range(decks + 1):
            target = moves.get((sub, r))
            delta[q, r] = -1 if target is None else label[target]
    return init, delta, accept


@cache
def suit_states(decks: int) -> np.ndarray:
    """Every run configuration ``(n1, n2, n3)`` of one suit (at most ``decks`` runs open)."""
    return np.array(
        [(n1, n2, total - n1 - n2) for total in range(decks + 1)
         for n1 in range(total + 1) for n2 in range(total - n1 + 1)],
        dtype=np.int64,
    )


def sets_needed(k: tuple[int, ...] | np.ndarray) -> int:
    """How many sets the set cards ``k`` (count per suit) split into, or -1 if they cannot.

    ``n`` sets of 3-4 distinct suits hold ``k`` iff ``max(k) <= n`` and ``3n <= sum(k) <= 4n``
    (deal the copies round-robin: sizes then differ by at most one).
    """
    return int(sets_count(*(int(v) for v in k)))


@cache
def set_vectors(decks: int) -> np.ndarray:
    """Every per-suit count vector of set cards that splits into valid sets (zeros first)."""
    vectors = [
        (a, b, c, d)
        for a in range(decks + 1)
        for b in range(decks + 1)
        for c in range(decks + 1)
        for d in range(decks + 1)
        if sets_needed((a, b, c, d)) >= 0
    ]
    vectors.sort(key=sum)
    return np.array(vectors, dtype=np.int64)


# -- the search -----------------------------------------------------------------------------
# Per-cell fields of the ``cell[t, s, :]`` array (step t, suit s).
LO, HI, BASE, HAND, WEIGHT, JOKER_WEIGHT, DEFICIT = range(7)
N_FIELDS = 7
# Fields of the ``cfg`` vector.
GMAX, R0_OK, COPIES, WILD, TABLE_JOKERS, JOKER_WEIGHT_MAX = range(6)
CODE_BITS = 12  # per suit in a move code: copies 3 bits | k 3 | g 3 | z 3


@njit(cache=True)
def _gain(u, base, hand, weight):
    """Weight of the hand cards among ``u`` used copies: hand cards count before singles."""
    extra = u - base
    if extra <= 0:
        return 0
    return weight * min(extra, hand)


@njit(cache=True)
def _table_find(table_keys, key):
    """Slot of ``key`` in the open-addressing table (an empty slot if absent)."""
    mask = table_keys.shape[0] - 1
    h = (key * 0x9E3779B97F4A7C15) & 0x7FFFFFFFFFFFFFFF
    i = (h >> 17) & mask
    while table_keys[i] != -1 and table_keys[i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _expand(t, key, cell, cfg, delta, init, alive, ref_k, ref_g, ref_z, kvecs, n_q, base_key,
            buf_key, buf_gain, buf_code, buf_rank, at, opt_code, opt_next, opt_gain, opt_rank,
            opt_z, n_opt, q_of):
    """Write the moves of node (``t``, ``key``) to the buffers from ``at``; return the new end.

    A move is, per suit, the copies used (real ones plus ``z`` jokers), how many go into sets
    (``k``) and, at the ace, how many are high aces (``g``); its code packs them 12 bits a
    suit; ``buf_gain`` gets its gain. Moves are tried by the gain of their real cards, sparing
    jokers (a joker placed early is often wasted), then by how close their set and high-ace
    counts stay to ``ref_k``/``ref_g`` (the table as it lies, which is known to work).
    """
    rest = key % base_key
    used = key // base_key
    for s in range(N_SUITS):
        q_of[s] = rest % n_q
        rest //= n_q
    copies = cfg[COPIES]
    wild_left = cfg[WILD] - used
    mandatory = cfg[TABLE_JOKERS]
    end = at
    for kv in range(kvecs.shape[0]):
        feasible = True
        for s in range(N_SUITS):
            k = kvecs[kv, s]
            n_opt[s] = 0
            for u in range(cell[t, s, HI], cell[t, s, LO] - 1, -1):
                gain = _gain(u, cell[t, s, BASE], cell[t, s, HAND], cell[t, s, WEIGHT])
                played = 0 if u <= cell[t, s, BASE] else min(u - cell[t, s, BASE],
                                                              cell[t, s, HAND])
                for z in range(0, min(wild_left, copies - u) + 1):
                    total = u + z
                    if total < k or z + played < cell[t, s, DEFICIT]:
                        continue
                    local = gain + (z * cell[t, s, JOKER_WEIGHT] if mandatory == 0 else 0)
                    # Order: real cards' gain first, then jokers where they lie (table
                    # jokers) or not at all (hand jokers, spent only where needed).
                    rank = gain * PRIORITY - abs(z - ref_z[t, s]) * JOKER_COST
                    if t == 0:
                        # The ace: total = low aces (k in sets, r0 starting runs) + g high aces.
                        for g in range(min(cfg[GMAX], total - k), -1, -1):
                            r0 = total - k - g
                            if r0 > 0 and cfg[R0_OK] == 0:
                                continue
                            nxt = init[r0, g]
                            if nxt < 0 or not alive[1, s, nxt]:
                                continue
                            j = n_opt[s]
                            opt_code[s, j] = total | (k << 3) | (g << 6) | (z << 9)
                            opt_next[s, j] = nxt
                            opt_gain[s, j] = local
                            opt_rank[s, j] = rank - abs(k - ref_k[t, s]) - abs(g - ref_g[s])
                            opt_z[s, j] = z
                            n_opt[s] = j + 1
                    else:
                        nxt = delta[q_of[s], total - k]
                        if nxt < 0 or not alive[t + 1, s, nxt]:
                            continue
                        j = n_opt[s]
                        opt_code[s, j] = total | (k << 3) | (z << 9)
                        opt_next[s, j] = nxt
                        opt_gain[s, j] = local
                        opt_rank[s, j] = rank - abs(k - ref_k[t, s])
                        opt_z[s, j] = z
                        n_opt[s] = j + 1
            if n_opt[s] == 0:
                feasible = False
                break
        if not feasible:
            continue
        need = end + n_opt[0] * n_opt[1] * n_opt[2] * n_opt[3]
        if need > buf_key.shape[0]:
            return -need
        for a in range(n_opt[0]):
            for b in range(n_opt[1]):
                zab = opt_z[0, a] + opt_z[1, b]
                if zab > wild_left:
                    continue
                for c in range(n_opt[2]):
                    zabc = zab + opt_z[2, c]
                    if zabc > wild_left:
                        continue
                    for d in range(n_opt[3]):
                        zs = zabc + opt_z[3, d]
                        if zs > wild_left:
                            continue
                        joker_gain = 0
                        if mandatory > 0:  # table jokers are placed first, hand ones score
                            joker_gain = max(0, used + zs - mandatory) - max(0, used - mandatory)
                        buf_key[end] = (opt_next[0, a] + n_q * (opt_next[1, b] + n_q * (
                            opt_next[2, c] + n_q * opt_next[3, d]))) + base_key * (used + zs)
                        buf_gain[end] = opt_gain[0, a] + opt_gain[1, b] + opt_gain[2, c] + \
                            opt_gain[3, d] + joker_gain
                        buf_rank[end] = opt_rank[0, a] + opt_rank[1, b] + opt_rank[2, c] + \
                            opt_rank[3, d]
                        buf_code[end] = opt_code[0, a] | (opt_code[1, b] << CODE_BITS) | (
                            opt_code[2, c] << (2 * CODE_BITS)) | (
                            opt_code[3, d] << (3 * CODE_BITS))
                        end += 1
    # Best rank first (stable insertion sort: segments are short).
    for i in range(at + 1, end):
        kk, gg, cc, rr = buf_key[i], buf_gain[i], buf_code[i], buf_rank[i]
        j = i - 1
        while j >= at and buf_rank[j] < rr:
            buf_key[j + 1] = buf_key[j]
            buf_gain[j + 1] = buf_gain[j]
            buf_code[j + 1] = buf_code[j]
            buf_rank[j + 1] = buf_rank[j]
            j -= 1
        buf_key[j + 1] = kk
        buf_gain[j + 1] = gg
        buf_code[j + 1] = cc
        buf_rank[j + 1] = rr
    return end


@njit(cache=True)
def search(cell, cfg, init, delta, accept, kvecs, ref_groups, ref_len, node_limit):
    """Best weight and the moves that reach it.

    ``cell[t, s, :]`` describes step ``t`` (0 the ace, 1..12 the ranks 2..K) of suit ``s``
    (fields ``LO`` .. ``DEFICIT``, see ``cell_arrays``); ``cfg`` holds the scalars (``GMAX``
    .. ``JOKER_WEIGHT_MAX``). ``ref_groups`` / ``ref_len`` (the table as it lies, card codes in
    reading order) only order the moves. ``node_limit`` caps the work (nodes expanded plus
    the moves they generate, roughly proportional to time; 0: no cap).

    Returns ``(best, moves, optimal, nodes)`` with ``moves[t, s] = (copies, k, g, z)``;
    ``best`` is ``NO_SCORE`` when no partition exists.
    """
    ref_k, ref_g, ref_z = table_reference(ref_groups, ref_len)
    n_q = delta.shape[0]
    base_key = n_q ** N_SUITS
    wild = cfg[WILD]
    mandatory = cfg[TABLE_JOKERS]
    joker_weight = cfg[JOKER_WEIGHT_MAX]
    # Upper bound on what steps t.. can still add with real cards.
    ub_rest = np.zeros(N_STEPS + 1, dtype=np.int64)
    for t in range(N_STEPS - 1, -1, -1):
        total = 0
        for s in range(N_SUITS):
            total += _gain(cell[t, s, HI], cell[t, s, BASE], cell[t, s, HAND], cell[t, s, WEIGHT])
        ub_rest[t] = ub_rest[t + 1] + total
    upper = ub_rest[0] + (wild - mandatory) * joker_weight
    alive = live_states(cell, cfg, delta, accept)

    cap = 1 << 9
    buf_key = np.empty(cap, dtype=np.int64)
    buf_gain = np.empty(cap, dtype=np.int64)
    buf_code = np.empty(cap, dtype=np.int64)
    buf_rank = np.empty(cap, dtype=np.int64)
    seg_pos = np.zeros(N_STEPS + 1, dtype=np.int64)
    seg_end = np.zeros(N_STEPS + 1, dtype=np.int64)
    score = np.zeros(N_STEPS + 1, dtype=np.int64)
    path = np.zeros(N_STEPS, dtype=np.int64)
    best_path = np.zeros(N_STEPS, dtype=np.int64)
    best = NO_SCORE

    max_opts = MAX_SUIT_OPTIONS
    opt_code = np.empty((N_SUITS, max_opts), dtype=np.int64)
    opt_next = np.empty((N_SUITS, max_opts), dtype=np.int64)
    opt_gain = np.empty((N_SUITS, max_opts), dtype=np.int64)
    opt_rank = np.empty((N_SUITS, max_opts), dtype=np.int64)
    opt_z = np.empty((N_SUITS, max_opts), dtype=np.int64)
    n_opt = np.zeros(N_SUITS, dtype=np.int64)
    q_of = np.zeros(N_SUITS, dtype=np.int64)

    # Transposition table: (step, key) -> best score with which the node was explored.
    tt_cap = 1 << 8
    tt_keys = np.full(tt_cap, -1, dtype=np.int64)
    tt_vals = np.zeros(tt_cap, dtype=np.int64)
    tt_used = 0
    key_space = base_key * (wild + 1)

    nodes = 0
    work = 0
    complete = True
    end = -1
    while end < 0:
        end = _expand(0, 0, cell, cfg, delta, init, alive, ref_k, ref_g, ref_z, kvecs, n_q,
                      base_key, buf_key, buf_gain, buf_code, buf_rank, 0, opt_code, opt_next,
                      opt_gain, opt_rank, opt_z, n_opt, q_of)
        if end < 0:
            cap = max(2 * cap, -end)
            buf_key = np.empty(cap, dtype=np.int64)
            buf_gain = np.empty(cap, dtype=np.int64)
            buf_code = np.empty(cap, dtype=np.int64)
            buf_rank = np.empty(cap, dtype=np.int64)
    seg_pos[0] = 0
    seg_end[0] = end
    depth = 0
    while depth >= 0:
        if seg_pos[depth] == seg_end[depth] or best == upper:
            depth -= 1
            continue
        i = seg_pos[depth]
        seg_pos[depth] = i + 1
        child_key = buf_key[i]
        child_score = score[depth] + buf_gain[i]
        path[depth] = buf_code[i]
        t = depth + 1
        used = child_key // base_key
        if t == N_STEPS:
            ok = used >= mandatory
            rest = child_key % base_key
            for _ in range(N_SUITS):
                if not accept[rest % n_q]:
                    ok = False
                    break
                rest //= n_q
            if ok and child_score > best:
                best = child_score
                for j in range(N_STEPS):
                    best_path[j] = path[j]
            continue
        if child_score + ub_rest[t] + (wild - max(used, mandatory)) * joker_weight <= best:
            continue
        tt_key = t * key_space + child_key
        slot = _table_find(tt_keys, tt_key)
        if tt_keys[slot] == tt_key:
            if tt_vals[slot] >= child_score:
                continue
            tt_vals[slot] = child_score
        else:
            tt_keys[slot] = tt_key
            tt_vals[slot] = child_score
            tt_used += 1
            if 2 * tt_used > tt_cap:
                old_keys, old_vals = tt_keys, tt_vals
                tt_cap *= 4
                tt_keys = np.full(tt_cap, -1, dtype=np.int64)
                tt_vals = np.zeros(tt_cap, dtype=np.int64)
                for j in range(old_keys.shape[0]):
                    if old_keys[j] != -1:
                        where = _table_find(tt_keys, old_keys[j])
                        tt_keys[where] = old_keys[j]
                        tt_vals[where] = old_vals[j]
        if node_limit > 0 and work >= node_limit:
            complete = False
            break
        nodes += 1
        start = seg_end[depth]
        end = _expand(t, child_key, cell, cfg, delta, init, alive, ref_k, ref_g, ref_z, kvecs,
                      n_q, base_key, buf_key, buf_gain, buf_code, buf_rank, start, opt_code,
                      opt_next, opt_gain, opt_rank, opt_z, n_opt, q_of)
        while end < 0:
            cap = max(2 * cap, -end)
            buf_key = _grow(buf_key, cap)
            buf_gain = _grow(buf_gain, cap)
            buf_code = _grow(buf_code, cap)
            buf_rank = _grow(buf_rank, cap)
            end = _expand(t, child_key, cell, cfg, delta, init, alive, ref_k, ref_g, ref_z,
                          kvecs, n_q, base_key, buf_key, buf_gain, buf_code, buf_rank, start,
                          opt_code, opt_next, opt_gain, opt_rank, opt_z, n_opt, q_of)
        depth = t
        score[depth] = child_score
        seg_pos[depth] = start
        seg_end[depth] = end
        work += 1 + end - start  # a node and the moves it generated: a proxy for time

    moves = np.zeros((N_STEPS, N_SUITS, 4), dtype=np.int64)
    if best > NO_SCORE:
        mask = (1 << CODE_BITS) - 1
        for t in range(N_STEPS):
            code = best_path[t]
            for s in range(N_SUITS):
                part = (code >> (CODE_BITS * s)) & mask
                moves[t, s, 0] = part & 7
                moves[t, s, 1] = (part >> 3) & 7
                moves[t, s, 2] = (part >> 6) & 7
                moves[t, s, 3] = (part >> 9) & 7
    return best, moves, complete or best == upper, nodes


@njit(cache=True)
def search_and_decode(cell, cfg, init, delta, accept, kvecs, ref_groups, ref_len, node_limit,
                      states, need, hand, fixed):
    """``search`` then ``decode_moves`` in one call: ``(best, optimal, nodes, groups, lengths,
    played, jokers)`` where ``played`` counts the real hand cards among the copies used and
    ``jokers`` the jokers placed (table ones included). ``fixed[c]`` copies of card ``c`` in
    ``cell`` are table jokers that keep the name ``c``."""
    best, moves, optimal, nodes = search(cell, cfg, init, delta, accept, kvecs, ref_groups,
                                         ref_len, node_limit)
    for c in range(N_CARD_TYPES):
        moves[c % N_RANKS, c // N_RANKS, 3] += fixed[c]
    groups, lengths, used = decode_moves(moves, states, cfg[COPIES])
    played = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for c in range(N_CARD_TYPES):
        played[c] = min(max(used[c] - need[c], 0), hand[c])
    jokers = 0
    for t in range(N_STEPS):
        for s in range(N_SUITS):
            jokers += moves[t, s, 3]
    return best, optimal, nodes, groups, lengths, played, jokers


@njit(cache=True)
def usable_cards(need, free, hand, ace_mode, wild):
    """Which cards can be in *some* valid group, given every card available and ``wild``
    jokers to fill gaps.

    A fixpoint of a necessary condition (a set of three suits, or a run of three, whose other
    cards are available or left to jokers). Optional cards that fail it can never be played, so
    dropping them changes no optimum and shrinks the search; mandatory cards are always kept.
    """
    ok = np.zeros(N_CARD_TYPES, dtype=np.bool_)
    for c in range(N_CARD_TYPES):
        ok[c] = need[c] + free[c] + hand[c] > 0
    if wild >= 2:
        return ok
    first = 1 if ace_mode == ACE_HIGH else 0
    last = N_RANKS - 1 if ace_mode == ACE_LOW else N_RANKS
    changed = True
    while changed:
        changed = False
        usable = np.zeros(N_CARD_TYPES, dtype=np.bool_)
        for rank in range(N_RANKS):
            suits = 0
            for s in range(N_SUITS):
                if ok[s * N_RANKS + rank]:
                    suits += 1
            if suits + wild >= 3:
                for s in range(N_SUITS):
                    usable[s * N_RANKS + rank] = True
        for s in range(N_SUITS):
            for start in range(first, last - 1):
                present = 0
                for slot in range(start, start + 3):
                    if ok[s * N_RANKS + slot % N_RANKS]:
                        present += 1
                if present + wild >= 3:
                    for slot in range(start, start + 3):
                        usable[s * N_RANKS + slot % N_RANKS] = True
        for c in range(N_CARD_TYPES):
            if ok[c] and not usable[c] and need[c] == 0:
                ok[c] = False
                changed = True
    return ok


@njit(cache=True)
def cell_arrays(need, free, hand, weight, forced, joker_weight, deficit, ace_mode, wild):
    """The ``cell[t, s, :]`` array of ``search``; unusable optional cards dropped."""
    ok = usable_cards(need, free, hand, ace_mode, wild)
    cell = np.zeros((N_STEPS, N_SUITS, N_FIELDS), dtype=np.int64)
    for s in range(N_SUITS):
        for t in range(N_STEPS):
            c = s * N_RANKS + t
            h = hand[c] if ok[c] else 0
            cell[t, s, LO] = need[c] + forced[c]
            cell[t, s, HI] = need[c] + (free[c] if ok[c] else 0) + h
            cell[t, s, BASE] = need[c]
            cell[t, s, HAND] = h
            cell[t, s, WEIGHT] = weight[c]
            cell[t, s, JOKER_WEIGHT] = joker_weight[c]
            cell[t, s, DEFICIT] = deficit[c]
    return cell


@njit(cache=True)
def table_reference(groups, lengths):
    """Set cards and jokers per (step, suit), and high aces per suit, of the table as it
    lies: ``(ref_k, ref_g, ref_z)``."""
    ref_k = np.zeros((N_STEPS, N_SUITS), dtype=np.int64)
    ref_g = np.zeros(N_SUITS, dtype=np.int64)
    ref_z = np.zeros((N_STEPS, N_SUITS), dtype=np.int64)
    for g in range(lengths.shape[0]):
        n = lengths[g]
        for j in range(n):
            c = groups[g, j]
            if c >= JOKER_CODE:
                ref_z[c % N_RANKS, c % JOKER_CODE // N_RANKS] += 1
        if n < 3:
            continue
        a = groups[g, 0]
        b = groups[g, 1]
        if a % N_RANKS == b % N_RANKS:
            for j in range(n):
                c = groups[g, j]
                ref_k[c % N_RANKS, c % JOKER_CODE // N_RANKS] += 1
        elif groups[g, n - 1] % N_RANKS == 0:  # a run ending in an ace: a high ace
            ref_g[a % JOKER_CODE // N_RANKS] += 1
    return ref_k, ref_g, ref_z


@njit(cache=True)
def sets_count(k0, k1, k2, k3):
    """How many sets of 3-4 distinct suits hold ``k`` set cards per suit (-1: impossible)."""
    total = k0 + k1 + k2 + k3
    top = max(max(k0, k1), max(k2, k3))
    if total == 0:
        return 0
    for n in range(max(top, 1), total // 3 + 1):
        if 3 * n <= total <= 4 * n:
            return n
    return -1


@njit(cache=True)
def decode_moves(moves, states, decks):
    """Groups (card codes in reading order, padded with -1) from the search's moves.

    ``moves[t, s] = (copies, k, g, z)``. Sets: a step's set cards dealt round-robin into
    ``sets_count`` sets. Runs: per suit, the run-card counts are replayed through the
    nondeterministic run automaton (``states`` lists its ``(n1, n2, n3)``), a path to
    acceptance is found backwards, and followed forwards with actual runs. Last, ``z`` copies
    of each card become jokers naming it (code ``52 + card``). Returns ``(groups, lengths,
    used)`` with ``used`` the real copies of each card placed; a first length of -1 flags an
    undecodable suit.
    """
    n_states = states.shape[0]
    groups = np.full((MAX_GROUPS, ROW_WIDTH), -1, dtype=np.int64)
    lengths = np.zeros(MAX_GROUPS, dtype=np.int64)
    n_groups = 0
    order = np.zeros(N_SUITS, dtype=np.int64)
    for t in range(N_STEPS):
        n = sets_count(moves[t, 0, 1], moves[t, 1, 1], moves[t, 2, 1], moves[t, 3, 1])
        if n <= 0:
            continue
        # suits by set cards, most first, so copies of one suit land in different sets
        for s in range(N_SUITS):
            order[s] = s
        for i in range(1, N_SUITS):
            j = i
            while j > 0 and moves[t, order[j], 1] > moves[t, order[j - 1], 1]:
                tmp = order[j]
                order[j] = order[j - 1]
                order[j - 1] = tmp
                j -= 1
        position = 0
        for i in range(N_SUITS):
            s = order[i]
            for _ in range(moves[t, s, 1]):
                g = n_groups + position % n
                groups[g, lengths[g]] = s * N_RANKS + t
                lengths[g] += 1
                position += 1
        for g in range(n_groups, n_groups + n):  # reading order: suits S H D C
            groups[g, : lengths[g]] = np.sort(groups[g, : lengths[g]])
        n_groups += n

    index = np.full((decks + 1, decks + 1, decks + 1), -1, dtype=np.int64)
    for i in range(n_states):
        index[states[i, 0], states[i, 1], states[i, 2]] = i
    reach = np.zeros((N_STEPS, n_states), dtype=np.bool_)
    path = np.zeros(N_STEPS, dtype=np.int64)
    r = np.zeros(N_STEPS, dtype=np.int64)
    run_start = np.zeros(decks, dtype=np.int64)
    run_len = np.zeros(decks, dtype=np.int64)
    keep = np.zeros(decks, dtype=np.bool_)
    for s in range(N_SUITS):
        g_high = moves[0, s, 2]
        r[0] = moves[0, s, 0] - moves[0, s, 1] - g_high
        for t in range(1, N_STEPS):
            r[t] = moves[t, s, 0] - moves[t, s, 1]
        reach[:, :] = False
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
                    reach[t, index[x - e, n1, n2 + e]] = True
        end = -1
        for j in range(n_states):
            if reach[N_STEPS - 1, j] and states[j, 0] == 0 and \
                    states[j, 1] <= g_high <= states[j, 1] + states[j, 2]:
                end = j
                break
        if end < 0:
            lengths[0] = -1
            return groups, lengths[:1], np.zeros(N_CARD_TYPES, dtype=np.int64)
        path[N_STEPS - 1] = end
        for t in range(N_STEPS - 1, 0, -1):
            j = path[t]
            for i in range(n_states):
                if not reach[t - 1, i]:
                    continue
                e = states[j, 2] - states[i, 1]
                x = r[t] - states[i, 0] - states[i, 1]
                if states[j, 1] == states[i, 0] and e >= 0 and e <= min(states[i, 2], x) and \
                        states[j, 0] == x - e:
                    path[t - 1] = i
                    break
        # Follow the path with real runs: (start rank, length), up to ``decks`` open.
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
                    for a in range(run_len[q]):
                        groups[n_groups, a] = s * N_RANKS + run_start[q] + a
                    lengths[n_groups] = run_len[q]
                    n_groups += 1
            for _ in range(x - e):
                run_start[m] = t
                run_len[m] = 1
                m += 1
            n_open = m
        # After the king: runs of two take a high ace first, then complete runs. No run may
        # hold both aces: a run that began at the low ace (A..K) is cut into A 2 3 and
        # 4..K before its 4..K part takes the high ace.
        aces = g_high
        for want_short in (True, False):
            for q in range(n_open):
                if (run_len[q] < 3) != want_short or aces == 0 or run_len[q] == 0:
                    continue
                if run_start[q] == 0:
                    for a in range(3):
                        groups[n_groups, a] = s * N_RANKS + a
                    lengths[n_groups] = 3
                    n_groups += 1
                    run_start[q] = 3
                    run_len[q] -= 3
                groups[n_groups, run_len[q]] = s * N_RANKS
                lengths[n_groups] = run_len[q] + 1
                aces -= 1
                for a in range(run_len[q]):
                    groups[n_groups, a] = s * N_RANKS + run_start[q] + a
                run_len[q] = 0
                n_groups += 1
        for q in range(n_open):
            if run_len[q] > 0:
                for a in range(run_len[q]):
                    groups[n_groups, a] = s * N_RANKS + run_start[q] + a
                lengths[n_groups] = run_len[q]
                n_groups += 1
    for t in range(N_STEPS):
        for s in range(N_SUITS):
            left = moves[t, s, 3]
            code = s * N_RANKS + t
            for g in range(n_groups):
                if left == 0:
                    break
                for j in range(lengths[g]):
                    if groups[g, j] == code:
                        groups[g, j] = code + JOKER_CODE
                        left -= 1
                        break
    used = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for g in range(n_groups):
        for j in range(lengths[g]):
            if groups[g, j] < JOKER_CODE:
                used[groups[g, j]] += 1
    return groups[:n_groups], lengths[:n_groups], used


@njit(cache=True)
def live_states(cell, cfg, delta, accept):
    """``alive[t, s, q]``: suit ``s`` can still finish from automaton state ``q`` before step
    ``t`` (``t == N_STEPS``: accepts), given how many cards each later rank can give to runs.

    A rank gives runs between ``lo - k`` and ``hi + jokers`` cards, where ``k`` set cards need
    two partners of other suits (real, or jokers). A relaxation: every state it kills is dead.
    """
    n_q = delta.shape[0]
    copies = delta.shape[1] - 1
    wild = cfg[WILD]
    alive = np.zeros((N_STEPS + 1, N_SUITS, n_q), dtype=np.bool_)
    for s in range(N_SUITS):
        for q in range(n_q):
            alive[N_STEPS, s, q] = accept[q]
    for t in range(N_STEPS - 1, 0, -1):
        for s in range(N_SUITS):
            partners = 0
            for o in range(N_SUITS):
                if o != s and cell[t, o, HI] > 0:
                    partners += 1
            top = min(cell[t, s, HI] + wild, copies)
            k_max = top if partners + wild >= 2 else 0
            r_min = max(0, cell[t, s, LO] - k_max)
            for q in range(n_q):
                for r in range(r_min, top + 1):
                    nxt = delta[q, r]
                    if nxt >= 0 and alive[t + 1, s, nxt]:
                        alive[t, s, q] = True
                        break
    return alive


@njit(cache=True)
def _grow(array, cap):
    bigger = np.empty(cap, dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


# -- the opening play: disjoint groups from the hand alone ----------------------------------
@njit(cache=True)
def pack_hand(counts, weight, points, min_points, group_cards, group_len):
    """Most valuable set of disjoint groups from ``counts`` worth at least ``min_points``.

    ``group_cards[g, :group_len[g]]`` lists the card indices of candidate group ``g``.
    Returns ``(best, chosen)``: the best weight (``NO_SCORE`` if no packing reaches
    ``min_points``) and the indices of the chosen groups.
    """
    n = counts.shape[0]
    n_groups = group_cards.shape[0]
    low = np.empty(n_groups, dtype=np.int64)
    for g in range(n_groups):
        m = group_cards[g, 0]
        for j in range(group_len[g]):
            m = min(m, group_cards[g, j])
        low[g] = m
    order = np.argsort(low, kind="mergesort")
    by_min = order.astype(np.int64)
    by_min_ptr = np.zeros(n + 1, dtype=np.int64)
    for g in range(n_groups):
        by_min_ptr[low[g] + 1] += 1
    for i in range(n):
        by_min_ptr[i + 1] += by_min_ptr[i]
    rest_w = np.zeros(n + 1, dtype=np.int64)
    rest_p = np.zeros(n + 1, dtype=np.int64)
    for i in range(n - 1, -1, -1):
        rest_w[i] = rest_w[i + 1] + counts[i] * weight[i]
        rest_p[i] = rest_p[i + 1] + counts[i] * points[i]
    work = counts.copy()
    total = 0
    for i in range(n):
        total += counts[i]
    # Iterative depth-first search (numba cannot cache recursive functions): frame d works on
    # card frame_card[d]; its options are the groups whose smallest card it is, then "keep the
    # remaining copies in the hand".
    depth_cap = total + 2
    frame_card = np.zeros(depth_cap, dtype=np.int64)
    frame_next = np.zeros(depth_cap, dtype=np.int64)
    frame_group = np.full(depth_cap, -1, dtype=np.int64)
    frame_saved = np.full(depth_cap, -1, dtype=np.int64)
    frame_score = np.zeros(depth_cap, dtype=np.int64)
    frame_points = np.zeros(depth_cap, dtype=np.int64)
    best = NO_SCORE
    best_groups = np.zeros(depth_cap, dtype=np.int64)
    n_best = 0
    if min_points <= 0:
        best = 0
    first = 0
    while first < n and work[first] == 0:
        first += 1
    if first == n:
        return best, best_groups[:0].copy()
    frame_card[0] = first
    frame_next[0] = by_min_ptr[first]
    depth = 0
    while depth >= 0:
        i = frame_card[depth]
        # Undo what this frame's previous option did.
        g = frame_group[depth]
        if g >= 0:
            for j in range(group_len[g]):
                work[group_cards[g, j]] += 1
            frame_group[depth] = -1
        if frame_saved[depth] >= 0:
            work[i] = frame_saved[depth]
            frame_saved[depth] = -1
        option = frame_next[depth]
        if option > by_min_ptr[i + 1]:
            depth -= 1
            continue
        frame_next[depth] = option + 1
        gain_w = 0
        gain_p = 0
        child = i
        if option < by_min_ptr[i + 1]:
            g = by_min[option]
            fits = True
            for j in range(group_len[g]):
                if work[group_cards[g, j]] == 0:
                    fits = False
                    break
            if not fits:
                continue
            for j in range(group_len[g]):
                c = group_cards[g, j]
                work[c] -= 1
                gain_w += weight[c]
                gain_p += points[c]
            frame_group[depth] = g
        else:
            frame_saved[depth] = work[i]
            work[i] = 0
        while child < n and work[child] == 0:
            child += 1
        score = frame_score[depth] + gain_w
        pts = frame_points[depth] + gain_p
        if child == n:
            if pts >= min_points and score > best:
                best = score
                n_best = 0
                for d in range(depth + 1):
                    if frame_group[d] >= 0:
                        best_groups[n_best] = frame_group[d]
                        n_best += 1
            continue
        if score + rest_w[child] <= best or pts + rest_p[child] < min_points:
            continue
        depth += 1
        frame_card[depth] = child
        frame_next[depth] = by_min_ptr[child]
        frame_group[depth] = -1
        frame_saved[depth] = -1
        frame_score[depth] = score
        frame_points[depth] = pts
    return best, best_groups[:n_best].copy()
