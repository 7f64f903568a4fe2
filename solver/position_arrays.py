"""A position's arrays in one numba pass: its starting table checked, its counts and groups.

``encode`` reads a position as card codes (``solver.cards.CODE_OF``: ``0..51`` real cards,
``52 + i`` a joker naming card ``i``, ``104`` an unnamed joker) and, in one pass,

- checks every rule a starting position must meet (docs/rules.md §1, §2, §5, §8): each group
  of two or more cards a set or a run under the ace mode, table jokers named, hand jokers
  unnamed, no more copies of a card than the decks hold, no more jokers than the variant has,
  no more lone cards than its singles, at most one joker per group where the variant says so;
- lays every group out in reading order (``solver.groups.arrange_group``: runs low to high,
  sets and anything else by suit), as the padded rows every backend reads;
- counts the real cards on the table, in the hand and among the original singles.

It only answers "valid or not": ``solver.position`` re-runs its Python check on a position
this rejects, so that the error raised, and its message, are the ones ``validate`` gives.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from solver.constants import ACE_HIGH, ACE_LOW, JOKER_CODE, N_CARD_TYPES, N_RANKS, ROW_WIDTH

UNNAMED = 2 * JOKER_CODE  # a joker written ``*``: names no card
CARD_END, GROUP_END, TABLE_END = 0, 1, 2
"""The bytes ``parse_texts`` reads between two cards, two groups, and the table and the hand."""
_RANKS = np.full(128, -1, dtype=np.int64)  # rank index of a one-character rank
_SUITS = np.full(128, -1, dtype=np.int64)  # suit of a suit letter
for _rank, _text in enumerate("A23456789_JQK"):
    _RANKS[ord(_text)] = _rank if _text != "_" else -1
for _suit, _text in enumerate("SHDC"):
    _SUITS[ord(_text)] = _suit
NO_SET, SET, RUN = 0, 1, 2


class PositionArrays(NamedTuple):
    """What the solver reads of a position, computed once (every array read-only)."""

    rows: np.ndarray
    """The table's groups (singles included) in reading order, padded with -1."""
    lengths: np.ndarray
    table_counts: np.ndarray
    """Real cards on the table, per card index (jokers excluded)."""
    hand_counts: np.ndarray
    """Real cards in the hand (jokers excluded)."""
    single_counts: np.ndarray
    """Lone cards on the table (original singles), per card index."""
    mandatory_counts: np.ndarray
    """Table cards that must end up in a group: ``table_counts - single_counts``."""
    jokers: int
    """Jokers in the position, table and hand."""


@njit(cache=True)
def _kind(codes, start, n, ace_mode):
    """``(kind, high)``: ``SET``, ``RUN`` or ``NO_SET`` for the group ``codes[start:start+n]``
    (docs/rules.md §2), and for a run whether its ace stands high, after the king."""
    if n < 3:
        return NO_SET, False
    rank = codes[start] % JOKER_CODE % N_RANKS
    suit = codes[start] % JOKER_CODE // N_RANKS
    same_rank, same_suit = True, True
    ranks, suits = 0, 0
    lowest, highest = N_RANKS, -1  # ranks other than the ace
    for j in range(start, start + n):
        if codes[j] >= UNNAMED:
            return NO_SET, False
        r = codes[j] % JOKER_CODE % N_RANKS
        s = codes[j] % JOKER_CODE // N_RANKS
        same_rank = same_rank and r == rank
        same_suit = same_suit and s == suit
        ranks |= 1 << r
        suits |= 1 << s
        if r > 0:
            lowest, highest = min(lowest, r), max(highest, r)
    if same_rank:
        distinct = n <= 4 and bin_count(suits) == n
        return (SET if distinct else NO_SET), False
    if not same_suit or bin_count(ranks) != n:
        return NO_SET, False
    if not ranks & 1:
        return (RUN if highest - lowest == n - 1 else NO_SET), False
    if ace_mode != ACE_HIGH and highest == n - 1:  # A 2 3 ...
        return RUN, False
    if ace_mode != ACE_LOW and lowest == N_RANKS - n + 1:  # ... Q K A
        return RUN, True
    return NO_SET, False


