"""A stripped-down game for rollouts: card-count arrays straight into the kernel.

The expert bot imagines how the game may go on after each candidate move. The referee is too
thorough for that (it validates every move, builds observations, keeps a record), so this
simulator keeps only what a rollout needs: hands as count arrays, the table as card-code
groups, the stock, whose turn it is, and two policies played by the kernel: ``greedy`` (the
biggest play, else draw) and ``hoard`` (draw until the whole hand can go out at once, where
the turn allows drawing instead of playing). Each kernel search is capped, so a huge hoarded
hand cannot stall a rollout. It models the turn structures of the joker-free variants (play
or draw, draw first, forced play, guadalupe) and their openings; it never judges legality.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bots.players.work import solve_counts
from bots.referee.scoring import card_value
from solver.cards import CARDS
from solver.constants import N_CARD_TYPES
from solver.limit import Limit
from solver.problem import NONE
from solver.variants import Variant

CARD_VALUES: dict[str, np.ndarray] = {}
SEARCH_LIMIT = Limit(work=4_000)  # per kernel search in a rollout (a few ms at worst)
GREEDY, HOARD = 0, 1


def supported(variant: Variant) -> bool:
    """Whether rollouts can model this variant (joker-free, no carousel turns)."""
    return variant.jokers == 0 and variant.turn != "carousel"


def values(variant: Variant) -> np.ndarray:
    """Penalty value of each card index under the variant's scoring."""
    key = variant.scoring
    if key not in CARD_VALUES:
        CARD_VALUES[key] = np.array([card_value(variant, c) for c in CARDS], dtype=np.int64)
    return CARD_VALUES[key]


@dataclass
class SimState:
    """One imagined world: every hand known, the stock in some order."""

    variant: Variant
    hands: list[np.ndarray]
    table: list[tuple[int, ...]]
    stock: list[int]
    current: int
    opened: list[bool]
    policies: list[int] | None = None
    passes: int = 0
    winner: int | None = None
    over: bool = False

    def table_counts(self) -> tuple[np.ndarray, np.ndarray]:
        need = np.zeros(N_CARD_TYPES, dtype=np.int64)
        free = np.zeros(N_CARD_TYPES, dtype=np.int64)
        for group in self.table:
            for code in group:
                (free if len(group) == 1 else need)[code] += 1
        return need, free

    def best_play(self, player: int, hand: np.ndarray) -> tuple[np.ndarray, list] | None:
        """The kernel's biggest play for ``player`` from ``hand``, as (played, new table)."""
        variant = self.variant
        opening = not self.opened[player]
        hand_only = opening and variant.opening_points > 0
        need, free = (NONE, NONE) if hand_only else self.table_counts()
        part = solve_counts(need, hand, singles=free, ace=variant.ace, decks=variant.decks,
                            opening_points=variant.opening_points if hand_only else 0,
                            limit=SEARCH_LIMIT)
        if part.score <= 0:
            return None
        rows = part.groups.tolist()
        groups = [tuple(rows[g][:n]) for g, n in enumerate(part.lengths.tolist())]
        if hand_only:
            return part.played, self.table + groups
        used = np.bincount(part.groups[part.groups >= 0], minlength=N_CARD_TYPES)
        lone = free - np.clip(used - need - part.played, 0, None)
        groups += [(int(c),) for c in np.flatnonzero(lone > 0) for _ in range(int(lone[c]))]
        return part.played, groups

    def play(self, player: int, played: np.ndarray, table: list) -> None:
        self.hands[player] = self.hands[player] - played
        self.table = table
        self.opened[player] = True
        self.passes = 0
        if self.hands[player].sum() == 0:
            self.winner = player
            self.over = True

    def draw(self, player: int, count: int = 1) -> int:
        taken = 0
        while self.stock and taken < count:
            self.hands[player][self.stock.pop()] += 1
            taken += 1
        if self.variant.end_on_empty_stock and not self.stock:
            self.over = True
        return taken

    def deficit(self, player: int) -> int:
        """Cards ``player`` could not place with their biggest play now."""
        hand = self.hands[player]
        best = self.best_play(player, hand)
        return int(hand.sum()) - (0 if best is None else int(best[0].sum()))

    def step(self) -> None:
        """One turn of the current player, by their policy (greedy unless told)."""
        player = self.current
        variant = self.variant
        hand = self.hands[player]
        moved = False
        hoarding = self.policies is not None and self.policies[player] == HOARD \
            and variant.turn in ("play_or_draw", "guadalupe") and not variant.draw_first
        if hoarding and self.stock:
            best = self.best_play(player, hand)
            if best is not None and int(best[0].sum()) == int(hand.sum()):
                self.play(player, *best)
            else:
                self.draw(player, 2 if variant.turn == "guadalupe" else 1)
            self.passes = 0
            self.current = (player + 1) % len(self.hands)
            return
        if variant.turn == "forced":
            while True:
                best = self.best_play(player, hand)
                if best is not None:
                    self.play(player, *best)
                    moved = True
                    break
                if not self.draw(player):
                    break
                moved = True
                hand = self.hands[player]
        else:
            locked = np.zeros(N_CARD_TYPES, dtype=np.int64)
            if variant.draw_first and self.stock:
                before = hand.copy()
                self.draw(player)
                moved = True
                locked = self.hands[player] - before
                hand = self.hands[player]
            best = self.best_play(player, hand - locked)
            if best is not None:
                self.play(player, *best)
                moved = True
                if variant.turn == "guadalupe" and not self.over:
                    self.draw(player)
            elif not variant.draw_first and self.draw(player, 2 if variant.turn == "guadalupe"
                                                       else 1):
                moved = True
        self.passes = 0 if moved else self.passes + 1
        if self.passes >= len(self.hands):
            self.over = True
        self.current = (player + 1) % len(self.hands)

    def outcome(self, player: int) -> float:
        """1 for a win, 0 for a loss, a share for a tie. An unfinished game is judged by how
        far each player is from going out: the cards their biggest play would leave."""
        if self.winner is not None:
            return 1.0 if self.winner == player else 0.0
        worth = values(self.variant)
        if self.over:
            points = [int(hand @ worth) for hand in self.hands]
            best = min(points)
            if points[player] != best:
                return 0.0
            return 1.0 / sum(p == best for p in points)
        mine = self.deficit(player)
        rival = min(self.deficit(i) for i in range(len(self.hands)) if i != player)
        return 1.0 / (1.0 + np.exp((mine - rival) / 1.5))
