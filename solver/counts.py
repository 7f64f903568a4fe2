"""The counts-level entry point: card codes and count vectors in, the kernel's play out.

Simulations and self-play call the solver thousands of times a second on positions that the
referee has already checked, so nothing here parses text or builds card objects:

- ``solve_counts`` answers from count vectors alone, for rollouts (``bots.players.sim``):
  the new groups as the kernel cuts them, lone singles not listed.
- ``best_play`` answers for a table given as padded rows of codes in reading order
  (``solver.codes.group_rows``, the referee keeps its table so) and a hand as counts, laid
  out exactly as ``solver.api.solve_position`` lays out its ``Solution``: the same
  partition, the table's surviving groups where they were, the same played cards. It covers
  the joker-free positions the kernel answers (None for the rest: ask ``solve_position``).

Neither re-checks its answer (``solve_position`` does, with ``solver.validate``): callers
hand their result to a referee or use it in an imagined game.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from solver import automaton, kernel, kernel_backend
from solver.constants import (
    ACE_CODES,
    JOKER_CODE,
    MAX_COPIES,
    N_CARD_TYPES,
    NO_SCORE,
    ROW_WIDTH,
)
from solver.errors import SolverError
from solver.frozen import frozen
from solver.kernel_jokers import N_JOKER_ROWS
from solver.limit import Limit
from solver.one_call import (
    COPIES,
    DECKS,
    JOKERS,
    LENGTHS,
    NO_ANSWER,
    PLAYED,
    REJECTED,
    automaton_tables,
    joker_free_search,
    no_answer,
    packed_answer,
    with_lone_singles,
)
from solver.problem import NONE, ONES, POINTS, Partition, Problem, read_only
from solver.tidy import lay_out, pad
from solver.variants import Variant
from solver.warmup import one_time

NO_JOKER_ROWS = read_only(np.zeros((N_JOKER_ROWS, N_CARD_TYPES), dtype=np.int64))
"""``kernel.cell_arrays``' joker rows for a joker-free search: nothing owed, fixed or kept."""
UNSPLIT = REJECTED + 1
"""``play_rows``' status for a table the kernel proved cannot be split into valid groups
(after ``solver.one_call``'s statuses)."""


def solve_counts(table: np.ndarray, hand: np.ndarray, *, ace: str, decks: int,
                 singles: np.ndarray | None = None, opening_points: int = 0,
                 objective: str = "cards", limit: Limit | None = None) -> Partition:
    """The kernel's best play straight from card counts, for simulations that already know
    their cards are consistent: nothing is parsed, validated or re-checked.

    Arrays are per card index (0..51, ``solver.cards``): ``table`` the cards in the table's
    groups (each must be placed again), ``singles`` lone table cards (may join a group or
    stay), ``hand`` the hand. ``opening_points > 0`` asks for an opening play from the hand
    alone worth at least that many points (the table is then left out). Joker-free only.
    The answer is a ``Partition``: ``played`` (counts), ``groups``/``lengths`` (the new groups,
    lone singles not listed; with ``opening_points`` only the new ones), ``score``,
    ``optimal``. ``limit``: its kernel work (``Limit.kernel_work``)."""
    opening = opening_points > 0
    need = NONE if opening else table
    free = NONE if opening or singles is None else singles
    problem = Problem(need=need, free=free, hand=hand,
                      weight=ONES if objective == "cards" else POINTS, forced=NONE, ace=ace,
                      decks=decks, hand_only=opening, min_points=opening_points)
    return kernel_backend.solve(problem, node_limit=0 if limit is None else limit.kernel_work())


class LaidOutPlay(NamedTuple):
    """A play laid out as ``solve_position`` lays out its ``Solution``, in codes."""

    played: np.ndarray
    """Count of each real card (index 0..51) played from the hand."""
    rows: np.ndarray
    """The whole new table: padded rows of card codes in reading order, survivors first."""
    lengths: np.ndarray
    changed: np.ndarray
    """Per row: the group is new or changed."""
    score: int
    optimal: bool


