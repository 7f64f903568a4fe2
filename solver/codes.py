"""Cards as solver codes by table lookup, and tables as padded rows in reading order.

The referee and the bots turn the same few hundred card objects into codes on every move of
thousands of games, so this is done by lookup, not by reading each card's fields: the 105
canonical cards (``solver.cards.CODES`` and the unnamed joker ``solver.validate.JOKER``, which
every dealt pack is made of) by their identity, any other equal card by value. Codes are those
of ``solver.constants`` (docs/rules.md §1): ``0..51`` the real cards, ``52 + i`` a joker
naming card ``i``, and ``UNNAMED_JOKER`` a joker in a hand (named nothing yet).

``group_rows`` lays groups out as the solver's arrays (``Position.group_array``): each group
in reading order, runs low to high with the ace where it belongs, sets by suit, exactly as
``solver.groups.arrange_group`` does; ``arrange`` does it in numba and says which groups are
valid (docs/rules.md §2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain

import numpy as np
from numba import njit

from solver.cards import CODES, Card
from solver.constants import ACE_HIGH, ACE_LOW, JOKER_CODE, N_CARD_TYPES, N_RANKS, ROW_WIDTH
from solver.validate import JOKER

UNNAMED_JOKER = 2 * N_CARD_TYPES
"""Code of an unnamed joker (``*``), as held in a hand or drawn."""
N_CODES = UNNAMED_JOKER + 1
#: The card of each code: real cards, named jokers, then the unnamed joker.
CARD_OF_CODE: tuple[Card, ...] = (*CODES, JOKER)
#: The text of each code (``str`` of its card), for records written without formatting.
TEXTS: tuple[str, ...] = tuple(str(card) for card in CARD_OF_CODE)
NOT_A_CARD = -1

# Canonical cards live as long as the module, so no other live object shares their id.
_BY_ID = {id(card): code for code, card in enumerate(CARD_OF_CODE)}
_BY_VALUE = {card: code for code, card in enumerate(CARD_OF_CODE)}


def card_code(card: object) -> int:
    """The code of ``card``, or ``NOT_A_CARD`` for anything that is not a ``Card``."""
    code = _BY_ID.get(id(card))
    if code is not None:
        return code
    return _BY_VALUE.get(card, NOT_A_CARD) if type(card) is Card else NOT_A_CARD


def codes_of(cards: Iterable[object]) -> list[int]:
    """The codes of ``cards`` in order (``NOT_A_CARD`` for what is not a card)."""
    items = cards if isinstance(cards, (list, tuple)) else list(cards)
    try:
        return list(map(_BY_ID.__getitem__, map(id, items)))
    except KeyError:  # a card that is not one of the canonical objects, or not a card
        return [card_code(card) for card in items]


def physical_counts(codes: Iterable[int]) -> np.ndarray:
    """Counts per code of the cards as held (a named joker counts as ``UNNAMED_JOKER``)."""
    counts = np.zeros(N_CODES, dtype=np.int64)
    for code in codes:
        counts[UNNAMED_JOKER if code >= JOKER_CODE else code] += 1
    return counts


def flat_groups(groups: Sequence[Sequence[object]]) -> tuple[list[int], list[int]]:
    """``(codes, lengths)``: every group's card codes one after the other, and each length."""
    lengths = list(map(len, groups))
    try:
        return list(map(_BY_ID.__getitem__, map(id, chain.from_iterable(groups)))), lengths
    except KeyError:  # see codes_of
        return [card_code(card) for group in groups for card in group], lengths


def group_rows(groups: Sequence[Sequence[object]], ace_mode: int) -> tuple[np.ndarray, np.ndarray]:
    """The groups as ``Position.group_array`` lays them out: padded rows of codes in reading
    order, and lengths (read-only arrays). Groups must be valid or single cards."""
    return rows_of(*flat_groups(groups), ace_mode)


def rows_of(codes: list[int], lengths: list[int], ace_mode: int) -> tuple[np.ndarray, np.ndarray]:
    """``group_rows`` for groups already as codes (``flat_groups``)."""
    rows, lengths_array, _ = arrange(np.array(codes, dtype=np.int64),
                                     np.array(lengths, dtype=np.int64), ace_mode)
    rows.flags.writeable = False
    lengths_array.flags.writeable = False
    return rows, lengths_array


