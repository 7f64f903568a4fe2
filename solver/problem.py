"""The numeric form of one solve request, shared by every backend.

A ``Problem`` says, per real card (index 0..51): how many copies must be placed (table cards
that are not singles), how many may be placed or left alone (original singles), how many the
hand offers and what each played hand card is worth. Backends answer with a ``Partition``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from solver.cards import N_CARD_TYPES, Card
from solver.constants import ROW_WIDTH
from solver.groups import arrange_group, held_runs
from solver.position import Position

OBJECTIVES = ("cards", "points")
POINTS = np.array([min(i % 13 + 1, 10) for i in range(N_CARD_TYPES)], dtype=np.int64)
ONES = np.ones(N_CARD_TYPES, dtype=np.int64)
NONE = np.zeros(N_CARD_TYPES, dtype=np.int64)
for _shared in (POINTS, ONES, NONE):
    _shared.flags.writeable = False


def read_only(array: np.ndarray) -> np.ndarray:
    """``array`` as a read-only, C-contiguous view (a copy only when not contiguous).

    Numba compiles one version of a kernel per argument type, and a read-only array is
    another type than a writable one: arrays that reach the kernels all read-only means one
    version each, which ``solver.warmup`` loads before any solve is timed.
    """
    if array.flags.writeable or not array.flags.c_contiguous:
        array = np.ascontiguousarray(array).view()
        array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False)
class Problem:
    """Card counts and rules for one solve; arrays are indexed by card index 0..51."""

    need: np.ndarray
    """Copies that must be placed: the table's cards, original singles excluded."""
    free: np.ndarray
    """Original singles: may join a group or stay alone."""
    hand: np.ndarray
    """Hand cards that may be played."""
    weight: np.ndarray
    """Objective value of each played hand card."""
    forced: np.ndarray
    """Hand cards that must be played (a lower bound on the played count)."""
    ace: str
    decks: int
    hand_only: bool = False
    """Opening play: only new groups from the hand; the table is untouched."""
    min_points: int = 0
    """Opening play: the played cards must be worth at least this many points."""
    run_from_hand: bool = False
    """Vatican opening: the play must contain a 3-card suited run of hand cards."""
    table_array: tuple[np.ndarray, np.ndarray] | None = None
    """The table's groups as they lie (singles included), as a padded array of card codes in
    reading order and lengths: a known arrangement that backends may use to order their
    search or warm-start; never needed for correctness (``table_groups`` as tuples)."""
    joker_rule: str = "none"
    """How table jokers behave (docs/rules.md §8): none, carousel, vatican or tahiti."""
    hand_jokers: int = 0
    """Jokers in the hand: each may be played under any name."""
    joker_names: np.ndarray = field(default_factory=lambda: NONE)
    """Per card index, how many jokers on the table name it now."""
    table_real: np.ndarray = field(default_factory=lambda: NONE)
    """Real cards on the table (singles included): what can free a joker (not in tahiti)."""
    stuck: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """Vatican: jokers whose name has no real card on the table, with their neighbour kinds."""
    locked: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """Tahiti: each locked group as (its joker's name, its card codes in reading order)."""

    def __post_init__(self) -> None:
        # The kernels see these arrays: one argument type each (see ``read_only``).
        for name in ("need", "free", "hand", "weight", "forced", "joker_names", "table_real"):
            object.__setattr__(self, name, read_only(getattr(self, name)))
        if self.table_array is not None:
            object.__setattr__(self, "table_array", tuple(map(read_only, self.table_array)))

    @classmethod
    def from_position(cls, position: Position, objective: str = "cards") -> Problem:
        """Encode a (validated, joker-free) position for the backends."""
        variant = position.variant
        weight = ONES if objective == "cards" else POINTS
        opening = not position.opened
        hand_only = opening and variant.opening_points > 0
        if hand_only:
            need, free = NONE, NONE
        else:
            need, free = position.mandatory_counts(), position.single_counts()
        return cls(
            need=need, free=free, hand=position.hand_counts(), weight=weight,
            forced=NONE, ace=variant.ace, decks=variant.decks,
            hand_only=hand_only, min_points=variant.opening_points if hand_only else 0,
            run_from_hand=opening and variant.opening_run,
            table_array=position.group_array,
            **joker_context(position),
        )

    @cached_property
    def table_groups(self) -> tuple[tuple[int, ...], ...]:
        """The table's groups as they lie, card codes in reading order, singles excluded
        (built when first asked for: the kernel reads ``table_array``)."""
        if self.table_array is None:
            return ()
        rows, lengths = self.table_array
        return tuple(tuple(row[:n]) for row, n in zip(rows.tolist(), lengths.tolist(),
                                                      strict=True) if n > 1)

    @cached_property
    def table_jokers(self) -> int:
        """Jokers on the table (computed once: every solve reads it several times)."""
        return int(self.joker_names.sum())

    def with_forced(self, forced: np.ndarray) -> Problem:
        """A copy whose listed hand cards must be played."""
        return replace(self, forced=forced, run_from_hand=False)

    def hand_runs(self) -> list[tuple[int, ...]]:
        """Every 3-card suited run the hand holds (card indices), for vatican's opening."""
        return held_runs(self.ace, set(np.flatnonzero(self.hand > 0).tolist()))


