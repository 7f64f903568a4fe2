"""The numba core: an exact depth-first branch and bound over ranks.

The problem: every mandatory card must go into a valid group, optional cards (hand cards,
original singles) may; maximize the weight of the hand cards used. The search walks 13 steps:
the ace, then the ranks 2..K. At each step it chooses, per suit, how many copies ``u`` of the
card to use and how many of them go into sets (``k``); for the ace also how many are high
aces (``g``, closing a run ...Q K A). The set cards of a step are feasible iff they split into
sets of 3-4 distinct suits, which depends only on the count vector ``k``.

Whether the cards each suit gives to runs, step by step, can be cut into runs of three or more
is a regular language; its minimal automaton (``solver.automaton``) is each suit's state, so
the search never branches on *which* run a card joins. Nodes are (step, four automaton states);
a transposition table keeps the best score with which each node was explored, moves are tried
best-gain first, and the search stops as soon as it reaches the upper bound (every playable
hand card played) — which on full tables is the usual case; a joker-free search first takes
the move it would try first at each step without writing and sorting the others
(``_first_descent``), and needs no more when that reaches the bound. ``solver.kernel_decode``
turns the best moves back into groups.

Kernels see arrays and scalars only; ``solver.kernel_backend`` validates and encodes positions.

The entry points that search (``search``, ``search_and_decode``, ``search_and_decode_with``,
``root_bound``, and those of ``kernel_lex``, ``lex_hint``, ``lex_tables``, ``one_call`` and
``freed_search``) release the GIL (``nogil=True``): a server's thread that solves for one game
never stops another game's threads, and they run on other cores meanwhile. They write only
arrays they allocate or are given for that one call; shared tables reach them read-only.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from solver.constants import (
    ACE_HIGH,
    ACE_LOW,
    JOKER_CODE,
    MAX_SUIT_OPTIONS,
    N_CARD_TYPES,
    N_RANKS,
    N_SUITS,
    NO_SCORE,
)
from solver.frozen import frozen
from solver.kernel_decode import JOKERS, decode_moves
from solver.unmanaged import unmanaged

N_STEPS = N_RANKS  # one step per rank: the ace first, then 2 .. K
PRIORITY = 1 << 10  # move rank = real gain * PRIORITY - jokers * JOKER_COST - distance
JOKER_COST = 1 << 6  # from the table's arrangement (below PRIORITY, above any distance)
# Nodes a search with jokers expands before it builds ``state_bounds`` (and looks for
# dominating nodes): 200 until 2026-12-01; 50 takes 0.69x the nodes over bench.joker_games'
# 5,169 positions, never more on any, same answers (bounds only cut what cannot beat the best).
LAZY_BOUNDS = 50
# Joker-free searches build them once a first partition is found and LAZY_FREE nodes are
# expanded (until 2026-12-01 at the first partition): the build is wasted on a search that
# ends soon after (a 4-card table's solve 20.9 to 18.1 us). Same answers (bounds only cut);
# bench.compare --worst side by side with main: 53,985 to 56,132 nodes, yet the slowest call
# 1.78 to 0.96 ms and the median 0.042 to 0.036 ms.
LAZY_FREE = 64
WIDE_ROOT = 4096  # ace-step combinations of options (``_move_count``) past which a search with
# four jokers free to move starts in windows below its upper bound (``_windowed_search``)
WIDE_ROOT_WINDOWS = 16  # windows it may take: floors 1, 2, 4 ... 2 ** 15 below that bound
ASPIRE_WORK = 2000  # work a search does before it aspires to its root bound (``_search_on``)
JOKER_ASPIRATIONS = 4  # with jokers, if nothing is found by then: floors 1, 2, 4, 8 below the bound
UNKNOWN_FUTURE = 1 << 50  # what a node can add, before its exploration ends: no bound yet
SORT_SCRATCH = 1 << 9  # moves a node's sort orders by packed keys (``_sort_moves``)
INDEX_BITS = 20  # a packed sort key: rank below the node's best, then the move's index
# A node key packs the four suits' automaton states, one digit each, plus ``BASE_KEY`` times
# the jokers used. The digits are base ``KEY_RADIX``, a power of two above every automaton's
# state count (175 for ``MAX_COPIES``, 960 for the seven copies a move code can hold, 1,777
# for tahiti's flagged automaton with three free jokers), not base the state count: a digit
# is read with a shift and a mask instead of a division, which the search did a dozen times a
# move it looked at (a division by a number known only at run time costs about ten times as
# much here). A node's table key, its step times the key space plus its key, stays below
# 2 ** 51.
KEY_BITS = 11
KEY_RADIX = 1 << KEY_BITS
BASE_KEY = KEY_RADIX ** 4

# Per-cell fields of the ``cell[t, s, :]`` array (step t, suit s); see ``cell_arrays``.
(LO, HI, BASE, HAND, WEIGHT, JOKER_WEIGHT, DEFICIT, FIXED, REQUIRED, SET_MIN, RUN_MIN,
 HIGH_MIN, JOKER_MAX, KEPT) = range(14)
N_FIELDS = 14
# Fields of the ``cfg`` vector.
GMAX, R0_OK, COPIES, WILD, TABLE_JOKERS, JOKER_WEIGHT_MAX, ALL_TABLE_JOKERS, FLOOR, \
    FLAGGED, CEILING = range(10)
N_CFG = 10
# ``cfg[CEILING]``: the most a partition can score, as the caller proved it (a relaxation's
# answer, ``NO_CEILING`` when none is known); the search stops at the first partition worth it.
# A suit's option packs (copies, k, g, z, zs) in 3 bits each; a move packs four options.
FIELD_BITS = 3
FIELD_MASK = (1 << FIELD_BITS) - 1
N_CODE_FIELDS = 5
CODE_BITS = N_CODE_FIELDS * FIELD_BITS  # per suit in a move code: copies | k | g | z | zs
# Fields of a generated move, ``moves[i, :]``: child node key, gain, code, rank (order).
MOVE_KEY, MOVE_GAIN, MOVE_CODE, MOVE_RANK = range(4)
N_MOVE_FIELDS = 4
# Fields of a suit's option, ``opts[s, k, j, :]`` (``k`` set cards): its code, next automaton
# state, gain, rank, jokers, jokers in sets (tahiti's flagged automaton only; what its real
# cards and its suit after it can add, in searches that cut moves: ``opt_bound[s, k, j,
# rest]`` with ``rest`` jokers left, ``_option_bounds``).
OPT_CODE, OPT_NEXT, OPT_GAIN, OPT_RANK, OPT_JOKERS, OPT_SET_JOKERS = range(6)
N_OPT_FIELDS = 6

SearchTables = namedtuple("SearchTables", [
    "cell", "cfg", "init", "delta", "alive", "ref_k", "ref_g", "ref_z", "kvecs", "n_q", "opts",
    "n_opt", "q_of", "fixed_before", "kv_index", "kv_list", "dominators", "seen", "opt_bound",
    "opt_most", "sort_keys",
])
SearchTables.__doc__ = """What every expansion of one search reads, and its scratch space.

``cell``/``cfg`` describe the problem (see ``search``), ``init``/``delta`` the run automaton,
``alive[t, s, q]`` which of its states can still finish, ``ref_k``/``ref_g``/``ref_z`` the
table as it lies (they order moves), ``kvecs`` the set-card vectors, ``n_q`` the automaton's
state count (at most ``KEY_RADIX``: a node key is four states, base ``KEY_RADIX``, plus
``BASE_KEY`` times the jokers used). ``opts``/``n_opt``/``q_of`` are scratch arrays for
``_expand`` (the options of each suit for each number of set cards ``k``, listed once per
node);
``fixed_before[t]`` counts the table jokers fixed to their name (fields ``FIXED`` and
``KEPT``) at steps before ``t``. ``kv_index`` finds a set vector's row in ``kvecs`` from its
digits (base ``copies + 1``; -1: not a valid vector) and ``kv_list`` is scratch for the rows
a node combines (``_live_set_vectors``). ``dominators[q]`` lists the automaton states that
dominate ``q`` (``automaton.dominators``; one row of -1 when the search does not use them),
and ``seen[t, s, q]`` whether a node explored at step ``t`` had suit ``s`` in state ``q``
since the search looks for dominating nodes (``_visit``: a state not seen there dominates no
node it can find). ``opt_bound[s, k, j, rest]`` bounds what option ``opts[s, k, j]`` adds
with ``rest`` jokers left after the move and ``opt_most[s, k]`` is the largest of
``opt_bound[s, k]`` with the option's own jokers taken, when a node's moves are cut
(``_option_bounds``; a separate array keeps ``opts`` as small as before). ``sort_keys`` is
scratch for ``_sort_moves`` (``SORT_SCRATCH`` entries)."""


@njit(cache=True)
def _gain(u, base, hand, weight):
    """Weight of the hand cards among ``u`` used copies: hand cards count before singles."""
    extra = u - base
    if extra <= 0:
        return 0
    return weight * min(extra, hand)


# The functions run for every node, option or move (``_expand`` and its helpers, ``_visit``,
# the node bound) are inlined into the search loop and take the arrays they read, never the
# ``SearchTables`` tuple: numba counts a reference to every array a call's tuple holds (an
# atomic add and subtract each), which ``perf`` put at about 43% of a slow joker search's
# machine code (2026-12-01). ``_expansion`` gathers what an expansion reads in a plain tuple,
# unpacked once a node; rows are read and written element by element (a row view counts a
# reference too). The same design as ``solver.kernel_lex``.
@njit(cache=True, inline="always")
def _suit_state(key, s):
    """Suit ``s``'s automaton state in node ``key`` (its ``KEY_RADIX`` digit ``s``)."""
    return (key >> (KEY_BITS * s)) & (KEY_RADIX - 1)


@njit(cache=True, inline="always")
def _option_code(copies, k, g, z):
    """One suit's option packed in ``CODE_BITS`` bits: copies used, set cards, high aces,
    jokers."""
    return copies | (k << FIELD_BITS) | (g << (2 * FIELD_BITS)) | (z << (3 * FIELD_BITS))


@njit(cache=True)
def _expansion(tables):
    """What a node's expansion reads and writes (``_expand`` and its helpers), as one plain
    tuple: the problem (``cell`` .. ``fixed_before``), the set vectors and the scratch
    arrays (``SearchTables`` says what each holds)."""
    return (tables.cell, tables.cfg, tables.init, tables.delta, tables.alive, tables.ref_k,
            tables.ref_g, tables.ref_z, tables.n_q, tables.fixed_before,
            tables.kvecs, tables.kv_index, tables.kv_list, tables.opts, tables.n_opt,
            tables.q_of, tables.opt_bound, tables.opt_most, tables.sort_keys)


@njit(cache=True, inline="always")
def _put_option(opts, n_opt, s, k, code, nxt, gain, rank, z, zs):
    """Append an option to suit ``s``'s list for ``k`` set cards in ``opts`` (``zs`` of its
    ``z`` jokers in sets: the flagged automaton's options record it in their code too)."""
    j = n_opt[s, k]
    opts[s, k, j, OPT_CODE] = code | (zs << (4 * FIELD_BITS))
    opts[s, k, j, OPT_NEXT] = nxt
    opts[s, k, j, OPT_GAIN] = gain
    opts[s, k, j, OPT_RANK] = rank
    opts[s, k, j, OPT_JOKERS] = z
    opts[s, k, j, OPT_SET_JOKERS] = zs
    n_opt[s, k] = j + 1


@njit(cache=True, inline="always")
def _ace_options(ex, s, k, total, z, gain, rank):
    """The options of suit ``s`` at the ace with ``total`` copies (``z`` of them jokers),
    ``k`` in sets: the rest are ``g`` high aces and ``r0`` low aces starting runs (at least
    ``HIGH_MIN`` and ``RUN_MIN`` of them: vatican jokers beside a king or a two). With
    tahiti's flagged automaton (``cfg[FLAGGED]``), one option per way the jokers split among
    sets, low aces and high aces (``_flagged_ace_options``)."""
    (cell, cfg, init, _, alive, ref_k, ref_g, _, _, _, _, _, _, opts, n_opt, _, _, _,
     _) = ex
    for g in range(min(cfg[GMAX], total - k), -1, -1):
        r0 = total - k - g
        if r0 > 0 and cfg[R0_OK] == 0:
            continue
        if g < cell[0, s, HIGH_MIN] or r0 < cell[0, s, RUN_MIN]:
            continue
        distance = abs(k - ref_k[0, s]) + abs(g - ref_g[s])
        if cfg[FLAGGED]:
            _flagged_ace_options(ex, s, k, total, z, gain, rank - distance, g, r0)
            continue
        nxt = init[r0, g]
        if nxt < 0 or not alive[1, s, nxt]:
            continue
        _put_option(opts, n_opt, s, k, _option_code(total, k, g, z), nxt, gain,
                    rank - distance, z, 0)


@njit(cache=True, inline="always")
def _flagged_ace_options(ex, s, k, total, z, gain, rank, g, r0):
    """``_ace_options`` for one ``(g, r0)`` with the flagged automaton: ``zs`` jokers in
    sets, ``j0`` among the low aces and the rest among the high ones (``init`` packs the
    state as ``solver.automaton_flagged.init_index``)."""
    init, alive, opts, n_opt = ex[2], ex[4], ex[13], ex[14]
    width = ex[1][COPIES] + 1
    for zs in range(max(0, z - (total - k)), min(z, k) + 1):
        for j0 in range(min(z - zs, r0) + 1):
            jg = z - zs - j0
            if jg > g:
                continue
            nxt = init[r0 + width * j0, g + width * jg]
            if nxt >= 0 and alive[1, s, nxt]:
                _put_option(opts, n_opt, s, k, _option_code(total, k, g, z), nxt, gain,
                            rank, z, zs)


