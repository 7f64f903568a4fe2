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

from dataclasses import replace
from functools import cache

import numpy as np

from solver import automaton, kernel, kernel_backend, kernel_jokers, kernel_lex, lex_tables
from solver.cards import N_CARD_TYPES
from solver.constants import ACE_CODES, N_RANKS, N_SUITS
from solver.groups import candidate_runs
from solver.limit import Limit
from solver.problem import Partition, Problem
from solver.tidy import pad

KEY_BITS = 62
"""A search key (four automaton states, the live kept runs, the step) must fit in this many
bits."""


def applies(problem: Problem, groups: list[tuple[int, ...]]) -> bool:
    """True when the lexicographic search answers the hint of ``problem`` exactly: no jokers,
    one kernel branch, the table's runs few enough for the search's keys, and few enough
    decided at one step and suit for its option lists (``kernel_lex.MAX_OPTIONS``)."""
    if problem.hand_jokers or problem.table_jokers or problem.run_from_hand:
        return False
    if problem.hand_only or problem.locked or not kernel_backend.applies(problem):
        return False
    copies = _copies(problem)
    n_q = automaton.run_automaton(copies)[1].shape[0]
    decided: dict[tuple[int, int], int] = {}  # runs per (suit, step their keep is decided)
    for group in groups:
        if group[0] % N_RANKS != group[1] % N_RANKS:
            high = group[-1] % N_RANKS == 0 and group[0] % N_RANKS != 0
            where = (group[0] // N_RANKS, 0 if high else group[0] % N_RANKS)
            decided[where] = decided.get(where, 0) + 1
    most = max(decided.values(), default=0)
    if (1 << most) * (copies + 1) ** 2 > kernel_lex.MAX_OPTIONS:
        return False
    return (n_q ** N_SUITS * N_RANKS).bit_length() + sum(decided.values()) <= KEY_BITS


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
    (or a rank holds more sets than the search tracks)."""
    tables, parts, each, big = search_tables(problem, groups, best.score)
    if tables is None:
        return None
    floor = best.score * big + int(each[_kept(groups, best)].sum()) - 1
    work = 0 if limit is None else limit.kernel_work()
    capped = bool(max_work) and (not work or max_work < work)  # the cap, not the limit
    answer = kernel_lex.search(tables, floor, max_work if capped else work,
                               automaton.suit_states(_copies(problem)), parts[5])
    found, complete, nodes, work_done, kept_runs, kept_sets, made, made_len, used = answer
    if found == floor:  # cut before it beat the kernel's play
        return None if capped else replace(best, optimal=False)
    kept = _kept_groups(parts, int(kept_runs), kept_sets)
    play = _partition(problem, [groups[i] for i in kept], made, made_len, used,
                      found // big, complete, nodes, work_done)
    if not complete and capped:
        play.stats["capped"] = 1.0
    return play


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


def _kept_groups(parts: tuple, kept_runs: int, kept_sets: np.ndarray) -> list[int]:
    """Indices of the table groups the search kept: runs from their mask, sets per step."""
    run_group, set_group = parts[4], parts[7]
    kept = [int(run_group[j]) for j in range(run_group.shape[0]) if kept_runs >> j & 1]
    for t, bits in enumerate(kept_sets.tolist()):
        kept += [int(set_group[t, i]) for i in range(set_group.shape[1]) if bits >> i & 1]
    return sorted(kept)


def _partition(problem: Problem, kept: list[tuple[int, ...]], made: np.ndarray,
               made_len: np.ndarray, used: np.ndarray, score: int, optimal: bool,
               nodes: int, work: int) -> Partition:
    """The answer's ``Partition``: the kept groups, then the made ones; the hand cards
    played are the copies used beyond the table's."""
    kept_cards = [card for group in kept for card in group]
    total = used + np.bincount(np.array(kept_cards, dtype=np.int64), minlength=N_CARD_TYPES)
    played = np.minimum(np.maximum(total - problem.need, 0), problem.hand)
    groups = kept + [tuple(row[:n]) for row, n in zip(made.tolist(), made_len.tolist(),
                                                      strict=True)]
    assert played.shape == (N_CARD_TYPES,)
    return Partition.from_groups(groups, played, score, optimal=optimal, nodes=nodes,
                                work=work)