def best_play(rows: np.ndarray, lengths: np.ndarray, hand: np.ndarray, variant: Variant,
              opened: bool = True, objective: str = "cards",
              limit: Limit | None = None) -> LaidOutPlay | None:
    """The kernel's best play for the table ``rows``/``lengths`` (``Position.group_array``:
    reading order, singles as one-card rows) and the playable ``hand`` (counts per card index),
    laid out as ``solve_position`` does; None when the position holds a joker or the kernel
    does not answer it (then ``solve_position`` does)."""
    if hand.shape[0] != N_CARD_TYPES:
        return None
    rows, lengths, hand = read_only(rows), read_only(lengths), read_only(hand)
    weight = ONES if objective == "cards" else POINTS
    work = 0 if limit is None else limit.kernel_work()
    if opened or not (variant.opening_points or variant.opening_run):
        status, score, optimal, packed = play_rows(rows, lengths, hand, variant.decks, weight,
                                                   ACE_CODES[variant.ace], work, _tables())
        if status != COPIES:
            return _laid_out(status, score, optimal, packed, rows, lengths)
    return _best_play_by_steps(rows, lengths, hand, variant, opened, weight, work)


def _best_play_by_steps(rows: np.ndarray, lengths: np.ndarray, hand: np.ndarray,
                        variant: Variant, opened: bool, weight: np.ndarray,
                        work: int) -> LaidOutPlay | None:
    """``best_play`` one kernel call after another: an opening to make, or more copies of a
    card than ``play_rows`` takes."""
    need, free, copies = _table_counts(rows, lengths, hand, variant.decks)
    if copies < 0:  # a joker on the table
        return None
    hand_only = False
    partition: Partition | None
    if not opened and (variant.opening_points or variant.opening_run):
        problem = _opening_problem(need, free, hand, weight, variant, (rows, lengths))
        hand_only = problem.hand_only
        partition = kernel_backend.solve(problem, work) if kernel_backend.applies(problem) \
            else None
    else:
        partition = _search(need, free, hand, weight, variant, copies, (rows, lengths), work)
    if partition is None:
        return None
    new_rows, new_lengths, changed = new_table(partition, rows, lengths, need=need, free=free,
                                               hand_only=hand_only)
    return LaidOutPlay(partition.played, new_rows, new_lengths, changed, partition.score,
                       partition.optimal)


def _laid_out(status: int, score: int, optimal: bool, packed: np.ndarray, rows: np.ndarray,
              lengths: np.ndarray) -> LaidOutPlay | None:
    """``play_rows``' answer as ``best_play`` gives it (``rows``/``lengths``: the table)."""
    if status == JOKERS:
        return None
    if status == UNSPLIT:
        raise SolverError("the table cannot be split into valid groups")
    if status == REJECTED:
        raise SolverError("kernel moves do not split into runs")
    if status == NO_ANSWER:  # a capped search that found nothing: the table as it lies
        return LaidOutPlay(np.zeros(N_CARD_TYPES, dtype=np.int64), rows.copy(), lengths.copy(),
                           np.zeros(len(lengths), dtype=np.bool_), 0, False)
    n_rows = packed[1]
    changed_at = LENGTHS + n_rows
    new_rows = packed[changed_at + n_rows:].reshape((-1, ROW_WIDTH))
    return LaidOutPlay(packed[PLAYED:LENGTHS], new_rows, packed[LENGTHS:changed_at],
                       packed[changed_at:changed_at + n_rows] != 0, int(score), bool(optimal))