@njit(cache=True, inline="always")
def _suit_options(ex, t, s, wild_left):
    """List in ``opts[s, k]`` (``ex``: ``_expansion``), for every number ``k`` of set cards,
    the options of suit ``s`` at step ``t``.

    Options are ordered by the gain of their real cards, sparing jokers (a joker placed early
    is often wasted), then by how close their set and high-ace counts stay to the table as it
    lies (which is known to work). Vatican jokers held beside a neighbour need ``SET_MIN``
    set cards and ``RUN_MIN`` run cards here (docs/rules.md §8.2). With tahiti's flagged
    automaton (``cfg[FLAGGED]``) there is one option per number of the jokers going to
    runs (its symbol's second part), the others going to sets.
    """
    (cell, cfg, _, delta, alive, ref_k, _, ref_z, _, _, _, _, _, opts, n_opt, q_of, _,
     _, _) = ex
    labelled = cfg[ALL_TABLE_JOKERS] > 0
    base, hand, q = cell[t, s, BASE], cell[t, s, HAND], q_of[s]
    for k in range(n_opt.shape[1]):
        n_opt[s, k] = 0
    for u in range(cell[t, s, HI], cell[t, s, LO] - 1, -1):
        gain = _gain(u, base, hand, cell[t, s, WEIGHT])
        played = 0 if u <= base else min(u - base, hand)
        for z in range(0, min(wild_left, cfg[COPIES] - u, cell[t, s, JOKER_MAX]) + 1):
            total = u + z
            if z + played < cell[t, s, DEFICIT]:
                continue
            local = gain + (0 if labelled else z * cell[t, s, JOKER_WEIGHT])
            # Order: real cards' gain first, then jokers where they lie (table
            # jokers) or not at all (hand jokers, spent only where needed).
            rank = gain * PRIORITY - abs(z - ref_z[t, s]) * JOKER_COST
            for k in range(cell[t, s, SET_MIN], total + 1):
                if t == 0:
                    _ace_options(ex, s, k, total, z, local, rank)
                    continue
                if total - k < cell[t, s, RUN_MIN]:
                    continue
                if cfg[FLAGGED]:
                    for j in range(max(0, z - k), min(z, total - k) + 1):
                        nxt = delta[q, total - k, j]
                        if nxt >= 0 and alive[t + 1, s, nxt]:
                            _put_option(opts, n_opt, s, k, _option_code(total, k, 0, z), nxt,
                                        local, rank - abs(k - ref_k[t, s]), z, z - j)
                    continue
                nxt = delta[q, total - k, cell[t, s, REQUIRED]]
                if nxt < 0 or not alive[t + 1, s, nxt]:
                    continue
                _put_option(opts, n_opt, s, k, _option_code(total, k, 0, z), nxt, local,
                            rank - abs(k - ref_k[t, s]), z, 0)


@njit(cache=True, inline="always")
def _labelled_joker_gain(weight, table_all, fixed_here, fixed_next, used, zs):
    """With table jokers in play, what the ``zs`` jokers a move places at a step add
    (``weight``: a joker's weight there; ``fixed_here``/``fixed_next``: ``fixed_before`` of
    the step and the next).

    Jokers are alike, so the table's jokers count as the cheapest names placed (docs/rules.md
    §8): steps run in rank order and a joker's weight depends on its rank only (so
    ``kernel_backend`` checks), hence the first ``ALL_TABLE_JOKERS`` (``table_all``)
    placed, fixed ones included, are the table's and score nothing; each later one scores
    its step's weight."""
    before = used + fixed_here
    after = used + zs + fixed_next
    return weight * (max(0, after - table_all) - max(0, before - table_all))


@njit(cache=True, inline="always")
def _combine(ex, t, kv, used, wild_left, moves, end, cut, limit, places=None):
    """Write every combination of the four suits' options with the set cards ``kvecs[kv]``
    (jokers within ``wild_left``) to ``moves`` from ``end``: ``(end, most)``. With ``cut``,
    the combinations whose options' ``opt_bound`` (each suit's most, ``opt_most``, for the
    suits not yet chosen) add up to at most ``limit`` are left out, a loop level at a time;
    ``most`` is the largest such sum left out (``NO_SCORE``: none; ``_expand``). Bounds are
    read with the jokers the options chosen so far leave (a bound only grows with the
    jokers allowed), so the sum still bounds the move; with all four chosen it is the
    looser sum the child's ``_suit_bound`` starts from, which prunes 82-88% of the moves the
    search would prune (bench.joker_games' slowest three) before they are written. Jokers in
    sets (tahiti's flagged automaton) are at most a third of the set cards: one per set.
    ``places``: ``_expand_by_jokers``' ``(listed, order, offset, at)``, the options sorted by
    jokers (a loop ends at its first with too many; each move's place as listed goes to
    ``order``; ``(-1, most)`` when ``moves`` is full); None elsewhere, compiled out."""
    (cell, cfg, _, _, _, _, _, _, _, fixed_before, kvecs, _, _, opts, n_opt, _, opt_bound,
     opt_most, _) = ex
    most = NO_SCORE
    k0, k1, k2, k3 = kvecs[kv, 0], kvecs[kv, 1], kvecs[kv, 2], kvecs[kv, 3]
    most_set_jokers = (k0 + k1 + k2 + k3) // 3
    o0, o1, o2, o3 = opts[0, k0], opts[1, k1], opts[2, k2], opts[3, k3]
    n0, n1, n2, n3 = n_opt[0, k0], n_opt[1, k1], n_opt[2, k2], n_opt[3, k3]
    m1, m2, m3 = opt_most[1, k1], opt_most[2, k2], opt_most[3, k3]
    b0, b1, b2, b3 = opt_bound[0, k0], opt_bound[1, k1], opt_bound[2, k2], opt_bound[3, k3]
    table_all = cfg[ALL_TABLE_JOKERS]
    weight, fixed_here, fixed_next = cell[t, 0, JOKER_WEIGHT], fixed_before[t], \
        fixed_before[t + 1]
    for a in range(n0):
        za = o0[a, OPT_JOKERS]
        if cut and b0[a, wild_left - za] + m1 + m2 + m3 <= limit:
            most = max(most, b0[a, wild_left - za] + m1 + m2 + m3)
            continue
        for b in range(n1):
            zab = za + o1[b, OPT_JOKERS]
            if places is not None and zab > wild_left:  # sorted: so have those after it
                break
            if zab > wild_left or o0[a, OPT_SET_JOKERS] + o1[b, OPT_SET_JOKERS] > \
                    most_set_jokers:
                continue
            if cut:
                top = b0[a, wild_left - zab] + b1[b, wild_left - zab] + m2 + m3
                if top <= limit:
                    most = max(most, top)
                    continue
            for c in range(n2):
                zabc = zab + o2[c, OPT_JOKERS]
                sabc = o0[a, OPT_SET_JOKERS] + o1[b, OPT_SET_JOKERS] + o2[c, OPT_SET_JOKERS]
                if places is not None and zabc > wild_left:  # sorted: so have those after it
                    break
                if zabc > wild_left or sabc > most_set_jokers:
                    continue
                if cut:
                    rest = wild_left - zabc
                    top = b0[a, rest] + b1[b, rest] + b2[c, rest] + m3
                    if top <= limit:
                        most = max(most, top)
                        continue
                for d in range(n3):
                    zs = zabc + o3[d, OPT_JOKERS]
                    if places is not None and zs > wild_left:  # sorted: so have those after it
                        break
                    if zs > wild_left or sabc + o3[d, OPT_SET_JOKERS] > most_set_jokers:
                        continue
                    if cut:
                        rest = wild_left - zs
                        top = b0[a, rest] + b1[b, rest] + b2[c, rest] + b3[d, rest]
                        if top <= limit:
                            most = max(most, top)
                            continue
                    if places is not None:
                        if end == moves.shape[0]:
                            return -1, most
                        _record_place(places, end, (k0, k1, k2, k3), (a, b, c, d), (n1, n2, n3))
                    joker_gain = 0
                    if table_all > 0:  # table jokers are the first placed, hand ones score
                        joker_gain = _labelled_joker_gain(weight, table_all, fixed_here,
                                                          fixed_next, used, zs)
                    _write_move(moves, end, (o0, o1, o2, o3), (a, b, c, d),
                                BASE_KEY * (used + zs), joker_gain)
                    end += 1
    return end, most


@njit(cache=True, inline="always")
def _write_move(moves, end, options, picked, jokers_key, joker_gain):
    """Row ``end`` of ``moves``: the move of the suits' ``options`` rows ``picked``
    (``_combine``), ``jokers_key`` its child's key's jokers and ``joker_gain`` what its
    labelled jokers add."""
    (o0, o1, o2, o3), (a, b, c, d) = options, picked
    moves[end, MOVE_KEY] = (o0[a, OPT_NEXT] + KEY_RADIX * (o1[b, OPT_NEXT] + KEY_RADIX * (
        o2[c, OPT_NEXT] + KEY_RADIX * o3[d, OPT_NEXT]))) + jokers_key
    moves[end, MOVE_GAIN] = o0[a, OPT_GAIN] + o1[b, OPT_GAIN] + o2[c, OPT_GAIN] + \
        o3[d, OPT_GAIN] + joker_gain
    moves[end, MOVE_RANK] = o0[a, OPT_RANK] + o1[b, OPT_RANK] + o2[c, OPT_RANK] + \
        o3[d, OPT_RANK]
    moves[end, MOVE_CODE] = o0[a, OPT_CODE] | (o1[b, OPT_CODE] << CODE_BITS) | (
        o2[c, OPT_CODE] << (2 * CODE_BITS)) | (o3[d, OPT_CODE] << (3 * CODE_BITS))


@njit(cache=True, inline="always")
def _record_place(places, end, ks, picked, counts):
    """``_combine`` with its options sorted by jokers (``places``: ``(listed, order, offset,
    at)``): the place of the move at row ``end`` among the node's combinations as listed,
    ``picked`` the suits' options for set cards ``ks`` and ``counts`` the last three suits'
    option counts."""
    listed, order, offset, at = places
    place = listed[0, ks[0], picked[0]]
    for s in range(1, N_SUITS):
        place = place * counts[s - 1] + listed[s, ks[s], picked[s]]
    order[end - at] = offset + place


@njit(cache=True, inline="always")
def _option_bounds(ex, bounds, t, wild_left):
    """Set each option's ``opt_bound`` at node step ``t`` (``t >= 1``), and ``opt_most``: what
    its suit's real cards add at the step plus the suit's state bound after it
    (``joker_state_bounds`` ``bounds`` at step ``t + 1``, in its next state), in
    ``opt_bound[s, k, j, rest]`` with ``rest`` jokers left after the move (as ``2 * rest``
    half jokers; at most the node's jokers left less the option's own, ``wild_left - z``,
    where ``opt_most`` reads it).

    Why the four suits' ``opt_bound`` plus the node's ``_jokers_ahead`` bound what a move adds
    (its gain plus ``_node_bound`` of its child, so a move whose sum is at most what the node
    needs to beat the best can be left out, ``_combine``): the child's ``_suit_bound`` is at
    most the sum of each suit's bound with all the child's half jokers, ``2 * (wild_left -
    zs)`` for the move's ``zs`` jokers, and bounds grow with the half jokers allowed, so at
    most the sum with ``2 * (wild_left - z)`` per suit. The jokers' part of the move's gain
    (``z * JOKER_WEIGHT``, or ``_labelled_joker_gain``) plus the child's ``_jokers_ahead`` is
    at most the node's ``_jokers_ahead``: each joker placed scores at most
    ``JOKER_WEIGHT_MAX``, which the node's count of jokers still to score already held."""
    (cell, cfg, _, _, _, _, _, _, _, _, _, _, _, opts, n_opt, _, opt_bound, opt_most,
     _) = ex
    labelled = cfg[ALL_TABLE_JOKERS] > 0
    for s in range(N_SUITS):
        joker_weight = 0 if labelled else cell[t, s, JOKER_WEIGHT]
        for k in range(n_opt.shape[1]):
            most = NO_SCORE
            for j in range(n_opt[s, k]):
                z, nxt = opts[s, k, j, OPT_JOKERS], opts[s, k, j, OPT_NEXT]
                real = opts[s, k, j, OPT_GAIN] - z * joker_weight
                for rest in range(wild_left - z + 1):
                    opt_bound[s, k, j, rest] = real + bounds[t + 1, s, nxt, 2 * rest]
                most = max(most, opt_bound[s, k, j, wild_left - z])
            opt_most[s, k] = most


@njit(cache=True)
def _sort_moves(moves, at, end, keys):
    """Best rank first over ``moves[at:end]``, ties in generation order: an insertion sort for
    a few moves, else the moves' packed keys sorted in ``keys`` (scratch; ``argsort`` when
    they do not fit, as for the ace step's thousands of joker moves), then the rows moved
    into their places. The same order as a stable sort by rank; no allocation a node."""
    n = end - at
    if n <= 32:
        _insertion_sort(moves, at, end)
        return
    if n > keys.shape[0]:
        order = np.argsort(-moves[at:end, MOVE_RANK], kind="mergesort")
        moves[at:end] = moves[at:end][order]
        return
    top = moves[at, MOVE_RANK]
    for i in range(at + 1, end):
        top = max(top, moves[i, MOVE_RANK])
    for i in range(n):  # rank below the best first, then generation order: distinct keys
        keys[i] = ((top - moves[at + i, MOVE_RANK]) << INDEX_BITS) | i
    keys[:n].sort()
    for i in range(n):
        keys[i] &= (1 << INDEX_BITS) - 1  # the row that goes to place i
    _permute_rows(moves, at, keys, n)


