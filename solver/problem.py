"""The numeric form of one solve request, shared by every backend.

A ``Problem`` says, per real card (index 0..51): how many copies must be placed (table cards
that are not singles), how many may be placed or left alone (original singles), how many the
hand offers and what each played hand card is worth. Backends answer with a ``Partition``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from solver.cards import N_CARD_TYPES
from solver.groups import candidate_runs
from solver.position import Position

OBJECTIVES = ("cards", "points")
POINTS = np.array([min(i % 13 + 1, 10) for i in range(N_CARD_TYPES)], dtype=np.int64)
ONES = np.ones(N_CARD_TYPES, dtype=np.int64)
NONE = np.zeros(N_CARD_TYPES, dtype=np.int64)
for _shared in (POINTS, ONES, NONE):
    _shared.flags.writeable = False


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
    table_groups: tuple[tuple[int, ...], ...] = ()
    """The table's groups as they lie (card indices in reading order, singles excluded): a
    known arrangement that backends may use to order their search or warm-start; never
    needed for correctness."""
    table_array: tuple[np.ndarray, np.ndarray] | None = None
    """``table_groups`` as a padded index array and lengths (for the kernel)."""

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
            table_groups=tuple(g for g in position.index_groups if len(g) > 1),
            table_array=position.group_array,
        )

    def with_forced(self, forced: np.ndarray) -> Problem:
        """A copy whose listed hand cards must be played."""
        return replace(self, forced=forced, run_from_hand=False)

    def hand_runs(self) -> list[tuple[int, ...]]:
        """Every 3-card suited run the hand holds (card indices), for vatican's opening."""
        return [run for run in candidate_runs(self.ace, 3, 3)
                if all(self.hand[i] > 0 for i in run)]


@dataclass
class Partition:
    """A backend's answer: the new groups, the hand cards played, the score.

    ``groups[i, :lengths[i]]`` are the card indices of group ``i`` in reading order (runs low
    to high, sets by suit); original singles left alone are not listed.
    """

    groups: np.ndarray
    lengths: np.ndarray
    played: np.ndarray
    """Count of each card played from the hand."""
    score: int
    optimal: bool
    stats: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_groups(cls, groups: list[tuple[int, ...]], played: np.ndarray, score: int,
                    optimal: bool, **stats: float) -> Partition:
        array = np.full((len(groups), 14), -1, dtype=np.int64)
        for row, group in enumerate(groups):
            array[row, : len(group)] = group
        lengths = np.array([len(g) for g in groups], dtype=np.int64)
        return cls(array, lengths, played, score, optimal, dict(stats))


def nothing_played(problem: Problem, optimal: bool) -> Partition:
    """The answer that plays no card (score 0)."""
    return Partition.from_groups([], np.zeros(N_CARD_TYPES, dtype=np.int64), 0, optimal)
