"""The numeric form of one solve request, shared by every backend.

A ``Problem`` says, per real card (index 0..51): how many copies must be placed (table cards
that are not singles), how many may be placed or left alone (original singles), how many the
hand offers and what each played hand card is worth. Backends answer with a ``Partition``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from solver.cards import N_CARD_TYPES, Card
from solver.groups import candidate_runs, slot_window
from solver.position import Position

OBJECTIVES = ("cards", "points")
POINTS = np.array([min(i % 13 + 1, 10) for i in range(N_CARD_TYPES)], dtype=np.int64)


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
    """The table's groups as they lie (card indices, singles excluded): a known arrangement
    that backends may use to order their search or warm-start; never needed for correctness."""

    @classmethod
    def from_position(cls, position: Position, objective: str = "cards") -> Problem:
        """Encode a (validated, joker-free) position for the backends."""
        variant = position.variant
        hand = position.hand_counts()
        weight = np.ones(N_CARD_TYPES, dtype=np.int64) if objective == "cards" else POINTS.copy()
        opening = not position.opened
        hand_only = opening and variant.opening_points > 0
        if hand_only:
            need = np.zeros(N_CARD_TYPES, dtype=np.int64)
            free = np.zeros(N_CARD_TYPES, dtype=np.int64)
        else:
            free = position.single_counts()
            need = position.table_counts() - free
        return cls(
            need=need, free=free, hand=hand, weight=weight,
            forced=np.zeros(N_CARD_TYPES, dtype=np.int64), ace=variant.ace, decks=variant.decks,
            hand_only=hand_only, min_points=variant.opening_points if hand_only else 0,
            run_from_hand=opening and variant.opening_run,
            table_groups=tuple(
                tuple(card.index for card in group) for group in position.table if len(group) > 1
            ),
        )

    def with_forced(self, forced: np.ndarray) -> Problem:
        """A copy whose listed hand cards must be played."""
        return replace(self, forced=forced, run_from_hand=False)

    def hand_runs(self) -> list[tuple[int, ...]]:
        """Every 3-card suited run the hand holds (card indices), for vatican's opening."""
        return [run for run in candidate_runs(self.ace, 3, 3)
                if all(self.hand[i] > 0 for i in run)]

    def upper_bound(self) -> int:
        """Weight of the whole hand: no play scores more."""
        return int((self.hand * self.weight).sum())


@dataclass
class Partition:
    """A backend's answer: the new groups (card indices), the hand cards played, the score."""

    groups: list[tuple[int, ...]]
    """Groups made of table cards and played cards; original singles left alone excluded."""
    played: np.ndarray
    """Count of each card played from the hand."""
    score: int
    optimal: bool
    stats: dict[str, float] = field(default_factory=dict)

    def played_cards(self) -> list[Card]:
        return [Card.from_index(i) for i in range(N_CARD_TYPES) for _ in range(int(self.played[i]))]


def nothing_played(problem: Problem, optimal: bool) -> Partition:
    """The answer that plays no card (score 0)."""
    return Partition([], np.zeros(N_CARD_TYPES, dtype=np.int64), 0, optimal)


def placeable(problem: Problem) -> np.ndarray:
    """Which optional cards can be in *some* valid group given every card available.

    A fixpoint of a necessary condition (a set of three suits, or a run of three, whose other
    cards are available); dropping the rest changes no optimum and shrinks the search.
    """
    avail = problem.need + problem.free + problem.hand
    ok = avail > 0
    window = slot_window(problem.ace)
    while True:
        present = ok | (problem.need > 0)
        usable = np.zeros(N_CARD_TYPES, dtype=bool)
        by_rank = present.reshape(4, 13)
        suits_per_rank = by_rank.sum(axis=0)
        usable |= (by_rank & (suits_per_rank >= 3)[None, :]).reshape(-1)
        for suit in range(4):
            slots = [bool(present[suit * 13 + t % 13]) for t in range(14)]
            for start in range(window.start, window.stop - 2):
                if slots[start] and slots[start + 1] and slots[start + 2]:
                    for t in range(start, start + 3):
                        usable[suit * 13 + t % 13] = True
        new_ok = ok & (usable | (problem.need > 0))
        if (new_ok == ok).all():
            return ok
        ok = new_ok