@njit(cache=True)
def bin_count(bits):
    """Bits set in ``bits``."""
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True)
def _arrange(codes, start, n, ace_mode, row):
    """Write the group ``codes[start:start+n]`` to ``row`` in reading order; return its kind.

    A run by rank (a high ace last); anything else as ``sorted`` orders cards: by suit, then
    rank, a joker after the real card it names."""
    kind, high = _kind(codes, start, n, ace_mode)
    if kind == RUN:
        first = N_RANKS
        for j in range(start, start + n):
            slot = _slot(codes[j], high)
            first = min(first, slot)
        for j in range(start, start + n):
            row[_slot(codes[j], high) - first] = codes[j]
        return kind
    for j in range(n):  # insertion sort: groups are short
        code = codes[start + j]
        at = j
        while at > 0 and _sort_key(row[at - 1]) > _sort_key(code):
            row[at] = row[at - 1]
            at -= 1
        row[at] = code
    return kind


@njit(cache=True, inline="always")
def _sort_key(code):
    """``Card.sort_key`` as a number: suit, rank, a joker after the card it names."""
    return 4 * N_CARD_TYPES if code >= UNNAMED else code % JOKER_CODE * 2 + code // JOKER_CODE


@njit(cache=True, inline="always")
def _slot(code, high):
    """Where a run's card stands: its rank index, or ``N_RANKS`` for an ace closing the run."""
    rank = code % JOKER_CODE % N_RANKS
    return N_RANKS if high and rank == 0 else rank


@njit(cache=True)
def _table(codes, lengths, ace_mode, one_joker, rows, table_counts, single_counts):
    """Fill the table's arrays; return ``(ok, jokers, singles)``: every group of two or more
    cards valid (named jokers, at most one joker where ``one_joker``), and the counts."""
    ok = True
    jokers, singles, at = 0, 0, 0
    for g in range(lengths.shape[0]):
        n = lengths[g]
        if n > ROW_WIDTH or n < 1:
            return False, jokers, singles
        group_jokers = 0
        for j in range(at, at + n):
            if codes[j] >= JOKER_CODE:
                group_jokers += 1
            else:
                table_counts[codes[j]] += 1
        jokers += group_jokers
        if n == 1:
            rows[g, 0] = codes[at]
            if codes[at] >= UNNAMED:
                ok = False
            else:
                single_counts[codes[at] % JOKER_CODE] += 1
                singles += 1
                ok = ok and group_jokers == 0  # a lone joker is no group
        else:
            kind = _arrange(codes, at, n, ace_mode, rows[g])
            ok = ok and kind != NO_SET and not (one_joker and group_jokers > 1)
        at += n
    return ok, jokers, singles


@njit(cache=True)
def encode(codes, lengths, hand, ace_mode, decks, max_jokers, max_singles, one_joker):
    """``(ok, rows, lengths, table_counts, hand_counts, single_counts, jokers)`` for the table
    ``codes`` (groups one after another, ``lengths`` cards each) and the ``hand`` codes;
    ``ok`` is False when a rule of a starting position is broken (see the module docstring)."""
    rows = np.full((lengths.shape[0], ROW_WIDTH), -1, dtype=np.int64)
    table_counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
    single_counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
    hand_counts = np.zeros(N_CARD_TYPES, dtype=np.int64)
    ok, jokers, singles = _table(codes, lengths, ace_mode, one_joker, rows, table_counts,
                                 single_counts)
    for code in hand:
        if code == UNNAMED:
            jokers += 1
        elif code >= JOKER_CODE:
            jokers += 1
            ok = False  # a hand joker names no card
        else:
            hand_counts[code] += 1
    for c in range(N_CARD_TYPES):
        ok = ok and table_counts[c] + hand_counts[c] <= decks
    ok = ok and jokers <= max_jokers and singles <= max_singles
    return ok, rows, lengths, table_counts, hand_counts, single_counts, jokers