@njit(cache=True)
def play_rows(rows, lengths, hand, decks, weight, ace_mode, work, tables):
    """``best_play`` for a player who has no opening to make, in one numba call (handing
    arrays from one kernel to the next through Python cost more than most searches):
    ``(status, score, optimal, packed)`` as ``solver.one_call.solve_codes`` answers, the
    status ``JOKERS`` for a joker on the table, ``COPIES`` for more copies of a card than
    ``tables`` (``one_call.automaton_tables()``) hold, ``UNSPLIT``, ``NO_ANSWER`` or
    ``REJECTED`` when the search found no partition (``_search``' cases), else ``DONE``."""
    need, free, copies = _table_counts(rows, lengths, hand, decks)
    if copies < 0:
        return no_answer(JOKERS)
    if copies > DECKS:
        return no_answer(COPIES)
    best, optimal, groups, group_lengths, played = joker_free_search(
        frozen(need), frozen(free), frozen(hand), weight, ace_mode, np.int64(copies),
        frozen(rows), frozen(lengths), np.int64(work), tables)
    if best == NO_SCORE:
        return no_answer(UNSPLIT if optimal else NO_ANSWER)
    if group_lengths.shape[0] and group_lengths[0] < 0:
        return no_answer(REJECTED)
    if played.sum() == 0:  # nothing played: the table as it lies
        return packed_answer(best, optimal, played, frozen(rows), frozen(lengths),
                             np.zeros(lengths.shape[0], dtype=np.bool_))
    groups, group_lengths = with_lone_singles(groups, group_lengths, need, free, played)
    new_rows, new_lengths, changed = lay_out(frozen(groups), frozen(group_lengths),
                                             frozen(rows), frozen(lengths))
    return packed_answer(best, optimal, played, frozen(new_rows), frozen(new_lengths),
                         changed)


@one_time
def _tables() -> np.ndarray:
    """``play_rows``' automaton tables (``one_call.automaton_tables``), loaded once."""
    return automaton_tables()


def _search(need: np.ndarray, free: np.ndarray, hand: np.ndarray, weight: np.ndarray,
            variant: Variant, copies: int, table: tuple[np.ndarray, np.ndarray],
            work: int) -> Partition | None:
    """``kernel_backend.solve`` for a joker-free problem with no opening rule, without the
    ``Problem``: with no joker, nothing is fixed, wild or owed, so the kernel's inputs are
    the counts themselves. None when a card has more copies than the kernel handles. The
    arrays reach the kernels as ``kernel_backend`` hands them (read-only or not alike), so
    numba runs the versions ``solver.warmup`` loaded. ``copies``: the most copies of a card
    in play (``_table_counts``)."""
    if copies > MAX_COPIES:
        return None
    init, delta, accept, kvecs, states = _automaton(copies)
    cell = kernel.cell_arrays(read_only(need), read_only(free), read_only(hand), weight, NONE,
                              weight, NO_JOKER_ROWS, ACE_CODES[variant.ace], 0)
    best, optimal, nodes, groups, lengths, played, _ = kernel.search_and_decode(
        cell, _config(variant.ace, copies, weight is POINTS), init, delta, accept, kvecs,
        *table, work, states, read_only(need), read_only(hand))
    if best == NO_SCORE:
        if optimal:
            raise SolverError("the table cannot be split into valid groups")
        return Partition.from_groups([], np.zeros(N_CARD_TYPES, dtype=np.int64), 0, False)
    if len(lengths) and lengths[0] < 0:
        raise SolverError("kernel moves do not split into runs")
    return Partition(groups, lengths, played, int(best), bool(optimal), {"nodes": nodes})


@njit(cache=True)
def _table_counts(rows, lengths, hand, decks):
    """``(need, free, copies)``: the table's cards that must be placed again and its original
    singles (counts per card index), and the most copies of one card in play (at least 1);
    ``copies`` is -1 when a joker lies on the table."""
    need = np.zeros(N_CARD_TYPES, dtype=np.int64)
    free = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for g in range(lengths.shape[0]):
        for j in range(lengths[g]):
            code = rows[g, j]
            if code >= JOKER_CODE:
                return need, free, -1
            if lengths[g] == 1:
                free[code] += 1
            else:
                need[code] += 1
    copies = 1
    for c in range(N_CARD_TYPES):
        copies = max(copies, min(need[c] + free[c] + hand[c], decks))
    return need, free, copies


