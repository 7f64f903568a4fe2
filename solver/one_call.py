"""``solve()`` from card codes in one numba call: check, search, lay out and re-check.

The usual request, a joker-free position of a variant without joker rules, the player opened,
the kernel as backend and no limit, costs tens of microseconds of search; handing arrays from
one numba function to the next through Python cost several times that. ``solve_codes`` does
in one call what ``solver.api`` does step by step for every other request:

- the starting position's checks and arrays (``solver.position_arrays.encode``: docs/rules.md
  §1, §2, §5),
- the kernel's search and decoding (``solver.kernel.search_and_decode``), on the same inputs
  ``solver.kernel_backend`` builds for such a position (``solver.counts`` does the same for
  the bots),
- the original singles left alone added back, the layout (``solver.tidy.lay_out``) and the
  re-check against the rules (``solver.fastcheck.check_table``), as
  ``solver.api.checked_solution`` does.

It answers with a status. Anything but ``DONE`` (a position the checks doubt, jokers, more
copies of a card than the kernel takes, a search that found nothing, a re-check that failed)
sends ``solver.api`` down its general path, which raises the error naming the offending
token, or gives the answer, exactly as before.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver import automaton, kernel
from solver.constants import ACE_CODES, JOKER_CODE, N_CARD_TYPES, NO_SCORE, ROW_WIDTH
from solver.fastcheck import lay_out_and_check
from solver.frozen import frozen
from solver.kernel_backend import config_vector
from solver.kernel_jokers import N_JOKER_ROWS
from solver.position import card_codes
from solver.position_arrays import encode, joined_texts, parse_texts
from solver.problem import ONES
from solver.variants import Variant
from solver.warmup import one_time

DONE, ODD_TEXT, DOUBT, JOKERS, COPIES, NO_ANSWER, REJECTED = range(7)
"""``solve_codes``' statuses: answered; a card text not in its plain spelling (the dict
lookup reads it); the position breaks a rule (or looks odd); it holds a joker; a card has
more copies than the kernel takes; a capped search found no partition; the answer failed
decoding or the re-check (a bug, which the general path reports)."""


HEAD = 2
"""``solve_codes`` answers ``(status, score, optimal, packed)``: the whole answer in one int64
array (one array crosses back into Python far faster than a tuple of them), of ``HEAD``
numbers (the status and the rows' count), then, when the status is ``DONE``, the count of
each real card played (``N_CARD_TYPES``), each row's length, whether each row is new or
changed, and the rows (``ROW_WIDTH`` codes each)."""
PLAYED = HEAD
LENGTHS = PLAYED + N_CARD_TYPES


class Answer:
    """``solve_codes``' answer when its status is ``DONE``: the score, whether it is optimal,
    and the rest read from the packed array (see ``HEAD``) when asked for."""

    __slots__ = ("score", "optimal", "packed", "given", "rules")

    def __init__(self, score: int, optimal: bool, packed: np.ndarray, given: tuple,
                 rules: Variant) -> None:
        self.score, self.optimal, self.packed = score, optimal, packed
        self.given = given
        """The position as it was given: ``joined_texts``' bytes or ``card_codes``' arrays."""
        self.rules = rules

    @property
    def played(self) -> np.ndarray:
        """Count of each real card (index 0..51) played from the hand."""
        return self.packed[PLAYED:LENGTHS]

    @property
    def lengths(self) -> np.ndarray:
        return self.packed[LENGTHS: LENGTHS + self.packed[1]]

    @property
    def changed(self) -> np.ndarray:
        """Per row: the group is new or changed."""
        n_rows = self.packed[1]
        return self.packed[LENGTHS + n_rows: LENGTHS + 2 * n_rows].astype(np.bool_)

    @property
    def rows(self) -> np.ndarray:
        """The whole new table: padded rows of card codes in reading order, survivors first."""
        start = LENGTHS + 2 * self.packed[1]
        return self.packed[start:].reshape((-1, ROW_WIDTH))

    def position_codes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(codes, lengths, hand)`` of the position solved (``card_codes``' form)."""
        if len(self.given) == 3 and self.given[0].dtype == np.uint8:
            _, codes, lengths, hand = parse_texts(*self.given)
            return codes, lengths, hand
        return self.given


DECKS = 2
"""The most decks a position ``solve_codes`` answers may be played with (every variant's)."""
N_TABLES = 5
"""Automaton tables per count of copies: ``init, delta, accept, set vectors, suit states``."""
TABLE_HEAD = 4
"""Numbers ``automaton_tables`` keeps per table: where it starts, and its three dimensions."""


@one_time
def automaton_tables() -> np.ndarray:
    """The kernel's automaton tables for one and two copies of a card in one int64 array
    (``accept`` as 0 and 1): a header of ``TABLE_HEAD`` numbers per table, in the order
    ``N_TABLES`` lists them, one copy count after the other, then the tables' numbers.
    ``kernel_tables`` reads them back. One array, since numba reads a tuple of arrays given to a
    function far more slowly than an array."""
    tables = [table.astype(np.int64) for c in range(1, DECKS + 1) for table in (
        *automaton.run_automaton(c), automaton.set_vectors(c), automaton.suit_states(c))]
    head = np.zeros(len(tables) * TABLE_HEAD, dtype=np.int64)
    at = head.shape[0]
    for i, table in enumerate(tables):
        head[i * TABLE_HEAD: (i + 1) * TABLE_HEAD] = (at, *table.shape, 1, 1)[:TABLE_HEAD]
        at += table.size
    return np.concatenate([head] + [table.ravel() for table in tables])


NO_TEXT = (np.frombuffer(b"", dtype=np.uint8), 0, 0)  # read-only, as joined_texts' bytes
NO_CODES = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int64))


