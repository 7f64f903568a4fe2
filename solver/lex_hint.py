"""The least-disturbing best play from one lexicographic kernel search (``solver.kernel_lex``).

Among the plays reaching the best value, a hint keeps the most table groups as they lie,
then picks up the fewest table cards (docs/rules.md §3): it maximizes ``value * W + kept``,
with ``kept`` the weights ``T + 1 + |g|`` of the kept groups. This module prepares that
search for a ``Problem`` (``solver.lex_tables``), starts it just below what the kernel's own
best play keeps, and lays out the answer: the kept groups as they lay, then the groups
``kernel_decode`` cuts from the other cards.

It applies where ``solver.freed_search`` did (no jokers, one kernel branch) and where the
search's keys fit in 63 bits; ``solver.hint`` asks ``solver.least_change`` or CP-SAT
otherwise.
"""

from __future__ import annotations

import operator
from dataclasses import replace
from functools import cache

import numpy as np
from numba import njit

from solver import automaton, kernel, kernel_backend, kernel_jokers, kernel_lex, lex_tables
from solver.constants import ACE_CODES, N_RANKS, N_SUITS, NO_SCORE, ROW_WIDTH
from solver.frozen import frozen
from solver.groups import candidate_runs
from solver.kernel_backend import config_vector
from solver.limit import Limit
from solver.problem import Partition, Problem, read_only
from solver.tidy import pad

KEY_BITS = 62
"""A search key (four automaton states, the live kept runs, the step) must fit in this many
bits."""


def applies(problem: Problem, groups: list[tuple[int, ...]] | None = None) -> bool:
    """True when the lexicographic search answers the hint of ``problem`` exactly: no jokers,
    one kernel branch, the table's runs few enough for the search's keys, and few enough
    decided at one step and suit for its option lists (``kernel_lex.MAX_OPTIONS``).
    ``groups``: the keepable groups, the table's groups (``problem.table_groups``) when
    None, read from ``problem.table_array`` without building those tuples."""
    if problem.hand_jokers or problem.table_jokers or problem.run_from_hand:
        return False
    if problem.hand_only or problem.locked or not kernel_backend.applies(problem):
        return False
    copies = _copies(problem)
    n_q = automaton.run_automaton(copies)[1].shape[0]
    most, runs = _runs_decided(*_group_rows(problem, groups))
    if (1 << int(most)) * (copies + 1) ** 2 > kernel_lex.MAX_OPTIONS:
        return False
    return (n_q ** N_SUITS * N_RANKS).bit_length() + int(runs) <= KEY_BITS