@njit(cache=True)
def arrange(flat, lengths, ace_mode):
    """``(rows, lengths, valid)`` for groups given as ``flat`` codes cut by ``lengths``:
    each group in reading order in a padded row, and whether it is a set or a run (single
    cards are left as they are and not valid groups). A group that is no set or run, or too
    long for a row, keeps its given order (cut to the row)."""
    n_groups = lengths.shape[0]
    rows = np.full((n_groups, ROW_WIDTH), -1, dtype=np.int64)
    valid = np.zeros(n_groups, dtype=np.bool_)
    at = 0
    for g in range(n_groups):
        n = lengths[g]
        valid[g] = _arrange_group(flat[at:at + n], n, ace_mode, rows[g])
        if not valid[g]:
            for j in range(min(n, ROW_WIDTH)):
                rows[g, j] = flat[at + j]
        at += n
    return rows, lengths.copy(), valid


@njit(cache=True)
def _arrange_group(codes, n, ace_mode, out):
    """Write the group ``codes`` in reading order to ``out`` and return True if it is a set
    or a run (docs/rules.md §2); False (``out`` untouched) otherwise."""
    if n < 3 or n > N_RANKS:
        return False
    for j in range(n):
        if codes[j] < 0 or codes[j] >= UNNAMED_JOKER:
            return False
    rank = codes[0] % N_RANKS
    same_rank = True
    for j in range(n):
        if codes[j] % N_RANKS != rank:
            same_rank = False
    if same_rank:
        return _arrange_set(codes, n, out)
    return _arrange_run(codes, n, ace_mode, out)


@njit(cache=True)
def _arrange_set(codes, n, out):
    """A set: 3 or 4 cards of distinct suits, in suit order."""
    if n > 4:
        return False
    by_suit = np.full(4, -1, dtype=np.int64)
    for j in range(n):
        suit = codes[j] % JOKER_CODE // N_RANKS
        if by_suit[suit] >= 0:
            return False
        by_suit[suit] = codes[j]
    k = 0
    for suit in range(4):
        if by_suit[suit] >= 0:
            out[k] = by_suit[suit]
            k += 1
    return True


@njit(cache=True)
def _arrange_run(codes, n, ace_mode, out):
    """A run: one suit, distinct consecutive ranks, the ace low (before the 2) where the
    variant allows it and the run fits, else high (after the king)."""
    suit = codes[0] % JOKER_CODE // N_RANKS
    slot_of = np.full(N_RANKS, -1, dtype=np.int64)  # rank index -> the code holding it
    for j in range(n):
        if codes[j] % JOKER_CODE // N_RANKS != suit or slot_of[codes[j] % N_RANKS] >= 0:
            return False
        slot_of[codes[j] % N_RANKS] = codes[j]
    has_ace = slot_of[0] >= 0
    if (not has_ace or ace_mode != ACE_HIGH) and _consecutive(slot_of, n, 0):
        first = _first_used(slot_of, 0)
        for j in range(n):
            out[j] = slot_of[first + j]
        return True
    if has_ace and ace_mode != ACE_LOW and _consecutive(slot_of, n, 1):
        first = _first_used(slot_of, 1)  # the ace closes the run after the king
        for j in range(n - 1):
            out[j] = slot_of[first + j]
        out[n - 1] = slot_of[0]
        return True
    return False


@njit(cache=True)
def _first_used(slot_of, start):
    for r in range(start, N_RANKS):
        if slot_of[r] >= 0:
            return r
    return N_RANKS


@njit(cache=True)
def _consecutive(slot_of, n, ace_slot):
    """True when the ranks held span ``n`` consecutive slots, the ace on slot 0
    (``ace_slot`` 0) or after the king (``ace_slot`` 1: slots 1..13)."""
    lowest, highest = N_RANKS + 1, -1
    for r in range(N_RANKS):
        if slot_of[r] >= 0:
            slot = r if (r > 0 or ace_slot == 0) else N_RANKS
            lowest = min(lowest, slot)
            highest = max(highest, slot)
    return highest - lowest == n - 1


def play_cards(played: np.ndarray, rows: np.ndarray, lengths: np.ndarray
               ) -> tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...]]:
    """A joker-free play as cards: ``played`` counts per card index in index order (as a
    ``Solution`` lists them), and the table's rows of codes group by group."""
    cards = tuple(map(CODES.__getitem__, np.repeat(_INDICES, played).tolist()))
    table = tuple(tuple(map(CODES.__getitem__, row[:n]))
                  for row, n in zip(rows.tolist(), lengths.tolist(), strict=True))
    return cards, table


_INDICES = np.arange(N_CARD_TYPES)