def solve(table: object, hand: object, rules: Variant, weight: np.ndarray) -> Answer | None:
    """``solve_codes`` for a position given as ``solve()`` takes it (lists of card texts
    above all) under ``rules`` (joker-free, no opening to make), maximizing ``weight``: its
    ``Answer``, or None when the general path must answer."""
    tables = load()
    joined = joined_texts(table, hand)
    status = DOUBT
    if joined is not None:
        status, score, optimal, packed = solve_codes(
            *joined, *NO_CODES, ACE_CODES[rules.ace], rules.decks, rules.jokers,
            rules.singles, weight, tables)
        if status == DONE:
            return Answer(score, optimal, packed, joined, rules)
    if status == ODD_TEXT or joined is None:
        given = card_codes(table, hand)
        if given is not None:
            return solve_given(given, rules, weight)
    return None


def solve_given(given: tuple[np.ndarray, np.ndarray, np.ndarray], rules: Variant,
                weight: np.ndarray) -> Answer | None:
    """``solve`` for a position given as ``card_codes``' arrays (a pre-built ``Position``'s
    codes: ``solver.api``): its ``Answer``, or None when the general path must answer."""
    status, score, optimal, packed = solve_codes(
        *NO_TEXT, *given, ACE_CODES[rules.ace], rules.decks, rules.jokers, rules.singles,
        weight, load())
    return Answer(score, optimal, packed, given, rules) if status == DONE else None


@one_time
def load() -> np.ndarray:
    """Load ``solve_codes`` (from numba's cache, or compile it) once per process, its time
    counted as set-up (``solver.warmup``): a fresh process that solves from card texts loads
    this kernel alone, not every kernel ``solver.warmup.load_kernels`` loads. Returns
    ``automaton_tables()``, ``solve_codes``' last argument."""
    tables = automaton_tables()
    joined = joined_texts([["5C", "6C", "7C", "8C"]], ["8D", "8H"])
    assert joined is not None
    rules = Variant.parse("machiavelli")
    solve_codes(*joined, *NO_CODES, ACE_CODES[rules.ace], rules.decks, rules.jokers,
                rules.singles, ONES, tables)
    return tables


@njit(cache=True, nogil=True)
def solve_codes(data, n_groups, n_cards, codes, lengths, hand, ace_mode, decks, max_jokers,
                max_singles, weight, tables):
    """``(status, score, optimal, packed)`` (see ``HEAD``) for the position given as
    ``joined_texts``' bytes (``data``, when not empty) or as ``card_codes``' arrays (see the
    module docstring), ``tables`` being ``automaton_tables()``; the packed array is empty
    unless the status is ``DONE``."""
    if data.shape[0] > 0:
        read, codes, lengths, hand = parse_texts(data, n_groups, n_cards)
        if not read:
            return no_answer(ODD_TEXT)
    ok, old_rows, old_lengths, table_counts, hand_counts, singles, jokers = encode(
        codes, lengths, hand, ace_mode, decks, max_jokers, max_singles, False)
    if not ok:
        return no_answer(DOUBT)
    if jokers > 0:
        return no_answer(JOKERS)
    need = table_counts - singles
    copies = 1
    for c in range(N_CARD_TYPES):
        copies = max(copies, min(table_counts[c] + hand_counts[c], decks))
    if copies > DECKS:
        return no_answer(COPIES)
    best, optimal, groups, group_lengths, played = joker_free_search(
        frozen(need), frozen(singles), frozen(hand_counts), weight, ace_mode, np.int64(copies),
        frozen(old_rows), frozen(old_lengths), np.int64(0), tables)
    if best == NO_SCORE:
        return no_answer(NO_ANSWER)
    if group_lengths.shape[0] and group_lengths[0] < 0:
        return no_answer(REJECTED)
    score = 0
    for c in range(N_CARD_TYPES):
        score += weight[c] * played[c]
    if score != best:
        return no_answer(REJECTED)
    if score == 0:  # nothing played: the table as it lies
        groups, group_lengths = old_rows, old_lengths
    else:
        groups, group_lengths = with_lone_singles(groups, group_lengths, need, singles,
                                                   played)
    rows, row_lengths, changed, code = lay_out_and_check(
        frozen(groups), frozen(group_lengths), frozen(old_rows), frozen(old_lengths),
        frozen(table_counts), frozen(singles), frozen(hand_counts), frozen(played), ace_mode,
        np.int64(0), np.int64(0), np.int64(0))
    if code != 0:
        return no_answer(REJECTED)
    return packed_answer(np.int64(score), optimal, played, frozen(rows), frozen(row_lengths),
                         changed)