def joined_texts(table: object, hand: object) -> tuple[np.ndarray, int, int] | None:
    """``(data, groups, cards)`` for ``parse_texts``: a table given as lists of card texts
    and a hand as a list, written as one byte string (cards apart by ``CARD_END``, groups by
    ``GROUP_END``, the hand after ``TABLE_END``), with how many groups and cards were given.
    None for any other input (texts, ``Card`` objects): ``solver.position.card_codes`` reads
    those."""
    if not isinstance(table, (list, tuple)) or not isinstance(hand, (list, tuple)):
        return None
    try:
        text = "\x01".join(map("\x00".join, table)) + "\x02" + "\x00".join(hand)
        data = np.frombuffer(text.encode(), np.uint8)  # dtype= as a keyword: slower
    except (TypeError, UnicodeError):
        return None
    return data, len(table), sum(map(len, table)) + len(hand)


@njit(cache=True)
def parse_texts(data, n_groups, n_cards):
    """``(ok, codes, lengths, hand)`` from ``joined_texts``' bytes: the table's card codes
    group after group, each group's length and the hand's codes. Only the plain spellings
    (``7H``, ``10D``, ``*7H``, ``*``: ``solver.cards.CODE_OF`` gives each the same code) are
    read; ``ok`` is False for any other, for an empty group, and when the groups or cards
    found are not as many as were given (a text holding a separator byte): the dict lookup
    then reads the input."""
    codes = np.zeros(n_cards + 1, dtype=np.int64)
    lengths = np.zeros(n_groups, dtype=np.int64)
    table_end = -1
    for at in range(data.shape[0]):
        if data[at] == TABLE_END:
            if table_end >= 0:
                return False, codes[:0], lengths, codes[:0]
            table_end = at
    found, groups, start = 0, 0, 0
    if table_end > 0:  # the table's groups, apart by GROUP_END
        for at in range(table_end + 1):
            if at < table_end and data[at] != GROUP_END:
                continue
            cards = _read_cards(data, start, at, codes, found)
            if cards <= 0 or groups == n_groups:
                return False, codes[:0], lengths, codes[:0]
            lengths[groups] = cards
            found += cards
            groups += 1
            start = at + 1
    table_cards = found
    if table_end + 1 < data.shape[0]:
        cards = _read_cards(data, table_end + 1, data.shape[0], codes, found)
        if cards <= 0:
            return False, codes[:0], lengths, codes[:0]
        found += cards
    ok = table_end >= 0 and groups == n_groups and found == n_cards
    return ok, codes[:table_cards], lengths, codes[table_cards:found]


@njit(cache=True)
def _read_cards(data, start, end, codes, at):
    """Read the cards of ``data[start:end]`` (apart by ``CARD_END``) into ``codes`` from
    ``at``; return how many, or -1 on anything but a plain card text, or too many cards."""
    count = 0
    for stop in range(start, end + 1):
        if stop < end and data[stop] > TABLE_END:
            continue
        if (stop < end and data[stop] != CARD_END) or at + count >= codes.shape[0] - 1:
            return -1
        code = _card_code(data, start, stop)
        if code < 0:
            return -1
        codes[at + count] = code
        count += 1
        start = stop + 1
    return count


@njit(cache=True)
def _card_code(data, start, end):
    """The code of the plain card text ``data[start:end]`` (-1: not one)."""
    joker = end > start and data[start] == 42  # '*'
    first = start + joker
    if joker and first == end:
        return UNNAMED
    if end - first == 3 and data[first] == 49 and data[first + 1] == 48:  # '10'
        rank = 9
    elif end - first == 2 and data[first] < 128:
        rank = _RANKS[data[first]]
    else:
        return -1
    suit = _SUITS[data[end - 1]] if data[end - 1] < 128 else -1
    if rank < 0 or suit < 0:
        return -1
    return suit * N_RANKS + rank + (JOKER_CODE if joker else 0)


def position_arrays(encoded: tuple) -> PositionArrays:
    """``encode``'s answer as read-only ``PositionArrays`` (the mandatory counts added)."""
    _, rows, lengths, table_counts, hand_counts, single_counts, jokers = encoded
    mandatory = table_counts - single_counts
    for array in (rows, lengths, table_counts, hand_counts, single_counts, mandatory):
        array.flags.writeable = False
    return PositionArrays(rows, lengths, table_counts, hand_counts, single_counts, mandatory,
                          int(jokers))