@one_time
def _automaton(copies: int) -> tuple[np.ndarray, ...]:
    """The kernel's tables for ``copies`` (``solver.automaton``), in the order it takes them:
    ``init, delta, accept, set vectors, suit states``."""
    return (*automaton.run_automaton(copies), automaton.set_vectors(copies),
            automaton.suit_states(copies))


@cache
def _config(ace: str, copies: int, points: bool) -> np.ndarray:
    """The kernel's ``cfg`` vector with no joker (``kernel_backend.search_config``): no
    wildcard, none owed or on the table, no floor. The kernel only reads it."""
    return kernel_backend.search_config(ace, copies, weight_max=int(POINTS.max()) if points
                                        else 1)


def _opening_problem(need: np.ndarray, free: np.ndarray, hand: np.ndarray, weight: np.ndarray,
                     variant: Variant, table: tuple[np.ndarray, np.ndarray]) -> Problem:
    """``Problem.from_position`` for a player who has not opened (joker-free)."""
    hand_only = variant.opening_points > 0
    return Problem(need=NONE if hand_only else need, free=NONE if hand_only else free,
                   hand=hand, weight=weight, forced=NONE, ace=variant.ace, decks=variant.decks,
                   hand_only=hand_only, min_points=variant.opening_points,
                   run_from_hand=variant.opening_run, table_array=table)


def new_table(partition: Partition, old_rows: np.ndarray, old_lengths: np.ndarray, *,
              need: np.ndarray, free: np.ndarray,
              hand_only: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, lengths, changed)``: the table after ``partition`` laid out for people
    (``solver.tidy.lay_out``) from ``new_groups``."""
    if not partition.played.any() and not partition.played_jokers:  # lay_out would keep all
        return old_rows.copy(), old_lengths.copy(), np.zeros(len(old_lengths), dtype=np.bool_)
    new_rows, new_lengths = new_groups(partition, old_rows, old_lengths, need=need, free=free,
                                       hand_only=hand_only)
    return lay_out(read_only(new_rows), read_only(new_lengths), read_only(old_rows),
                   read_only(old_lengths))


def new_groups(partition: Partition, old_rows: np.ndarray, old_lengths: np.ndarray, *,
               need: np.ndarray, free: np.ndarray,
               hand_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The partition's groups as the whole new table, before layout (read-only rows and
    lengths): the table as it lies when nothing is played, the hand's new groups after it for
    an opening from the hand (``hand_only``), otherwise the partition's groups and the
    original singles (``free``; ``need``: the other table cards) left alone added back."""
    if partition.score == 0 and not partition.played.any() and not partition.played_jokers:
        return read_only(old_rows), read_only(old_lengths)
    if hand_only:
        return (read_only(np.concatenate([old_rows, partition.groups])),
                read_only(np.concatenate([old_lengths, partition.lengths])))
    new_rows, new_lengths = partition.groups, partition.lengths
    if free.any():
        left = free - _singles_used(need, partition)
        lone = [(int(c),) for c in np.flatnonzero(left > 0) for _ in range(int(left[c]))]
        if lone:
            rows, lengths = pad(lone)
            new_rows = np.concatenate([new_rows, rows])
            new_lengths = np.concatenate([new_lengths, lengths])
    return read_only(new_rows), read_only(new_lengths)


def _singles_used(need: np.ndarray, partition: Partition) -> np.ndarray:
    """Original singles that joined a group: copies used beyond table cards and played ones."""
    codes = partition.groups[(partition.groups >= 0) & (partition.groups < N_CARD_TYPES)]
    used = np.bincount(codes, minlength=N_CARD_TYPES)
    return np.clip(used - need - partition.played, 0, None)