@njit(cache=True)
def _runs_decided(rows, lengths):
    """``(most, runs)``: the table runs among the groups (padded rows) and the most of them
    whose keep is decided at one step of one suit (the first, or the ace step for a run
    closed by a high ace)."""
    decided = np.zeros((N_SUITS, N_RANKS), dtype=np.int64)
    runs = 0
    for i in range(lengths.shape[0]):
        first = rows[i, 0]
        if first % N_RANKS != rows[i, 1] % N_RANKS:
            high = rows[i, lengths[i] - 1] % N_RANKS == 0 and first % N_RANKS != 0
            decided[first // N_RANKS, 0 if high else first % N_RANKS] += 1
            runs += 1
    return decided.max(), runs


@cache
def _triples(ace: str) -> np.ndarray:
    """Every three-card run under ``ace`` as (card, partner, partner), each card first once."""
    runs = np.array(list(candidate_runs(ace, 3, 3)), dtype=np.int64)
    return np.concatenate([runs[:, [at] + [j for j in range(3) if j != at]]
                           for at in range(3)])


def _copies(problem: Problem) -> int:
    return max(1, int(np.minimum(problem.need + problem.free + problem.hand,
                                 problem.decks).max(initial=0)))


def weights(groups: list[tuple[int, ...]]) -> tuple[np.ndarray, int]:
    """Each group's keep weight ``T + 1 + |g|`` and ``W``, more than all of them together."""
    sizes = np.array([len(group) for group in groups], dtype=np.int64)
    each = sizes + int(sizes.sum()) + 1
    return each, int(each.sum()) + 1


def least_change(problem: Problem, groups: list[tuple[int, ...]], best: Partition,
                 limit: Limit | None = None, max_work: int = 0) -> Partition | None:
    """The play reaching ``best.score`` that keeps the most weight of ``groups`` (the table's
    groups as they lie), ``best`` being the kernel's best play; kept groups come first.
    ``optimal`` is False when ``limit`` (kernel work) cut the search. When the search needed
    more than ``max_work`` (0: no cap) and ``limit`` allowed more: its best play so far, with
    ``stats["capped"]`` set (a warm start for CP-SAT), or None if that did not beat ``best``
    (or a rank holds more sets than the search tracks).

    One numba call (``_least_change``) builds the tables, searches and lays out the play:
    ``LexTables`` (40 arrays) never crosses into Python and back, and the kept groups are
    matched on arrays (see ``_least_change``)."""
    copies = _copies(problem)
    init, delta, accept = automaton.run_automaton(copies)
    rows, lengths = _group_rows(problem, groups)
    work = 0 if limit is None else limit.kernel_work()
    capped = bool(max_work) and (not work or max_work < work)  # the cap, not the limit
    searched = _least_change(problem.need, problem.free, problem.hand, problem.weight,
                             problem.forced, kernel_jokers.inputs(problem)[0].joker_rows,
                             ACE_CODES[problem.ace], copies, init, delta, accept,
                             automaton.set_vectors(copies), automaton.suit_states(copies),
                             _triples(problem.ace), rows, lengths, read_only(best.groups),
                             read_only(best.lengths), best.score,
                             max_work if capped else work)
    return _least_play(best, searched, capped)


def solve_and_least_change(problem: Problem, groups: list[tuple[int, ...]] | None = None,
                           limit: Limit | None = None,
                           max_work: int = 0) -> tuple[Partition, Partition | None]:
    """``(best, least)``: ``kernel_backend.solve(problem)`` and, when ``best`` plays a card,
    ``least_change(problem, groups, best, limit, max_work)`` (else ``least`` is ``best``),
    in one numba call for a problem the lexicographic search applies to (``applies``);
    ``groups`` None: the table's groups (read as ``applies`` reads them).
    Handing the kernel's play to Python and back, and ``kernel_backend``'s general set-up
    (joker branches, budgets), cost about 30 us a hint (the suite's 60+-card positions,
    2026-12-01). A search that finds no partition or cannot decode its moves goes
    ``kernel_backend.solve``'s way, which raises the error."""
    copies = _copies(problem)
    init, delta, accept = automaton.run_automaton(copies)
    rows, lengths = _group_rows(problem, groups)
    table_rows, table_lengths = problem.table_array if problem.table_array is not None \
        else kernel_backend.NO_GROUPS
    work = 0 if limit is None else limit.kernel_work()
    capped = bool(max_work) and (not work or max_work < work)  # the cap, not the limit
    played_kernel, searched = _solve_and_least(
        problem.need, problem.free, problem.hand, problem.weight, problem.forced,
        kernel_jokers.inputs(problem)[0].joker_rows, ACE_CODES[problem.ace], copies, init,
        delta, accept, automaton.set_vectors(copies), automaton.suit_states(copies),
        _triples(problem.ace), rows, lengths, table_rows, table_lengths,
        max_work if capped else work)
    score, optimal, nodes, best_rows, best_lengths, played, status = played_kernel
    if status == UNSOLVED:
        best = kernel_backend.solve(problem)  # raises, as a solve does
        return best, least_change(problem, list(problem.table_groups) if groups is None
                                  else groups, best, limit, max_work)
    kernel_backend.count_nodes(int(nodes))
    best = Partition(best_rows, best_lengths, played, int(score), bool(optimal),
                     {"nodes": nodes, kernel_backend.ONE_JOKER_PER_GROUP: 1.0}, 0)
    if status == NOTHING_PLAYED:
        return best, best
    return best, _least_play(best, searched, capped)


def _least_play(best: Partition, searched: tuple, capped: bool) -> Partition | None:
    """``least_change``'s answer from ``_least_change``'s."""
    status, found, complete, nodes, work_done, play_rows, play_lengths, played = searched
    if status == NO_TABLES:
        return None
    if status == NOT_BEATEN:  # cut before it beat the kernel's play
        return None if capped else replace(best, optimal=False)
    play = Partition(play_rows, play_lengths, played, found, bool(complete),
                     {"nodes": nodes, "work": work_done})
    if not complete and capped:
        play.stats["capped"] = 1.0
    return play


SOLVED, NOTHING_PLAYED, UNSOLVED = range(3)
"""``_solve_and_least``'s statuses of the kernel's play: it plays a card (the lexicographic
search ran), it plays none (no search), no partition or an undecodable one."""


@njit(cache=True, nogil=True)
def _solve_and_least(need, free, hand, weight, forced, joker_rows, ace_mode, copies, init,
                     delta, accept, kvecs, states, triples, rows, lengths, table_rows,
                     table_lengths, node_limit):
    """``((score, optimal, nodes, rows, lengths, played, status), searched)``: the kernel's
    best play as ``kernel_backend.solve`` finds it for a joker-free problem (one branch, no
    floor, no node limit, no dominators), then, when it plays a card, ``_least_change``'s
    answer from it (``searched``; its status ``NO_TABLES`` otherwise)."""
    cell = kernel.cell_arrays(frozen(need), free, hand, weight, frozen(forced), weight,
                              frozen(joker_rows), ace_mode, np.int64(0))
    cfg = config_vector(ace_mode, copies, np.int64(0), np.int64(0), weight.max(), np.int64(0),
                        np.int64(NO_SCORE), np.int64(0))
    real_need = need - joker_rows[kernel_jokers.FIXED]
    best, optimal, nodes, groups, group_lengths, played, jokers = \
        kernel.search_and_decode_with(cell, cfg, frozen(init), frozen(delta), frozen(accept),
                                      kvecs, frozen(table_rows), frozen(table_lengths),
                                      np.int64(0), states, frozen(real_need), frozen(hand),
                                      kernel.no_dominators())
    empty_rows = np.zeros((0, ROW_WIDTH), dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    nothing = (NO_TABLES, 0, False, 0, 0, empty_rows, empty, empty)
    if best == NO_SCORE or (group_lengths.shape[0] and group_lengths[0] < 0) or jokers:
        return (best, optimal, nodes, groups, group_lengths, played, UNSOLVED), nothing
    if played.sum() == 0:
        return (best, optimal, nodes, groups, group_lengths, played, NOTHING_PLAYED), nothing
    return (best, optimal, nodes, groups, group_lengths, played, SOLVED), _least_change(
        need, free, hand, weight, forced, joker_rows, ace_mode, copies, init, delta, accept,
        kvecs, states, triples, rows, lengths, groups, group_lengths, best, node_limit)


ANSWERED, NO_TABLES, NOT_BEATEN = range(3)
"""``_least_change``'s statuses: a play beat the kernel's; a rank holds more than
``lex_tables.MAX_SETS`` sets; the search was cut before any play beat the kernel's."""


def _group_rows(problem: Problem, groups: list[tuple[int, ...]] | tuple | None) -> tuple:
    """``groups`` as padded rows and lengths: the rows of ``problem.table_array`` of two
    cards or more when ``groups`` is None or ``problem.table_groups`` (the usual case, no
    Python loop over cards), else ``pad(groups)``; read-only, as ``best``'s rows are
    passed."""
    if problem.table_array is not None and (groups is None or (
            len(groups) == len(problem.table_groups)
            and all(map(operator.is_, groups, problem.table_groups)))):
        rows, lengths = problem.table_array
        keep = lengths > 1
        if not keep.all():
            rows, lengths = rows[keep], lengths[keep]
    else:
        rows, lengths = pad(groups) if groups else NO_ROWS
    return read_only(rows), read_only(lengths)  # one argument type (``read_only``)


NO_ROWS = (np.zeros((0, ROW_WIDTH), dtype=np.int64), np.zeros(0, dtype=np.int64))


@njit(cache=True, nogil=True)
def _least_change(need, free, hand, weight, forced, joker_rows, ace_mode, copies, init, delta,
                  accept, kvecs, states, triples, rows, lengths, best_rows, best_lengths,
                  best_score, node_limit):
    """``least_change`` in one call: ``(status, best, complete, nodes, work, rows, lengths,
    played)``, the play's groups the kept table groups (``rows``, in their order) then the
    made ones, ``played`` the hand cards it plays. The steps ``search_tables``, ``_kept``,
    ``kernel_lex.search`` and the layout took one by one from Python, with the same result
    (``tests/test_lex_hint.py`` keeps the step-by-step form to compare): there the
    ``LexTables`` (40 arrays) were boxed into Python and unboxed again for the search (about
    20 us each way) and the kept groups matched and laid out by Python loops (about 0.1 ms).
    Measured on the suite's 60+-card positions (``python -m bench.hint``'s), thread CPU, best
    of 3, interleaved per position with main in one run, load ~2, 2026-12-01: the whole
    ``hint_position`` call 0.92x main's at the median."""
    n_groups = lengths.shape[0]
    each = lengths + lengths.sum() + 1
    big = each.sum() + 1
    parts = lex_tables.split_groups(rows, lengths, each)
    empty_rows = np.zeros((0, ROW_WIDTH), dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    for t in range(N_RANKS):
        if parts[8][t] < 0:
            return NO_TABLES, 0, False, 0, 0, empty_rows, empty, empty
    cell = kernel.cell_arrays(frozen(need), free, hand, weight, frozen(forced), weight,
                              frozen(joker_rows), ace_mode, np.int64(0))
    cfg = config_vector(ace_mode, copies, np.int64(0), np.int64(0), weight.max(), np.int64(0),
                        np.int64(NO_SCORE), np.int64(0))
    n_q = delta.shape[0]
    keys = n_q ** N_SUITS * N_RANKS
    bits = 0
    while keys:
        bits += 1
        keys >>= 1
    room = KEY_BITS - bits - parts[0].shape[0]
    tables = lex_tables.build(cell, cfg, init, delta, accept, kvecs, rows, lengths, each, big,
                              parts[:4], (parts[5], parts[6], parts[8]), hand, free, triples,
                              best_score, room)
    # the kernel's play keeps the groups it lays exactly as they lay (one table group each)
    taken = np.zeros(best_lengths.shape[0], dtype=np.bool_)
    kept_weight = 0
    for i in range(n_groups):
        for g in range(best_lengths.shape[0]):
            if not taken[g] and _same_row(best_rows, best_lengths, g, rows, lengths, i):
                taken[g] = True
                kept_weight += each[i]
                break
    floor = best_score * big + kept_weight - 1
    found, complete, nodes, work, kept_runs, kept_sets, made, made_len, used = \
        kernel_lex.search(tables, floor, node_limit, states, parts[5])
    if found == floor:
        return NOT_BEATEN, 0, False, nodes, work, empty_rows, empty, empty
    kept = np.zeros(n_groups, dtype=np.bool_)
    run_group, set_group = parts[4], parts[7]
    for j in range(run_group.shape[0]):
        if kept_runs >> j & 1:
            kept[run_group[j]] = True
    for t in range(kept_sets.shape[0]):
        for i in range(set_group.shape[1]):
            if kept_sets[t] >> i & 1:
                kept[set_group[t, i]] = True
    n_kept = 0
    for i in range(n_groups):
        n_kept += kept[i]
    out = np.full((n_kept + made_len.shape[0], ROW_WIDTH), -1, dtype=np.int64)
    out_len = np.zeros(n_kept + made_len.shape[0], dtype=np.int64)
    total = used.copy()
    at = 0
    for i in range(n_groups):
        if kept[i]:
            for c in range(lengths[i]):
                out[at, c] = rows[i, c]
                total[rows[i, c]] += 1
            out_len[at] = lengths[i]
            at += 1
    for g in range(made_len.shape[0]):
        for c in range(made_len[g]):
            out[at, c] = made[g, c]
        out_len[at] = made_len[g]
        at += 1
    played = np.minimum(np.maximum(total - need, 0), hand)
    return ANSWERED, found // big, complete, nodes, work, out, out_len, played


@njit(cache=True)
def _same_row(rows_a, lengths_a, a, rows_b, lengths_b, b):
    """Whether row ``a`` of ``rows_a`` holds the cards of row ``b`` of ``rows_b``, in order."""
    if lengths_a[a] != lengths_b[b]:
        return False
    for c in range(lengths_a[a]):
        if rows_a[a, c] != rows_b[b, c]:
            return False
    return True


def search_tables(problem: Problem, groups: list[tuple[int, ...]], value: int,
                  track_cores: bool = True) -> tuple:
    """``(tables, parts, weights, W)``: the ``kernel_lex.LexTables`` of ``problem`` with
    ``groups`` keepable and best value ``value``, ``lex_tables.split_groups``'s parts, each
    group's weight and ``W`` (``tables`` None when a rank holds more than
    ``lex_tables.MAX_SETS`` sets). With ``track_cores``, the key tracks as many hand cores
    as its bits allow (``lex_tables.core_tracking``)."""
    copies = _copies(problem)
    init, delta, accept = automaton.run_automaton(copies)
    cfg = kernel_backend.search_config(problem.ace, copies,
                                       weight_max=int(problem.weight.max()))
    cell = kernel.cell_arrays(problem.need, problem.free, problem.hand, problem.weight,
                              problem.forced, problem.weight,
                              kernel_jokers.inputs(problem)[0].joker_rows,
                              ACE_CODES[problem.ace], 0)
    rows, lengths = pad(groups)
    each, big = weights(groups)
    parts = lex_tables.split_groups(rows, lengths, each)
    if (parts[-1] < 0).any():
        return None, parts, each, big
    room = KEY_BITS - (delta.shape[0] ** N_SUITS * N_RANKS).bit_length() - parts[0].shape[0]
    room = room if track_cores else 0
    tables = lex_tables.build(cell, cfg, init, delta, accept, automaton.set_vectors(copies),
                              rows, lengths, each, big, parts[:4], (parts[5], parts[6],
                                                                    parts[8]),
                              problem.hand, problem.free, _triples(problem.ace), value, room)
    return tables, parts, each, big


def _kept(groups: list[tuple[int, ...]], play: Partition) -> list[int]:
    """Indices of ``groups`` that ``play`` lays exactly as they lay (each new group matches
    one table group at most)."""
    made: dict[tuple[int, ...], int] = {}
    for row, n in zip(play.groups.tolist(), play.lengths.tolist(), strict=True):
        made[tuple(row[:n])] = made.get(tuple(row[:n]), 0) + 1
    kept = []
    for i, group in enumerate(groups):
        if made.get(group, 0) > 0:
            made[group] -= 1
            kept.append(i)
    return kept