@dataclass
class Partition:
    """A backend's answer: the new groups, the hand cards played, the score.

    ``groups[i, :lengths[i]]`` are the card indices of group ``i`` in reading order (runs low
    to high, sets by suit); original singles left alone are not listed.
    """

    groups: np.ndarray
    lengths: np.ndarray
    played: np.ndarray
    """Count of each real card played from the hand."""
    score: int
    optimal: bool
    stats: dict[str, float] = field(default_factory=dict)
    played_jokers: int = 0
    """Jokers played from the hand."""

    @classmethod
    def from_groups(cls, groups: list[tuple[int, ...]], played: np.ndarray, score: int,
                    optimal: bool, played_jokers: int = 0, **stats: float) -> Partition:
        array = np.full((len(groups), ROW_WIDTH), -1, dtype=np.int64)
        for row, group in enumerate(groups):
            array[row, : len(group)] = group
        lengths = np.array([len(g) for g in groups], dtype=np.int64)
        return cls(array, lengths, played, score, optimal, dict(stats), played_jokers)


def joker_context(position: Position) -> dict:
    """The Problem fields that describe jokers (empty for joker-free positions)."""
    if not position.has_jokers:
        return {}
    names = np.zeros(N_CARD_TYPES, dtype=np.int64)
    stuck, locked = [], []
    rule = position.variant.joker_rule
    table_real = position.table_counts()
    for joker, group in position.table_jokers:
        names[joker.index] += 1
        if rule == "vatican" and table_real[joker.index] == 0:
            stuck.append((joker.index, _neighbour_kinds(group, joker, position.variant.ace)))
        if rule == "tahiti":
            ordered = arrange_group(group, position.variant.ace)
            locked.append((joker.index, tuple(card.code for card in ordered)))
    return {"joker_rule": rule, "hand_jokers": position.hand_jokers, "joker_names": names,
            "table_real": table_real, "stuck": tuple(stuck), "locked": tuple(locked)}


def _neighbour_kinds(group, joker: Card, ace: str) -> tuple[int, ...]:
    """Card indices that lie next to ``joker`` in ``group`` (run neighbours, or its set)."""
    ordered = arrange_group(group, ace)
    at = next(i for i, card in enumerate(ordered) if card is joker)
    if len({card.rank for card in ordered}) == 1:
        return tuple(sorted(c.index for i, c in enumerate(ordered) if i != at))
    return tuple(sorted(ordered[i].index for i in (at - 1, at + 1) if 0 <= i < len(ordered)))


def nothing_played(problem: Problem, optimal: bool) -> Partition:
    """The answer that plays no card (score 0)."""
    return Partition.from_groups([], np.zeros(N_CARD_TYPES, dtype=np.int64), 0, optimal)