@njit(cache=True)
def joker_free_search(need, singles, hand, weight, ace_mode, copies, rows, lengths, work,
                      tables):
    """The kernel's search and decoding for a joker-free position with no opening to make,
    as ``solver.kernel_backend`` sets it up (nothing fixed, wild or owed): ``(best, optimal,
    groups, lengths, played)`` of ``kernel.search_and_decode``; ``rows``/``lengths`` the table
    as it lies, ``work`` its node limit (0: none), ``tables`` ``automaton_tables()``."""
    cell = kernel.cell_arrays(
        need, singles, hand, weight, frozen(np.zeros(N_CARD_TYPES, dtype=np.int64)), weight,
        frozen(np.zeros((N_JOKER_ROWS, N_CARD_TYPES), dtype=np.int64)), ace_mode, np.int64(0))
    cfg = config_vector(ace_mode, copies, np.int64(0), np.int64(0), weight.max(), np.int64(0),
                        np.int64(NO_SCORE), np.int64(0))
    init, delta, accept, kvecs, states = kernel_tables(tables, copies - 1)
    best, optimal, _, groups, group_lengths, played, _ = kernel.search_and_decode(
        cell, cfg, frozen(init), frozen(delta), frozen(accept), kvecs, frozen(rows),
        frozen(lengths), np.int64(work), states, frozen(need), frozen(hand))
    return best, optimal, groups, group_lengths, played


@njit(cache=True)
def kernel_tables(tables, t):
    """``(init, delta, accept, set vectors, suit states)`` for ``t + 1`` copies of a card,
    read back from ``automaton_tables()``' array."""
    i = t * N_TABLES * TABLE_HEAD
    head = tables[i: i + N_TABLES * TABLE_HEAD].reshape((N_TABLES, TABLE_HEAD))
    init = _table_numbers(tables, head[0]).reshape((head[0, 1], head[0, 2]))
    delta = _table_numbers(tables, head[1]).reshape((head[1, 1], head[1, 2], head[1, 3]))
    accept = _table_numbers(tables, head[2]) != 0
    kvecs = _table_numbers(tables, head[3]).reshape((head[3, 1], head[3, 2]))
    states = _table_numbers(tables, head[4]).reshape((head[4, 1], head[4, 2]))
    return init, delta, accept, kvecs, states


@njit(cache=True)
def _table_numbers(tables, head):
    """The numbers of the table whose header is ``head`` (start, three dimensions)."""
    return tables[head[0]: head[0] + head[1] * head[2] * head[3]]


@njit(cache=True)
def packed_answer(score, optimal, played, rows, lengths, changed):
    """``solve_codes``' answer for an answered position (see ``HEAD``)."""
    n_rows = lengths.shape[0]
    packed = np.empty(LENGTHS + n_rows * (2 + ROW_WIDTH), dtype=np.int64)
    packed[0], packed[1] = DONE, n_rows
    packed[PLAYED:LENGTHS] = played
    packed[LENGTHS: LENGTHS + n_rows] = lengths
    packed[LENGTHS + n_rows: LENGTHS + 2 * n_rows] = changed
    packed[LENGTHS + 2 * n_rows:] = rows.ravel()
    return DONE, score, optimal, packed


@njit(cache=True, inline="always")
def no_answer(status):
    """``solve_codes``' answer for a status other than ``DONE``."""
    return status, 0, False, np.zeros(0, dtype=np.int64)


@njit(cache=True)
def with_lone_singles(groups, lengths, need, singles, played):
    """The partition's groups and, after them, each original single it left alone as a
    one-card row (``solver.counts.new_groups``): a single joined a group when its card was
    placed more often than the table's other copies and the hand's played ones."""
    used = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for g in range(lengths.shape[0]):
        for j in range(lengths[g]):
            if groups[g, j] < JOKER_CODE:
                used[groups[g, j]] += 1
    left = np.zeros(N_CARD_TYPES, dtype=np.int64)
    lone = 0
    for c in range(N_CARD_TYPES):
        left[c] = singles[c] - max(used[c] - need[c] - played[c], 0)
        lone += max(left[c], 0)
    if lone == 0:
        return groups, lengths
    rows = np.full((lengths.shape[0] + lone, ROW_WIDTH), -1, dtype=np.int64)
    rows[: lengths.shape[0]] = groups
    all_lengths = np.ones(lengths.shape[0] + lone, dtype=np.int64)
    all_lengths[: lengths.shape[0]] = lengths
    at = lengths.shape[0]
    for c in range(N_CARD_TYPES):
        for _ in range(left[c]):
            rows[at, 0] = c
            at += 1
    return rows, all_lengths