@njit(cache=True, inline="always")
def _permute_rows(moves, at, source, n):
    """Move row ``at + source[i]`` of ``moves`` to row ``at + i`` for every ``i < n``, in
    place, one cycle of the permutation at a time (``source`` is marked -1 as it goes)."""
    for start in range(n):
        if source[start] < 0:
            continue
        key, gain, code, rank = moves[at + start, MOVE_KEY], moves[at + start, MOVE_GAIN], \
            moves[at + start, MOVE_CODE], moves[at + start, MOVE_RANK]
        i = start
        while source[i] != start:
            j = source[i]
            for f in range(N_MOVE_FIELDS):
                moves[at + i, f] = moves[at + j, f]
            source[i] = -1
            i = j
        source[i] = -1
        moves[at + i, MOVE_KEY], moves[at + i, MOVE_GAIN] = key, gain
        moves[at + i, MOVE_CODE], moves[at + i, MOVE_RANK] = code, rank


@njit(cache=True, inline="always")
def _insertion_sort(moves, at, end):
    """``_sort_moves`` for a few moves: stable, best rank first."""
    for i in range(at + 1, end):
        key, gain, code, rank = moves[i, MOVE_KEY], moves[i, MOVE_GAIN], moves[i, MOVE_CODE], \
            moves[i, MOVE_RANK]
        j = i - 1
        while j >= at and moves[j, MOVE_RANK] < rank:
            for f in range(N_MOVE_FIELDS):
                moves[j + 1, f] = moves[j, f]
            j -= 1
        moves[j + 1, MOVE_KEY], moves[j + 1, MOVE_GAIN] = key, gain
        moves[j + 1, MOVE_CODE], moves[j + 1, MOVE_RANK] = code, rank


@njit(cache=True, inline="always")
def _expand(t, key, ex, moves, at, bounds, limit):
    """Write the moves of node (``t``, ``key``) to ``moves`` from row ``at``, best first
    (``ex``: ``_expansion``): ``(end, most)``, ``end`` ``-need`` when ``moves`` needs
    ``need`` rows.

    A move is, per suit, the copies used (real ones plus ``z`` jokers), how many go into sets
    (``k``) and, at the ace, how many are high aces (``g``), and with tahiti's flagged
    automaton how many jokers go into sets (``zs``); its code packs them ``CODE_BITS`` bits
    a suit. With per-suit state bounds (``bounds``, ``joker_state_bounds``; one entry:
    none) the moves whose gain plus child's bound cannot beat ``limit`` plus the node's
    ``_jokers_ahead`` (``_option_bounds``) are left out, as the search would prune them;
    ``most`` bounds what those add, less the node's ``_jokers_ahead`` (``NO_SCORE``: none).
    """
    (_, cfg, _, _, _, _, _, _, _, _, kvecs, kv_index, kv_list, _, n_opt, q_of, _,
     opt_most, sort_keys) = ex
    used = key // BASE_KEY
    for s in range(N_SUITS):
        q_of[s] = _suit_state(key, s)
    wild_left = cfg[WILD] - used
    most = NO_SCORE
    for s in range(N_SUITS):
        _suit_options(ex, t, s, wild_left)
    if t == 0 and cfg[FLAGGED] and wild_left >= 2:
        return _expand_by_jokers(t, used, wild_left, ex, moves, at, bounds, limit)
    cut = bounds.shape[0] > 1
    if cut:
        _option_bounds(ex, bounds, t, wild_left)
    end = at
    for i in range(_live_set_vectors(n_opt, kv_index, kv_list)):
        kv = kv_list[i]
        k0, k1, k2, k3 = kvecs[kv, 0], kvecs[kv, 1], kvecs[kv, 2], kvecs[kv, 3]
        count = n_opt[0, k0] * n_opt[1, k1] * n_opt[2, k2] * n_opt[3, k3]
        if count == 0:
            continue
        if cut:
            top = opt_most[0, k0] + opt_most[1, k1] + opt_most[2, k2] + opt_most[3, k3]
            if top <= limit:
                most = max(most, top)
                continue
        if end + count > moves.shape[0]:
            return -(end + count), most
        end, left_out = _combine(ex, t, kv, used, wild_left, moves, end, cut, limit)
        most = max(most, left_out)
    _sort_moves(moves, at, end, sort_keys)
    return end, most


@njit(cache=True)
def _expand_by_jokers(t, used, wild_left, ex, moves, at, bounds, limit):
    """``_expand`` at the ace step of tahiti's flagged automaton with two jokers or more, its
    options listed (``_suit_options``): the same moves in the same order and the same
    ``most``, without going through every combination of options.

    Each suit lists an option per split of its jokers among sets, low aces and high aces,
    and most combinations hold too many jokers: with three, 11.8 million combinations for
    32,903 moves (seed 1234's 8-card hand of ``bench.joker_games``: 17-20 ms a root, and
    a search expands its root up to three times). Here each suit's options are sorted by
    jokers (``_by_jokers``), so each loop of ``_combine`` ends at its first option with too
    many (3.3 ms, 0.4 ms when the bounds cut); each move records its place among the
    combinations as listed, and the moves are sorted by rank, then that place
    (``_sort_by_order``): the order ``_sort_moves`` gives them made in listing order."""
    kvecs, kv_index, kv_list, n_opt, opt_most = ex[10], ex[11], ex[12], ex[14], ex[17]
    listed = _by_jokers(ex)
    cut = bounds.shape[0] > 1
    if cut:
        _option_bounds(ex, bounds, t, wild_left)
    order = np.empty(moves.shape[0] - at, dtype=np.int64)  # each move's place as listed
    end, combos, most = at, 0, NO_SCORE
    for i in range(_live_set_vectors(n_opt, kv_index, kv_list)):
        kv = kv_list[i]
        count, top = 1, 0
        for s in range(N_SUITS):
            count *= n_opt[s, kvecs[kv, s]]
            top += opt_most[s, kvecs[kv, s]]
        combos += count
        if count == 0:
            continue
        if cut and top <= limit:
            most = max(most, top)
            continue
        end, left_out = _combine(ex, t, kv, used, wild_left, moves, end, cut, limit,
                                 (listed, order, combos - count, at))
        if end < 0:  # ``moves`` is full
            return -2 * moves.shape[0], most
        most = max(most, left_out)
    _sort_by_order(moves, at, end, order, combos)
    return end, most


@njit(cache=True)
def _by_jokers(ex):
    """Sort each suit's options for each number of set cards by their jokers, fewest first,
    keeping their order among equals (a counting sort): ``listed[s, k, j]``, the place
    option ``opts[s, k, j]`` had as listed."""
    opts, n_opt = ex[13], ex[14]
    most = ex[1][WILD] + 1
    counts = np.zeros(most + 1, dtype=np.int64)
    rows = np.empty((n_opt.max(), N_OPT_FIELDS), dtype=np.int64)
    listed = np.empty((N_SUITS, n_opt.shape[1], n_opt.max()), dtype=np.int64)
    for s in range(N_SUITS):
        for k in range(n_opt.shape[1]):
            n = n_opt[s, k]
            counts[:] = 0
            for j in range(n):
                counts[opts[s, k, j, OPT_JOKERS] + 1] += 1
            for z in range(1, most + 1):
                counts[z] += counts[z - 1]
            for j in range(n):
                place = counts[opts[s, k, j, OPT_JOKERS]]
                counts[opts[s, k, j, OPT_JOKERS]] += 1
                rows[place] = opts[s, k, j]
                listed[s, k, place] = j
            opts[s, k, :n] = rows[:n]
    return listed


@njit(cache=True)
def _sort_by_order(moves, at, end, order, combos):
    """Sort ``moves[at:end]`` best rank first, ties by ``order`` (each move's place among the
    node's ``combos`` combinations as listed): the order ``_sort_moves`` gives the moves
    made in listing order."""
    if end - at <= 1:
        return
    top = moves[at:end, MOVE_RANK].max()
    keys = (top - moves[at:end, MOVE_RANK]) * combos + order[:end - at]
    moves[at:end] = moves[at:end][np.argsort(keys)]


@njit(cache=True, inline="always")
def _live_set_vectors(n_opt, kv_index, order):
    """List in ``order`` (``kv_list``), in ``kvecs`` order, the rows of the set vectors for
    which every suit has options at this node (``n_opt``), and return how many: the suits'
    set-card counts with options are combined and looked up in ``kv_index``, rather than
    every vector scanned (125 with four copies, most with no option in some suit)."""
    width = n_opt.shape[1]
    n = 0
    for k0 in range(width):
        if n_opt[0, k0] == 0:
            continue
        for k1 in range(width):
            if n_opt[1, k1] == 0:
                continue
            for k2 in range(width):
                if n_opt[2, k2] == 0:
                    continue
                digits = ((k0 * width + k1) * width + k2) * width
                for k3 in range(width):
                    kv = kv_index[digits + k3]
                    if n_opt[3, k3] == 0 or kv < 0:
                        continue
                    j = n  # insert in kvecs order: the moves come out as a scan makes them
                    while j > 0 and order[j - 1] > kv:
                        order[j] = order[j - 1]
                        j -= 1
                    order[j] = kv
                    n += 1
    return n


@njit(cache=True)
def _set_vector_index(kvecs, width):
    """``kv_index`` of ``SearchTables``: the row of each set vector of ``kvecs`` by its digits
    in base ``width``."""
    index = np.full(width ** N_SUITS, -1, dtype=np.int64)
    for kv in range(kvecs.shape[0]):
        digits = 0
        for s in range(N_SUITS):
            digits = digits * width + kvecs[kv, s]
        if kvecs[kv].max() < width:
            index[digits] = kv
    return index


@njit(cache=True)
def _expand_into(t, key, tables, moves, at):
    """Every move of node (``t``, ``key``) (``_expand`` leaving none out), growing ``moves``
    until they fit: ``(moves, end)``."""
    moves, end, _ = _expand_cut(t, key, _expansion(tables), moves, at,
                                np.zeros((1, 1, 1, 1), dtype=np.int64), 0)
    return moves, end


@njit(cache=True)
def _expand_cut_into(t, key, tables, moves, at, bounds, limit):
    """``_expand_cut`` with ``tables``' arrays: ``(moves, end, most)``."""
    return _expand_cut(t, key, _expansion(tables), moves, at, bounds, limit)


@njit(cache=True, inline="always")
def _expand_cut(t, key, ex, moves, at, bounds, limit):
    """``_expand``, growing ``moves`` until the node's moves fit: ``(moves, end, most)``."""
    while True:  # one call site: ``_expand`` is inlined
        end, most = _expand(t, key, ex, moves, at, bounds, limit)
        if end >= 0:
            return moves, end, most
        moves = _grow(moves, max(2 * moves.shape[0], -end))


