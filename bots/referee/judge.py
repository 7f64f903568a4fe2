"""The referee's fast judge of a play: the move as card codes, checked on arrays.

Self-play asks the referee to judge thousands of plays a second, and nearly all are legal.
``quick_verdict`` passes a move only when ``solver.validate.play_problems`` would find
nothing wrong with it: the card balance and every group are checked on codes in numba
(``solver.movecheck``), and the rules that look past single groups, jokers' names
(docs/rules.md §8) and the opening (§6), by the validator itself where they can apply. A
move it does not pass may still be legal: the referee then asks ``play_problems``, which
decides and gives the reasons. So the judge is never more lenient than the validator, and
the referee's messages are the validator's.

A passed move comes back as a ``Verdict``: its codes, for writing the record by lookup, and
the new table in reading order, the form the solver takes it in (``solver.codes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from solver.cards import Card
from solver.codes import NOT_A_CARD, TEXTS, arrange, codes_of, flat_groups
from solver.constants import ACE_CODES, JOKER_CODE
from solver.movecheck import PASSED, check_move
from solver.position import Position
from solver.validate import joker_problems, opening_problems


class TableCodes(NamedTuple):
    """A table in codes (``solver.codes``): as it lies, and as the solver takes it."""

    flat: list[int]
    """The codes, group after group, in the groups' own order."""
    lengths: list[int]
    """The size of each group."""
    rows: np.ndarray
    """The groups in reading order: padded rows of codes (read-only)."""
    row_lengths: np.ndarray
    flat_array: np.ndarray
    """``flat`` and ``lengths`` as arrays, for the judge's next move on this table."""
    length_array: np.ndarray

    def texts(self) -> list[list[str]]:
        """The table as a record writes it (``str`` of each card), group by group."""
        texts, at = [], 0
        for n in self.lengths:
            texts.append([TEXTS[code] for code in self.flat[at:at + n]])
            at += n
        return texts


def table_codes(table: Sequence[Sequence[Card]], ace_mode: int) -> TableCodes:
    """``table`` (groups of cards) in codes."""
    flat, lengths = flat_groups(table)
    flat_array, length_array = _array(flat), _array(lengths)
    rows, row_lengths, _ = arrange(flat_array, length_array, ace_mode)
    return _frozen(TableCodes(flat, lengths, rows, row_lengths, flat_array, length_array))


def _frozen(codes: TableCodes) -> TableCodes:
    """``codes`` with its arrays read-only: the game keeps them and hands them to bots."""
    for array in codes[2:]:
        array.flags.writeable = False
    return codes


@dataclass(frozen=True)
class Verdict:
    """A play the judge passed, in codes (``solver.codes``)."""

    played: list[int]
    """The played cards' codes, as proposed."""
    table: TableCodes
    """The new table."""

    def played_texts(self) -> list[str]:
        """The played cards as the record writes them (``str`` of each card)."""
        return [TEXTS[code] for code in self.played]


def quick_verdict(position: Position, played: Sequence[Card], table: Sequence[Sequence[Card]],
                  old: TableCodes | None = None) -> Verdict | None:
    """The move ``played`` -> ``table`` in ``position`` as a ``Verdict`` when it is legal by
    ``solver.validate.play_problems``; None when it may not be (ask ``play_problems``).
    ``old``: ``position.table`` in codes, if the caller has it."""
    if not _sequences(played, table):
        return None
    played_codes = codes_of(played)
    flat, lengths = flat_groups(table)
    if NOT_A_CARD in played_codes or NOT_A_CARD in flat:
        return None
    ace_mode = ACE_CODES[position.variant.ace]
    if old is None:
        old = table_codes(position.table, ace_mode)
    new_flat, new_lengths = _array(flat), _array(lengths)
    status, rows, row_lengths = check_move(
        old.flat_array, old.length_array, new_flat, new_lengths, _array(played_codes),
        _array(codes_of(position.hand)), ace_mode)
    if status != PASSED or _beyond_groups(position, played, table, old.flat + flat):
        return None
    return Verdict(played_codes, _frozen(TableCodes(flat, lengths, rows, row_lengths, new_flat,
                                                    new_lengths)))


def _beyond_groups(position: Position, played: Sequence[Card],
                   table: Sequence[Sequence[Card]], codes: list[int]) -> bool:
    """True when the rules past single groups refuse the move: the jokers' (only when a joker
    lies on either table: without one they have nothing to judge) and the opening's."""
    problems: list[str] = []
    if position.variant.joker_rule != "none" and max(codes, default=0) >= JOKER_CODE:
        problems = joker_problems(position, played, table)
    if not problems and not position.opened and played:
        problems = opening_problems(position, played, table)
    return bool(problems)


def _sequences(played: object, table: object) -> bool:
    """The shapes the fast path reads: a list or tuple of cards, and of groups of cards."""
    kinds = (list, tuple)
    return isinstance(played, kinds) and isinstance(table, kinds) and \
        all(isinstance(group, kinds) for group in table)


def _array(codes: list[int]) -> np.ndarray:
    return np.array(codes, dtype=np.int64)