@njit(cache=True)
def _grow(array, cap):
    """``array`` (rows by fields) with room for ``cap`` rows, its rows kept."""
    bigger = np.empty((cap, array.shape[1]), dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@njit(cache=True)
def _table_find(table_keys, key):
    """``_slot`` as a function (``solver.kernel_lex`` and the rarer calls)."""
    return _slot(table_keys, key)


@njit(cache=True, inline="always")
def _slot(table_keys, key):
    """Slot of ``key`` in the open-addressing table (an empty slot if absent). The key's high
    bits (a node key's last suit, jokers and step, ``KEY_RADIX``) are folded onto its low
    ones first: the slot comes from the product's middle bits, which only the key's lower
    bits reach."""
    mask = table_keys.shape[0] - 1
    h = ((key ^ (key >> 29)) * 0x9E3779B97F4A7C15) & 0x7FFFFFFFFFFFFFFF
    i = (h >> 17) & mask
    while table_keys[i] != -1 and table_keys[i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _remember(tt_keys, tt_vals, tt_fut, tt_used, key, score, best):
    """``_record`` as a function (``solver.kernel_lex``), the table grown fourfold when half
    full (``_regrown``): ``(tt_keys, tt_vals, tt_fut, tt_used, explore, future)``."""
    tt_used, explore, future = _record(tt_keys, tt_vals, tt_fut, tt_used, key, score, best)
    if 2 * tt_used > tt_keys.shape[0]:
        tt_keys, tt_vals, tt_fut = _regrown(tt_keys, tt_vals, tt_fut)
    return tt_keys, tt_vals, tt_fut, tt_used, explore, future


@njit(cache=True, inline="always")
def _record(tt_keys, tt_vals, tt_fut, tt_used, key, score, best):
    """Record that node ``key`` is explored with ``score`` in the transposition table.

    Returns ``(tt_used, explore, future)``: the keys the table holds (the caller grows it
    when half full, ``_regrown``), whether the node is worth exploring (not seen with a
    score as good before, nor known to add too little to beat ``best``) and, when it is
    not, the most it can add (``tt_fut``: an upper bound on the node's future gain, set when
    its exploration ends; ``UNKNOWN_FUTURE`` before).
    """
    slot = _slot(tt_keys, key)
    if tt_keys[slot] == key:
        if tt_vals[slot] >= score or score + tt_fut[slot] <= best:
            return tt_used, False, tt_fut[slot]
        tt_vals[slot] = score
        return tt_used, True, 0
    tt_keys[slot] = key
    tt_vals[slot] = score
    tt_fut[slot] = UNKNOWN_FUTURE
    return tt_used + 1, True, 0


@njit(cache=True)
def _regrown(tt_keys, tt_vals, tt_fut):
    """The transposition table's arrays four times as large, every key moved over."""
    cap = 4 * tt_keys.shape[0]
    new_keys = np.full(cap, -1, dtype=np.int64)
    new_vals = np.zeros(cap, dtype=np.int64)
    new_fut = np.zeros(cap, dtype=np.int64)
    for j in range(tt_keys.shape[0]):
        if tt_keys[j] != -1:
            where = _slot(new_keys, tt_keys[j])
            new_keys[where] = tt_keys[j]
            new_vals[where] = tt_vals[j]
            new_fut[where] = tt_fut[j]
    return new_keys, new_vals, new_fut


@njit(cache=True, inline="always")
def _visit(seen, dominators, n_q, tt_keys, tt_vals, tt_fut, tt_used, t, key_space, key, score,
           best):
    """``_record`` node (``t``, ``key``) reached with ``score``; a node to explore that
    another explored node dominates (``_dominating``) is not explored after all:
    ``(tt_used, explore, what the node can add)`` as ``_record`` returns them. Searches
    look for dominating nodes once the table holds ``LAZY_BOUNDS`` nodes (most searches end
    before, and would only pay for the look-ups). ``seen``, ``dominators``, ``n_q``: those
    of ``SearchTables``."""
    tt_used, explore, future = _record(tt_keys, tt_vals, tt_fut, tt_used, t * key_space + key,
                                       score, best)
    if explore and dominators.shape[0] == n_q and tt_used >= LAZY_BOUNDS:
        slot = _dominating(seen, dominators, n_q, tt_keys, tt_vals, tt_fut, t, t * key_space,
                           key, score, best)
        if slot >= 0:  # what it can add is at most what the dominating node can
            mine = _slot(tt_keys, t * key_space + key)
            tt_fut[mine] = min(tt_fut[mine], tt_fut[slot])
            return tt_used, False, tt_fut[slot]
        for s in range(N_SUITS):
            seen[t, s, _suit_state(key, s)] = True
    return tt_used, explore, future


@njit(cache=True, inline="always")
def _dominating(seen, dominators, n_q, tt_keys, tt_vals, tt_fut, t, step_key, key, score,
                best):
    """The table slot of an explored node that dominates node ``key`` (``step_key``: its
    step's offset in the table) reached with ``score``, or -1: a node with the same jokers
    used and the same automaton states but one suit's, which dominates this node's
    (``dominators``; ``seen``: ``SearchTables``'), explored with a score at least as high
    or known to add too little (``tt_fut``) for this node to beat ``best``.

    Exact: a state that dominates another finishes the suit every way the other does
    (``automaton.dominance``), so every move from this node has a twin from that node with
    the same gain and jokers, into a child that dominates its child in turn (a dominated
    state is only alive when its dominator is: ``live_states`` follows the same moves), down
    to the last step, where the suits accept. So every play under this node scores no more
    than its twin under the other, which the search found or pruned as unable to beat the
    best so far (as for a node met again, ``_remember``), and what this node can add is at
    most what the other can: so it cannot beat ``best`` either when its score plus that is
    at most ``best``, whatever score the other had (the 21-card carousel hand of
    ``bench.joker_games``: 3,864 nodes instead of 4,033)."""
    for s in range(N_SUITS):
        q = _suit_state(key, s)
        for i in range(dominators.shape[1]):
            above = dominators[q, i]
            if above < 0:
                break
            if not seen[t, s, above]:
                continue
            other = step_key + key + ((above - q) << (KEY_BITS * s))
            slot = _slot(tt_keys, other)
            if tt_keys[slot] == other and (tt_vals[slot] >= score or
                                           score + tt_fut[slot] <= best):
                return slot
    return -1


@njit(cache=True)
def _new_table():
    """An empty transposition table: per node key (step and key), the best score it was
    explored with and the most it can add after it; and how many keys it holds."""
    return (np.full(1 << 8, -1, dtype=np.int64), np.zeros(1 << 8, dtype=np.int64),
            np.zeros(1 << 8, dtype=np.int64), np.int64(0))


@njit(cache=True)
def _settle(tt_keys, tt_fut, key, future):
    """Node ``key``'s exploration has ended: at most ``future`` more can come after it."""
    slot = _table_find(tt_keys, key)
    tt_fut[slot] = min(tt_fut[slot], future)


@njit(cache=True)
def _search_tables(cell, cfg, init, delta, accept, kvecs, ref_groups, ref_len, dominators):
    """The ``SearchTables`` of one search."""
    ref_k, ref_g, ref_z = table_reference(ref_groups, ref_len)
    n_q = delta.shape[0]
    if n_q > KEY_RADIX:
        raise ValueError("more automaton states than a node key's digit holds (KEY_RADIX)")
    fixed_before = np.zeros(N_STEPS + 1, dtype=np.int64)
    for t in range(N_STEPS):
        fixed_before[t + 1] = fixed_before[t] + cell[t, :, FIXED].sum() + cell[t, :, KEPT].sum()
    return SearchTables(
        cell, cfg, init, delta, live_states(cell, cfg, delta, accept), ref_k, ref_g, ref_z,
        kvecs, n_q,
        np.empty((N_SUITS, cfg[COPIES] + 1, MAX_SUIT_OPTIONS, N_OPT_FIELDS), dtype=np.int64),
        np.zeros((N_SUITS, cfg[COPIES] + 1), dtype=np.int64), np.zeros(N_SUITS, dtype=np.int64),
        fixed_before, _set_vector_index(kvecs, cfg[COPIES] + 1),
        np.zeros(kvecs.shape[0], dtype=np.int64), dominators,
        np.zeros((N_STEPS + 1, N_SUITS, n_q if dominators.shape[0] == n_q else 1),
                 dtype=np.bool_),
        np.empty((N_SUITS, cfg[COPIES] + 1, MAX_SUIT_OPTIONS, cfg[WILD] + 1), dtype=np.int64),
        np.zeros((N_SUITS, cfg[COPIES] + 1), dtype=np.int64),
        np.empty(SORT_SCRATCH, dtype=np.int64),
    )


@njit(cache=True)
def _gain_bounds(cell):
    """``ub[t]``: the most real cards' weight steps ``t``.. can still add."""
    ub_rest = np.zeros(N_STEPS + 1, dtype=np.int64)
    for t in range(N_STEPS - 1, -1, -1):
        total = 0
        for s in range(N_SUITS):
            total += _gain(cell[t, s, HI], cell[t, s, BASE], cell[t, s, HAND], cell[t, s, WEIGHT])
        ub_rest[t] = ub_rest[t + 1] + total
    return ub_rest


@njit(cache=True)
def state_bounds(cell, delta, accept):
    """``bounds[t, s, q]``: the most suit ``s`` can add from step ``t`` on, starting in
    automaton state ``q`` (``NO_SCORE``: it cannot end validly), jokers aside.

    A relaxation of the search for one suit: its run cards follow the automaton exactly, and
    any number of its cards may go into sets at a rank where two other suits have cards.
    Every play the search can make from the state scores at most this much, so the sum over
    the four suits bounds a node; on the ``points`` objective it is much tighter than
    counting every hand card still to come (``_gain_bounds``)."""
    n_q = delta.shape[0]
    bounds = np.full((N_STEPS + 1, N_SUITS, n_q), NO_SCORE, dtype=np.int64)
    for s in range(N_SUITS):
        for q in range(n_q):
            if accept[q]:
                bounds[N_STEPS, s, q] = 0
    for t in range(N_STEPS - 1, 0, -1):
        for s in range(N_SUITS):
            partners = _partners(cell, t, s)
            for q in range(n_q):
                most = NO_SCORE
                for u in range(cell[t, s, LO], min(cell[t, s, HI], delta.shape[1] - 1) + 1):
                    gain = _gain(u, cell[t, s, BASE], cell[t, s, HAND], cell[t, s, WEIGHT])
                    for k in range(0, (u if partners >= 2 else 0) + 1):
                        nxt = delta[q, u - k, cell[t, s, REQUIRED]]
                        if nxt >= 0 and bounds[t + 1, s, nxt] > NO_SCORE:
                            most = max(most, gain + bounds[t + 1, s, nxt])
                bounds[t, s, q] = most
    return bounds


@njit(cache=True)
def joker_state_bounds(cell, init, delta, accept, wild, flagged=0):
    """``state_bounds`` with ``wild`` jokers: ``bounds[t, s, q, h]``, the most suit ``s``'s
    real cards can add from step ``t`` on, starting in automaton state ``q``, charged at most
    ``h`` half jokers (0..``2 * wild``) from then on (``NO_SCORE``: it cannot end validly).

    A relaxation of the search for one suit: its run cards (real, and jokers naming the suit
    in runs) follow the automaton exactly, any number of its real cards may go into sets,
    and jokers are charged in half jokers (``_joker_charges``): two for a joker in a run of
    the suit, and per set card what its set must hold in jokers, shared among the set's real
    cards. The charges of a play add up to at most twice the jokers it places, so the best
    split of twice the jokers left among the four suits bounds a node (``_suit_bound``; the
    jokers' own weight is bounded apart). It is much tighter than counting every hand card
    still to come (``_gain_bounds``) on the ``points`` objective, and with jokers when hand
    cards that have no neighbour to join each need jokers of their own.

    Only the states a suit can reach from the ace step are filled in (``_reachable``; the
    others stay ``NO_SCORE``), which every node of the search is in: about half the live
    states, and a tahiti hand builds these bounds once per joker branch. With tahiti's
    flagged automaton (``flagged``) a step reads the joker-free symbols only: a real card
    goes wherever a joker may, so those reach every state a joker would, and the bounds
    stay upper bounds."""
    n_q, copies, width = delta.shape[0], delta.shape[1] - 1, 2 * wild + 1
    bounds = np.full((N_STEPS + 1, N_SUITS, n_q, width), NO_SCORE, dtype=np.int64)
    for q in range(n_q):
        if accept[q]:
            bounds[N_STEPS, :, q, :] = 0
    gains = np.empty((copies + 1, width), dtype=np.int64)
    reach = _reachable(cell, init, delta, wild, flagged)
    for t in range(N_STEPS - 1, 0, -1):
        for s in range(N_SUITS):
            _joker_charges(cell, t, s, wild, gains)
            after, here = bounds[t + 1, s], bounds[t, s]
            for q in range(n_q):
                if not reach[t, s, q]:
                    continue
                for r in range(copies + 1):
                    nxt = delta[q, r, cell[t, s, REQUIRED]]
                    if nxt < 0 or after[nxt, width - 1] == NO_SCORE:  # grows with h: dead
                        continue
                    for cost in range(width):
                        gain = gains[r, cost]
                        if gain == NO_SCORE:
                            continue
                        for h in range(cost, width):
                            rest = after[nxt, h - cost]
                            if rest > NO_SCORE and gain + rest > here[q, h]:
                                here[q, h] = gain + rest
    return bounds


@njit(cache=True)
def _reachable(cell, init, delta, wild, flagged=0):
    """``reach[t, s, q]``: whether suit ``s`` may be in automaton state ``q`` at step ``t``,
    from any state the ace step starts (``init``) through any run count a step's copies
    and ``wild`` jokers allow: every state a search's node can hold, and a few more. With
    tahiti's flagged automaton (``flagged``), through every number of jokers in runs too."""
    n_q, copies = delta.shape[0], delta.shape[1] - 1
    reach = np.zeros((N_STEPS + 1, N_SUITS, n_q), dtype=np.bool_)
    for r0 in range(init.shape[0]):
        for g in range(init.shape[1]):
            if init[r0, g] >= 0 and (flagged or r0 + g <= copies):
                reach[1, :, init[r0, g]] = True
    _reach_on(cell, delta, reach, wild, flagged)
    return reach


@njit(cache=True)
def _reach_on(cell, delta, reach, wild, flagged=0):
    """Fill ``reach[t]`` for the steps after the first from ``reach[1]``: every state a
    step's run count (``_reachable``'s) leads to from a state reached."""
    n_q, copies = delta.shape[0], delta.shape[1] - 1
    for t in range(1, N_STEPS):
        for s in range(N_SUITS):
            most = min(copies, cell[t, s, HI] + wild)  # run cards: real ones and jokers
            for q in range(n_q):
                if reach[t, s, q]:
                    for r in range(most + 1):
                        for j in range(min(r, wild) + 1 if flagged else 1):
                            nxt = delta[q, r, j if flagged else cell[t, s, REQUIRED]]
                            if nxt >= 0:
                                reach[t + 1, s, nxt] = True


@njit(cache=True)
def _joker_charges(cell, t, s, wild, gains):
    """``gains[r, c]``: the most suit ``s``'s real cards add at step ``t`` with ``r`` run cards
    (``NO_SCORE``: none), charged ``c`` half jokers.

    A joker in one of the suit's runs costs two. A set with ``m`` real cards holds at least
    ``3 - m`` jokers; charging each of its real cards 4 half jokers when ``m`` is 1, 1 when
    ``m`` is 2 and none from 3 on charges it at most twice its jokers (one real card: 4 for
    two jokers; two: 1 + 1 for one). The suit is charged the least this can be for its
    ``k`` set cards, over every way their ``k`` sets (one card each: a set's suits differ)
    could take real partners among the other suits' copies at the rank (``_set_charge``),
    so at most what its cards are charged in any play. Jokers in sets are not charged as
    run jokers of the suit they name, so no joker is charged twice."""
    copies, width = gains.shape[0] - 1, gains.shape[1]
    gains[:, :] = NO_SCORE
    partners, beside = _partners(cell, t, s), 0
    for o in range(N_SUITS):
        beside += cell[t, o, HI] if o != s else 0
    for u in range(cell[t, s, LO], min(cell[t, s, HI], copies) + 1):
        gain = _gain(u, cell[t, s, BASE], cell[t, s, HAND], cell[t, s, WEIGHT])
        for z in range(0, min(wild, copies - u) + 1):
            for k in range(0, u + 1):  # k real set cards, u - k + z run cards
                cost = 2 * z + _set_charge(k, partners, beside)
                if cost >= width:
                    break
                gains[u - k + z, cost] = max(gains[u - k + z, cost], gain)


@njit(cache=True, inline="always")
def _set_charge(k, partners, beside):
    """The least half jokers ``_joker_charges`` charges ``k`` set cards of one suit at a rank
    where ``partners`` other suits hold ``beside`` real copies in all (``_set_charge`` grows
    with ``k``).

    Each of the ``k`` sets holds one of the cards (a set's suits differ, docs/rules.md §2);
    a set with no real partner costs 4, with one 1, with two or more 0. The fewest: every
    set takes a first partner while copies last (each saves 3), then, with two partner suits
    or more, a second one (each saves 1), as if any copy could join any set: fewer copies
    can only cost more. With copies enough
    (``beside >= 2 k``) it is 0, as before the copies were counted; with too few, two 10C
    whose only partners are one 10S, 10H and 10D, 1 (two sets need four partners)."""
    first = min(beside, k)  # sets with a real partner
    second = min(beside - first, first) if partners >= 2 else 0  # ... and a second one
    return 4 * (k - first) + (first - second)


# The three ways to pair the four suits: rows 2i and 2i + 1 of ``PAIRS`` are one pairing.
PAIRS = np.array([[0, 1], [2, 3], [0, 2], [1, 3], [0, 3], [1, 2]], dtype=np.int64)
NO_PAIRS = np.zeros((1, 1, 1, 1), dtype=np.int64)  # ``pair_state_bounds`` not built


@njit(cache=True)
def pair_state_bounds(cell, init, delta, accept, alive, kvecs):
    """``bounds[p, t, qa, qb]``: the most suits ``PAIRS[p]`` can add together from step ``t``
    on, starting in automaton states ``qa`` and ``qb`` (``NO_SCORE``: they cannot both end
    validly, or the states are never reached), without jokers.

    A relaxation of the search for two suits: both suits' run cards follow the automaton
    exactly, and their set cards at a rank must complete, with at most the other two suits'
    copies of the rank, a valid set vector (``kvecs``). Unlike ``state_bounds`` this sees
    two suits competing for the same partners, and runs that need a card a set needs too:
    the sum over a pairing of the suits bounds a node, and the least of the three pairings
    is at most the sum of the four suits' ``state_bounds``. On the ``points`` objective with
    ``ace=both`` it proves positions that the per-suit bound leaves to thousands of nodes
    (docs/rules.md §3: sets of distinct suits, §4: runs). Only the states the relaxation
    reaches from the ace step are filled in (about half of the live ones)."""
    n_q, copies = delta.shape[0], delta.shape[1] - 1
    bounds = np.full((PAIRS.shape[0], N_STEPS + 1, n_q, n_q), NO_SCORE, dtype=np.int64)
    options = np.zeros((N_STEPS, N_SUITS, n_q, (copies + 1) * (copies + 1), 3), dtype=np.int64)
    n_options = _pair_options(cell, init, delta, alive, options)
    for p in range(PAIRS.shape[0]):
        a, b = PAIRS[p, 0], PAIRS[p, 1]
        for qa in range(n_q):
            for qb in range(n_q):
                if accept[qa] and accept[qb]:
                    bounds[p, N_STEPS, qa, qb] = 0
        for t in range(N_STEPS - 1, 0, -1):
            sets = _pair_set_counts(cell, kvecs, t, a, b, copies)
            opt_a, opt_b = options[t, a], options[t, b]
            for qa in range(n_q):
                if n_options[t, a, qa] == 0:
                    continue
                for qb in range(n_q):
                    most = NO_SCORE
                    for i in range(n_options[t, a, qa]):
                        gain, ka, na = opt_a[qa, i, 0], opt_a[qa, i, 1], opt_a[qa, i, 2]
                        for j in range(n_options[t, b, qb]):
                            after = bounds[p, t + 1, na, opt_b[qb, j, 2]]
                            if after > NO_SCORE and sets[ka, opt_b[qb, j, 1]]:
                                most = max(most, gain + opt_b[qb, j, 0] + after)
                    bounds[p, t, qa, qb] = most
    return bounds


@njit(cache=True)
def _pair_set_counts(cell, kvecs, t, a, b, copies):
    """``sets[ka, kb]``: suits ``a`` and ``b`` may put ``ka`` and ``kb`` cards into sets at
    step ``t``, the other two suits completing a valid set vector with copies they have."""
    sets = np.zeros((copies + 1, copies + 1), dtype=np.bool_)
    for v in range(kvecs.shape[0]):
        fits = True
        for o in range(N_SUITS):
            if o != a and o != b and kvecs[v, o] > cell[t, o, HI]:
                fits = False
        if fits:
            sets[kvecs[v, a], kvecs[v, b]] = True
    return sets


@njit(cache=True)
def _pair_options(cell, init, delta, alive, options):
    """Each suit's moves at each step from each automaton state it can reach from the ace
    step (any split of its aces) and that leads to a live state: ``options[t, s, q, i] =
    (gain, set cards, next state)``; returns ``n_options[t, s, q]``, how many."""
    n_q, copies = delta.shape[0], delta.shape[1] - 1
    n_options = np.zeros((N_STEPS, N_SUITS, n_q), dtype=np.int64)
    reached = np.zeros((N_STEPS + 1, n_q), dtype=np.bool_)
    for s in range(N_SUITS):
        reached[:, :] = False
        for r0 in range(copies + 1):
            for g in range(copies + 1 - r0):
                if init[r0, g] >= 0 and r0 + g <= cell[0, s, HI]:
                    reached[1, init[r0, g]] = True
        for t in range(1, N_STEPS):
            for q in range(n_q):
                if not reached[t, q] or not alive[t, s, q]:
                    continue
                for u in range(cell[t, s, LO], min(cell[t, s, HI], copies) + 1):
                    gain = _gain(u, cell[t, s, BASE], cell[t, s, HAND], cell[t, s, WEIGHT])
                    for k in range(u + 1):
                        nxt = delta[q, u - k, cell[t, s, REQUIRED]]
                        if nxt >= 0 and alive[t + 1, s, nxt]:
                            i = n_options[t, s, q]
                            options[t, s, q, i, 0] = gain
                            options[t, s, q, i, 1] = k
                            options[t, s, q, i, 2] = nxt
                            n_options[t, s, q] = i + 1
                            reached[t + 1, nxt] = True
    return n_options


@njit(cache=True)
def _pair_bound(pairs, t, key):
    """The most the four suits can add from node (``t``, ``key``): the least over the three
    pairings of the suits of their two pairs' ``pair_state_bounds``."""
    most = UNKNOWN_FUTURE
    for p in range(0, PAIRS.shape[0], 2):
        first = pairs[p, t, _suit_state(key, PAIRS[p, 0]), _suit_state(key, PAIRS[p, 1])]
        second = pairs[p + 1, t, _suit_state(key, PAIRS[p + 1, 0]),
                       _suit_state(key, PAIRS[p + 1, 1])]
        most = min(most, first + second)
    return most


# A Lagrangian bound for searches with jokers (``dual_bounds``): prices on each suit's set cards
# per step and on jokers, tuned at the root by subgradient steps, give node bounds that see
# the suits compete for set partners and jokers, which the per-suit bounds do not
# (docs/performance.md §3, session 30; ``bench.joker_dual`` measures it apart).
DUAL_LAZY = 1000  # nodes a search with jokers expands before it tunes ``dual_bounds`` (and
# only while its best is more than a card below its upper bound: a 23-card carousel hand that
# reaches its bound after 5,822 nodes paid about 2.5 ms for a table that pruned nothing)
DUAL_MOST_STATES = 80  # automaton states past which it is not built (its steps cost more)
DUAL_BITS = 20  # fixed point of ``dual_bounds``' table: a weight of one is ``1 << DUAL_BITS``
DUAL_STEPS = 45  # subgradient steps at most
DUAL_FIRST = 1.0  # the first step's size; each next is ``DUAL_DECAY`` times the last
DUAL_DECAY = 0.9
# Steps: on the 8 of seed 2718's 12 slowest carousel hands whose best play is below the suits'
# root bound, tuned once for the whole root (``bench.joker_dual``'s ``tuned_at_root``), these
# prove every best play within 44 steps (seed 2718's 21-card hand in 28); a first step of 0.5
# decaying by 0.97 proved 4 of them within 80 steps.
DUAL_MINUS = -1e18  # a state that cannot end validly


@njit(cache=True)
def _dual_set_vectors(cell, copies, wild):
    """Per step ``t`` (1..12), every count vector of real set cards its copies allow that
    at most ``wild`` jokers lay in sets (``_dual_set_jokers``): ``(vectors[t, i, s],
    jokers[t, i], n_vectors[t])``."""
    most = (copies + 1) ** N_SUITS
    vectors = np.zeros((N_STEPS, most, N_SUITS), dtype=np.int64)
    jokers = np.zeros((N_STEPS, most), dtype=np.int64)
    n_vectors = np.zeros(N_STEPS, dtype=np.int64)
    counts = np.zeros(N_SUITS, dtype=np.int64)
    for t in range(1, N_STEPS):
        total = 1
        for s in range(N_SUITS):
            total *= min(cell[t, s, HI], copies) + 1
        for code in range(total):
            rest = code
            for s in range(N_SUITS):
                top = min(cell[t, s, HI], copies) + 1
                counts[s] = rest % top
                rest //= top
            need = _dual_set_jokers(counts)
            if need <= wild:
                i = n_vectors[t]
                vectors[t, i, :] = counts
                jokers[t, i] = need
                n_vectors[t] = i + 1
    return vectors, jokers, n_vectors


@njit(cache=True)
def _dual_set_jokers(counts):
    """The fewest jokers that lay ``counts[s]`` real set cards of each suit in sets of three
    or four distinct suits: as many sets as the largest count, the cards spread evenly
    (docs/rules.md §3; a set may hold several jokers where the plain automaton searches)."""
    sets, cards = 0, 0
    for s in range(N_SUITS):
        sets = max(sets, counts[s])
        cards += counts[s]
    if sets == 0:
        return 0
    low, extra = cards // sets, cards % sets
    need = 0
    for i in range(sets):
        need += max(0, 3 - low - (1 if i < extra else 0))
    return need


@njit(cache=True)
def _dual_suit_values(cell, delta, reach, lam, nu, wild, values, choice):
    """Each suit's part of the Lagrangian bound: ``values[t, s, q]``, the most suit ``s``
    earns from step ``t`` on from automaton state ``q`` (reached states only), its real set
    cards paying ``lam[t, s, k]`` and its run jokers ``nu`` each; ``choice[t, s, q]`` the best
    option's (set cards, next state, jokers). Its options are ``joker_state_bounds``'."""
    n_q, copies = delta.shape[0], delta.shape[1] - 1
    for t in range(N_STEPS - 1, 0, -1):
        for s in range(N_SUITS):
            for q in range(n_q):
                if not reach[t, s, q]:
                    continue
                best, best_k, best_next, best_z = DUAL_MINUS, -1, -1, 0
                for u in range(cell[t, s, LO], min(cell[t, s, HI], copies) + 1):
                    gain = _gain(u, cell[t, s, BASE], cell[t, s, HAND], cell[t, s, WEIGHT])
                    for k in range(u + 1):
                        for z in range(min(wild, copies - (u - k)) + 1):
                            nxt = delta[q, u - k + z, cell[t, s, REQUIRED]]
                            if nxt < 0 or values[t + 1, s, nxt] <= DUAL_MINUS:
                                continue
                            value = gain - lam[t, s, k] - nu * z + values[t + 1, s, nxt]
                            if value > best:
                                best, best_k, best_next, best_z = value, k, nxt, z
                values[t, s, q] = best
                choice[t, s, q, 0] = best_k
                choice[t, s, q, 1] = best_next
                choice[t, s, q, 2] = best_z


@njit(cache=True)
def _dual_set_values(lam, nu, vectors, jokers, n_vectors, values, chosen):
    """Each step's set part: ``values[t]``, the most its sets earn (the ``lam`` of their
    suits' counts, less ``nu`` per joker they need); ``chosen[t]``, the best vector's row."""
    for t in range(1, N_STEPS):
        best, row = DUAL_MINUS, 0
        for i in range(n_vectors[t]):
            value = -nu * jokers[t, i]
            for s in range(N_SUITS):
                value += lam[t, s, vectors[t, i, s]]
            if value > best:
                best, row = value, i
        values[t] = best
        chosen[t] = row


@njit(cache=True)
def _dual_reach(cell, delta, states, wild):
    """``reach[t, s, q]``: the automaton states suit ``s`` may hold at step ``t`` from the
    root's children (``states``: their suits' states at step 1)."""
    reach = np.zeros((N_STEPS + 1, N_SUITS, delta.shape[0]), dtype=np.bool_)
    for i in range(states.shape[0]):
        for s in range(N_SUITS):
            reach[1, s, states[i, s]] = True
    _reach_on(cell, delta, reach, wild)
    return reach


@njit(cache=True)
def dual_bounds(tables, accept, best):
    """The Lagrangian bound's table for a search with jokers (the plain automaton), its
    prices tuned at the root: ``dual[t, s, q, 0]`` suit ``s``'s part from state ``q`` at step
    ``t``, ``dual[t, N_SUITS, 0, 0]`` the set parts of steps ``t``.. and ``dual[0, N_SUITS, 0,
    0]`` the price of a joker left, each rounded up in units of ``2 ** -DUAL_BITS``
    (``_dual_bound`` reads them).

    The play below a node splits into each suit's cards through its automaton and each
    step's sets, linked by the set cards each suit gives at each step and by the jokers.
    With prices ``lam[t, s, k]`` on a suit's ``k`` set cards at step ``t`` (paid by the suit,
    earned by the step's sets) and ``nu >= 0`` per joker (paid by the jokers placed, earned
    by those left), the parts' maxima sum to at least every play's real cards (weak
    duality), whatever the prices. The search's moves are inside the parts: a joker in a set
    is one of the jokers the step's real set cards need. Subgradient steps on the root (the
    most over the ace step's moves) lower it, at most ``DUAL_STEPS``, or until it shows no
    play beats ``best``; the lowest root's prices are kept."""
    cell, delta, cfg = tables.cell, tables.delta, tables.cfg
    n_q, copies, wild = delta.shape[0], cfg[COPIES], cfg[WILD]
    moves, end = _expand_into(0, 0, tables, np.empty((1 << 9, N_MOVE_FIELDS), dtype=np.int64),
                              0)
    fixed = np.empty(end, dtype=np.float64)
    left = np.empty(end, dtype=np.int64)
    states = np.empty((end, N_SUITS), dtype=np.int64)
    for i in range(end):
        key = moves[i, MOVE_KEY]
        fixed[i] = moves[i, MOVE_GAIN] + _jokers_left(cfg, tables.fixed_before, 1, key)
        left[i] = wild - key // BASE_KEY
        for s in range(N_SUITS):
            states[i, s] = _suit_state(key, s)
    reach = _dual_reach(cell, delta, states, wild)
    vectors, jokers, n_vectors = _dual_set_vectors(cell, copies, wild)
    lam = np.zeros((N_STEPS, N_SUITS, copies + 1))
    kept_lam = lam.copy()
    nu, kept_nu, size, lowest = 0.0, 0.0, DUAL_FIRST, np.inf
    values = np.full((N_STEPS + 1, N_SUITS, n_q), DUAL_MINUS)
    for q in range(n_q):
        if accept[q]:
            values[N_STEPS, :, q] = 0.0
    choice = np.zeros((N_STEPS + 1, N_SUITS, n_q, 3), dtype=np.int64)
    sets = np.zeros(N_STEPS)
    chosen = np.zeros(N_STEPS, dtype=np.int64)
    slope = np.zeros((N_STEPS, N_SUITS, copies + 1))
    current = False  # whether ``values`` and ``sets`` are those of the kept prices
    for _ in range(DUAL_STEPS):
        _dual_suit_values(cell, delta, reach, lam, nu, wild, values, choice)
        _dual_set_values(lam, nu, vectors, jokers, n_vectors, sets, chosen)
        all_sets = sets[1:].sum()
        top, root = -1, DUAL_MINUS
        for i in range(end):
            child = fixed[i] + all_sets + nu * left[i]
            for s in range(N_SUITS):
                child += values[1, s, states[i, s]]
            if child > root:
                top, root = i, child
        current = root < lowest
        if current:
            lowest, kept_nu = root, nu
            kept_lam[:] = lam
        if top < 0 or np.floor(lowest + 1e-6) <= best:
            break
        current = False  # the prices move on
        slope[:] = 0.0
        placed = 0
        for s in range(N_SUITS):
            q = states[top, s]
            for t in range(1, N_STEPS):
                slope[t, s, choice[t, s, q, 0]] -= 1.0
                placed += choice[t, s, q, 2]
                q = choice[t, s, q, 1]
        for t in range(1, N_STEPS):
            placed += jokers[t, chosen[t]]
            for s in range(N_SUITS):
                slope[t, s, vectors[t, chosen[t], s]] += 1.0
        lam -= size * slope
        nu = max(0.0, nu - size * (left[top] - placed))
        size *= DUAL_DECAY
    if not current:
        _dual_suit_values(cell, delta, reach, kept_lam, kept_nu, wild, values, choice)
        _dual_set_values(kept_lam, kept_nu, vectors, jokers, n_vectors, sets, chosen)
    return _dual_table(values, sets, kept_nu)


@njit(cache=True)
def _dual_table(values, sets, nu):
    """``dual_bounds``' table from the parts' values (fixed point, each rounded up)."""
    n_q = values.shape[2]
    scale = float(1 << DUAL_BITS)
    dual = np.full((N_STEPS + 1, N_SUITS + 1, n_q, 1), NO_SCORE, dtype=np.int64)
    for t in range(1, N_STEPS + 1):
        for s in range(N_SUITS):
            for q in range(n_q):
                if values[t, s, q] > DUAL_MINUS:
                    dual[t, s, q, 0] = np.int64(np.ceil(values[t, s, q] * scale)) + 1
        dual[t, N_SUITS, 0, 0] = np.int64(np.ceil(sets[t:].sum() * scale)) + 1
    dual[0, N_SUITS, 0, 0] = np.int64(np.ceil(nu * scale)) + 1
    return dual


@njit(cache=True, inline="always")
def _dual_bound(dual, t, key, left):
    """The most node (``t``, ``key``) with ``left`` jokers to place can still add in real
    cards, by ``dual_bounds``' table (``NO_SCORE``: a suit cannot end validly)."""
    total = dual[t, N_SUITS, 0, 0] + left * dual[0, N_SUITS, 0, 0]
    for s in range(N_SUITS):
        value = dual[t, s, _suit_state(key, s), 0]
        if value == NO_SCORE:
            return NO_SCORE
        total += value
    return total >> DUAL_BITS


@njit(cache=True)
def _none_built():
    """``_branch_and_bound``'s ``built`` when the suits' bounds are not built yet."""
    return np.zeros((1, 1, 1, 1), dtype=np.int64)


@njit(cache=True)
def _search_on(tables, accept, ub_rest, node_limit, best, best_path, table, pairs, suit_bounds,
               aspirations, cap):
    """A search that ran ``ASPIRE_WORK`` without ending, finished: ``(best, best_path,
    complete, nodes)``. ``pairs``: ``pair_state_bounds`` (joker-free searches, which prune by
    them from here on), with jokers ``dual_bounds``' table if the first search built it, or
    ``NO_PAIRS``; ``suit_bounds``: ``_suit_state_bounds`` (searches with jokers) or
    ``NO_PAIRS``' shape.

    First up to ``aspirations`` searches in a window below ``top``, the most any ace move
    can reach by those bounds: the ``i``-th counts only answers above ``top - 2 ** i``, so
    it prunes every node whose bound is that or lower, and it either finds the best answer
    (it is above its floor: optimal) or proves that none is above the floor, often quickly
    (the best play under a late ace move, or a full play the first search was slow to
    find); each stops at ``cap``, what the last one left. Each starts from a copy of the
    first search's transposition ``table``: a node that search settled holds no answer above
    these floors, or it would have found it. Then the first search goes on from its
    ``table`` (what it settled stays settled), its ``best`` the floor, and stops at the
    first answer worth ``cap``, the most any play can score as the caller bounds it (the
    root's bound, ``_root_bound``, or the search's upper bound). ``node_limit`` (0: none)
    caps them all."""
    top = cap
    nodes, tries = 0, 0
    while cap > best:
        floor = max(best, top - (1 << tries)) if tries < aspirations else best
        found, path, complete, more, work, _, _, pairs = _branch_and_bound(
            tables, accept, ub_rest, cap, node_limit, floor, pairs,
            _copied(table) if floor > best else table, np.int64(0), suit_bounds)
        nodes, tries = nodes + more, tries + 1
        if found > floor:  # worth ``cap`` (it stops there), or the first search's better one
            return found, path, complete or found == cap, nodes
        if not complete:
            return best, best_path, False, nodes  # cut short: the first run's answer
        if floor == best:
            break
        if node_limit > 0 and work >= node_limit:
            return best, best_path, False, nodes
        node_limit = 0 if node_limit == 0 else node_limit - work
        cap = floor  # nothing is worth more than ``floor``: an answer worth it is optimal
    return best, best_path, True, nodes


@njit(cache=True)
def _root_bound(tables, ub_rest, pairs, suit_bounds):
    """The most any play can score: over the ace step's moves, the move's gain plus what
    ``pairs``, or else ``suit_bounds`` (``_suit_state_bounds``; ``NO_PAIRS``: neither), bound
    its child to (``NO_SCORE``: no move leads anywhere); with jokers, ``pairs`` is
    ``dual_bounds``' table, taken with ``suit_bounds``."""
    moves = np.empty((1 << 9, N_MOVE_FIELDS), dtype=np.int64)
    moves, end = _expand_into(0, 0, tables, moves, 0)
    split = np.zeros(2 * tables.cfg[WILD] + 1, dtype=np.int64)
    most = NO_SCORE
    for i in range(end):
        bound = _node_bound(tables, ub_rest, suit_bounds, pairs, split, 1,
                            moves[i, MOVE_KEY], NO_SCORE)
        most = max(most, moves[i, MOVE_GAIN] + bound)
    return most


@njit(cache=True, nogil=True)
def root_bound(cell, cfg, init, delta, accept, kvecs):
    """The bound a search with these inputs (``search``'s) proves its answer against once
    its per-suit bounds are built: the most its ace step's moves plus the per-suit state
    bounds (jokers split among the suits) allow; the search's answer is optimal when it
    reaches it, and the gap is what the search must close by exploring."""
    groups, lengths = np.zeros((0, 1), dtype=np.int64), np.zeros(0, dtype=np.int64)
    tables = _search_tables(cell, cfg, init, delta, accept, kvecs, groups, lengths,
                            no_dominators())
    return _root_bound(tables, _gain_bounds(cell), NO_PAIRS,
                       _suit_state_bounds(tables, accept, cfg[WILD]))


@njit(cache=True)
def _partners(cell, t, s):
    """How many other suits than ``s`` have cards at step ``t`` (a set needs two)."""
    count = 0
    for o in range(N_SUITS):
        if o != s and cell[t, o, HI] > 0:
            count += 1
    return count


@njit(cache=True, inline="always")
def _suit_bound(bounds, t, key, left, split, enough):
    """The most the suits' real cards can add from node ``key`` (step ``t``) with ``left``
    jokers to place: the best split of ``2 * left`` half jokers among the suits of
    ``joker_state_bounds`` (``split``: scratch, ``2 * left + 1`` entries at least). The sum
    of each suit's bound with every half joker left, a looser bound, is returned when it is
    already at most ``enough`` (the node is pruned either way)."""
    top = min(2 * left, bounds.shape[3] - 1)
    total = 0
    for s in range(N_SUITS):
        total += bounds[t, s, _suit_state(key, s), top]
    if top == 0 or total <= enough:
        return total
    q = _suit_state(key, 0)
    for h in range(top + 1):  # elements, not a slice: a view counts a reference
        split[h] = bounds[t, 0, q, h]
    for s in range(1, N_SUITS):
        q = _suit_state(key, s)
        for h in range(top, -1 if s < N_SUITS - 1 else top - 1, -1):  # the last: top only
            most = NO_SCORE  # the best over the suits so far with at most h half jokers
            for a in range(h + 1):
                here = bounds[t, s, q, a]
                if here > NO_SCORE and split[h - a] > NO_SCORE:
                    most = max(most, split[h - a] + here)
            split[h] = most
    return split[top]


@njit(cache=True, inline="always")
def _accepted(key, base_key, n_q, accept):
    """True when every suit's automaton state in node ``key`` accepts (``base_key``, ``n_q``:
    the key's layout, ``BASE_KEY`` and ``KEY_RADIX`` here, ``solver.kernel_lex``'s own)."""
    rest = key % base_key
    for _ in range(N_SUITS):
        if not accept[rest % n_q]:
            return False
        rest //= n_q
    return True


@njit(cache=True, nogil=True)
def search(cell, cfg, init, delta, accept, kvecs, ref_groups, ref_len, node_limit):
    """``search_with`` no automaton state dominance (``no_dominators``)."""
    return search_with(cell, cfg, init, delta, accept, kvecs, ref_groups, ref_len, node_limit,
                       no_dominators())


@njit(cache=True)
def no_dominators():
    """``SearchTables.dominators`` for a search that skips no dominated node (read-only, as
    ``automaton.dominators``' are: ``solver.frozen``)."""
    return frozen(np.full((1, 1), -1, dtype=np.int64))


@njit(cache=True)
def search_with(cell, cfg, init, delta, accept, kvecs, ref_groups, ref_len, node_limit,
                dominators):
    """Best weight and the moves that reach it.

    ``cell[t, s, :]`` describes step ``t`` (0 the ace, 1..12 the ranks 2..K) of suit ``s``
    (fields ``LO`` .. ``DEFICIT``, see ``cell_arrays``); ``cfg`` holds the scalars (``GMAX``
    .. ``JOKER_WEIGHT_MAX``). ``ref_groups`` / ``ref_len`` (the table as it lies, card codes in
    reading order) only order the moves. ``node_limit`` caps the work (nodes expanded plus
    the moves they generate, roughly proportional to time; 0: no cap).

    Returns ``(best, moves, optimal, nodes)`` with ``moves[t, s] = (copies, k, g, z, zs)``;
    ``best`` is ``NO_SCORE`` when no partition scores above ``cfg[FLOOR]`` (``NO_SCORE``:
    when none exists at all). ``dominators``: ``automaton.dominators`` of the automaton
    (``_dominating`` skips the nodes they dominate), or ``no_dominators()``.
    """
    tables = _search_tables(cell, cfg, init, delta, accept, kvecs, ref_groups, ref_len,
                            dominators)
    ub_rest = _gain_bounds(cell)
    upper = min(ub_rest[0] + (cfg[WILD] - cfg[TABLE_JOKERS]) * cfg[JOKER_WEIGHT_MAX],
                cfg[CEILING])
    paired = cfg[WILD] == 0  # the pair bounds count no jokers
    # without jokers the first search ends at ASPIRE_WORK; with them, only if it finds nothing
    first = node_limit if not paired else (
        ASPIRE_WORK if node_limit == 0 else min(node_limit, ASPIRE_WORK))
    if paired and cfg[FLOOR] == NO_SCORE and cfg[TABLE_JOKERS] == 0:
        found, path = _first_descent(tables, accept, upper, first)
        if found:  # the search's own answer, and its nodes: it would stop right there
            return upper, _unpack_path(upper, path), True, N_STEPS - 1
    if cfg[WILD] >= 4 and not cfg[FLAGGED] and cfg[FLOOR] == NO_SCORE and node_limit == 0 \
            and _move_count(tables, 0, 0) > WIDE_ROOT:
        best, best_path, complete, nodes = _windowed_search(tables, accept, ub_rest, upper)
        return best, _unpack_path(best, best_path), complete or best == upper, nodes
    best, best_path, complete, nodes, work, table, built, dual = _branch_and_bound(
        tables, accept, ub_rest, upper, first, cfg[FLOOR], NO_PAIRS, _new_table(),
        np.int64(ASPIRE_WORK if not paired and cfg[FLOOR] == NO_SCORE else 0), _none_built())
    left = 0 if node_limit == 0 else node_limit - work  # 0: no cap
    if not complete and (node_limit == 0 or left > 0):
        pairs, suit_bounds = _aspiration_bounds(tables, accept, paired, built, dual)
        aspirations = 1 if paired else JOKER_ASPIRATIONS
        cap = min(_root_bound(tables, ub_rest, pairs, suit_bounds), cfg[CEILING])
        best, best_path, complete, more = _search_on(tables, accept, ub_rest, left, best,
                                                     best_path, table, pairs, suit_bounds,
                                                     aspirations, cap)
        nodes += more
    if best <= cfg[FLOOR]:  # nothing beats the floor (``NO_SCORE``: no partition at all)
        best = NO_SCORE
    return best, _unpack_path(best, best_path), complete or best == upper, nodes


@njit(cache=True)
def _windowed_search(tables, accept, ub_rest, upper):
    """``search_with``'s search when four jokers are free to move and the ace step has more
    than ``WIDE_ROOT`` combinations (tahiti with six copies: 588 automaton states): ``(best,
    best_path, complete, nodes)``, ``best`` ``NO_SCORE`` when no partition exists.

    Such a root has tens of thousands of moves (47,199 on seed 60221's 14-card hand of
    ``bench.joker_games``), and a search from nothing writes and sorts them all, then bounds
    each child once it has an answer: 14 ms where the answer took 15 nodes. Here the suits'
    bounds are built first, and the search runs in windows below ``upper`` (``_search_on``:
    floors 1, 2, 4 ... below it, each search cutting the root's moves that cannot beat its
    floor), so only the moves that can reach the window are made (4.3 ms on that hand)."""
    # int64 arguments as the other caller's, not literals: one compiled search (test_warmup)
    return _search_on(tables, accept, ub_rest, np.int64(0), np.int64(NO_SCORE),
                      np.zeros(N_STEPS, dtype=np.int64), _new_table(), NO_PAIRS,
                      _suit_state_bounds(tables, accept, tables.cfg[WILD]),
                      np.int64(WIDE_ROOT_WINDOWS), upper)


@njit(cache=True)
def _move_count(tables, t, key):
    """The combinations of options that node (``t``, ``key``) goes through (each live set
    vector's option counts per suit multiplied): at least its moves, which ``_expand``
    writes and sorts."""
    ex = _expansion(tables)
    cfg, kvecs, kv_index, kv_list, n_opt, q_of = ex[1], ex[10], ex[11], ex[12], ex[14], ex[15]
    for s in range(N_SUITS):
        q_of[s] = _suit_state(key, s)
    wild_left = cfg[WILD] - key // BASE_KEY
    for s in range(N_SUITS):
        _suit_options(ex, t, s, wild_left)
    count = 0
    for i in range(_live_set_vectors(n_opt, kv_index, kv_list)):
        kv = kv_list[i]
        count += n_opt[0, kvecs[kv, 0]] * n_opt[1, kvecs[kv, 1]] * n_opt[2, kvecs[kv, 2]] * \
            n_opt[3, kvecs[kv, 3]]
    return count


@njit(cache=True)
def _aspiration_bounds(tables, accept, paired, built, dual):
    """``_search_on``'s ``(pairs, suit_bounds)``: the suit pairs' bounds without jokers (the
    search prunes by them from then on), else ``dual`` (the first search's ``dual_bounds``
    table, or ``NO_PAIRS``) and the suits' own bounds (``built`` by the first search, unless
    it ended before it built them)."""
    if paired:
        return pair_state_bounds(tables.cell, tables.init, tables.delta, accept, tables.alive,
                                 tables.kvecs), np.zeros((1, 1, 1, 1), dtype=np.int64)
    suit_bounds = built if built.shape[0] > 1 else _suit_state_bounds(tables, accept,
                                                                      tables.cfg[WILD])
    return dual, suit_bounds


@njit(cache=True)
def _first_descent(tables, accept, upper, work_limit):
    """A joker-free search's first descent, without writing and sorting every move of a
    node: at each step the move the search tries first (``_first_move``). ``(True, path)``
    when it ends in a partition worth ``upper`` with less work than ``work_limit`` before
    each node (counted as ``_descend`` counts it): the search would stop there with this
    path and ``N_STEPS - 1`` nodes, so it need not run. Else ``(False, path)``.

    On full tables the usual search goes straight down to ``upper`` (12 nodes), and writing
    and sorting the moves it never tries was most of its time."""
    ex = _expansion(tables)
    key, score, work = 0, 0, 0
    path = np.zeros(N_STEPS, dtype=np.int64)
    for t in range(N_STEPS):
        if t > 0 and work >= work_limit:
            return False, path
        code, child, gain, n_moves = _first_move(ex, t, key)
        if n_moves == 0:
            return False, path
        if t > 0:
            work += 1 + n_moves
        path[t], key, score = code, child, score + gain
    return score == upper and _accepted(key, BASE_KEY, KEY_RADIX, accept), path


@njit(cache=True, inline="always")
def _first_move(ex, t, key):
    """The move of joker-free node (``t``, ``key``) that ``_expand`` sorts first, and how
    many it writes: ``(code, child key, gain, moves)``. Its moves are every combination of
    the suits' options for each live set vector (``kvecs`` order, suit 0's options
    outermost), sorted by rank (the options' sum), ties in that order: the first is the
    first set vector with the best total of its suits' best ranks, each suit at its first
    option of that rank (``_first_best_option``)."""
    kvecs, kv_index, kv_list, opts, n_opt, q_of = ex[10], ex[11], ex[12], ex[13], ex[14], \
        ex[15]
    for s in range(N_SUITS):
        q_of[s] = _suit_state(key, s)
    for s in range(N_SUITS):
        _suit_options(ex, t, s, 0)
    n_moves, best_rank, best_kv = 0, NO_SCORE, -1
    for i in range(_live_set_vectors(n_opt, kv_index, kv_list)):
        kv = kv_list[i]
        count, rank = 1, 0
        for s in range(N_SUITS):
            k = kvecs[kv, s]
            count *= n_opt[s, k]
            rank += opts[s, k, _first_best_option(opts, n_opt, s, k), OPT_RANK]
        n_moves += count
        if rank > best_rank:
            best_rank, best_kv = rank, kv
    code = child = gain = 0
    for s in range(N_SUITS if best_kv >= 0 else 0):
        k = kvecs[best_kv, s]
        j = _first_best_option(opts, n_opt, s, k)
        code |= opts[s, k, j, OPT_CODE] << (CODE_BITS * s)
        child += opts[s, k, j, OPT_NEXT] << (KEY_BITS * s)
        gain += opts[s, k, j, OPT_GAIN]
    return code, child, gain, n_moves


@njit(cache=True, inline="always")
def _first_best_option(opts, n_opt, s, k):
    """The first of suit ``s``'s options with ``k`` set cards of the best rank (it has one)."""
    best = 0
    for j in range(1, n_opt[s, k]):
        if opts[s, k, j, OPT_RANK] > opts[s, k, best, OPT_RANK]:
            best = j
    return best


# Why ``_descend`` stopped: done, cut short by the node limit, or an array to make first.
DONE, CUT_SHORT, GROW_TABLE, BUILD_BOUNDS, GREW_MOVES, BUILD_DUAL = range(6)
DEPTH, BEST, NODES, WORK, TT_USED = range(5)  # the search's scalars in ``_descend``'s state


@njit(cache=True)
def _branch_and_bound(tables, accept, ub_rest, upper, node_limit, floor, pairs, table,
                      idle_limit, built):
    """The depth-first search proper: ``(best, best_path, complete, nodes, work, table,
    suit_bounds, pairs)``, the path one move code per step, ``best`` ``floor`` if no answer beats it
    (it stops, cut short, after ``idle_limit`` work if none does by then; 0: never),
    ``suit_bounds`` the suits' state bounds it used (``NO_PAIRS``' shape: none); ``built``:
    those bounds if already built, used rather than built again (``_none_built()``: not
    built yet); ``pairs``: the suit pairs' bounds (``pair_state_bounds``), with jokers
    ``dual_bounds``' table, or ``NO_PAIRS``; with jokers and ``NO_PAIRS`` the search builds
    that table after ``DUAL_LAZY`` nodes while its best is more than a card below ``upper``
    (80 automaton states or fewer, not tahiti's flagged automaton), and returns it as
    ``pairs``; ``table``: ``_new_table()``,
    or the transposition table of a search cut short with the same or a lower floor (it goes
    on from there, as ``_forget`` left it). The table also keeps the most a node can still
    add (``ahead``: its best move's gain plus what that child can add, a pruned child counted
    at its bound), so a node reached again with a higher score is explored again only if
    that can beat the best so far. Without ``pairs``, the suits' state bounds bound nodes
    too, built when first worth it: without jokers once a first partition is found and
    ``LAZY_FREE`` nodes are expanded, with jokers after ``LAZY_BOUNDS`` nodes, and then
    ``_open_node`` leaves out moves too; with jokers and a ``floor``, at once (``_root_moves``).

    The loop (``_descend``) reads every array through an ``unmanaged`` view, whose references
    numba does not count; this function owns the arrays and makes the new ones the loop asks
    for (a grown table or ``moves``, the suits' bounds, the dual table), then lets it go
    on. An array the loop reads must stay referenced here while it runs: numba frees a local
    array after its last use, views or not (hence the views made at each turn of the loop,
    from ``pairs`` itself)."""
    frames = _frames()
    wild = tables.cfg[WILD]
    tt_keys, tt_vals, tt_fut, tt_used = table
    split, no_cut = np.zeros(2 * wild + 1, dtype=np.int64), np.zeros((1, 1, 1, 1), dtype=np.int64)
    # suit_bounds: built when first worth it (at once with a floor to beat, ``_root_moves``)
    moves, end, suit_bounds = _root_moves(tables, accept, _unmanaged_expansion(tables),
                                          np.empty((1 << 9, N_MOVE_FIELDS), dtype=np.int64),
                                          floor, pairs, built)
    frames[1][0] = end  # the root's moves
    state = np.array([0, floor, 0, 0, tt_used], dtype=np.int64)
    while True:  # the views made each time: ``pairs`` stays alive while they are read
        views = _search_views(tables, accept, ub_rest, pairs)
        reason, grown = _descend(views, frames, unmanaged(moves), unmanaged(suit_bounds), (
            unmanaged(tt_keys), unmanaged(tt_vals), unmanaged(tt_fut)),
            (unmanaged(split), unmanaged(no_cut)), state, upper, (node_limit, idle_limit, floor))
        if reason == GROW_TABLE:
            tt_keys, tt_vals, tt_fut = _regrown(tt_keys, tt_vals, tt_fut)
        elif reason == BUILD_DUAL:
            pairs = dual_bounds(tables, accept, state[BEST])
        elif reason == BUILD_BOUNDS:
            suit_bounds = built if built.shape[0] > 1 else _suit_state_bounds(tables, accept,
                                                                              wild)
        elif reason == GREW_MOVES:
            moves = grown  # a new array: the loop's rows copied
        else:
            break
    return state[BEST], frames[6], reason == DONE, state[NODES], state[WORK], (
        tt_keys, tt_vals, tt_fut, state[TT_USED]), suit_bounds, pairs


@njit(cache=True)
def _descend(views, frames, moves, suit_bounds, tt, scratch, state, upper, limits):
    """``_branch_and_bound``'s loop, on ``unmanaged`` views (``_search_views``, ``_frames``,
    the ``moves``, the suits' bounds, the table's ``tt`` and the node bound's ``scratch``),
    from where ``state`` (``DEPTH`` .. ``TT_USED``) left it until it ends or wants a new
    array: ``(reason, moves)``, ``moves`` the grown rows (``GREW_MOVES``)."""
    ex, cfg, fixed_before, seen, dominators, accept, ub_rest, pairs = views
    seg_pos, seg_end, score, ahead, node_keys, path, best_path = frames
    (tt_keys, tt_vals, tt_fut), (split, no_cut), (node_limit, idle_limit, floor) = tt, \
        scratch, limits
    n_q, wild, mandatory = ex[8], cfg[WILD], cfg[TABLE_JOKERS]
    key_space, reason, grown = BASE_KEY * (wild + 1), DONE, moves
    depth, best, nodes, work, tt_used = state[DEPTH], state[BEST], state[NODES], \
        state[WORK], state[TT_USED]
    stop_at = node_limit  # the work at which the search stops, cut short (0: none)
    if idle_limit > 0 and best == floor:
        stop_at = idle_limit if node_limit == 0 else min(idle_limit, node_limit)
    while depth >= 0:
        if 2 * tt_used > tt_keys.shape[0]:  # half full: grown fourfold
            reason = GROW_TABLE
            break
        if seg_pos[depth] == seg_end[depth] or best == upper:
            if depth > 0 and best != upper:  # the node is done: what it can add is known
                _settle(tt_keys, tt_fut, node_keys[depth], ahead[depth])
                gain = score[depth] - score[depth - 1]
                ahead[depth - 1] = max(ahead[depth - 1], gain + ahead[depth])
            depth -= 1
            continue
        i = seg_pos[depth]
        seg_pos[depth] = i + 1
        child_key, gain, path[depth] = moves[i, MOVE_KEY], moves[i, MOVE_GAIN], moves[i, MOVE_CODE]
        child_score, t, used = score[depth] + gain, depth + 1, child_key // BASE_KEY
        if t == N_STEPS:
            if used >= mandatory and _accepted(child_key, BASE_KEY, KEY_RADIX, accept):
                ahead[depth] = max(ahead[depth], gain)
                if child_score > best:
                    best, stop_at = child_score, node_limit  # no longer idle
                    best_path[:] = path
            continue
        if suit_bounds.shape[0] == 1 and (wild or pairs.shape[0] == 1) and (
                nodes >= LAZY_BOUNDS if wild else best > NO_SCORE and nodes >= LAZY_FREE):
            seg_pos[depth], reason = i, BUILD_BOUNDS  # this move again once they are built
            break
        if wild and pairs.shape[0] == 1 and nodes >= DUAL_LAZY and not cfg[FLAGGED] and \
                n_q <= DUAL_MOST_STATES and upper - best > cfg[JOKER_WEIGHT_MAX]:
            seg_pos[depth], reason = i, BUILD_DUAL  # this move again once it is built
            break
        bound = _bound(cfg, fixed_before, ub_rest, suit_bounds, pairs, split, t, child_key,
                       best - child_score)
        if child_score + bound <= best:
            ahead[depth] = max(ahead[depth], gain + bound)
            continue
        tt_used, explore, future = _visit(seen, dominators, n_q, tt_keys, tt_vals, tt_fut,
                                          tt_used, t, key_space, child_key, child_score, best)
        if not explore:
            ahead[depth] = max(ahead[depth], gain + min(future, bound))
            continue
        if stop_at > 0 and work >= stop_at:
            _forget(tt_keys, tt_vals, node_keys[1: depth + 1], t * key_space + child_key)
            reason = CUT_SHORT
            break
        nodes, start = nodes + 1, seg_end[depth]
        grown, end, ahead[t] = _open_node(ex, t, child_key, moves, start,
                                          suit_bounds if wild else no_cut, best - child_score)
        depth, score[t], node_keys[t] = t, child_score, t * key_space + child_key
        seg_pos[depth], seg_end[depth] = start, end
        work += 1 + end - start  # a node and the moves it generated: a proxy for time
        if grown.shape[0] != moves.shape[0]:
            reason = GREW_MOVES
            break
    state[DEPTH], state[BEST], state[NODES], state[WORK], state[TT_USED] = depth, best, \
        nodes, work, tt_used
    return reason, grown


@njit(cache=True)
def _search_views(tables, accept, ub_rest, pairs):
    """``unmanaged`` views of what ``_branch_and_bound``'s loop reads: ``(ex, cfg,
    fixed_before, seen, dominators, accept, ub_rest, pairs)``, ``ex`` as ``_expansion``."""
    return (_unmanaged_expansion(tables), unmanaged(tables.cfg), unmanaged(tables.fixed_before),
            unmanaged(tables.seen), unmanaged(tables.dominators), unmanaged(accept),
            unmanaged(ub_rest), unmanaged(pairs))


@njit(cache=True)
def _unmanaged_expansion(tables):
    """``_expansion`` with every array an ``unmanaged`` view (``tables`` keeps them alive)."""
    return (unmanaged(tables.cell), unmanaged(tables.cfg), unmanaged(tables.init),
            unmanaged(tables.delta), unmanaged(tables.alive), unmanaged(tables.ref_k),
            unmanaged(tables.ref_g), unmanaged(tables.ref_z), tables.n_q,
            unmanaged(tables.fixed_before), unmanaged(tables.kvecs),
            unmanaged(tables.kv_index), unmanaged(tables.kv_list), unmanaged(tables.opts),
            unmanaged(tables.n_opt), unmanaged(tables.q_of), unmanaged(tables.opt_bound),
            unmanaged(tables.opt_most), unmanaged(tables.sort_keys))


@njit(cache=True)
def _frames():
    """Per depth of the search: its moves ``seg_pos..seg_end``, score, the most its node adds
    (``ahead``), node key; the path of move codes and the best path."""
    return (np.zeros(N_STEPS + 1, dtype=np.int64), np.zeros(N_STEPS + 1, dtype=np.int64),
            np.zeros(N_STEPS + 1, dtype=np.int64), np.full(N_STEPS + 1, NO_SCORE, dtype=np.int64),
            np.zeros(N_STEPS + 1, dtype=np.int64), np.zeros(N_STEPS, dtype=np.int64),
            np.zeros(N_STEPS, dtype=np.int64))


@njit(cache=True)
def _root_moves(tables, accept, ex, moves, floor, pairs, given):
    """The ace step's moves for ``_branch_and_bound``: ``(moves, end, suit_bounds)``. A
    search with jokers and a ``floor`` (another joker branch's answer to beat) builds its
    per-suit bounds at once and leaves out the moves they prune (``_open_node``): a tahiti
    hand with three jokers has 2,000-19,000, and a branch that cannot beat the floor ends at
    once (session 9: the many-branch tahiti searches among bench.joker_games' 40 slowest
    0.55-0.9x the time, nodes 0.95x over its 5,169 positions). The others get every move
    and no bounds yet (``NO_PAIRS``' shape). ``given``: the bounds if already built (else
    ``NO_PAIRS``' shape)."""
    if tables.cfg[WILD] and floor > NO_SCORE:
        suit_bounds = given if given.shape[0] > 1 else _suit_state_bounds(
            tables, accept, tables.cfg[WILD])
        moves, end, _ = _open_node(ex, 0, 0, moves, 0, suit_bounds, floor)
        return moves, end, suit_bounds
    moves, end = _expand_into(0, 0, tables, moves, 0)
    return moves, end, np.zeros((1, 1, 1, 1), dtype=np.int64)


@njit(cache=True, inline="always")
def _open_node(ex, t, key, moves, at, bounds, beat):
    """Expand node (``t``, ``key``) into ``moves`` from ``at``, leaving out the moves that
    per-suit state ``bounds`` (one entry: none) show cannot add more than ``beat`` (the best
    so far less the node's score; ``_expand``; ``ex``: ``_expansion``): ``(moves, end,
    ahead)``, ``ahead`` the most the moves left out can add (``NO_SCORE``: none), where the
    node's ``ahead`` starts."""
    cfg, fixed_before = ex[1], ex[9]
    jokers_ahead = _jokers_left(cfg, fixed_before, t, key)
    moves, end, most = _expand_cut(t, key, ex, moves, at, bounds, beat - jokers_ahead)
    return moves, end, NO_SCORE if most <= NO_SCORE else most + jokers_ahead


@njit(cache=True)
def _copied(table):
    """A copy of the transposition ``table`` (``_new_table``'s form)."""
    return table[0].copy(), table[1].copy(), table[2].copy(), table[3]


@njit(cache=True)
def _forget(tt_keys, tt_vals, open_keys, new_key):
    """A search cut short: the nodes it had open (``open_keys``) and the one it was about to
    open are marked unexplored in its transposition table, so that a search going on from
    the table explores them again; the nodes it settled stay settled."""
    for key in open_keys:
        tt_vals[_table_find(tt_keys, key)] = NO_SCORE
    tt_vals[_table_find(tt_keys, new_key)] = NO_SCORE


@njit(cache=True)
def _suit_state_bounds(tables, accept, wild):
    """Per-suit state bounds as ``_suit_bound`` reads them: ``state_bounds`` (one joker column)
    without jokers, ``joker_state_bounds`` with them."""
    if wild == 0:
        return state_bounds(tables.cell, tables.delta, accept).reshape(
            (N_STEPS + 1, N_SUITS, tables.n_q, 1))
    return joker_state_bounds(tables.cell, tables.init, tables.delta, accept, wild,
                              tables.cfg[FLAGGED])


@njit(cache=True)
def _node_bound(tables, ub_rest, suit_bounds, pairs, split, t, key, enough):
    """``_bound`` with ``tables``' arrays."""
    return _bound(tables.cfg, tables.fixed_before, ub_rest, suit_bounds, pairs, split, t, key,
                  enough)


@njit(cache=True, inline="always")
def _bound(cfg, fixed_before, ub_rest, suit_bounds, pairs, split, t, key, enough):
    """The most node (``t``, ``key``) can still add: every hand card still to come
    (``ub_rest``), or the suits' ``state_bounds`` once built (``suit_bounds`` with more than one
    step), or the suit pairs' (``pairs``, tighter, joker-free searches only), and with
    jokers the least of the suits' and the Lagrangian bound (``pairs``: ``dual_bounds``'
    table, when built; ``_dual_bound``), plus the hand
    jokers still to score (those not yet counted: table jokers come first). A looser bound
    may come back when it is at most ``enough`` (pruned anyway). ``cfg``, ``fixed_before``:
    those of ``SearchTables``."""
    used = key // BASE_KEY
    jokers_ahead = _jokers_left(cfg, fixed_before, t, key)
    bound = ub_rest[t]
    if pairs.shape[0] > 1 and cfg[WILD] == 0:
        bound = min(bound, _pair_bound(pairs, t, key))
    elif suit_bounds.shape[0] > 1:
        bound = min(bound, _suit_bound(suit_bounds, t, key, cfg[WILD] - used, split,
                                       enough - jokers_ahead))
    if pairs.shape[0] > 1 and cfg[WILD] > 0 and bound > enough - jokers_ahead:
        bound = min(bound, _dual_bound(pairs, t, key, cfg[WILD] - used))
    return bound + jokers_ahead


@njit(cache=True)
def _jokers_ahead(tables, t, key):
    """``_jokers_left`` with ``tables``' arrays."""
    return _jokers_left(tables.cfg, tables.fixed_before, t, key)


@njit(cache=True, inline="always")
def _jokers_left(cfg, fixed_before, t, key):
    """What the hand jokers not yet counted can still score from node (``t``, ``key``), each
    at the costliest weight (table jokers are the first placed and score nothing)."""
    used = key // BASE_KEY
    scored = max(0, used + fixed_before[t] - cfg[ALL_TABLE_JOKERS])
    return (cfg[WILD] - cfg[TABLE_JOKERS] - scored) * cfg[JOKER_WEIGHT_MAX]


@njit(cache=True)
def _unpack_path(best, best_path):
    """``moves[t, s] = (copies, k, g, z, zs)`` from the best path's move codes (zeros if none;
    ``zs``, the jokers in sets, only from tahiti's flagged automaton)."""
    moves = np.zeros((N_STEPS, N_SUITS, N_CODE_FIELDS), dtype=np.int64)
    if best > NO_SCORE:
        mask = (1 << CODE_BITS) - 1
        for t in range(N_STEPS):
            code = best_path[t]
            for s in range(N_SUITS):
                part = (code >> (CODE_BITS * s)) & mask
                for f in range(N_CODE_FIELDS):
                    moves[t, s, f] = (part >> (FIELD_BITS * f)) & FIELD_MASK
    return moves


@njit(cache=True, nogil=True)
def search_and_decode(cell, cfg, init, delta, accept, kvecs, ref_groups, ref_len, node_limit,
                      states, need, hand):
    """``search_and_decode_with`` no automaton state dominance."""
    return search_and_decode_with(cell, cfg, init, delta, accept, kvecs, ref_groups, ref_len,
                                  node_limit, states, need, hand, no_dominators())


@njit(cache=True, nogil=True)
def search_and_decode_with(cell, cfg, init, delta, accept, kvecs, ref_groups, ref_len,
                           node_limit, states, need, hand, dominators):
    """``search_with`` then ``decode_moves`` in one call: ``(best, optimal, nodes, groups,
    lengths, played, jokers)`` where ``played`` counts the real hand cards among the copies
    used and ``jokers`` the jokers placed (table ones included). ``cell[t, s, FIXED]``
    copies of the cell's mandatory ones are table jokers that keep their name; ``need``
    counts the real table cards only."""
    best, moves, optimal, nodes = search_with(cell, cfg, init, delta, accept, kvecs,
                                              ref_groups, ref_len, node_limit, dominators)
    for t in range(N_STEPS):
        for s in range(N_SUITS):
            moves[t, s, JOKERS] += cell[t, s, FIXED]
    groups, lengths, used = decode_moves(moves, states, cfg[COPIES],
                                         np.ascontiguousarray(cell[:, :, REQUIRED]))
    played = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for c in range(N_CARD_TYPES):
        played[c] = min(max(used[c] - need[c], 0), hand[c])
    jokers = 0
    for t in range(N_STEPS):
        for s in range(N_SUITS):
            jokers += moves[t, s, JOKERS]
    return best, optimal, nodes, groups, lengths, played, jokers


# -- preparing the search: usable cards, cells, the table's own arrangement -------------------
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
def cell_arrays(need, free, hand, weight, forced, joker_weight, joker_rows, ace_mode, wild):
    """The ``cell[t, s, :]`` array of ``search``; unusable optional cards dropped.

    Per card: ``LO``..``HI`` copies used (``need`` and ``forced`` must be), ``BASE`` of them
    not from the hand, ``HAND`` hand copies worth ``WEIGHT`` each, a joker naming it worth
    ``JOKER_WEIGHT``. ``joker_rows[i - DEFICIT, c]`` fills the joker fields ``DEFICIT``
    .. ``JOKER_MAX``: jokers plus played copies needed (table jokers renamed only with a real
    card), table jokers fixed to the name (inside ``need``), runs that must go on from the
    rank before at this rank, least set cards, run cards (at the ace: low aces) and high
    aces (vatican's held jokers), most jokers naming it, and jokers naming it in groups kept
    out of the search (tahiti's locked groups: they only count as table jokers).
    """
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
            for f in range(DEFICIT, N_FIELDS):
                cell[t, s, f] = joker_rows[f - DEFICIT, c]
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
            partners = _partners(cell, t, s)
            top = min(cell[t, s, HI] + wild, copies)
            k_max = top if partners + wild >= 2 else 0
            r_min = max(0, cell[t, s, LO] - k_max)
            for q in range(n_q):
                for r in range(r_min, top + 1):
                    nxt = delta[q, r, 0]  # no runs required to go on: a relaxation
                    if nxt >= 0 and alive[t + 1, s, nxt]:
                        alive[t, s, q] = True
                        break
    return alive
